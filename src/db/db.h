/*
 * db: the compatibility database, one SQLite file: DIR/wheelarch.db
 * (cache/wheelarch.db by default).  docs/database.md documents its schema.
 *
 *   wheels       one row per wheel: the columns derived from its record
 *                (identity, status, target unions, the project's own GPU
 *                code), indexed by project, version, variant and platform
 *   records      the record of each wheel (JSON, see record.h), apart so
 *                that scans of wheels read small rows
 *   binaries     one row per binary of a scanned wheel
 *   targets      one row per (binary, GPU target): modules, entries,
 *                bytes, codecs, PTX ISA
 *   failures     the last failure of a wheel, retried on the next crawl
 *   journal      the wheels being scanned right now: a row is written
 *                before a scan starts and removed in the transaction that
 *                stores the wheel's record or failure, so a row found by
 *                the next crawl (crawls of one database take turns, see
 *                lockfile.h) names a wheel whose scan crashed, hung or was
 *                killed
 *   http_cache   validators (ETag, Last-Modified) and body of index pages
 *
 * The file is in WAL mode: readers (build, query) never wait for a crawl,
 * and each wheel is stored in one transaction as soon as it is done, so a
 * kill at any moment loses at most the wheels being scanned.  Other
 * writers wait up to DB_BUSY_MS for a lock.  PRAGMA user_version holds the
 * schema version; db_open upgrades an older database in place (forward
 * migrations, one transaction) and refuses a newer one.
 *
 * A struct db is used by one thread at a time or guarded by the caller;
 * crawl guards it with its own lock.  Records are written as a struct
 * record, which only record_of_json makes, checking the JSON it comes
 * from, and record_of_scan, holding a scan's values to the same rules as
 * it makes a scanned wheel's: nothing invalid enters the database.
 *
 * db.h is the whole of it: opening, closing and transactions here, and
 * the parts each in its own header: the schema's version (db_schema.h),
 * records (db_records.h), trusted indexes (db_indexes.h), failures and
 * the journal (db_journal.h), the HTTP cache (db_httpcache.h).
 */
#ifndef WHEELARCH_DB_H
#define WHEELARCH_DB_H

#include <jansson.h>
#include <stddef.h>

#include "db_httpcache.h"
#include "db_indexes.h"
#include "db_journal.h"
#include "db_records.h"
#include "db_schema.h"
#include "error.h"

#define DB_FILE "wheelarch.db"
#define DB_BUSY_MS 60000

struct db;

enum db_open_flags {
    DB_READONLY = 1,    /* no writes; a missing database is an error (WA_ERR_IO) */
    DB_ANY_VERSION = 2, /* with DB_READONLY: an older schema is fine too (only
                         * db_each_record may be used then: merge inputs) */
    DB_FOREIGN = 4      /* a database from elsewhere (a merge input), untrusted:
                         * read-only and older schemas as above; the file and
                         * its -wal are never written (opened immutable, or a
                         * private copy read when its -wal holds changes); its
                         * schema must be exactly wheelarch's for its version;
                         * no view, trigger or extension runs; values are at
                         * most 64 MiB and the work of all reads is bounded by
                         * the file's size */
};

/* The folder under which a database from elsewhere (DB_FOREIGN) is copied
 * before it is read (a folder of its own, removed on close); NULL or ""
 * for /tmp.  The program sets it once, before any database is opened
 * (wheelarch passes $TMPDIR): the core reads no environment itself. */
void db_set_temp_root(const char *dir);

/* Opens DIR/wheelarch.db, creating the folder and the database unless
 * DB_READONLY, and upgrading its schema.  DB_READONLY works where nothing
 * may be written (a read-only file, folder or mount), unless its -wal file
 * holds changes (then one line says so).  A file that is not a wheelarch
 * database, is damaged, or was made by a newer wheelarch is refused with
 * one line naming it.  Caller frees with db_close. */
int db_open(const char *dir, int flags, struct db **out, struct wa_error *err);
/* Opens the database file `path` itself (merge inputs, tests). */
int db_open_file(const char *path, int flags, struct db **out, struct wa_error *err);
void db_close(struct db *db);
/* The database file's path. */
const char *db_path(const struct db *db);
/* Whether DIR/wheelarch.db exists. */
int db_exists(const char *dir);

/* PRAGMA integrity_check: 0 when clean, else WA_ERR_FORMAT with its first
 * complaint. */
int db_check(struct db *db, struct wa_error *err);

/* Transactions around several writes (import, merge); the single writes
 * below open their own when none is open. */
int db_begin(struct db *db, struct wa_error *err);
int db_commit(struct db *db, struct wa_error *err);
void db_rollback(struct db *db);
/* Inside db_begin: a savepoint, and its release or rollback (nested
 * savepoints are fine). */
int db_savepoint(struct db *db, struct wa_error *err);
int db_release(struct db *db, struct wa_error *err);
void db_rollback_to(struct db *db);

/* Calls fn with every row of the journal (table "journal", its note) and
 * then of failures ("failures", the failure), each in key order, as
 * stored: the caller checks them (a merge input's are untrusted). */
int db_each_note(struct db *db,
                 int (*fn)(void *ud, const char *table, const char *key, const char *json,
                           struct wa_error *err),
                 void *ud, struct wa_error *err);
/* Removes the failures and journal rows of wheels that have a record. */
int db_settle_notes(struct db *db, struct wa_error *err);

/* Writes JSON to a string the way the database's exports do (sorted keys,
 * two-space indentation, trailing newline); caller frees. */
char *db_dump(json_t *v);

/* Test hook: creates `path` as a database of schema version `version`
 * (1 ≤ version ≤ DB_SCHEMA_VERSION), so upgrades can be tested. */
int db_create_at_version(const char *path, int version, struct wa_error *err);

#endif
