/*
 * Unit tests: feeddb, api/v1/wheelarch.sqlite, read back as an installer
 * would (SQL over the file's bytes) and checked against the view and the
 * grid the site is made from:
 *
 * - the file is a SQLite database with the documented application id and
 *   schema version, and the same data gives the same bytes;
 * - builds has one row per (variant, platform, project, version) of the
 *   view, with the row's targets, status and index;
 * - a device is in a build's native, ptx_jit or partial list exactly when
 *   the grid's verdict for it says so, in at most one of them;
 * - gpus has every GPU name of the tables once, with its device.
 *
 * usage: test_feeddb DATA_DIR SITE_DB WORK_DIR
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "dbview.h"
#include "feeddb.h"
#include "fixturedb.h"
#include "harness.h"
#include "sitedata.h"
#include "strbuf.h"
#include "strmap.h"
#include "tables.h"

static struct tables T;

static const char *col(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    return s ? (const char *)s : NULL;
}

/* Whether the space-separated list has the word. */
static int in_list(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list ? list : ""; (p = strstr(p, word)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return 1;
    return 0;
}

static void targets_text(const struct target *t, size_t n, struct strbuf *b)
{
    strbuf_reset(b);
    for (size_t i = 0; i < n; i++) {
        char name[TARGET_NAME_MAX];
        target_format(&t[i], name, sizeof name);
        strbuf_addf(b, "%s%s", i ? " " : "", name);
    }
}

/* The view row of a builds row, or -1. */
static long row_of(const struct dbview *v, const char *variant, const char *platform,
                   const char *project, const char *version)
{
    for (size_t r = 0; r < v->nrows; r++)
        if (!strcmp(v->rows[r].variant, variant) && !strcmp(v->rows[r].platform, platform) &&
            !strcmp(v->rows[r].project, project) && !strcmp(v->rows[r].version, version))
            return (long)r;
    return -1;
}

int main(int argc, char **argv)
{
    struct wa_error err;
    if (argc < 4 || tables_load(argv[1], &T, &err) < 0) {
        fprintf(stderr, "usage: test_feeddb DATA_DIR SITE_DB WORK_DIR\n");
        return 2;
    }
    char *cache = fixturedb_make(argv[3], (const char *const[]){argv[2]}, 1);
    struct dbview v;
    struct sitedata d;
    if (!cache || dbview_build(cache, &T, 0, &v, &err) < 0 ||
        sitedata_build(&v, &T, NULL, &d, &err) < 0) {
        fprintf(stderr, "fixture: %s\n", cache ? err.msg : "no database");
        return 2;
    }
    unsigned char *bytes = NULL, *again = NULL;
    size_t len = 0, len2 = 0;
    OK(feeddb_make(&d, &bytes, &len, &err) == 0, "the file is made");
    OK(feeddb_make(&d, &again, &len2, &err) == 0 && len == len2 && memcmp(bytes, again, len) == 0,
       "the same data gives the same bytes (%zu)", len);
    free(again);
    sqlite3 *db = NULL;
    sqlite3_open(":memory:", &db);
    unsigned char *copy = sqlite3_malloc64(len);
    memcpy(copy, bytes, len);
    OK(sqlite3_deserialize(db, "main", copy, (sqlite3_int64)len, (sqlite3_int64)len,
                           SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY) ==
           SQLITE_OK,
       "the bytes are a SQLite database");
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "PRAGMA application_id", -1, &st, NULL);
    OK(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1464355910,
       "application id WHLF");
    sqlite3_finalize(st);
    sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
    OK(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == FEEDDB_SCHEMA,
       "user_version is the schema");
    sqlite3_finalize(st);
    sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'schema'", -1, &st, NULL);
    OK(sqlite3_step(st) == SQLITE_ROW && col(st, 0) && atoi(col(st, 0)) == FEEDDB_SCHEMA,
       "meta says the schema");
    sqlite3_finalize(st);

    /* builds: one row per view row's key, its data, and the grid's verdicts */
    struct strmap *keys = strmap_new();
    size_t nkeys = 0, nbuilds = 0, devices = 0;
    for (size_t r = 0; r < v.nrows; r++) {
        char key[512];
        snprintf(key, sizeof key, "%s|%s|%s|%s", v.rows[r].variant, v.rows[r].platform,
                 v.rows[r].project, v.rows[r].version);
        if (!strmap_get(keys, key, NULL))
            strmap_put(keys, key, nkeys++);
    }
    struct strbuf want = STRBUF_INIT;
    sqlite3_prepare_v2(db,
                       "SELECT index_id, platform, project, version, status, sass, ptx, gfx, "
                       "native, ptx_jit, partial, index_url FROM builds",
                       -1, &st, NULL);
    while (sqlite3_step(st) == SQLITE_ROW) {
        nbuilds++;
        char what[512];
        snprintf(what, sizeof what, "%s %s %s %s", col(st, 2), col(st, 3), col(st, 0), col(st, 1));
        long r = row_of(&v, col(st, 0), col(st, 1), col(st, 2), col(st, 3));
        OK(r >= 0, "%s: a row of the view", what);
        if (r < 0)
            continue;
        const struct dbview_row *row = &v.rows[r];
        STR_EQ(col(st, 4), dbview_status_name(row->status), what);
        targets_text(row->sass, row->nsass, &want);
        STR_EQ(col(st, 5), strbuf_str(&want), what);
        targets_text(row->ptx, row->nptx, &want);
        STR_EQ(col(st, 6), strbuf_str(&want), what);
        targets_text(row->gfx, row->ngfx, &want);
        STR_EQ(col(st, 7), strbuf_str(&want), what);
        STR_EQ(col(st, 11), row->index_url ? row->index_url : "", what);
        for (size_t c = 0; c < d.grid.nccs; c++) {
            char cc[16];
            compat_cc_string(d.grid.ccs[c], cc, sizeof cc);
            int verdict = grid_at(&d.grid, c, (size_t)r)->verdict;
            int native = in_list(col(st, 8), cc), jit = in_list(col(st, 9), cc),
                part = in_list(col(st, 10), cc);
            devices++;
            OK(native + jit + part <= 1, "%s: device %s in one list at most", what, cc);
            OK(native == (verdict == COMPAT_NATIVE) && jit == (verdict == COMPAT_PTX_JIT) &&
                   part == (verdict == COMPAT_PARTIAL),
               "%s: device %s listed as the grid's verdict %s", what, cc,
               compat_verdict_label(verdict));
        }
    }
    sqlite3_finalize(st);
    INT_EQ((long)nbuilds, (long)nkeys, "builds: one row per (variant, platform, project, version)");

    /* gpus: every name once, with its device */
    size_t ngpus = 0;
    sqlite3_prepare_v2(db, "SELECT name, device, vendor FROM gpus", -1, &st, NULL);
    struct strmap *names = strmap_new();
    while (sqlite3_step(st) == SQLITE_ROW) {
        ngpus++;
        strmap_put(names, col(st, 0), 0);
        const struct gpu *g = NULL;
        for (size_t i = 0; i < T.ngpus && !g; i++)
            if (strcmp(T.gpus[i].name, col(st, 0)) == 0)
                g = &T.gpus[i];
        OK(g != NULL, "gpus: %s is a GPU of the tables", col(st, 0));
        if (!g)
            continue;
        char cc[16];
        compat_cc_string(g->cc, cc, sizeof cc);
        OK(strcmp(col(st, 1), cc) == 0 && strcmp(col(st, 2), g->amd ? "amd" : "nvidia") == 0,
           "gpus: %s is device %s of its vendor", col(st, 0), cc);
    }
    sqlite3_finalize(st);
    for (size_t i = 0; i < T.ngpus; i++)
        OK(strmap_get(names, T.gpus[i].name, NULL), "gpus: %s listed", T.gpus[i].name);
    printf("%zu builds, %zu device verdicts, %zu GPUs, %zu bytes\n", nbuilds, devices, ngpus, len);
    strmap_free(names);
    strmap_free(keys);
    strbuf_free(&want);
    sqlite3_close(db);
    free(bytes);
    sitedata_free(&d);
    dbview_free(&v);
    tables_free(&T);
    free(cache);
    return harness_done();
}
