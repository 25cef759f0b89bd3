/*
 * query: "what runs on my GPU" — a verdict per variant of one release and
 * the index to install from.
 *
 * The result is a JSON object, a public interface (`wheelarch query
 * --json`), from which the text output is also made:
 *
 *   {"schema_version": QUERY_SCHEMA_VERSION,
 *    "gpu": {"name", "compute_capability", "architecture", "tegra"} ,
 *    "driver": {"version", "cuda"} or null,
 *    "python": {"version", "free_threaded", "source"} or null,
 *    "project", "version", "platform",
 *    "variants": [{"variant", "version", "index_url", "status", "cuda",
 *                  "min_driver", "verdict", "label", "reason", "via",
 *                  "code", "code_reason", "driver_blocks", "needed_driver",
 *                  "python_wheel", "python_versions", "blocked_by", "runs"}],
 *    "recommendation": {"index", "index_url", "version", "pin", "verdict",
 *                       "reason", "python_versions", "commands": {"pip", "uv"}}
 *                      or null,
 *    "fallback": the same for the newest release that works, or null,
 *    "newest_with_code", "newest_that_runs": the same, or null,
 *    "change": [{"kind": "driver" | "python" | "release" | "source", "text", ...}],
 *    "notes": [...]}
 *
 * Each row is judged on platform, code, Python and driver apart; its
 * headline is the first that blocks (docs/answers.md).
 */
#ifndef WHEELARCH_QUERY_H
#define WHEELARCH_QUERY_H

#include <jansson.h>
#include <stdint.h>

#include "dbview.h"
#include "dotver.h"
#include "error.h"
#include "tables.h"

/* The version of query's JSON shape (its "schema_version"): 2 split the
 * code from the driver and the Python (docs/answers.md). */
#define QUERY_SCHEMA_VERSION 2

struct query_order;

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

/* {"pip": "pip install PROJECT==PIN --index-url URL", "uv": "uv pip install
 * ..."}: the commands of an answer.  New reference. */
json_t *query_commands(const char *project, const char *pin, const char *index_url);

/* Runs the query.  Returns a new JSON object, or NULL with err set
 * (WA_ERR_USAGE: no such project, release or platform in the data). */
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
