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
 * crawl guards it with its own lock.  Records written are checked first
 * (record_of_json): nothing invalid enters the database.
 */
#ifndef WHEELARCH_DB_H
#define WHEELARCH_DB_H

#include <jansson.h>
#include <stddef.h>

#include "error.h"
#include "recbinary.h"

#define DB_FILE "wheelarch.db"
#define DB_SCHEMA_VERSION 11
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

/* ---- records ----------------------------------------------------------- */

int db_has_record(struct db *db, const char *key);
/* Calls fn with the requires_dist list (one per line) of every scanned wheel
 * whose record has one. */
int db_each_requirement_list(struct db *db,
                             int (*fn)(void *ud, const char *key, const char *requires,
                                       struct wa_error *err),
                             void *ud, struct wa_error *err);
/* Whether any wheel of a project (normalised) and public version is stored. */
int db_has_version(struct db *db, const char *project, const char *version);
/* The status of the record of key ("scanned"/"inferred", static), or NULL. */
const char *db_record_status(struct db *db, const char *key);
/* What the crawl's plan decides by about a stored record, from its
 * columns (no record text parsed).  Strings owned, NULL where it has none. */
struct db_known {
    int scanned;         /* status "scanned"; else "inferred" */
    char *url;           /* where it was read (NULL when it names none) */
    int sha256_verified; /* -1 when not said, else 0 or 1 */
    char *inferred_from; /* the key of the record it was inferred from */
    int lists_binaries;  /* it lists its binaries (an inferred record may
                          * not: its source's stand for it) */
};
/* 1 with *k filled when key has a record, else 0 (*k empty).  Free with
 * db_known_free. */
int db_known_get(struct db *db, const char *key, struct db_known *k);
void db_known_free(struct db_known *k);
/* Reads a record; returns 0 and a new reference, or an error (a missing
 * record is WA_ERR_IO). */
int db_read_record(struct db *db, const char *key, json_t **rec, struct wa_error *err);
/* The binaries of the wheel key (none when it has no rows), checked
 * (recbinary_wrong).  Returns 0 with *why NULL, or 0 with *why saying why
 * the rows cannot be used (out is then empty), or an error.  Free out with
 * recbinaries_free. */
int db_read_binaries(struct db *db, const char *key, struct recbinaries *out, const char **why,
                     struct wa_error *err);
/* ---- the indexes it trusts (db_indexes.c) ----------------------------- */

/* A record's index URL reaches a command only when the database trusts
 * it: download.pytorch.org's index of the record's id
 * (https://download.pytorch.org/whl/[nightly/|test/]ID/) by its form
 * alone, any other once registered under that id by the database's owner
 * (a crawl registers its configured indexes; db import and merge those of
 * the configuration they are given).  Every URL passes indexurl's grammar
 * first. */
int db_index_declared(const char *id, const char *url);
/* Registers (id, url) as trusted; 0, or an error (a URL outside the
 * grammar, a full disk). */
int db_register_index(struct db *db, const char *id, const char *url, struct wa_error *err);
/* Whether (id, url) is registered; id NULL: under any id. */
int db_index_registered(struct db *db, const char *id, const char *url);
/* Whether a record of index id may carry url (NULL url: yes, the view
 * names download.pytorch.org's index of its variant). */
int db_index_trusted(struct db *db, const char *id, const char *url);
/* Calls fn with each registered index, by id and URL; stops at its first
 * non-zero return, which is returned. */
int db_each_index(struct db *db, int (*fn)(void *ud, const char *id, const char *url), void *ud,
                  struct wa_error *err);
/* Why (id, url) is not trusted, one line into buf (n bytes; the URL's user
 * info never shown, control characters escaped). */
void db_index_untrusted_text(const char *id, const char *url, char *buf, size_t n);

/* Checks and stores rec as the record of key, replacing any, and removes
 * the wheel's failure and journal rows, in one transaction.  A record of
 * an index the database does not trust (db_index_trusted) is refused with
 * WA_ERR_FORMAT, naming its index_url. */
int db_write_record(struct db *db, const char *key, json_t *rec, struct wa_error *err);
/* Number of records. */
size_t db_count_records(struct db *db);
/* One row of `wheels` as db_each_wheel hands it out; strings are borrowed
 * for the call and NULL where the record has none. */
struct db_wheel {
    const char *key, *status, *project, *version, *variant, *platform;
    const char *scanned_at, *inferred_from, *index_url, *wheelarch_version;
    const char *code; /* recbinaries_code's text, or NULL */
    /* the wheel's line (struct record_wheel's fields) */
    const char *filename, *url, *sha256, *upload_time, *requires_python, *yanked_reason;
    long long size;      /* -1 when unknown */
    int sha256_verified; /* -1 when unknown, else 0 or 1 */
    int yanked;
    const char *indexes;          /* ids of the indexes listing it, space-separated */
    const char *variant_source;   /* how the variant was decided, or NULL */
    const char *sass, *ptx, *gfx; /* the record's unions, space-separated */
    const char *requires;         /* its Requires-Dist, one per line, or NULL */
    /* the binaries of a wheel with code (those crawl scanned), read and
     * checked (recbinary_wrong); NULL when it has none, or when they fail
     * the check: then binaries_wrong says why.  fn may take them (move the
     * struct's contents out and leave it zeroed). */
    struct recbinaries *binaries;
    const char *binaries_wrong;
};

/* Calls fn for every wheel in key order; an error fn returns stops the
 * walk and is returned. */
int db_each_wheel(struct db *db, int (*want)(void *ud, const char *project, const char *version),
                  int (*fn)(void *ud, const struct db_wheel *w, struct wa_error *err), void *ud,
                  struct wa_error *err);
/* One row of `builds`: the wheel whose code stands for a (project,
 * version, variant, platform), as db_each_build hands it out (borrowed). */
struct db_build {
    const char *project, *version, *variant, *platform;
    const char *best, *status; /* the wheel's key and status */
    const char *scanned_at;    /* the newest scan date of the group */
    const char *inferred_from, *index_url, *wheelarch_version, *code;
    const char *requires;  /* the wheel's Requires-Dist, one per line, or NULL */
    const char *filenames; /* every wheel's file name in the group, one per line;
                            * NULL where want_files said no */
};

/* Calls fn for every build, in (project, version, variant, platform)
 * order: one row per group, however many wheels it has.  The file names
 * of a build's wheels are read (from an index alone, wheels_files) for the
 * builds want_files says yes to, or for all when want_files is NULL: a
 * caller that keeps a few builds does not pay for the others' wheels. */
int db_each_build(struct db *db, int (*want_files)(void *ud, const struct db_build *b),
                  int (*fn)(void *ud, const struct db_build *b, struct wa_error *err), void *ud,
                  struct wa_error *err);

/* Calls fn for every (project, version) with a build, once each, in that
 * order (the strings are borrowed). */
int db_each_version(struct db *db,
                    int (*fn)(void *ud, const char *project, const char *version,
                              struct wa_error *err),
                    void *ud, struct wa_error *err);

/* What tells one state of the database from another: its id (made with
 * it) and the number of changes to its wheels so far.  id has room for 64
 * characters. */
int db_state(struct db *db, char id[65], long long *changes, struct wa_error *err);

/* Calls fn with every record's key and JSON text, in key order. */
int db_each_record(struct db *db,
                   int (*fn)(void *ud, const char *key, const char *record, struct wa_error *err),
                   void *ud, struct wa_error *err);
/* The code column of key (caller frees), or NULL. */
char *db_record_code(struct db *db, const char *key);

/* ---- failures and the journal ------------------------------------------ */

/* Why a wheel could not be recorded.  Read back, strings are owned and
 * NULL where the failure says none, the numbers 0 when absent; written,
 * they are borrowed. */
struct db_failure {
    char *url, *filename, *error;
    long http_status; /* the HTTP status that ended it, 0 when none */
    char *failed_at;  /* the day, "YYYY-MM-DD", or NULL */
    char *kind;       /* NULL (ordinary), "unfinished", "crashed", "sha256" */
    char *wheelarch_version;
    long long runs, isolated_stops;
};
/* Stores f as the failure of key, and removes its journal row (one
 * transaction).  The failure's JSON (a failures row, as `db import` and
 * `merge` read it) is written here only. */
int db_failure_put(struct db *db, const char *key, const struct db_failure *f,
                   struct wa_error *err);
/* 1 with *f filled when key has a failure, else 0 (*f empty).  Free with
 * db_failure_free. */
int db_failure_get(struct db *db, const char *key, struct db_failure *f);
void db_failure_free(struct db_failure *f);

/* A journal note: the wheel a run was scanning.  Owned when read back,
 * borrowed when written. */
struct db_note {
    char *url, *filename, *wheelarch_version; /* or NULL */
    long long pid;                            /* the run's process, 0 when not said */
    char *started;                            /* the day it began, or NULL */
    int isolated;                             /* scanned alone, in a child */
};
/* Notes that the wheel `key` is being scanned (its journal row's JSON is
 * written here only). */
int db_journal_begin(struct db *db, const char *key, const struct db_note *n, struct wa_error *err);
/* Removes the note (after the record or failure was written). */
void db_journal_end(struct db *db, const char *key);
/* Keys noted in the journal, sorted; caller frees each and the array. */
int db_journal_list(struct db *db, char ***keys, size_t *n, struct wa_error *err);
/* 1 with *n filled when key has a note, else 0 (*n empty). */
int db_note_get(struct db *db, const char *key, struct db_note *n);
void db_note_free(struct db_note *n);

/* ---- the HTTP cache ---------------------------------------------------- */

struct db_http_entry {
    char *final_url; /* the URL that answered, after redirects (NULL: the same) */
    char *etag;
    char *last_modified;
    char *content_type;
    char *body;
    size_t len;
};

/* Loads the cached page of url; returns 0 if present. */
int db_http_load(struct db *db, const char *url, struct db_http_entry *e);
int db_http_store(struct db *db, const char *url, const struct db_http_entry *e,
                  struct wa_error *err);
void db_http_entry_free(struct db_http_entry *e);

/* Writes JSON to a string the way the database's exports do (sorted keys,
 * two-space indentation, trailing newline); caller frees. */
char *db_dump(json_t *v);

/* Test hook: creates `path` as a database of schema version `version`
 * (1 ≤ version ≤ DB_SCHEMA_VERSION), so upgrades can be tested. */
int db_create_at_version(const char *path, int version, struct wa_error *err);

#endif
