/*
 * variantprops: a build's GPU code as wheel-variant properties (PEP 825),
 * the terms of api/v1/variants/ and of doctor's report of an installed
 * distribution, beside which hostvariants gives a machine's:
 *
 *   nvidia :: sm_arch :: {MAJOR}{MINOR}_real    each plain SASS target
 *   nvidia :: sm_arch :: {MAJOR}{MINOR}_virtual each plain PTX target
 *   nvidia :: cuda_version_lower_bound :: X.Y   the variant's CUDA ("12"
 *                                               for a cu12x build)
 *   amd :: gfx_arch :: gfxNNN                   each processor (a generic
 *                                               target as those it covers)
 *   amd :: rocm_version :: X.Y                  the variant's ROCm
 *
 * a and f targets (sm_90a, sm_100f) are not properties providers ask for:
 * they are given apart.  Values sorted lexically.
 */
#ifndef WHEELARCH_VARIANTPROPS_H
#define WHEELARCH_VARIANTPROPS_H

#include <jansson.h>

#include "dbview.h"
#include "tables.h"

/* The properties of row r's code ({NAMESPACE: {FEATURE: [VALUE...]}},
 * empty for code with none), and in *specific its a and f targets' names
 * (new references). */
json_t *variantprops_of_row(const struct dbview_row *r, const struct tables *t, json_t **specific);

/* Whether s is a PEP 825 value or label: [a-z0-9_.]+. */
int variantprops_token(const char *s);

/* Whether a machine's properties (hostvariants_properties) select a
 * build's: every feature of the build shares a value with the machine's,
 * as PEP 825 has an installer choose. */
int variantprops_selects(json_t *machine, json_t *build);

#endif
