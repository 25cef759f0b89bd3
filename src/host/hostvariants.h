/*
 * hostvariants: the wheel-variant properties (PEP 825) this machine
 * supports, in the namespaces and features a variant provider reports and
 * the files of api/v1/variants/ use (pepvariants.h):
 *
 *   nvidia :: sm_arch :: {MAJOR}{MINOR}_real   SASS that runs natively on
 *                                               every NVIDIA GPU given
 *   nvidia :: sm_arch :: {MAJOR}{MINOR}_virtual PTX they all JIT-compile
 *   nvidia :: cuda_version_lower_bound :: X.Y   every CUDA up to what the
 *                                               driver supports natively
 *                                               (and each major "X" it covers)
 *   amd :: gfx_arch :: gfxNNN                   the AMD processor, when every
 *                                               AMD GPU is that processor
 *   amd :: rocm_version :: X.Y                  the installed ROCm
 *
 * The rules are wheelarch's (compat.h), judged per GPU: a property holds
 * when it holds for every GPU of its vendor, so that a variant selected
 * with them runs on each.
 */
#ifndef WHEELARCH_HOSTVARIANTS_H
#define WHEELARCH_HOSTVARIANTS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "dotver.h"
#include "tables.h"

/* A PEP 825 value list: the n strings (taken, with the array) sorted
 * lexically, each once, as a new JSON array.  Also what the files of
 * api/v1/variants/ are made with. */
json_t *hostvariants_values(char **values, size_t n);

/* ccs: the machine's device codes (compute capabilities and AMD
 * processors); driver (n == 0: unknown) and os (enum tables_os) for the
 * CUDA bounds; rocm "6.4.1" or NULL.  Returns a new object
 * {NAMESPACE: {FEATURE: [VALUE...]}}, values sorted lexically. */
json_t *hostvariants_properties(const struct tables *t, const uint16_t *ccs, size_t n,
                                const struct dotver *driver, int os, const char *rocm);

/* props (hostvariants_properties' form, borrowed) as static compatibility
 * lists: each feature's values in order of preference, the most preferred
 * first, as a provider reports them and an installer given a static list
 * ranks them: sm_arch's _real values newest architecture first, then the
 * _virtual ones; cuda_version_lower_bound newest first, each major after
 * its minors ("12.8", ..., "12.0", "12", "11.8", ...).  New reference. */
json_t *hostvariants_ordered(json_t *props);
/* The same in the shape the draft of PEP 850 gives static compatibility
 * lists: {NAMESPACE: {"static-properties": {FEATURE: [VALUE...]}}}, as
 * `variants --static` prints them and api/v1/variants/static/ has them.
 * New reference. */
json_t *hostvariants_static_lists(json_t *props);

#endif
