/*
 * sitedata_simple: the GPU-aware simple indexes' data (simple/<arch>/):
 * which links each architecture's pages list.
 */
#ifndef WHEELARCH_SITEDATA_SIMPLE_H
#define WHEELARCH_SITEDATA_SIMPLE_H

#include <jansson.h>
#include <stddef.h>

#include "sitedata_types.h"

void sitedata_build_simple(struct sitedata *d);

/* How many links row i of d->simple has (its wheels), and link k's line
 * of a PEP 503 page ("<a href=...>name</a><br>\n"; caller frees), or NULL
 * when the wheel's URL is not http(s) (the JSON's null). */
size_t sitedata_simple_nlinks(const struct sitedata *d, size_t i);
char *sitedata_simple_link_html(const struct sitedata *d, size_t i, size_t k);

#endif
