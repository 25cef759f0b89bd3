/*
 * sitedata_gpus: the GPU pages and gpus.json.
 */
#include "sitedata_impl.h"

#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "stack.h"
#include "strmap.h"
#include "timeline.h"
#include "xalloc.h"

/* ---- GPUs ---------------------------------------------------------------- */

static int gpu_cmp(const void *a, const void *b)
{
    const struct gpu *x = *(const struct gpu *const *)a, *y = *(const struct gpu *const *)b;
    return strcmp(x->slug, y->slug);
}

static json_t *gpu_summary(const struct gpu *g)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(g->name));
    json_object_set_new(o, "slug", json_string(g->slug));
    json_object_set_new(o, "vendor", json_string(g->amd ? "amd" : "nvidia"));
    /* "device" is the key the rules use for it: "6.1" or "gfx1100". */
    json_object_set_new(o, "device", sitedata_cc_json(g->cc));
    json_object_set_new(o, "compute_capability", g->amd ? json_null() : sitedata_cc_json(g->cc));
    if (g->amd) {
        char name[TARGET_NAME_MAX];
        target_format(&g->gfx, name, sizeof name);
        json_object_set(o, "gfx", json_object_get(o, "device"));
        json_object_set_new(o, "gfx_target", json_string(name)); /* with its feature modes */
        json_object_set_new(o, "gfx_modes", json_boolean(strchr(name, ':') != NULL));
        json_object_set_new(o, "rocm_support", json_string(g->rocm_support));
    } else {
        json_object_set_new(o, "gfx", json_null());
        json_object_set_new(o, "gfx_target", json_null());
    }
    json_t *others = json_array();
    for (size_t i = 0; i < g->nother; i++)
        json_array_append_new(others, sitedata_cc_json(g->other_cc[i]));
    json_object_set_new(o, "other_devices", others);
    json_object_set_new(o, "arm_host", json_boolean(g->arm_host));
    json_object_set_new(o, "architecture", json_string(g->architecture));
    json_object_set_new(o, "segment", json_string(g->segment));
    json_object_set_new(o, "tegra", json_boolean(g->tegra));
    char *seg = sitedata_segment(g->slug); /* the slug as is: [a-z0-9-] */
    char *page = xasprintf("gpu/%s/", seg);
    json_object_set_new(o, "page", json_string(page));
    free(page);
    free(seg);
    return o;
}

/* One line of a GPU page's history: consecutive releases of one (project,
 * variant, platform), newest first, that got the same answer. */
struct run {
    const char *project, *variant, *platform;
    size_t newest, oldest; /* view rows: the newest patch of each end's release */
    size_t count;          /* releases in the run */
    const struct compat_result *res;
    int status;
    const char *confidence; /* of declared rows, or NULL */
    const char *provenance;
    size_t seq; /* order of the run's start within its group */
};

static int same_answer(const struct run *u, const struct compat_result *res, int status,
                       const char *confidence, const char *provenance)
{
    if (!u->confidence != !confidence || (confidence && strcmp(u->confidence, confidence)) ||
        strcmp(u->provenance, provenance))
        return 0;
    return u->status == status && u->res->verdict == res->verdict &&
           strcmp(u->res->reason, res->reason) == 0 &&
           strcmp(u->res->min_driver, res->min_driver) == 0;
}

static int run_cmp(const void *a, const void *b)
{
    const struct run *x = a, *y = b;
    int c = strcmp(x->project, y->project);
    if (!c) /* the newest CUDA (ROCm) first: the builds people install today */
        c = tables_variant_cmp(y->variant, x->variant);
    if (!c)
        c = strcmp(x->platform, y->platform);
    return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static json_t *release_link(const struct dbview_row *row)
{
    json_t *o = json_object();
    json_object_set_new(o, "release", json_string(row->release));
    char *page = sitedata_release_path(row->project, row->version);
    json_object_set_new(o, "page", json_string(page));
    free(page);
    return o;
}

/* The history of every project on one compute capability, in a compact
 * table: per (project, variant, platform), the runs of releases (newest
 * patch of each) with the same verdict, reason, driver floor and source.
 * A verdict that changes from one release to the next starts a new line,
 * so nothing is lost; a page with hundreds of releases stays a few dozen
 * lines.  [{project, rows: [{variant, platform, newest, oldest, count,
 * verdict...}]}]; *declared_only is set when every row is declared. */
static json_t *gpu_history(struct sitedata *d, uint16_t cc, int tegra, int arm_host,
                           int *declared_only)
{
    const struct dbview *v = d->v;
    struct run *runs = NULL;
    size_t nruns = 0, cap = 0;
    struct strmap *last = strmap_new(); /* group -> its newest run so far + 1 */
    struct strbuf key = STRBUF_INIT;
    int any = 0, all_declared = 1;
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        if (!sitedata_is_newest(d, r) || !grid_row_fits(row, cc) ||
            !query_applies(cc, tegra, arm_host, row->platform))
            continue;
        const struct compat_result *res = grid_get(&d->grid, cc, r);
        any = 1;
        if (row->status != VIEW_DECLARED)
            all_declared = 0;
        strbuf_set_joined(&key, 1, row->project, row->variant, row->platform, (char *)NULL);
        size_t at;
        /* rows come newest version first within a project, so the group's
         * latest run ends at the release just before this one */
        const char *conf = dbview_row_confidence(row), *prov = dbview_row_provenance(row);
        if (strmap_get(last, key.buf, &at) &&
            same_answer(&runs[at - 1], res, row->status, conf, prov)) {
            runs[at - 1].oldest = r;
            runs[at - 1].count++;
            continue;
        }
        runs = xgrow(runs, &cap, nruns + 1, sizeof *runs);
        runs[nruns] = (struct run){row->project, row->variant, row->platform, r,    r,    1,
                                   res,          row->status,  conf,          prov, nruns};
        strmap_put(last, key.buf, ++nruns);
    }
    strbuf_free(&key);
    strmap_free(last);
    if (nruns > 1)
        qsort(runs, nruns, sizeof *runs, run_cmp);
    json_t *out = json_array(), *cur = NULL;
    struct strmap *ids = strmap_new();
    for (size_t i = 0; i < nruns; i++) {
        const struct run *u = &runs[i];
        const struct dbview_row *newest = &v->rows[u->newest], *oldest = &v->rows[u->oldest];
        if (!cur || strcmp(json_string_value(json_object_get(cur, "project")), u->project)) {
            cur = json_object();
            json_object_set_new(cur, "project", json_string(u->project));
            sitedata_set_page_id(cur, "anchor", ids, "history-", u->project);
            json_object_set_new(cur, "rows", json_array());
            json_array_append_new(out, cur);
        }
        json_t *x = json_object();
        json_object_set_new(x, "variant", json_string(u->variant));
        json_object_set_new(x, "platform", json_string(u->platform));
        json_object_set_new(x, "platform_name", json_string(sitedata_platform_name(u->platform)));
        json_object_set_new(x, "newest", release_link(newest));
        if (u->count > 1)
            json_object_set_new(x, "oldest", release_link(oldest));
        json_object_set_new(x, "count", json_integer((json_int_t)u->count));
        json_object_set_new(x, "verdict", json_string(compat_verdict_name(u->res->verdict)));
        json_object_set_new(x, "label", json_string(compat_verdict_label(u->res->verdict)));
        json_object_set_new(x, "symbol", json_string(grid_verdict_symbol(u->res->verdict)));
        json_object_set_new(x, "reason", json_string(u->res->reason));
        json_object_set_new(x, "status", json_string(dbview_status_name(u->status)));
        json_object_set_new(x, "confidence",
                            u->confidence ? json_string(u->confidence) : json_null());
        json_object_set_new(x, "provenance", json_string(u->provenance));
        json_object_set_new(x, "min_driver",
                            u->res->min_driver[0] ? json_string(u->res->min_driver) : json_null());
        json_array_append_new(json_object_get(cur, "rows"), x);
    }
    strmap_free(ids);
    free(runs);
    *declared_only = any && all_declared;
    return out;
}

static char *page_description(const struct gpu *g, json_t *recs);

/* What the GPU pages share, made by sitedata_build_gpus; each page's data
 * is made from it when the page is rendered (sitedata_gpu_page), so the
 * hundreds of pages never sit in memory at once. */
struct sitedata_gpu_state {
    const struct gpu **pages; /* one per page (a name's first table row), by slug */
    json_t **recs;            /* each page's answers (borrowed from cache) */
    size_t *ci;               /* each page's slot in the per-device arrays */
    size_t npages;
    struct recs *cache;
    size_t ncache;
    size_t nslots;
    json_t **releases_by_cc; /* per device (and Arm host): the history */
    int *declared_by_cc;
    char **svg_by_cc;
    size_t (*tl_by_cc)[2];
    json_t **stack_by_cc; /* per device: {platform: the rest of the stack} */
    /* the Python switch's choices: every Python 3 some torch release has
     * wheels for, oldest first (made once: the same on every page) */
    char pythons[64][8];
    struct query_python qpythons[64]; /* the same, parsed: each has a driver table */
    size_t npythons;
    json_t **py_tables; /* each page's (borrowed from cache): recs.py_tables */
};

/* "3.10" before "3.9" is wrong: Python versions by number, a
 * free-threaded build after its regular one (qsort of char[8] rows). */
static int python_cmp_text(const void *a, const void *b)
{
    uint16_t x, y;
    int fx = 0, fy = 0;
    const char *sa = a, *sb = b;
    if (tables_python_parse(sa, &x, &fx) < 0 || tables_python_parse(sb, &y, &fy) < 0)
        return strcmp(sa, sb);
    return x != y ? (x < y ? -1 : 1) : fx - fy;
}

void sitedata_build_gpus(struct sitedata *d)
{
    const struct tables *t = d->t;
    struct sitedata_gpu_state *gs = xcalloc(1, sizeof *gs);
    d->gpu_state = gs;
    const struct gpu **sorted = xmalloc((t->ngpus ? t->ngpus : 1) * sizeof *sorted);
    for (size_t i = 0; i < t->ngpus; i++)
        sorted[i] = &t->gpus[i];
    if (t->ngpus > 1)
        qsort(sorted, t->ngpus, sizeof *sorted, gpu_cmp);
    gs->cache = xcalloc(d->grid.nccs + t->ngpus + 1, sizeof *gs->cache);
    {
        const char *keys[64];
        size_t nk = 0;
        for (size_t k = 0; k < t->npythons; k++)
            for (int ft = 0; ft < 2; ft++) {
                const struct python_support *ps = &t->pythons[k];
                for (size_t j = 0; j < (ft ? ps->nfree_threaded : ps->nversions); j++) {
                    char b[16];
                    tables_python_format(ft ? ps->free_threaded[j] : ps->versions[j], ft, b,
                                         sizeof b);
                    size_t m = 0;
                    while (m < nk && strcmp(keys[m], b) != 0)
                        m++;
                    if (m < nk || nk == 64 || b[0] != '3' || strlen(b) >= 8)
                        continue;                              /* known, full, Python 2 */
                    memcpy(gs->pythons[nk], b, strlen(b) + 1); /* under 8 bytes */
                    keys[nk] = gs->pythons[nk];
                    nk++;
                }
            }
        qsort(gs->pythons, nk, sizeof gs->pythons[0], python_cmp_text);
        gs->npythons = nk;
        for (size_t k = 0; k < nk; k++)
            tables_python_parse(gs->pythons[k], &gs->qpythons[k].python,
                                &gs->qpythons[k].free_threaded);
    }
    gs->nslots = 2 * d->grid.nccs + 2;
    gs->releases_by_cc = xcalloc(gs->nslots, sizeof *gs->releases_by_cc);
    gs->declared_by_cc = xcalloc(gs->nslots, sizeof *gs->declared_by_cc);
    gs->svg_by_cc = xcalloc(gs->nslots, sizeof *gs->svg_by_cc);
    gs->tl_by_cc = xcalloc(gs->nslots, sizeof *gs->tl_by_cc);
    gs->stack_by_cc = xcalloc(gs->nslots, sizeof *gs->stack_by_cc);
    gs->pages = xcalloc(t->ngpus + 1, sizeof *gs->pages);
    gs->recs = xcalloc(t->ngpus + 1, sizeof *gs->recs);
    gs->py_tables = xcalloc(t->ngpus + 1, sizeof *gs->py_tables);
    gs->ci = xcalloc(t->ngpus + 1, sizeof *gs->ci);

    /* the crawled projects, listed once for every device's stack; none
     * but torch: no stack to compute */
    size_t nnames;
    const char **names = stack_projects(d->v, 0, &nnames);
    int companions = 0;
    for (size_t k = 0; k < nnames; k++)
        companions |= strcmp(names[k], "torch") != 0;

    d->gpus = json_object();
    json_object_set_new(d->gpus, "meta", sitedata_meta_copy(d));
    json_t *list = json_array();
    const char *last_slug = "";
    for (size_t i = 0; i < t->ngpus; i++) {
        const struct gpu *g = sorted[i];
        if (strcmp(g->slug, last_slug) == 0)
            continue; /* two table rows with one name: keep the first */
        last_slug = g->slug;
        const struct recs *e = sitedata_recs_for(d, gs->cache, &gs->ncache, g->cc, g->arm_host,
                                                 gs->qpythons, gs->npythons);
        json_t *recs = e->by_platform;
        json_t *s = gpu_summary(g);
        json_object_set(s, "recommendations", recs);
        json_array_append_new(list, s);

        size_t ci = 0;
        while (ci < d->grid.nccs && d->grid.ccs[ci] != g->cc)
            ci++;
        ci = ci * 2 + (g->arm_host != 0); /* Arm-only GPUs have rows of their own */
        if (!gs->releases_by_cc[ci]) {
            gs->releases_by_cc[ci] =
                gpu_history(d, g->cc, g->tegra, g->arm_host, &gs->declared_by_cc[ci]);
            /* the timeline is Linux x86_64's: none where that does not apply */
            gs->svg_by_cc[ci] =
                query_applies(g->cc, g->tegra, g->arm_host, "linux-x86_64")
                    ? timeline_svg(&d->grid, g->cc, &gs->tl_by_cc[ci][0], &gs->tl_by_cc[ci][1])
                    : xstrdup("");
            gs->stack_by_cc[ci] = json_object();
            for (int p = 0; companions && p < SITEDATA_NPLATFORMS; p++) {
                json_t *sk =
                    sitedata_stack_for(d, names, nnames, g->cc, g->arm_host, sitedata_platforms[p]);
                if (sk)
                    json_object_set_new(gs->stack_by_cc[ci], sitedata_platforms[p], sk);
            }
        }
        gs->pages[gs->npages] = g;
        gs->recs[gs->npages] = recs;
        gs->py_tables[gs->npages] = e->py_tables;
        gs->ci[gs->npages] = ci;
        gs->npages++;
    }
    json_object_set_new(d->gpus, "gpus", list);
    free(sorted);
    free(names);
}

size_t sitedata_gpu_count(const struct sitedata *d)
{
    return d->gpu_state ? d->gpu_state->npages : 0;
}

/* An answer's Python versions in words: "3.10 to 3.15 (free-threaded:
 * 3.13t, 3.14t)", or NULL when the data does not say. */
static char *python_text(const json_t *versions)
{
    struct strbuf b = STRBUF_INIT, ft = STRBUF_INIT;
    const char *first = NULL, *last = NULL;
    size_t n = 0, i;
    json_t *v;
    json_array_foreach(versions, i, v)
    {
        const char *s = json_string_value(v);
        if (!s)
            continue;
        if (s[strlen(s) - 1] == 't') {
            strbuf_addf(&ft, "%s%s", ft.len ? ", " : "", s);
            continue;
        }
        if (!first)
            first = s;
        last = s;
        n++;
    }
    if (!first) {
        strbuf_free(&b);
        strbuf_free(&ft);
        return NULL;
    }
    if (n == 1)
        strbuf_addf(&b, "%s", first);
    else
        strbuf_addf(&b, "%s to %s", first, last);
    if (ft.len)
        strbuf_addf(&b, " (free-threaded: %s)", ft.buf);
    strbuf_free(&ft);
    return b.buf;
}

json_t *sitedata_gpu_page(const struct sitedata *d, size_t i)
{
    const struct sitedata_gpu_state *gs = d->gpu_state;
    const struct gpu *g = gs->pages[i];
    json_t *recs = gs->recs[i];
    size_t ci = gs->ci[i];
    json_t *page = gpu_summary(g);
    json_object_set(page, "recommendations", recs);
    if (g->nother) {
        struct strbuf o = STRBUF_INIT;
        for (size_t k = 0; k < g->nother; k++) {
            char occ[16];
            compat_cc_string(g->other_cc[k], occ, sizeof occ);
            strbuf_addf(&o, "%s%s", k == 0 ? "" : k + 1 == g->nother ? " and " : ", ", occ);
        }
        json_object_set_new(page, "other_text", json_string(o.buf));
        strbuf_free(&o);
    }
    /* an answer pinned to a patch (torch==1.3.0) that the timeline's
     * newest-patch columns do not show */
    for (int p = 0; p < SITEDATA_NPLATFORMS && !json_object_get(page, "patch_pin"); p++) {
        json_t *a = sitedata_answer_of(json_object_get(recs, sitedata_platforms[p]));
        const char *pin = json_string_value(json_object_get(a, "pin"));
        if (pin && strchr(pin, '.') && strchr(strchr(pin, '.') + 1, '.') && !strchr(pin, '*'))
            json_object_set_new(page, "patch_pin", json_string(pin));
    }
    char *desc = page_description(g, recs);
    json_object_set_new(page, "description", json_string(desc));
    free(desc);
    json_object_set(page, "releases", gs->releases_by_cc[ci]);
    json_object_set_new(page, "svg",
                        json_string_nocheck(gs->svg_by_cc[ci])); /* made from checked strings */
    json_object_set_new(page, "has_timeline", json_boolean(gs->svg_by_cc[ci][0] != 0));
    if (gs->tl_by_cc[ci][0] < gs->tl_by_cc[ci][1]) {
        json_t *cut = json_object();
        json_object_set_new(cut, "shown", json_integer((json_int_t)gs->tl_by_cc[ci][0]));
        json_object_set_new(cut, "total", json_integer((json_int_t)gs->tl_by_cc[ci][1]));
        json_object_set_new(page, "timeline_cut", cut);
    }
    json_t *recl = json_array();
    json_t *drivers = json_object();
    json_t *drivers_py = json_object();
    for (int p = 0; p < SITEDATA_NPLATFORMS; p++) {
        json_t *r = json_object_get(recs, sitedata_platforms[p]);
        if (!json_is_object(r))
            continue;
        /* shallow copies: only keys of x and of its "pypi" are set here */
        json_t *x = json_copy(r);
        if (json_is_object(json_object_get(x, "pypi")))
            json_object_set_new(x, "pypi", json_copy(json_object_get(x, "pypi")));
        /* the answers with their Python versions in words (copies: the
         * feed's objects are not touched) */
        static const char *const answers[] = {"recommendation", "fallback"};
        for (int k = 0; k < 2; k++) {
            json_t *a = json_object_get(x, answers[k]);
            if (!json_is_object(a))
                continue;
            a = json_copy(a);
            json_t *pv = json_object_get(a, "python_versions");
            char *text = python_text(pv);
            if (text)
                json_object_set_new(a, "python_text", json_string(text));
            free(text);
            json_object_set_new(x, answers[k], a);
        }
        json_object_set_new(x, "platform", json_string(sitedata_platforms[p]));
        json_object_set_new(x, "platform_name",
                            json_string(sitedata_platform_name(sitedata_platforms[p])));
        json_object_set_new(x, "has_last_native",
                            json_boolean(json_array_size(json_object_get(x, "last_native")) > 0));
        json_object_set_new(x, "has_drivers",
                            json_boolean(json_array_size(json_object_get(x, "by_driver")) > 1));
        json_t *py = json_object_get(x, "pypi");
        if (json_is_object(py))
            json_object_set_new(py, "has_answer", json_boolean(sitedata_answer_of(x) != NULL));
        json_t *gd = json_object_get(x, "guidance");
        if (json_is_object(gd) &&
            (!json_object_get(page, "guidance") || json_is_true(json_object_get(x, "applies"))))
            json_object_set(page, "guidance", gd);
        if (json_is_object(py))
            json_object_set_new(
                py, "is_cpu",
                json_boolean(strcmp(json_string_value(json_object_get(py, "build")), "cpu") == 0));
        if (json_is_true(json_object_get(x, "applies")) &&
            json_array_size(json_object_get(x, "by_driver")) > 0) {
            json_object_set(drivers, sitedata_platforms[p], json_object_get(x, "by_driver"));
            json_t *pt = json_object_get(gs->py_tables[i], sitedata_platforms[p]);
            if (pt)
                json_object_set(drivers_py, sitedata_platforms[p], pt);
        }
        json_t *sk = json_object_get(gs->stack_by_cc[ci], sitedata_platforms[p]);
        if (sk)
            json_object_set(x, "stack", sk);
        json_object_set_new(x, "has_stack", json_boolean(sk != NULL));
        json_array_append_new(recl, x);
    }
    json_object_set_new(page, "all_declared", json_boolean(gs->declared_by_cc[ci]));
    char *dj = sitedata_script_json(drivers);
    json_object_set_new(page, "drivers_json", json_string_nocheck(dj)); /* jsontext's: UTF-8 */
    free(dj);
    /* per Python the switch offers, the driver table of the rows with a
     * wheel for it (0: the same as the platform's own) */
    dj = sitedata_script_json(drivers_py);
    json_object_set_new(page, "drivers_py_json", json_string_nocheck(dj));
    free(dj);
    json_decref(drivers_py);
    json_object_set_new(page, "driver_box", json_boolean(!g->amd && json_object_size(drivers) > 0));
    json_decref(drivers);
    json_t *choices = json_array();
    for (size_t j = 0; j < gs->npythons; j++)
        json_array_append_new(choices, json_string(gs->pythons[j]));
    json_object_set_new(page, "python_choices", choices);
    json_object_set_new(page, "recommendation_list", recl);
    return page;
}

void sitedata_gpus_free(struct sitedata *d)
{
    struct sitedata_gpu_state *gs = d->gpu_state;
    if (!gs)
        return;
    for (size_t i = 0; i < gs->ncache; i++) {
        json_decref(gs->cache[i].by_platform);
        json_decref(gs->cache[i].py_tables);
    }
    for (size_t i = 0; i < gs->nslots; i++) {
        json_decref(gs->releases_by_cc[i]);
        json_decref(gs->stack_by_cc[i]);
        free(gs->svg_by_cc[i]);
    }
    free(gs->releases_by_cc);
    free(gs->declared_by_cc);
    free(gs->svg_by_cc);
    free(gs->tl_by_cc);
    free(gs->stack_by_cc);
    free(gs->cache);
    free(gs->pages);
    free(gs->recs);
    free(gs->py_tables);
    free(gs->ci);
    free(gs);
    d->gpu_state = NULL;
}

/* A GPU page's one-line answer, for search results and link previews:
 * the answer on the first platform that applies (Linux x86_64, or Linux
 * aarch64 for Jetson Thor). */
static char *page_description(const struct gpu *g, json_t *recs)
{
    char cc[16];
    compat_cc_string(g->cc, cc, sizeof cc);
    struct strbuf b = STRBUF_INIT;
    strbuf_addf(&b, "%s (%s%s)", g->name, g->amd ? "" : "compute capability ", cc);
    static const char *const plats[][2] = {{"linux-x86_64", "Linux x86_64"},
                                           {"linux-aarch64", "Linux aarch64"},
                                           {"windows-x86_64", "Windows"}};
    json_t *r = NULL;
    const char *pname = NULL;
    for (size_t p = 0; p < 3 && !r; p++) {
        json_t *x = json_object_get(recs, plats[p][0]);
        if (json_is_object(x) && json_is_true(json_object_get(x, "applies"))) {
            r = x;
            pname = plats[p][1];
        }
    }
    json_t *rec = r ? json_object_get(r, "recommendation") : NULL;
    json_t *fb = r ? json_object_get(r, "fallback") : NULL;
    json_t *py = r ? json_object_get(r, "pypi") : NULL;
    if (!r) {
        strbuf_adds(&b, ": the download.pytorch.org and PyPI wheels do not run on it; use NVIDIA's "
                        "PyTorch for Jetson.");
    } else if (json_is_object(rec)) {
        strbuf_addf(&b, ": torch %s runs %s from the %s index on %s",
                    json_string_value(json_object_get(r, "release")),
                    strcmp(json_string_value(json_object_get(rec, "verdict")), "native") == 0
                        ? "natively"
                        : "through PTX JIT",
                    json_string_value(json_object_get(rec, "index")), pname);
        if (json_is_object(py) && json_is_false(json_object_get(py, "runs")))
            strbuf_adds(&b, "; plain pip install torch does not");
        strbuf_adds(&b, ".");
    } else if (json_is_object(fb)) {
        strbuf_addf(&b,
                    ": torch %s has no build for it on %s; the newest that runs is torch %s "
                    "from the %s index.",
                    json_string_value(json_object_get(r, "release")), pname,
                    json_string_value(json_object_get(fb, "pin")),
                    json_string_value(json_object_get(fb, "index")));
    } else {
        strbuf_addf(&b,
                    ": no PyTorch release in the data runs on it on %s; the page says what to do.",
                    pname);
    }
    return strbuf_detach(&b, NULL);
}
