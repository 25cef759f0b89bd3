/*
 * stack: the answer for a whole GPU software stack on one GPU and platform —
 * every crawled project (torch first, then by name; not NVIDIA's library
 * wheels, which the projects' own verdicts take in), each with query's
 * answer for its newest release, and a check that the projects can be
 * installed together.
 *
 * A companion (torchvision, xformers, ...) installed from another variant
 * of torch's family of indexes (download.pytorch.org/whl/cuXYZ) than torch
 * is built against another CUDA; pip installs it, and it fails at import
 * or at the first kernel.  When the two recommendations differ inside one
 * family, the stack names the variant in which both have native code for
 * the GPU (the newest CUDA among such), with the one command that installs
 * both from it, or says that there is none.
 *
 * The result is a JSON object, a public interface (`wheelarch query
 * --stack --json`):
 *
 *   {"stack": [QUERY_RESULT + {"stack_note": TEXT or absent,
 *                              "together": {"index", "index_url",
 *                                           "versions": {PROJECT: PIN},
 *                                           "commands": {"pip", "uv"}}
 *                                          or absent}]}
 *
 * QUERY_RESULT being query_run's object for that project.
 */
#ifndef WHEELARCH_STACK_H
#define WHEELARCH_STACK_H

#include <jansson.h>

#include "dbview.h"
#include "query.h"

/* The projects of v, not GPU libraries (their code is in their users'
 * verdicts); torch first, then by name.  with_declared: also those known
 * only from the declared lists (the site's matrices); else only crawled
 * ones (what stack_run answers for).  Sets *n; the names are borrowed
 * from v.  Caller frees the array. */
const char **stack_projects(const struct dbview *v, int with_declared, size_t *n);

/* Runs query_run for every project of stack_projects(v) with o (its
 * project and version ignored) and checks them together.  Projects the
 * query has no answer for on o's platform are left out.  Returns a new
 * object (see above); never NULL. */
json_t *stack_run(const struct dbview *v, const struct query_options *o);

/* stack_run for the projects of stack_projects(v, 0, ...) already listed:
 * a caller asking for many GPUs lists them once. */
json_t *stack_run_projects(const struct dbview *v, const struct query_options *o,
                           const char *const *names, size_t n);

#endif
