/*
 * query_order: the rows of each project and platform sorted in query order
 * (release newest first, variant, version), with their classes and Python
 * masks, made once for the many queries of a build.
 */
#include "query_order.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "query_state.h"
#include "strbuf.h"
#include "strmap.h"
#include "xalloc.h"

/* A row with its release and version parsed once: a sort compares each
 * row about log n times, and parsing was most of a query's time. */
struct keyed_row {
    const struct dbview_row *r;
    struct dotver release, version;
    int release_ok, version_ok;
};

static int parsed_cmp(const struct dotver *x, int okx, const struct dotver *y, int oky)
{
    return !okx || !oky ? okx - oky : dotver_cmp(x, y); /* as dotver_cmp_str */
}

/* Newest release first, then variant preference, newest version, best
 * source. */
static int keyed_order(const void *a, const void *b)
{
    const struct keyed_row *x = a, *y = b;
    int c = parsed_cmp(&y->release, y->release_ok, &x->release, x->release_ok);
    if (!c)
        c = tables_variant_cmp(x->r->variant, y->r->variant);
    if (!c)
        c = parsed_cmp(&y->version, y->version_ok, &x->version, x->version_ok);
    if (!c)
        c = x->r->status - y->r->status;
    return c;
}

/* Sorts rows[0..n) in query order. */
void qi_sort_rows(const struct dbview_row **rows, size_t n)
{
    if (n < 2)
        return;
    struct keyed_row *k = xmalloc(n * sizeof *k);
    for (size_t i = 0; i < n; i++) {
        k[i].r = rows[i];
        k[i].release_ok = dotver_parse(rows[i]->release, &k[i].release) == 0;
        k[i].version_ok = dotver_parse(rows[i]->version, &k[i].version) == 0;
    }
    qsort(k, n, sizeof *k, keyed_order);
    for (size_t i = 0; i < n; i++)
        rows[i] = k[i].r;
    free(k);
}

static void order_key(struct strbuf *k, const char *project, const char *platform)
{
    strbuf_set_joined(k, 1, project, platform, (char *)NULL);
}

struct query_order *query_order_new(const struct dbview *v)
{
    const struct dbview_row **rows = xmalloc((v->nrows + 1) * sizeof *rows);
    for (size_t i = 0; i < v->nrows; i++)
        rows[i] = &v->rows[i];
    qi_sort_rows(rows, v->nrows);
    struct query_order *q = xcalloc(1, sizeof *q);
    q->lists = strmap_new();
    struct strbuf k = STRBUF_INIT;
    size_t capn = 0;
    for (size_t i = 0; i < v->nrows; i++) {
        order_key(&k, rows[i]->project, rows[i]->platform);
        size_t at;
        if (!strmap_get(q->lists, k.buf, &at)) {
            at = q->n++;
            q->rows = xgrow(q->rows, &q->cap, q->n, sizeof *q->rows);
            q->nrows = xgrow(q->nrows, &capn, q->n, sizeof *q->nrows);
            q->rows[at] = NULL;
            q->nrows[at] = 0;
            strmap_put(q->lists, k.buf, at);
        }
        if (q->nrows[at] % 64 == 0)
            q->rows[at] = xrealloc(q->rows[at], (q->nrows[at] + 64) * sizeof **q->rows);
        q->rows[at][q->nrows[at]++] = (size_t)(rows[i] - v->rows);
    }
    strbuf_free(&k);
    free(rows);
    /* The classes of each list, made once for all the queries that read
     * it (hashing every row's code per query was most of a query). */
    q->cls = xcalloc(q->n + 1, sizeof *q->cls);
    q->ncls = xcalloc(q->n + 1, sizeof *q->ncls);
    for (size_t l = 0; l < q->n; l++) {
        size_t n = q->nrows[l];
        const struct dbview_row **lr = xmalloc((n + 1) * sizeof *lr);
        for (size_t i = 0; i < n; i++)
            lr[i] = &v->rows[q->rows[l][i]];
        size_t *first = xmalloc((n + 1) * sizeof *first);
        q->cls[l] = xmalloc((n + 1) * sizeof **q->cls);
        q->ncls[l] = dbview_row_classes(lr, n, q->cls[l], first);
        free(first);
        free(lr);
    }
    q->pymask = xcalloc(v->nrows ? v->nrows : 1, sizeof *q->pymask);
    q->pyknown = xcalloc(v->nrows ? v->nrows : 1, 1);
    for (size_t i = 0; i < v->nrows; i++)
        if (v->rows[i].nwheels)
            qi_row_pymask(&v->rows[i], &q->pymask[i], &q->pyknown[i]);
    return q;
}

void query_order_free(struct query_order *q)
{
    if (!q)
        return;
    for (size_t i = 0; i < q->n; i++) {
        free(q->rows[i]);
        free(q->cls[i]);
    }
    free(q->rows);
    free(q->nrows);
    free(q->cls);
    free(q->ncls);
    free(q->pymask);
    free(q->pyknown);
    strmap_free(q->lists);
    free(q);
}

/* The list of project on platform: its index, or -1. */
long qi_order_list(const struct query_order *q, const char *project, const char *platform)
{
    struct strbuf k = STRBUF_INIT;
    order_key(&k, project, platform);
    size_t at;
    int found = strmap_get(q->lists, k.buf, &at);
    strbuf_free(&k);
    return found ? (long)at : -1;
}

const size_t *query_order_rows(const struct query_order *q, const char *project,
                               const char *platform, size_t *n)
{
    long at = qi_order_list(q, project, platform);
    *n = at >= 0 ? q->nrows[at] : 0;
    return at >= 0 ? q->rows[at] : NULL;
}
