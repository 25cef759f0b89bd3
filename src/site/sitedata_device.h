/*
 * sitedata_device: a device's page (device/<id>/), whose data its feed
 * file (api/v1/gpu/<id>.json, feed_device) is written from.
 */
#ifndef WHEELARCH_SITEDATA_DEVICE_H
#define WHEELARCH_SITEDATA_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "sitedata_types.h"

struct tmpl_value;
#include "relgrid.h"

/* A device's page (device/<id>/), typed: every release of its grid per
 * platform and the history of every project; feed_device writes its feed
 * file (api/v1/gpu/<id>.json) from it.  sitedata_device_at gives the
 * devices that have one. */
struct sitedata_device_page {
    const struct sitedata *d;
    const struct sitedata_device *dev;
    int amd;
    char *path;       /* device/<id>/ */
    char *title;      /* "Compute capability 6.1", "AMD gfx1100" */
    char **gpu_pages; /* per GPU of the device, its page (gpu/<slug>/) */
    /* per platform (sitedata_platforms' order): every release's grid, empty
     * where the platform does not apply; the page shows those with rows */
    struct relgrid grid[SITEDATA_NPLATFORMS];
    const struct relgrid *shown[SITEDATA_NPLATFORMS]; /* the grids with rows, the first nplat */
    size_t nplat;
};
const char *sitedata_device_id(const struct sitedata_device *dev); /* "6.1" */
uint16_t sitedata_device_cc(const struct sitedata_device *dev);    /* its device code */
void sitedata_device_page_make(const struct sitedata *d, const struct sitedata_device *dev,
                               struct sitedata_device_page *p);
void sitedata_device_page_free(struct sitedata_device_page *p);
void sitedata_device_page_value(const struct sitedata_device_page *p, struct tmpl_value *out);

#endif
