/*
 * feeddb: api/v1/wheelarch.sqlite.
 *
 * Made in memory and serialised, so nothing is written outside the
 * output folder's own atomic swap.
 */
#include "feeddb.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sitedata_state.h"
#include "strbuf.h"
#include "xalloc.h"
#include "sitedata_text.h"
#include "sitedata_types.h"

static const char schema[] =
    "PRAGMA page_size = 4096;"
    "PRAGMA application_id = 1464355910;" /* "WHLF" */
    "PRAGMA user_version = 1;"
    "CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT) WITHOUT ROWID;"
    "CREATE TABLE builds ("
    " index_id TEXT NOT NULL,"  /* cu128, rocm6.4, cpu */
    " platform TEXT NOT NULL,"  /* linux-x86_64, linux-aarch64, windows-x86_64, windows-arm64 */
    " project TEXT NOT NULL,"   /* torch */
    " version TEXT NOT NULL,"   /* 2.8.0; declared rows: the release, 2.8 */
    " release TEXT NOT NULL,"   /* 2.8 */
    " status TEXT NOT NULL,"    /* verified, inferred, declared */
    " confidence TEXT,"         /* declared rows: high .. low */
    " cuda TEXT,"               /* 12.8, or NULL */
    " rocm TEXT,"               /* 6.4, or NULL */
    " sass TEXT NOT NULL,"      /* sorted, space-separated: sm_80 sm_90a */
    " ptx TEXT NOT NULL,"       /* compute_90 */
    " ptx_isa TEXT NOT NULL,"   /* compute_90=8.8 */
    " gfx TEXT NOT NULL,"       /* gfx90a gfx942 */
    " min_driver_linux TEXT,"   /* 525.60.13 */
    " min_driver_windows TEXT," /* 528.33 */
    " native TEXT NOT NULL,"    /* devices with native code: 8.0 8.6 gfx942 */
    " ptx_jit TEXT NOT NULL,"   /* devices only PTX covers */
    " partial TEXT NOT NULL,"   /* devices some modules have nothing for */
    " index_url TEXT NOT NULL,"
    " PRIMARY KEY (index_id, platform, project, version)) WITHOUT ROWID;"
    "CREATE TABLE gpus ("
    " name TEXT PRIMARY KEY NOT NULL,"
    " vendor TEXT NOT NULL,"        /* nvidia, amd */
    " device TEXT NOT NULL,"        /* 6.1, gfx1100: the key of builds.native */
    " architecture TEXT NOT NULL,"  /* Pascal */
    " segment TEXT NOT NULL,"       /* geforce, datacenter, jetson, radeon, ... */
    " tegra INTEGER NOT NULL,"      /* 1: runs only code for exactly its device */
    " arm_host INTEGER NOT NULL,"   /* 1: sold only in Arm systems */
    " other_devices TEXT NOT NULL," /* other chips sold under the name */
    " page TEXT NOT NULL) WITHOUT ROWID;"
    "CREATE INDEX builds_by_project ON builds (project, platform, version);";

static int fail(sqlite3 *db, struct wa_error *err)
{
    return wa_error_set(err, WA_ERR_IO, "api/v1/wheelarch.sqlite: %s", sqlite3_errmsg(db));
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s && *s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

static void add_targets(struct strbuf *b, const struct target *t, size_t n)
{
    strbuf_reset(b);
    for (size_t i = 0; i < n; i++) {
        char name[TARGET_NAME_MAX];
        target_format(&t[i], name, sizeof name);
        strbuf_addf(b, "%s%s", i ? " " : "", name);
    }
}

/* The rows in key order: (index_id, platform, project, version) as bytes. */
struct keyed {
    const struct dbview_row *row;
    size_t r;
};

static int keyed_cmp(const void *a, const void *b)
{
    const struct dbview_row *x = ((const struct keyed *)a)->row,
                            *y = ((const struct keyed *)b)->row;
    int c = strcmp(x->variant, y->variant);
    if (!c)
        c = strcmp(x->platform, y->platform);
    if (!c)
        c = strcmp(x->project, y->project);
    return c ? c : strcmp(x->version, y->version);
}

static int insert_builds(sqlite3 *db, const struct sitedata *d, struct wa_error *err)
{
    const struct dbview *v = d->v;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(
            db, "INSERT OR IGNORE INTO builds VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1,
            &st, NULL) != SQLITE_OK)
        return fail(db, err);
    struct keyed *k = xcalloc(v->nrows + 1, sizeof *k);
    for (size_t r = 0; r < v->nrows; r++)
        k[r] = (struct keyed){&v->rows[r], r};
    if (v->nrows > 1)
        qsort(k, v->nrows, sizeof *k, keyed_cmp);
    struct strbuf sass = STRBUF_INIT, ptx = STRBUF_INIT, gfx = STRBUF_INIT, isa = STRBUF_INIT;
    struct strbuf on[3] = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT};
    int rc = 0;
    for (size_t i = 0; i < v->nrows && rc == 0; i++) {
        const struct dbview_row *row = k[i].row;
        add_targets(&sass, row->sass, row->nsass);
        add_targets(&ptx, row->ptx, row->nptx);
        add_targets(&gfx, row->gfx, row->ngfx);
        strbuf_reset(&isa);
        for (size_t j = 0; j < row->code.nisas; j++) {
            char name[TARGET_NAME_MAX], iv[16];
            dbview_isa_format(&row->code.isas[j], name, iv);
            strbuf_addf(&isa, "%s%s=%s", j ? " " : "", name, iv);
        }
        for (int j = 0; j < 3; j++)
            strbuf_reset(&on[j]);
        for (size_t c = 0; c < d->grid.nccs; c++) {
            int verdict = grid_at(&d->grid, c, k[i].r)->verdict;
            int j = verdict == COMPAT_NATIVE    ? 0
                    : verdict == COMPAT_PTX_JIT ? 1
                    : verdict == COMPAT_PARTIAL ? 2
                                                : -1;
            if (j < 0)
                continue;
            char cc[16];
            compat_cc_string(d->grid.ccs[c], cc, sizeof cc);
            strbuf_addf(&on[j], "%s%s", on[j].len ? " " : "", cc);
        }
        char cuda[24] = "", rocm[16];
        const char *drv[2] = {NULL, NULL};
        if (row->cuda.n) {
            tables_variant_cuda_text(row->variant, cuda, sizeof cuda);
            const struct minor_compat *mc = tables_minor_compat(d->t, (int)row->cuda.f[0]);
            if (mc) {
                drv[0] = mc->min_driver_text[0];
                drv[1] = mc->min_driver_text[1];
            }
        }
        sitedata_rocm_of(row, rocm, sizeof rocm);
        sqlite3_reset(st);
        bind_text(st, 1, row->variant);
        bind_text(st, 2, row->platform);
        bind_text(st, 3, row->project);
        bind_text(st, 4, row->version);
        bind_text(st, 5, row->release);
        bind_text(st, 6, dbview_status_name(row->status));
        bind_text(st, 7, dbview_row_confidence(row));
        bind_text(st, 8, cuda);
        bind_text(st, 9, rocm);
        sqlite3_bind_text(st, 10, strbuf_str(&sass), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 11, strbuf_str(&ptx), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 12, strbuf_str(&isa), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 13, strbuf_str(&gfx), -1, SQLITE_TRANSIENT);
        bind_text(st, 14, drv[0]);
        bind_text(st, 15, drv[1]);
        for (int j = 0; j < 3; j++)
            sqlite3_bind_text(st, 16 + j, strbuf_str(&on[j]), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 19, row->index_url ? row->index_url : "", -1, SQLITE_TRANSIENT);
        if (sqlite3_step(st) != SQLITE_DONE)
            rc = fail(db, err);
    }
    strbuf_free(&sass);
    strbuf_free(&ptx);
    strbuf_free(&gfx);
    strbuf_free(&isa);
    for (int j = 0; j < 3; j++)
        strbuf_free(&on[j]);
    free(k);
    sqlite3_finalize(st);
    return rc;
}

static int gpu_name_cmp(const void *a, const void *b)
{
    return strcmp((*(const struct gpu *const *)a)->name, (*(const struct gpu *const *)b)->name);
}

static int insert_gpus(sqlite3 *db, const struct sitedata *d, struct wa_error *err)
{
    const struct tables *t = d->t;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO gpus VALUES (?,?,?,?,?,?,?,?,?)", -1, &st,
                           NULL) != SQLITE_OK)
        return fail(db, err);
    const struct gpu **g = xcalloc(t->ngpus + 1, sizeof *g);
    for (size_t i = 0; i < t->ngpus; i++)
        g[i] = &t->gpus[i];
    if (t->ngpus > 1)
        qsort(g, t->ngpus, sizeof *g, gpu_name_cmp);
    int rc = 0;
    struct strbuf others = STRBUF_INIT;
    for (size_t i = 0; i < t->ngpus && rc == 0; i++) {
        char dev[16];
        compat_cc_string(g[i]->cc, dev, sizeof dev);
        strbuf_reset(&others);
        for (size_t k = 0; k < g[i]->nother; k++) {
            char o[16];
            compat_cc_string(g[i]->other_cc[k], o, sizeof o);
            strbuf_addf(&others, "%s%s", k ? " " : "", o);
        }
        char *page = sitedata_gpu_path(g[i]->slug); /* as the page's own */
        sqlite3_reset(st);
        bind_text(st, 1, g[i]->name);
        bind_text(st, 2, g[i]->amd ? "amd" : "nvidia");
        bind_text(st, 3, dev);
        sqlite3_bind_text(st, 4, g[i]->architecture ? g[i]->architecture : "", -1,
                          SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 5, g[i]->segment ? g[i]->segment : "", -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 6, g[i]->tegra != 0);
        sqlite3_bind_int(st, 7, g[i]->arm_host != 0);
        sqlite3_bind_text(st, 8, strbuf_str(&others), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 9, page, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(st) != SQLITE_DONE)
            rc = fail(db, err);
        free(page);
    }
    strbuf_free(&others);
    free(g);
    sqlite3_finalize(st);
    return rc;
}

static int insert_meta(sqlite3 *db, const struct sitedata *d, struct wa_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "INSERT INTO meta VALUES (?, ?)", -1, &st, NULL) != SQLITE_OK)
        return fail(db, err);
    /* keys in sorted order, as every document here */
    const char *keys[] = {"api-version", "data-as-of", "data-through", "declared-checked-on",
                          "generator",   "overdue",    "schema",       "wheels-read"};
    int rc = 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0] && rc == 0; i++) {
        char buf[24];
        const char *val = NULL;
        json_t *x = json_object_get(d->meta, keys[i]);
        if (strcmp(keys[i], "schema") == 0) {
            snprintf(buf, sizeof buf, "%d", FEEDDB_SCHEMA);
            val = buf;
        } else if (json_is_string(x)) {
            val = json_string_value(x);
        } else if (json_is_object(x)) { /* overdue: the sentence */
            val = json_string_value(json_object_get(x, "note"));
        } else if (json_is_boolean(x)) {
            val = json_is_true(x) ? "true" : "false";
        }
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, keys[i], -1, SQLITE_STATIC);
        bind_text(st, 2, val);
        if (sqlite3_step(st) != SQLITE_DONE)
            rc = fail(db, err);
    }
    sqlite3_finalize(st);
    return rc;
}

int feeddb_make(const struct sitedata *d, unsigned char **out, size_t *len, struct wa_error *err)
{
    *out = NULL;
    *len = 0;
    sqlite3 *db;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK) {
        sqlite3_close(db);
        return wa_error_set(err, WA_ERR_IO, "api/v1/wheelarch.sqlite: cannot open SQLite");
    }
    int rc = sqlite3_exec(db, schema, NULL, NULL, NULL) == SQLITE_OK ? 0 : fail(db, err);
    if (rc == 0)
        rc = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK ? 0 : fail(db, err);
    if (rc == 0)
        rc = insert_meta(db, d, err);
    if (rc == 0)
        rc = insert_builds(db, d, err);
    if (rc == 0)
        rc = insert_gpus(db, d, err);
    if (rc == 0)
        rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : fail(db, err);
    /* VACUUM packs the pages; the header's change counter is then fixed
     * by the fixed sequence of statements above. */
    if (rc == 0)
        rc = sqlite3_exec(db, "VACUUM", NULL, NULL, NULL) == SQLITE_OK ? 0 : fail(db, err);
    if (rc == 0) {
        sqlite3_int64 n = 0;
        unsigned char *bytes = sqlite3_serialize(db, "main", &n, 0);
        if (!bytes) {
            rc = wa_error_set(err, WA_ERR_IO, "api/v1/wheelarch.sqlite: cannot serialise");
        } else {
            *out = xmalloc((size_t)n + 1);
            memcpy(*out, bytes, (size_t)n);
            *len = (size_t)n;
            sqlite3_free(bytes);
        }
    }
    sqlite3_close(db);
    return rc;
}
