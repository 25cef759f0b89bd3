/*
 * tables_variants: variant ids as names (no table needed): the CUDA or
 * ROCm version an id names and the order ids are shown in.
 */
#ifndef WHEELARCH_TABLES_VARIANTS_H
#define WHEELARCH_TABLES_VARIANTS_H

#include <stddef.h>

#include "dotver.h"

/* Whether a variant id is a ROCm one ("rocm6.4"); with *rocm set to its
 * version when given. */
int tables_variant_rocm(const char *variant, struct dotver *rocm);

/* Orders variant ids: cpu and other non-GPU ids first, then CUDA by
 * version (cu126 < cu128 < cu130), then ROCm by version (rocm7.2 <
 * rocm7.14); ties by name.  strcmp-style result. */
int tables_variant_cmp(const char *a, const char *b);

/* CUDA version of a variant id: "cu128" -> 12.8; "cu12x" (any 12.x) ->
 * 12.0, the oldest whose driver runs every 12.x build (minor-version
 * compatibility).  Returns 0 or -1. */
int tables_variant_cuda(const char *variant, struct dotver *cuda);
/* The CUDA version a variant id names, as pages and feeds write it:
 * "12.8", "12.x" for "cu12x"; "" for an id that names none. */
void tables_variant_cuda_text(const char *variant, char *buf, size_t n);

#endif
