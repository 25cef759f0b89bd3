/*
 * db: the database folder (cache/ by default).
 *
 *   records/<key>.json   one record per wheel, key = the wheel's sha256, or
 *                        "url-" + sha256 of its URL when the index gives no
 *                        hash; written atomically as soon as the wheel is done
 *   failed/<key>.json    the last failure of a wheel, retried on the next run
 *   http/<hash>.json     validators (ETag, Last-Modified) of a cached index
 *   http/<hash>.body     page and its body, for conditional GETs
 *   journal/<key>.json   a wheel being scanned right now: written before its
 *                        scan starts and removed once its record or failure
 *                        is stored, so an entry found by the next run (the
 *                        crawl holds the folder's lock, so no other run is
 *                        alive) names a wheel whose scan crashed, hung or
 *                        was killed
 *
 * Records are independent files, so the databases of several crawl shards
 * merge by copying their records/ folders together.  Every write is atomic
 * (fsutil_write_atomic); JSON is written with sorted keys so equal data
 * gives equal bytes.
 */
#ifndef WHEELARCH_DB_H
#define WHEELARCH_DB_H

#include <jansson.h>
#include <stddef.h>

#include "error.h"

struct db;

/* Opens (creating as needed) the folder dir and removes temporary files
 * left by killed runs.  Caller frees with db_close. */
int db_open(const char *dir, struct db **out, struct wa_error *err);
void db_close(struct db *db);
const char *db_dir(const struct db *db);

/* The record key of a wheel: its sha256 from the index, lowercased, or
 * "url-" + the sha256 of its URL when the index gives none (sha256 NULL).
 * Returns NULL when sha256 is given but is not 64 hex digits: a per-wheel
 * error, since keys become file names.  Caller frees. */
char *db_key(const char *sha256, const char *url);

/* Whether s is 64 hex digits (either case): a sha256 as indexes give it. */
int db_sha256_valid(const char *s);

/* Whether key is a record key as db_key makes them: 64 lowercase hex
 * digits, optionally after "url-".  Every function below that takes a key
 * refuses any other (WA_ERR_USAGE, or "absent" for the queries), so no key
 * read from an index or a merged database can name a path outside the
 * database folder. */
int db_key_valid(const char *key);

int db_has_record(struct db *db, const char *key);
/* Reads a record; returns 0 and a new reference, or an error (a missing
 * record is WA_ERR_IO). */
int db_read_record(struct db *db, const char *key, json_t **rec, struct wa_error *err);
int db_write_record(struct db *db, const char *key, json_t *rec, struct wa_error *err);

/* Sorted keys of all records; caller frees each and the array. */
int db_list_records(struct db *db, char ***keys, size_t *n, struct wa_error *err);

int db_write_failure(struct db *db, const char *key, json_t *f, struct wa_error *err);
/* Returns a new reference or NULL. */
json_t *db_read_failure(struct db *db, const char *key);
void db_clear_failure(struct db *db, const char *key);

/* Notes that the wheel `key` is being scanned (info: url, filename, ...). */
int db_journal_begin(struct db *db, const char *key, json_t *info, struct wa_error *err);
/* Removes the note (after the record or failure was written). */
void db_journal_end(struct db *db, const char *key);
/* Keys noted in the journal, sorted; caller frees each and the array.
 * Files that are not valid keys are removed. */
int db_journal_list(struct db *db, char ***keys, size_t *n, struct wa_error *err);
/* The note of key (a new reference), or NULL. */
json_t *db_journal_read(struct db *db, const char *key);

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

/* Writes JSON to a string the way the database does (sorted keys, two-space
 * indentation, trailing newline); caller frees. */
char *db_dump(json_t *v);

#endif
