/*
 * recqueue: records handed on beside the reader.
 */
#include "recqueue.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "workers.h"
#include "xalloc.h"

/* Records waiting: enough that the second thread rarely runs dry while
 * the reader goes through the inferred wheels between two scanned ones. */
#define RECQUEUE_MAX 64

struct recqueue {
    recqueue_fn fn;
    void *ud;
    pthread_mutex_t mu;
    pthread_cond_t ready;
    struct record q[RECQUEUE_MAX];
    size_t head, n; /* a ring: n records from q[head] on */
    int done, running;
    int rc; /* the first error, under mu */
    struct wa_error err;
    struct workers_task task;
};

/* Hands on one record, unless the work already failed. */
static void work(struct recqueue *q, unsigned worker, struct record *r)
{
    pthread_mutex_lock(&q->mu);
    int stop = q->rc;
    pthread_mutex_unlock(&q->mu);
    if (stop) {
        record_free(r);
        return;
    }
    struct wa_error e;
    int rc = q->fn(q->ud, worker, r, &e); /* it takes the record */
    if (rc < 0) {
        pthread_mutex_lock(&q->mu);
        if (q->rc == 0) {
            q->rc = rc;
            q->err = e;
        }
        pthread_mutex_unlock(&q->mu);
    }
}

static void run(void *arg)
{
    struct recqueue *q = arg;
    for (;;) {
        pthread_mutex_lock(&q->mu);
        while (q->n == 0 && !q->done)
            pthread_cond_wait(&q->ready, &q->mu);
        if (q->n == 0) {
            pthread_mutex_unlock(&q->mu);
            return;
        }
        struct record r = q->q[q->head];
        q->head = (q->head + 1) % RECQUEUE_MAX;
        q->n--;
        pthread_mutex_unlock(&q->mu);
        work(q, 1, &r);
    }
}

struct recqueue *recqueue_start(recqueue_fn fn, void *ud)
{
    struct recqueue *q = xcalloc(1, sizeof *q);
    q->fn = fn;
    q->ud = ud;
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->ready, NULL);
    q->running = workers_try_spawn(&q->task, run, q) == 0;
    return q;
}

int recqueue_put(struct recqueue *q, struct record *r, struct wa_error *err)
{
    struct record mine = *r;
    memset(r, 0, sizeof *r);
    pthread_mutex_lock(&q->mu);
    int queued = q->running && q->n < RECQUEUE_MAX;
    if (queued) {
        q->q[(q->head + q->n) % RECQUEUE_MAX] = mine;
        q->n++;
        pthread_cond_signal(&q->ready);
    }
    pthread_mutex_unlock(&q->mu);
    if (!queued)
        work(q, 0, &mine);
    pthread_mutex_lock(&q->mu);
    int rc = q->rc;
    if (rc < 0 && err)
        *err = q->err;
    pthread_mutex_unlock(&q->mu);
    return rc;
}

int recqueue_finish(struct recqueue *q, struct wa_error *err)
{
    pthread_mutex_lock(&q->mu);
    q->done = 1;
    pthread_cond_signal(&q->ready);
    pthread_mutex_unlock(&q->mu);
    if (q->running)
        workers_join(&q->task);
    int rc = q->rc;
    if (rc < 0 && err)
        *err = q->err;
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->ready);
    free(q);
    return rc;
}
