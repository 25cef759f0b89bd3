/*
 * feeddb: api/v1/wheelarch.sqlite, the matrix as one small read-only
 * SQLite file for installers that want a single download.
 *
 * Tables (docs/feed.md has the whole schema and example queries):
 *   meta(key, value)        api-version, schema, data-as-of, generator, ...
 *   builds(index_id, platform, project, version, ...)  one row per build:
 *                           SASS, PTX, PTX ISA, gfx, CUDA/ROCm, minimum
 *                           drivers, status, confidence, and the devices
 *                           it runs on natively / through PTX JIT / partly
 *   gpus(name, ...)         the GPU table: vendor, device, architecture
 *
 * The bytes depend only on the site data and the SQLite library: a fixed
 * page size, tables created in a fixed order, rows inserted in key order,
 * then VACUUM; no timestamps.
 */
#ifndef WHEELARCH_FEEDDB_H
#define WHEELARCH_FEEDDB_H

#include <stddef.h>

#include "error.h"
#include "sitedata.h"

/* The schema's version, in meta "schema" and PRAGMA user_version. */
#define FEEDDB_SCHEMA 1

/* Makes the file's bytes from d (its grid and meta).  On success *out is
 * the caller's (free with free()).  Returns 0 or WA_ERR_*. */
int feeddb_make(const struct sitedata *d, unsigned char **out, size_t *len, struct wa_error *err);

#endif
