/*
 * sitedata_gpus: what the GPU pages share: the GPU of each page, the
 * Python versions their switch offers, the devices with a page and feed
 * file.
 */
#ifndef WHEELARCH_SITEDATA_GPUS_H
#define WHEELARCH_SITEDATA_GPUS_H

#include <stddef.h>

#include "sitedata_types.h"

/* The GPU pages (gpu/<slug>/), one per GPU name: how many, the GPU of
 * page i, and the Python versions every page's switch offers (oldest
 * first; borrowed). */
struct gpu;
size_t sitedata_gpu_count(const struct sitedata *d);
const struct gpu *sitedata_gpu_of_page(const struct sitedata *d, size_t i);
size_t sitedata_gpu_npythons(const struct sitedata *d);
const char *sitedata_gpu_python(const struct sitedata *d, size_t k);

/* The device slots (sitedata_device_count of them) and the device in slot
 * k when it has a device page (device/<id>/) and feed file
 * (api/v1/gpu/<id>.json), else NULL; the device whose page stands for
 * dev (dev itself, or for an Arm-host device its code's). */
size_t sitedata_device_count(const struct sitedata *d);
const struct sitedata_device *sitedata_device_at(const struct sitedata *d, size_t k);
const struct sitedata_device *sitedata_device_page_of(const struct sitedata *d,
                                                      const struct sitedata_device *dev);
/* The path of dev's feed file in the site ("api/v1/gpu/6.1.json": its
 * page's device's), owned by the caller. */
char *sitedata_device_file(const struct sitedata *d, const struct sitedata_device *dev);

#endif
