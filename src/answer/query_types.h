/*
 * query_types: what a query is asked (query.h): the GPU, driver, project,
 * release, platform and Python, and what a caller may hand it ready-made.
 * The query's own files (query_state.h) share these types without the entry
 * points of query.h.
 */
#ifndef WHEELARCH_QUERY_TYPES_H
#define WHEELARCH_QUERY_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "dotver.h"

struct query_order;   /* query_order.h */
struct gpu;           /* tables.h */
struct compat_result; /* compat.h */

/* A Python: major * 100 + minor, and whether a free-threaded build. */
struct query_python {
    uint16_t python;
    int free_threaded;
};

struct query_options {
    const struct gpu *gpu; /* NULL when only a compute capability is given */
    uint16_t cc;
    int has_driver;
    struct dotver driver;
    const char *driver_text;
    const char *project; /* normalised; "torch" */
    const char *version; /* "2.8", "2.8.0", or NULL for the newest */
    /* "linux-x86_64", "linux-aarch64", "windows-x86_64", "windows-arm64" */
    const char *platform;
    /* Optional: every row of the view already judged for cc without a
     * driver, row i's verdict being judged[judged_index[i]], so a caller
     * that has them (the site's grid) does not pay for judging again;
     * NULL: query judges. */
    const struct compat_result *judged;
    const uint32_t *judged_index;
    /* Optional: the view's rows in the order a query reads them, per
     * project and platform (query_order_new), so that many queries of one
     * view sort it once and read only their own rows; NULL: query looks
     * at every row and sorts the ones it reads. */
    const struct query_order *order;
    /* The kind of Arm system the GPU comes only in (enum tables_host: Grace,
     * RTX Spark), 0 for any; else taken from gpu. */
    int arm_host;
    /* Without gpu, a Tegra compute capability's system is not JetPack but
     * NVIDIA DRIVE or IGX (jetson_takes_jetpack): no Jetson builds. */
    int not_jetpack;
    /* AMD: the xnack mode the GPU runs in (compat_query.xnack), 0 for its
     * default.  Not applied to the precomputed `judged` verdicts. */
    int xnack;
    /* The Python the answer is for (has_python 0: any): major * 100 +
     * minor (tables_python_parse), whether it is a free-threaded build, and
     * where it came from, in words ("python3 on PATH"), or NULL. */
    int has_python;
    uint16_t python;
    int python_free_threaded;
    const char *python_source;
    /* Optional: a driver table for each of these Pythons as well
     * (answer_result.py_tables), for a page whose Python switch answers
     * without asking again. */
    const struct query_python *table_pythons;
    size_t ntable_pythons;
};

#endif
