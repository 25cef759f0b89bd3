/*
 * dbview: records + declared rows -> one row per (project, version,
 * variant, platform).
 */
#include "dbview.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "db.h"
#include "jsontext.h"
#include "wheelkey.h"
#include "fsutil.h"
#include "recordcheck.h"
#include "recqueue.h"
#include "record.h"
#include "strbuf.h"
#include "observed.h"
#include "strmap.h"
#include "strpool.h"
#include "wheelmeta.h"
#include "xalloc.h"

#define DEFAULT_INDEX_ROOT "https://download.pytorch.org/whl/"

const char *dbview_status_name(int s)
{
    static const char *const n[] = {"verified", "inferred", "declared"};
    return s >= 0 && s <= VIEW_DECLARED ? n[s] : "unknown";
}

const char *dbview_row_confidence(const struct dbview_row *r)
{
    return r->status == VIEW_DECLARED && r->declared && r->declared->confidence[0]
               ? r->declared->confidence
               : NULL;
}

const char *dbview_row_provenance(const struct dbview_row *r)
{
    if (r->status == VIEW_VERIFIED)
        return "verified (read from the wheel)";
    if (r->status == VIEW_INFERRED)
        return "inferred (read from a sibling wheel of the same build)";
    return r->declared && r->declared->provenance ? r->declared->provenance
                                                  : "declared (PyTorch's build configuration)";
}

const char *dbview_newest_version(const struct dbview *v, const char *project)
{
    const char *newest = NULL;
    for (size_t i = 0; i < v->nrows; i++) {
        const char *ver = v->rows[i].version;
        if (strcmp(v->rows[i].project, project) == 0 && dotver_is_final(ver) &&
            (!newest || dotver_cmp_str(ver, newest) > 0))
            newest = ver;
    }
    return newest;
}

static void row_free(struct dbview_row *r)
{
    free(r->project);
    free(r->version);
    free(r->release);
    free(r->variant);
    free(r->platform);
    compat_code_free(&r->code);
    free(r->sass);
    free(r->ptx);
    free(r->index_url);
    for (size_t i = 0; i < r->nwheels; i++)
        record_wheel_free(&r->wheels[i]);
    free(r->wheels);
    free(r->binaries);
    json_decref(r->differences);
    free(r->gfx);
    free(r->scanned_at);
    free(r->wheelarch_version);
    free(r->source_key);
    free(r->requires);
}

void dbview_skips_free(struct dbview_skip *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(s[i].file);
        free(s[i].reason);
    }
    free(s);
}

void dbview_free(struct dbview *v)
{
    for (size_t i = 0; i < v->nrows; i++)
        row_free(&v->rows[i]);
    free(v->rows);
    free(v->data_date);
    dbview_skips_free(v->skipped, v->nskipped);
    strpool_free(v->strings);
    memset(v, 0, sizeof *v);
}

size_t dbview_row_classes(const struct dbview_row *const *rows, size_t n, size_t *cls,
                          size_t *first)
{
    size_t ns = 16, ncls = 0;
    while (ns < 2 * n)
        ns *= 2;
    size_t *slot = xcalloc(ns, sizeof *slot); /* class + 1, 0 = empty */
    for (size_t i = 0; i < n; i++) {
        const struct dbview_row *r = rows[i];
        int os = tables_platform_os(r->platform);
        size_t k =
            (size_t)dotver_hash(compat_code_hash((uint64_t)os, &r->code), &r->cuda) & (ns - 1);
        for (; slot[k]; k = (k + 1) & (ns - 1)) {
            const struct dbview_row *f = rows[first[slot[k] - 1]];
            if (tables_platform_os(f->platform) == os && dotver_same(&f->cuda, &r->cuda) &&
                compat_code_same(&f->code, &r->code))
                break;
        }
        if (!slot[k]) {
            first[ncls] = i;
            slot[k] = ++ncls;
        }
        cls[i] = slot[k] - 1;
    }
    free(slot);
    return ncls;
}

int dbview_is_nightly(const char *version)
{
    struct dotver v;
    return version && dotver_parse(version, &v) == 0 && v.pre == 1; /* dev, as dotver reads it */
}

/* Notes that records/<key>.json was left out, and why. */
static void skip(struct dbview *v, size_t *cap, const char *dbpath, const char *key,
                 const char *reason)
{
    v->skipped = xgrow(v->skipped, cap, v->nskipped + 1, sizeof *v->skipped);
    struct dbview_skip *s = &v->skipped[v->nskipped++];
    /* The key came from the database unchecked: shown quoted, so one with
     * control characters cannot reach a terminal as such. */
    char q[4200], k[300];
    recordcheck_quote(k, sizeof k, key ? key : "", 200);
    char *what = xasprintf("%s: wheel %s", dbpath, k);
    s->file = xstrdup(recordcheck_quote(q, sizeof q, what, 1000));
    s->reason = xstrdup(reason && reason[0] ? reason : "unreadable");
    free(what);
}

static const char *jstr(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

/* Appends t to the array arr of *n targets (room for *cap).  Duplicates
 * are dropped each time the array fills (sorted, then deduplicated) and by
 * the caller's final target_sort_unique: O(n log n) over all the names a
 * record lists, where a search per name was quadratic in the distinct
 * targets, and the array stays within about twice their number. */
static void add_target(struct target **arr, size_t *n, size_t *cap, const struct target *t)
{
    if (*n == *cap) {
        *n = target_sort_unique(*arr, *n);
        if (*n >= *cap / 2)
            *arr = xgrow(*arr, cap, 2 * *n + 16, sizeof **arr);
    }
    (*arr)[(*n)++] = *t;
}

/* A PTX target's ISA as a binary of the record gives it, and where. */
struct isa_at {
    struct target ptx;
    struct dotver isa;
    size_t at;
};

/* By target, then the highest ISA first, then the first place. */
static int isa_at_cmp(const void *a, const void *b)
{
    const struct isa_at *x = a, *y = b;
    int c = target_cmp(&x->ptx, &y->ptx);
    if (!c)
        c = dotver_cmp(&y->isa, &x->isa);
    if (!c)
        c = x->at < y->at ? -1 : x->at > y->at;
    return c;
}

static int isa_place_cmp(const void *a, const void *b)
{
    const struct isa_at *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* Gives c each PTX target's highest ISA, in the order the targets first
 * appear, as one compat_code_set_isa per name would; but sorted and
 * deduplicated first, since compat_code_set_isa searches the targets so far
 * (quadratic over many names).  Reorders v. */
static void set_isas(struct compat_code *c, struct isa_at *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, isa_at_cmp);
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (w && target_cmp(&v[w - 1].ptx, &v[i].ptx) == 0) {
            if (v[i].at < v[w - 1].at)
                v[w - 1].at = v[i].at; /* its first place, with the highest ISA */
            continue;
        }
        v[w++] = v[i];
    }
    if (w > 1)
        qsort(v, w, sizeof *v, isa_place_cmp);
    if (c->nisas) { /* merge with what c holds */
        for (size_t i = 0; i < w; i++)
            compat_code_set_isa(c, &v[i].ptx, &v[i].isa);
        return;
    }
    c->isas = xrealloc(c->isas, (w ? w : 1) * sizeof *c->isas);
    for (size_t i = 0; i < w; i++) {
        c->isas[i].ptx = v[i].ptx;
        c->isas[i].isa = v[i].isa;
    }
    c->nisas = w;
}

/* Fills a row's code from a record's own binaries. */
/* The next token of *p up to a character of `stops` (or the end), copied
 * into buf (cut to n - 1 bytes); returns its length, 0 at the end. */
static size_t token(const char **p, const char *stops, char *buf, size_t n)
{
    size_t len = strcspn(*p, stops);
    size_t k = len < n - 1 ? len : n - 1;
    memcpy(buf, *p, k);
    buf[k] = '\0';
    *p += len;
    return len;
}

/* Gives r the GPU code of a record's code column (record_code's format):
 * the module sets, the target unions and the PTX ISAs.  The column comes
 * from the database: anything that does not parse is left out. */
void dbview_row_apply_code(struct dbview_row *r, const char *code)
{
    size_t capsass = r->nsass, capptx = r->nptx, capgfx = r->ngfx;
    struct isa_at *isas = NULL;
    size_t nisas = 0, capisas = 0;
    const char *p = code ? code : "";
    char tok[64];
    while (*p && *p != '|') {
        /* one set: "MODULES TARGET..." up to ';' or '|' */
        struct target t[RECORDCHECK_TARGETS_MAX];
        size_t n = 0;
        token(&p, " ;|", tok, sizeof tok);
        long mods = strtol(tok, NULL, 10);
        while (*p == ' ') {
            p++;
            if (token(&p, " ;|", tok, sizeof tok) && n < RECORDCHECK_TARGETS_MAX &&
                target_parse(tok, &t[n]) == 0)
                n++;
        }
        compat_code_add_set(&r->code, t, n, mods > 0 ? (size_t)mods : 1);
        for (size_t j = 0; j < n; j++)
            if (t[j].kind == TARGET_SASS)
                add_target(&r->sass, &r->nsass, &capsass, &t[j]);
            else if (t[j].kind == TARGET_PTX)
                add_target(&r->ptx, &r->nptx, &capptx, &t[j]);
            else if (t[j].kind == TARGET_GFX)
                add_target(&r->gfx, &r->ngfx, &capgfx, &t[j]);
        if (*p == ';')
            p++;
    }
    if (*p == '|')
        p++;
    while (*p) {
        /* "TARGET=ISA", separated by spaces */
        char is[32];
        token(&p, " =", tok, sizeof tok);
        is[0] = '\0';
        if (*p == '=') {
            p++;
            token(&p, " ", is, sizeof is);
        }
        struct target t;
        struct dotver isa;
        if (is[0] && target_parse(tok, &t) == 0 && t.kind == TARGET_PTX &&
            dotver_parse(is, &isa) == 0) {
            isas = xgrow(isas, &capisas, nisas + 1, sizeof *isas);
            isas[nisas].ptx = t;
            isas[nisas].isa = isa;
            isas[nisas].at = nisas;
            nisas++;
        }
        while (*p == ' ')
            p++;
    }
    r->nsass = target_sort_unique(r->sass, r->nsass);
    r->nptx = target_sort_unique(r->ptx, r->nptx);
    r->ngfx = target_sort_unique(r->gfx, r->ngfx);
    set_isas(&r->code, isas, nisas);
    free(isas);
}

/* The project's own binaries of a record, as rows keep them: compact
 * JSON (see dbview_row_binaries). */
static char *binaries_of(json_t *rec)
{
    json_t *out = json_array();
    int bundles = record_bundles_libraries(rec);
    size_t i;
    json_t *b;
    json_array_foreach(json_object_get(rec, "binaries"), i, b)
    {
        const char *path = jstr(b, "path");
        if (!path || (bundles && record_is_bundled(path)) ||
            !json_array_size(json_object_get(b, "module_sets")))
            continue;
        json_t *bj = json_object();
        json_object_set_new(bj, "path", json_string(path));
        json_object_set(bj, "format", json_object_get(b, "format"));
        json_object_set(bj, "modules", json_object_get(b, "modules"));
        json_object_set(bj, "sass", json_object_get(b, "sass"));
        json_object_set(bj, "ptx", json_object_get(b, "ptx"));
        if (json_array_size(json_object_get(b, "gfx")))
            json_object_set(bj, "gfx", json_object_get(b, "gfx"));
        json_object_set(bj, "targets", json_object_get(b, "targets"));
        json_object_set(bj, "compression", json_object_get(b, "compression"));
        if (json_object_get(b, "declared"))
            json_object_set(bj, "declared", json_object_get(b, "declared"));
        json_array_append_new(out, bj);
    }
    char *text = jsontext_dumps(out, JSON_COMPACT);
    json_decref(out);
    return text;
}

static void code_from_declared(struct dbview_row *r, const struct tables *t,
                               const struct declared *d)
{
    struct target all[72];
    size_t n = 0;
    for (size_t i = 0; i < d->nsass; i++)
        all[n++] = d->sass[i];
    for (size_t i = 0; i < d->nptx && n < 72; i++)
        all[n++] = d->ptx[i];
    for (size_t i = 0; i < d->ngfx && n < 72; i++)
        all[n++] = d->gfx[i];
    compat_code_add_set(&r->code, all, n, 1);
    r->gfx = xmalloc((d->ngfx ? d->ngfx : 1) * sizeof *r->gfx);
    if (d->ngfx)
        memcpy(r->gfx, d->gfx, d->ngfx * sizeof *r->gfx);
    r->ngfx = d->ngfx;
    r->sass = xmalloc((d->nsass ? d->nsass : 1) * sizeof *r->sass);
    if (d->nsass)
        memcpy(r->sass, d->sass, d->nsass * sizeof *r->sass);
    r->nsass = d->nsass;
    r->ptx = xmalloc((d->nptx ? d->nptx : 1) * sizeof *r->ptx);
    if (d->nptx)
        memcpy(r->ptx, d->ptx, d->nptx * sizeof *r->ptx);
    r->nptx = d->nptx;
    /* Declared PTX carries the ISA of the variant's toolkit. */
    const struct ptx_isa *isa = r->cuda.n ? tables_isa_of_cuda(t, &r->cuda) : NULL;
    for (size_t i = 0; isa && i < d->nptx; i++)
        compat_code_set_isa(&r->code, &d->ptx[i], &isa->isa);
}

/* The declared row of a release's variant: of several (a patch release
 * that changed the list), the newest. */
/* "project|release|variant|platform" into buf (cut short past n bytes:
 * the parts come from validated rows and tables, far shorter). */
static const char *decl_key(char *buf, size_t n, const char *project, const char *release,
                            const char *variant, const char *platform)
{
    const char *parts[4] = {project, release, variant, platform};
    size_t o = 0;
    for (int i = 0; i < 4; i++) {
        size_t l = strlen(parts[i]), room = n - o - (size_t)(4 - i); /* separators left */
        if (l > room)
            l = room;
        memcpy(buf + o, parts[i], l);
        o += l;
        buf[o++] = i < 3 ? '|' : '\0';
    }
    return buf;
}

static int contains(const struct target *t, size_t n, const struct target *x)
{
    for (size_t i = 0; i < n; i++)
        if (target_cmp(&t[i], x) == 0)
            return 1;
    return 0;
}

/* For each target of have (sorted and unique), the modules of the row's
 * code that hold it: one pass over the module sets, each sorted and
 * deduplicated, with a binary search per name (a search of every set per
 * target was quadratic).  Caller frees. */
static size_t *modules_with(const struct compat_code *c, const struct target *have, size_t nhave)
{
    size_t *m = xcalloc(nhave + 1, sizeof *m);
    struct target *t = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < c->nsets && nhave; i++) {
        size_t n = c->sets[i].n;
        t = xgrow(t, &cap, n + 1, sizeof *t);
        if (n)
            memcpy(t, c->sets[i].targets, n * sizeof *t);
        n = target_sort_unique(t, n);
        for (size_t k = 0; k < n; k++) {
            const struct target *x = bsearch(&t[k], have, nhave, sizeof *have, target_cmp_void);
            if (x)
                m[x - have] += c->sets[i].modules;
        }
    }
    free(t);
    return m;
}

static void differences(struct dbview_row *r)
{
    r->differences = json_array();
    const struct declared *d = r->declared;
    if (!d || r->status == VIEW_DECLARED)
        return;
    struct strbuf b = STRBUF_INIT;
    for (int kind = TARGET_SASS; kind <= TARGET_GFX; kind++) {
        if (kind == TARGET_LTO)
            continue;
        const struct target *have = kind == TARGET_SASS  ? r->sass
                                    : kind == TARGET_PTX ? r->ptx
                                                         : r->gfx;
        size_t nhave = kind == TARGET_SASS ? r->nsass : kind == TARGET_PTX ? r->nptx : r->ngfx;
        const struct target *want = kind == TARGET_SASS  ? d->sass
                                    : kind == TARGET_PTX ? d->ptx
                                                         : d->gfx;
        size_t nwant = kind == TARGET_SASS ? d->nsass : kind == TARGET_PTX ? d->nptx : d->ngfx;
        size_t *mods = modules_with(&r->code, have, nhave);
        for (size_t i = 0; i < nhave; i++)
            if (!contains(want, nwant, &have[i])) {
                char name[TARGET_NAME_MAX];
                target_format(&have[i], name, sizeof name);
                strbuf_reset(&b);
                strbuf_addf(&b, "%s (in %zu of %zu modules) is not in the declared list", name,
                            mods[i], r->code.modules);
                json_array_append_new(r->differences, json_string(strbuf_str(&b)));
            }
        free(mods);
        for (size_t i = 0; i < nwant; i++)
            if (!contains(have, nhave, &want[i])) {
                char name[TARGET_NAME_MAX];
                target_format(&want[i], name, sizeof name);
                strbuf_reset(&b);
                strbuf_addf(&b, "declared %s%s is not in the binaries", name,
                            kind == TARGET_PTX ? " (+PTX)" : "");
                json_array_append_new(r->differences, json_string(strbuf_str(&b)));
            }
    }
    strbuf_free(&b);
}

static char *default_index_url(const char *variant)
{
    return xasprintf("%s%s/", DEFAULT_INDEX_ROOT, variant);
}

static int row_cmp(const void *a, const void *b)
{
    const struct dbview_row *x = a, *y = b;
    int c = strcmp(x->project, y->project);
    if (c)
        return c;
    c = dotver_cmp_str(y->version, x->version); /* newest first */
    if (c)
        return c;
    c = strcmp(x->version, y->version);
    if (c)
        return c;
    c = tables_variant_cmp(x->variant, y->variant);
    if (c)
        return c;
    return strcmp(x->platform, y->platform);
}

/* A new row for (project, version, variant, platform) with status; its
 * release is `release`, or the version's major.minor when NULL. */
static struct dbview_row *new_row(struct dbview *v, size_t *cap, const char *project,
                                  const char *version, const char *release, const char *variant,
                                  const char *platform, int status)
{
    v->rows = xgrow(v->rows, cap, v->nrows + 1, sizeof *v->rows);
    struct dbview_row *r = &v->rows[v->nrows++];
    memset(r, 0, sizeof *r);
    r->project = xstrdup(project);
    r->version = xstrdup(version);
    r->release = release ? xstrdup(release) : dotver_release(version);
    r->variant = xstrdup(variant);
    r->platform = xstrdup(platform);
    r->status = status;
    tables_variant_cuda(variant, &r->cuda);
    return r;
}

static int wheel_cmp(const void *a, const void *b)
{
    const struct record_wheel *x = a, *y = b;
    return strcmp(x->filename, y->filename);
}

static void newer(char **dst, const char *s)
{
    if (s && (!*dst || strcmp(s, *dst) > 0)) {
        free(*dst);
        *dst = xstrdup(s);
    }
}

int dbview_build(const char *cache_dir, const struct tables *t, int flags, struct dbview *v,
                 struct wa_error *err)
{
    return dbview_build_with(cache_dir, t, flags, -1, v, NULL, NULL, err);
}

struct reading {
    struct dbview *v;
    int flags;
    const char *project, *platform; /* only rows of these (NULL: all) */
    /* the newest version per "project|release" of the project's rows on
     * other platforms, which are left out */
    struct strmap *elsewhere;
    char **ew_versions;
    size_t new, capew;
    size_t *cap, *skip_cap;
    struct strmap *by_key;
    const char *dbpath;
    dbview_record_fn on_record;
    void *ud;
    struct strmap *dropped; /* "project|version" of nightlies left out, or NULL */
    /* the project and version of the last build read on another platform:
     * builds come in (project, version, ...) order, so the next ones of
     * that version change nothing */
    char *ew_project, *ew_version;
    /* with on_record: whole records are parsed and checked there, beside
     * this thread (recqueue.h) */
    struct recqueue *rq;
    /* per row: the number of the put (recqueue_put) whose binaries it
     * takes, 0 none: an inferred wheel's record may tag a row that a
     * scanned wheel takes over later, with or without binaries of its own */
    unsigned long *want;
    size_t capwant, nwant;
    struct strbuf gk; /* a map key, remade for each wheel */
};

/* Why a row read from the database cannot be used, or NULL.  Records
 * were checked when they were stored; the fields that become ids and
 * paths are checked again, so a hand-edited database cannot reach the
 * pages with them. */
static const char *ids_wrong(const char *key, const char *project, const char *variant,
                             const char *version, const char *platform, const char *status)
{
    if (!key || !wheelkey_valid(key))
        return "the key is not a record key";
    if (!project || !recordcheck_project_valid(project))
        return "the project is not a normalized project name";
    if (!variant || !recordcheck_variant_valid(variant))
        return "the variant is not a variant id";
    if (!version || !platform || !status)
        return "a required field is missing";
    return NULL;
}

/* The wheels' strings copied again, in the view's final order: read in
 * key order, a row's wheels lay scattered over the pool, and each pass
 * over the rows (the feed, the release pages, the simple indexes) missed
 * the cache on every wheel. */
/* Replaces each string of w by a copy in sp, side by side. */
static void pool_wheel_strings(struct strpool *sp, struct record_wheel *w)
{
    char **fields[] = {&w->filename,     &w->url,        &w->key,           &w->sha256,
                       &w->upload_time,  &w->scanned_at, &w->inferred_from, &w->requires_python,
                       &w->yanked_reason};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        *fields[i] = strpool_dup(sp, *fields[i]);
    w->pooled = 1;
}

static void compact_strings(struct dbview *v)
{
    if (!v->strings)
        return;
    struct strpool *sp = strpool_new();
    for (size_t r = 0; r < v->nrows; r++)
        for (size_t k = 0; k < v->rows[r].nwheels; k++)
            if (v->rows[r].wheels[k].pooled)
                pool_wheel_strings(sp, &v->rows[r].wheels[k]);
    strpool_free(v->strings);
    v->strings = sp;
}

/* One wheel of the database into its row. */
/* Whether to read a wheel: not when it is an older nightly than the view
 * keeps (then its record is not even fetched). */
static int want_wheel(void *ud, const char *project, const char *version)
{
    struct reading *x = ud;
    /* a nightly's version has "dev" (any case): most are not parsed */
    if (!x->dropped || !project || !version || !strpbrk(version, "dD") ||
        !dbview_is_nightly(version))
        return 1;
    strbuf_set_joined(&x->gk, '|', project, version, (char *)NULL); /* as dropped_nightlies */
    size_t one;
    return !strmap_get(x->dropped, x->gk.buf, &one);
}

static char *opt_dup(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

static int read_wheel(void *ud, const struct db_wheel *w, struct wa_error *err)
{
    struct reading *x = ud;
    struct dbview *v = x->v;
    const char *why = ids_wrong(w->key, w->project, w->variant, w->version, w->platform, w->status);
    json_t *rec = NULL;
    struct record full = {0}; /* the whole record: scanned wheels only */
    struct wa_error e;
    long tag = -1; /* with x->rq: the row whose binaries this record gives */
    if (!why && w->record && !x->rq) {
        json_error_t je;
        json_t *parsed = NULL;
        if (recordcheck_text(w->record, strlen(w->record), &e) < 0) /* an edit by hand */
            why = e.msg;
        else if (!(parsed = jsontext_loads(w->record, JSON_REJECT_DUPLICATES, &je)))
            why = "the record is not JSON";
        else if (record_read(w->key, parsed, &full, &e) < 0)
            why = e.msg;
        else
            rec = full.scan;
        json_decref(parsed);
    }
    if (why) {
        skip(v, x->skip_cap, x->dbpath, w->key, why);
        return 0;
    }
    v->records++;
    int st = strcmp(w->status, "scanned") == 0 ? VIEW_VERIFIED : VIEW_INFERRED;
    struct strbuf *gk = &x->gk;
    strbuf_set_joined(gk, '|', w->project, w->version, w->variant, w->platform, (char *)NULL);
    size_t at;
    struct dbview_row *r;
    if (!strmap_get(x->by_key, gk->buf, &at)) {
        r = new_row(v, x->cap, w->project, w->version, NULL, w->variant, w->platform,
                    VIEW_DECLARED + 1 /* nothing yet */);
        strmap_put(x->by_key, gk->buf, v->nrows - 1);
    } else {
        r = &v->rows[at];
    }
    r->wheels = xgrow(r->wheels, &r->capwheels, r->nwheels + 1, sizeof *r->wheels);
    struct record_wheel *line = &r->wheels[r->nwheels++];
    if (!v->strings)
        v->strings = strpool_new();
    /* the database's strings (borrowed for a moment: pool_wheel_strings
     * puts copies in their place, side by side in the view's pool) */
    *line = (struct record_wheel){
        .filename = (char *)(w->filename ? w->filename : ""),
        .url = (char *)(w->url ? w->url : ""),
        .key = (char *)w->key,
        .sha256 = (char *)w->sha256,
        .scanned = st == VIEW_VERIFIED,
        .upload_time = (char *)w->upload_time,
        .scanned_at = (char *)w->scanned_at,
        .inferred_from = (char *)w->inferred_from,
        .requires_python = (char *)w->requires_python,
        .size = w->size,
        .sha256_verified = w->sha256_verified,
        .yanked = w->yanked,
        .yanked_reason = (char *)w->yanked_reason,
    };
    pool_wheel_strings(v->strings, line);
    newer(&r->scanned_at, w->scanned_at);
    newer(&v->data_date, w->scanned_at);
    if (st < r->status) {
        /* A better source for the GPU code: verified beats inferred. */
        compat_code_free(&r->code);
        free(r->sass);
        free(r->ptx);
        free(r->gfx);
        r->sass = r->ptx = r->gfx = NULL;
        r->nsass = r->nptx = r->ngfx = 0;
        free(r->binaries);
        r->binaries = NULL;
        free(r->source_key);
        r->source_key = NULL;
        free(r->requires);
        r->requires = opt_dup(w->requires);
        if (st == VIEW_INFERRED && !w->code && w->inferred_from) {
            /* A compact inferred record: the code is its source's. */
            r->source_key = xstrdup(w->inferred_from);
        } else {
            dbview_row_apply_code(r, w->code);
            if (rec)
                r->binaries = binaries_of(rec);
            else if (x->rq && w->record)
                tag = (long)(r - v->rows);
        }
        if (x->rq) {
            /* binaries only from this wheel's record, if it has one */
            x->want = xgrow(x->want, &x->capwant, v->nrows, sizeof *x->want);
            while (x->nwant < v->nrows)
                x->want[x->nwant++] = 0;
            x->want[r - v->rows] = 0;
        }
        r->status = st;
        free(r->wheelarch_version);
        r->wheelarch_version = w->wheelarch_version ? xstrdup(w->wheelarch_version) : NULL;
        free(r->index_url);
        r->index_url = w->index_url ? xstrdup(w->index_url) : NULL;
    }
    if (x->rq && w->record) {
        unsigned long seq;
        int qrc = recqueue_put(x->rq, w->key, w->record, tag, &seq, err);
        if (tag >= 0)
            x->want[tag] = seq;
        return qrc;
    }
    if (rec && x->on_record)
        return x->on_record(x->ud, 0, &full, err); /* it takes the record */
    record_free(&full);
    return 0;
}

/* One group of the database (builds) into a row of its own: the view
 * without wheels that query reads. */
static int read_build(void *ud, const struct db_build *b, struct wa_error *err)
{
    (void)err;
    struct reading *x = ud;
    struct dbview *v = x->v;
    const char *why =
        ids_wrong(b->best, b->project, b->variant, b->version, b->platform, b->status);
    if (why) {
        skip(v, x->skip_cap, x->dbpath, b->best, why);
        return 0;
    }
    /* another project: not asked about, unless a GPU library it may pin */
    if (x->project && strcmp(x->project, b->project) != 0 && !tables_gpu_library(v->t, b->project))
        return 0;
    if (x->platform && strcmp(x->platform, b->platform) != 0) {
        /* Another platform: only its version counts (declared rows of a
         * release show under its newest crawled version, see build_view). */
        v->elsewhere++;
        if (x->ew_project && strcmp(x->ew_project, b->project) == 0 &&
            strcmp(x->ew_version, b->version) == 0)
            return 0;
        free(x->ew_project);
        free(x->ew_version);
        x->ew_project = xstrdup(b->project);
        x->ew_version = xstrdup(b->version);
        char *release = dotver_release(b->version), pk[512];
        decl_key(pk, sizeof pk, b->project, release, "", "");
        free(release);
        size_t at;
        if (!strmap_get(x->elsewhere, pk, &at)) {
            x->ew_versions = xgrow(x->ew_versions, &x->capew, x->new + 1, sizeof *x->ew_versions);
            x->ew_versions[x->new] = xstrdup(b->version);
            strmap_put(x->elsewhere, pk, x->new ++);
        } else if (dotver_cmp_str(b->version, x->ew_versions[at]) > 0) {
            free(x->ew_versions[at]);
            x->ew_versions[at] = xstrdup(b->version);
        }
        return 0;
    }
    struct dbview_row *r =
        new_row(v, x->cap, b->project, b->version, NULL, b->variant, b->platform,
                strcmp(b->status, "scanned") == 0 ? VIEW_VERIFIED : VIEW_INFERRED);
    newer(&r->scanned_at, b->scanned_at);
    newer(&v->data_date, b->scanned_at);
    if (r->status == VIEW_INFERRED && !b->code && b->inferred_from)
        r->source_key = xstrdup(b->inferred_from);
    else
        dbview_row_apply_code(r, b->code);
    r->wheelarch_version = b->wheelarch_version ? xstrdup(b->wheelarch_version) : NULL;
    r->index_url = b->index_url ? xstrdup(b->index_url) : NULL;
    r->requires = opt_dup(b->requires);
    return 0;
}

static int build_view(const char *cache_dir, const struct tables *t, int flags, const char *project,
                      const char *platform, int nightlies, struct dbview *v,
                      dbview_record_fn on_record, void *ud, struct wa_error *err);

int dbview_build_with(const char *cache_dir, const struct tables *t, int flags, int nightlies,
                      struct dbview *v, dbview_record_fn on_record, void *ud, struct wa_error *err)
{
    return build_view(cache_dir, t, flags, NULL, NULL, nightlies, v, on_record, ud, err);
}

int dbview_build_for(const char *cache_dir, const struct tables *t, const char *project,
                     const char *platform, struct dbview *v, struct wa_error *err)
{
    return build_view(cache_dir, t, DBVIEW_CODE_ONLY, project, platform, -1, v, NULL, NULL, err);
}

/* The nightly versions of each project: collected from `builds` (one row
 * per group) to decide, before any record is read, which ones a view
 * keeping the newest n leaves out. */
struct nightly {
    char *project, *version;
};

static int nightly_cmp(const void *a, const void *b)
{
    const struct nightly *x = a, *y = b;
    int c = strcmp(x->project, y->project);
    return c ? c : dotver_cmp_str(y->version, x->version); /* newest first */
}

struct nightlies {
    struct nightly *v;
    size_t n, cap;
};

/* (project, version) come once each (db_each_version) */
static int collect_nightly(void *ud, const char *project, const char *version, struct wa_error *err)
{
    (void)err;
    struct nightlies *ns = ud;
    if (!project || !version || !strpbrk(version, "dD") || !dbview_is_nightly(version))
        return 0;
    ns->v = xgrow(ns->v, &ns->cap, ns->n + 1, sizeof *ns->v);
    ns->v[ns->n++] = (struct nightly){xstrdup(project), xstrdup(version)};
    return 0;
}

/* "project|version" of every nightly beyond the newest `keep` of its
 * project, or NULL when none is. */
static struct strmap *dropped_nightlies(struct db *db, int keep, struct wa_error *err, int *rc)
{
    struct nightlies ns = {NULL, 0, 0};
    *rc = db_each_version(db, collect_nightly, &ns, err);
    struct strmap *out = NULL;
    if (*rc == 0 && ns.n > 1)
        qsort(ns.v, ns.n, sizeof *ns.v, nightly_cmp);
    long left = 0;
    struct strbuf k = STRBUF_INIT;
    for (size_t i = 0; *rc == 0 && i < ns.n; i++) {
        if (i == 0 || strcmp(ns.v[i].project, ns.v[i - 1].project))
            left = keep;
        if (left-- > 0)
            continue;
        if (!out)
            out = strmap_new();
        strbuf_set_joined(&k, '|', ns.v[i].project, ns.v[i].version, (char *)NULL);
        strmap_put(out, k.buf, 1);
    }
    strbuf_free(&k);
    for (size_t i = 0; i < ns.n; i++) {
        free(ns.v[i].project);
        free(ns.v[i].version);
    }
    free(ns.v);
    return out;
}

/* The GPU libraries each crawled row pins (its Requires-Dist, where the
 * marker holds on its platform) join its code, when the view holds that
 * library version for the platform: a wheel then runs natively only where
 * its libraries do too, and verdicts name the library that lacks code. */
static void attach_libraries(struct dbview *v, const struct tables *t)
{
    struct strmap *lib_at = strmap_new(); /* "project|version|platform" -> best row */
    size_t nlibs = 0;
    for (size_t k = 0; k < v->nrows; k++) {
        const struct dbview_row *r = &v->rows[k];
        if (!tables_gpu_library(t, r->project) || !r->code.nsets)
            continue;
        char *key = xasprintf("%s|%s|%s", r->project, r->version, r->platform);
        size_t at;
        if (!strmap_get(lib_at, key, &at) || r->status < v->rows[at].status)
            strmap_put(lib_at, key, k);
        free(key);
        nlibs++;
    }
    for (size_t k = 0; nlibs && k < v->nrows; k++) {
        struct dbview_row *r = &v->rows[k];
        if (!r->requires || tables_gpu_library(t, r->project))
            continue;
        json_t *list = jsontext_loads(r->requires, 0, NULL);
        size_t i;
        json_t *q;
        json_array_foreach(list, i, q)
        {
            const char *req = json_string_value(q);
            char *name, *pin;
            if (!req || !wheelmeta_marker_applies(req, r->platform) ||
                wheelmeta_requirement(req, &name, &pin) < 0)
                continue;
            const char *lib = pin ? tables_gpu_library(t, name) : NULL;
            char *key = lib ? xasprintf("%s|%s|%s", name, pin, r->platform) : NULL;
            size_t at;
            if (key && strmap_get(lib_at, key, &at)) {
                char *origin = xasprintf("%s %s", lib, pin);
                compat_code_add_library(&r->code, &v->rows[at].code, origin);
                free(origin);
            }
            free(key);
            free(name);
            free(pin);
        }
        json_decref(list);
    }
    strmap_free(lib_at);
}

static int build_view(const char *cache_dir, const struct tables *t, int flags, const char *project,
                      const char *platform, int nightlies, struct dbview *v,
                      dbview_record_fn on_record, void *ud, struct wa_error *err)
{
    memset(v, 0, sizeof *v);
    v->t = t;
    size_t cap = 0, skip_cap = 0;
    struct strmap *by_key = strmap_new(), *elsewhere = strmap_new();
    char **ew_versions = NULL; /* elsewhere's versions */
    size_t new = 0;
    if (cache_dir && db_exists(cache_dir)) {
        struct db *db;
        int rc = db_open(cache_dir, DB_READONLY, &db, err);
        if (rc < 0) {
            strmap_free(by_key);
            strmap_free(elsewhere);
            return rc;
        }
        int code_only = (flags & DBVIEW_CODE_ONLY) != 0;
        size_t bad = 0; /* records recqueue found failing their check */
        struct reading x = {.v = v,
                            .flags = flags,
                            .project = project,
                            .platform = platform,
                            .elsewhere = elsewhere,
                            .cap = &cap,
                            .skip_cap = &skip_cap,
                            .by_key = by_key,
                            .dbpath = db_path(db),
                            .on_record = on_record,
                            .ud = ud,
                            .gk = STRBUF_INIT};
        if (code_only) {
            rc = db_each_build(db, read_build, &x, err); /* v->records stays 0 */
        } else {
            if (nightlies >= 0)
                x.dropped = dropped_nightlies(db, nightlies, err, &rc);
            if (on_record)
                x.rq = recqueue_start(on_record, ud, binaries_of);
            if (rc == 0)
                rc = db_each_wheel(db, want_wheel, read_wheel, &x, err);
            strmap_free(x.dropped);
            if (x.rq) {
                struct recqueue_binaries *bins;
                size_t nbins;
                int qrc = recqueue_finish(x.rq, &bins, &nbins, &bad, rc < 0 ? NULL : err);
                for (size_t i = 0; i < nbins; i++) {
                    struct dbview_row *r = &v->rows[bins[i].tag];
                    if (x.want[bins[i].tag] != bins[i].seq) {
                        free(bins[i].text); /* a row taken over since */
                        continue;
                    }
                    free(r->binaries);
                    r->binaries = bins[i].text;
                }
                free(bins);
                if (rc == 0)
                    rc = qrc;
            }
        }
        free(x.want);
        strbuf_free(&x.gk);
        free(x.ew_project);
        free(x.ew_version);
        ew_versions = x.ew_versions;
        new = x.new;
        if (rc < 0 || bad) {
            db_close(db);
            strmap_free(by_key);
            strmap_free(elsewhere);
            for (size_t i = 0; i < new; i++)
                free(ew_versions[i]);
            free(ew_versions);
            dbview_free(v);
            /* A record failed its check after its wheel joined the view:
             * read again, checking each record before its wheel joins
             * (the pages of the valid ones are made already). */
            return rc < 0 ? rc
                          : build_view(cache_dir, t, flags, project, platform, nightlies, v, NULL,
                                       NULL, err);
        }
        /* Inferred rows take the code of the wheel they were inferred
         * from, which may belong to no row of its own (a shard, or a
         * database pruned by hand). */
        for (size_t k = 0; k < v->nrows; k++) {
            struct dbview_row *r = &v->rows[k];
            if (!r->source_key || r->code.nsets || !wheelkey_valid(r->source_key))
                continue;
            char *code = db_record_code(db, r->source_key);
            if (!code)
                continue;
            dbview_row_apply_code(r, code);
            free(code);
            json_t *src;
            if (!code_only && db_read_record(db, r->source_key, &src, NULL) == 0) {
                if (recordcheck_validate(r->source_key, src, NULL) == 0) {
                    free(r->binaries);
                    r->binaries = binaries_of(src);
                }
                json_decref(src);
            }
        }
        db_close(db);
    }
    /* Declared rows, attached to crawled rows of the same release or on
     * their own.  Maps keep this linear in rows + declared rows: a view of
     * 100,000 wheels has about 10,000 rows. */
    struct strmap *crawled = strmap_new();
    struct strmap *last_decl = strmap_new(), *best_decl = strmap_new();
    size_t ncrawled = v->nrows;
    /* The newest crawled version per "project|release": elsewhere's (rows
     * of other platforms left out of a view for one question), then the
     * rows'. */
    struct strmap *newest_of = elsewhere;
    const char **newest = xmalloc((new + ncrawled + 1) * sizeof *newest);
    for (size_t i = 0; i < new; i++)
        newest[i] = ew_versions[i];
    size_t nnewest = new;
    for (size_t k = 0; k < ncrawled; k++) {
        const struct dbview_row *r = &v->rows[k];
        char gk[512], pk[512];
        strmap_put(crawled,
                   decl_key(gk, sizeof gk, r->project, r->release, r->variant, r->platform), k);
        decl_key(pk, sizeof pk, r->project, r->release, "", "");
        size_t at;
        if (!strmap_get(newest_of, pk, &at)) {
            newest[nnewest] = r->version;
            strmap_put(newest_of, pk, nnewest++);
        } else if (dotver_cmp_str(r->version, newest[at]) > 0) {
            newest[at] = r->version;
        }
    }
    for (size_t i = 0; i < t->ndeclared; i++) {
        const struct declared *d = &t->declared[i];
        char dk[512];
        decl_key(dk, sizeof dk, d->project, d->release, d->variant, d->platform);
        size_t at;
        strmap_put(last_decl, dk, i); /* the last in table order, as attached before */
        if (!strmap_get(best_decl, dk, &at) ||
            dotver_cmp_str(d->version, t->declared[at].version) > 0)
            strmap_put(best_decl, dk, i);
    }
    for (size_t k = 0; k < ncrawled; k++) {
        struct dbview_row *r = &v->rows[k];
        char gk[512];
        size_t at;
        if (strmap_get(last_decl,
                       decl_key(gk, sizeof gk, r->project, r->release, r->variant, r->platform),
                       &at))
            r->declared = &t->declared[at];
    }
    for (size_t i = 0; i < t->ndeclared; i++) {
        const struct declared *d = &t->declared[i];
        char dk[512];
        decl_key(dk, sizeof dk, d->project, d->release, d->variant, d->platform);
        size_t at, best = i;
        int attached = strmap_get(crawled, dk, &at);
        strmap_get(best_decl, dk, &best);
        if (attached)
            continue;
        /* A release with crawled versions shows its declared-only variants
         * beside them, under the newest crawled version, rather than on a
         * page of its own. */
        char pk[512];
        decl_key(pk, sizeof pk, d->project, d->release, "", "");
        const char *nv = strmap_get(newest_of, pk, &at) ? newest[at] : NULL;
        if (nv && best != i)
            continue; /* an older patch's list: the newest one stands for the release */
        struct dbview_row *r = new_row(v, &cap, d->project, nv ? nv : d->version, d->release,
                                       d->variant, d->platform, VIEW_DECLARED);
        r->declared = d;
        code_from_declared(r, t, d);
    }
    for (size_t k = 0; k < v->nrows; k++) {
        struct dbview_row *r = &v->rows[k];
        if (!r->declared) {
            char gk[512];
            size_t at;
            if (strmap_get(best_decl,
                           decl_key(gk, sizeof gk, r->project, r->release, r->variant, r->platform),
                           &at))
                r->declared = &t->declared[at];
        }
        if (!r->index_url)
            r->index_url = default_index_url(r->variant);
        if (r->nwheels > 1) /* a stable order: by file name */
            qsort(r->wheels, r->nwheels, sizeof *r->wheels, wheel_cmp);
        differences(r);
    }
    /* after differences: those compare the wheel's own code with the
     * declared list */
    attach_libraries(v, t);
    if (v->nrows > 1)
        qsort(v->rows, v->nrows, sizeof *v->rows, row_cmp);
    compact_strings(v);
    strmap_free(by_key);
    strmap_free(crawled);
    strmap_free(newest_of);
    free(newest);
    for (size_t i = 0; i < new; i++)
        free(ew_versions[i]);
    free(ew_versions);
    strmap_free(last_decl);
    strmap_free(best_decl);
    return 0;
}

static json_t *targets_json(const struct target *t, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        char name[TARGET_NAME_MAX];
        target_format(&t[i], name, sizeof name);
        json_array_append_new(a, json_string(name));
    }
    return a;
}

void dbview_isa_format(const struct compat_code_isa *x, char *name, char *isa)
{
    target_format(&x->ptx, name, TARGET_NAME_MAX);
    snprintf(isa, 16, "%ld.%ld", x->isa.f[0], x->isa.n > 1 ? x->isa.f[1] : 0);
}

/* The published get_arch_list() outputs of the wheels a declared row
 * covers: [{wheel, printed, url, agrees, reason}] (reason: why the
 * declared list stands where they differ, else null). */
static json_t *observed_json(const struct tables *t, const struct declared *d)
{
    json_t *a = json_array();
    for (size_t i = 0; t && i < t->nobserved; i++) {
        const struct observed *o = &t->observed[i];
        if (o->declared != d)
            continue;
        json_t *x = json_object();
        json_object_set_new(x, "wheel", json_sprintf("%s+%s", o->version, o->variant));
        json_object_set_new(x, "printed", json_string(o->printed));
        json_object_set_new(x, "url", json_string(o->url));
        json_object_set_new(x, "agrees", json_boolean(o->agrees));
        json_object_set_new(x, "reason", o->reason ? json_string(o->reason) : json_null());
        json_array_append_new(a, x);
    }
    return a;
}

json_t *dbview_row_json(const struct dbview *v, const struct dbview_row *r)
{
    const struct tables *t = v->t;
    json_t *o = json_object();
    json_object_set_new(o, "project", json_string(r->project));
    json_object_set_new(o, "version", json_string(r->version));
    json_object_set_new(o, "release", json_string(r->release));
    json_object_set_new(o, "variant", json_string(r->variant));
    json_object_set_new(o, "platform", json_string(r->platform));
    json_object_set_new(o, "status", json_string(dbview_status_name(r->status)));
    json_object_set_new(o, "index_url", json_string(r->index_url));
    if (r->cuda.n) {
        char cuda[16];
        tables_variant_cuda_text(r->variant, cuda, sizeof cuda);
        json_object_set_new(o, "cuda", json_string(cuda));
        const struct minor_compat *mc = tables_minor_compat(t, (int)r->cuda.f[0]);
        json_t *md = json_object();
        if (mc && mc->min_driver_text[TABLES_LINUX])
            json_object_set_new(md, "linux", json_string(mc->min_driver_text[TABLES_LINUX]));
        if (mc && mc->min_driver_text[TABLES_WINDOWS])
            json_object_set_new(md, "windows", json_string(mc->min_driver_text[TABLES_WINDOWS]));
        json_object_set_new(o, "min_driver", md);
    } else {
        json_object_set_new(o, "cuda", json_null());
        json_object_set_new(o, "min_driver", json_null());
    }
    if (tables_variant_rocm(r->variant, NULL)) {
        json_object_set_new(o, "rocm", json_string(r->variant + 4)); /* "6.4" */
    } else {
        json_object_set_new(o, "rocm", json_null());
    }
    json_object_set_new(o, "sass", targets_json(r->sass, r->nsass));
    json_object_set_new(o, "ptx", targets_json(r->ptx, r->nptx));
    json_object_set_new(o, "gfx", targets_json(r->gfx, r->ngfx));
    json_t *isa = json_object();
    for (size_t i = 0; i < r->code.nisas; i++) {
        char name[TARGET_NAME_MAX], iv[16];
        dbview_isa_format(&r->code.isas[i], name, iv);
        json_object_set_new(isa, name, json_string(iv));
    }
    json_object_set_new(o, "ptx_isa", isa);
    json_object_set_new(o, "modules", json_integer((json_int_t)r->code.modules));
    json_t *sets = json_array();
    for (size_t i = 0; i < r->code.nsets; i++) {
        json_t *s = json_object();
        json_object_set_new(s, "modules", json_integer((json_int_t)r->code.sets[i].modules));
        json_object_set_new(s, "targets", targets_json(r->code.sets[i].targets, r->code.sets[i].n));
        json_array_append_new(sets, s);
    }
    json_object_set_new(o, "module_sets", sets);
    if (r->declared) {
        json_t *d = json_object();
        json_object_set_new(d, "arch_list", json_string(r->declared->arch_list));
        json_object_set_new(d, "sass", targets_json(r->declared->sass, r->declared->nsass));
        json_object_set_new(d, "ptx", targets_json(r->declared->ptx, r->declared->nptx));
        json_object_set_new(d, "gfx", targets_json(r->declared->gfx, r->declared->ngfx));
        json_object_set_new(d, "source", json_string(r->declared->source));
        json_object_set_new(d, "citation", dbview_citation(r->declared->source));
        json_object_set_new(d, "confidence", json_string(r->declared->confidence));
        json_object_set_new(d, "observed", observed_json(v->t, r->declared));
        json_object_set_new(o, "declared", d);
    } else {
        json_object_set_new(o, "declared", json_null());
    }
    json_object_set_new(o, "differences", dbview_row_differences(r));
    json_object_set_new(o, "scanned_at", r->scanned_at ? json_string(r->scanned_at) : json_null());
    json_object_set_new(o, "wheelarch_version",
                        r->wheelarch_version ? json_string(r->wheelarch_version) : json_null());
    return o;
}

json_t *dbview_row_differences(const struct dbview_row *r)
{
    /* strings, never changed: a shallow copy (jansson counts references
     * atomically, so threads may share them) */
    return r->differences ? json_copy(r->differences) : json_array();
}

json_t *dbview_row_binaries(const struct dbview_row *r)
{
    json_t *b = r->binaries ? jsontext_loads(r->binaries, 0, NULL) : NULL;
    if (json_is_array(b))
        return b;
    json_decref(b);
    return json_array();
}

/* A git ref worth linking: a commit, a tag, a release branch or main. */
static int linkable_ref(const char *ref, size_t n)
{
    size_t hex = 0;
    while (hex < n && isxdigit((unsigned char)ref[hex]))
        hex++;
    if (hex == n && n >= 7 && n <= 40)
        return 1;
    if (n >= 2 && ref[0] == 'v' && isdigit((unsigned char)ref[1]))
        return 1;
    if ((n > 8 && strncmp(ref, "release/", 8) == 0) || (n == 4 && strncmp(ref, "main", 4) == 0) ||
        (n == 6 && strncmp(ref, "master", 6) == 0))
        return 1;
    return 0;
}

static int path_char(int c)
{
    return isalnum(c) || c == '.' || c == '_' || c == '-' || c == '/';
}

json_t *dbview_citation(const char *source)
{
    /* "owner/repo:ref:path [notes]", "owner/repo:path@ref (notes)",
     * "owner/repo:path"; the first such reference in the text */
    const char *s = source ? source : "";
    for (const char *p = s; *p; p++) {
        if (p != s && path_char((unsigned char)p[-1]))
            continue;
        const char *slash = p;
        while (*slash &&
               (isalnum((unsigned char)*slash) || *slash == '-' || *slash == '_' || *slash == '.'))
            slash++;
        if (*slash != '/' || slash == p)
            continue;
        const char *colon = slash + 1;
        while (*colon &&
               (isalnum((unsigned char)*colon) || *colon == '-' || *colon == '_' || *colon == '.'))
            colon++;
        if (*colon != ':' || colon == slash + 1)
            continue;
        /* two fields after the repository: ref then path, or path[@ref] */
        const char *a = colon + 1, *ae = a;
        while (*ae && (path_char((unsigned char)*ae) || *ae == '@'))
            ae++;
        const char *b = NULL, *be = NULL;
        if (*ae == ':') {
            b = ae + 1;
            be = b;
            while (*be && path_char((unsigned char)*be))
                be++;
        }
        const char *ref = NULL, *path = a, *pe = ae;
        size_t nref = 0;
        if (b && be > b && linkable_ref(a, (size_t)(ae - a))) {
            ref = a;
            nref = (size_t)(ae - a);
            path = b;
            pe = be;
        } else {
            const char *at = memchr(a, '@', (size_t)(ae - a));
            if (at) {
                pe = at;
                const char *re = at + 1;
                while (re < ae && path_char((unsigned char)*re))
                    re++;
                if (linkable_ref(at + 1, (size_t)(re - at - 1))) {
                    ref = at + 1;
                    nref = (size_t)(re - at - 1);
                }
            }
        }
        if (pe == path || !memchr(path, '.', (size_t)(pe - path)))
            continue; /* not a file */
        struct strbuf t = STRBUF_INIT;
        strbuf_addf(&t, "%.*s %.*s", (int)(colon - p), p, (int)(pe - path), path);
        if (ref) /* a commit by its first 12 digits, as git shows it */
            strbuf_addf(&t, " at %.*s", (int)(nref == 40 ? 12 : nref), ref);
        json_t *o = json_object();
        json_object_set_new(o, "text", json_string(t.buf));
        strbuf_free(&t);
        if (ref) {
            char *url = xasprintf("https://github.com/%.*s/blob/%.*s/%.*s", (int)(colon - p), p,
                                  (int)nref, ref, (int)(pe - path), path);
            json_object_set_new(o, "url", json_string(url));
            free(url);
        } else {
            json_object_set_new(o, "url", json_null());
        }
        return o;
    }
    return json_null();
}
