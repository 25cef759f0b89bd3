/*
 * site: render the database into a static site.
 *
 *   index.html                    GPU search and newest releases
 *   gpu/<slug>/                   the answer per platform: its release x variant
 *                                 grid first, the command, details folded
 *   device/<id>/                  every release x variant of one device code, and
 *                                 its history with the reasons
 *   matrix/                       releases x variants x compute capabilities
 *   release/<project>/<version>/  per binary and target, provenance, differences
 *   wheel/<key>.html              one wheel read (or inferred)
 *   changes/, changes.atom        what each release added or dropped
 *   methodology/, api/, faq/      prose (Markdown in templates/content, via cmark-gfm)
 *   api/v1/                       matrix.json, gpus.json, gpu/<id>.json,
 *                                 index-table.json, variants.json, schema.json,
 *                                 matrix.csv
 *   simple/sm_XY/                 PEP 503 (+ PEP 691 index.json) indexes of the
 *                                 wheels with native code for X.Y
 *
 * Deterministic (the same database gives the same bytes), atomic and
 * incremental (outdir), links relative so the site works under any prefix
 * and from file://; --base-url only sets canonical and feed URLs.
 */
#ifndef WHEELARCH_SITE_H
#define WHEELARCH_SITE_H

#include <stddef.h>

#include "error.h"
#include "sitejob.h"

/* Builds the site.  Fills *st (also on failure); the caller frees what it
 * holds with site_stats_free.  Invalid records are left out and listed in
 * st->skipped, which is not an error; so is a page whose path (made from
 * data) an earlier page already had, which the injective path segments
 * should make impossible.  Returns 0 or a WA_ERR_* code. */
int site_build(const struct site_options *o, struct site_stats *st, struct wa_error *err);
void site_stats_free(struct site_stats *st);

#endif
