/*
 * db_state: what the files of db share.  Not for other modules.  They call
 * downwards only, in this order (each part's functions for other modules
 * are in its own header, gathered by db.h):
 *   db.c           opening (guards for databases from elsewhere), closing,
 *                  transactions, the journal's notes
 *   db_httpcache.c the HTTP cache of index pages
 *   db_journal.c   failures and the journal of scans in progress
 *   db_schema.c    the schema by version, migrations and their backfills,
 *                  the check of a database from elsewhere
 *   db_records.c   records: their columns, binaries and targets, reading
 *                  and listing them
 *   db_indexes.c   the indexes it trusts
 *   db_sql.c       statements, bindings, errors and write transactions
 */
#ifndef WHEELARCH_DB_STATE_H
#define WHEELARCH_DB_STATE_H

#include <jansson.h>
#include <pthread.h>
#include <sqlite3.h>

#include "error.h"
#include "recbinary.h"
#include "record.h"

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

/* The columns of a record (struct record), in bind_columns' order. */
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

int dbi_sql_error(struct db *db, struct wa_error *err, const char *what);
int dbi_exec(struct db *db, const char *sql, struct wa_error *err);
sqlite3_stmt *dbi_prep(struct db *db, const char *sql);
sqlite3_stmt *dbi_cached(struct db *db, const char *sql);
void dbi_done(sqlite3_stmt *st);
void dbi_bind_text(sqlite3_stmt *st, int i, const char *s);
char *dbi_col_dup(sqlite3_stmt *st, int i);
int dbi_bad_key(const char *key, struct wa_error *err);
int dbi_tx_lost(struct db *db, struct wa_error *err);
int dbi_tx_begin(struct db *db, struct wa_error *err);
int dbi_tx_end(struct db *db, int rc, struct wa_error *err);
int dbi_pragma_int(struct db *db, const char *sql, int *out);
char *dbi_get_text(struct db *db, const char *sql, const char *key);
int dbi_list_keys(struct db *db, const char *sql, char ***keys, size_t *n, struct wa_error *err);
int dbi_put_binaries(struct db *db, const char *key, const struct recbinaries *bins,
                     struct wa_error *err);
void dbi_bind_int_or_null(sqlite3_stmt *st, int i, long long v, int known);
void dbi_bind_columns(sqlite3_stmt *st, int at, const struct record *r);
/* Stores a checked record with its text: its wheels row (the triggers keep
 * builds and meta), the record, its binaries and targets, each replacing
 * what was there.  Inside the caller's transaction. */
int dbi_store_record(struct db *db, const char *key, const struct record *r, const char *text,
                     struct wa_error *err);
int dbi_fill_binaries(struct db *db, struct wa_error *err);
/* Version 11's step: every derived row (wheels' columns, binaries,
 * targets, builds, the record's text) made anew from the records, by
 * today's writer. */
int dbi_refill_derived(struct db *db, struct wa_error *err);
int dbi_fill_columns(struct db *db, struct wa_error *err);
int dbi_fill_requires(struct db *db, struct wa_error *err);
int dbi_migrate(struct db *db, int from, int to, struct wa_error *err);
char *dbi_schema_text(sqlite3 *h);
char *dbi_reference_schema(int version);
int dbi_check_schema(struct db *db, int version, struct wa_error *err);

#endif
