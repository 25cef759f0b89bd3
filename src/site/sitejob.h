/*
 * sitejob: what a site build is asked (site_options) and what it reports
 * (site_stats): the types that site (which builds) and sitestamp (which
 * remembers a build's inputs and report beside the site) both speak, in a
 * header of their own so that neither includes the other.
 */
#ifndef WHEELARCH_SITEJOB_H
#define WHEELARCH_SITEJOB_H

#include <stddef.h>

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
    /* Called with every name a page's template looks up (tmpl_set_trace:
     * the template, the name, whether the page's data had it), from
     * either of the build's threads; NULL: none. */
    void (*on_lookup)(void *ud, const char *template_name, const char *name, int found);
    void *lookup_ud;
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

#endif
