/*
 * db_records: the records of the database (db.h): whether a wheel has
 * one, reading and writing it, what the crawl's plan decides by, and
 * walks over its wheels, builds, versions and records.
 */
#ifndef WHEELARCH_DB_RECORDS_H
#define WHEELARCH_DB_RECORDS_H

#include <jansson.h>
#include <stddef.h>

#include "error.h"
#include "recbinary.h"
#include "record.h"

struct db;

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
/* Reads the record of key from its columns and rows, as the struct
 * db_write_record stored (record_of_row, with its binaries, checked).
 * Returns 0, or an error (a missing record is WA_ERR_IO, a row a hand
 * edit broke WA_ERR_FORMAT); out is then empty.  Free with record_free. */
int db_get_record(struct db *db, const char *key, struct record *out, struct wa_error *err);
/* The binaries of the wheel key (none when it has no rows), checked
 * (recbinary_wrong).  Returns 0 with *why NULL, or 0 with *why saying why
 * the rows cannot be used (out is then empty), or an error.  Free out with
 * recbinaries_free. */
int db_read_binaries(struct db *db, const char *key, struct recbinaries *out, const char **why,
                     struct wa_error *err);

/* Stores r as the record of r->key, replacing any, and removes the
 * wheel's failure and journal rows, in one transaction.  r is made by
 * record_of_json or record_of_scan, which checked it: the columns and rows written from r
 * are what every reader reads.  text is the record as it came
 * (record_text), kept beside them for `db export` and the schema's
 * backfills.  A record of an index the database does not trust
 * (db_index_trusted) is refused with WA_ERR_FORMAT, naming its index_url.
 * Borrows both. */
int db_write_record(struct db *db, const struct record *r, const char *text, struct wa_error *err);
/* Number of records. */
size_t db_count_records(struct db *db);

/* Calls fn for every wheel in key order; an error fn returns stops the
 * walk and is returned. */
int db_each_wheel(struct db *db, int (*want)(void *ud, const char *project, const char *version),
                  int (*fn)(void *ud, const struct record_row *w, struct wa_error *err), void *ud,
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

#endif
