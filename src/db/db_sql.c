/*
 * db_sql: statements (one-off and cached), bindings, errors and the write
 * transactions every file of db uses.
 */
#include <stdlib.h>
#include <string.h>

#include "db_state.h"
#include "wheelkey.h"
#include "xalloc.h"

int dbi_sql_error(struct db *db, struct wa_error *err, const char *what)
{
    const char *msg = db->h ? sqlite3_errmsg(db->h) : "out of memory";
    return wa_error_set(err, WA_ERR_IO, "%s: %s: %s", db->path, what, msg);
}

int dbi_exec(struct db *db, const char *sql, struct wa_error *err)
{
    int rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : dbi_sql_error(db, err, "cannot update the database");
}

sqlite3_stmt *dbi_prep(struct db *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
        return NULL;
    return st;
}

/* A statement of the write path, prepared once per connection: compiling
 * an INSERT into wheels compiles the triggers on it, which was half of
 * what an import or merge cost.  sql is a string constant, found by its
 * address.  The caller ends each use with dbi_done(), never finalizes. */
sqlite3_stmt *dbi_cached(struct db *db, const char *sql)
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
void dbi_done(sqlite3_stmt *st)
{
    if (st) {
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
    }
}

void dbi_bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

char *dbi_col_dup(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    return s ? xstrdup((const char *)s) : NULL;
}

int dbi_bad_key(const char *key, struct wa_error *err)
{
    char q[100];
    return wa_error_set(err, WA_ERR_USAGE, "\"%s\" is not a record key",
                        key ? wa_quote(q, sizeof q, key, 80) : "(null)");
}

/* Inside db_begin, whether SQLite rolled the whole transaction back by
 * itself (it does on a full disk, an I/O error or no memory): then every
 * later statement would run, and commit, on its own, so nothing more may
 * be written.  Returns 0, or WA_ERR_IO saying so. */
int dbi_tx_lost(struct db *db, struct wa_error *err)
{
    if (!db->in_tx || !sqlite3_get_autocommit(db->h))
        return 0;
    return wa_error_set(err, WA_ERR_IO,
                        "%s: the transaction was rolled back after an error of the database "
                        "(its disk full?); nothing of it was stored",
                        db->path);
}

/* A write of its own, or part of the caller's db_begin: a savepoint then. */
int dbi_tx_begin(struct db *db, struct wa_error *err)
{
    int rc = dbi_tx_lost(db, err);
    return rc < 0 ? rc : dbi_exec(db, db->in_tx ? "SAVEPOINT w" : "BEGIN IMMEDIATE", err);
}

int dbi_tx_end(struct db *db, int rc, struct wa_error *err)
{
    if (rc == 0)
        rc = dbi_exec(db, db->in_tx ? "RELEASE w" : "COMMIT", err);
    if (rc < 0)
        sqlite3_exec(db->h, db->in_tx ? "ROLLBACK TO w; RELEASE w" : "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

int dbi_pragma_int(struct db *db, const char *sql, int *out)
{
    sqlite3_stmt *st = dbi_prep(db, sql);
    int rc = st && sqlite3_step(st) == SQLITE_ROW ? 0 : -1;
    if (rc == 0)
        *out = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return rc;
}

/* The first column of every row of sql, in order. */
int dbi_list_keys(struct db *db, const char *sql, char ***keys, size_t *n, struct wa_error *err)
{
    *keys = NULL;
    *n = 0;
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = dbi_prep(db, sql);
    int rc = st ? 0 : dbi_sql_error(db, err, "cannot list");
    size_t cap = 0;
    int s;
    while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
        *keys = xgrow(*keys, &cap, *n + 1, sizeof **keys);
        (*keys)[(*n)++] = dbi_col_dup(st, 0);
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

/* One text column of the row of key in table, copied; NULL if absent. */
char *dbi_get_text(struct db *db, const char *sql, const char *key)
{
    if (!wheelkey_valid(key))
        return NULL;
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = dbi_cached(db, sql);
    char *out = NULL;
    if (st) {
        dbi_bind_text(st, 1, key);
        if (sqlite3_step(st) == SQLITE_ROW)
            out = dbi_col_dup(st, 0);
    }
    dbi_done(st);
    pthread_mutex_unlock(&db->mu);
    return out;
}
