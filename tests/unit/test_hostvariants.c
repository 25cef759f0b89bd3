/*
 * Unit tests: hostvariants, the PEP 825 properties a machine supports.
 * Expected values are written by hand from docs/compat.md and the CUDA
 * driver table (data/), and checked with invariants over every NVIDIA GPU
 * class of the tables: the value lists are sorted and unique, a
 * `_real` architecture is SASS that runs on every GPU given, a `_virtual`
 * one PTX that every GPU can compile, and a machine of two GPUs supports
 * only what both do.
 *
 * usage: test_hostvariants DATA_DIR
 */
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "harness.h"
#include "jsonlist.h"
#include "hostvariants.h"
#include "tables.h"

static struct tables T;

static json_t *feature(json_t *props, const char *ns, const char *name)
{
    return json_object_get(json_object_get(props, ns), name);
}

static json_t *props(const uint16_t *ccs, size_t n, const char *driver, const char *rocm)
{
    struct dotver d = {0};
    if (driver)
        dotver_parse(driver, &d);
    return hostvariants_properties(&T, ccs, n, &d, TABLES_LINUX, rocm);
}

/* Invariants for the machine ccs[0..n): each listed architecture holds for
 * every GPU, and each architecture of the tables that holds is listed. */
static void check_sm(const uint16_t *ccs, size_t n, const char *what)
{
    json_t *p = props(ccs, n, NULL, NULL);
    json_t *sm = feature(p, "nvidia", "sm_arch");
    OK(json_is_array(sm) && jsonlist_sorted_unique(sm), "%s: sm_arch sorted, each once", what);
    OK(!feature(p, "nvidia", "cuda_version_lower_bound"), "%s: no CUDA bound without a driver",
       what);
    for (size_t g = 0; g < T.ngpus; g++) {
        uint16_t arch = T.gpus[g].cc;
        if (arch >= TABLES_AMD_MIN)
            continue;
        int real = 1, virt = 1;
        for (size_t i = 0; i < n; i++) {
            /* docs/compat.md: SASS sm_XY runs on a GPU of the same major
             * and a minor not lower (not across the Tegra line, nor with
             * an arch-specific suffix); PTX of a version not above the GPU's
             * compiles there */
            struct target s = {0}, x = {0};
            s.kind = TARGET_SASS;
            s.arch = arch;
            x.kind = TARGET_PTX;
            x.arch = arch;
            real &= compat_sass_runs(&T, &s, ccs[i]);
            virt &= compat_ptx_jits(&T, &x, ccs[i]);
        }
        char rv[32], vv[32];
        snprintf(rv, sizeof rv, "%u_real", (unsigned)arch);
        snprintf(vv, sizeof vv, "%u_virtual", (unsigned)arch);
        OK(jsonlist_has(sm, rv) == real, "%s: %s listed exactly when sm_%u runs on every GPU", what,
           rv, (unsigned)arch);
        OK(jsonlist_has(sm, vv) == virt,
           "%s: %s listed exactly when compute_%u compiles on every GPU", what, vv, (unsigned)arch);
        OK(!real || virt, "%s: SASS sm_%u runs, so its PTX compiles", what, (unsigned)arch);
    }
    json_decref(p);
}

int main(int argc, char **argv)
{
    struct wa_error err;
    if (argc < 2 || tables_load(argv[1], &T, &err) < 0) {
        fprintf(stderr, "usage: test_hostvariants DATA_DIR: %s\n", argc < 2 ? "" : err.msg);
        return 2;
    }
    /* Hand-written: a GTX 1080 Ti (6.1). */
    uint16_t pascal = 61, ampere = 86;
    json_t *p = props(&pascal, 1, "580.65.06", NULL);
    json_t *sm = feature(p, "nvidia", "sm_arch");
    OK(jsonlist_has(sm, "60_real") && jsonlist_has(sm, "61_real") && !jsonlist_has(sm, "62_real") &&
           !jsonlist_has(sm, "70_real"),
       "6.1: sm_60 and sm_61 run natively, sm_62 (Tegra) and sm_70 do not");
    OK(jsonlist_has(sm, "52_virtual") && jsonlist_has(sm, "61_virtual") &&
           !jsonlist_has(sm, "70_virtual"),
       "6.1: compute_52 and compute_61 compile, compute_70 does not");
    OK(!json_object_get(p, "amd"), "an NVIDIA-only machine has no amd properties");
    json_t *cv = feature(p, "nvidia", "cuda_version_lower_bound");
    OK(jsonlist_has(cv, "13.0") && jsonlist_has(cv, "13") && jsonlist_has(cv, "12.9") &&
           jsonlist_has(cv, "12") && jsonlist_has(cv, "11.8") && !jsonlist_has(cv, "13.1") &&
           !jsonlist_has(cv, "10.2"),
       "driver 580.65.06: every CUDA 11.0 to 13.0, each major, nothing newer");
    OK(jsonlist_sorted_unique(cv), "the CUDA bounds sorted, each once");
    json_decref(p);
    p = props(&ampere, 1, "535.104.05", NULL);
    cv = feature(p, "nvidia", "cuda_version_lower_bound");
    OK(jsonlist_has(cv, "12.2") && jsonlist_has(cv, "12") && !jsonlist_has(cv, "12.3") &&
           !jsonlist_has(cv, "13"),
       "driver 535.104.05: up to CUDA 12.2");
    json_decref(p);
    /* Two GPUs: only what both support. */
    uint16_t both[2] = {61, 86};
    p = props(both, 2, NULL, NULL);
    sm = feature(p, "nvidia", "sm_arch");
    OK(!jsonlist_has(sm, "61_real") && !jsonlist_has(sm, "86_real") &&
           jsonlist_has(sm, "61_virtual") && !jsonlist_has(sm, "80_virtual"),
       "6.1 + 8.6: no SASS runs on both; PTX up to compute_61 compiles on both");
    json_decref(p);
    /* Every NVIDIA GPU class of the tables, alone and with the next. */
    uint16_t seen[256];
    size_t nseen = 0;
    for (size_t g = 0; g < T.ngpus && nseen < 256; g++) {
        uint16_t cc = T.gpus[g].cc;
        size_t k = 0;
        while (k < nseen && seen[k] != cc)
            k++;
        if (k == nseen && cc < TABLES_AMD_MIN)
            seen[nseen++] = cc;
    }
    for (size_t i = 0; i < nseen; i++) {
        char what[64];
        snprintf(what, sizeof what, "cc %u", (unsigned)seen[i]);
        check_sm(&seen[i], 1, what);
        if (i + 1 < nseen) {
            uint16_t two[2] = {seen[i], seen[i + 1]};
            snprintf(what, sizeof what, "cc %u + %u", (unsigned)seen[i], (unsigned)seen[i + 1]);
            check_sm(two, 2, what);
        }
    }
    OK(nseen > 10, "NVIDIA classes checked (%zu)", nseen);
    /* AMD: one processor names it; two different ones name none. */
    uint16_t navi = 0, mi = 0;
    for (size_t g = 0; g < T.ngpus; g++) {
        if (T.gpus[g].cc >= TABLES_AMD_MIN && !navi)
            navi = T.gpus[g].cc;
        else if (T.gpus[g].cc >= TABLES_AMD_MIN && T.gpus[g].cc != navi && !mi)
            mi = T.gpus[g].cc;
    }
    OK(navi && mi, "two AMD processors in the tables");
    char name[16];
    compat_cc_string(navi, name, sizeof name);
    p = props(&navi, 1, NULL, "6.4.1");
    OK(jsonlist_has(feature(p, "amd", "gfx_arch"), name) &&
           json_array_size(feature(p, "amd", "gfx_arch")) == 1,
       "one AMD GPU: gfx_arch is its processor (%s)", name);
    OK(jsonlist_has(feature(p, "amd", "rocm_version"), "6.4") &&
           json_array_size(feature(p, "amd", "rocm_version")) == 1,
       "ROCm 6.4.1: rocm_version 6.4");
    OK(!json_object_get(p, "nvidia"), "an AMD-only machine has no nvidia properties");
    json_decref(p);
    uint16_t amd2[2] = {navi, mi};
    p = props(amd2, 2, NULL, "not a version");
    OK(json_is_object(json_object_get(p, "amd")) && !feature(p, "amd", "gfx_arch") &&
           !feature(p, "amd", "rocm_version"),
       "two AMD processors: no gfx_arch; an unreadable ROCm version: none");
    json_decref(p);
    uint16_t mixed[2] = {86, navi};
    p = props(mixed, 2, "580.65.06", NULL);
    OK(jsonlist_has(feature(p, "nvidia", "sm_arch"), "86_real") &&
           jsonlist_has(feature(p, "amd", "gfx_arch"), name),
       "NVIDIA and AMD in one machine: each vendor's properties from its own GPUs");
    json_decref(p);
    /* hostvariants_values: sorted, each once. */
    char **vals = malloc(3 * sizeof *vals);
    vals[0] = strdup("b");
    vals[1] = strdup("a");
    vals[2] = strdup("b");
    json_t *l = hostvariants_values(vals, 3);
    OK(json_array_size(l) == 2 && jsonlist_has(l, "a") && jsonlist_sorted_unique(l),
       "values sorted, each once");
    json_decref(l);
    tables_free(&T);
    return harness_done();
}
