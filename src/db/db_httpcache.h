/*
 * db_httpcache: the HTTP cache of index pages (db.h): validators and
 * body, by URL.
 */
#ifndef WHEELARCH_DB_HTTPCACHE_H
#define WHEELARCH_DB_HTTPCACHE_H

#include <stddef.h>

#include "error.h"

struct db;

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

#endif
