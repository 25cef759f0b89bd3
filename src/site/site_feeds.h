/*
 * site_feeds: the build's second thread: the feed documents, the SQLite
 * feed, the variant files and the simple indexes, then release pages
 * beside the first thread.  Called by site, the orchestrator; calls
 * site_simple, site_pages and site_render.  Not for other modules.
 */
#ifndef WHEELARCH_SITE_FEEDS_H
#define WHEELARCH_SITE_FEEDS_H

#include <pthread.h>

#include "error.h"
#include "site_pages.h"
#include "site_render.h"
#include "sitedata.h"
#include "workers.h"

/* The feed and the simple indexes, in steps that depend on nothing but
 * the view and the grid, so that either thread may take any: the feeds'
 * thread starts on them while this one makes the pages, and this one
 * takes what is left when its pages are done.  Largest first, so that
 * the last step taken is a short one.  Each document is made, written and
 * freed in turn: at 100,000 wheels they are tens of MB each as trees. */
enum feed_step {
    FEED_SIMPLE,      /* simple/ */
    FEED_MATRIX_JSON, /* api/v1/matrix.json */
    FEED_SQLITE,      /* api/v1/wheelarch.sqlite */
    FEED_VARIANTS,    /* api/v1/variants.json */
    FEED_INDEX_TABLE, /* api/v1/index-table.json */
    FEED_PEP,         /* api/v1/variants/ */
    FEED_CSV,         /* api/v1/matrix.csv */
    FEED_SCHEMA,      /* api/v1/schema.json */
    FEED_STEPS
};

/* The steps still to take, shared by the two threads. */
struct feed_steps {
    pthread_mutex_t mu;
    int next; /* FEED_STEPS when all are taken or a step failed */
};

struct feeds_job {
    struct ctx c; /* its own templates and page count */
    struct sitedata *d;
    struct feed_steps steps;
    struct release_cursor releases; /* then release pages, beside this thread */
    struct wa_error err;
    int rc;
    struct workers_task task;
};

int sitei_feeds_work(struct feed_steps *fs, struct ctx *c, struct sitedata *d,
                     struct wa_error *err);
void sitei_feeds_start(struct feeds_job *j, const struct ctx *c, struct sitedata *d);
int sitei_feeds_join(struct feeds_job *j, struct ctx *helper, int rc, struct wa_error *err);

#endif
