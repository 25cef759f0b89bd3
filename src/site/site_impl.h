/*
 * site_impl: what the files of site share.  Not for other modules.  They
 * call downwards only, in this order:
 *   site.c          site_build: the phases in order, on two threads
 *   site_feeds.c    the second thread: the feed documents, the SQLite
 *                   feed, the variant files, the simple indexes
 *   site_simple.c   the PEP 503/691 simple indexes
 *   site_pages.c    the page registry (site_page_kinds) and each kind's
 *                   pages
 *   site_render.c   a page rendered from a template and written; the
 *                   context each thread renders with
 */
#ifndef WHEELARCH_SITE_IMPL_H
#define WHEELARCH_SITE_IMPL_H

#include <jansson.h>
#include <pthread.h>

#include "dbview.h"
#include "outdir.h"
#include "site.h"
#include "sitedata.h"
#include "strbuf.h"
#include "tmpl.h"
#include "workers.h"

struct ctx {
    const struct site_options *o;
    struct outdir *out;
    struct tmpl_set *tmpls;
    char *base_url; /* without a trailing slash, "" when none */
    const char *data_as_of;
    const char *checked_on;      /* the declared data's newest checked-on date */
    const char *freshness;       /* the banner of a release due and absent, or NULL */
    const char *freshness_brief; /* the same in one short line (its summary), or NULL */
    const char *data_through;    /* the newest torch version the site has, or NULL */
    size_t pages;
    /* Pages left out because an earlier page had their path (listed with
     * the skipped records); each thread has its own list. */
    struct dbview_skip *dups;
    size_t ndups, capdups;
    /* The page being rendered: one buffer per thread, reused, so that
     * pages do not each grow (and copy) a buffer of their own. */
    struct strbuf page;
};

/* ---- the kinds of page ------------------------------------------------------
 *
 * One entry per kind of HTML page: its template, where its pages go, the
 * title and description each page says, and the function that makes the
 * pages of the kind (with the data sitedata made for them).  A new kind is
 * an entry here, a function and a template.  Pages whose making is tied
 * to how the build runs (a wheel's, made while the database is read; a
 * release's, on both threads at the end) have no function: their code
 * reads the entry for the rest.
 */
struct page_kind;
typedef int (*page_make_fn)(struct ctx *c, struct sitedata *d, const struct page_kind *k,
                            struct wa_error *err);
struct page_kind {
    const char *template_name; /* templates/<template_name>.mustache */
    const char *path;          /* where its pages go, for the reader */
    const char *title;         /* a page's title; "{}": the page's own name */
    const char *title_one;     /* the title of the kind's main page, or NULL */
    const char *description;
    const char *source; /* prose: the Markdown file in templates/content/ */
    page_make_fn make;  /* NULL: made where the build runs it */
    const char *phase;  /* the phase the build reports after it, or NULL */
};

enum {
    PAGE_HOME,
    PAGE_MATRIX,
    PAGE_GPU,
    PAGE_DEVICE,
    PAGE_CHANGES,
    PAGE_METHODOLOGY,
    PAGE_API,
    PAGE_FAQ,
    PAGE_ERRORS,
    PAGE_RELEASE,
    PAGE_WHEEL,
    PAGE_KINDS
};
/* The registry (site_pages.c). */
extern const struct page_kind site_page_kinds[PAGE_KINDS];

/* The release pages not taken yet, shared by the two threads: the feeds'
 * thread takes them when its steps are done, this one after its other
 * pages; pages are small, so the two end together. */
struct release_cursor {
    pthread_mutex_t mu;
    size_t next; /* the first row of the next page; past the last row when
                  * a thread failed, so the other stops */
};

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

char *sitei_root_of(const char *path);
int sitei_put(struct ctx *c, const char *path, const char *data, size_t len, struct wa_error *err);
int sitei_put_page(struct ctx *c, const char *path, const char *data, size_t len, const char *what,
                   struct wa_error *err);
int sitei_put_json(struct ctx *c, const char *path, json_t *v, struct wa_error *err);
int sitei_render(struct ctx *c, const char *name, const char *path, json_t *data, const char *title,
                 const char *description, const char *what, struct wa_error *err);
/* sitei_render for a page whose data is typed (a tmpl_value, borrowed):
 * the common fields sit below it on the template's context stack;
 * page_date is the page's own date (NULL: none). */
int sitei_render_typed(struct ctx *c, const char *name, const char *path,
                       const struct tmpl_value *page, const char *page_date, const char *title,
                       const char *description, const char *what, struct wa_error *err);
int sitei_wheel_page(struct ctx *c, const struct record *r, struct wa_error *err);
void sitei_ctx_for_thread(struct ctx *child, const struct ctx *c);
void sitei_ctx_join(struct ctx *c, struct ctx *child);
int sitei_first_error(int rc, struct wa_error *err, int thread_rc, const struct wa_error *why);
int sitei_read_template_file(const struct ctx *c, const char *folder, const char *name, char **text,
                             size_t *n, struct wa_error *err);
int sitei_release_pages(struct ctx *c, const struct sitedata *d, struct release_cursor *cur,
                        struct wa_error *err);
int sitei_simple(struct ctx *c, struct sitedata *d, struct wa_error *err);
int sitei_copy_asset(struct ctx *c, const char *name, struct wa_error *err);
int sitei_feeds_work(struct feed_steps *fs, struct ctx *c, struct sitedata *d,
                     struct wa_error *err);
void sitei_feeds_start(struct feeds_job *j, const struct ctx *c, struct sitedata *d);
int sitei_feeds_join(struct feeds_job *j, struct ctx *helper, int rc, struct wa_error *err);

#endif
