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
 * The result is a typed value (stack_result); its JSON (stack_json) is a
 * public interface (`wheelarch query --stack --json`):
 *
 *   {"stack": [QUERY_RESULT + {"stack_note": TEXT or absent,
 *                              "together": {"index", "index_url",
 *                                           "versions": {PROJECT: PIN},
 *                                           "commands": {"pip", "uv"}}
 *                                          or absent}]}
 *
 * QUERY_RESULT being query's answer for that project as answer_json writes it.
 */
#ifndef WHEELARCH_STACK_H
#define WHEELARCH_STACK_H

#include <jansson.h>

#include "answer.h"
#include "dbview.h"
#include "query.h"

/* The projects of v, not GPU libraries (their code is in their users'
 * verdicts); torch first, then by name.  with_declared: also those known
 * only from the declared lists (the site's matrices); else only crawled
 * ones (what stack_run answers for).  Sets *n; the names are borrowed
 * from v.  Caller frees the array. */
const char **stack_projects(const struct dbview *v, int with_declared, size_t *n);

/* torch and a companion installed together from one index. */
struct stack_together {
    const char *index;               /* borrowed: the variant */
    char *index_url;                 /* owned */
    char *torch_pin, *pin;           /* owned: torch's and the companion's */
    struct answer_commands commands; /* owned */
};

struct stack_entry {
    struct answer_result *res; /* owned: query's answer for the project */
    char *note;                /* owned: when it does not go with torch's, or NULL */
    int has_together;
    struct stack_together together;
};

struct stack_result {
    struct stack_entry *entries; /* torch first */
    size_t n;
};

/* Runs query_answer for every project of stack_projects(v) with o (its
 * project and version ignored) and checks them together.  Projects the
 * query has no answer for on o's platform are left out.  Returns a new
 * result (stack_free); never NULL. */
struct stack_result *stack_answer(const struct dbview *v, const struct query_options *o);

/* stack_answer for the projects of stack_projects(v, 0, ...) already
 * listed: a caller asking for many GPUs lists them once. */
struct stack_result *stack_answer_projects(const struct dbview *v, const struct query_options *o,
                                           const char *const *names, size_t n);

/* Frees s and what it owns (the answers borrow from v, which must outlive
 * s); NULL is fine. */
void stack_free(struct stack_result *s);

/* An entry's "together" as JSON (above): a new object. */
json_t *stack_together_json(const struct stack_entry *e);

/* s as JSON (above): a new object. */
json_t *stack_json(const struct stack_result *s);

/* stack_answer and stack_answer_projects written as JSON. */
json_t *stack_run(const struct dbview *v, const struct query_options *o);
json_t *stack_run_projects(const struct dbview *v, const struct query_options *o,
                           const char *const *names, size_t n);

#endif
