/*
 * compat: when GPU code runs on a GPU (docs/compat.md).
 *
 *  R1  SASS for X.y runs on X.z when z >= y: same major, never a lower minor.
 *  R2  not among Tegra parts, nor between Tegra and desktop: exact match only.
 *  R3  PTX for X.Y compiles for any CC >= X.Y, later majors included.
 *  R4  "a" targets run only on exactly their CC.
 *  R5  "f" targets run on the members of their family (data table).
 *  R6  the driver must know the PTX ISA to JIT it; a wheel built with CUDA
 *      M.x needs at least the minor-version-compatibility driver of M.
 *
 * AMD (device codes >= TABLES_AMD_MIN, see tables.h):
 *  A1  a code object for gfxNNN runs only on gfxNNN;
 *  A2  a generic target (gfx11-generic) runs on the processors it covers;
 *  A3  a feature the code was built for (xnack+/-, sramecc+/-) must match
 *      the mode the device runs in; code built for "any" runs in both.
 *  There is no JIT: a wheel is native, partial or unsupported.
 *
 * A wheel's GPU code is a set of modules (fatbin containers); a verdict is
 * made per module, then for the wheel: native when SASS covers the GPU in
 * every module, ptx-jit when every module runs but some only through PTX,
 * partial when some modules run and others have nothing for the GPU,
 * unsupported when none runs; then, only for code that would run, the
 * driver: driver-too-old when it is below the wheel's CUDA floor, does
 * not know the GPU, or is too old for the only PTX that would run.  No
 * driver is ever asked of code that has nothing for the GPU.
 */
#ifndef WHEELARCH_COMPAT_H
#define WHEELARCH_COMPAT_H

#include <stddef.h>
#include <stdint.h>

#include "dotver.h"
#include "tables.h"
#include "target.h"

enum compat_verdict {
    COMPAT_NATIVE = 0,
    COMPAT_PTX_JIT,
    COMPAT_PARTIAL,
    COMPAT_DRIVER_TOO_OLD,
    COMPAT_UNSUPPORTED,
    COMPAT_VERDICTS
};

/* The modules of a wheel, grouped by identical target sets. */
struct compat_code_set {
    struct target *targets;
    size_t n;
    size_t modules;
    char *origin; /* NULL: the wheel's own code; else the library it comes
                   * from ("cuDNN 9.10.2.21"), which verdicts name */
};

struct compat_code_isa {
    struct target ptx;
    struct dotver isa;
};

struct compat_code {
    struct compat_code_set *sets;
    size_t nsets;
    size_t modules;
    struct compat_code_isa *isas; /* PTX ISA per PTX target */
    size_t nisas;
};

void compat_code_add_set(struct compat_code *c, const struct target *t, size_t n, size_t modules);
/* Adds the sets (and PTX ISAs) of a library the wheel requires, each
 * labelled with origin (copied), after the wheel's own sets (a code's own
 * sets come first).  compat_judge then judges the wheel's own code first
 * (no code of its own for a GPU: no library helps), and names the
 * libraries that lack code for a GPU its own code runs on. */
void compat_code_add_library(struct compat_code *c, const struct compat_code *lib,
                             const char *origin);
void compat_code_set_isa(struct compat_code *c, const struct target *ptx, const struct dotver *isa);
void compat_code_free(struct compat_code *c);
/* Whether a and b are the same code: the same sets (targets, modules,
 * origin) in the same order and the same PTX ISAs, so that compat_judge
 * gives both the same answer for every query. */
int compat_code_same(const struct compat_code *a, const struct compat_code *b);
/* A hash of what compat_code_same compares, mixed into h (start with 0). */
uint64_t compat_code_hash(uint64_t h, const struct compat_code *c);

int compat_sass_runs(const struct tables *t, const struct target *code, uint16_t cc);
/* Whether an AMD code object target runs on a device (its processor and
 * the modes it runs in: tables_amd_device). */
int compat_gfx_runs(const struct tables *t, const struct target *code, const struct target *device);
int compat_ptx_jits(const struct tables *t, const struct target *code, uint16_t cc);

struct compat_query {
    uint16_t cc; /* device code: compute capability, or AMD processor (tables.h) */
    int has_driver;
    struct dotver driver;
    int os; /* enum tables_os */
    /* AMD: the xnack mode the GPU runs in (enum target_feature: ON, OFF),
     * or TARGET_FEAT_ANY for its default (tables_amd_device) */
    int xnack;
};

struct compat_result {
    /* The headline: the first that blocks, the code before the driver —
     * unsupported or partial when the code says so, driver-too-old only
     * when the code would run (native or PTX JIT) and the driver keeps it
     * from running, else the code's own verdict. */
    int verdict; /* enum compat_verdict */
    char reason[512];
    /* The code alone, as if the driver were new enough: native, ptx-jit,
     * partial or unsupported, and why. */
    int code;
    char code_reason[512];
    /* The driver given (none: 0): it blocks code that would run when it
     * does not know the GPU, is below the wheel's CUDA floor, or cannot
     * compile the PTX the PTX-only modules need; then why, and the lowest
     * driver that would do. */
    int driver_blocks;
    char driver_reason[256];
    char needed_driver[32];
    char min_driver[32];  /* the wheel's driver floor on this OS, "" if unknown */
    char full_driver[32]; /* its toolkit's own driver (Table 3) when newer than
                           * min_driver: below it the wheel runs through
                           * minor-version compatibility; "" otherwise */
    /* NVIDIA's drivers for the GPU end at a branch ("R470"; "" when
     * current drivers support it), and whether this code needs a driver of
     * a later branch: then no driver the GPU runs loads it, and the code
     * counts as unsupported (its reason says so); full_driver is never
     * beyond it (below it, minor-version compatibility is all there is). */
    char branch_limit[8];
    int beyond_branch;
    size_t modules, native_modules, ptx_modules, none_modules;
    struct target via; /* the target that runs (highest SASS, else PTX) */
    int has_via;
};

/* Judges a wheel's code built with CUDA `cuda` (n == 0: unknown / CPU). */
void compat_judge(const struct tables *t, const struct compat_query *q,
                  const struct compat_code *code, const struct dotver *cuda,
                  struct compat_result *r);

/* "native", "ptx-jit", "partial", "driver-too-old", "unsupported". */
const char *compat_verdict_name(int verdict);

/* Short human label: "native", "PTX JIT", "partial", "driver too old", "no". */
const char *compat_verdict_label(int verdict);

/* "12.0" from 120; "gfx1100" from an AMD device code. */
void compat_cc_string(uint16_t cc, char *buf, size_t n);

#endif
