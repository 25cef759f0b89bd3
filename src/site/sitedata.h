/*
 * sitedata: the data the site is rendered from, and the JSON feed itself.
 *
 * Everything published is computed here once, as jansson values, from the
 * database view and the shipped tables: the feed documents under api/v1/
 * (matrix.json, gpus.json, index-table.json, variants.json, matrix.csv;
 * the JSON Schema they follow is templates/schema.json) and the data of
 * every page.  Pages are rendered from these
 * same values, so pages and feed cannot disagree.  Output is deterministic:
 * arrays are sorted, there are no reals and no wall-clock times ("data as
 * of" is the newest record's scan date).
 *
 * sitedata.h is the whole of it: building and freeing the data here, its
 * struct (sitedata_types.h), and one header per kind of page or document
 * (sitedata_feeds.h, sitedata_gpu_page.h, sitedata_text.h: the paths, ...).
 */
#ifndef WHEELARCH_SITEDATA_H
#define WHEELARCH_SITEDATA_H

#include "dbview_types.h"
#include "error.h"
#include "sitedata_changes.h"
#include "sitedata_device.h"
#include "sitedata_feeds.h"
#include "sitedata_gpu_page.h"
#include "sitedata_gpus.h"
#include "sitedata_home.h"
#include "sitedata_matrix.h"
#include "sitedata_release.h"
#include "sitedata_simple.h"
#include "sitedata_text.h"
#include "sitedata_types.h"
#include "sitedata_wheel.h"
#include "tables_types.h"

/* Builds everything.  base_url (may be NULL) only changes absolute URLs.
 * Caller frees with sitedata_free. */
int sitedata_build(const struct dbview *v, const struct tables *t, const char *base_url,
                   struct sitedata *d, struct wa_error *err);

/* sitedata_build in steps, for a caller that uses two threads: begin
 * computes what both halves read (the grid, the newest rows); then the
 * feed half (csv, variants, simple) and the page half
 * (gpus and what the GPU pages share, home, matrix_pages, changes) only read
 * it and each other's nothing, so they may run at the same time. */
void sitedata_begin(const struct dbview *v, const struct tables *t, const char *base_url,
                    struct sitedata *d);
void sitedata_build_feeds(struct sitedata *d);
void sitedata_build_pages(struct sitedata *d);
void sitedata_free(struct sitedata *d);

#endif
