/*
 * recqueue: the whole records a view reads, parsed and checked on a second
 * thread while the reader goes on with the next wheels.
 *
 * A full view of 100,000 wheels reads about 10,000 whole records (the
 * scanned wheels'); parsing them was most of the reading time, and the
 * reader's thread the only one busy.  The reader puts each record's text
 * here; a second thread parses it, checks it (record_read), makes the
 * compact binaries a row keeps when the reader asked for them, and hands
 * the record to the caller's function.  When the queue is full, or no
 * thread could be started, the reader does the same work itself, so it
 * never waits and the two threads share the work.
 *
 * A record that fails its check is counted (recqueue_finish): the reader
 * has already put its wheel in the view, so the caller reads the view
 * again the slow way, which leaves such wheels out with their reasons.
 * Records are stored checked, so that happens only to a database edited
 * by hand.
 */
#ifndef WHEELARCH_RECQUEUE_H
#define WHEELARCH_RECQUEUE_H

#include <jansson.h>
#include <stddef.h>

#include "error.h"
#include "record.h"

/* Called with each valid record: worker 0 on the reader's thread, 1 on the
 * second; calls with different workers may run at the same time.  It takes
 * the record (record_free, now or later).  An error stops the work. */
typedef int (*recqueue_fn)(void *ud, unsigned worker, struct record *r, struct wa_error *err);
/* A row's compact binaries from a checked record's scan (caller frees). */
typedef char *(*recqueue_binaries_fn)(json_t *scan);

struct recqueue;

/* Starts the second thread (or not, when none can be started).  binaries
 * may be NULL when no put has a tag. */
struct recqueue *recqueue_start(recqueue_fn fn, void *ud, recqueue_binaries_fn binaries);

/* Hands on the record text of wheel key (both copied).  tag >= 0: the
 * record's binaries come back under that tag, with the put's number
 * (1, 2, ... in the order of the puts; *seq, when seq is not NULL): the
 * threads finish records in any order, so a caller that puts one tag
 * twice tells by the number which binaries are the ones it wants.
 * Returns 0, or the first error the work met so far (then stop putting
 * and call recqueue_finish). */
int recqueue_put(struct recqueue *q, const char *key, const char *text, long tag,
                 unsigned long *seq, struct wa_error *err);

/* Compact binaries made for a tag (tag, the put's number, text); the text
 * is the caller's. */
struct recqueue_binaries {
    long tag;
    unsigned long seq;
    char *text;
};

/* Waits for every record put and frees q.  Gives the binaries made
 * (caller frees the texts and the array) and how many records failed
 * their check.  Returns 0 or the first error. */
int recqueue_finish(struct recqueue *q, struct recqueue_binaries **out, size_t *nout, size_t *bad,
                    struct wa_error *err);

#endif
