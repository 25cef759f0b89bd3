/*
 * multigpu: the answer for a machine with several GPUs.
 *
 * A process may use any GPU of the machine, so a variant is recommended
 * only if it runs on every one (its code, the driver and the Python, as
 * each GPU's own answer judges them): native on all of them first, then
 * through PTX JIT on some, then the newest CUDA (or ROCm).  Installers
 * disagree here (one takes the lowest compute capability, another the
 * highest); wheelarch judges each GPU with query_answer and says which GPU
 * decided: the first one whose own best variant is not the machine's.
 * When none runs on every GPU it says, per GPU, what runs there and what
 * to change (a driver update, another Python) instead of "none".
 *
 * Its JSON (`wheelarch query --json` on such a machine, multigpu_json):
 *
 *   {"schema_version", "project", "version", "platform", "driver", "python",
 *    "gpus": [{"label", "count", "result": QUERY_RESULT}],
 *    "recommendation": ANSWER (as query's) or null,
 *    "fallback": ANSWER: without a recommendation, the newest release
 *                with a variant that runs on every GPU, or null,
 *    "decided_by": label or null (every GPU agrees),
 *    "reason": why, in words,
 *    "change": [{"gpu": label, "kind", "text", ...}]: what to change
 *              for a GPU whose own answer needs it (empty when the
 *              machine has an answer)}
 */
#ifndef WHEELARCH_MULTIGPU_H
#define WHEELARCH_MULTIGPU_H

#include <jansson.h>
#include <stddef.h>

#include "answer.h"
#include "dbview.h"
#include "error.h"
#include "query.h"

struct multigpu_gpu {
    struct query_options o; /* the GPU (gpu or cc) and everything else asked */
    const char *label;      /* "NVIDIA GeForce GTX 1080 Ti (6.1)" */
    size_t count;           /* how many of it the machine has */
};

struct multigpu_result {
    const struct multigpu_gpu *gpus; /* borrowed from the caller */
    size_t n;
    struct answer_result **res;            /* owned: each GPU's own answer */
    struct answer_install *recommendation; /* owned, or NULL: none runs on every GPU */
    /* When no variant of the asked release runs on every GPU: the newest
     * older release one of whose variants does (owned), or NULL. */
    struct answer_install *fallback;
    const char *decided_by; /* borrowed label, or NULL */
    char *reason;           /* owned */
};

/* Judges n GPUs (n >= 2; all asked the same project, version and platform).
 * Returns a new result (multigpu_free), or NULL with err set when the
 * query fails for one of them (no such project or release). */
struct multigpu_result *multigpu_answer(const struct dbview *v, const struct multigpu_gpu *gpus,
                                        size_t n, struct wa_error *err);
void multigpu_free(struct multigpu_result *m);

/* The result as JSON (above): a new object. */
json_t *multigpu_json(const struct multigpu_result *m);

/* multigpu_answer written as JSON, or NULL with err set. */
json_t *multigpu_run(const struct dbview *v, const struct multigpu_gpu *gpus, size_t n,
                     struct wa_error *err);

#endif
