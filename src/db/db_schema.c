/*
 * db_schema: the schema by version, the migrations between versions (with
 * the backfills of versions 2 and 4), and the check that a database from
 * elsewhere has exactly the schema its version says.
 */
#include <stdlib.h>
#include <string.h>

#include "db_state.h"
#include "db_schema.h"
#include <stdio.h>

#include "strbuf.h"
#include "xalloc.h"

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
    /* 8: the whole per-binary detail of a record as columns of binaries
     * and targets (refilled by fill_binaries from the records after this
     * runs), which a build reads in place of the record's JSON: seq (the
     * record's order), the module counts, the lists of targets, the module
     * sets, the compression, the declared targets, the arch flags and the
     * warnings; targets' library_modules; codecs separated by spaces; and
     * requires one requirement per line (fill_requires) in place of JSON */
    {"ALTER TABLE binaries ADD COLUMN seq INTEGER;"
     "ALTER TABLE binaries ADD COLUMN dlink_modules INTEGER;"
     "ALTER TABLE binaries ADD COLUMN library_modules INTEGER;"
     "ALTER TABLE binaries ADD COLUMN sass TEXT;"
     "ALTER TABLE binaries ADD COLUMN ptx TEXT;"
     "ALTER TABLE binaries ADD COLUMN lto TEXT;"
     "ALTER TABLE binaries ADD COLUMN gfx TEXT;"
     "ALTER TABLE binaries ADD COLUMN module_sets TEXT;"
     "ALTER TABLE binaries ADD COLUMN compression TEXT;"
     "ALTER TABLE binaries ADD COLUMN declared_sass TEXT;"
     "ALTER TABLE binaries ADD COLUMN declared_ptx TEXT;"
     "ALTER TABLE binaries ADD COLUMN arch_flags TEXT;"
     "ALTER TABLE binaries ADD COLUMN warnings TEXT;"
     "ALTER TABLE targets ADD COLUMN library_modules INTEGER;"
     "DELETE FROM binaries; DELETE FROM targets;"},
    /* 9: the file names of each build's wheels from an index alone:
     * `query` reads them with every build (the Pythons its wheels have),
     * and a seek of wheels_by_scan then read each wheel's row of `wheels`,
     * most of a 100,000-wheel database's pages (0.37 s against 0.09 s) */
    {"CREATE INDEX wheels_files ON wheels (project, version, variant, platform, filename);"},
    /* 10: the indexes the database trusts besides download.pytorch.org's
     * (db_indexes.c): a record's index URL reaches a command only from
     * one of them.  Empty when upgraded: nothing stored before says which
     * URLs its owner configured, and the next crawl registers them. */
    {"CREATE TABLE indexes (id TEXT NOT NULL, url TEXT NOT NULL, PRIMARY KEY (id, url))"
     " WITHOUT ROWID;"},
    /* 11: no new table; every derived row made anew from the records by
     * refill_derived, so that the same records give the same rows (and a
     * build the same bytes) however old the writer that stored them: the
     * steps of 4, 6 and 7 kept the code column as the writer of their day
     * had put it (its PTX ISAs in another order).  A later change to how a
     * column follows from a record adds a version with this step again. */
    {NULL},
};
/* clang-format on */

/* Version 8's backfill (version 2's, which version 8 redoes): the binaries
 * of the records already stored, from the records of wheels with code. */
int dbi_fill_binaries(struct db *db, struct wa_error *err)
{
    sqlite3_stmt *st = dbi_prep(db, "SELECT w.key, r.record FROM wheels w JOIN records r "
                                    "ON r.key = w.key WHERE w.code IS NOT NULL");
    if (!st)
        return dbi_sql_error(db, err, "cannot read records");
    int rc = 0, s;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(st, 0);
        const char *text = (const char *)sqlite3_column_text(st, 1);
        json_t *rec = text ? json_loads(text, 0, NULL) : NULL;
        /* a record that no longer passes the checks gets no rows: readers
         * skip its wheel with the checks' message */
        struct record r;
        if (rec && key && record_of_json(key, rec, &r, NULL) == 0) {
            rc = dbi_put_binaries(db, key, &r.binaries, err);
            record_free(&r);
        }
        json_decref(rec);
    }
    sqlite3_finalize(st);
    return rc;
}

/* Version 11's step (db_state.h): the records read in key order, a batch at
 * a time (rows are rewritten behind the reading statement, which SQLite
 * does not promise to leave alone), each stored anew as db_write_record
 * would.  A record that no longer passes the checks (or whose key is not
 * text: a hand edit) keeps its rows as they were. */
#define REFILL_BATCH 256 /* the LIMIT below */
int dbi_refill_derived(struct db *db, struct wa_error *err)
{
    sqlite3_stmt *st = dbi_prep(db, "SELECT key, record FROM records WHERE typeof(key) = 'text'"
                                    " AND key > ? ORDER BY key LIMIT 256"); /* BATCH */
    if (!st)
        return dbi_sql_error(db, err, "cannot read records");
    char *after = xstrdup("");
    char *keys[REFILL_BATCH], *texts[REFILL_BATCH];
    int rc = 0;
    for (;;) {
        size_t n = 0;
        sqlite3_reset(st);
        dbi_bind_text(st, 1, after);
        int s = SQLITE_DONE;
        while (n < REFILL_BATCH && (s = sqlite3_step(st)) == SQLITE_ROW) {
            keys[n] = dbi_col_dup(st, 0);
            texts[n] = dbi_col_dup(st, 1);
            n++;
        }
        if (s != SQLITE_ROW && s != SQLITE_DONE)
            rc = dbi_sql_error(db, err, "cannot read records");
        if (n > 0 && keys[n - 1]) {
            free(after);
            after = xstrdup(keys[n - 1]);
        }
        for (size_t i = 0; i < n; i++) {
            json_t *rec = rc == 0 && keys[i] && texts[i] ? json_loads(texts[i], 0, NULL) : NULL;
            struct record r;
            if (rec && record_of_json(keys[i], rec, &r, NULL) == 0) {
                char *text = record_text(rec);
                rc = dbi_store_record(db, keys[i], &r, text, err);
                free(text);
                record_free(&r);
            }
            json_decref(rec);
            free(keys[i]);
            free(texts[i]);
        }
        if (rc < 0 || n < REFILL_BATCH)
            break;
    }
    free(after);
    sqlite3_finalize(st);
    return rc;
}

/* Version 8's other backfill: requires from a JSON array to one
 * requirement per line (the triggers copy it into builds). */
int dbi_fill_requires(struct db *db, struct wa_error *err)
{
    sqlite3_stmt *st = dbi_prep(db, "SELECT key, requires FROM wheels WHERE requires IS NOT NULL");
    sqlite3_stmt *up = dbi_prep(db, "UPDATE wheels SET requires = ? WHERE key = ?");
    int rc = st && up ? 0 : dbi_sql_error(db, err, "cannot read requirements");
    int s;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(st, 0);
        const char *text = (const char *)sqlite3_column_text(st, 1);
        json_t *list = text ? json_loads(text, 0, NULL) : NULL;
        struct strbuf b = STRBUF_INIT;
        strbuf_adds(&b, "");
        size_t i;
        json_t *v;
        int ok = json_is_array(list);
        json_array_foreach(list, i, v)
        {
            const char *r = json_string_value(v);
            if (!r || strchr(r, '\n'))
                ok = 0;
            else
                strbuf_addf(&b, "%s%s", i ? "\n" : "", r);
        }
        sqlite3_reset(up);
        /* a list that is not one (a hand edit) reads as none */
        dbi_bind_text(up, 1, ok ? b.buf : NULL);
        dbi_bind_text(up, 2, key);
        if (sqlite3_step(up) != SQLITE_DONE)
            rc = dbi_sql_error(db, err, "cannot upgrade requirements");
        strbuf_free(&b);
        json_decref(list);
    }
    sqlite3_finalize(st);
    sqlite3_finalize(up);
    return rc;
}

/* Version 4's backfill: the new columns of the records already stored. */
int dbi_fill_columns(struct db *db, struct wa_error *err)
{
    sqlite3_stmt *st = dbi_prep(db, "SELECT key, record FROM wheels");
    sqlite3_stmt *up =
        dbi_prep(db, "UPDATE wheels SET (" COLUMNS ") = (" COLUMN_SLOTS ") WHERE key = ?");
    int rc = st && up ? 0 : dbi_sql_error(db, err, "cannot read records");
    int s;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
        const char *key = (const char *)sqlite3_column_text(st, 0);
        const char *text = (const char *)sqlite3_column_text(st, 1);
        json_t *rec = text ? json_loads(text, 0, NULL) : NULL;
        struct record r;
        /* A record that no longer passes the checks keeps its old columns:
         * readers skip it with the checks' message, as before. */
        if (rec && key && record_of_json(key, rec, &r, NULL) == 0) {
            sqlite3_reset(up);
            dbi_bind_columns(up, 1, &r);
            dbi_bind_text(up, NCOLUMNS + 1, key);
            if (sqlite3_step(up) != SQLITE_DONE)
                rc = dbi_sql_error(db, err, "cannot upgrade a record");
            record_free(&r);
        }
        json_decref(rec);
    }
    sqlite3_finalize(st);
    sqlite3_finalize(up);
    return rc;
}

/* Takes the database from version `from` to `to` in one transaction. */
int dbi_migrate(struct db *db, int from, int to, struct wa_error *err)
{
    int rc = dbi_exec(db, "BEGIN IMMEDIATE", err);
    if (rc < 0)
        return rc;
    /* Another process may have upgraded it while this one waited. */
    int now = from;
    if (dbi_pragma_int(db, "PRAGMA user_version", &now) < 0)
        rc = dbi_sql_error(db, err, "cannot read the schema version");
    else if (now < 0 || now > to)
        rc = wa_error_set(err, WA_ERR_FORMAT, "%s: schema version %d changed to %d meanwhile",
                          db->path, from, now);
    for (int v = now; rc == 0 && v < to; v++) {
        for (int k = 0; rc == 0 && k < MIGRATION_PARTS && migrations[v][k]; k++)
            rc = dbi_exec(db, migrations[v][k], err);
        if (rc == 0 && v + 1 == 8)
            rc = dbi_fill_binaries(db, err);
        if (rc == 0 && v + 1 == 8)
            rc = dbi_fill_requires(db, err);
        if (rc == 0 && v + 1 == 4)
            rc = dbi_fill_columns(db, err);
        if (rc == 0 && v + 1 == 11)
            rc = dbi_refill_derived(db, err);
    }
    if (rc == 0 && now < to) {
        char sql[96];
        snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d",
                 DB_APPLICATION_ID, to);
        rc = dbi_exec(db, sql, err);
    }
    if (rc == 0)
        rc = dbi_exec(db, "COMMIT", err);
    else
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

/* The schema (sqlite_schema: type, name, table, SQL) that wheelarch's
 * migrations give a database of `version`, one row per line. */
char *dbi_schema_text(sqlite3 *h)
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

char *dbi_reference_schema(int version)
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
            text = dbi_schema_text(h);
    }
    sqlite3_close_v2(h);
    return text;
}

/* 0 when a database from elsewhere has exactly the tables, columns and
 * indexes wheelarch made for its version: a view or anything else in place
 * of a table is refused before any of its rows is read. */
int dbi_check_schema(struct db *db, int version, struct wa_error *err)
{
    char *want = dbi_reference_schema(version);
    char *have = dbi_schema_text(db->h);
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
