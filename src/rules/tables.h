/*
 * tables: the data wheelarch ships in data/ (each file's sources are in
 * data/README.md), loaded once, with the lookups the compatibility rules
 * need: GPUs by forgiving name, toolkit and driver tables, PTX ISA per
 * toolkit, family-specific targets, and PyTorch's declared arch lists.
 *
 * Compute capabilities are integers, 10 * major + minor (6.1 -> 61).
 *
 * tables.h is the whole of it: the rows (tables_types.h), loading and
 * freeing them, and the lookups of each group (tables_gpus.h,
 * tables_cuda.h, tables_releases.h, tables_variants.h).
 */
#ifndef WHEELARCH_TABLES_H
#define WHEELARCH_TABLES_H

#include "error.h"
#include "tables_cuda.h"
#include "tables_gpus.h"
#include "tables_releases.h"
#include "tables_types.h"
#include "tables_variants.h"

/* The OS of a platform id as the driver tables have it ("windows-x86_64"
 * -> TABLES_WINDOWS, "windows-arm64" -> TABLES_WINDOWS_ARM; Linux for
 * every other). */
int tables_platform_os(const char *platform);

/* The one platform whose wheels apply to a GPU of host (enum tables_host):
 * "linux-aarch64", "windows-arm64"; NULL for TABLES_HOST_ANY. */
const char *tables_host_platform(int host);

/* Loads every table from dir.  Caller frees with tables_free.  Errors name
 * the file and line. */
int tables_load(const char *dir, struct tables *t, struct wa_error *err);
void tables_free(struct tables *t);

#endif
