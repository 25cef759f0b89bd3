/*
 * feed_variant_lists: a device's static compatibility lists
 * (api/v1/variants/static/<id>.json): the wheel-variant properties a
 * machine with that GPU supports, per driver, in the shape PEP 850's
 * draft gives a static list (providers.{namespace}.static-properties,
 * each feature's values most preferred first), so that an installer, or a
 * person writing one for their installer, can use them in place of asking
 * a provider plugin.  `wheelarch variants` says the same of a machine
 * (hostvariants.h).
 */
#ifndef WHEELARCH_FEED_VARIANT_LISTS_H
#define WHEELARCH_FEED_VARIANT_LISTS_H

#include <jansson.h>
#include <stdint.h>

#include "tables.h"

/* The document of device cc (its id "8.6", "gfx1100"): for an NVIDIA
 * device, one entry per CUDA minor of Table 3 from the first that knows
 * the GPU to the last its drivers reach, newest first, each with its
 * Linux minimum driver and the lists a machine with that driver has (a
 * GPU no such driver supports, Fermi: its code lists alone, with a note);
 * for an AMD processor, its gfx_arch list (rocm_version is the installed
 * ROCm's, which no file can know).  A new tree the caller owns. */
json_t *feed_variant_lists_json(const struct tables *t, uint16_t cc, const char *id);

/* Where it is written: "api/v1/variants/static/<id>.json".  Caller frees. */
char *feed_variant_lists_path(const char *id);

#endif
