/*
 * sitedata_home: the home page's data: the GPUs by segment at a glance,
 * the newest torch releases.
 */
#ifndef WHEELARCH_SITEDATA_HOME_H
#define WHEELARCH_SITEDATA_HOME_H

#include <stddef.h>

#include "sitedata_types.h"

struct tmpl_value;

/* The home page's data, typed: the GPUs by segment with their status at
 * a glance, and the three newest torch releases with their variants. */
struct sitedata_home_gpu {
    const struct gpu *g;
    const struct sitedata_device *dev;
    char *page;               /* gpu/<slug>/ */
    char device[16];          /* "6.1", "gfx1100" */
    char *other;              /* the other chips' device codes ("7.0 7.5"), or NULL */
    char glance[80];          /* the newest release with native code, at a glance */
    const char *glance_class; /* its class: n(ewest), o(lder), j(it), x (none), t (Jetson) */
};
struct sitedata_home_segment {
    const char *id, *title;
    struct sitedata_home_gpu *gpus;
    size_t n;
};
struct sitedata_home_release {
    const struct dbview_row *row; /* its newest version's first row */
    char *page;
    const struct dbview_row **variants; /* its Linux x86_64 rows */
    char **ranges;                      /* per variant: "sm_50 … sm_120", "" none */
    size_t n;
};
struct sitedata_home {
    struct sitedata_home_segment *segments;
    size_t nsegments;
    struct sitedata_home_release releases[3];
    size_t nreleases;
    size_t gpu_count;
    const struct sitedata *d; /* borrowed: the Python box's choices are the GPU pages' */
};
void sitedata_home_free(struct sitedata_home *h);
void sitedata_home_value(const struct sitedata_home *h, struct tmpl_value *out);

#endif
