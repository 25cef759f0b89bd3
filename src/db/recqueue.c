/*
 * recqueue: whole records parsed and checked beside the reader.
 */
#include "recqueue.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "jsontext.h"
#include "recordcheck.h"
#include "workers.h"
#include "xalloc.h"

/* Records waiting: enough that the second thread rarely runs dry while
 * the reader goes through the inferred wheels between two scanned ones. */
#define RECQUEUE_MAX 64

struct job {
    char *key, *text;
    long tag;
    unsigned long seq;
};

/* What one thread made. */
struct made {
    struct recqueue_binaries *v;
    size_t n, cap;
    size_t bad;
};

struct recqueue {
    recqueue_fn fn;
    void *ud;
    recqueue_binaries_fn binaries;
    pthread_mutex_t mu;
    pthread_cond_t ready;
    struct job q[RECQUEUE_MAX];
    size_t head, n; /* a ring: n jobs from q[head] on */
    int done, running;
    int rc; /* the first error, under mu */
    unsigned long nput;
    struct wa_error err;
    struct made made[2]; /* per worker */
    struct workers_task task;
};

static void fail(struct recqueue *q, int rc, const struct wa_error *e)
{
    pthread_mutex_lock(&q->mu);
    if (q->rc == 0) {
        q->rc = rc;
        q->err = *e;
    }
    pthread_mutex_unlock(&q->mu);
}

static int failed(struct recqueue *q)
{
    pthread_mutex_lock(&q->mu);
    int rc = q->rc;
    pthread_mutex_unlock(&q->mu);
    return rc;
}

/* Parses, checks and hands on one record; frees the job's strings. */
static void work(struct recqueue *q, unsigned worker, struct job *j)
{
    struct made *m = &q->made[worker];
    struct record full = {0};
    struct wa_error e;
    json_error_t je;
    int stop = failed(q);
    /* a record edited in by hand past merge's and import's checks is not
     * parsed when it holds too many values to parse in bounded memory */
    if (!stop && recordcheck_text(j->text, strlen(j->text), &e) < 0) {
        free(j->text);
        free(j->key);
        m->bad++;
        return;
    }
    json_t *parsed = stop ? NULL : jsontext_loads(j->text, JSON_REJECT_DUPLICATES, &je);
    free(j->text);
    if (!parsed) {
        m->bad += !stop; /* not JSON */
    } else if (record_read(j->key, parsed, &full, &e) < 0) {
        m->bad++;
    } else {
        if (j->tag >= 0 && q->binaries) {
            m->v = xgrow(m->v, &m->cap, m->n + 1, sizeof *m->v);
            m->v[m->n].tag = j->tag;
            m->v[m->n].seq = j->seq;
            m->v[m->n].text = q->binaries(full.scan);
            m->n++;
        }
        int rc = q->fn(q->ud, worker, &full, &e); /* it takes the record */
        if (rc < 0)
            fail(q, rc, &e);
    }
    json_decref(parsed);
    free(j->key);
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
        struct job j = q->q[q->head];
        q->head = (q->head + 1) % RECQUEUE_MAX;
        q->n--;
        pthread_mutex_unlock(&q->mu);
        work(q, 1, &j);
    }
}

struct recqueue *recqueue_start(recqueue_fn fn, void *ud, recqueue_binaries_fn binaries)
{
    struct recqueue *q = xcalloc(1, sizeof *q);
    q->fn = fn;
    q->ud = ud;
    q->binaries = binaries;
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->ready, NULL);
    q->running = workers_try_spawn(&q->task, run, q) == 0;
    return q;
}

int recqueue_put(struct recqueue *q, const char *key, const char *text, long tag,
                 unsigned long *seq, struct wa_error *err)
{
    struct job j = {xstrdup(key), xstrdup(text), tag, ++q->nput};
    if (seq)
        *seq = j.seq;
    pthread_mutex_lock(&q->mu);
    int queued = q->running && q->n < RECQUEUE_MAX;
    if (queued) {
        q->q[(q->head + q->n) % RECQUEUE_MAX] = j;
        q->n++;
        pthread_cond_signal(&q->ready);
    }
    pthread_mutex_unlock(&q->mu);
    if (!queued)
        work(q, 0, &j);
    pthread_mutex_lock(&q->mu);
    int rc = q->rc;
    if (rc < 0 && err)
        *err = q->err;
    pthread_mutex_unlock(&q->mu);
    return rc;
}

int recqueue_finish(struct recqueue *q, struct recqueue_binaries **out, size_t *nout, size_t *bad,
                    struct wa_error *err)
{
    pthread_mutex_lock(&q->mu);
    q->done = 1;
    pthread_cond_signal(&q->ready);
    pthread_mutex_unlock(&q->mu);
    if (q->running)
        workers_join(&q->task);
    /* both threads' binaries, in one array */
    struct made *a = &q->made[0], *b = &q->made[1];
    *nout = a->n + b->n;
    *out = xmalloc((*nout ? *nout : 1) * sizeof **out);
    if (a->n)
        memcpy(*out, a->v, a->n * sizeof *a->v);
    if (b->n)
        memcpy(*out + a->n, b->v, b->n * sizeof *b->v);
    free(a->v);
    free(b->v);
    *bad = a->bad + b->bad;
    int rc = q->rc;
    if (rc < 0 && err)
        *err = q->err;
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->ready);
    free(q);
    return rc;
}
