/*
 * db: the SQLite database of records, failures, the journal and the HTTP
 * cache.
 */
#include "db.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fsutil.h"
#include "jsontext.h"
#include "strbuf.h"
#include "record.h"
#include "target.h"
#include "wheelkey.h"
#include "xalloc.h"

/* "WHLA": tells a wheelarch database from any other SQLite file. */
#define DB_APPLICATION_ID 0x57484c41

struct db {
    sqlite3 *h;
    char *path;
    int readonly;
    int in_tx;           /* inside db_begin ... db_commit */
    int version;         /* the schema's, once open */
    char *tmpdir;        /* a private copy of a database from elsewhere, removed on close */
    long long work_left; /* of a database from elsewhere: progress calls left */
    /* the statements of the write path, prepared once (cached) */
    struct {
        const char *sql;
        sqlite3_stmt *st;
    } stmts[32];
    size_t nstmts;
    pthread_mutex_t mu;
};

/* ---- the schema, by version --------------------------------------------- */

/* Version 3's triggers: count a change to wheels, and choose the row of
 * builds for the group of the wheel row `x` ("new" or "old") again. */
/* clang-format off */
#define CHANGED " UPDATE meta SET value = value + 1 WHERE name = 'changes'; "
#define GROUP_OF(x)                                                                                \
    "project = " x ".project AND version = " x ".version AND variant = " x ".variant AND "         \
    "platform = " x ".platform"
#define REFRESH(x)                                                                                 \
    " DELETE FROM builds WHERE " GROUP_OF(x) ";"                                                   \
    " INSERT INTO builds SELECT project, version, variant, platform, key, status,"                 \
    " (SELECT max(scanned_at) FROM wheels WHERE " GROUP_OF(x) "),"                                 \
    " inferred_from, index_url, wheelarch_version, code FROM wheels WHERE " GROUP_OF(x)            \
    " ORDER BY status DESC, key LIMIT 1; "
/* Version 5's: the same, with the wheel's requirements. */
#define REFRESH5(x)                                                                                \
    " DELETE FROM builds WHERE " GROUP_OF(x) ";"                                                   \
    " INSERT INTO builds SELECT project, version, variant, platform, key, status,"                 \
    " (SELECT max(scanned_at) FROM wheels WHERE " GROUP_OF(x) "),"                                 \
    " inferred_from, index_url, wheelarch_version, code, requires FROM wheels WHERE " GROUP_OF(x)  \
    " ORDER BY status DESC, key LIMIT 1; "
/* Version 7's: the same choice made with index seeks only.  The wheel of a
 * build is its first scanned wheel in key order, else its first inferred
 * one (status is one of the two): two seeks of wheels_by_build, and the
 * newest scan date a seek of wheels_by_scan.  The ORDER BY status DESC,
 * key of version 3 sorted the whole group on every write, which made a
 * merge of n wheels of one build take time n squared. */
#define BEST7(x, st)                                                                               \
    " SELECT * FROM (SELECT project, version, variant, platform, key, status,"                     \
    " (SELECT max(scanned_at) FROM wheels WHERE " GROUP_OF(x) "),"                                 \
    " inferred_from, index_url, wheelarch_version, code, requires FROM wheels WHERE " GROUP_OF(x)  \
    " AND status = '" st "' ORDER BY key LIMIT 1)"
#define REFRESH7(x)                                                                                \
    " DELETE FROM builds WHERE " GROUP_OF(x) ";"                                                   \
    " INSERT INTO builds SELECT * FROM (" BEST7(x, "scanned") " UNION ALL " BEST7(x, "inferred")  \
    ") LIMIT 1; "
/* clang-format on */

/* Each entry takes a database of the version before it to its own version,
 * in one or more pieces of SQL run in order (C limits a string's length).
 * Never edit a shipped entry: add one. */
#define MIGRATION_PARTS 3
/* clang-format off */
static const char *const migrations[DB_SCHEMA_VERSION][MIGRATION_PARTS] = {
    /* 1: wheels, failures, the journal, the HTTP cache */
    {"CREATE TABLE wheels ("
     "  key TEXT PRIMARY KEY NOT NULL,"
     "  status TEXT NOT NULL CHECK (status IN ('scanned', 'inferred')),"
     "  project TEXT NOT NULL, version TEXT NOT NULL,"
     "  variant TEXT NOT NULL, platform TEXT NOT NULL,"
     "  filename TEXT NOT NULL, url TEXT, sha256 TEXT, upload_time TEXT, scanned_at TEXT,"
     "  inferred_from TEXT, index_url TEXT, wheelarch_version TEXT,"
     "  sass TEXT NOT NULL, ptx TEXT NOT NULL, gfx TEXT NOT NULL,"
     "  code TEXT, entry TEXT NOT NULL, record TEXT NOT NULL);"
     "CREATE INDEX wheels_by_build ON wheels (project, version, variant, platform, status);"
     "CREATE TABLE failures (key TEXT PRIMARY KEY NOT NULL, failure TEXT NOT NULL);"
     "CREATE TABLE journal (key TEXT PRIMARY KEY NOT NULL, note TEXT NOT NULL);"
     "CREATE TABLE http_cache (url TEXT PRIMARY KEY NOT NULL, final_url TEXT, etag TEXT,"
     "  last_modified TEXT, content_type TEXT, body BLOB NOT NULL);"},
    /* 2: binaries and targets of scanned wheels, queryable (backfilled by
     * fill_binaries from the records after this runs) */
    {"CREATE TABLE binaries (wheel TEXT NOT NULL, path TEXT NOT NULL, format TEXT,"
     "  size INTEGER, modules INTEGER, bundled INTEGER NOT NULL,"
     "  PRIMARY KEY (wheel, path)) WITHOUT ROWID;"
     "CREATE TABLE targets (wheel TEXT NOT NULL, path TEXT NOT NULL, target TEXT NOT NULL,"
     "  kind TEXT NOT NULL, modules INTEGER, entries INTEGER, bytes INTEGER,"
     "  uncompressed_bytes INTEGER, codecs TEXT, isa TEXT,"
     "  PRIMARY KEY (wheel, path, target)) WITHOUT ROWID;"
     "CREATE INDEX targets_by_target ON targets (target, kind);"},
    /* 3: builds, one row per (project, version, variant, platform) with
     * the wheel whose code stands for it (the first scanned one in key
     * order, else the first inferred one), kept by triggers; and meta: the
     * database's id and a count of changes to wheels, which tell a build
     * whether anything changed since the last one */
    {"CREATE TABLE builds (project TEXT NOT NULL, version TEXT NOT NULL, variant TEXT NOT NULL,"
     "  platform TEXT NOT NULL, best TEXT NOT NULL, status TEXT NOT NULL, scanned_at TEXT,"
     "  inferred_from TEXT, index_url TEXT, wheelarch_version TEXT, code TEXT,"
     "  PRIMARY KEY (project, version, variant, platform)) WITHOUT ROWID;"
     "DROP INDEX wheels_by_build;"
     "CREATE INDEX wheels_by_build ON wheels (project, version, variant, platform, status, key);"
     "CREATE TABLE meta (name TEXT PRIMARY KEY NOT NULL, value) WITHOUT ROWID;"
     "INSERT INTO meta VALUES ('id', lower(hex(randomblob(16)))), ('changes', 0);"
     "CREATE TRIGGER wheels_insert AFTER INSERT ON wheels BEGIN" CHANGED REFRESH("new") "END;"
     "CREATE TRIGGER wheels_delete AFTER DELETE ON wheels BEGIN" CHANGED REFRESH("old") "END;"
     "CREATE TRIGGER wheels_update AFTER UPDATE ON wheels BEGIN" CHANGED
         REFRESH("old") REFRESH("new") "END;"
     "INSERT INTO builds SELECT w.project, w.version, w.variant, w.platform, w.key, w.status,"
     "  (SELECT max(scanned_at) FROM wheels m WHERE m.project = w.project"
     "    AND m.version = w.version AND m.variant = w.variant AND m.platform = w.platform),"
     "  w.inferred_from, w.index_url, w.wheelarch_version, w.code FROM wheels w"
     "  WHERE w.key = (SELECT key FROM wheels b WHERE b.project = w.project"
     "    AND b.version = w.version AND b.variant = w.variant AND b.platform = w.platform"
     "    ORDER BY b.status DESC, b.key LIMIT 1);"},
    /* 4: the rest of a wheel's identity and its line as columns (backfilled
     * by fill_columns from the records after this runs), in place of the
     * line's JSON copy, which every build parsed 100,000 times */
    {"ALTER TABLE wheels ADD COLUMN name TEXT;"
     "ALTER TABLE wheels ADD COLUMN local_label TEXT;"
     "ALTER TABLE wheels ADD COLUMN variant_source TEXT;"
     "ALTER TABLE wheels ADD COLUMN python_tag TEXT;"
     "ALTER TABLE wheels ADD COLUMN abi_tag TEXT;"
     "ALTER TABLE wheels ADD COLUMN platform_tag TEXT;"
     "ALTER TABLE wheels ADD COLUMN indexes TEXT;"
     "ALTER TABLE wheels ADD COLUMN requires_python TEXT;"
     "ALTER TABLE wheels ADD COLUMN size INTEGER;"
     "ALTER TABLE wheels ADD COLUMN sha256_verified INTEGER;"
     "ALTER TABLE wheels ADD COLUMN yanked INTEGER NOT NULL DEFAULT 0;"
     "ALTER TABLE wheels ADD COLUMN yanked_reason TEXT;"
     "ALTER TABLE wheels DROP COLUMN entry;"},
    /* 5: the wheel's Requires-Dist (its record's requires_dist, JSON) in
     * wheels and, for the wheel that stands for a build, in builds: what
     * query and build read to take the GPU libraries a build pins into its
     * verdict */
    {"DROP TRIGGER wheels_insert; DROP TRIGGER wheels_delete; DROP TRIGGER wheels_update;"
     "ALTER TABLE wheels ADD COLUMN requires TEXT;"
     "ALTER TABLE builds ADD COLUMN requires TEXT;"
     "UPDATE wheels SET requires = json_extract(record, '$.requires_dist')"
     "  WHERE json_valid(record) AND json_type(record, '$.requires_dist') = 'array';"
     "UPDATE builds SET requires = (SELECT requires FROM wheels WHERE key = builds.best);"
     "CREATE TRIGGER wheels_insert AFTER INSERT ON wheels BEGIN" CHANGED REFRESH5("new") "END;"
     "CREATE TRIGGER wheels_delete AFTER DELETE ON wheels BEGIN" CHANGED REFRESH5("old") "END;"
     "CREATE TRIGGER wheels_update AFTER UPDATE ON wheels BEGIN" CHANGED
         REFRESH5("old") REFRESH5("new") "END;"},
    /* 6: the records (JSON, ~1.6 KB each) in a table of their own: inline,
     * they filled nine tenths of the pages of wheels, which every build
     * and query scans for the columns alone; a wheel's record goes with it */
    {"CREATE TABLE records (key TEXT PRIMARY KEY NOT NULL, record TEXT NOT NULL);"
     "INSERT INTO records SELECT key, record FROM wheels ORDER BY key;"
     "DROP TRIGGER wheels_delete;"
     "ALTER TABLE wheels DROP COLUMN record;"
     "CREATE TRIGGER wheels_delete AFTER DELETE ON wheels BEGIN"
     "  DELETE FROM records WHERE key = old.key;" CHANGED REFRESH5("old") "END;"},
    /* 7: the triggers choose a build's wheel and its newest scan date with
     * index seeks (BEST7), not a sort of the build's wheels; builds made
     * anew (rows of builds a wheel had left stayed before) */
    {"CREATE INDEX wheels_by_scan ON wheels (project, version, variant, platform, scanned_at);"
     "DROP TRIGGER wheels_insert; DROP TRIGGER wheels_delete; DROP TRIGGER wheels_update;"
     /* builds made anew: INSERT OR REPLACE of a wheel that moved to another
      * build fired no delete trigger, and left its old build's row */
     "DELETE FROM builds;"
     "INSERT INTO builds SELECT w.project, w.version, w.variant, w.platform, w.key, w.status,"
     "  (SELECT max(scanned_at) FROM wheels m WHERE m.project = w.project"
     "    AND m.version = w.version AND m.variant = w.variant AND m.platform = w.platform),"
     "  w.inferred_from, w.index_url, w.wheelarch_version, w.code, w.requires FROM wheels w"
     "  WHERE w.key = (SELECT key FROM wheels b WHERE b.project = w.project"
     "    AND b.version = w.version AND b.variant = w.variant AND b.platform = w.platform"
     "    ORDER BY b.status DESC, b.key LIMIT 1);"
     "CREATE TRIGGER wheels_insert AFTER INSERT ON wheels BEGIN" CHANGED REFRESH7("new") "END;",
     "CREATE TRIGGER wheels_delete AFTER DELETE ON wheels BEGIN"
     "  DELETE FROM records WHERE key = old.key;" CHANGED REFRESH7("old") "END;",
     "CREATE TRIGGER wheels_update AFTER UPDATE ON wheels BEGIN" CHANGED
         REFRESH7("old") REFRESH7("new") "END;"},
};
/* clang-format on */

/* ---- helpers ------------------------------------------------------------ */

static int sql_error(struct db *db, struct wa_error *err, const char *what)
{
    const char *msg = db->h ? sqlite3_errmsg(db->h) : "out of memory";
    return wa_error_set(err, WA_ERR_IO, "%s: %s: %s", db->path, what, msg);
}

static int exec(struct db *db, const char *sql, struct wa_error *err)
{
    int rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : sql_error(db, err, "cannot update the database");
}

static sqlite3_stmt *prep(struct db *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
        return NULL;
    return st;
}

/* A statement of the write path, prepared once per connection: compiling
 * an INSERT into wheels compiles the triggers on it, which was half of
 * what an import or merge cost.  sql is a string constant, found by its
 * address.  The caller ends each use with done(), never finalizes. */
static sqlite3_stmt *cached(struct db *db, const char *sql)
{
    for (size_t i = 0; i < db->nstmts; i++)
        if (db->stmts[i].sql == sql)
            return db->stmts[i].st;
    if (db->nstmts == sizeof db->stmts / sizeof *db->stmts)
        abort(); /* a fixed set of statements: more is a programming error */
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK)
        return NULL;
    db->stmts[db->nstmts].sql = sql;
    db->stmts[db->nstmts++].st = st;
    return st;
}

/* Ends a use of a cached statement: it holds no lock and no value after. */
static void done(sqlite3_stmt *st)
{
    if (st) {
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
    }
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

static char *col_dup(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    return s ? xstrdup((const char *)s) : NULL;
}

static int bad_key(const char *key, struct wa_error *err)
{
    char q[100];
    return wa_error_set(err, WA_ERR_USAGE, "\"%s\" is not a record key",
                        key ? wa_quote(q, sizeof q, key, 80) : "(null)");
}

/* Inside db_begin, whether SQLite rolled the whole transaction back by
 * itself (it does on a full disk, an I/O error or no memory): then every
 * later statement would run, and commit, on its own, so nothing more may
 * be written.  Returns 0, or WA_ERR_IO saying so. */
static int tx_lost(struct db *db, struct wa_error *err)
{
    if (!db->in_tx || !sqlite3_get_autocommit(db->h))
        return 0;
    return wa_error_set(err, WA_ERR_IO,
                        "%s: the transaction was rolled back after an error of the database "
                        "(its disk full?); nothing of it was stored",
                        db->path);
}

/* A write of its own, or part of the caller's db_begin: a savepoint then. */
static int tx_begin(struct db *db, struct wa_error *err)
{
    int rc = tx_lost(db, err);
    return rc < 0 ? rc : exec(db, db->in_tx ? "SAVEPOINT w" : "BEGIN IMMEDIATE", err);
}

static int tx_end(struct db *db, int rc, struct wa_error *err)
{
    if (rc == 0)
        rc = exec(db, db->in_tx ? "RELEASE w" : "COMMIT", err);
    if (rc < 0)
        sqlite3_exec(db->h, db->in_tx ? "ROLLBACK TO w; RELEASE w" : "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* ---- binaries and targets of a record ----------------------------------- */

static int put_binaries(struct db *db, const char *key, json_t *rec, struct wa_error *err)
{
    json_t *bins = json_object_get(rec, "binaries");
    if (!json_array_size(bins))
        return 0;
    int bundles = record_bundles_libraries(rec);
    sqlite3_stmt *b = cached(db, "INSERT OR REPLACE INTO binaries (wheel, path, format, size, "
                                 "modules, bundled) VALUES (?, ?, ?, ?, ?, ?)");
    sqlite3_stmt *t = cached(db, "INSERT OR REPLACE INTO targets (wheel, path, target, kind, "
                                 "modules, entries, bytes, uncompressed_bytes, codecs, isa) "
                                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    int rc = b && t ? 0 : sql_error(db, err, "cannot store binaries");
    size_t i;
    json_t *bin;
    json_array_foreach(bins, i, bin)
    {
        if (rc < 0)
            break;
        const char *path = json_string_value(json_object_get(bin, "path"));
        if (!path)
            continue;
        sqlite3_reset(b);
        bind_text(b, 1, key);
        bind_text(b, 2, path);
        bind_text(b, 3, json_string_value(json_object_get(bin, "format")));
        json_t *v = json_object_get(bin, "size");
        if (json_is_integer(v))
            sqlite3_bind_int64(b, 4, json_integer_value(v));
        else
            sqlite3_bind_null(b, 4);
        v = json_object_get(bin, "modules");
        if (json_is_integer(v))
            sqlite3_bind_int64(b, 5, json_integer_value(v));
        else
            sqlite3_bind_null(b, 5);
        sqlite3_bind_int(b, 6, bundles && record_is_bundled(path));
        if (sqlite3_step(b) != SQLITE_DONE) {
            rc = sql_error(db, err, "cannot store binaries");
            break;
        }
        const char *name;
        json_t *tv;
        json_object_foreach(json_object_get(bin, "targets"), name, tv)
        {
            struct target tg;
            if (target_parse(name, &tg) != 0)
                continue;
            static const char *const kinds[] = {"sass", "ptx", "lto", "gfx"};
            sqlite3_reset(t);
            bind_text(t, 1, key);
            bind_text(t, 2, path);
            bind_text(t, 3, name);
            bind_text(t, 4, (size_t)tg.kind < 4 ? kinds[tg.kind] : "other");
            static const char *const ints[] = {"modules", "entries", "bytes", "uncompressed_bytes"};
            for (int k = 0; k < 4; k++) {
                json_t *iv = json_object_get(tv, ints[k]);
                if (json_is_integer(iv))
                    sqlite3_bind_int64(t, 5 + k, json_integer_value(iv));
                else
                    sqlite3_bind_null(t, 5 + k);
            }
            json_t *codecs = json_object_get(tv, "codecs");
            char *cs = json_is_array(codecs) ? jsontext_dumps(codecs, JSON_COMPACT) : NULL;
            bind_text(t, 9, cs);
            free(cs);
            bind_text(t, 10, json_string_value(json_object_get(tv, "isa")));
            if (sqlite3_step(t) != SQLITE_DONE) {
                rc = sql_error(db, err, "cannot store targets");
                break;
            }
        }
    }
    done(b);
    done(t);
    return rc;
}

/* Version 2's backfill: the binaries of the records already stored. */
static int fill_binaries(struct db *db, struct wa_error *err)
{
    sqlite3_stmt *st = prep(db, "SELECT key, record FROM wheels WHERE status = 'scanned'");
    if (!st)
        return sql_error(db, err, "cannot read records");
    int rc = 0, s;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(st, 0);
        const char *text = (const char *)sqlite3_column_text(st, 1);
        json_t *rec = text ? jsontext_loads(text, 0, NULL) : NULL;
        if (rec && key)
            rc = put_binaries(db, key, rec, err);
        json_decref(rec);
    }
    sqlite3_finalize(st);
    return rc;
}

/* ---- a record's columns -------------------------------------------------- */

/* The columns record_columns_of derives, in bind_columns' order. */
#define COLUMNS                                                                                    \
    "status, project, version, variant, platform, filename, url, sha256, upload_time,"             \
    " scanned_at, inferred_from, index_url, wheelarch_version, sass, ptx, gfx, code, name,"        \
    " local_label, variant_source, python_tag, abi_tag, platform_tag, indexes, requires_python,"   \
    " size, sha256_verified, yanked, yanked_reason"
#define COLUMN_SLOTS "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?"
#define NCOLUMNS 29
/* ... and those of version 5 on: the record's requirements too. */
#define COLUMNS5 COLUMNS ", requires"
#define COLUMN_SLOTS5 COLUMN_SLOTS ",?"

static void bind_int_or_null(sqlite3_stmt *st, int i, long long v, int known)
{
    if (known)
        sqlite3_bind_int64(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

/* Binds c's columns (COLUMNS) from parameter `at` on. */
static void bind_columns(sqlite3_stmt *st, int at, const struct record_columns *c)
{
    const char *v[] = {c->status,
                       c->project,
                       c->version,
                       c->variant,
                       c->platform,
                       c->filename,
                       c->url,
                       c->sha256,
                       c->upload_time,
                       c->scanned_at,
                       c->inferred_from,
                       c->index_url,
                       c->wheelarch_version,
                       c->sass,
                       c->ptx,
                       c->gfx,
                       c->code,
                       c->name,
                       c->local,
                       c->variant_source,
                       c->python_tag,
                       c->abi_tag,
                       c->platform_tag,
                       c->indexes,
                       c->line.requires_python};
    int n = (int)(sizeof v / sizeof *v);
    for (int i = 0; i < n; i++)
        bind_text(st, at + i, v[i]);
    bind_int_or_null(st, at + n, c->line.size, c->line.size >= 0);
    bind_int_or_null(st, at + n + 1, c->line.sha256_verified, c->line.sha256_verified >= 0);
    sqlite3_bind_int(st, at + n + 2, c->line.yanked);
    bind_text(st, at + n + 3, c->line.yanked_reason);
}

/* Version 4's backfill: the new columns of the records already stored. */
static int fill_columns(struct db *db, struct wa_error *err)
{
    sqlite3_stmt *st = prep(db, "SELECT key, record FROM wheels");
    sqlite3_stmt *up =
        prep(db, "UPDATE wheels SET (" COLUMNS ") = (" COLUMN_SLOTS ") WHERE key = ?");
    int rc = st && up ? 0 : sql_error(db, err, "cannot read records");
    int s;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(st, 0);
        const char *text = (const char *)sqlite3_column_text(st, 1);
        json_t *rec = text ? jsontext_loads(text, 0, NULL) : NULL;
        struct record_columns c = {0};
        /* A record that no longer passes the checks keeps its old columns:
         * readers skip it with the checks' message, as before. */
        if (rec && key && record_columns_of(key, rec, &c, NULL) == 0) {
            sqlite3_reset(up);
            bind_columns(up, 1, &c);
            bind_text(up, NCOLUMNS + 1, key);
            if (sqlite3_step(up) != SQLITE_DONE)
                rc = sql_error(db, err, "cannot upgrade a record");
        }
        record_columns_free(&c);
        json_decref(rec);
    }
    sqlite3_finalize(st);
    sqlite3_finalize(up);
    return rc;
}

/* ---- opening ------------------------------------------------------------ */

static int pragma_int(struct db *db, const char *sql, int *out)
{
    sqlite3_stmt *st = prep(db, sql);
    int rc = st && sqlite3_step(st) == SQLITE_ROW ? 0 : -1;
    if (rc == 0)
        *out = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return rc;
}

/* Takes the database from version `from` to `to` in one transaction. */
static int migrate(struct db *db, int from, int to, struct wa_error *err)
{
    int rc = exec(db, "BEGIN IMMEDIATE", err);
    if (rc < 0)
        return rc;
    /* Another process may have upgraded it while this one waited. */
    int now = from;
    if (pragma_int(db, "PRAGMA user_version", &now) < 0)
        rc = sql_error(db, err, "cannot read the schema version");
    else if (now < 0 || now > to)
        rc = wa_error_set(err, WA_ERR_FORMAT, "%s: schema version %d changed to %d meanwhile",
                          db->path, from, now);
    for (int v = now; rc == 0 && v < to; v++) {
        for (int k = 0; rc == 0 && k < MIGRATION_PARTS && migrations[v][k]; k++)
            rc = exec(db, migrations[v][k], err);
        if (rc == 0 && v + 1 == 2)
            rc = fill_binaries(db, err);
        if (rc == 0 && v + 1 == 4)
            rc = fill_columns(db, err);
    }
    if (rc == 0 && now < to) {
        char sql[96];
        snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d",
                 DB_APPLICATION_ID, to);
        rc = exec(db, sql, err);
    }
    if (rc == 0)
        rc = exec(db, "COMMIT", err);
    else
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* A URI for sqlite3_open_v2 that opens path with `query` ("immutable=1"):
 * every byte that a URI gives a meaning to is percent-encoded. */
static char *file_uri(const char *path, const char *query)
{
    struct strbuf b = STRBUF_INIT;
    strbuf_adds(&b, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("/-._~", *p))
            strbuf_addc(&b, (char)*p);
        else
            strbuf_addf(&b, "%%%02X", *p);
    }
    strbuf_addf(&b, "?%s", query);
    return strbuf_detach(&b, NULL);
}

/* A database from elsewhere (a merge input) may hold anything a hostile
 * writer can put in an SQLite file.  Nothing of its schema runs: no view,
 * no trigger, no function its schema names is trusted, no extension
 * loads; no value grows past FOREIGN_VALUE_MAX; and the work of all
 * statements together is bounded by the file's size (progress_budget), so
 * no query on it can hang or take memory out of proportion. */
#define FOREIGN_VALUE_MAX (64 << 20)

static int progress_budget(void *ud)
{
    struct db *db = ud;
    return db->work_left-- <= 0; /* non-zero interrupts the statement */
}

static void guard_foreign(struct db *db, long long file_bytes)
{
    sqlite3 *h = db->h;
    sqlite3_db_config(h, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    sqlite3_db_config(h, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
    sqlite3_db_config(h, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
    sqlite3_db_config(h, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
    sqlite3_db_config(h, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
    sqlite3_limit(h, SQLITE_LIMIT_LENGTH, FOREIGN_VALUE_MAX);
    /* Called every 1,000 virtual machine steps: 64 steps per byte of the
     * file (reading and checking every row of an honest database takes a
     * small fraction of that), and at least 10 million. */
    db->work_left = file_bytes / 16 > 10000 ? file_bytes / 16 : 10000;
    sqlite3_progress_handler(h, 1000, progress_budget, db);
}

/* The schema (sqlite_schema: type, name, table, SQL) that wheelarch's
 * migrations give a database of `version`, one row per line. */
static char *schema_text(sqlite3 *h)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h,
                           "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema "
                           "ORDER BY type, name",
                           -1, &st, NULL) != SQLITE_OK)
        return NULL;
    struct strbuf b = STRBUF_INIT;
    int s;
    while ((s = sqlite3_step(st)) == SQLITE_ROW)
        for (int i = 0; i < 4; i++) {
            const char *v = (const char *)sqlite3_column_text(st, i);
            strbuf_adds(&b, v ? v : "");
            strbuf_addc(&b, i == 3 ? '\n' : '\t');
        }
    sqlite3_finalize(st);
    if (s != SQLITE_DONE) {
        strbuf_free(&b);
        return NULL;
    }
    return strbuf_detach(&b, NULL);
}

static char *reference_schema(int version)
{
    sqlite3 *h = NULL;
    char *text = NULL;
    if (sqlite3_open_v2(":memory:", &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL) ==
        SQLITE_OK) {
        int ok = 1;
        for (int v = 0; ok && v < version; v++)
            for (int k = 0; ok && k < MIGRATION_PARTS && migrations[v][k]; k++)
                ok = sqlite3_exec(h, migrations[v][k], NULL, NULL, NULL) == SQLITE_OK;
        if (ok)
            text = schema_text(h);
    }
    sqlite3_close_v2(h);
    return text;
}

/* 0 when a database from elsewhere has exactly the tables, columns and
 * indexes wheelarch made for its version: a view or anything else in place
 * of a table is refused before any of its rows is read. */
static int check_schema(struct db *db, int version, struct wa_error *err)
{
    char *want = reference_schema(version);
    char *have = schema_text(db->h);
    int rc = 0;
    if (!have)
        rc = wa_error_set(err, WA_ERR_FORMAT, "%s: cannot read its schema: %s", db->path,
                          sqlite3_errmsg(db->h));
    else if (!want || strcmp(want, have) != 0)
        rc = wa_error_set(err, WA_ERR_FORMAT,
                          "%s: its tables are not those of a wheelarch database of schema "
                          "version %d (a table changed, added, or replaced by a view)",
                          db->path, version);
    free(want);
    free(have);
    return rc;
}

/* The bytes of the database a file from elsewhere holds, by its header
 * (page count times page size, when the header's count is valid), never
 * more than the blocks it has on disk: what its work budget and its -wal's
 * bound are measured against.  A file larger than its header says by more
 * than a MiB (a sparse or padded file: it costs its maker nothing, and a
 * copy all of it) is WA_ERR_LIMIT. */
static int foreign_bytes(const char *path, const struct stat *sb, long long *bytes,
                         struct wa_error *err)
{
    long long size = (long long)sb->st_size, on_disk = (long long)sb->st_blocks * 512;
    *bytes = size < on_disk ? size : on_disk;
    unsigned char h[100];
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    ssize_t k = fd >= 0 ? pread(fd, h, sizeof h, 0) : -1;
    if (fd >= 0)
        close(fd);
    if (k != (ssize_t)sizeof h || memcmp(h, "SQLite format 3", 16) != 0)
        return 0; /* SQLite says what it is */
    uint32_t page = (uint32_t)h[16] << 8 | h[17];
    uint32_t pages = (uint32_t)h[28] << 24 | (uint32_t)h[29] << 16 | (uint32_t)h[30] << 8 | h[31];
    int valid = memcmp(h + 24, h + 92, 4) == 0 && pages > 0;
    long long held = (long long)(page == 1 ? 65536 : page) * pages;
    if (!valid)
        return 0;
    if (size > held + (1LL << 20))
        return wa_error_set(err, WA_ERR_LIMIT,
                            "%s: the file is %lld bytes, but the database in it %lld (a sparse "
                            "or padded file)",
                            path, size, held);
    *bytes = held < *bytes ? held : *bytes;
    return 0;
}

/* Whether path's -wal file holds frames (a writer's changes not yet in
 * the database file). */
static int wal_has_frames(const char *path, long long *bytes)
{
    char *wal = xasprintf("%s-wal", path);
    struct stat sb;
    int r = lstat(wal, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0;
    if (r && bytes)
        *bytes += sb.st_size;
    free(wal);
    return r;
}

/* A database from elsewhere with changes in its -wal: both files are
 * copied into a private folder, where SQLite may replay the -wal, so the
 * input itself is never written (a read-only connection could not read
 * the -wal without creating files beside it). */
/* Removes the private copies (TMPDIR/wheelarch-merge-PID-*) of merges that
 * were killed: a folder (never a link) of this user's, older than six
 * hours (a process id seen from another container may look gone), whose
 * process is gone; only the three files a copy holds, through the folder's
 * descriptor. */
static void clean_stale_copies(const char *tmp)
{
    DIR *d = opendir(tmp);
    if (!d)
        return;
    struct dirent *de;
    time_t now = time(NULL);
    while ((de = readdir(d)) != NULL) {
        if (strncmp(de->d_name, "wheelarch-merge-", 16) != 0)
            continue;
        char *end;
        long pid = strtol(de->d_name + 16, &end, 10);
        struct stat sb;
        if (pid <= 0 || *end != '-' || pid == (long)getpid() ||
            fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(sb.st_mode) ||
            sb.st_uid != getuid() || now - sb.st_mtime < 6 * 3600)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* alive (or not ours to tell) */
        int fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            continue;
        static const char *const names[] = {DB_FILE, DB_FILE "-wal", DB_FILE "-shm"};
        for (size_t i = 0; i < 3; i++)
            unlinkat(fd, names[i], 0);
        close(fd);
        unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR);
    }
    closedir(d);
}

/* The largest -wal a merge input may have: an honest one is a few times
 * its database at most; a sparse file of gigabytes costs its writer
 * nothing and the copy all of it. */
#define FOREIGN_WAL_MAX(db_bytes) ((db_bytes)*4 > (1LL << 30) ? (db_bytes)*4 : (1LL << 30))

static int private_copy(struct db *db, const char *path, long long db_bytes, char **copy,
                        struct wa_error *err)
{
    char *walpath = xasprintf("%s-wal", path);
    struct stat ws;
    int too_big = lstat(walpath, &ws) == 0 && (long long)ws.st_size > FOREIGN_WAL_MAX(db_bytes);
    free(walpath);
    if (too_big)
        return wa_error_set(err, WA_ERR_LIMIT,
                            "%s: its -wal file is %lld bytes, more than a database of %lld "
                            "bytes can need; checkpoint it where it was made "
                            "(wheelarch db check)",
                            path, (long long)ws.st_size, db_bytes);
    const char *tmp = getenv("TMPDIR");
    tmp = tmp && *tmp ? tmp : "/tmp";
    clean_stale_copies(tmp);
    char *dir = xasprintf("%s/wheelarch-merge-%ld-XXXXXX", tmp, (long)getpid());
    if (!mkdtemp(dir)) {
        int rc = wa_error_set(err, WA_ERR_IO, "%s: cannot make a folder for a copy of it: %s", path,
                              strerror(errno));
        free(dir);
        return rc;
    }
    db->tmpdir = dir;
    *copy = fsutil_join(dir, DB_FILE);
    char *wal = xasprintf("%s-wal", path), *wal_copy = xasprintf("%s-wal", *copy);
    struct wa_error e;
    int rc = fsutil_copy_file(path, *copy, &e);
    if (rc == 0)
        rc = fsutil_copy_file(wal, wal_copy, &e);
    if (rc < 0)
        rc = wa_error_set(err, WA_ERR_IO, "%s: cannot copy it to read its -wal file: %s", path,
                          e.msg);
    free(wal);
    free(wal_copy);
    return rc;
}

static int open_at(const char *path, int flags, int max_version, struct db **out,
                   struct wa_error *err)
{
    *out = NULL;
    int foreign = (flags & DB_FOREIGN) != 0;
    if (foreign)
        flags |= DB_READONLY | DB_ANY_VERSION;
    int ro = (flags & DB_READONLY) != 0;
    struct stat sb;
    memset(&sb, 0, sizeof sb); /* a new database: no size */
    if (lstat(path, &sb) == 0) {
        /* A link would make writes act elsewhere; a FIFO would hang. */
        if (S_ISLNK(sb.st_mode))
            return wa_error_set(err, WA_ERR_IO, "%s: is a symbolic link, not a database", path);
        if (!S_ISREG(sb.st_mode))
            return wa_error_set(err, WA_ERR_IO, "%s: not a regular file", path);
        if (ro && sb.st_size == 0)
            return wa_error_set(err, WA_ERR_FORMAT, "%s: an empty file, not a wheelarch database",
                                path);
    } else if (ro) {
        return wa_error_set(err, WA_ERR_IO, "%s: no such database", path);
    }
    struct db *db = xcalloc(1, sizeof *db);
    db->path = xstrdup(path);
    db->readonly = ro;
    pthread_mutexattr_t ma;
    pthread_mutexattr_init(&ma);
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&db->mu, &ma);
    pthread_mutexattr_destroy(&ma);
    /* SQLite's own lock per call is off (SQLITE_OPEN_NOMUTEX): every use of
     * the connection holds db->mu, a build's reader makes millions of
     * calls, and the two locks were a few percent of a build. */
    int base = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW;
    char *dir = xstrndup(path, strrchr(path, '/') ? (size_t)(strrchr(path, '/') - path) : 0);
    /* A reader of a file it may write opens it for writing all the same
     * (and never writes): the last connection to close then removes the
     * -wal and -shm files, which a read-only one would leave behind.  A
     * file in a place it may not write (no write permission, a read-only
     * mount) is opened read-only, and as immutable when no -wal holds
     * changes, since SQLite could not make the -shm file it otherwise
     * needs.  A file from elsewhere is never opened for writing. */
    int writable = access(path, W_OK) == 0 && access(*dir ? dir : ".", W_OK) == 0;
    free(dir);
    long long bytes = (long long)sb.st_size;
    int rc = 0;
    if (foreign && (rc = foreign_bytes(path, &sb, &bytes, err)) < 0) {
        db_close(db);
        return rc;
    }
    long long held = bytes; /* the database's own bytes, before its -wal */
    int wal = ro && wal_has_frames(path, &bytes);
    char *open_path = xstrdup(path);
    int oflags = ro ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (foreign && wal) {
        free(open_path);
        open_path = NULL;
        if ((rc = private_copy(db, path, held, &open_path, err)) < 0)
            goto fail;
        oflags = SQLITE_OPEN_READWRITE;
    } else if ((foreign || (ro && !writable)) && !wal) {
        char *uri = file_uri(path, "immutable=1");
        free(open_path);
        open_path = uri;
        base |= SQLITE_OPEN_URI;
    } else if (ro && writable) {
        oflags = SQLITE_OPEN_READWRITE;
    }
    if (sqlite3_open_v2(open_path, &db->h, oflags | base, NULL) != SQLITE_OK) {
        rc = wa_error_set(err, WA_ERR_IO, "%s: cannot open the database: %s", path,
                          db->h ? sqlite3_errmsg(db->h) : "out of memory");
        goto fail;
    }
    if (foreign)
        guard_foreign(db, bytes);
    if (!ro && sqlite3_db_readonly(db->h, "main") == 1) {
        /* SQLite opens a file it may not write read-only without a word;
         * every write would then fail as "a readonly database" */
        rc = wa_error_set(err, WA_ERR_IO,
                          "%s: cannot be written (a read-only file, folder or mount), and this "
                          "command writes to it",
                          path);
        goto fail;
    }
    sqlite3_busy_timeout(db->h, DB_BUSY_MS);
    sqlite3_extended_result_codes(db->h, 0);
    int app = 0, version = 0;
    if (pragma_int(db, "PRAGMA application_id", &app) < 0 ||
        pragma_int(db, "PRAGMA user_version", &version) < 0) {
        if (ro && !writable && wal)
            rc = wa_error_set(err, WA_ERR_IO,
                              "%s: cannot be read where it lies: it is read-only and its -wal "
                              "file holds changes SQLite can only read with write access "
                              "(copy the folder somewhere writable)",
                              path);
        else
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s: not a wheelarch database (%s)", path,
                              sqlite3_errmsg(db->h));
        goto fail;
    }
    if ((app != 0 && app != DB_APPLICATION_ID) || (app == 0 && version != 0)) {
        rc = wa_error_set(err, WA_ERR_FORMAT, "%s: an SQLite file, but not a wheelarch database",
                          path);
        goto fail;
    }
    if (app == DB_APPLICATION_ID && version < 1) {
        /* Every wheelarch database has a version from 1 on; anything else
         * would index the migrations out of bounds. */
        rc = wa_error_set(err, WA_ERR_FORMAT,
                          "%s: schema version %d is not one wheelarch has ever written (1 to "
                          "%d): the database is damaged",
                          path, version, DB_SCHEMA_VERSION);
        goto fail;
    }
    if (version > DB_SCHEMA_VERSION) {
        rc = wa_error_set(err, WA_ERR_FORMAT,
                          "%s: schema version %d is newer than this wheelarch's (%d): upgrade "
                          "wheelarch",
                          path, version, DB_SCHEMA_VERSION);
        goto fail;
    }
    if (ro && version == 0) {
        rc = wa_error_set(err, WA_ERR_FORMAT, "%s: an empty SQLite file, not a wheelarch database",
                          path);
        goto fail;
    }
    if (foreign && (rc = check_schema(db, version, err)) < 0)
        goto fail;
    if (ro)
        sqlite3_exec(db->h, "PRAGMA query_only = 1", NULL, NULL, NULL);
    if (!ro) {
        /* WAL persists in the file; NORMAL syncs at checkpoints, which a
         * killed process cannot undo (only a power loss can, and then the
         * next crawl reads the lost wheels again). */
        if ((rc = exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL", err)) < 0)
            goto fail;
        if (version < max_version && (rc = migrate(db, version, max_version, err)) < 0)
            goto fail;
    } else if (version < DB_SCHEMA_VERSION && !(flags & DB_ANY_VERSION)) {
        rc = wa_error_set(err, WA_ERR_FORMAT,
                          "%s: schema version %d is older than this wheelarch's (%d): run "
                          "`wheelarch db check` once to upgrade it",
                          path, version, DB_SCHEMA_VERSION);
        goto fail;
    }
    db->version = !ro && version < max_version ? max_version : version;
    free(open_path);
    *out = db;
    return 0;
fail:
    free(open_path);
    db_close(db);
    return rc;
}

int db_open_file(const char *path, int flags, struct db **out, struct wa_error *err)
{
    return open_at(path, flags, DB_SCHEMA_VERSION, out, err);
}

int db_open(const char *dir, int flags, struct db **out, struct wa_error *err)
{
    *out = NULL;
    if (!(flags & DB_READONLY)) {
        int rc = fsutil_mkdirs(dir, err);
        if (rc < 0)
            return rc;
    }
    /* A symbolic link as the folder (a careless or hostile merge) would
     * make writes act elsewhere. */
    if (fsutil_exists(dir)) {
        int rc = fsutil_check_real_dir(dir, err);
        if (rc < 0)
            return rc;
    }
    char *path = fsutil_join(dir, DB_FILE);
    int rc = db_open_file(path, flags, out, err);
    free(path);
    return rc;
}

int db_exists(const char *dir)
{
    char *path = fsutil_join(dir, DB_FILE);
    int r = fsutil_exists(path);
    free(path);
    return r;
}

int db_create_at_version(const char *path, int version, struct wa_error *err)
{
    if (version < 1 || version > DB_SCHEMA_VERSION)
        return wa_error_set(err, WA_ERR_USAGE, "no schema version %d", version);
    struct db *db;
    int rc = open_at(path, 0, version, &db, err);
    db_close(db);
    return rc;
}

void db_close(struct db *db)
{
    if (!db)
        return;
    for (size_t i = 0; i < db->nstmts; i++)
        sqlite3_finalize(db->stmts[i].st);
    if (db->h)
        sqlite3_close_v2(db->h);
    if (db->tmpdir) {
        char *files[] = {fsutil_join(db->tmpdir, DB_FILE),
                         xasprintf("%s/%s-wal", db->tmpdir, DB_FILE),
                         xasprintf("%s/%s-shm", db->tmpdir, DB_FILE)};
        for (size_t i = 0; i < 3; i++) {
            unlink(files[i]);
            free(files[i]);
        }
        rmdir(db->tmpdir);
        free(db->tmpdir);
    }
    pthread_mutex_destroy(&db->mu);
    free(db->path);
    free(db);
}

const char *db_path(const struct db *db)
{
    return db->path;
}

int db_check(struct db *db, struct wa_error *err)
{
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = prep(db, "PRAGMA integrity_check");
    int rc = st ? 0 : sql_error(db, err, "cannot check the database");
    if (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
        const char *r = (const char *)sqlite3_column_text(st, 0);
        if (!r || strcmp(r, "ok") != 0)
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s: damaged: %s", db->path, r ? r : "?");
    } else if (rc == 0) {
        rc = sql_error(db, err, "cannot check the database");
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_begin(struct db *db, struct wa_error *err)
{
    pthread_mutex_lock(&db->mu);
    int rc = exec(db, "BEGIN IMMEDIATE", err);
    if (rc == 0)
        db->in_tx = 1;
    else
        pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_commit(struct db *db, struct wa_error *err)
{
    int rc = tx_lost(db, err);
    if (rc == 0)
        rc = exec(db, "COMMIT", err);
    if (rc < 0)
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
    db->in_tx = 0;
    pthread_mutex_unlock(&db->mu);
    return rc;
}

void db_rollback(struct db *db)
{
    sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
    db->in_tx = 0;
    pthread_mutex_unlock(&db->mu);
}

int db_savepoint(struct db *db, struct wa_error *err)
{
    int rc = tx_lost(db, err);
    return rc < 0 ? rc : exec(db, "SAVEPOINT batch", err);
}

int db_release(struct db *db, struct wa_error *err)
{
    int rc = tx_lost(db, err);
    return rc < 0 ? rc : exec(db, "RELEASE batch", err);
}

void db_rollback_to(struct db *db)
{
    sqlite3_exec(db->h, "ROLLBACK TO batch; RELEASE batch", NULL, NULL, NULL);
}

int db_each_note(struct db *db,
                 int (*fn)(void *ud, const char *table, const char *key, const char *json,
                           struct wa_error *err),
                 void *ud, struct wa_error *err)
{
    static const char *const tables[] = {"journal", "failures"};
    static const char *const sql[] = {"SELECT key, note FROM journal ORDER BY key",
                                      "SELECT key, failure FROM failures ORDER BY key"};
    pthread_mutex_lock(&db->mu);
    int rc = 0;
    for (size_t t = 0; rc == 0 && t < 2; t++) {
        sqlite3_stmt *st = prep(db, sql[t]);
        rc = st ? 0 : sql_error(db, err, "cannot read");
        int s = SQLITE_DONE;
        while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
            const char *key = (const char *)sqlite3_column_text(st, 0);
            const char *text = (const char *)sqlite3_column_text(st, 1);
            rc = fn(ud, tables[t], key ? key : "", text ? text : "", err);
        }
        if (rc == 0 && s != SQLITE_DONE)
            rc = sql_error(db, err, "cannot read");
        sqlite3_finalize(st);
    }
    pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_settle_notes(struct db *db, struct wa_error *err)
{
    return exec(db,
                "DELETE FROM failures WHERE key IN (SELECT key FROM wheels);"
                "DELETE FROM journal WHERE key IN (SELECT key FROM wheels);",
                err);
}

/* ---- records ------------------------------------------------------------ */

/* One text column of the row of key in table, copied; NULL if absent. */
static char *get_text(struct db *db, const char *sql, const char *key)
{
    if (!wheelkey_valid(key))
        return NULL;
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = cached(db, sql);
    char *out = NULL;
    if (st) {
        bind_text(st, 1, key);
        if (sqlite3_step(st) == SQLITE_ROW)
            out = col_dup(st, 0);
    }
    done(st);
    pthread_mutex_unlock(&db->mu);
    return out;
}

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
    sqlite3_stmt *st = prep(db, "SELECT key, requires FROM wheels WHERE status = 'scanned' AND "
                                "requires IS NOT NULL ORDER BY key");
    int rc = st ? 0 : sql_error(db, err, "cannot read requirements");
    int s = SQLITE_DONE;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(st, 0);
        const char *req = (const char *)sqlite3_column_text(st, 1);
        if (key && req)
            rc = fn(ud, key, req, err);
    }
    if (rc == 0 && s != SQLITE_DONE)
        rc = sql_error(db, err, "cannot read requirements");
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_has_version(struct db *db, const char *project, const char *version)
{
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = prep(db, "SELECT 1 FROM wheels WHERE project = ? AND version = ? LIMIT 1");
    int found = 0;
    if (st) {
        bind_text(st, 1, project);
        bind_text(st, 2, version);
        found = sqlite3_step(st) == SQLITE_ROW;
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return found;
}

const char *db_record_status(struct db *db, const char *key)
{
    char *s = get_text(db, "SELECT status FROM wheels WHERE key = ?", key);
    const char *r = !s ? NULL : strcmp(s, "scanned") == 0 ? "scanned" : "inferred";
    free(s);
    return r;
}

char *db_record_code(struct db *db, const char *key)
{
    return get_text(db, "SELECT code FROM wheels WHERE key = ?", key);
}

static json_t *parse(const char *text, const char *what, const char *key, struct db *db,
                     struct wa_error *err)
{
    json_error_t je;
    json_t *v = jsontext_loads(text, JSON_REJECT_DUPLICATES, &je);
    if (!v)
        wa_error_set(err, WA_ERR_FORMAT, "%s: %s of %s: line %d column %d: %s", db->path, what, key,
                     je.line, je.column, je.text);
    return v;
}

int db_read_record(struct db *db, const char *key, json_t **rec, struct wa_error *err)
{
    *rec = NULL;
    if (!wheelkey_valid(key))
        return bad_key(key, err);
    char *text = get_text(db, "SELECT record FROM records WHERE key = ?", key);
    if (!text)
        return wa_error_set(err, WA_ERR_IO, "%s: no record %s", db->path, key);
    *rec = parse(text, "the record", key, db, err);
    free(text);
    return *rec ? 0 : -1;
}

int db_write_record(struct db *db, const char *key, json_t *rec, struct wa_error *err)
{
    if (!wheelkey_valid(key))
        return bad_key(key, err);
    struct record_columns c;
    int rc = record_columns_of(key, rec, &c, err);
    if (rc < 0) {
        record_columns_free(&c);
        return rc;
    }
    char *text = jsontext_dumps(rec, JSON_COMPACT | JSON_SORT_KEYS);
    pthread_mutex_lock(&db->mu);
    rc = tx_begin(db, err);
    if (rc == 0) {
        /* The old row is deleted first, so the delete trigger refreshes its
         * build: INSERT OR REPLACE deletes without firing it, which left
         * the old build's row behind when a wheel moved to another build. */
        sqlite3_stmt *st = cached(db, "DELETE FROM wheels WHERE key = ?");
        if (st)
            bind_text(st, 1, key);
        if (!st || sqlite3_step(st) != SQLITE_DONE)
            rc = sql_error(db, err, "cannot store a record");
        done(st);
        st = rc == 0 ? cached(db, "INSERT INTO wheels (key, " COLUMNS5 ") VALUES (?, " COLUMN_SLOTS5
                                  ")")
                     : NULL;
        if (st) {
            bind_text(st, 1, key);
            bind_columns(st, 2, &c);
            bind_text(st, 2 + NCOLUMNS, c.requires);
        }
        if (rc == 0 && (!st || sqlite3_step(st) != SQLITE_DONE))
            rc = sql_error(db, err, "cannot store a record");
        done(st);
        st = rc == 0 ? cached(db, "INSERT OR REPLACE INTO records (key, record) VALUES (?, ?)")
                     : NULL;
        if (st) {
            bind_text(st, 1, key);
            bind_text(st, 2, text);
        }
        if (rc == 0 && (!st || sqlite3_step(st) != SQLITE_DONE))
            rc = sql_error(db, err, "cannot store a record");
        done(st);
        static const char *const clear[] = {
            "DELETE FROM binaries WHERE wheel = ?", "DELETE FROM targets WHERE wheel = ?",
            "DELETE FROM failures WHERE key = ?", "DELETE FROM journal WHERE key = ?"};
        for (size_t i = 0; rc == 0 && i < 4; i++) {
            st = cached(db, clear[i]);
            if (st)
                bind_text(st, 1, key);
            if (!st || sqlite3_step(st) != SQLITE_DONE)
                rc = sql_error(db, err, "cannot store a record");
            done(st);
        }
        if (rc == 0)
            rc = put_binaries(db, key, rec, err);
        rc = tx_end(db, rc, err);
    }
    pthread_mutex_unlock(&db->mu);
    free(text);
    record_columns_free(&c);
    return rc;
}

size_t db_count_records(struct db *db)
{
    pthread_mutex_lock(&db->mu);
    int n = 0;
    if (pragma_int(db, "SELECT count(*) FROM wheels", &n) < 0)
        n = 0;
    pthread_mutex_unlock(&db->mu);
    return (size_t)n;
}

/* The first column of every row of sql, in order. */
static int list_keys(struct db *db, const char *sql, char ***keys, size_t *n, struct wa_error *err)
{
    *keys = NULL;
    *n = 0;
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = prep(db, sql);
    int rc = st ? 0 : sql_error(db, err, "cannot list");
    size_t cap = 0;
    int s;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
        *keys = xgrow(*keys, &cap, *n + 1, sizeof **keys);
        (*keys)[(*n)++] = col_dup(st, 0);
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_each_wheel(struct db *db, int (*want)(void *ud, const char *project, const char *version),
                  int (*fn)(void *ud, const struct db_wheel *w, struct wa_error *err), void *ud,
                  struct wa_error *err)
{
    static const char sql[] =
        "SELECT key, status, project, version, variant, platform, scanned_at, inferred_from, "
        "index_url, wheelarch_version, code, filename, url, sha256, upload_time, "
        "requires_python, yanked_reason, size, sha256_verified, yanked, "
        "CASE WHEN code IS NOT NULL THEN (SELECT record FROM records r WHERE r.key = w.key) END, "
        "requires FROM wheels w ORDER BY key";
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = prep(db, sql);
    int rc = st ? 0 : sql_error(db, err, "cannot read records");
    int s = SQLITE_DONE;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
        /* the identity first: a row the caller does not want costs no
         * read of its record (overflow pages, most bytes) */
        if (want && !want(ud, (const char *)sqlite3_column_text(st, 2),
                          (const char *)sqlite3_column_text(st, 3)))
            continue;
        const char *c[17];
        for (int i = 0; i < 17; i++)
            c[i] = (const char *)sqlite3_column_text(st, i);
        struct db_wheel w = {
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
            .size =
                sqlite3_column_type(st, 17) == SQLITE_INTEGER ? sqlite3_column_int64(st, 17) : -1,
            .sha256_verified = sqlite3_column_type(st, 18) == SQLITE_INTEGER
                                   ? sqlite3_column_int(st, 18) != 0
                                   : -1,
            .yanked = sqlite3_column_int(st, 19) != 0,
            .record = (const char *)sqlite3_column_text(st, 20),
            .requires = (const char *)sqlite3_column_text(st, 21),
        };
        rc = fn(ud, &w, err);
    }
    if (rc == 0 && s != SQLITE_DONE)
        rc = sql_error(db, err, "cannot read records");
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_each_record(struct db *db,
                   int (*fn)(void *ud, const char *key, const char *record, struct wa_error *err),
                   void *ud, struct wa_error *err)
{
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = prep(db, db->version >= 6 ? "SELECT key, record FROM records ORDER BY key"
                                                 : "SELECT key, record FROM wheels ORDER BY key");
    int rc = st ? 0 : sql_error(db, err, "cannot read records");
    int s = SQLITE_DONE;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(st, 0);
        const char *text = (const char *)sqlite3_column_text(st, 1);
        rc = fn(ud, key ? key : "", text ? text : "", err);
    }
    if (rc == 0 && s != SQLITE_DONE)
        rc = sql_error(db, err, "cannot read records");
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_each_build(struct db *db,
                  int (*fn)(void *ud, const struct db_build *b, struct wa_error *err), void *ud,
                  struct wa_error *err)
{
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st =
        prep(db, "SELECT project, version, variant, platform, best, status, "
                 "scanned_at, inferred_from, index_url, wheelarch_version, code, "
                 "requires FROM builds ORDER BY project, version, variant, platform");
    int rc = st ? 0 : sql_error(db, err, "cannot read builds");
    int s = SQLITE_DONE;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
        const char *c[12];
        for (int i = 0; i < 12; i++)
            c[i] = (const char *)sqlite3_column_text(st, i);
        struct db_build b = {c[0], c[1], c[2], c[3], c[4],  c[5],
                             c[6], c[7], c[8], c[9], c[10], c[11]};
        rc = fn(ud, &b, err);
    }
    if (rc == 0 && s != SQLITE_DONE)
        rc = sql_error(db, err, "cannot read builds");
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
        prep(db, "SELECT DISTINCT project, version FROM builds ORDER BY project, version");
    int rc = st ? 0 : sql_error(db, err, "cannot read builds");
    int s = SQLITE_DONE;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW)
        rc = fn(ud, (const char *)sqlite3_column_text(st, 0),
                (const char *)sqlite3_column_text(st, 1), err);
    if (rc == 0 && s != SQLITE_DONE)
        rc = sql_error(db, err, "cannot read builds");
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_state(struct db *db, char id[65], long long *changes, struct wa_error *err)
{
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = prep(db, "SELECT (SELECT value FROM meta WHERE name = 'id'), "
                                "(SELECT value FROM meta WHERE name = 'changes')");
    int rc = st && sqlite3_step(st) == SQLITE_ROW ? 0 : sql_error(db, err, "cannot read meta");
    if (rc == 0) {
        const char *v = (const char *)sqlite3_column_text(st, 0);
        snprintf(id, 65, "%s", v ? v : "");
        *changes = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

/* ---- failures and the journal ------------------------------------------- */

/* Stores v as JSON under key in table (failures or journal); then runs
 * `also` (may be NULL) with the key, in the same transaction. */
static int put_json(struct db *db, const char *sql, const char *also, const char *key, json_t *v,
                    struct wa_error *err)
{
    if (!wheelkey_valid(key))
        return bad_key(key, err);
    char *text = jsontext_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    pthread_mutex_lock(&db->mu);
    int rc = tx_begin(db, err);
    if (rc == 0) {
        sqlite3_stmt *st = prep(db, sql);
        if (st) {
            bind_text(st, 1, key);
            bind_text(st, 2, text);
        }
        if (!st || sqlite3_step(st) != SQLITE_DONE)
            rc = sql_error(db, err, "cannot write");
        sqlite3_finalize(st);
        if (rc == 0 && also) {
            st = prep(db, also);
            if (st)
                bind_text(st, 1, key);
            if (!st || sqlite3_step(st) != SQLITE_DONE)
                rc = sql_error(db, err, "cannot write");
            sqlite3_finalize(st);
        }
        rc = tx_end(db, rc, err);
    }
    pthread_mutex_unlock(&db->mu);
    free(text);
    return rc;
}

static void delete_key(struct db *db, const char *sql, const char *key)
{
    if (!wheelkey_valid(key))
        return;
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = prep(db, sql);
    if (st) {
        bind_text(st, 1, key);
        sqlite3_step(st);
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
}

static json_t *get_json(struct db *db, const char *sql, const char *key)
{
    char *text = get_text(db, sql, key);
    json_t *v = text ? jsontext_loads(text, 0, NULL) : NULL;
    free(text);
    return v;
}

int db_write_failure(struct db *db, const char *key, json_t *f, struct wa_error *err)
{
    return put_json(db, "INSERT OR REPLACE INTO failures (key, failure) VALUES (?, ?)",
                    "DELETE FROM journal WHERE key = ?", key, f, err);
}

json_t *db_read_failure(struct db *db, const char *key)
{
    return get_json(db, "SELECT failure FROM failures WHERE key = ?", key);
}

int db_journal_begin(struct db *db, const char *key, json_t *info, struct wa_error *err)
{
    return put_json(db, "INSERT OR REPLACE INTO journal (key, note) VALUES (?, ?)", NULL, key, info,
                    err);
}

void db_journal_end(struct db *db, const char *key)
{
    delete_key(db, "DELETE FROM journal WHERE key = ?", key);
}

int db_journal_list(struct db *db, char ***keys, size_t *n, struct wa_error *err)
{
    int rc = list_keys(db, "SELECT key FROM journal ORDER BY key", keys, n, err);
    if (rc < 0)
        return rc;
    size_t k = 0;
    for (size_t i = 0; i < *n; i++) {
        if (wheelkey_valid((*keys)[i]))
            (*keys)[k++] = (*keys)[i];
        else
            free((*keys)[i]); /* not ours to act on */
    }
    *n = k;
    return 0;
}

json_t *db_journal_read(struct db *db, const char *key)
{
    return get_json(db, "SELECT note FROM journal WHERE key = ?", key);
}

/* ---- the HTTP cache ----------------------------------------------------- */

void db_http_entry_free(struct db_http_entry *e)
{
    free(e->final_url);
    free(e->etag);
    free(e->last_modified);
    free(e->content_type);
    free(e->body);
    memset(e, 0, sizeof *e);
}

int db_http_load(struct db *db, const char *url, struct db_http_entry *e)
{
    memset(e, 0, sizeof *e);
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = prep(db, "SELECT final_url, etag, last_modified, content_type, body FROM "
                                "http_cache WHERE url = ?");
    int rc = -1;
    if (st) {
        bind_text(st, 1, url);
        if (sqlite3_step(st) == SQLITE_ROW) {
            e->final_url = col_dup(st, 0);
            e->etag = col_dup(st, 1);
            e->last_modified = col_dup(st, 2);
            e->content_type = col_dup(st, 3);
            const void *body = sqlite3_column_blob(st, 4);
            int len = sqlite3_column_bytes(st, 4);
            e->len = len > 0 ? (size_t)len : 0;
            e->body = xmalloc(e->len + 1);
            if (e->len)
                memcpy(e->body, body, e->len);
            e->body[e->len] = '\0';
            rc = 0;
        }
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

static const char *nonempty(const char *s)
{
    return s && *s ? s : NULL;
}

int db_http_store(struct db *db, const char *url, const struct db_http_entry *e,
                  struct wa_error *err)
{
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = prep(db, "INSERT OR REPLACE INTO http_cache (url, final_url, etag, "
                                "last_modified, content_type, body) VALUES (?, ?, ?, ?, ?, ?)");
    int rc = 0;
    if (st) {
        bind_text(st, 1, url);
        bind_text(st, 2,
                  nonempty(e->final_url) && strcmp(e->final_url, url) != 0 ? e->final_url : NULL);
        bind_text(st, 3, nonempty(e->etag));
        bind_text(st, 4, nonempty(e->last_modified));
        bind_text(st, 5, nonempty(e->content_type));
        sqlite3_bind_blob64(st, 6, e->body ? e->body : "", e->len, SQLITE_TRANSIENT);
    }
    if (!st || sqlite3_step(st) != SQLITE_DONE)
        rc = sql_error(db, err, "cannot store an index page");
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

char *db_dump(json_t *v)
{
    char *s = json_dumps(v, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_ENCODE_ANY);
    char *out = xasprintf("%s\n", s ? s : "null");
    free(s);
    return out;
}
