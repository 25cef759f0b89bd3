/*
 * sitedata_feeds: the feed documents of api/v1/ written from the site's
 * data: matrix.csv, index-table.json, variants.json, matrix.json.
 */
#ifndef WHEELARCH_SITEDATA_FEEDS_H
#define WHEELARCH_SITEDATA_FEEDS_H

#include <jansson.h>
#include <stddef.h>

#include "sitedata_types.h"
#include "strbuf.h"

/* The feed half one document at a time, so that a caller can write each
 * and free it before the next is made: d->csv, a new variants.json
 * (caller owns the reference), and d->simple with what the simple indexes
 * read. */
void sitedata_build_csv(struct sitedata *d);
/* api/v1/index-table.json, appended to out one build at a time. */
void sitedata_index_table_json(const struct sitedata *d, struct strbuf *out);
json_t *sitedata_build_variants(struct sitedata *d);

/* api/v1/matrix.json, appended to out row by row (the whole matrix is
 * never a JSON tree in memory). */
void sitedata_matrix_json(const struct sitedata *d, struct strbuf *out);

#endif
