/*
 * recordreader: ordered read-ahead of records on worker threads.
 *
 * Workers claim the next unclaimed index (never more than WINDOW ahead of
 * the consumer), parse it into its slot and mark it ready; the consumer
 * waits for slot i, takes it and so opens room for one more.  One mutex
 * and two condition variables; the work per record (a file read and a
 * JSON parse) dwarfs the locking.
 */
#include "recordreader.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "recordcheck.h"
#include "xalloc.h"

#define MAX_THREADS 8

struct slot {
    json_t *rec;
    int ready;
    struct wa_error err; /* why rec is NULL */
};

struct recordreader {
    struct db *db;
    char *const *keys;
    size_t n;
    size_t next;     /* next index to claim */
    size_t consumed; /* indexes below this were taken */
    int stop;
    json_t **garbage; /* records the consumer is done with, freed by workers */
    size_t ngarbage, cap_garbage;
    struct slot slots[RECORDREADER_WINDOW];
    pthread_mutex_t mu;
    pthread_cond_t room;  /* a worker may claim */
    pthread_cond_t ready; /* a slot became ready */
    pthread_t threads[MAX_THREADS];
    unsigned nthreads;
};

/* db's messages name the file; ours leave that to the caller (error.h). */
static void strip_path(struct recordreader *r, const char *key, struct wa_error *err)
{
    char *dir = fsutil_join(db_dir(r->db), "records");
    char *name = xasprintf("%s.json", key);
    char *path = fsutil_join(dir, name);
    size_t n = strlen(path);
    if (strncmp(err->msg, path, n) == 0 && strncmp(err->msg + n, ": ", 2) == 0)
        memmove(err->msg, err->msg + n + 2, strlen(err->msg + n + 2) + 1);
    free(path);
    free(name);
    free(dir);
}

static json_t *read_one(struct recordreader *r, size_t i, struct wa_error *err)
{
    json_t *rec;
    wa_error_clear(err);
    if (db_read_record(r->db, r->keys[i], &rec, err) < 0) {
        strip_path(r, r->keys[i], err);
        return NULL;
    }
    if (recordcheck_validate(r->keys[i], rec, err) < 0) {
        json_decref(rec);
        return NULL;
    }
    return rec;
}

static void *worker(void *arg)
{
    struct recordreader *r = arg;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (!r->stop && r->next < r->n && r->next >= r->consumed + RECORDREADER_WINDOW)
            pthread_cond_wait(&r->room, &r->mu);
        if (r->stop || r->next >= r->n)
            break;
        size_t i = r->next++;
        json_t **garbage = r->garbage;
        size_t ngarbage = r->ngarbage;
        r->garbage = NULL;
        r->ngarbage = r->cap_garbage = 0;
        pthread_mutex_unlock(&r->mu);
        for (size_t k = 0; k < ngarbage; k++)
            json_decref(garbage[k]);
        free(garbage);
        struct wa_error err;
        json_t *rec = read_one(r, i, &err);
        pthread_mutex_lock(&r->mu);
        struct slot *s = &r->slots[i % RECORDREADER_WINDOW];
        s->rec = rec;
        s->err = err;
        s->ready = 1;
        pthread_cond_broadcast(&r->ready);
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

struct recordreader *recordreader_start(struct db *db, char *const *keys, size_t n,
                                        unsigned threads)
{
    struct recordreader *r = xcalloc(1, sizeof *r);
    r->db = db;
    r->keys = keys;
    r->n = n;
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->room, NULL);
    pthread_cond_init(&r->ready, NULL);
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    if (n < 2 * RECORDREADER_WINDOW && threads > 1)
        threads = 1; /* a small database is not worth more threads */
    for (unsigned t = 0; t < threads; t++)
        if (pthread_create(&r->threads[r->nthreads], NULL, worker, r) == 0)
            r->nthreads++;
    return r;
}

json_t *recordreader_next(struct recordreader *r, size_t i, struct wa_error *err)
{
    struct wa_error local;
    if (!err)
        err = &local;
    if (i >= r->n) {
        wa_error_set(err, WA_ERR_USAGE, "no record %zu", i);
        return NULL;
    }
    if (r->nthreads == 0) {
        r->consumed = i + 1;
        return read_one(r, i, err);
    }
    struct slot *s = &r->slots[i % RECORDREADER_WINDOW];
    pthread_mutex_lock(&r->mu);
    while (!s->ready)
        pthread_cond_wait(&r->ready, &r->mu);
    json_t *rec = s->rec;
    *err = s->err;
    s->rec = NULL;
    s->ready = 0;
    r->consumed = i + 1;
    pthread_cond_broadcast(&r->room);
    pthread_mutex_unlock(&r->mu);
    return rec;
}

void recordreader_release(struct recordreader *r, json_t *rec)
{
    if (!rec)
        return;
    if (r->nthreads == 0) {
        json_decref(rec);
        return;
    }
    pthread_mutex_lock(&r->mu);
    r->garbage = xgrow(r->garbage, &r->cap_garbage, r->ngarbage + 1, sizeof *r->garbage);
    r->garbage[r->ngarbage++] = rec;
    pthread_mutex_unlock(&r->mu);
}

void recordreader_free(struct recordreader *r)
{
    if (!r)
        return;
    pthread_mutex_lock(&r->mu);
    r->stop = 1;
    pthread_cond_broadcast(&r->room);
    pthread_mutex_unlock(&r->mu);
    for (unsigned t = 0; t < r->nthreads; t++)
        pthread_join(r->threads[t], NULL);
    for (size_t k = 0; k < RECORDREADER_WINDOW; k++)
        json_decref(r->slots[k].rec);
    for (size_t k = 0; k < r->ngarbage; k++)
        json_decref(r->garbage[k]);
    free(r->garbage);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->room);
    pthread_cond_destroy(&r->ready);
    free(r);
}
