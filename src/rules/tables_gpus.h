/*
 * tables_gpus: lookups over the GPU tables (tables_types.h): which
 * compute capabilities are Tegra parts, AMD processors and the modes an
 * AMD device runs in.  tables_gpus.c also loads NVIDIA's GPUs and AMD's
 * processors (tables_load.h).
 */
#ifndef WHEELARCH_TABLES_GPUS_H
#define WHEELARCH_TABLES_GPUS_H

#include <stdint.h>

#include "tables_types.h"
#include "target.h"

/* Whether cc is an integrated Tegra/Jetson part (3.2, 5.3, 6.2, 7.2, 8.7,
 * 10.1 / 11.0 Thor). */
int tables_is_tegra(uint16_t cc);

/* The AMD processor with this arch (generic or not), or NULL. */
const struct amd_processor *tables_amd_processor(const struct tables *t, uint16_t arch,
                                                 int generic);

/* An AMD device code's processor and the modes it runs in: those of the
 * first GPU of the table with that processor, else off for the features it
 * supports.  Returns 0, or -1 when cc is not an AMD device code. */
int tables_amd_device(const struct tables *t, uint16_t cc, struct target *device);

#endif
