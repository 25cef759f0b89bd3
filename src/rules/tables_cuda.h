/*
 * tables_cuda: lookups over the CUDA tables (tables_types.h): toolkits
 * and the drivers they need, minor-version compatibility, PTX ISA per
 * toolkit, family-specific targets, and which toolkit and driver branch
 * last serve a compute capability.
 */
#ifndef WHEELARCH_TABLES_CUDA_H
#define WHEELARCH_TABLES_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "dotver.h"
#include "tables_types.h"

/* Compute capabilities a family-specific target runs on; a target missing
 * from the table runs on itself only.  Returns the count written. */
size_t tables_family(const struct tables *t, uint16_t target, uint16_t *out, size_t max);

/* The minimum driver for a program built with CUDA major.x to load
 * (minor-version compatibility), or NULL. */
const struct minor_compat *tables_minor_compat(const struct tables *t, int cuda_major);

/* The newest toolkit a driver supports natively (Table 3), or NULL. */
const struct toolkit *tables_driver_cuda(const struct tables *t, const struct dotver *driver,
                                         int os);

/* The PTX ISA a toolkit emits (12.6 -> 8.5), or NULL. */
const struct ptx_isa *tables_isa_of_cuda(const struct tables *t, const struct dotver *cuda);

/* The first public toolkit that emits ISA `isa` (8.7 -> 12.8), or NULL. */
const struct ptx_isa *tables_cuda_of_isa(const struct tables *t, const struct dotver *isa);

/* The toolkit row of a CUDA version (first release of major.minor), or NULL. */
const struct toolkit *tables_toolkit(const struct tables *t, const struct dotver *cuda);
/* The first toolkit that supports cc (Table 3 row): a driver older than
 * its driver does not know the GPU.  NULL when not known. */
const struct toolkit *tables_first_toolkit(const struct tables *t, uint16_t cc);
/* The support row of cc when NVIDIA's drivers for it end at a branch
 * (arch_support.last_branch), else NULL. */
const struct arch_support *tables_driver_branch_end(const struct tables *t, uint16_t cc);
/* Whether a driver version is of a branch after a's last (a driver the GPU
 * cannot run); 0 when a is NULL. */
int tables_driver_beyond(const struct arch_support *a, const struct dotver *driver);
/* The newest CUDA toolkit that still compiles SASS for cc ("11.8"), or
 * NULL when current toolkits do. */
const char *tables_last_toolkit(const struct tables *t, uint16_t cc);

#endif
