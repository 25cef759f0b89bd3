/*
 * db_records: what the database stores of each wheel: a record, its
 * columns, binaries and targets; reading, counting and listing them.
 */
#include <stdlib.h>
#include <string.h>

#include "db_state.h"
#include "db_records.h"
#include "db_indexes.h"
#include "recbinary.h"
#include "strbuf.h"
#include "target.h"
#include "wheelkey.h"
#include "xalloc.h"

int dbi_put_binaries(struct db *db, const char *key, const struct recbinaries *bins,
                     struct wa_error *err)
{
    if (!bins->n)
        return 0;
    sqlite3_stmt *b = dbi_cached(
        db, "INSERT OR REPLACE INTO binaries (wheel, path, format, size, modules, bundled, seq, "
            "dlink_modules, library_modules, sass, ptx, lto, gfx, module_sets, compression, "
            "declared_sass, declared_ptx, arch_flags, warnings) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    sqlite3_stmt *t = dbi_cached(db, "INSERT OR REPLACE INTO targets (wheel, path, target, kind, "
                                     "modules, entries, bytes, uncompressed_bytes, codecs, isa, "
                                     "library_modules) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    int rc = b && t ? 0 : dbi_sql_error(db, err, "cannot store binaries");
    for (size_t i = 0; rc == 0 && i < bins->n; i++) {
        const struct recbinary *x = &bins->v[i];
        sqlite3_reset(b);
        dbi_bind_text(b, 1, key);
        dbi_bind_text(b, 2, x->path);
        dbi_bind_text(b, 3, x->format);
        dbi_bind_int_or_null(b, 4, x->size, x->size >= 0);
        dbi_bind_int_or_null(b, 5, x->modules, x->modules >= 0);
        sqlite3_bind_int(b, 6, x->bundled);
        sqlite3_bind_int64(b, 7, (sqlite3_int64)i);
        dbi_bind_int_or_null(b, 8, x->dlink_modules, x->dlink_modules >= 0);
        dbi_bind_int_or_null(b, 9, x->library_modules, x->library_modules >= 0);
        char *text[10] = {
            recbinary_targets_text(&x->sass),
            recbinary_targets_text(&x->ptx),
            recbinary_targets_text(&x->lto),
            recbinary_targets_text(&x->gfx),
            recbinary_sets_text(x),
            recbinary_compression_text(x),
            x->declared ? recbinary_targets_text(&x->declared_sass) : NULL,
            x->declared ? recbinary_targets_text(&x->declared_ptx) : NULL,
            recbinary_lines_text(&x->arch_flags),
            recbinary_lines_text(&x->warnings),
        };
        for (int k = 0; k < 10; k++)
            dbi_bind_text(b, 10 + k, text[k]);
        if (sqlite3_step(b) != SQLITE_DONE)
            rc = dbi_sql_error(db, err, "cannot store binaries");
        for (int k = 0; k < 10; k++)
            free(text[k]);
        for (size_t k = 0; rc == 0 && k < x->ntargets; k++) {
            const struct recbinary_target *tg = &x->targets[k];
            static const char *const kinds[] = {"sass", "ptx", "lto", "gfx"};
            char name[TARGET_NAME_MAX];
            target_format(&tg->t, name, sizeof name);
            sqlite3_reset(t);
            dbi_bind_text(t, 1, key);
            dbi_bind_text(t, 2, x->path);
            dbi_bind_text(t, 3, name);
            dbi_bind_text(t, 4, tg->t.kind < 4 ? kinds[tg->t.kind] : "other");
            const long long ints[] = {tg->modules, tg->entries, tg->bytes, tg->uncompressed_bytes};
            for (int n = 0; n < 4; n++)
                dbi_bind_int_or_null(t, 5 + n, ints[n], ints[n] >= 0);
            char *cs = recbinary_codecs_text(tg);
            dbi_bind_text(t, 9, cs);
            free(cs);
            dbi_bind_text(t, 10, tg->isa[0] ? tg->isa : NULL);
            dbi_bind_int_or_null(t, 11, tg->library_modules, tg->library_modules >= 0);
            if (sqlite3_step(t) != SQLITE_DONE)
                rc = dbi_sql_error(db, err, "cannot store targets");
        }
    }
    dbi_done(b);
    dbi_done(t);
    return rc;
}

/* A count column: -1 when NULL. */
static long long col_count(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 : (long long)sqlite3_column_int64(st, i);
}

static const char *col_text(sqlite3_stmt *st, int i)
{
    return (const char *)sqlite3_column_text(st, i);
}

/* The binaries of key, in the record's order, and their targets; checked
 * (recbinary_wrong).  Returns 0 (*why NULL, or why the rows cannot be
 * used: the wheel is then left out), or an SQL error.  Under db->mu. */
static int read_binaries(struct db *db, const char *key, struct recbinaries *out, const char **why,
                         struct wa_error *err)
{
    memset(out, 0, sizeof *out);
    out->listed = 1;
    *why = NULL;
    sqlite3_stmt *b = dbi_cached(
        db, "SELECT path, format, size, modules, bundled, dlink_modules, library_modules, sass, "
            "ptx, lto, gfx, module_sets, compression, declared_sass, declared_ptx, arch_flags, "
            "warnings FROM binaries WHERE wheel = ? ORDER BY seq, path");
    sqlite3_stmt *t =
        dbi_cached(db, "SELECT target, modules, entries, bytes, uncompressed_bytes, codecs, isa, "
                       "library_modules FROM targets WHERE wheel = ? AND path = ? ORDER BY target");
    if (!b || !t) {
        dbi_done(b);
        dbi_done(t);
        return dbi_sql_error(db, err, "cannot read binaries");
    }
    dbi_bind_text(b, 1, key);
    size_t cap = 0;
    int s, rc = 0;
    while (!*why && (s = sqlite3_step(b)) == SQLITE_ROW) {
        out->v = xgrow(out->v, &cap, out->n + 1, sizeof *out->v);
        struct recbinary *x = &out->v[out->n++];
        memset(x, 0, sizeof *x);
        x->path = xstrdup(col_text(b, 0) ? col_text(b, 0) : "");
        x->format = dbi_col_dup(b, 1);
        x->size = col_count(b, 2);
        x->modules = col_count(b, 3);
        x->bundled = sqlite3_column_int(b, 4) != 0;
        x->dlink_modules = col_count(b, 5);
        x->library_modules = col_count(b, 6);
        struct recbinary_targets *lists[] = {&x->sass, &x->ptx, &x->lto, &x->gfx};
        int bad = 0;
        for (int k = 0; k < 4; k++)
            bad |= recbinary_targets_parse(col_text(b, 7 + k), k, lists[k]) < 0;
        bad |= recbinary_sets_parse(col_text(b, 11), x) < 0;
        bad |= recbinary_compression_parse(col_text(b, 12), x) < 0;
        x->declared = col_text(b, 13) != NULL;
        bad |= recbinary_targets_parse(col_text(b, 13), TARGET_SASS, &x->declared_sass) < 0;
        bad |= recbinary_targets_parse(col_text(b, 14), TARGET_PTX, &x->declared_ptx) < 0;
        recbinary_lines_parse(col_text(b, 15), &x->arch_flags);
        recbinary_lines_parse(col_text(b, 16), &x->warnings);
        if (bad) {
            *why = "a binary's lists of targets are not canonical target names";
            break;
        }
        sqlite3_reset(t);
        dbi_bind_text(t, 1, key);
        dbi_bind_text(t, 2, x->path);
        size_t tcap = 0;
        int ts;
        while (!*why && (ts = sqlite3_step(t)) == SQLITE_ROW) {
            x->targets = xgrow(x->targets, &tcap, x->ntargets + 1, sizeof *x->targets);
            struct recbinary_target *tg = &x->targets[x->ntargets++];
            memset(tg, 0, sizeof *tg);
            const char *name = col_text(t, 0);
            char canon[TARGET_NAME_MAX] = "";
            if (name && target_parse(name, &tg->t) == 0)
                target_format(&tg->t, canon, sizeof canon);
            tg->modules = col_count(t, 1);
            tg->entries = col_count(t, 2);
            tg->bytes = col_count(t, 3);
            tg->uncompressed_bytes = col_count(t, 4);
            const char *isa = col_text(t, 6);
            tg->library_modules = col_count(t, 7);
            if (recbinary_codecs_parse(col_text(t, 5), tg) < 0 || !name ||
                strcmp(canon, name) != 0 || (isa && strlen(isa) >= sizeof tg->isa))
                *why = "a binary's targets are not canonical target names";
            else if (isa)
                strcpy(tg->isa, isa);
        }
        if (!*why && ts != SQLITE_DONE) {
            rc = dbi_sql_error(db, err, "cannot read binaries");
            break;
        }
        if (!*why)
            *why = recbinary_wrong(x);
    }
    if (rc == 0 && !*why && s != SQLITE_DONE)
        rc = dbi_sql_error(db, err, "cannot read binaries");
    dbi_done(b);
    dbi_done(t);
    if (rc < 0 || *why)
        recbinaries_free(out);
    return rc;
}

int db_read_binaries(struct db *db, const char *key, struct recbinaries *out, const char **why,
                     struct wa_error *err)
{
    pthread_mutex_lock(&db->mu);
    int rc = read_binaries(db, key, out, why, err);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

void dbi_bind_int_or_null(sqlite3_stmt *st, int i, long long v, int known)
{
    if (known)
        sqlite3_bind_int64(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

/* Binds r's columns (COLUMNS) from parameter `at` on. */
void dbi_bind_columns(sqlite3_stmt *st, int at, const struct record *r)
{
    char *sass = recbinary_targets_text(&r->sass), *ptx = recbinary_targets_text(&r->ptx),
         *gfx = recbinary_targets_text(&r->gfx);
    const char *v[] = {r->scanned ? "scanned" : "inferred",
                       r->name.normalized,
                       r->name.public_version,
                       r->variant,
                       r->platform,
                       r->filename,
                       r->url,
                       r->sha256,
                       r->upload_time,
                       r->scanned_at,
                       r->inferred_from,
                       r->index_url,
                       r->wheelarch_version,
                       sass,
                       ptx,
                       gfx,
                       r->code,
                       r->name.project,
                       r->name.local,
                       r->variant_source,
                       r->name.python,
                       r->name.abi,
                       r->name.platform,
                       r->indexes,
                       r->requires_python};
    int n = (int)(sizeof v / sizeof *v);
    for (int i = 0; i < n; i++)
        dbi_bind_text(st, at + i, v[i]); /* SQLITE_TRANSIENT: copied */
    dbi_bind_int_or_null(st, at + n, r->size, r->size >= 0);
    dbi_bind_int_or_null(st, at + n + 1, r->sha256_verified, r->sha256_verified >= 0);
    sqlite3_bind_int(st, at + n + 2, r->yanked);
    dbi_bind_text(st, at + n + 3, r->yanked_reason);
    free(sass);
    free(ptx);
    free(gfx);
}

/* ---- records ------------------------------------------------------------ */

int db_has_record(struct db *db, const char *key)
{
    return db_record_status(db, key) != NULL;
}

int db_each_requirement_list(struct db *db,
                             int (*fn)(void *ud, const char *key, const char *requires,
                                       struct wa_error *err),
                             void *ud, struct wa_error *err)
{
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = dbi_prep(db, "SELECT key, requires FROM wheels WHERE status = 'scanned' AND "
                                    "requires IS NOT NULL ORDER BY key");
    int rc = st ? 0 : dbi_sql_error(db, err, "cannot read requirements");
    int s = SQLITE_DONE;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(st, 0);
        const char *req = (const char *)sqlite3_column_text(st, 1);
        if (key && req)
            rc = fn(ud, key, req, err);
    }
    if (rc == 0 && s != SQLITE_DONE)
        rc = dbi_sql_error(db, err, "cannot read requirements");
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_has_version(struct db *db, const char *project, const char *version)
{
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st =
        dbi_prep(db, "SELECT 1 FROM wheels WHERE project = ? AND version = ? LIMIT 1");
    int found = 0;
    if (st) {
        dbi_bind_text(st, 1, project);
        dbi_bind_text(st, 2, version);
        found = sqlite3_step(st) == SQLITE_ROW;
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return found;
}

const char *db_record_status(struct db *db, const char *key)
{
    char *s = dbi_get_text(db, "SELECT status FROM wheels WHERE key = ?", key);
    const char *r = !s ? NULL : strcmp(s, "scanned") == 0 ? "scanned" : "inferred";
    free(s);
    return r;
}

int db_known_get(struct db *db, const char *key, struct db_known *k)
{
    memset(k, 0, sizeof *k);
    if (!wheelkey_valid(key))
        return 0;
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = dbi_cached(db, "SELECT status, url, sha256_verified, inferred_from, "
                                      "code IS NOT NULL FROM wheels WHERE key = ?");
    int found = 0;
    if (st) {
        dbi_bind_text(st, 1, key);
        if (sqlite3_step(st) == SQLITE_ROW) {
            found = 1;
            const char *status = (const char *)sqlite3_column_text(st, 0);
            k->scanned = status && strcmp(status, "scanned") == 0;
            k->url = dbi_col_dup(st, 1);
            k->sha256_verified =
                sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 2) != 0;
            k->inferred_from = dbi_col_dup(st, 3);
            k->lists_binaries = sqlite3_column_int(st, 4);
        }
    }
    dbi_done(st);
    pthread_mutex_unlock(&db->mu);
    if (k->url && !*k->url) { /* a record without a URL stores "" */
        free(k->url);
        k->url = NULL;
    }
    return found;
}

void db_known_free(struct db_known *k)
{
    free(k->url);
    free(k->inferred_from);
    memset(k, 0, sizeof *k);
}

char *db_record_code(struct db *db, const char *key)
{
    return dbi_get_text(db, "SELECT code FROM wheels WHERE key = ?", key);
}

static json_t *parse(const char *text, const char *what, const char *key, struct db *db,
                     struct wa_error *err)
{
    json_error_t je;
    json_t *v = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    if (!v)
        wa_error_set(err, WA_ERR_FORMAT, "%s: %s of %s: line %d column %d: %s", db->path, what, key,
                     je.line, je.column, je.text);
    return v;
}

int db_read_record(struct db *db, const char *key, json_t **rec, struct wa_error *err)
{
    *rec = NULL;
    if (!wheelkey_valid(key))
        return dbi_bad_key(key, err);
    char *text = dbi_get_text(db, "SELECT record FROM records WHERE key = ?", key);
    if (!text)
        return wa_error_set(err, WA_ERR_IO, "%s: no record %s", db->path, key);
    *rec = parse(text, "the record", key, db, err);
    free(text);
    return *rec ? 0 : -1;
}

int dbi_store_record(struct db *db, const char *key, const struct record *r, const char *text,
                     struct wa_error *err)
{
    /* The old row is deleted first, so the delete trigger refreshes its
     * build: INSERT OR REPLACE deletes without firing it, which left the
     * old build's row behind when a wheel moved to another build.  The
     * trigger deletes the record too. */
    int rc = 0;
    sqlite3_stmt *st = dbi_cached(db, "DELETE FROM wheels WHERE key = ?");
    if (st)
        dbi_bind_text(st, 1, key);
    if (!st || sqlite3_step(st) != SQLITE_DONE)
        rc = dbi_sql_error(db, err, "cannot store a record");
    dbi_done(st);
    st = rc == 0 ? dbi_cached(db, "INSERT INTO wheels (key, " COLUMNS5 ") VALUES (?, " COLUMN_SLOTS5
                                  ")")
                 : NULL;
    if (st) {
        dbi_bind_text(st, 1, key);
        dbi_bind_columns(st, 2, r);
        dbi_bind_text(st, 2 + NCOLUMNS, r->requires);
    }
    if (rc == 0 && (!st || sqlite3_step(st) != SQLITE_DONE))
        rc = dbi_sql_error(db, err, "cannot store a record");
    dbi_done(st);
    st = rc == 0 ? dbi_cached(db, "INSERT OR REPLACE INTO records (key, record) VALUES (?, ?)")
                 : NULL;
    if (st) {
        dbi_bind_text(st, 1, key);
        dbi_bind_text(st, 2, text);
    }
    if (rc == 0 && (!st || sqlite3_step(st) != SQLITE_DONE))
        rc = dbi_sql_error(db, err, "cannot store a record");
    dbi_done(st);
    static const char *const clear[] = {"DELETE FROM binaries WHERE wheel = ?",
                                        "DELETE FROM targets WHERE wheel = ?"};
    for (size_t i = 0; rc == 0 && i < 2; i++) {
        st = dbi_cached(db, clear[i]);
        if (st)
            dbi_bind_text(st, 1, key);
        if (!st || sqlite3_step(st) != SQLITE_DONE)
            rc = dbi_sql_error(db, err, "cannot store a record");
        dbi_done(st);
    }
    if (rc == 0)
        rc = dbi_put_binaries(db, key, &r->binaries, err);
    return rc;
}

int db_write_record(struct db *db, const struct record *r, const char *text, struct wa_error *err)
{
    const char *key = r->key;
    if (!wheelkey_valid(key))
        return dbi_bad_key(key, err);
    if (!db_index_trusted(db, r->index, r->index_url)) {
        char why[900];
        db_index_untrusted_text(r->index, r->index_url, why, sizeof why);
        return wa_error_set(err, WA_ERR_FORMAT, "%s", why);
    }
    pthread_mutex_lock(&db->mu);
    int rc = dbi_tx_begin(db, err);
    if (rc == 0) {
        rc = dbi_store_record(db, key, r, text, err);
        static const char *const clear[] = {"DELETE FROM failures WHERE key = ?",
                                            "DELETE FROM journal WHERE key = ?"};
        for (size_t i = 0; rc == 0 && i < 2; i++) {
            sqlite3_stmt *st = dbi_cached(db, clear[i]);
            if (st)
                dbi_bind_text(st, 1, key);
            if (!st || sqlite3_step(st) != SQLITE_DONE)
                rc = dbi_sql_error(db, err, "cannot store a record");
            dbi_done(st);
        }
        rc = dbi_tx_end(db, rc, err);
    }
    pthread_mutex_unlock(&db->mu);
    return rc;
}

size_t db_count_records(struct db *db)
{
    pthread_mutex_lock(&db->mu);
    int n = 0;
    if (dbi_pragma_int(db, "SELECT count(*) FROM wheels", &n) < 0)
        n = 0;
    pthread_mutex_unlock(&db->mu);
    return (size_t)n;
}

/* The columns of a wheel's row that db_each_wheel and db_get_record read,
 * in the order row_of reads them. */
#define WHEEL_COLUMNS                                                                              \
    "key, status, project, version, variant, platform, scanned_at, inferred_from, "                \
    "index_url, wheelarch_version, code, filename, url, sha256, upload_time, "                     \
    "requires_python, yanked_reason, indexes, variant_source, sass, ptx, gfx, requires, "          \
    "size, sha256_verified, yanked"

/* The row st is on, read as WHEEL_COLUMNS are listed (strings borrowed
 * from st, no binaries). */
static struct record_row row_of(sqlite3_stmt *st)
{
    enum { NTEXT = 23 };
    const char *c[NTEXT];
    for (int i = 0; i < NTEXT; i++)
        c[i] = (const char *)sqlite3_column_text(st, i);
    struct record_row w = {
        .key = c[0],
        .status = c[1],
        .project = c[2],
        .version = c[3],
        .variant = c[4],
        .platform = c[5],
        .scanned_at = c[6],
        .inferred_from = c[7],
        .index_url = c[8],
        .wheelarch_version = c[9],
        .code = c[10],
        .filename = c[11],
        .url = c[12],
        .sha256 = c[13],
        .upload_time = c[14],
        .requires_python = c[15],
        .yanked_reason = c[16],
        .indexes = c[17],
        .variant_source = c[18],
        .sass = c[19],
        .ptx = c[20],
        .gfx = c[21],
        .requires = c[22],
        .size =
            sqlite3_column_type(st, NTEXT) == SQLITE_INTEGER ? sqlite3_column_int64(st, NTEXT) : -1,
        .sha256_verified = sqlite3_column_type(st, NTEXT + 1) == SQLITE_INTEGER
                               ? sqlite3_column_int(st, NTEXT + 1) != 0
                               : -1,
        .yanked = sqlite3_column_int(st, NTEXT + 2) != 0,
    };
    return w;
}

int db_each_wheel(struct db *db, int (*want)(void *ud, const char *project, const char *version),
                  int (*fn)(void *ud, const struct record_row *w, struct wa_error *err), void *ud,
                  struct wa_error *err)
{
    static const char sql[] = "SELECT " WHEEL_COLUMNS " FROM wheels w ORDER BY key";
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = dbi_prep(db, sql);
    int rc = st ? 0 : dbi_sql_error(db, err, "cannot read records");
    int s = SQLITE_DONE;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
        /* the identity first: a row the caller does not want costs no
         * read of its binaries */
        if (want && !want(ud, (const char *)sqlite3_column_text(st, 2),
                          (const char *)sqlite3_column_text(st, 3)))
            continue;
        struct record_row w = row_of(st);
        /* binaries: only a wheel with code lists any */
        struct recbinaries bins = {0};
        if (w.code && w.key && wheelkey_valid(w.key)) {
            rc = read_binaries(db, w.key, &bins, &w.binaries_wrong, err);
            w.binaries = rc == 0 && !w.binaries_wrong ? &bins : NULL;
        }
        if (rc == 0)
            rc = fn(ud, &w, err);
        recbinaries_free(&bins);
    }
    if (rc == 0 && s != SQLITE_DONE)
        rc = dbi_sql_error(db, err, "cannot read records");
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_get_record(struct db *db, const char *key, struct record *out, struct wa_error *err)
{
    memset(out, 0, sizeof *out);
    if (!wheelkey_valid(key))
        return wa_error_set(err, WA_ERR_IO, "no record %s", key);
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = dbi_cached(db, "SELECT " WHEEL_COLUMNS " FROM wheels WHERE key = ?");
    int rc = st ? 0 : dbi_sql_error(db, err, "cannot read records");
    int s = SQLITE_DONE;
    if (st) {
        dbi_bind_text(st, 1, key);
        s = sqlite3_step(st);
    }
    if (rc == 0 && s != SQLITE_ROW)
        rc = s == SQLITE_DONE ? wa_error_set(err, WA_ERR_IO, "no record %s", key)
                              : dbi_sql_error(db, err, "cannot read records");
    if (rc == 0) {
        struct record_row w = row_of(st);
        struct recbinaries bins = {0};
        if (w.code && (rc = read_binaries(db, key, &bins, &w.binaries_wrong, err)) == 0 &&
            w.binaries_wrong)
            rc = wa_error_set(err, WA_ERR_FORMAT, "record %s: its binaries: %s", key,
                              w.binaries_wrong);
        if (rc == 0 && record_of_row(&w, out) < 0)
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "record %s: its file name or targets do not parse", key);
        if (rc == 0 && w.code) {
            out->binaries = bins; /* taken */
            memset(&bins, 0, sizeof bins);
        }
        recbinaries_free(&bins);
    }
    dbi_done(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_each_record(struct db *db,
                   int (*fn)(void *ud, const char *key, const char *record, struct wa_error *err),
                   void *ud, struct wa_error *err)
{
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st =
        dbi_prep(db, db->version >= 6 ? "SELECT key, record FROM records ORDER BY key"
                                      : "SELECT key, record FROM wheels ORDER BY key");
    int rc = st ? 0 : dbi_sql_error(db, err, "cannot read records");
    int s = SQLITE_DONE;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(st, 0);
        const char *text = (const char *)sqlite3_column_text(st, 1);
        rc = fn(ud, key ? key : "", text ? text : "", err);
    }
    if (rc == 0 && s != SQLITE_DONE)
        rc = dbi_sql_error(db, err, "cannot read records");
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_each_build(struct db *db, int (*want_files)(void *ud, const struct db_build *b),
                  int (*fn)(void *ud, const struct db_build *b, struct wa_error *err), void *ud,
                  struct wa_error *err)
{
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st =
        dbi_prep(db, "SELECT project, version, variant, platform, best, status, "
                     "scanned_at, inferred_from, index_url, wheelarch_version, code, "
                     "requires FROM builds ORDER BY project, version, variant, platform");
    sqlite3_stmt *files =
        dbi_cached(db, "SELECT group_concat(filename, char(10)) FROM wheels WHERE project = ? "
                       "AND version = ? AND variant = ? AND platform = ?");
    int rc = st && files ? 0 : dbi_sql_error(db, err, "cannot read builds");
    int s = SQLITE_DONE;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
        const char *c[12];
        for (int i = 0; i < 12; i++)
            c[i] = (const char *)sqlite3_column_text(st, i);
        struct db_build b = {c[0], c[1], c[2], c[3],  c[4],  c[5], c[6],
                             c[7], c[8], c[9], c[10], c[11], NULL};
        if (!want_files || want_files(ud, &b)) {
            for (int i = 0; i < 4; i++)
                dbi_bind_text(files, i + 1, c[i]);
            if (sqlite3_step(files) != SQLITE_ROW) {
                rc = dbi_sql_error(db, err, "cannot read builds");
                break;
            }
            b.filenames = (const char *)sqlite3_column_text(files, 0);
        }
        rc = fn(ud, &b, err);
        dbi_done(files);
    }
    if (rc == 0 && s != SQLITE_DONE)
        rc = dbi_sql_error(db, err, "cannot read builds");
    dbi_done(files);
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_each_version(struct db *db,
                    int (*fn)(void *ud, const char *project, const char *version,
                              struct wa_error *err),
                    void *ud, struct wa_error *err)
{
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st =
        dbi_prep(db, "SELECT DISTINCT project, version FROM builds ORDER BY project, version");
    int rc = st ? 0 : dbi_sql_error(db, err, "cannot read builds");
    int s = SQLITE_DONE;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW)
        rc = fn(ud, (const char *)sqlite3_column_text(st, 0),
                (const char *)sqlite3_column_text(st, 1), err);
    if (rc == 0 && s != SQLITE_DONE)
        rc = dbi_sql_error(db, err, "cannot read builds");
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_state(struct db *db, char id[65], long long *changes, struct wa_error *err)
{
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = dbi_prep(db, "SELECT (SELECT value FROM meta WHERE name = 'id'), "
                                    "(SELECT value FROM meta WHERE name = 'changes')");
    int rc = st && sqlite3_step(st) == SQLITE_ROW ? 0 : dbi_sql_error(db, err, "cannot read meta");
    if (rc == 0) {
        const char *v = (const char *)sqlite3_column_text(st, 0);
        snprintf(id, 65, "%s", v ? v : "");
        *changes = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}
