/*
 * crawl_report: warnings and progress, through the observer.
 */
#include "crawl_state.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "version.h"
static double since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

void crawli_warn(struct crawl *c, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->obs && c->obs->warning)
        c->obs->warning(c->obs->ud, msg);
}

/* Caller holds the lock. */
void crawli_progress(struct crawl *c, int force)
{
    if (!c->obs || !c->obs->progress)
        return;
    if (!force && since(&c->last_progress) < 0.1)
        return;
    clock_gettime(CLOCK_MONOTONIC, &c->last_progress);
    struct crawl_progress p = {c->total, c->done, c->bytes, since(&c->start), NULL};
    for (int i = 0; i < c->njobs && c->current; i++)
        if (c->current[i]) {
            p.current = c->current[i];
            break;
        }
    c->obs->progress(c->obs->ud, &p);
}
