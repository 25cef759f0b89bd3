/*
 * pepvariants: wheel-variant index metadata (PEP 825) measured from the
 * wheels: for each (project, version) with builds read, the
 * `{name}-{version}-variants.json` an index links beside variant wheels.
 *
 *   {"$schema": PEPVARIANTS_SCHEMA,
 *    "default-priorities": {"namespace": ["nvidia", "amd"]},   (those used)
 *    "variants": {LABEL: {"nvidia": {"cuda_version_lower_bound": ["12.8"],
 *                                    "sm_arch": ["120_real", "80_real", ...,
 *                                                "120_virtual"]},
 *                         "amd": {"gfx_arch": [...], "rocm_version": ["6.4"]}},
 *                 "null": {}}}                               (a CPU build)
 *
 * LABEL is the variant id (cu128, rocm6.4); where the platforms' builds of
 * a variant carry different code, one label per platform
 * ("cu126.linux_aarch64"), so that a label always means one set of
 * properties.  sm_arch lists {MAJOR}{MINOR}_real for every SASS target of
 * the project's own code and _virtual for every PTX target; a and f cubins
 * (sm_90a, sm_100f) are not properties providers ask for and are listed
 * apart, in the index (pepvariants_index).  gfx_arch lists processors,
 * a generic target (gfx11-generic) as the processors it covers.  Values
 * are sorted lexically, as PEP 825 says.
 *
 * Only builds read from wheels (verified, inferred) count, never the
 * declared lists: these are measured properties.
 */
#ifndef WHEELARCH_PEPVARIANTS_H
#define WHEELARCH_PEPVARIANTS_H

#include <jansson.h>

#include "dbview.h"
#include "tables.h"

#define PEPVARIANTS_SCHEMA "https://variants-schema.wheelnext.dev/peps/825/v0.1.1.json"

/* Calls fn for each (project, version) of v with builds read: its file
 * name ("torch-2.9.0-variants.json") and document (borrowed for the call),
 * in (project, version) order; stops at the first nonzero return, which it
 * returns.  *index receives the listing of every file (new reference):
 * [{"project", "version", "file", "labels": {LABEL: {"variant",
 * "platforms", "sm_arch_specific"}}}]. */
int pepvariants_each(const struct dbview *v, const struct tables *t,
                     int (*fn)(void *ud, const char *file, json_t *doc), void *ud, json_t **index);

#endif
