/*
 * workers: parallel loops and background tasks on POSIX threads.
 */
#include "workers.h"

#include <stdlib.h>
#include <unistd.h>

#include "xalloc.h"

unsigned workers_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

struct run_arg {
    workers_fn fn;
    void *ud;
    unsigned i;
};

static void *run_one(void *arg)
{
    struct run_arg *a = arg;
    a->fn(a->ud, a->i);
    return NULL;
}

void workers_run(unsigned n, workers_fn fn, void *ud)
{
    if (n == 0)
        return;
    struct run_arg *args = xcalloc(n, sizeof *args);
    pthread_t *th = xcalloc(n, sizeof *th);
    int *started = xcalloc(n, sizeof *started);
    for (unsigned i = 1; i < n; i++) {
        args[i] = (struct run_arg){fn, ud, i};
        started[i] = pthread_create(&th[i], NULL, run_one, &args[i]) == 0;
    }
    fn(ud, 0);
    for (unsigned i = 1; i < n; i++)
        if (started[i])
            pthread_join(th[i], NULL);
    for (unsigned i = 1; i < n; i++)
        if (!started[i])
            fn(ud, i);
    free(started);
    free(th);
    free(args);
}

static void *spawned(void *arg)
{
    struct workers_task *t = arg;
    t->fn(t->ud);
    return NULL;
}

void workers_spawn(struct workers_task *t, void (*fn)(void *ud), void *ud)
{
    t->fn = fn;
    t->ud = ud;
    t->started = pthread_create(&t->thread, NULL, spawned, t) == 0;
    if (!t->started)
        fn(ud);
}

int workers_try_spawn(struct workers_task *t, void (*fn)(void *ud), void *ud)
{
    t->fn = fn;
    t->ud = ud;
    t->started = pthread_create(&t->thread, NULL, spawned, t) == 0;
    return t->started ? 0 : -1;
}

void workers_join(struct workers_task *t)
{
    if (t->started)
        pthread_join(t->thread, NULL);
    t->started = 0;
}
