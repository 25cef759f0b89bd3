/*
 * Unit tests of the record (columns, code, checks), the SQLite database
 * (round trips, one transaction per wheel, schema upgrades, refusals) and
 * merge / import / export.
 *
 * usage: test_db SITE_DB WORK_DIR
 *   SITE_DB   tests/fixtures/site-db: its records are real crawl records
 *   WORK_DIR  a scratch folder for databases
 */
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "db.h"
#include "dbmerge.h"
#include "fsutil.h"
#include "harness.h"
#include "record.h"
#include "recordcmp.h"
#include "recqueue.h"
#include "recbinary.h"
#include "strbuf.h"
#include "xalloc.h"

/* A scanned torch 2.9.0 cu130 linux-x86_64 record, and an inferred one. */
#define SCANNED "dbb3ef635357a2eb037f857bf739f5307f725ec56d2808c2aee868a0b38cb2c7"
#define INFERRED "6d57af775f6306db16090bf182bfe9af59f439304179e34645acef0b3c8cf054"
#define K1 "1111111111111111111111111111111111111111111111111111111111111111"
#define K2 "2222222222222222222222222222222222222222222222222222222222222222"
#define K3 "3333333333333333333333333333333333333333333333333333333333333333"

/* A record's JSON stored the way crawl and merge store it: made into a
 * struct record (record_of_json checks it), kept with its text. */
static int write_json(struct db *db, const char *key, json_t *rec, struct wa_error *err)
{
    struct record r;
    int rc = record_of_json(key, rec, &r, err);
    if (rc < 0)
        return rc;
    char *text = record_text(rec);
    rc = db_write_record(db, &r, text, err);
    free(text);
    record_free(&r);
    return rc;
}

static const char *site_db, *work;

static json_t *load(const char *key)
{
    char *name = xasprintf("records/%s.json", key);
    char *path = fsutil_join(site_db, name);
    json_error_t je;
    json_t *rec = json_load_file(path, 0, &je);
    OK(rec != NULL, "%s: %s", path, je.text);
    free(path);
    free(name);
    return rec;
}

/* The scanned fixture record under another key (and status). */
static json_t *as(const char *key, const char *status)
{
    json_t *r = load(SCANNED);
    json_object_set_new(r, "key", json_string(key));
    json_object_set_new(r, "sha256", json_string(key));
    json_object_set_new(r, "index_sha256", json_string(key));
    json_object_set_new(r, "status", json_string(status));
    if (strcmp(status, "inferred") == 0) {
        json_object_set_new(r, "inferred_from", json_string(SCANNED));
        json_object_del(r, "binaries");
    }
    return r;
}

static char *fresh(const char *name)
{
    char *dir = fsutil_join(work, name);
    char *cmd = xasprintf("rm -rf '%s'", dir);
    OK(system(cmd) == 0, "clean %s", dir);
    free(cmd);
    return dir;
}

static struct db *open_db(const char *dir)
{
    struct db *db = NULL;
    struct wa_error err = {0};
    OK(db_open(dir, 0, &db, &err) == 0, "open %s: %s", dir, err.msg);
    return db;
}

static long long count(const char *dir, const char *sql)
{
    char *path = fsutil_join(dir, DB_FILE);
    sqlite3 *h;
    long long n = -1;
    if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    free(path);
    return n;
}

static void run_sql(const char *path, const char *sql)
{
    sqlite3 *h;
    OK(sqlite3_open(path, &h) == SQLITE_OK, "open %s", path);
    char *msg = NULL;
    OK(sqlite3_exec(h, sql, NULL, NULL, &msg) == SQLITE_OK, "%s: %s", sql, msg ? msg : "");
    sqlite3_free(msg);
    sqlite3_close(h);
}

static void check_clean(const char *dir)
{
    struct db *db = open_db(dir);
    struct wa_error err = {0};
    OK(db && db_check(db, &err) == 0, "%s: integrity_check: %s", dir, err.msg);
    db_close(db);
}

/* ---- the record ----------------------------------------------------------- */

/* A record's line as schema versions 1 to 3 stored it (column `entry`). */
static json_t *old_entry(json_t *rec)
{
    json_t *w = json_object();
    static const char *const keys[] = {
        "filename",   "url",           "sha256", "status",          "key",    "upload_time",
        "scanned_at", "inferred_from", "size",   "sha256_verified", "yanked", "requires_python",
        NULL};
    for (const char *const *k = keys; *k; k++)
        if (json_object_get(rec, *k))
            json_object_set(w, *k, json_object_get(rec, *k));
    return w;
}

static char *code_of(json_t *rec)
{
    struct recbinaries b;
    recbinaries_of(rec, &b);
    char *code = recbinaries_code(&b);
    recbinaries_free(&b);
    return code;
}

/* A record from JSON, checked once into its type: what the database's
 * columns are made of. */
static void record_type(void)
{
    json_t *rec = load(SCANNED);
    struct record r;
    struct wa_error err = {0};
    OK(record_of_json(SCANNED, rec, &r, &err) == 0, "a real record: %s", err.msg);
    OK(r.scanned, "status");
    STR_EQ(r.name.normalized, "torch", "project");
    STR_EQ(r.name.public_version, "2.9.0", "public version");
    STR_EQ(r.variant, "cu130", "variant");
    STR_EQ(r.platform, "linux-x86_64", "platform");
    char *sass = recbinary_targets_text(&r.sass);
    OK(strstr(sass, "sm_") != NULL, "sass union: %s", sass);
    free(sass);
    OK(r.code && strncmp(r.code, "1 sm_", 5) == 0, "code column: %s", r.code);
    STR_EQ(r.name.project, "torch", "the project as the file name writes it");
    STR_EQ(r.name.local, "cu130", "local label");
    OK(r.name.python && r.name.abi && strstr(r.name.platform, "x86_64"), "wheel tags: %s-%s-%s",
       r.name.python, r.name.abi, r.name.platform);
    OK(r.indexes && r.indexes[0] && r.index && strncmp(r.indexes, r.index, strlen(r.index)) == 0,
       "index ids: %s, the first %s", r.indexes, r.index);
    OK(r.variant_source && r.variant_source[0], "how the variant was decided: %s",
       r.variant_source);
    OK(r.size > 0 && r.sha256_verified >= 0, "the line: size, checksum check");
    OK(r.binaries.listed && r.binaries.n == json_array_size(json_object_get(rec, "binaries")),
       "its binaries, typed");
    record_free(&r);

    /* Bundled libraries are left out of the project's code. */
    json_t *bins = json_object_get(rec, "binaries");
    json_t *b = json_deep_copy(json_array_get(bins, 0));
    json_object_set_new(b, "path", json_string("torch/lib/libcublasLt.so.13"));
    json_t *set = json_object();
    json_object_set_new(set, "modules", json_integer(7));
    json_t *ts = json_array();
    json_array_append_new(ts, json_string("sm_121a"));
    json_object_set_new(set, "targets", ts);
    json_t *sets = json_array();
    json_array_append_new(sets, set);
    json_object_set_new(b, "module_sets", sets);
    json_array_append_new(bins, b);
    char *text = code_of(rec);
    OK(text && !strstr(text, "sm_121a"), "a bundled cuBLASLt's targets are not the project's: %s",
       text);
    free(text);
    OK(recbinary_is_bundled("torch/lib/libcudnn_ops.so.9") &&
           recbinary_is_bundled("cublas64_12.dll") &&
           !recbinary_is_bundled("torch/lib/libtorch_cuda.so"),
       "bundled names");

    /* A compact inferred record has no code. */
    json_t *inf = load(INFERRED);
    OK(code_of(inf) == NULL, "an inferred record lists no binaries: no code");
    OK(record_of_json(INFERRED, inf, &r, &err) == 0, "an inferred record");
    OK(r.code == NULL && r.inferred_from != NULL && !r.binaries.listed,
       "inferred: no code, no binaries, a source");
    record_free(&r);
    json_decref(inf);

    /* Construction checks the record. */
    json_object_set_new(rec, "variant", json_string("cu130<b>"));
    OK(record_of_json(SCANNED, rec, &r, &err) < 0 && strstr(err.msg, "variant") && !r.key,
       "a bad variant is refused: %s", err.msg);
    json_t *other = load(SCANNED);
    OK(record_of_json(K1, other, &r, &err) < 0 && strstr(err.msg, "key"),
       "a key that is not the record's is refused: %s", err.msg);
    json_decref(other);
    json_decref(rec);
}

/* db_each_build's walk: how many builds, how many came with file names,
 * and how many names in all. */
struct seen_files {
    int builds, with_files, names;
};

static int see_files(void *ud, const struct db_build *b, struct wa_error *err)
{
    (void)err;
    struct seen_files *s = ud;
    s->builds++;
    if (b->filenames) {
        s->with_files++;
        for (const char *f = b->filenames; *f; f += strcspn(f, "\n") + (f[strcspn(f, "\n")] != 0))
            s->names++;
    }
    return 0;
}

static int want_no_files(void *ud, const struct db_build *b)
{
    (void)ud;
    (void)b;
    return 0;
}

/* The record built as the crawler builds it: from an identity and a scan
 * (or the record a sibling was scanned into), checked like any record; a
 * wheel's line as a type, and back. */
static void record_construction(void)
{
    json_t *src = load(SCANNED);
    struct wheel_name wn;
    const char *fname = "torch-2.9.0+cu130-cp313-cp313-manylinux_2_28_x86_64.whl";
    OK(wheelname_parse(fname, &wn, NULL) == 0, "file name parses");
    const char *ix[] = {"cu130"};
    const char *url = "https://download.pytorch.org/whl/cu130/"
                      "torch-2.9.0%2Bcu130-cp313-cp313-manylinux_2_28_x86_64.whl";
    struct record_identity id = {
        K1,       url,     fname,  K1, "2026-11-01T00:00:00Z",
        ">=3.10", NULL,    ix,     1,  "https://download.pytorch.org/whl/cu130/",
        &wn,      "cu130", "label"};
    struct record from, c;
    struct wa_error err = {0};
    OK(record_of_json(SCANNED, src, &from, &err) == 0, "the source record: %s", err.msg);
    OK(record_of_inferred(&id, &from, "2026-11-20", &c, &err) == 0, "an inferred record: %s",
       err.msg);
    json_t *inf = record_json(&c);
    {
        /* its JSON is a record: checked, read back as the same struct */
        struct record again;
        OK(record_of_json(K1, inf, &again, &err) == 0, "an inferred record passes the checks: %s",
           err.msg);
        char diff[1024];
        recordcmp_differences(&c, &again, diff, sizeof diff);
        OK(diff[0] == '\0', "an inferred record reads back from its JSON; differs in:%s", diff);
        record_free(&again);
    }
    OK(!c.scanned, "inferred: status");
    STR_EQ(c.inferred_from, SCANNED, "inferred: the source's key");
    STR_EQ(c.name.public_version, "2.9.0", "inferred: the public version from the file name");
    {
        struct strbuf want = STRBUF_INIT;
        size_t i;
        json_t *t;
        json_array_foreach(json_object_get(src, "sass"), i, t)
            strbuf_addf(&want, "%s%s", i ? " " : "", json_string_value(t));
        char *got = recbinary_targets_text(&c.sass);
        STR_EQ(got, strbuf_str(&want), "inferred: the source's SASS union");
        free(got);
        strbuf_free(&want);
    }
    OK(c.code == NULL && !json_object_get(inf, "binaries"), "inferred: no per-binary detail");
    record_free(&c);

    /* The line as a type and back. */
    json_t *entry = old_entry(inf);
    struct record_wheel w;
    record_wheel_from_json(entry, &w);
    STR_EQ(w.filename, fname, "line: file name");
    STR_EQ(w.key, K1, "line: key");
    OK(!w.scanned && w.size == -1 && w.sha256_verified == 0 && !w.yanked, "line: typed fields");
    STR_EQ(w.requires_python, ">=3.10", "line: requires-python");
    json_t *back = record_wheel_json(&w);
    char *a = json_dumps(entry, JSON_SORT_KEYS | JSON_COMPACT);
    char *b = json_dumps(back, JSON_SORT_KEYS | JSON_COMPACT);
    STR_EQ(b, a, "line: JSON, type, JSON again: the same");
    free(a);
    free(b);
    json_decref(back);
    record_wheel_free(&w);
    json_decref(entry);
    json_decref(inf);

    /* A scanned record: the scan object under the identity. */
    json_t *scan = json_deep_copy(src);
    struct record_fetch f = {1, 1234, 56789, 3, 0};
    json_t *rec = record_scanned(scan, NULL, &id, &f, "2026-11-20");
    OK(record_of_json(K1, rec, &c, &err) == 0, "a scanned record passes the checks: %s", err.msg);
    OK(c.scanned, "scanned: status");
    OK(c.code != NULL, "scanned: the project's code");
    STR_EQ(json_string_value(json_object_get(json_object_get(rec, "fetch"), "mode")), "range",
           "scanned: how it was read");
    STR_EQ(c.sha256, K1, "scanned: not read whole, so the index's sha256");
    record_free(&c);

    /* The binaries as a type: every field the record says, kept. */
    struct recbinaries rb;
    recbinaries_of(rec, &rb);
    json_t *jb = json_object_get(rec, "binaries");
    INT_EQ((long)rb.n, (long)json_array_size(jb), "typed binaries: one per binary");
    for (size_t i = 0; i < rb.n; i++) {
        json_t *o = json_array_get(jb, i);
        const struct recbinary *x = &rb.v[i];
        STR_EQ(x->path, json_string_value(json_object_get(o, "path")), "typed binary: path");
        OK(x->modules == json_integer_value(json_object_get(o, "modules")) &&
               x->size == json_integer_value(json_object_get(o, "size")),
           "typed binary %zu: counts", i);
        json_t *sass = recbinary_targets_json(&x->sass);
        OK(json_equal(sass, json_object_get(o, "sass")), "typed binary %zu: its SASS list", i);
        json_decref(sass);
        INT_EQ((long)x->ntargets, (long)json_object_size(json_object_get(o, "targets")),
               "typed binary: its targets");
        for (size_t k = 0; k < x->ntargets; k++) {
            char name[TARGET_NAME_MAX];
            target_format(&x->targets[k].t, name, sizeof name);
            json_t *tj = recbinary_target_json(&x->targets[k]);
            OK(json_equal(tj, json_object_get(json_object_get(o, "targets"), name)),
               "typed target %s: the record's object again", name);
            if (k > 0) {
                char prev[TARGET_NAME_MAX];
                target_format(&x->targets[k - 1].t, prev, sizeof prev);
                OK(strcmp(prev, name) < 0, "targets by name: %s < %s", prev, name);
            }
            json_decref(tj);
        }
        /* the columns' text forms read back as the same type */
        char *sets = recbinary_sets_text(x), *comp = recbinary_compression_text(x);
        struct recbinary y = {0};
        OK(recbinary_sets_parse(sets, &y) == 0 && recbinary_compression_parse(comp, &y) == 0,
           "sets \"%s\" and compression \"%s\" parse", sets, comp);
        char *sets2 = recbinary_sets_text(&y), *comp2 = recbinary_compression_text(&y);
        STR_EQ(sets2, sets, "module sets: text, type, text");
        STR_EQ(comp2, comp, "compression: text, type, text");
        OK(recbinary_wrong(x) == NULL, "a checked record's binary passes the read checks");
        free(sets);
        free(comp);
        free(sets2);
        free(comp2);
        free(y.compression);
        for (size_t k = 0; k < y.nsets; k++)
            free(y.sets[k].targets.v);
        free(y.sets);
    }
    recbinaries_free(&rb);
    /* Text forms that are not the type's are refused. */
    struct recbinary_targets tl;
    OK(recbinary_targets_parse("sm_80 sm_90a", TARGET_SASS, &tl) == 0 && tl.n == 2,
       "two SASS targets");
    free(tl.v);
    static const char *const bad_lists[] = {"sm_80  sm_90", "sm_80 ",     "SM_80",
                                            "sm_080",       "compute_80", "sm_80 <b>"};
    for (size_t i = 0; i < sizeof bad_lists / sizeof *bad_lists; i++) {
        OK(recbinary_targets_parse(bad_lists[i], TARGET_SASS, &tl) < 0,
           "\"%s\" is not a list of SASS targets", bad_lists[i]);
        free(tl.v);
    }
    struct recbinary z = {0};
    OK(recbinary_sets_parse("x sm_80", &z) < 0, "a module set without a count is refused");
    for (size_t k = 0; k < z.nsets; k++)
        free(z.sets[k].targets.v);
    free(z.sets);
    OK(recbinary_compression_parse("zstd=-1", &z) < 0, "a negative count is refused");
    free(z.compression);
    struct recbinary_lines ln;
    recbinary_lines_parse("a\nb\n", &ln);
    OK(ln.n == 2 && strcmp(ln.v[1], "b") == 0, "lines split at newlines");
    static const char *const line_texts[] = {"", "\n", "a\n\n", "\n\nb\n"};
    static const size_t line_counts[] = {0, 1, 2, 3};
    for (size_t i = 0; i < 4; i++) {
        struct recbinary_lines l2;
        recbinary_lines_parse(line_texts[i], &l2);
        char *again = recbinary_lines_text(&l2);
        OK(l2.n == line_counts[i] && strcmp(again, line_texts[i]) == 0,
           "lines text %zu: %zu lines, and the same text again", i, l2.n);
        free(again);
        for (size_t k = 0; k < l2.n; k++)
            free(l2.v[k]);
        free(l2.v);
    }
    struct recbinary w1 = {
        .path = ln.v[0], .size = -1, .modules = -1, .dlink_modules = -1, .library_modules = -1};
    OK(recbinary_wrong(&w1) == NULL, "a plain binary passes");
    w1.path = "a\x1b[2Jb";
    OK(recbinary_wrong(&w1) != NULL, "a control character in a path is refused");
    w1.path = "a\xff";
    OK(recbinary_wrong(&w1) != NULL, "a path that is not UTF-8 is refused");
    w1.path = "";
    OK(recbinary_wrong(&w1) != NULL, "an empty path is refused");
    w1.path = "p";
    w1.size = -5;
    OK(recbinary_wrong(&w1) != NULL, "a negative size is refused");
    free(ln.v[0]);
    free(ln.v[1]);
    free(ln.v);

    /* Construction checks the grammar: a variant that is not one. */
    id.variant = "cu130 <b>";
    OK(record_of_inferred(&id, &from, "2026-11-20", &c, &err) < 0 && strstr(err.msg, "variant"),
       "a bad variant is refused: %s", err.msg);
    record_free(&from);
    json_decref(rec);
    wheelname_free(&wn);
    json_decref(src);
}

/* ---- the database ----------------------------------------------------------- */

static int each_count(void *ud, const struct record_row *w, struct wa_error *err)
{
    (void)err;
    size_t *n = ud;
    if (w->project && w->variant && w->filename && w->url)
        (*n)++;
    return 0;
}

static void round_trip(void)
{
    char *dir = fresh("rt");
    struct db *db = open_db(dir);
    struct wa_error err = {0};
    json_t *rec = load(SCANNED);
    const struct db_note note = {
        .url = "https://x/y.whl", .pid = 42, .started = "2026-12-02", .isolated = 1};
    const struct db_failure fail = {.error = "HTTP 500",
                                    .http_status = 500,
                                    .runs = 2,
                                    .kind = "sha256",
                                    .failed_at = "2026-12-02"};
    struct db_note nb;
    struct db_failure fb;
    OK(db_journal_begin(db, SCANNED, &note, &err) == 0, "journal: %s", err.msg);
    OK(db_note_get(db, SCANNED, &nb) && nb.url && strcmp(nb.url, note.url) == 0 && nb.pid == 42 &&
           nb.started && strcmp(nb.started, "2026-12-02") == 0 && nb.isolated && !nb.filename,
       "the note reads back as written");
    db_note_free(&nb);
    OK(db_failure_put(db, SCANNED, &fail, &err) == 0, "failure: %s", err.msg);
    OK(db_failure_get(db, SCANNED, &fb) && fb.error && strcmp(fb.error, "HTTP 500") == 0 &&
           fb.http_status == 500 && fb.runs == 2 && fb.kind && strcmp(fb.kind, "sha256") == 0 &&
           fb.failed_at && !fb.url && fb.isolated_stops == 0,
       "the failure reads back as written");
    db_failure_free(&fb);
    OK(!db_note_get(db, SCANNED, &nb), "a stored failure ends the journal row");
    OK(db_journal_begin(db, SCANNED, &note, &err) == 0, "journal again");
    OK(write_json(db, SCANNED, rec, &err) == 0, "write: %s", err.msg);
    json_t *back = NULL;
    OK(db_read_record(db, SCANNED, &back, &err) == 0, "read: %s", err.msg);
    OK(json_equal(rec, back), "the record reads back equal");
    json_decref(back);
    /* the binaries read back from their rows as the type made from the
     * record (checked, in the record's order) */
    struct recbinaries made, read;
    const char *why = "x";
    recbinaries_of(rec, &made);
    OK(db_read_binaries(db, SCANNED, &read, &why, &err) == 0 && why == NULL,
       "binaries read back: %s", why ? why : err.msg);
    INT_EQ((long)read.n, (long)made.n, "as many binaries as the record lists");
    for (size_t i = 0; i < read.n && i < made.n; i++) {
        const struct recbinary *x = &made.v[i], *y = &read.v[i];
        char *a1 = recbinary_sets_text(x), *b1 = recbinary_sets_text(y);
        char *a2 = recbinary_compression_text(x), *b2 = recbinary_compression_text(y);
        char *a3 = recbinary_lines_text(&x->arch_flags), *b3 = recbinary_lines_text(&y->arch_flags);
        char *a4 = recbinary_targets_text(&x->sass), *b4 = recbinary_targets_text(&y->sass);
        OK(strcmp(x->path, y->path) == 0 && x->size == y->size && x->modules == y->modules &&
               x->dlink_modules == y->dlink_modules && x->bundled == y->bundled &&
               x->ntargets == y->ntargets && x->declared == y->declared && strcmp(a1, b1) == 0 &&
               strcmp(a2, b2) == 0 && strcmp(a3, b3) == 0 && strcmp(a4, b4) == 0,
           "binary %zu (%s) reads back as it was made", i, x->path);
        for (size_t k = 0; k < x->ntargets && k < y->ntargets; k++) {
            json_t *tx = recbinary_target_json(&x->targets[k]);
            json_t *ty = recbinary_target_json(&y->targets[k]);
            OK(json_equal(tx, ty) && target_cmp(&x->targets[k].t, &y->targets[k].t) == 0,
               "binary %zu, target %zu reads back", i, k);
            json_decref(tx);
            json_decref(ty);
        }
        free(a1), free(b1), free(a2), free(b2), free(a3), free(b3), free(a4), free(b4);
    }
    recbinaries_free(&made);
    recbinaries_free(&read);
    OK(db_read_binaries(db, K1, &read, &why, &err) == 0 && why == NULL && read.n == 0,
       "a wheel without rows has no binaries");
    recbinaries_free(&read);
    OK(!db_failure_get(db, SCANNED, &fb), "the record's transaction removed the failure");
    OK(!db_note_get(db, SCANNED, &nb), "and the journal row");
    STR_EQ(db_record_status(db, SCANNED), "scanned", "status");
    OK(!db_has_record(db, K1), "an absent key");
    OK(db_read_record(db, "../../etc/passwd", &back, &err) < 0 && back == NULL,
       "a path is not a key: %s", err.msg);

    json_t *inf = load(INFERRED);
    OK(write_json(db, INFERRED, inf, &err) == 0, "write an inferred record: %s", err.msg);
    /* Nothing invalid enters. */
    json_t *bad = as(K1, "scanned");
    json_object_set_new(bad, "url", json_string("javascript:alert(1)"));
    OK(write_json(db, K1, bad, &err) < 0 && strstr(err.msg, "url"),
       "an invalid record is refused: %s", err.msg);
    OK(!db_has_record(db, K1), "and not stored");
    INT_EQ(db_count_records(db), 2, "two records");
    size_t n = 0;
    OK(db_each_wheel(db, NULL, each_count, &n, &err) == 0, "each wheel");
    INT_EQ(n, 2, "each wheel hands out both rows");
    char *code = db_record_code(db, SCANNED);
    OK(code && strstr(code, "sm_"), "code column of the scanned record");
    free(code);
    db_close(db);
    OK(count(dir, "SELECT count(*) FROM binaries WHERE wheel = '" SCANNED "'") > 0,
       "binaries rows of the scanned wheel");
    OK(count(dir, "SELECT count(*) FROM targets WHERE wheel = '" SCANNED "' AND kind = 'sass'") > 0,
       "targets rows of the scanned wheel");
    INT_EQ(count(dir, "SELECT count(*) FROM binaries WHERE wheel = '" INFERRED "'"), 0,
           "no binaries rows for an inferred wheel");

    /* builds: one row per group, the scanned wheel first, kept by
     * triggers through writes and deletes; meta counts the changes. */
    db = open_db(dir);
    char id[65];
    long long before = 0, after = 0;
    OK(db_state(db, id, &before, &err) == 0 && strlen(id) == 32, "the database's id: %s", id);
    json_t *sib = as(K2, "inferred");
    OK(write_json(db, K2, sib, &err) == 0, "an inferred sibling before it in key order");
    json_decref(sib);
    OK(db_state(db, id, &after, &err) == 0 && after == before + 1, "one change counted");
    db_close(db);
    INT_EQ(count(dir, "SELECT count(*) FROM builds"), 2, "two groups");
    INT_EQ(count(dir, "SELECT count(*) FROM builds WHERE best = '" SCANNED "' AND status = "
                      "'scanned'"),
           1, "the scanned wheel stands for its group, whatever the key order");
    /* each build with its wheels' file names, or without where not wanted */
    db = open_db(dir);
    struct seen_files all = {0}, none = {0};
    OK(db_each_build(db, NULL, see_files, &all, &err) == 0, "every build: %s", err.msg);
    INT_EQ(all.builds, 2, "two builds handed out");
    INT_EQ(all.with_files, 2, "each with its file names");
    INT_EQ(all.names, count(dir, "SELECT count(*) FROM wheels"), "one name per wheel");
    OK(db_each_build(db, want_no_files, see_files, &none, &err) == 0, "no names: %s", err.msg);
    INT_EQ(none.builds, 2, "still every build");
    INT_EQ(none.with_files, 0, "none with file names it was not asked for");
    db_close(db);
    char *path = fsutil_join(dir, DB_FILE);
    run_sql(path, "DELETE FROM wheels WHERE key = '" SCANNED "'");
    INT_EQ(count(dir, "SELECT count(*) FROM builds WHERE best = '" K2 "' AND status = 'inferred'"),
           1, "without it, the inferred sibling does");
    run_sql(path, "DELETE FROM wheels WHERE key = '" K2 "'");
    INT_EQ(count(dir, "SELECT count(*) FROM records WHERE key = '" K2 "'"), 0,
           "a wheel's record goes with its row");
    INT_EQ(count(dir, "SELECT count(*) FROM builds"), 1, "a group without wheels has no row");
    free(path);
    db = open_db(dir);
    OK(write_json(db, SCANNED, rec, &err) == 0, "write it back: %s", err.msg);
    db_close(db);

    /* Rewriting a record replaces its binaries. */
    db = open_db(dir);
    json_object_set_new(rec, "binaries", json_array());
    OK(write_json(db, SCANNED, rec, &err) == 0, "rewrite: %s", err.msg);
    db_close(db);
    INT_EQ(count(dir, "SELECT count(*) FROM binaries WHERE wheel = '" SCANNED "'"), 0,
           "the old binaries rows went with the old record");

    /* The HTTP cache. */
    db = open_db(dir);
    struct db_http_entry e = {NULL, "\"etag\"", NULL, "text/html", "<html>\0x", 8};
    OK(db_http_store(db, "https://h/whl/", &e, &err) == 0, "store a page");
    struct db_http_entry got;
    OK(db_http_load(db, "https://h/whl/", &got) == 0 && got.len == 8 &&
           memcmp(got.body, "<html>\0x", 8) == 0 && strcmp(got.etag, "\"etag\"") == 0,
       "the page reads back, bytes and validators");
    db_http_entry_free(&got);
    OK(db_http_load(db, "https://h/other/", &got) < 0, "another URL is not cached");
    db_close(db);
    check_clean(dir);
    json_decref(rec);
    json_decref(inf);
    json_decref(bad);
    free(dir);
}

/* ---- schema versions ------------------------------------------------------------ */

static void migrations(void)
{
    char *dir = fresh("old");
    fsutil_mkdirs(dir, NULL);
    char *path = fsutil_join(dir, DB_FILE);
    struct wa_error err = {0};
    OK(db_create_at_version(path, 1, &err) == 0, "a version-1 database: %s", err.msg);
    INT_EQ(count(dir, "PRAGMA user_version"), 1, "at version 1");
    OK(count(dir, "SELECT count(*) FROM binaries") < 0, "version 1 has no binaries table");
    /* A record stored by version 1 (its columns as version 1 wrote them). */
    json_t *rec = load(SCANNED);
    /* with requirements: version 5 copies them as JSON, version 8 makes
     * them one per line */
    json_object_set_new(
        rec, "requires_dist",
        json_pack("[ss]", "nvidia-cudnn-cu12==9.10.2.21; platform_system == 'Linux'", "filelock"));
    struct record c;
    OK(record_of_json(SCANNED, rec, &c, &err) == 0, "columns");
    char *c_sass = recbinary_targets_text(&c.sass), *c_ptx = recbinary_targets_text(&c.ptx),
         *c_gfx = recbinary_targets_text(&c.gfx);
    char *text = json_dumps(rec, JSON_COMPACT | JSON_SORT_KEYS);
    sqlite3 *h;
    OK(sqlite3_open(path, &h) == SQLITE_OK, "open v1");
    sqlite3_stmt *st;
    OK(sqlite3_prepare_v2(h,
                          "INSERT INTO wheels (key, status, project, version, variant, platform, "
                          "filename, sass, ptx, gfx, code, entry, record) VALUES "
                          "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                          -1, &st, NULL) == SQLITE_OK,
       "prepare");
    json_t *line = old_entry(rec);
    char *entry = json_dumps(line, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(line);
    const char *v[] = {SCANNED,
                       "scanned",
                       c.name.normalized,
                       c.name.public_version,
                       c.variant,
                       c.platform,
                       c.filename,
                       c_sass,
                       c_ptx,
                       c_gfx,
                       c.code,
                       entry,
                       text};
    for (int i = 0; i < 13; i++)
        sqlite3_bind_text(st, i + 1, v[i], -1, SQLITE_TRANSIENT);
    OK(sqlite3_step(st) == SQLITE_DONE, "insert a v1 row");
    sqlite3_finalize(st);
    sqlite3_close(h);
    record_free(&c);
    free(c_sass);
    free(c_ptx);
    free(c_gfx);
    free(text);
    free(entry);

    /* Readers refuse an old schema, except a merge input. */
    struct db *db = NULL;
    OK(db_open(dir, DB_READONLY, &db, &err) < 0 && strstr(err.msg, "older"),
       "a reader asks for the upgrade: %s", err.msg);
    OK(db_open(dir, DB_READONLY | DB_ANY_VERSION, &db, &err) == 0, "a merge input may be older");
    db_close(db);
    /* A writer upgrades it. */
    db = open_db(dir);
    db_close(db);
    INT_EQ(count(dir, "PRAGMA user_version"), DB_SCHEMA_VERSION, "upgraded to the current version");
    INT_EQ(count(dir, "SELECT count(*) FROM builds WHERE best = '" SCANNED "'"), 1,
           "the upgrade filled builds from the records already stored");
    OK(count(dir, "SELECT count(*) FROM binaries WHERE wheel = '" SCANNED "'") > 0,
       "the upgrade filled the binaries of the records already stored");
    OK(count(dir, "SELECT count(*) FROM targets WHERE wheel = '" SCANNED "'") > 0,
       "and their targets");
    INT_EQ(count(dir, "SELECT count(*) FROM wheels WHERE key = '" SCANNED "' AND requires = "
                      "'nvidia-cudnn-cu12==9.10.2.21; platform_system == ''Linux''' || char(10) "
                      "|| 'filelock'"),
           1, "the upgrade made the requirements one per line");
    INT_EQ(count(dir, "SELECT count(*) FROM builds WHERE best = '" SCANNED "' AND requires = "
                      "(SELECT requires FROM wheels WHERE key = '" SCANNED "')"),
           1, "and builds has them too");
    INT_EQ(count(dir, "SELECT count(*) FROM wheels WHERE key = '" SCANNED "' AND name = 'torch'"
                      " AND local_label = 'cu130' AND size > 0 AND sha256_verified IS NOT NULL"
                      " AND python_tag IS NOT NULL AND indexes IS NOT NULL AND yanked = 0"),
           1, "the upgrade filled the identity and line columns from the record");
    OK(count(dir, "SELECT count(*) FROM pragma_table_info('wheels') WHERE name = 'entry'") == 0,
       "and dropped the line's JSON copy");
    INT_EQ(count(dir, "SELECT count(*) FROM records WHERE key = '" SCANNED "'"), 1,
           "the record moved to records");
    OK(count(dir, "SELECT count(*) FROM pragma_table_info('wheels') WHERE name = 'record'") == 0,
       "and out of wheels");
    db = open_db(dir);
    json_t *back = NULL;
    OK(db && db_read_record(db, SCANNED, &back, &err) == 0 && json_equal(back, rec),
       "the record survives the upgrade");
    json_decref(back);
    db_close(db);
    check_clean(dir);

    /* A newer database, another application's, and garbage are refused. */
    run_sql(path, "PRAGMA user_version = 99");
    OK(db_open(dir, 0, &db, &err) < 0 && strstr(err.msg, "newer") && strstr(err.msg, DB_FILE),
       "a newer schema is refused: %s", err.msg);
    run_sql(path, "PRAGMA application_id = 1234; PRAGMA user_version = 1");
    OK(db_open(dir, 0, &db, &err) < 0 && strstr(err.msg, "not a wheelarch database"),
       "another application's SQLite file is refused: %s", err.msg);
    FILE *f = fopen(path, "wb");
    fputs("this is not a database, just text that is long enough to have a header.........", f);
    fclose(f);
    OK(db_open(dir, 0, &db, &err) < 0 && strstr(err.msg, DB_FILE),
       "a file that is not SQLite is refused, naming it: %s", err.msg);
    json_decref(rec);
    free(path);
    free(dir);
}

/* ---- merge, import, export -------------------------------------------------------- */

struct refusals {
    size_t n;
    char last[512];
};

/* Every row of the tables derived from the records, as text in a fixed
 * order: what must not depend on the writer that stored them. */
static char *derived_rows(const char *dir)
{
    static const char *const sql[] = {
        "SELECT * FROM wheels ORDER BY key",
        "SELECT * FROM records ORDER BY key",
        "SELECT * FROM binaries ORDER BY wheel, path",
        "SELECT * FROM targets ORDER BY wheel, path, target",
        "SELECT * FROM builds ORDER BY project, version, variant, platform",
    };
    char *path = fsutil_join(dir, DB_FILE);
    struct strbuf b = STRBUF_INIT;
    sqlite3 *h;
    OK(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK, "open %s", path);
    for (size_t i = 0; i < sizeof sql / sizeof *sql; i++) {
        sqlite3_stmt *st;
        strbuf_addf(&b, "-- %s\n", sql[i]);
        if (sqlite3_prepare_v2(h, sql[i], -1, &st, NULL) != SQLITE_OK) {
            strbuf_adds(&b, "(no such table)\n"); /* an old version's */
            continue;
        }
        while (sqlite3_step(st) == SQLITE_ROW) {
            for (int c = 0; c < sqlite3_column_count(st); c++) {
                const char *t = (const char *)sqlite3_column_text(st, c);
                strbuf_addf(&b, "%s=%s|", sqlite3_column_name(st, c), t ? t : "NULL");
            }
            strbuf_addc(&b, '\n');
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    free(path);
    return b.buf;
}

/* The columns two tables (of the main and the attached database) share. */
static char *shared_columns(sqlite3 *h, const char *table)
{
    char *sql = xasprintf("SELECT group_concat(o.name, ', ') FROM pragma_table_info('%s', "
                          "'main') o JOIN pragma_table_info('%s', 'ref') r ON r.name = o.name",
                          table, table);
    sqlite3_stmt *st;
    char *cols = NULL;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
        sqlite3_column_text(st, 0))
        cols = xstrdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    free(sql);
    return cols;
}

/* A database upgraded from any version keeps no row as its old writer made
 * it: the records of a version-4 ... 10 database whose derived columns an
 * older writer filled otherwise (the code column's PTX ISAs in another
 * order, a binary's lists, the record's JSON unsorted) give, once
 * upgraded, exactly the rows a fresh database of the same records has. */
static void migrations_refill(void)
{
    char *ref = fresh("refill-ref");
    struct db *db = open_db(ref);
    struct wa_error err = {0};
    const char *keys[] = {SCANNED, K1, K2};
    for (size_t i = 0; i < 3; i++) {
        json_t *r = i == 0 ? load(SCANNED) : as(keys[i], i == 1 ? "scanned" : "inferred");
        OK(db && write_json(db, keys[i], r, &err) == 0, "store %zu: %s", i, err.msg);
        json_decref(r);
    }
    db_close(db);
    char *want = derived_rows(ref);
    char *refpath = fsutil_join(ref, DB_FILE);
    for (int v = 4; v < DB_SCHEMA_VERSION; v++) {
        char *name = xasprintf("refill-%d", v);
        char *dir = fresh(name);
        fsutil_mkdirs(dir, NULL);
        char *path = fsutil_join(dir, DB_FILE);
        OK(db_create_at_version(path, v, &err) == 0, "version %d: %s", v, err.msg);
        sqlite3 *h;
        OK(sqlite3_open(path, &h) == SQLITE_OK, "open %s", path);
        char *attach = xasprintf("ATTACH '%s' AS ref", refpath);
        OK(sqlite3_exec(h, attach, NULL, NULL, NULL) == SQLITE_OK, "attach");
        free(attach);
        /* the rows as an old writer left them */
        int has_records = count(dir, "SELECT count(*) FROM records") >= 0;
        struct strbuf sql = STRBUF_INIT;
        static const char *const tables[] = {"wheels", "binaries", "targets"};
        for (size_t t = 0; t < 3; t++) {
            char *cols = shared_columns(h, tables[t]);
            if (cols && t == 0 && !has_records) /* versions 4, 5: the record inline */
                strbuf_addf(&sql,
                            "INSERT INTO main.wheels (%s, record) SELECT %s, (SELECT record "
                            "FROM ref.records r WHERE r.key = w.key) FROM ref.wheels w;",
                            cols, cols);
            else if (cols)
                strbuf_addf(&sql, "INSERT INTO main.%s (%s) SELECT %s FROM ref.%s;", tables[t],
                            cols, cols, tables[t]);
            free(cols);
        }
        if (has_records)
            strbuf_adds(&sql, "INSERT OR REPLACE INTO main.records SELECT * FROM ref.records;");
        strbuf_adds(&sql, "UPDATE main.wheels SET code = replace(replace(code, 'ptx_isa', "
                          "'isa_ptx'), '8.', '8 .') WHERE code IS NOT NULL;"
                          "UPDATE main.targets SET codecs = 'stale';");
        if (v >= 8)
            strbuf_adds(&sql, "UPDATE main.binaries SET ptx = 'compute_99', warnings = 'old';");
        strbuf_addf(&sql,
                    "UPDATE main.%s SET record = '{\"status\": \"scanned\", ' || "
                    "substr(record, 2);",
                    has_records ? "records" : "wheels");
        char *msg = NULL;
        OK(sqlite3_exec(h, sql.buf, NULL, NULL, &msg) == SQLITE_OK, "version %d rows: %s (%s)", v,
           msg ? msg : "", sql.buf);
        sqlite3_free(msg);
        strbuf_free(&sql);
        sqlite3_close(h);
        char *before = derived_rows(dir);
        OK(strcmp(before, want) != 0, "version %d: the old writer's rows differ", v);
        db = open_db(dir); /* a writer upgrades it */
        db_close(db);
        OK(count(dir, "PRAGMA user_version") == DB_SCHEMA_VERSION, "version %d upgraded", v);
        char *got = derived_rows(dir);
        OK(strcmp(got, want) == 0,
           "version %d upgraded: the rows of a fresh database:\n%.600s\n--- want\n%.600s", v, got,
           want);
        check_clean(dir);
        free(before);
        free(got);
        free(path);
        free(dir);
        free(name);
    }
    free(refpath);
    free(want);
    free(ref);
}

static void note(void *ud, const char *what, const char *why)
{
    struct refusals *r = ud;
    r->n++;
    snprintf(r->last, sizeof r->last, "%s: %s", what, why);
}

/* A database in WORK/name holding the given (key, status) records. */
static char *make_db(const char *name, const char *const *keys, const char *const *statuses,
                     size_t n)
{
    char *dir = fresh(name);
    struct db *db = open_db(dir);
    struct wa_error err = {0};
    for (size_t i = 0; i < n; i++) {
        json_t *r = as(keys[i], statuses[i]);
        OK(write_json(db, keys[i], r, &err) == 0, "%s: write %s: %s", name, keys[i], err.msg);
        json_decref(r);
    }
    db_close(db);
    char *path = fsutil_join(dir, DB_FILE);
    free(dir);
    return path;
}

static void merges(void)
{
    static const char *const ka[] = {K1, K2}, *const sa[] = {"scanned", "inferred"};
    static const char *const kb[] = {K2, K3}, *const sb[] = {"scanned", "scanned"};
    static const char *const kc[] = {K1}, *const sc[] = {"inferred"};
    char *a = make_db("m-a", ka, sa, 2);
    char *b = make_db("m-b", kb, sb, 2);
    char *cdb = make_db("m-c", kc, sc, 1);
    char *into = fresh("m-into");
    struct db *db = open_db(into);
    struct wa_error err = {0};
    struct dbmerge_stats st;
    struct refusals r = {0};

    /* Disjoint into an empty database, then overlapping. */
    const char *first[] = {a};
    OK(db_merge(db, first, 1, &st, note, &r, &err) == 0, "merge a: %s", err.msg);
    INT_EQ(st.added, 2, "a: two added");
    const char *second[] = {b, cdb};
    OK(db_merge(db, second, 2, &st, note, &r, &err) == 0, "merge b and c: %s", err.msg);
    INT_EQ(st.added, 1, "b: K3 added");
    INT_EQ(st.replaced, 1, "b: the inferred K2 replaced by b's scanned one");
    INT_EQ(st.kept, 1, "c: the scanned K1 kept over c's inferred one");
    INT_EQ(r.n, 0, "nothing refused");
    STR_EQ(db_record_status(db, K1), "scanned", "K1 stays scanned");
    STR_EQ(db_record_status(db, K2), "scanned", "K2 is scanned now");
    INT_EQ(db_count_records(db), 3, "the union: three records");

    /* Damaged and invalid inputs are refused whole. */
    char *bad = make_db("m-bad", kb, sb, 2);
    run_sql(bad, "UPDATE records SET record = replace(record, '\"cu130\"', '\"cu 130\"') WHERE "
                 "key = '" K3 "'");
    char *junk = fsutil_join(work, "junk.db");
    FILE *f = fopen(junk, "wb");
    fputs("SQLite format 3", f);
    fputc(0, f);
    for (int i = 0; i < 4000; i++)
        fputc(0xff, f);
    fclose(f);
    char *missing = fsutil_join(work, "missing.db");
    char *self = fsutil_join(into, DB_FILE);
    run_sql(bad, "DELETE FROM wheels WHERE key = '" K2 "'"); /* left: one bad K3 */
    const char *k4 = "4444444444444444444444444444444444444444444444444444444444444444";
    json_t *r4 = as(k4, "scanned");
    struct db *bdb = NULL;
    OK(db_open_file(bad, 0, &bdb, &err) == 0, "reopen bad");
    OK(write_json(bdb, k4, r4, &err) == 0, "a valid record beside the bad one");
    db_close(bdb);
    json_decref(r4);
    const char *hostile[] = {bad, junk, missing, self};
    memset(&r, 0, sizeof r);
    OK(db_merge(db, hostile, 4, &st, note, &r, &err) == 0, "merge of bad inputs: %s", err.msg);
    INT_EQ(st.refused, 4, "four inputs refused");
    INT_EQ(r.n, 4, "four refusals reported");
    OK(!db_has_record(db, k4), "nothing of a refused input is stored, not even its valid records");
    INT_EQ(db_count_records(db), 3, "the database is as it was");
    db_close(db);
    check_clean(into);

    /* Of a shard's journal and failures, only the wheels whose scan did
     * not finish come along, as failures of kind "unfinished" (scanned
     * alone next time): never its word that a wheel crashed, nor its
     * ordinary failures; those of recorded wheels are settled. */
    static const char *const kd[] = {K3}, *const sd[] = {"scanned"};
    char *d = make_db("m-d", kd, sd, 1);
#define NOTE(k, extra)                                                                             \
    "('" k "', '{\"key\": \"" k "\", \"url\": \"https://h/x/t-1.0-py3-none-any.whl\", "            \
    "\"filename\": \"t-1.0-py3-none-any.whl\"" extra "}')"
#define K5 "5555555555555555555555555555555555555555555555555555555555555555"
#define K6 "6666666666666666666666666666666666666666666666666666666666666666"
#define K7 "7777777777777777777777777777777777777777777777777777777777777777"
    run_sql(
        d,
        "INSERT INTO journal VALUES " NOTE(
            K5, ", \"isolated\": true") ";"
                                        "INSERT INTO failures VALUES " NOTE(
                                            K1,
                                            ", \"kind\": \"crashed\"") ";"
                                                                       "INSERT INTO failures "
                                                                       "VALUES " NOTE(
                                                                           K6,
                                                                           ", \"kind\": "
                                                                           "\"crashed\", \"runs\": "
                                                                           "9") ";"
                                                                                "INSERT INTO "
                                                                                "failures "
                                                                                "VALUES " NOTE(
                                                                                    K7,
                                                                                    ", \"kind\": "
                                                                                    "null") ";");
    db = open_db(into);
    const char *third[] = {d};
    OK(db_merge(db, third, 1, &st, note, &r, &err) == 0, "merge d: %s", err.msg);
    INT_EQ(st.refused, 0, "d merged");
    db_close(db);
    INT_EQ(count(into, "SELECT count(*) FROM journal"), 0, "no journal row comes along");
    INT_EQ(count(into, "SELECT count(*) FROM failures"), 2,
           "two failures: the unfinished scans of unrecorded wheels");
    INT_EQ(count(into, "SELECT count(*) FROM failures WHERE json_extract(failure, '$.kind') = "
                       "'unfinished' AND json_extract(failure, '$.runs') = 1 AND key IN ('" K5
                       "', '" K6 "')"),
           2, "both as unfinished, never crashed, counted afresh");
    /* A note that is not one (no URL) refuses the shard. */
    char *e2 = make_db("m-e", kd, sd, 1);
    run_sql(e2, "INSERT INTO journal VALUES ('" K7 "', '{}')");
    db = open_db(into);
    const char *fourth[] = {e2};
    memset(&r, 0, sizeof r);
    OK(db_merge(db, fourth, 1, &st, note, &r, &err) == 0, "merge e: %s", err.msg);
    INT_EQ(st.refused, 1, "a shard with a bad journal note is refused");
    OK(r.n == 1 && strstr(r.last, "journal of " K7 ": \"url\""), "it names the note: %s", r.last);
    db_close(db);
    free(e2);
#undef NOTE

    /* Export, then import into a new database: the same records. */
    db = open_db(into);
    char *jl = fsutil_join(work, "export.jsonl");
    f = fopen(jl, "w");
    size_t exported = 0;
    OK(db_export(db, f, &exported, &err) == 0, "export: %s", err.msg);
    fclose(f);
    INT_EQ(exported, 3, "three lines exported");
    char *copy = fresh("m-copy");
    struct db *db2 = open_db(copy);
    OK(db_import(db2, jl, &st, note, NULL, &r, &err) == 0, "import the export: %s", err.msg);
    INT_EQ(st.added, 3, "three imported");
    const char *keys[] = {K1, K2, K3};
    for (size_t i = 0; i < 3; i++) {
        json_t *x = NULL, *y = NULL;
        db_read_record(db, keys[i], &x, NULL);
        db_read_record(db2, keys[i], &y, NULL);
        OK(x && y && json_equal(x, y), "record %zu round-trips through export and import", i);
        json_decref(x);
        json_decref(y);
    }
    db_close(db2);
    db_close(db);
    check_clean(copy);
    free(a);
    free(b);
    free(cdb);
    free(d);
    free(bad);
    free(junk);
    free(missing);
    free(self);
    free(jl);
    free(copy);
    free(into);
}

/* A database from elsewhere (DB_FOREIGN): every schema version wheelarch
 * ever made opens; one whose tables differ in any way does not, before a
 * row of it is read; the file is never written. */
static void foreign(void)
{
    struct wa_error err = {0};
    for (int v = 1; v <= DB_SCHEMA_VERSION; v++) {
        char name[32];
        snprintf(name, sizeof name, "foreign-v%d", v);
        char *dir = fresh(name);
        fsutil_mkdirs(dir, NULL);
        char *path = fsutil_join(dir, DB_FILE);
        OK(db_create_at_version(path, v, &err) == 0, "version %d made: %s", v, err.msg);
        struct db *db = NULL;
        OK(db_open_file(path, DB_FOREIGN, &db, &err) == 0, "version %d opens as foreign: %s", v,
           err.msg);
        OK(db == NULL || db_check(db, &err) == 0, "version %d: integrity: %s", v, err.msg);
        db_close(db);
        free(path);
        free(dir);
    }
    static const char *const tampered[] = {
        /* a view where a table was, as a table of another shape, one more */
        "DROP TABLE records; CREATE VIEW records AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
        "SELECT i + 1 FROM n) SELECT printf('%064d', i) AS key, '{}' AS record FROM n",
        "DROP TABLE records; CREATE TABLE records (key TEXT, record TEXT, extra)",
        "CREATE TABLE extra (x)",
        "CREATE INDEX records_by_record ON records (record)",
        "DROP TRIGGER wheels_delete; CREATE TRIGGER wheels_delete AFTER DELETE ON wheels BEGIN "
        "SELECT 1; END",
    };
    for (size_t i = 0; i < sizeof tampered / sizeof *tampered; i++) {
        char name[32];
        snprintf(name, sizeof name, "foreign-t%zu", i);
        char *dir = fresh(name);
        fsutil_mkdirs(dir, NULL);
        char *path = fsutil_join(dir, DB_FILE);
        OK(db_create_at_version(path, DB_SCHEMA_VERSION, &err) == 0, "made: %s", err.msg);
        run_sql(path, tampered[i]);
        struct stat before, after;
        stat(path, &before);
        struct db *db = NULL;
        int rc = db_open_file(path, DB_FOREIGN, &db, &err);
        OK(rc == WA_ERR_FORMAT && strstr(err.msg, "its tables are not those of a wheelarch "
                                                  "database of schema version"),
           "tampered schema %zu refused: %s", i, err.msg);
        db_close(db);
        stat(path, &after);
        OK(before.st_mtime == after.st_mtime && before.st_size == after.st_size,
           "tampered schema %zu: the file is not written", i);
        char *shm = xasprintf("%s-shm", path);
        OK(!fsutil_exists(shm), "tampered schema %zu: no -shm made beside it", i);
        free(shm);
        free(path);
        free(dir);
    }
}

/* The virtual machine steps of one INSERT into wheels (the triggers that
 * keep builds included) once the build already holds `have` wheels. */
static int insert_steps(sqlite3 *h, int have)
{
    char sql[512];
    snprintf(sql, sizeof sql,
             "INSERT INTO wheels (key, status, project, version, variant, platform, filename, "
             "scanned_at, sass, ptx, gfx) VALUES (printf('%%064d', %d), '%s', 'torch', '2.8.0', "
             "'cu128', 'linux-x86_64', 'f.whl', '2026-01-01', '', '', '')",
             have + 1, have % 3 ? "inferred" : "scanned");
    sqlite3_stmt *st = NULL;
    OK(sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK, "prepare: %s", sqlite3_errmsg(h));
    OK(sqlite3_step(st) == SQLITE_DONE, "insert: %s", sqlite3_errmsg(h));
    int steps = sqlite3_stmt_status(st, SQLITE_STMTSTATUS_VM_STEP, 0);
    sqlite3_finalize(st);
    return steps;
}

/* A write to wheels costs the same however many wheels its build holds:
 * the triggers seek, they do not sort or scan the build (merging n wheels
 * of one build took time n squared before schema version 7). */
static void trigger_cost(void)
{
    char *dir = fresh("trigger-cost");
    fsutil_mkdirs(dir, NULL);
    char *path = fsutil_join(dir, DB_FILE);
    struct wa_error err = {0};
    OK(db_create_at_version(path, DB_SCHEMA_VERSION, &err) == 0, "made: %s", err.msg);
    sqlite3 *h;
    OK(sqlite3_open(path, &h) == SQLITE_OK, "open");
    sqlite3_exec(h, "BEGIN", NULL, NULL, NULL);
    int first = insert_steps(h, 10);
    int n = 11;
    for (; n < 3000; n++)
        insert_steps(h, n);
    int last = insert_steps(h, n);
    sqlite3_exec(h, "COMMIT", NULL, NULL, NULL);
    OK(last < 2 * first + 50, "an insert into a build of 3,000 wheels takes %d steps, of 10 %d",
       last, first);
    char best[80] = "";
    sqlite3_stmt *st;
    OK(sqlite3_prepare_v2(h, "SELECT best, status, scanned_at FROM builds", -1, &st, NULL) ==
           SQLITE_OK,
       "builds");
    if (sqlite3_step(st) == SQLITE_ROW)
        snprintf(best, sizeof best, "%s %s", (const char *)sqlite3_column_text(st, 0),
                 (const char *)sqlite3_column_text(st, 1));
    sqlite3_finalize(st);
    char want[100];
    snprintf(want, sizeof want, "%064d scanned", 13); /* the first scanned key */
    STR_EQ(best, want, "the build's wheel: its first scanned one in key order");
    sqlite3_close(h);
    free(path);
    free(dir);
}

/* ---- recqueue: records handed on beside the reader -------------------------- */

struct handed {
    pthread_mutex_t mu;
    unsigned char *seen; /* per record: how many times handed on */
    size_t by_worker[2];
    long fail_at; /* the record whose call fails, or -1 */
};

static int hand(void *ud, unsigned worker, struct record *r, struct wa_error *err)
{
    struct handed *h = ud;
    long i = strtol(r->key, NULL, 10);
    pthread_mutex_lock(&h->mu);
    h->seen[i]++;
    h->by_worker[worker ? 1 : 0]++;
    pthread_mutex_unlock(&h->mu);
    record_free(r);
    if (i == h->fail_at)
        return wa_error_set(err, WA_ERR_IO, "record %ld failed", i);
    return 0;
}

static void recqueue_cases(void)
{
    enum { N = 2000 };
    struct handed h = {.fail_at = -1};
    pthread_mutex_init(&h.mu, NULL);
    h.seen = calloc(N, 1);
    struct recqueue *q = recqueue_start(hand, &h);
    struct wa_error err = {0};
    int rc = 0;
    for (long i = 0; i < N && rc == 0; i++) {
        struct record r = {0};
        char key[16];
        snprintf(key, sizeof key, "%ld", i);
        r.key = xstrdup(key);
        rc = recqueue_put(q, &r, &err);
        OK(r.key == NULL, "put takes the record");
    }
    OK(rc == 0 && recqueue_finish(q, &err) == 0, "every record handed on: %s", err.msg);
    size_t once = 0;
    for (size_t i = 0; i < N; i++)
        once += h.seen[i] == 1;
    INT_EQ((long)once, N, "each record handed on exactly once");
    INT_EQ((long)(h.by_worker[0] + h.by_worker[1]), N, "by the two workers together");
    /* an error stops the work and comes back */
    memset(h.seen, 0, N);
    h.fail_at = 10;
    q = recqueue_start(hand, &h);
    rc = 0;
    long put = 0;
    for (long i = 0; i < N && rc == 0; i++, put++) {
        struct record r = {0};
        char key[16];
        snprintf(key, sizeof key, "%ld", i);
        r.key = xstrdup(key);
        rc = recqueue_put(q, &r, &err);
    }
    int frc = recqueue_finish(q, &err);
    OK(frc < 0 && strstr(err.msg, "record 10 failed"), "the error comes back: %s", err.msg);
    OK(put < N || rc < 0 || frc < 0, "the reader is told to stop");
    free(h.seen);
    pthread_mutex_destroy(&h.mu);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_db SITE_DB WORK_DIR\n");
        return 2;
    }
    site_db = argv[1];
    work = argv[2];
    fsutil_mkdirs(work, NULL);
    record_type();
    record_construction();
    round_trip();
    migrations();
    migrations_refill();
    merges();
    foreign();
    trigger_cost();
    recqueue_cases();
    return harness_done();
}
