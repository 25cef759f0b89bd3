/*
 * query_order: the view's rows in the order a query reads them
 * (query_options.order).
 */
#ifndef WHEELARCH_QUERY_ORDER_H
#define WHEELARCH_QUERY_ORDER_H

#include <stddef.h>

struct dbview; /* dbview.h */
struct query_order;

/* The view's rows in the order a query reads them (newest release first,
 * then variant preference, newest version, best source), grouped by
 * project and platform, for query_options.order.  It borrows nothing from
 * the view but its size; read-only once made, so threads may share it.
 * Caller frees with query_order_free. */
struct query_order *query_order_new(const struct dbview *v);
void query_order_free(struct query_order *q);
/* The view rows of project on platform, in query order, borrowed from q
 * (NULL and *n = 0: none). */
const size_t *query_order_rows(const struct query_order *q, const char *project,
                               const char *platform, size_t *n);

#endif
