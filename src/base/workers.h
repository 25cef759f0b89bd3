/*
 * workers: the one way wheelarch runs work on several threads.
 *
 *   workers_cpus    how many threads make sense here: the online CPUs
 *   workers_run     fn(ud, 0) .. fn(ud, n - 1) at the same time, waiting
 *                   for all (a parallel loop: the crawl's workers, the
 *                   grid's halves)
 *   workers_spawn   one task beside the caller's own work, joined later
 *                   (the site's feeds while its pages are written)
 *   workers_try_spawn  the same without the fallback below, for a task
 *                   that waits for its caller (recqueue's parser, fed
 *                   as the database is read)
 *
 * A thread that cannot be started never fails the work: its task runs on
 * the caller's thread instead (after the others for workers_run, at once
 * for workers_spawn).  So no caller may make one task wait for another
 * that has not started; the scanner's hashing thread, which waits for the
 * bytes its caller reads, therefore keeps its own fallback (scan.c).
 */
#ifndef WHEELARCH_WORKERS_H
#define WHEELARCH_WORKERS_H

#include <pthread.h>

/* The number of online CPUs, at least 1. */
unsigned workers_cpus(void);

typedef void (*workers_fn)(void *ud, unsigned i);

/* Runs fn(ud, i) for i in [0, n): i = 0 on the caller's thread, the others
 * on threads of their own; returns when all are done. */
void workers_run(unsigned n, workers_fn fn, void *ud);

struct workers_task {
    void (*fn)(void *ud);
    void *ud;
    pthread_t thread;
    int started;
};

/* Starts fn(ud) on a thread (or runs it now, when none can be started). */
void workers_spawn(struct workers_task *t, void (*fn)(void *ud), void *ud);
/* Starts fn(ud) on a thread; returns 0, or -1 when none could be started
 * (fn has not run: the caller does the work itself). */
int workers_try_spawn(struct workers_task *t, void (*fn)(void *ud), void *ud);
/* Waits for the task started by workers_spawn or workers_try_spawn. */
void workers_join(struct workers_task *t);

#endif
