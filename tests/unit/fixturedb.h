/*
 * fixturedb: a fresh database in WORK/cache holding the records of the
 * fixture folders or JSON-lines files given (db import of each), for the
 * unit tests that check invariants over the fixture's data.  A database of
 * an earlier run is removed first.
 */
#ifndef WHEELARCH_TEST_FIXTUREDB_H
#define WHEELARCH_TEST_FIXTUREDB_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "dbmerge.h"
#include "fsutil.h"

static void fixturedb_refused(void *ud, const char *what, const char *why)
{
    (void)ud;
    fprintf(stderr, "import refused %s: %s\n", what, why);
}

/* The cache folder (caller frees), or NULL with the reason printed. */
static inline char *fixturedb_make(const char *work, const char *const *sources, size_t n)
{
    char *cache = fsutil_join(work, "cache");
    fsutil_mkdirs(cache, NULL);
    for (const char *const *x = (const char *const[]){"", "-wal", "-shm", NULL}; *x; x++) {
        char *f = fsutil_join(cache, DB_FILE);
        char *g = malloc(strlen(f) + 8);
        sprintf(g, "%s%s", f, *x);
        remove(g); /* a database of an earlier run */
        free(g);
        free(f);
    }
    struct db *db = NULL;
    struct dbmerge_stats st;
    struct wa_error err = {0};
    int rc = db_open(cache, 0, &db, &err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = db_import(db, sources[i], &st, fixturedb_refused, NULL, NULL, &err);
        if (rc < 0)
            fprintf(stderr, "import %s: %s\n", sources[i], err.msg);
    }
    if (db)
        db_close(db);
    if (rc < 0) {
        fprintf(stderr, "fixture database in %s: %s\n", cache, err.msg);
        free(cache);
        return NULL;
    }
    return cache;
}

#endif
