/*
 * query: "what runs on my GPU" — the answer engine's decision.
 *
 * query_answer judges every variant of one release on platform, code,
 * Python and driver apart (verdict.h; the headline is the first that
 * blocks, docs/answers.md) and answers three questions: the newest release
 * that runs as things are, the newest with code whatever the driver, and
 * what to change.  The result is a typed value (answer.h) that every
 * caller reads; query_run is the same written as JSON (answer_json.h),
 * the public interface of `wheelarch query --json`.
 */
#ifndef WHEELARCH_QUERY_H
#define WHEELARCH_QUERY_H

#include <jansson.h>
#include <stdint.h>

#include "answer.h"
#include "answer_json.h"
#include "dbview.h"
#include "dotver.h"
#include "error.h"
#include "tables.h"

struct query_order;

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
    const char *project;  /* normalised; "torch" */
    const char *version;  /* "2.8", "2.8.0", or NULL for the newest */
    const char *platform; /* "linux-x86_64", "linux-aarch64", "windows-x86_64" */
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
    /* The GPU comes only in Arm (Grace) systems; also taken from gpu. */
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

/* The view's rows in the order a query reads them (newest release first,
 * then variant preference, newest version, best source), grouped by
 * project and platform, for query_options.order.  It borrows nothing from
 * the view but its size; read-only once made, so threads may share it.
 * Caller frees with query_order_free. */
struct query_order *query_order_new(const struct dbview *v);
void query_order_free(struct query_order *q);
/* The view rows of project on platform, in query order, borrowed from q
 * (NULL and *n = 0: none). */
const size_t *query_order_rows(const struct query_order *q, const char *project,
                               const char *platform, size_t *n);

/* Runs the query: a new answer (answer_free), borrowing from v and o,
 * or NULL with err set (WA_ERR_USAGE: no such project, release or platform
 * in the data). */
struct answer_result *query_answer(const struct dbview *v, const struct query_options *o,
                                   struct wa_error *err);

/* query_answer written as JSON (answer_json): a new object, or NULL with
 * err set. */
json_t *query_run(const struct dbview *v, const struct query_options *o, struct wa_error *err);

/* Rows whose binaries disagree with PyTorch's declared arch list, as
 * [{project, version, variant, platform, status, declared, differences}];
 * version and platform may be NULL (all). */
json_t *query_differences(const struct dbview *v, const char *project, const char *version,
                          const char *platform);

/* Whether download.pytorch.org's wheels for a platform can run on a GPU
 * at all: not for Jetson (Tegra) parts, whose L4T system needs NVIDIA's
 * Jetson builds, except Thor (an SBSA system) on linux-aarch64; only
 * linux-aarch64 for GPUs that come only in Arm systems (arm_host: Grace
 * Hopper, Grace Blackwell, DGX Spark). */
int query_applies(uint16_t cc, int tegra, int arm_host, const char *platform);
/* Whether a Tegra part runs an SBSA system (Thor). */
int query_tegra_sbsa(uint16_t cc);
/* NVIDIA's page on PyTorch for Jetson. */
extern const char *query_jetson_url;

/* The platform id of this machine ("linux-x86_64", ...). */
const char *query_this_platform(void);

#endif
