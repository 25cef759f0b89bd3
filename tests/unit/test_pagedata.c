/* Unit tests: the data of the site's pages, as invariants over every page
 * the fixture database gives.
 *
 * - GPU pages: every GPU of the tables has one page at gpu/<slug>/; on each
 *   platform the headline (recommendation, fallback, newest with code) is
 *   the answer engine's own answer for that GPU, asked without the grid's
 *   precomputed verdicts; every line of the "by driver" table is what the
 *   engine answers for a driver at that line's floor.
 * - Release pages: every row of the view is on exactly one release page,
 *   the page of its project and version; every wheel's file name is on
 *   it; a row's binaries are its own.
 * - The grid every page reads: each cell (device x view row) is the
 *   verdict compat_judge gives that row alone, and every GPU's device is
 *   covered.
 * - The changes page: one entry per (project, release), newest first; each
 *   target an item says was added is in the variant's newest row of this
 *   release and not in the previous release's, and the other way round
 *   for dropped; an item is "changed" exactly when it is new, first in
 *   the data after an older release, gone, or adds or drops a target.
 * - Matrix pages: one per project; each view row of the project's newest
 *   SITEDATA_MATRIX_RELEASES releases (of a release's nightlies, the
 *   newest) is in exactly one table, the one of its platform and vendor;
 *   each row has one cell per column, the grid's verdict for it.
 * - Wheel pages: every scanned wheel with binaries has one, listing each
 *   binary once, in the record's order, with unique table ids, its targets
 *   in target order, each target once, and the record's SASS union.
 *
 * Usage: test_pagedata DATA_DIR SITE_DB WORK_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "answer.h"
#include "compat.h"
#include "db.h"
#include "dbmerge.h"
#include "dbview.h"
#include "dotver.h"
#include "fsutil.h"
#include "grid.h"
#include "fixturedb.h"
#include "feed_gpus.h"
#include "harness.h"
#include "query.h"
#include "recbinary.h"
#include "record.h"
#include "sitedata.h"
#include "sitedata_state.h" /* sitedata_newest_row: the row the changes page compares */
#include "strmap.h"
#include "tables.h"
#include "tmpl.h"
#include "target.h"

static struct tables T;
static const char *const platforms[] = {"linux-x86_64", "linux-aarch64", "windows-x86_64",
                                        "windows-arm64"};

static const char *jstr(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static int str_is(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

/* ---- wheel pages ------------------------------------------------------------ */

static size_t wheel_pages, wheel_binaries;

/* A field of a typed page value (TMPL_MISSING when it has none). */
static struct tmpl_value field(const struct tmpl_value *v, const char *name)
{
    struct tmpl_value out = {.kind = TMPL_MISSING};
    tmpl_value_field(v, name, &out);
    return out;
}

static size_t length(const struct tmpl_value *v)
{
    return tmpl_value_items(v);
}

static struct tmpl_value item(const struct tmpl_value *v, size_t i)
{
    struct tmpl_value out = {.kind = TMPL_MISSING};
    v->type->at(v, i, &out);
    return out;
}

static int str_of(const struct tmpl_value *v, const char *want)
{
    return v->kind == TMPL_STRING && strlen(want) == v->n &&
           memcmp(v->s ? v->s : v->buf, want, v->n) == 0;
}

static int wheel_page(void *ud, unsigned worker, struct record *r, struct wa_error *err)
{
    (void)ud;
    (void)worker;
    (void)err;
    struct sitedata_wheel w;
    sitedata_wheel_make(r, &w);
    struct tmpl_value p;
    sitedata_wheel_value(&w, &p);
    wheel_pages++;
    struct tmpl_value key = field(&p, "key"), fname = field(&p, "filename");
    OK(str_of(&key, r->key) && str_of(&fname, r->filename), "wheel page %s: its key and file name",
       r->key);
    struct tmpl_value bins = field(&p, "binaries");
    INT_EQ((long)length(&bins), (long)r->binaries.n, "wheel page: one entry per binary");
    OK((field(&p, "has_binaries").kind == TMPL_TRUE) == (r->binaries.n > 0),
       "wheel page %s: has_binaries says whether it lists any", r->key);
    /* a wheel page is a scanned wheel's: nothing it says is inferred */
    OK(field(&p, "inferred_page").kind == TMPL_MISSING &&
           field(&p, "has_sass").kind == TMPL_MISSING,
       "wheel page %s: no text of an inferred wheel", r->key);
    struct strmap *ids = strmap_new();
    for (size_t i = 0; i < length(&bins); i++) {
        wheel_binaries++;
        struct tmpl_value b = item(&bins, i);
        const struct recbinary *rb = &r->binaries.v[i];
        struct tmpl_value path = field(&b, "path"), id = field(&b, "table_id");
        OK(str_of(&path, rb->path), "wheel page %s: binary %zu in the record's order", r->key, i);
        char idtext[64] = "";
        if (id.kind == TMPL_STRING)
            snprintf(idtext, sizeof idtext, "%.*s", (int)id.n, id.s ? id.s : id.buf);
        OK(idtext[0] && !strmap_get(ids, idtext, NULL), "wheel page %s: table id %s unique", r->key,
           idtext);
        strmap_put(ids, idtext, i);
        OK((field(&b, "bundled").kind == TMPL_TRUE) == (rb->bundled != 0),
           "wheel page %s: binary %zu bundled as the type says", r->key, i);
        struct tmpl_value tl = field(&b, "target_list");
        INT_EQ((long)length(&tl), (long)rb->ntargets, "each target once");
        struct target prev = {0};
        for (size_t k = 0; k < length(&tl); k++) {
            struct tmpl_value e = item(&tl, k), name = field(&e, "name");
            char text[TARGET_NAME_MAX] = "";
            if (name.kind == TMPL_STRING)
                snprintf(text, sizeof text, "%.*s", (int)name.n, name.s ? name.s : name.buf);
            struct target t = {0};
            OK(target_parse(text, &t) == 0, "a target name: %s", text);
            OK(k == 0 || target_cmp(&prev, &t) < 0, "wheel page %s: targets in target order (%s)",
               r->key, text);
            prev = t;
        }
    }
    strmap_free(ids);
    sitedata_wheel_free(&w);
    record_free(r);
    return 0;
}

/* ---- GPU pages ---------------------------------------------------------------- */

/* The install a page names, against the engine's: typed (the page) and
 * JSON (gpus.json, the feed). */
static void text_of(const struct tmpl_value *v, char *buf, size_t n);

static void same_install(const struct tmpl_value *page, const struct answer_install *a,
                         const char *what)
{
    if (!a) {
        OK(page->kind == TMPL_NULL, "%s: none, as the engine says", what);
        return;
    }
    struct tmpl_value index = field(page, "index"), pin = field(page, "pin");
    char ti[128], tp[128];
    text_of(&index, ti, sizeof ti);
    text_of(&pin, tp, sizeof tp);
    OK(page->kind == TMPL_OBJECT && str_is(ti, a->row->variant) && str_is(tp, a->pin),
       "%s: %s %s, as the engine says (page: %s %s)", what, a->row->variant, a->pin, ti, tp);
}

static void same_install_json(json_t *feed, const struct answer_install *a, const char *what)
{
    if (!a) {
        OK(json_is_null(feed), "%s: none in the feed, as the engine says", what);
        return;
    }
    OK(json_is_object(feed) && str_is(jstr(feed, "index"), a->row->variant) &&
           str_is(jstr(feed, "pin"), a->pin),
       "%s: %s %s in the feed, as the engine says (feed: %s %s)", what, a->row->variant, a->pin,
       feed ? jstr(feed, "index") : "-", feed ? jstr(feed, "pin") : "-");
}

static const struct gpu *gpu_named(const char *name)
{
    for (size_t g = 0; g < T.ngpus; g++)
        if (str_is(T.gpus[g].name, name))
            return &T.gpus[g];
    return NULL;
}

static size_t driver_lines, answered, grid_cells_checked;

/* One platform of a GPU page (rec: its entry of recommendation_list, or
 * missing) and of its gpus.json entry (feed). */
static void gpu_platform(const struct dbview *v, const struct gpu *g, const char *platform,
                         const struct tmpl_value *rec, json_t *feed)
{
    struct query_options o = {0};
    o.cc = g->cc;
    o.arm_host = g->arm_host;
    o.project = "torch";
    o.platform = platform;
    struct wa_error err;
    struct answer_result *r = query_answer(v, &o, &err);
    if (!r) {
        OK(rec->kind == TMPL_MISSING && json_is_null(feed),
           "%s on %s: the engine has no answer (%s), nor has the page or the feed", g->name,
           platform, err.msg);
        return;
    }
    if (rec->kind != TMPL_OBJECT || !json_is_object(feed)) {
        OK(0, "%s on %s: the engine has an answer, the page or the feed none", g->name, platform);
        answer_free(r);
        return;
    }
    answered++;
    char what[300], text[128];
    static const char *const names[] = {"recommendation", "fallback", "newest_with_code"};
    const struct answer_install *want[] = {r->recommendation, r->fallback, r->newest_with_code};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        snprintf(what, sizeof what, "%s on %s: the %s", g->name, platform, names[k]);
        struct tmpl_value x = field(rec, names[k]);
        same_install(&x, want[k], what);
        same_install_json(json_object_get(feed, names[k]), want[k], what);
    }
    struct tmpl_value rel = field(rec, "release");
    text_of(&rel, text, sizeof text);
    OK(str_is(text, r->version) && str_is(jstr(feed, "release"), r->version),
       "%s on %s: the release asked about", g->name, platform);
    OK((field(rec, "applies").kind == TMPL_TRUE) == (r->applies != 0) &&
           json_is_true(json_object_get(feed, "applies")) == (r->applies != 0),
       "%s on %s: applies as the engine says", g->name, platform);
    /* the driver table: each line is the answer at its floor */
    struct tmpl_value bd = field(rec, "by_driver");
    INT_EQ((long)length(&bd), (long)r->nby_driver, "the driver table's lines");
    INT_EQ((long)json_array_size(json_object_get(feed, "by_driver")), (long)r->nby_driver,
           "the feed's driver table's lines");
    OK((field(rec, "has_drivers").kind == TMPL_TRUE) == (r->nby_driver > 1),
       "%s on %s: the driver table shown where it has more than one line", g->name, platform);
    for (size_t i = 0; i < length(&bd); i++) {
        struct tmpl_value line = item(&bd, i), fl = field(&line, "min_driver");
        char floor[32];
        text_of(&fl, floor, sizeof floor);
        if (!floor[0])
            continue; /* AMD: no driver floors */
        struct query_options od = o;
        od.has_driver = 1;
        od.driver_text = floor;
        if (dotver_parse(floor, &od.driver) < 0) {
            OK(0, "%s: driver floor %s parses", g->name, floor);
            continue;
        }
        struct answer_result *at = query_answer(v, &od, &err);
        const struct answer_install *runs = at ? answer_runs(at) : NULL;
        snprintf(what, sizeof what, "%s on %s with driver %s: the driver table's line", g->name,
                 platform, floor);
        same_install(&line, runs, what);
        same_install_json(json_array_get(json_object_get(feed, "by_driver"), i), runs, what);
        driver_lines++;
        answer_free(at);
    }
    answer_free(r);
}

static void gpu_pages(const struct dbview *v, const struct sitedata *d)
{
    size_t n = sitedata_gpu_count(d);
    struct strmap *slugs = strmap_new();
    size_t named = 0;
    json_t *doc = feed_gpus_json(d);
    json_t *feed = json_object_get(doc, "gpus");
    INT_EQ((long)json_array_size(feed), (long)n, "gpus.json: one entry per GPU page");
    for (size_t i = 0; i < n; i++) {
        struct sitedata_gpu_page gp;
        sitedata_gpu_page_make(d, i, &gp);
        struct tmpl_value p;
        sitedata_gpu_page_value(&gp, &p);
        char name[256], slug[256], page[300];
        struct tmpl_value fn = field(&p, "name"), fs = field(&p, "slug"), fp = field(&p, "page");
        text_of(&fn, name, sizeof name);
        text_of(&fs, slug, sizeof slug);
        text_of(&fp, page, sizeof page);
        const struct gpu *g = gpu_named(name);
        OK(g != NULL, "GPU page %zu names a GPU of the tables (%s)", i, name);
        OK(slug[0] && !strmap_get(slugs, slug, NULL), "GPU page %s: its slug is unique", name);
        if (slug[0])
            strmap_put(slugs, slug, i);
        char want[300];
        snprintf(want, sizeof want, "gpu/%s/", slug);
        OK(str_is(page, want), "GPU page %s at %s", name, want);
        json_t *entry = json_array_get(feed, i);
        OK(str_is(jstr(entry, "name"), name) && str_is(jstr(entry, "page"), page),
           "gpus.json's entry %zu is GPU page %s", i, name);
        if (g) {
            named++;
            struct tmpl_value list = field(&p, "recommendation_list");
            json_t *recs = json_object_get(entry, "recommendations");
            size_t at = 0;
            for (size_t k = 0; k < sizeof platforms / sizeof platforms[0]; k++) {
                struct tmpl_value rec = {.kind = TMPL_MISSING};
                if (at < length(&list)) {
                    struct tmpl_value x = item(&list, at), xp = field(&x, "platform");
                    char plat[64];
                    text_of(&xp, plat, sizeof plat);
                    if (str_is(plat, platforms[k])) {
                        rec = x;
                        at++;
                    }
                }
                gpu_platform(v, g, platforms[k], &rec, json_object_get(recs, platforms[k]));
            }
            INT_EQ((long)at, (long)length(&list), "GPU page: the platforms in order, each once");
        }
        sitedata_gpu_page_free(&gp);
    }
    /* every GPU of the tables has a page (names sold with several chips
     * have one page) */
    size_t distinct = 0;
    struct strmap *names = strmap_new();
    for (size_t g = 0; g < T.ngpus; g++)
        if (!strmap_get(names, T.gpus[g].name, NULL)) {
            strmap_put(names, T.gpus[g].name, g);
            distinct++;
        }
    INT_EQ((long)named, (long)distinct, "one GPU page per GPU name of the tables");
    strmap_free(names);
    json_decref(doc);
    strmap_free(slugs);
}

/* ---- the grid ---------------------------------------------------------------- */

static void grid_cells(const struct dbview *v)
{
    struct grid g;
    grid_build(&g, v, &T);
    size_t cells = 0, differ = 0;
    for (size_t c = 0; c < g.nccs; c++)
        for (size_t r = 0; r < v->nrows; r++) {
            const struct dbview_row *x = &v->rows[r];
            struct compat_query q = {
                g.ccs[c], 0, {0}, tables_platform_os(x->platform), TARGET_FEAT_ANY};
            struct compat_result want;
            compat_judge(&T, &q, &x->code, &x->cuda, &want);
            const struct compat_result *got = grid_at(&g, c, r);
            cells++;
            if (memcmp(got, &want, sizeof want) != 0 && differ++ < 5)
                OK(0, "grid cell (device %u, row %s %s %s %s) is compat_judge's verdict", g.ccs[c],
                   x->project, x->version, x->variant, x->platform);
        }
    OK(differ == 0 && cells > 0, "grid: every cell is the row's own verdict (%zu of %zu differ)",
       differ, cells);
    grid_cells_checked = cells;
    for (size_t i = 0; i < T.ngpus; i++)
        OK(grid_get(&g, T.gpus[i].cc, 0) != NULL || v->nrows == 0, "grid: %s's device covered",
           T.gpus[i].name);
    grid_free(&g);
}

/* ---- release pages -------------------------------------------------------------- */

/* A string field's text ("" when it is not a string). */
static void text_of(const struct tmpl_value *v, char *buf, size_t n)
{
    buf[0] = 0;
    if (v->kind == TMPL_STRING)
        snprintf(buf, n, "%.*s", (int)v->n, v->s ? v->s : v->buf);
}

static void release_pages(const struct dbview *v, const struct sitedata *d)
{
    struct strmap *seen = strmap_new(); /* project|version|variant|platform */
    size_t next = 0, pages = 0, rows = 0, binaries = 0;
    struct sitedata_release rp;
    while (next < v->nrows) {
        size_t end = sitedata_release_end(v, next);
        sitedata_release_make(d, next, end, &rp);
        next = end;
        pages++;
        struct tmpl_value p;
        sitedata_release_value(&rp, &p);
        char project[256], version[256];
        struct tmpl_value pv = field(&p, "project"), vv = field(&p, "version");
        text_of(&pv, project, sizeof project);
        text_of(&vv, version, sizeof version);
        struct strmap *ids = strmap_new(); /* every id of the page, once */
        struct tmpl_value list = field(&p, "rows");
        for (size_t i = 0; i < length(&list); i++) {
            struct tmpl_value row = item(&list, i);
            const struct dbview_row *vr = rp.rows[i].row;
            char variant[128], platform[128], key[512];
            struct tmpl_value fv = field(&row, "variant"), fp = field(&row, "platform");
            text_of(&fv, variant, sizeof variant);
            text_of(&fp, platform, sizeof platform);
            snprintf(key, sizeof key, "%s|%s|%s|%s", project, version, variant, platform);
            OK(!strmap_get(seen, key, NULL), "release pages: %s on one page only", key);
            strmap_put(seen, key, rows++);
            OK(strcmp(vr->project, project) == 0 && strcmp(vr->version, version) == 0,
               "release page %s %s: row %s of its own version", project, version, key);
            const char *idnames[] = {"section_id", "wheels_id"};
            for (size_t k = 0; k < 2; k++) {
                struct tmpl_value id = field(&row, idnames[k]);
                char t[256];
                text_of(&id, t, sizeof t);
                OK(t[0] && !strmap_get(ids, t, NULL), "release page %s %s: id %s unique", project,
                   version, t);
                strmap_put(ids, t, 0);
            }
            OK((field(&row, "has_wheels").kind == TMPL_TRUE) == (vr->nwheels > 0),
               "release page %s: has_wheels says whether it lists wheels", key);
            OK((field(&row, "has_differences").kind == TMPL_TRUE) == (vr->ndifferences > 0),
               "release page %s: has_differences says whether it lists any", key);
            struct tmpl_value diffs = field(&row, "differences");
            INT_EQ((long)length(&diffs), (long)vr->ndifferences, "each difference once");
            OK((field(&row, "declared").kind == TMPL_OBJECT) == (vr->declared != NULL),
               "release page %s: the declared list where the data has one", key);
            OK((field(&row, "cuda").kind == TMPL_STRING) == (vr->cuda.n > 0),
               "release page %s: a CUDA version for CUDA variants only", key);
            struct tmpl_value bins = field(&row, "binaries");
            INT_EQ((long)length(&bins), (long)vr->binaries.n, "release page: each own binary once");
            for (size_t k = 0; k < length(&bins); k++) {
                binaries++;
                struct tmpl_value b = item(&bins, k), id = field(&b, "table_id");
                const struct recbinary *rb = &vr->binaries.v[k];
                char t[256];
                text_of(&id, t, sizeof t);
                OK(t[0] && !strmap_get(ids, t, NULL), "release page %s: table id %s unique", key,
                   t);
                strmap_put(ids, t, 0);
                struct tmpl_value tl = field(&b, "target_list");
                INT_EQ((long)length(&tl), (long)rb->ntargets, "release page: each target once");
                struct target prev = {0};
                for (size_t m = 0; m < length(&tl); m++) {
                    struct tmpl_value e = item(&tl, m), name = field(&e, "name");
                    char tn[TARGET_NAME_MAX];
                    text_of(&name, tn, sizeof tn);
                    struct target cur;
                    OK(target_parse(tn, &cur) == 0, "release page %s: target %s parses", key, tn);
                    OK(m == 0 || target_cmp(&prev, &cur) < 0,
                       "release page %s: targets in target order (%s)", key, tn);
                    prev = cur;
                    long mods = -1, total = -1;
                    struct tmpl_value mv = field(&e, "modules"), tv = field(&e, "modules_total");
                    if (mv.kind == TMPL_INT)
                        mods = (long)mv.i;
                    if (tv.kind == TMPL_INT)
                        total = (long)tv.i;
                    OK((field(&e, "all_modules").kind == TMPL_TRUE) ==
                           ((mods < 0 ? 0 : mods) == (total < 0 ? 0 : total)),
                       "release page %s: %s in all modules exactly when its count is the binary's",
                       key, tn);
                }
            }
        }
        strmap_free(ids);
        sitedata_release_free(&rp);
    }
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        char key[512];
        snprintf(key, sizeof key, "%s|%s|%s|%s", row->project, row->version, row->variant,
                 row->platform);
        size_t at;
        OK(strmap_get(seen, key, &at), "view row %s is on its release page", key);
    }
    INT_EQ((long)rows, (long)v->nrows, "release pages: as many rows as the view");
    OK(pages > 0 && binaries > 0, "release pages made (%zu, with %zu binaries)", pages, binaries);
    strmap_free(seen);
}

/* ---- the changes page ------------------------------------------------------------ */

static int row_has(const struct dbview_row *r, const struct target *t)
{
    const struct target *lists[3] = {r->sass, r->ptx, r->gfx};
    size_t n[3] = {r->nsass, r->nptx, r->ngfx};
    for (size_t l = 0; l < 3; l++)
        for (size_t i = 0; i < n[l]; i++)
            if (target_cmp(&lists[l][i], t) == 0)
                return 1;
    return 0;
}

static size_t change_items;

static void changes_page(const struct dbview *v, const struct sitedata *d)
{
    struct strmap *seen = strmap_new();
    size_t releases = 0;
    for (size_t r = 0; r < v->nrows; r++) {
        char key[512];
        snprintf(key, sizeof key, "%s|%s", v->rows[r].project, v->rows[r].release);
        if (!strmap_get(seen, key, NULL)) {
            strmap_put(seen, key, releases++);
        }
    }
    INT_EQ((long)d->nchanges, (long)releases, "changes: one entry per (project, release)");
    for (size_t i = 0; i < d->nchanges; i++) {
        const struct sitedata_change *e = &d->changes[i];
        char key[512];
        snprintf(key, sizeof key, "%s|%s", e->project, e->release);
        size_t at;
        OK(strmap_get(seen, key, &at) && at == i, "changes: %s in view order", key);
        for (size_t k = 0; k < e->nitems; k++) {
            const struct sitedata_change_item *it = &e->items[k];
            change_items++;
            long now = sitedata_newest_row(d, e->project, e->release, it->variant, it->platform);
            long before = e->previous ? sitedata_newest_row(d, e->project, e->previous, it->variant,
                                                            it->platform)
                                      : -1;
            OK((it->state != NULL) == (now < 0),
               "changes %s %s/%s: gone exactly when not in this "
               "release",
               key, it->variant, it->platform);
            for (size_t m = 0; m < it->nadded; m++)
                OK(now >= 0 && before >= 0 && row_has(&v->rows[now], &it->added[m]) &&
                       !row_has(&v->rows[before], &it->added[m]),
                   "changes %s %s/%s: an added target is new in this release", key, it->variant,
                   it->platform);
            for (size_t m = 0; m < it->ndropped; m++)
                OK(now >= 0 && before >= 0 && !row_has(&v->rows[now], &it->dropped[m]) &&
                       row_has(&v->rows[before], &it->dropped[m]),
                   "changes %s %s/%s: a dropped target was in the previous release only", key,
                   it->variant, it->platform);
            int changed = it->state || it->new_variant || (e->previous && it->first_in_data) ||
                          it->nadded || it->ndropped;
            OK(it->changed == changed, "changes %s %s/%s: changed when something changed", key,
               it->variant, it->platform);
            OK(it->changed || !e->previous,
               "changes %s %s/%s: an unchanged variant is listed only for a first release", key,
               it->variant, it->platform);
        }
    }
    strmap_free(seen);
}

/* ---- the matrix pages ------------------------------------------------------------- */

static size_t matrix_rows, matrix_cells;

static void matrix_pages(const struct dbview *v, const struct sitedata *d)
{
    OK(d->nmatrix > 0 && strcmp(d->matrix[0].project, "torch") == 0,
       "matrix: torch's page first (%zu pages)", d->nmatrix);
    unsigned *times = calloc(v->nrows + 1, sizeof *times);
    for (size_t i = 0; i < d->nmatrix; i++) {
        const struct sitedata_matrix *m = &d->matrix[i];
        struct tmpl_value page;
        sitedata_matrix_value(m, &page);
        struct tmpl_value tables = field(&page, "platforms");
        INT_EQ((long)length(&tables), SITEDATA_MATRIX_TABLES,
               "matrix: a table per platform and vendor");
        struct strmap *releases = strmap_new();
        for (size_t k = 0; k < SITEDATA_MATRIX_TABLES; k++) {
            const struct sitedata_matrix_table *t = &m->tables[k];
            const char *platform = sitedata_platforms[k / 2];
            int amd = (int)(k % 2);
            struct tmpl_value tv = item(&tables, k), rows = field(&tv, "rows");
            struct tmpl_value cols = field(&tv, "columns");
            INT_EQ((long)length(&rows), (long)t->nrows, "matrix: each row once");
            for (size_t r = 0; r < t->nrows; r++) {
                const struct dbview_row *row = &v->rows[t->rows[r]];
                times[t->rows[r]]++;
                matrix_rows++;
                strmap_put(releases, row->release, 0);
                OK(strcmp(row->project, m->project) == 0 && strcmp(row->platform, platform) == 0 &&
                       (tables_variant_rocm(row->variant, NULL) != 0) == amd,
                   "matrix %s: %s %s %s in the table of its platform and vendor (%s)", m->project,
                   row->version, row->variant, row->platform, t->id);
                struct tmpl_value rv = item(&rows, r), cells = field(&rv, "cells");
                INT_EQ((long)length(&cells), (long)length(&cols), "matrix: a cell per column");
                for (size_t c = 0; c < length(&cells) && c < t->ncols; c++) {
                    struct tmpl_value cell = item(&cells, c), label = field(&cell, "label");
                    int verdict = grid_at(&d->grid, t->cols[c], t->rows[r])->verdict;
                    matrix_cells++;
                    OK(str_of(&label, compat_verdict_label(verdict)),
                       "matrix %s: %s %s, column %zu: the grid's verdict", m->project, row->version,
                       row->variant, c);
                }
            }
        }
        OK(strmap_count(releases) <= SITEDATA_MATRIX_RELEASES,
           "matrix %s: at most the newest %d releases (%zu)", m->project, SITEDATA_MATRIX_RELEASES,
           strmap_count(releases));
        strmap_free(releases);
    }
    /* every row of a page's project is on it, unless its release is older
     * than the ones shown or it is not its release's newest nightly */
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        OK(times[r] <= 1, "matrix: %s %s %s %s shown once at most", row->project, row->version,
           row->variant, row->platform);
        int nightly_hidden = dbview_is_nightly(row->version) && !sitedata_is_newest(d, r);
        size_t newer = 0; /* releases of the project above this row's */
        const char *last = NULL;
        for (size_t k = 0; k < r; k++)
            if (strcmp(v->rows[k].project, row->project) == 0 &&
                strcmp(v->rows[k].release, row->release) != 0 &&
                (!last || strcmp(last, v->rows[k].release) != 0)) {
                newer++;
                last = v->rows[k].release;
            }
        int listed = 0;
        for (size_t i = 0; i < d->nmatrix; i++)
            listed |= strcmp(d->matrix[i].project, row->project) == 0;
        if (listed && !nightly_hidden && newer < SITEDATA_MATRIX_RELEASES)
            OK(times[r] == 1, "matrix: %s %s %s %s is on its project's page", row->project,
               row->version, row->variant, row->platform);
    }
    free(times);
}

int main(int argc, char **argv)
{
    struct wa_error err;
    if (argc < 4) {
        fprintf(stderr, "usage: test_pagedata DATA_DIR SITE_DB WORK_DIR\n");
        return 2;
    }
    if (tables_load(argv[1], &T, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    char *cache = fixturedb_make(argv[3], (const char *const[]){argv[2]}, 1);
    if (!cache)
        return 2;
    struct dbview v;
    if (dbview_build_with(cache, &T, 0, -1, &v, wheel_page, NULL, &err) < 0) {
        fprintf(stderr, "view: %s\n", err.msg);
        return 2;
    }
    OK(wheel_pages > 0 && wheel_binaries > 0, "wheel pages made (%zu, %zu binaries)", wheel_pages,
       wheel_binaries);
    INT_EQ((long)v.nskipped, 0, "no wheel of the fixture left out");
    struct sitedata d;
    if (sitedata_build(&v, &T, NULL, &d, &err) < 0) {
        fprintf(stderr, "sitedata: %s\n", err.msg);
        return 2;
    }
    grid_cells(&v);
    gpu_pages(&v, &d);
    OK(answered > 1000 && driver_lines > 1000,
       "headlines checked (%zu GPU x platform), driver tables line by line (%zu lines)", answered,
       driver_lines);
    release_pages(&v, &d);
    changes_page(&v, &d);
    matrix_pages(&v, &d);
    printf("pagedata: %zu grid cells, %zu GPU pages, %zu headlines (GPU x platform), %zu "
           "driver-table lines, "
           "%zu view rows on release pages, %zu changes with %zu items, %zu matrix rows with %zu "
           "cells, %zu wheel pages with %zu binaries\n",
           grid_cells_checked, sitedata_gpu_count(&d), answered, driver_lines, v.nrows, d.nchanges,
           change_items, matrix_rows, matrix_cells, wheel_pages, wheel_binaries);
    sitedata_free(&d);
    dbview_free(&v);
    tables_free(&T);
    free(cache);
    return harness_done();
}
