/*
 * site: render the database into a static site.
 *
 *   index.html                    GPU search and newest releases
 *   gpu/<slug>/                   verdicts per release x variant x platform, timeline
 *   matrix/                       releases x variants x compute capabilities
 *   release/<project>/<version>/  per binary and target, provenance, differences
 *   wheel/<key>.html              one wheel read (or inferred)
 *   changes/, changes.atom        what each release added or dropped
 *   methodology/, api/, faq/      prose (Markdown in templates/content, via cmark-gfm)
 *   api/v1/                       matrix.json, gpus.json, index-table.json,
 *                                 variants.json, schema.json, matrix.csv
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
#include "outdir.h"

/* Nightly versions per project a site shows by default. */
#define SITE_NIGHTLIES 30

struct site_options {
    const char *cache_dir; /* database (may be missing: declared rows only) */
    const char *out_dir;   /* "site" */
    const char *base_url;  /* NULL or "https://example.org/wheelarch" */
    const char *templates_dir;
    const char *data_dir;
    int nightlies;     /* nightly (.dev) versions per project the site shows:
                          the newest ones (SITE_NIGHTLIES is the CLI's
                          default); < 0: all */
    int simple_json;   /* also write each simple/ index as PEP 691 JSON
                          (index.json beside index.html) */
    const char *today; /* "YYYY-MM-DD": the day the data's freshness is judged
                          on (schedule.h); NULL: not judged */
    /* Called as each phase of the build ends ("records", "grid", ...;
     * NULL when the build starts), for timing; NULL: none.  The core
     * neither reads the clock for this nor prints. */
    void (*on_phase)(void *ud, const char *phase);
    void *phase_ud;
};

struct dbview_skip;

struct site_stats {
    struct outdir_stats out;
    size_t records;              /* valid records rendered */
    struct dbview_skip *skipped; /* records left out: file and reason (dbview.h);
                                    then pages left out because an earlier page
                                    had their path (file: the page in out_dir) */
    size_t nskipped;
    size_t pages;
    char freshness[320]; /* a release due and absent from the data, in
                            words (schedule.h), or "" */
};

/* Builds the site.  Fills *st (also on failure); the caller frees what it
 * holds with site_stats_free.  Invalid records are left out and listed in
 * st->skipped, which is not an error; so is a page whose path (made from
 * data) an earlier page already had, which the injective path segments
 * should make impossible.  Returns 0 or a WA_ERR_* code. */
int site_build(const struct site_options *o, struct site_stats *st, struct wa_error *err);
void site_stats_free(struct site_stats *st);

#endif
