/*
 * verdict: one row (a variant of a release on a platform) judged on four
 * constraints apart, in the order a person can act on them:
 *
 *   platform  whether this platform's wheels apply to the GPU at all;
 *   code      native SASS, PTX JIT, partial or none (compat_result.code);
 *   Python    whether the row has a wheel for the Python asked about;
 *   driver    the wheel's CUDA floor, a driver that knows the GPU, the
 *             PTX ISA its JIT needs (compat_result.driver_blocks).
 *
 * The headline is the first constraint that blocks: "driver too old" is
 * said only of code that would run, "no Python 3.12 wheel" only of a row
 * whose code and platform fit.  Made once per row by verdict_judge and
 * read through these fields by every writer (answer_json, the CLI's text,
 * the site); no
 * caller re-derives it from strings.
 */
#ifndef WHEELARCH_VERDICT_H
#define WHEELARCH_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "compat.h"

/* What blocks a row, in the order they are weighed. */
enum verdict_block {
    VERDICT_RUNS = 0, /* nothing: it runs */
    VERDICT_PLATFORM,
    VERDICT_CODE,
    VERDICT_PYTHON,
    VERDICT_DRIVER,
    VERDICT_BLOCKS
};

struct verdict {
    int applies;       /* platform: the wheels of this platform can run on the GPU */
    int code;          /* enum compat_verdict of the code alone (native, ptx-jit,
                        * partial, unsupported) */
    int python;        /* 1: a wheel for the Python asked about, 0: none, -1: not
                        * known or none asked */
    int driver_blocks; /* the driver given blocks code that would run */
    int blocked_by;    /* enum verdict_block: the first that blocks */
    int runs;          /* blocked_by == VERDICT_RUNS and the code runs */
    /* The judgement of code and driver, with its reasons and floors. */
    struct compat_result res;
};

/* Judges a row: res is compat_judge's result for it (with the driver when
 * one was given), applies query_applies' for its platform, python
 * 1/0/-1 as above. */
void verdict_judge(const struct compat_result *res, int applies, int python, struct verdict *v);

/* "platform", "code", "python", "driver"; NULL for VERDICT_RUNS. */
const char *verdict_block_name(int b);

/* The label people read in a row's headline: "not for this system" when
 * the platform blocks, "no Python 3.12 wheel" when Python does, else
 * compat's label ("native", "PTX JIT", "partial", "driver too old", "no") (py,
 * python_free_threaded: the Python asked about).  Writes into buf (32 bytes are enough) and returns
 * it. */
const char *verdict_label(const struct verdict *v, uint16_t py, int python_free_threaded, char *buf,
                          size_t n);

#endif
