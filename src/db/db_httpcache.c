/*
 * db_httpcache: index pages kept with their validators (ETag,
 * Last-Modified) for conditional requests.
 */
#include <stdlib.h>
#include <string.h>

#include "db_state.h"
#include "db_httpcache.h"
#include "xalloc.h"

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
    sqlite3_stmt *st =
        dbi_prep(db, "SELECT final_url, etag, last_modified, content_type, body FROM "
                     "http_cache WHERE url = ?");
    int rc = -1;
    if (st) {
        dbi_bind_text(st, 1, url);
        if (sqlite3_step(st) == SQLITE_ROW) {
            e->final_url = dbi_col_dup(st, 0);
            e->etag = dbi_col_dup(st, 1);
            e->last_modified = dbi_col_dup(st, 2);
            e->content_type = dbi_col_dup(st, 3);
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
    sqlite3_stmt *st = dbi_prep(db, "INSERT OR REPLACE INTO http_cache (url, final_url, etag, "
                                    "last_modified, content_type, body) VALUES (?, ?, ?, ?, ?, ?)");
    int rc = 0;
    if (st) {
        dbi_bind_text(st, 1, url);
        dbi_bind_text(
            st, 2, nonempty(e->final_url) && strcmp(e->final_url, url) != 0 ? e->final_url : NULL);
        dbi_bind_text(st, 3, nonempty(e->etag));
        dbi_bind_text(st, 4, nonempty(e->last_modified));
        dbi_bind_text(st, 5, nonempty(e->content_type));
        sqlite3_bind_blob64(st, 6, e->body ? e->body : "", e->len, SQLITE_TRANSIENT);
    }
    if (!st || sqlite3_step(st) != SQLITE_DONE)
        rc = dbi_sql_error(db, err, "cannot store an index page");
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}
