/*
 * feed_gpus: api/v1/gpus.json, every GPU and its answers, from the GPU
 * pages' shared data (sitedata_gpus).
 */
#ifndef WHEELARCH_FEED_GPUS_H
#define WHEELARCH_FEED_GPUS_H

#include <jansson.h>

struct sitedata;

/* The document: {"meta", "gpus": [{name, slug, vendor, device, ..., page,
 * "recommendations": {platform: answer or null}}]}, in the GPU pages'
 * order.  A new tree the caller owns. */
json_t *feed_gpus_json(const struct sitedata *d);

#endif
