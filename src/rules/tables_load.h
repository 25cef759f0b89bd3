/*
 * tables_load: what the files of tables share.  Not for other modules.
 * tables.c loads every table (tables_load) in this order and frees them;
 * each loader is in the file of its tables:
 *   tables_releases.c  declared arch lists, releases, Pythons, companions,
 *                      GPU libraries, and the lookups by release
 *   tables_cuda.c      toolkits and drivers, minor-version compatibility,
 *                      PTX ISAs, family targets, which toolkit builds what
 *   tables_gpus.c      NVIDIA GPUs (Tegra ones too) and AMD processors
 *   tables_variants.c  variant names: their CUDA or ROCm, their order
 */
#ifndef WHEELARCH_TABLES_LOAD_H
#define WHEELARCH_TABLES_LOAD_H

#include "error.h"
#include "tables_types.h"

int tablesi_parse_cc(const char *s, uint16_t *cc);
int tablesi_load_gpus(const char *dir, struct tables *t, struct wa_error *err);
int tablesi_load_toolkits(const char *dir, struct tables *t, struct wa_error *err);
int tablesi_load_compat(const char *dir, struct tables *t, struct wa_error *err);
int tablesi_load_isas(const char *dir, struct tables *t, struct wa_error *err);
int tablesi_load_families(const char *dir, struct tables *t, struct wa_error *err);
int tablesi_load_declared(const char *dir, struct tables *t, struct wa_error *err);
int tablesi_load_releases(const char *dir, struct tables *t, struct wa_error *err);
void tablesi_build_indexes(struct tables *t);
int tablesi_load_arch_support(const char *dir, struct tables *t, struct wa_error *err);
int tablesi_load_gpu_libraries(const char *dir, struct tables *t, struct wa_error *err);
int tablesi_load_pythons(const char *dir, struct tables *t, struct wa_error *err);
int tablesi_load_companions(const char *dir, struct tables *t, struct wa_error *err);
int tablesi_load_companion_platforms(const char *dir, struct tables *t, struct wa_error *err);
int tablesi_load_amd_targets(const char *dir, struct tables *t, struct wa_error *err);
int tablesi_load_amd_gpus(const char *dir, struct tables *t, struct wa_error *err);

#endif
