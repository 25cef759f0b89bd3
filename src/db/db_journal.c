/*
 * db_journal: failures (why a wheel could not be recorded) and the journal
 * (a note per wheel being scanned, left behind by a run that died).
 */
#include <stdlib.h>
#include <string.h>

#include "db_state.h"
#include "db_journal.h"
#include "jsontext.h"
#include "wheelkey.h"
#include "xalloc.h"
/* ---- failures and the journal ------------------------------------------- */

/* Stores v as JSON under key in table (failures or journal); then runs
 * `also` (may be NULL) with the key, in the same transaction. */
static int put_json(struct db *db, const char *sql, const char *also, const char *key, json_t *v,
                    struct wa_error *err)
{
    if (!wheelkey_valid(key))
        return dbi_bad_key(key, err);
    char *text = jsontext_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    pthread_mutex_lock(&db->mu);
    int rc = dbi_tx_begin(db, err);
    if (rc == 0) {
        sqlite3_stmt *st = dbi_prep(db, sql);
        if (st) {
            dbi_bind_text(st, 1, key);
            dbi_bind_text(st, 2, text);
        }
        if (!st || sqlite3_step(st) != SQLITE_DONE)
            rc = dbi_sql_error(db, err, "cannot write");
        sqlite3_finalize(st);
        if (rc == 0 && also) {
            st = dbi_prep(db, also);
            if (st)
                dbi_bind_text(st, 1, key);
            if (!st || sqlite3_step(st) != SQLITE_DONE)
                rc = dbi_sql_error(db, err, "cannot write");
            sqlite3_finalize(st);
        }
        rc = dbi_tx_end(db, rc, err);
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
    sqlite3_stmt *st = dbi_prep(db, sql);
    if (st) {
        dbi_bind_text(st, 1, key);
        sqlite3_step(st);
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
}

static json_t *get_json(struct db *db, const char *sql, const char *key)
{
    char *text = dbi_get_text(db, sql, key);
    json_t *v = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    return v;
}

int db_failure_put(struct db *db, const char *key, const struct db_failure *f, struct wa_error *err)
{
    json_t *o = json_object();
    json_object_set_new(o, "key", json_string(key));
    json_object_set_new(o, "url", jsontext_str_or_null(f->url));
    json_object_set_new(o, "filename", jsontext_str_or_null(f->filename));
    json_object_set_new(o, "error", jsontext_str_or_null(f->error));
    json_object_set_new(o, "http_status",
                        f->http_status ? json_integer(f->http_status) : json_null());
    json_object_set_new(o, "failed_at", jsontext_str_or_null(f->failed_at));
    json_object_set_new(o, "runs", json_integer(f->runs));
    json_object_set_new(o, "kind", jsontext_str_or_null(f->kind));
    json_object_set_new(o, "isolated_stops", json_integer(f->isolated_stops));
    json_object_set_new(o, "wheelarch_version", jsontext_str_or_null(f->wheelarch_version));
    int rc = put_json(db, "INSERT OR REPLACE INTO failures (key, failure) VALUES (?, ?)",
                      "DELETE FROM journal WHERE key = ?", key, o, err);
    json_decref(o);
    return rc;
}

static json_t *read_failure(struct db *db, const char *key)
{
    return get_json(db, "SELECT failure FROM failures WHERE key = ?", key);
}

int db_journal_begin(struct db *db, const char *key, const struct db_note *n, struct wa_error *err)
{
    json_t *o = json_object();
    json_object_set_new(o, "key", json_string(key));
    json_object_set_new(o, "url", jsontext_str_or_null(n->url));
    json_object_set_new(o, "filename", jsontext_str_or_null(n->filename));
    json_object_set_new(o, "pid", json_integer(n->pid));
    json_object_set_new(o, "started", jsontext_str_or_null(n->started));
    json_object_set_new(o, "isolated", json_boolean(n->isolated));
    json_object_set_new(o, "wheelarch_version", jsontext_str_or_null(n->wheelarch_version));
    int rc =
        put_json(db, "INSERT OR REPLACE INTO journal (key, note) VALUES (?, ?)", NULL, key, o, err);
    json_decref(o);
    return rc;
}

void db_journal_end(struct db *db, const char *key)
{
    delete_key(db, "DELETE FROM journal WHERE key = ?", key);
}

int db_journal_list(struct db *db, char ***keys, size_t *n, struct wa_error *err)
{
    int rc = dbi_list_keys(db, "SELECT key FROM journal ORDER BY key", keys, n, err);
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

static json_t *read_note(struct db *db, const char *key)
{
    return get_json(db, "SELECT note FROM journal WHERE key = ?", key);
}

/* o's string under k, owned; NULL when absent or not a string. */
static char *str_of(json_t *o, const char *k)
{
    return xstrdup_or_null(json_string_value(json_object_get(o, k)));
}

static long long count_of(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_integer(v) && json_integer_value(v) > 0 ? (long long)json_integer_value(v) : 0;
}

int db_failure_get(struct db *db, const char *key, struct db_failure *f)
{
    memset(f, 0, sizeof *f);
    json_t *o = read_failure(db, key);
    if (!json_is_object(o)) {
        json_decref(o);
        return 0;
    }
    f->url = str_of(o, "url");
    f->filename = str_of(o, "filename");
    f->error = str_of(o, "error");
    f->http_status = (long)count_of(o, "http_status");
    f->failed_at = str_of(o, "failed_at");
    f->kind = str_of(o, "kind");
    f->wheelarch_version = str_of(o, "wheelarch_version");
    f->runs = count_of(o, "runs");
    f->isolated_stops = count_of(o, "isolated_stops");
    json_decref(o);
    return 1;
}

void db_failure_free(struct db_failure *f)
{
    free(f->url);
    free(f->filename);
    free(f->error);
    free(f->failed_at);
    free(f->kind);
    free(f->wheelarch_version);
    memset(f, 0, sizeof *f);
}

int db_note_get(struct db *db, const char *key, struct db_note *n)
{
    memset(n, 0, sizeof *n);
    json_t *o = read_note(db, key);
    if (!json_is_object(o)) {
        json_decref(o);
        return 0;
    }
    n->url = str_of(o, "url");
    n->filename = str_of(o, "filename");
    n->wheelarch_version = str_of(o, "wheelarch_version");
    n->pid = count_of(o, "pid");
    n->started = str_of(o, "started");
    n->isolated = json_is_true(json_object_get(o, "isolated"));
    json_decref(o);
    return 1;
}

void db_note_free(struct db_note *n)
{
    free(n->url);
    free(n->filename);
    free(n->wheelarch_version);
    free(n->started);
    memset(n, 0, sizeof *n);
}
