/*
 * db_journal: failures and the journal (db.h): why a wheel could not be
 * recorded, and which wheels are being scanned right now.
 */
#ifndef WHEELARCH_DB_JOURNAL_H
#define WHEELARCH_DB_JOURNAL_H

#include <stddef.h>

#include "error.h"

struct db;

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

#endif
