/*
 * query: "what runs on my GPU" — the answer engine's decision.
 *
 * query_answer judges every variant of one release on platform, code,
 * Python and driver apart (verdict.h; the headline is the first that
 * blocks, docs/answers.md) and answers three questions: the newest release
 * that runs as things are, the newest with code whatever the driver, and
 * what to change.  The result is a typed value (answer.h) that every
 * caller reads; query_run is the same written as JSON (answer_json.h),
 * the public interface of `wheelarch query --json`.  Its options are in
 * query_types.h, the view's rows in query order in query_order.h.
 */
#ifndef WHEELARCH_QUERY_H
#define WHEELARCH_QUERY_H

#include <jansson.h>
#include <stdint.h>

#include "answer.h"
#include "answer_json.h"
#include "dbview.h"
#include "error.h"
#include "query_order.h"
#include "query_types.h"

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
 * Jetson builds, except Thor (an SBSA system) on linux-aarch64; for GPUs
 * that come only in one kind of Arm system (arm_host, enum tables_host),
 * only its platform: linux-aarch64 for Grace Hopper, Grace Blackwell and
 * DGX Spark, windows-arm64 for RTX Spark. */
int query_applies(uint16_t cc, int tegra, int arm_host, const char *platform);

/* The platform id of this machine ("linux-x86_64", ...). */
const char *query_this_platform(void);

#endif
