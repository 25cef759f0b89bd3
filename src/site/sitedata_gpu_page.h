/*
 * sitedata_gpu_page: a GPU page's data (gpu/<slug>/), typed over the
 * answers of its device.
 */
#ifndef WHEELARCH_SITEDATA_GPU_PAGE_H
#define WHEELARCH_SITEDATA_GPU_PAGE_H

#include <stddef.h>

#include "sitedata_types.h"
#include "target.h"

/* A GPU page's data, typed: the GPU, its device's answers per platform
 * (borrowed from what the pages share) and what the page derives from
 * them.  The templates read it through sitedata_gpu_page_value; no JSON
 * tree is made, but for the driver box's script, which is JSON. */
struct answer_result;
struct answer_guidance;
struct sitedata_device;
struct sitedata_gpu_page {
    const struct sitedata *d;
    const struct gpu *g;
    const struct sitedata_device *dev;
    char device[16];                  /* "6.1" or "gfx1100" */
    char gfx_target[TARGET_NAME_MAX]; /* AMD: with its feature modes ("gfx90a:xnack-") */
    char *page;                       /* gpu/<slug>/ */
    char *other_text;                 /* the other chips sold under the name in words, or NULL */
    char *description;                /* the one-line answer for search results */
    const char *patch_pin; /* an answer pinned to a patch the timeline does not show, or NULL */
    const struct answer_guidance *guidance; /* or NULL */
    struct sitedata_gpu_platform
        plats[SITEDATA_NPLATFORMS]; /* the platforms with an answer, in order */
    size_t nplats;
    int driver_box; /* the driver box is shown */
};
/* Makes page i (< sitedata_gpu_count) into *p; free with
 * sitedata_gpu_page_free. */
void sitedata_gpu_page_make(const struct sitedata *d, size_t i, struct sitedata_gpu_page *p);
void sitedata_gpu_page_free(struct sitedata_gpu_page *p);
/* The page as a template value (borrowing p, which must outlive it). */
struct tmpl_value;
void sitedata_gpu_page_value(const struct sitedata_gpu_page *p, struct tmpl_value *out);
/* The history's groups ({{#releases}} of gpu_releases). */
void sitedata_device_history_releases(const struct sitedata_device *dev, struct tmpl_value *out);

#endif
