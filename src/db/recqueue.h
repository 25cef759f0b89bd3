/*
 * recqueue: the records a view reads, handed to the caller's function on a
 * second thread while the reader goes on with the next wheels.
 *
 * A full view of 100,000 wheels reads about 10,000 whole records (the
 * scanned wheels', with their binaries), and the site makes a page of
 * each: the reader puts each record here, a second thread hands it to the
 * caller's function.  When the queue is full, or no thread could be
 * started, the reader calls the function itself, so it never waits and the
 * two threads share the work.
 */
#ifndef WHEELARCH_RECQUEUE_H
#define WHEELARCH_RECQUEUE_H

#include "error.h"
#include "record.h"

/* Called with each record: worker 0 on the reader's thread, 1 on the
 * second; calls with different workers may run at the same time.  It takes
 * the record (record_free, now or later).  An error stops the work. */
typedef int (*recqueue_fn)(void *ud, unsigned worker, struct record *r, struct wa_error *err);

struct recqueue;

/* Starts the second thread (or not, when none can be started). */
struct recqueue *recqueue_start(recqueue_fn fn, void *ud);

/* Hands on r (taken: the struct is copied, r is emptied).  Returns 0, or
 * the first error the work met so far (then stop putting and call
 * recqueue_finish). */
int recqueue_put(struct recqueue *q, struct record *r, struct wa_error *err);

/* Waits for every record put and frees q.  Returns 0 or the first error. */
int recqueue_finish(struct recqueue *q, struct wa_error *err);

#endif
