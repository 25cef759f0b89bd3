/*
 * feed_device: a device's feed file (api/v1/gpu/<id>.json), which the GPU
 * pages' driver box and the home filter load, from its page's data.
 */
#ifndef WHEELARCH_FEED_DEVICE_H
#define WHEELARCH_FEED_DEVICE_H

#include <jansson.h>

#include "sitedata_device.h"

/* The device's feed file, from its page's data (the same grids).  A new
 * tree the caller owns. */
json_t *feed_device_json(const struct sitedata_device_page *p);

#endif
