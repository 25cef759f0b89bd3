/*
 * multigpu: the answer for a machine with several GPUs.
 *
 * A process may use any GPU of the machine, so a variant is recommended
 * only if it runs on every one: native on all of them first, then through
 * PTX JIT on some, then the newest CUDA (or ROCm).  Installers disagree
 * here (one takes the lowest compute capability, another the highest);
 * wheelarch judges each GPU with query_run and says which GPU decided: the
 * first one whose own best variant is not the machine's.
 *
 * The result is a JSON object, a public interface (`wheelarch query
 * --json` on such a machine):
 *
 *   {"project", "version", "platform",
 *    "gpus": [{"label", "count", "result": QUERY_RESULT}],
 *    "recommendation": ANSWER (as query's) or null,
 *    "decided_by": label or null (every GPU agrees),
 *    "reason": why, in words}
 */
#ifndef WHEELARCH_MULTIGPU_H
#define WHEELARCH_MULTIGPU_H

#include <jansson.h>
#include <stddef.h>

#include "dbview.h"
#include "error.h"
#include "query.h"

struct multigpu_gpu {
    struct query_options o; /* the GPU (gpu or cc) and everything else asked */
    const char *label;      /* "NVIDIA GeForce GTX 1080 Ti (6.1)" */
    size_t count;           /* how many of it the machine has */
};

/* Judges n GPUs (n >= 2; all asked the same project, version and platform).
 * Returns a new object, or NULL with err set when the query fails for one
 * of them (no such project or release). */
json_t *multigpu_run(const struct dbview *v, const struct multigpu_gpu *gpus, size_t n,
                     struct wa_error *err);

#endif
