/*
 * dbmerge: records into and out of the database in bulk.
 *
 *   db_merge    the records of other databases (crawl shards): a union, in
 *               one transaction, with the wheels whose scan did not finish
 *               there (to be scanned alone next time)
 *   db_import   a folder of JSON records, one file per wheel, as wheelarch
 *               0.1 kept them (cache/records/<key>.json): the one-time
 *               migration to the SQLite database
 *   db_export   every record as one JSON line, in key order, for people
 *               who want to diff or grep (db_import reads it back)
 *
 * Records from outside are untrusted: each is checked (record_of_json)
 * and its index must be one the database trusts, whether it is stored or
 * not.  When a key is already stored, the stored record stays, unless
 * it was inferred and the incoming one was scanned (the wheel was read).
 */
#ifndef WHEELARCH_DBMERGE_H
#define WHEELARCH_DBMERGE_H

#include <stdio.h>

#include "db.h"
#include "error.h"

struct dbmerge_stats {
    size_t added;    /* new keys */
    size_t replaced; /* inferred records replaced by scanned ones */
    size_t kept;     /* already stored, left as they were */
    size_t refused;  /* inputs (merge) or files (import) refused */
};

/* Told about each input refused: `what` names it (a database, or a record
 * file), `why` is one line. */
typedef void (*dbmerge_refused_fn)(void *ud, const char *what, const char *why);

/* The most unfinished scans (journal notes, failures of kind unfinished or
 * crashed) one input may carry; more refuses it. */
#define DBMERGE_NOTES_MAX 10000

/* Merges the databases paths[0..n), each opened as DB_FOREIGN (never
 * written, schema checked, work bounded).  An input that cannot be opened,
 * is damaged (PRAGMA integrity_check), is not a wheelarch database, or
 * holds a record or note that fails the checks is refused as a whole
 * (nothing of it is stored) and reported; the others are merged.  Of an
 * input's journal and failures only the wheels whose scan did not finish
 * are taken, as failures of kind "unfinished" (scanned alone by the next
 * crawl); its other failures and its HTTP cache never are.  All in one
 * transaction: an error of the database merged into (a full disk) rolls
 * everything back and is returned, leaving the database as it was. */
int db_merge(struct db *db, const char *const *paths, size_t n, struct dbmerge_stats *st,
             dbmerge_refused_fn refused, void *ud, struct wa_error *err);

/* Told how far db_import is: `done` of `total` record files of a folder
 * (unit "files"), or bytes of a JSON lines file (unit "bytes"); every 256
 * records and once at the end. */
typedef void (*dbmerge_progress_fn)(void *ud, size_t done, size_t total, const char *unit);

/* Imports the records in dir: DIR/records/NAME.json when DIR holds a
 * records/ folder, else DIR/NAME.json (the key is NAME); or, when dir is a
 * file, the JSON lines db_export writes (the key is each record's "key").
 * A file or line that cannot be read, parsed or checked is refused and
 * reported; the others are stored, in one transaction.  refused and
 * progress may be NULL; both get ud. */
int db_import(struct db *db, const char *dir, struct dbmerge_stats *st, dbmerge_refused_fn refused,
              dbmerge_progress_fn progress, void *ud, struct wa_error *err);

/* Writes every record to f as one compact JSON line with sorted keys, in
 * key order.  Returns 0, or WA_ERR_IO when f fails. */
int db_export(struct db *db, FILE *f, size_t *count, struct wa_error *err);

#endif
