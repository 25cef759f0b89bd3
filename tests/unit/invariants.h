/*
 * invariants: the tally of a property test (test_answers, test_stack).
 * Each invariant is a sentence a person acts on; every check of it is
 * counted, its first five failures printed, and invariants_done reports
 * one line per invariant and fails one that failed or was never checked.
 */
#ifndef WHEELARCH_TEST_INVARIANTS_H
#define WHEELARCH_TEST_INVARIANTS_H

#include <stdio.h>

#include "harness.h"
#include "tables.h"

struct invariants {
    const char *const *names; /* one sentence per invariant */
    long *checks, *fails;     /* per invariant, zeroed */
    int n;
};

static inline void invariants_check(struct invariants *v, int inv, int ok, const char *what)
{
    v->checks[inv]++;
    if (!ok && v->fails[inv]++ < 5)
        fprintf(stderr, "  [%s] %s\n", v->names[inv], what);
}

static inline void invariants_done(const struct invariants *v)
{
    for (int i = 0; i < v->n; i++) {
        printf("  %-90s %ld checks, %ld fail\n", v->names[i], v->checks[i], v->fails[i]);
        OK(v->fails[i] == 0, "%s: %ld of %ld fail", v->names[i], v->fails[i], v->checks[i]);
        OK(v->checks[i] > 0, "%s: never checked", v->names[i]);
    }
}

/* Whether GPU g of t is alike an earlier one for every question (compute
 * capability, Tegra, Arm-only, feature mode): the earlier one stands for
 * it, so a test asks each kind of GPU once. */
static inline int invariants_gpu_seen(const struct tables *t, size_t g)
{
    const struct gpu *gp = &t->gpus[g];
    for (size_t h = 0; h < g; h++)
        if (t->gpus[h].cc == gp->cc && t->gpus[h].tegra == gp->tegra &&
            t->gpus[h].arm_host == gp->arm_host && t->gpus[h].gfx.xnack == gp->gfx.xnack)
            return 1;
    return 0;
}

#endif
