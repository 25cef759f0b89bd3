/*
 * db_indexes: the indexes a database trusts, the only ones whose URL a
 * record may carry into a command (db.h, "indexes").
 *
 * download.pytorch.org's own indexes are trusted by their form alone; any
 * other is trusted once this database's owner registered it: a crawl
 * registers the indexes it is configured with, `db import` and `merge`
 * those of the configuration they are given.  A record of an index
 * neither declared nor registered is refused when written, and a build
 * leaves such a row out (a database older than the table).
 */
#include "db_state.h"
#include "db_indexes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "indexurl.h"
#include "recordcheck.h"
#include "xalloc.h"

static const char PYTORCH_ROOT[] = INDEXURL_PYTORCH_ROOT;

int db_index_declared(const char *id, const char *url)
{
    size_t root = sizeof PYTORCH_ROOT - 1;
    if (!url || strncmp(url, PYTORCH_ROOT, root) != 0 || !indexurl_valid(url))
        return 0;
    const char *rest = url + root;
    if (strncmp(rest, "nightly/", 8) == 0)
        rest += 8;
    else if (strncmp(rest, "test/", 5) == 0)
        rest += 5;
    size_t n = strcspn(rest, "/");
    if (n == 0 || (rest[n] && strcmp(rest + n, "/") != 0))
        return 0;
    return !id || (strlen(id) == n && strncmp(rest, id, n) == 0);
}

/* The URL as stored: with its trailing '/'. */
static char *stored_form(const char *url)
{
    size_t n = strlen(url);
    return n && url[n - 1] == '/' ? xstrdup(url) : xasprintf("%s/", url);
}

int db_register_index(struct db *db, const char *id, const char *url, struct wa_error *err)
{
    if (!id || !*id || !indexurl_valid(url))
        return wa_error_set(err, WA_ERR_FORMAT, "index %s: not an index id and URL",
                            id && *id ? id : "(no id)");
    if (db->version < 10)
        return 0; /* a database read as it is (DB_ANY_VERSION) has no table to write */
    char *u = stored_form(url);
    pthread_mutex_lock(&db->mu);
    int rc = dbi_tx_begin(db, err);
    if (rc == 0) {
        sqlite3_stmt *st = dbi_cached(db, "INSERT OR IGNORE INTO indexes (id, url) VALUES (?, ?)");
        if (st) {
            dbi_bind_text(st, 1, id);
            dbi_bind_text(st, 2, u);
        }
        if (!st || sqlite3_step(st) != SQLITE_DONE)
            rc = dbi_sql_error(db, err, "cannot register an index");
        dbi_done(st);
        rc = dbi_tx_end(db, rc, err);
    }
    pthread_mutex_unlock(&db->mu);
    free(u);
    return rc;
}

int db_index_registered(struct db *db, const char *id, const char *url)
{
    if (!url || db->version < 10)
        return 0;
    char *u = stored_form(url);
    /* the handle is shared by a crawl's workers and has no lock of its
     * own (SQLITE_OPEN_NOMUTEX): every use is under db->mu */
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = dbi_cached(db, id ? "SELECT 1 FROM indexes WHERE id = ? AND url = ?"
                                         : "SELECT 1 FROM indexes WHERE url = ?2");
    int found = 0;
    if (st) {
        if (id)
            dbi_bind_text(st, 1, id);
        dbi_bind_text(st, 2, u);
        found = sqlite3_step(st) == SQLITE_ROW;
    }
    dbi_done(st);
    pthread_mutex_unlock(&db->mu);
    free(u);
    return found;
}

int db_index_trusted(struct db *db, const char *id, const char *url)
{
    if (!url)
        return 1; /* the view gives such a row download.pytorch.org's URL of its variant */
    if (!indexurl_valid(url))
        return 0;
    return db_index_declared(id, url) || db_index_registered(db, id, url);
}

int db_each_index(struct db *db, int (*fn)(void *ud, const char *id, const char *url), void *ud,
                  struct wa_error *err)
{
    if (db->version < 10)
        return 0;
    /* read whole under the lock, then handed out: fn may use the database */
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = dbi_prep(db, "SELECT id, url FROM indexes ORDER BY id, url");
    if (!st) {
        int rc = dbi_sql_error(db, err, "cannot read the registered indexes");
        pthread_mutex_unlock(&db->mu);
        return rc;
    }
    char **pairs = NULL;
    size_t n = 0, cap = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(st, 0);
        const char *url = (const char *)sqlite3_column_text(st, 1);
        if (!id || !url)
            continue;
        pairs = xgrow(pairs, &cap, n + 2, sizeof *pairs);
        pairs[n++] = xstrdup(id);
        pairs[n++] = xstrdup(url);
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    int rc = 0;
    for (size_t i = 0; i + 1 < n; i += 2) {
        if (rc == 0)
            rc = fn(ud, pairs[i], pairs[i + 1]);
        free(pairs[i]);
        free(pairs[i + 1]);
    }
    free(pairs);
    return rc;
}

void db_index_untrusted_text(const char *id, const char *url, char *buf, size_t n)
{
    char redacted[INDEXURL_MAX + 1], shown[512], ids[160];
    indexurl_redact(url ? url : "", redacted, sizeof redacted);
    recordcheck_quote(shown, sizeof shown, redacted, 200);
    recordcheck_quote(ids, sizeof ids, id ? id : "(none)", 100);
    if (url && !indexurl_valid(url)) {
        char *clean = NULL, *ui = NULL;
        struct wa_error e;
        if (indexurl_split(url, &clean, &ui, &e) == 0)
            snprintf(e.msg, sizeof e.msg,
                     "it holds user info (user:password@), which is never "
                     "stored");
        free(clean);
        free(ui);
        snprintf(buf, n, "index_url \"%s\" is not an index URL: %s", shown, e.msg);
        return;
    }
    snprintf(
        buf, n,
        "index_url \"%s\" is neither download.pytorch.org's index %s nor one this database was "
        "configured with under that id (a crawl registers the indexes of its wheelarch.json; "
        "db import and merge register those of --config FILE)",
        shown, ids);
}
