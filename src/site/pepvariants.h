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

/* The two formats written, each file following exactly one:
 * - PEP 825 (Wheel Variants: package format, provisional), schema 0.1.1,
 *   the one installers read today (uv's preview accepts this $schema
 *   only): api/v1/variants/{file};
 * - the draft of PEP 850 (Wheel Variants: Providers), schema 0.2.0, which
 *   adds `providers` (one entry per namespace: the plugin that reports
 *   the machine's properties) and keeps labels to 16 characters:
 *   api/v1/variants/v0.2.0/{file}. */
#define PEPVARIANTS_SCHEMA "https://variants-schema.wheelnext.dev/peps/825/v0.1.1.json"
#define PEPVARIANTS_DRAFT_SCHEMA "https://variants-schema.wheelnext.dev/peps/826/v0.2.0.json"
#define PEPVARIANTS_DRAFT_DIR "v0.2.0"
/* The providers the 0.2.0 files name: the wheelnext project's plugins
 * (wheelnext/nvidia-variant-provider nvidia_variant_provider/plugin.py,
 * wheelnext/amd-variant-provider pyproject.toml's entry point). */
#define PEPVARIANTS_NVIDIA_PROVIDER "nvidia-variant-provider"
#define PEPVARIANTS_NVIDIA_PLUGIN "nvidia_variant_provider.plugin:NvidiaVariantPlugin"
#define PEPVARIANTS_AMD_PROVIDER "amd-variant-provider"
#define PEPVARIANTS_AMD_PLUGIN "amd_variant_provider.plugin:AMDVariantPlugin"
/* The longest label schema 0.2.0 takes. */
#define PEPVARIANTS_DRAFT_LABEL_MAX 16

/* Calls fn for each (project, version) of v with builds read: its file
 * name ("torch-2.9.0-variants.json") and its documents in each format
 * (doc: 0.1.1, draft: 0.2.0; borrowed for the call), in (project,
 * version) order; stops at the first nonzero return, which it returns.
 * *index receives the listing of every file (new reference):
 * [{"project", "version", "file", "draft_file", "labels": {LABEL:
 * {"variant", "platforms", "sm_arch_specific", "draft_label"}}}]. */
int pepvariants_each(const struct dbview *v, const struct tables *t,
                     int (*fn)(void *ud, const char *file, json_t *doc, json_t *draft), void *ud,
                     json_t **index);

/* api/v1/variants/formats.json: which specification, revision and schema
 * each folder's files follow, with their status (provisional, draft), and
 * the static lists per device (feed_variant_lists).  New reference. */
json_t *pepvariants_formats(void);

#endif
