/*
 * dbview: records + declared rows -> one row per (project, version,
 * variant, platform).
 */
#include "dbview.h"
#include "dbview_state.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "db.h"
#include "wheelkey.h"
#include "recqueue.h"
#include "record.h"
#include "strbuf.h"
#include "strmap.h"
#include "strpool.h"
#include "wheelmeta.h"
#include "vendorindex.h"
#include "xalloc.h"

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
    recbinaries_free(&r->binaries);
    for (size_t i = 0; i < r->ndifferences; i++)
        free(r->differences[i]);
    free(r->differences);
    free(r->gfx);
    free(r->scanned_at);
    free(r->wheelarch_version);
    free(r->source_key);
    free(r->requires);
    for (size_t i = 0; i < r->nextras; i++) {
        free(r->extras[i].name);
        free(r->extras[i].gfx);
    }
    free(r->extras);
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

/* Fills a row's code from a record's own binaries. */
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

static int wheel_cmp(const void *a, const void *b)
{
    const struct record_wheel *x = a, *y = b;
    return strcmp(x->filename, y->filename);
}

int dbview_build(const char *cache_dir, const struct tables *t, int flags, struct dbview *v,
                 struct wa_error *err)
{
    return dbview_build_with(cache_dir, t, flags, -1, v, NULL, NULL, err);
}

/* The wheels' strings copied again, in the view's final order: read in
 * key order, a row's wheels lay scattered over the pool, and each pass
 * over the rows (the feed, the release pages, the simple indexes) missed
 * the cache on every wheel. */
/* One wheel of the database into its row. */
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
        const char *at_req = r->requires;
        char *req;
        while (wheelmeta_next_requirement(&at_req, &req)) {
            char *name = NULL, *pin = NULL;
            const char *lib = NULL;
            if (wheelmeta_marker_applies(req, r->platform) &&
                wheelmeta_requirement(req, &name, &pin) == 0 && pin)
                lib = tables_gpu_library(t, name);
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
            free(req);
        }
    }
    strmap_free(lib_at);
}

/* Adds targets t[0..n) to the sorted set *set (n *nset), once each. */
static void add_targets(struct target **set, size_t *nset, const struct target *t, size_t n)
{
    if (!n)
        return;
    *set = xrealloc(*set, (*nset + n) * sizeof **set);
    memcpy(*set + *nset, t, n * sizeof *t);
    *nset = target_sort_unique(*set, *nset + n);
}

/* A vendor build whose GPU code comes by install extras (AMD's whl-next:
 * `Requires-Dist: amd-torch-device-gfx1100 ==2.13.0+rocm10.0.0; extra ==
 * "device-gfx1100"`): each extra gets the gfx targets of the packages it
 * installs that the view holds (the kernel archives crawl read), and the
 * row their union, as its gfx and as one code set: every one of its host
 * binaries has the code of the extra installed. */
static void attach_gpu_packages(struct dbview *v, const struct tables *t)
{
    struct strmap *pkg_at = strmap_new(); /* "project|variant|platform" -> row */
    size_t npkgs = 0;
    for (size_t k = 0; k < v->nrows; k++) {
        const struct dbview_row *r = &v->rows[k];
        if (!r->ngfx || r->status == VIEW_DECLARED || !vendorindex_gpu_package(t, NULL, r->project))
            continue;
        char *key = xasprintf("%s|%s|%s", r->project, r->variant, r->platform);
        size_t at;
        if (!strmap_get(pkg_at, key, &at) || r->status < v->rows[at].status)
            strmap_put(pkg_at, key, k);
        free(key);
        npkgs++;
    }
    for (size_t k = 0; npkgs && k < v->nrows; k++) {
        struct dbview_row *r = &v->rows[k];
        if (!r->requires || r->status == VIEW_DECLARED || !r->vendor || !r->vendor->gpu_package)
            continue;
        const char *at_req = r->requires;
        char *req;
        struct target *all = NULL;
        size_t nall = 0;
        while (wheelmeta_next_requirement(&at_req, &req)) {
            char extra[64], *name = NULL, *pin = NULL;
            size_t at;
            char *key = NULL;
            if (wheelmeta_requirement_extra(req, extra, sizeof extra) == 0 &&
                wheelmeta_requirement(req, &name, &pin) == 0 &&
                vendorindex_gpu_package(t, r->project, name))
                key = xasprintf("%s|%s|%s", name, r->variant, r->platform);
            if (key && strmap_get(pkg_at, key, &at)) {
                const struct dbview_row *p = &v->rows[at];
                size_t e = 0;
                while (e < r->nextras && strcmp(r->extras[e].name, extra) != 0)
                    e++;
                if (e == r->nextras) {
                    r->extras = xrealloc(r->extras, (r->nextras + 1) * sizeof *r->extras);
                    r->extras[e] = (struct dbview_extra){xstrdup(extra), NULL, 0};
                    r->nextras++;
                }
                add_targets(&r->extras[e].gfx, &r->extras[e].ngfx, p->gfx, p->ngfx);
                add_targets(&all, &nall, p->gfx, p->ngfx);
            }
            free(key);
            free(name);
            free(pin);
            free(req);
        }
        if (nall) {
            add_targets(&r->gfx, &r->ngfx, all, nall);
            compat_code_add_set(&r->code, all, nall, 1);
            /* the declared list against the code the extras bring */
            for (size_t i = 0; i < r->ndifferences; i++)
                free(r->differences[i]);
            free(r->differences);
            r->differences = NULL;
            r->ndifferences = 0;
            dbvi_differences(r);
        }
        free(all);
    }
    strmap_free(pkg_at);
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
        rc = dbvi_index_trust_load(&x, db, err);
        if (rc == 0 && code_only) {
            rc = db_each_build(db, dbvi_build_wants_files, dbvi_read_build, &x,
                               err); /* v->records stays 0 */
        } else if (rc == 0) {
            if (nightlies >= 0)
                x.dropped = dropped_nightlies(db, nightlies, err, &rc);
            if (on_record)
                x.rq = recqueue_start(on_record, ud);
            if (rc == 0)
                rc = db_each_wheel(db, dbvi_want_wheel, dbvi_read_wheel, &x, err);
            strmap_free(x.dropped);
            if (x.rq) {
                int qrc = recqueue_finish(x.rq, rc < 0 ? NULL : err);
                if (rc == 0)
                    rc = qrc;
            }
        }
        strbuf_free(&x.gk);
        strmap_free(x.index_trust);
        free(x.ew_project);
        free(x.ew_version);
        ew_versions = x.ew_versions;
        new = x.new;
        if (rc < 0) {
            db_close(db);
            strmap_free(by_key);
            strmap_free(elsewhere);
            for (size_t i = 0; i < new; i++)
                free(ew_versions[i]);
            free(ew_versions);
            dbview_free(v);
            return rc;
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
            struct recbinaries src;
            const char *why;
            if (!code_only && db_read_binaries(db, r->source_key, &src, &why, NULL) == 0) {
                if (!why) {
                    recbinaries_free(&r->binaries);
                    dbvi_own_binaries(&src, &r->binaries);
                }
                recbinaries_free(&src);
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
                   dbvi_decl_key(gk, sizeof gk, r->project, r->release, r->variant, r->platform),
                   k);
        dbvi_decl_key(pk, sizeof pk, r->project, r->release, "", "");
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
        dbvi_decl_key(dk, sizeof dk, d->project, d->release, d->variant, d->platform);
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
        if (strmap_get(
                last_decl,
                dbvi_decl_key(gk, sizeof gk, r->project, r->release, r->variant, r->platform), &at))
            r->declared = &t->declared[at];
    }
    for (size_t i = 0; i < t->ndeclared; i++) {
        const struct declared *d = &t->declared[i];
        char dk[512];
        dbvi_decl_key(dk, sizeof dk, d->project, d->release, d->variant, d->platform);
        size_t at, best = i;
        int attached = strmap_get(crawled, dk, &at);
        strmap_get(best_decl, dk, &best);
        if (attached)
            continue;
        /* A release with crawled versions shows its declared-only variants
         * beside them, under the newest crawled version, rather than on a
         * page of its own. */
        char pk[512];
        dbvi_decl_key(pk, sizeof pk, d->project, d->release, "", "");
        const char *nv = strmap_get(newest_of, pk, &at) ? newest[at] : NULL;
        if (nv && best != i)
            continue; /* an older patch's list: the newest one stands for the release */
        struct dbview_row *r = dbvi_new_row(v, &cap, d->project, nv ? nv : d->version, d->release,
                                            d->variant, d->platform, VIEW_DECLARED);
        r->declared = d;
        dbvi_code_from_declared(r, t, d);
    }
    for (size_t k = 0; k < v->nrows; k++) {
        struct dbview_row *r = &v->rows[k];
        if (!r->declared) {
            char gk[512];
            size_t at;
            if (strmap_get(
                    best_decl,
                    dbvi_decl_key(gk, sizeof gk, r->project, r->release, r->variant, r->platform),
                    &at))
                r->declared = &t->declared[at];
        }
        if (!r->index_url)
            r->index_url = dbvi_default_index_url(t, r);
        r->vendor = vendorindex_of_url(t, r->project, r->index_url);
        if (r->nwheels > 1) /* a stable order: by file name */
            qsort(r->wheels, r->nwheels, sizeof *r->wheels, wheel_cmp);
        dbvi_differences(r);
    }
    /* after differences: those compare the wheel's own code with the
     * declared list */
    attach_libraries(v, t);
    attach_gpu_packages(v, t);
    if (v->nrows > 1)
        qsort(v->rows, v->nrows, sizeof *v->rows, row_cmp);
    dbvi_compact_strings(v);
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
