/*
 * db_indexes: the indexes a database trusts (db.h), by their form
 * (download.pytorch.org's) or registered by the database's owner.
 */
#ifndef WHEELARCH_DB_INDEXES_H
#define WHEELARCH_DB_INDEXES_H

#include <stddef.h>

#include "error.h"

struct db;

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

#endif
