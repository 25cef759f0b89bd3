/*
 * site_pages: the page registry (site_page_kinds) and the pages of each
 * kind, made from sitedata's typed values through site_render.  Called by
 * site_feeds (release pages, on the second thread) and site (the rest).
 * Not for other modules.
 */
#ifndef WHEELARCH_SITE_PAGES_H
#define WHEELARCH_SITE_PAGES_H

#include <pthread.h>
#include <stddef.h>

#include "error.h"
#include "record.h"
#include "site_render.h"
#include "sitedata.h"

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

int sitei_wheel_page(struct ctx *c, const struct record *r, struct wa_error *err);
int sitei_release_pages(struct ctx *c, const struct sitedata *d, struct release_cursor *cur,
                        struct wa_error *err);

#endif
