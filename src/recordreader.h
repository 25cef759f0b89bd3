/*
 * recordreader: reads, parses and validates many database records ahead of
 * their consumer, on worker threads, and hands them out in key order.
 *
 * Parsing JSON is most of the cost of reading a database, so a build or a
 * query reads records through this: the workers parse while the caller
 * uses the records already parsed.  At most RECORDREADER_WINDOW records
 * are held at once, whatever the size of the database.  The order of the
 * results does not depend on the threads.
 *
 * Every record handed out has passed recordcheck_validate; a record that
 * cannot be read, parsed or validated comes out as NULL with the reason.
 */
#ifndef WHEELARCH_RECORDREADER_H
#define WHEELARCH_RECORDREADER_H

#include <jansson.h>
#include <stddef.h>

#include "db.h"
#include "error.h"

#define RECORDREADER_WINDOW 256

struct recordreader;

/* Starts reading keys[0..n) of db with up to `threads` workers (1 or more;
 * with 0 the records are read on the caller's thread).  keys and db must
 * outlive the reader.  Caller frees with recordreader_free. */
struct recordreader *recordreader_start(struct db *db, char *const *keys, size_t n,
                                        unsigned threads);

/* The record keys[i], for i = 0, 1, 2, ... in turn: returns a new
 * reference to a valid record, or NULL with err (may be NULL) set to why
 * it could not be read, parsed or validated: one line without the file's
 * name, e.g. "line 3 column 1: end of file expected" or
 * "variant \"x y\" is not a variant id". */
json_t *recordreader_next(struct recordreader *r, size_t i, struct wa_error *err);

/* Gives back a record the caller is done with (instead of json_decref):
 * the workers free it, off the caller's thread.  NULL is ignored. */
void recordreader_release(struct recordreader *r, json_t *rec);

/* Stops the workers (also before all records were taken) and frees. */
void recordreader_free(struct recordreader *r);

#endif
