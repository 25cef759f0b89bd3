/*
 * observed: published torch.cuda.get_arch_list() outputs of official
 * wheels (data/observed_arch_lists.csv), a second source beside the
 * declared build lists (tables.h, struct declared).
 *
 * Each observation names one wheel (project, full version, variant,
 * platform), the list as it was printed and the public page it was read
 * from.  Loading links it to the declared row that covers the wheel and
 * compares the two lists as sets (SASS, PTX, gfx):
 *
 *   - agreement raises the declared row's confidence one step for each
 *     page that agrees (low -> medium-low -> medium -> medium-high ->
 *     high), and the row's provenance names the newest such wheel.  A
 *     page counts once (its address without "#..." or "?..."); a page the
 *     row already cites in its source or evidence does not count again; an
 *     observation whose version or platform was inferred (column
 *     `inferred`) is compared but raises nothing; and a row that any
 *     observation contradicts is raised by none;
 *   - a disagreement leaves the row as written; it is accepted only when
 *     the declared row's evidence names it with the words
 *     "differs from observed <version>+<variant>: " followed by why the
 *     declared list stands (observed_check lists the others; a unit test
 *     fails on them).
 */
#ifndef WHEELARCH_OBSERVED_H
#define WHEELARCH_OBSERVED_H

#include <stddef.h>

#include "error.h"
#include "tables_types.h"
#include "target.h"

struct observed {
    char *project;  /* "torch" */
    char *version;  /* the full version: "2.13.0" */
    char *variant;  /* "cu130", "rocm6.4" */
    char *platform; /* "linux-x86_64" */
    char *printed;  /* as printed: "sm_75 sm_80 ... compute_120" */
    char *url;      /* the public page it was read from */
    char *notes;
    char *inferred; /* "", "version", "platform" or "version;platform":
                       what the page did not state */
    struct target sass[32], ptx[8], gfx[32];
    size_t nsass, nptx, ngfx;
    const struct declared *declared; /* the row covering the wheel, or NULL */
    int agrees;                      /* the same targets as the declared row */
    int explained;                   /* a disagreement the declared row's evidence names */
    char *reason;                    /* then why the declared list stands (the evidence's words
                                        after "differs from observed ...: "), or NULL */
};

/* Loads data/observed_arch_lists.csv from dir into t (t->observed) and
 * links each row to t's declared rows: call after those are loaded.  A
 * missing file is no error (no observations).  Errors name the file and
 * line: an unknown project or platform, a version that is not X.Y.Z
 * (digits only: no pre-release, local label or leading zero), a printed
 * list with a token that is no target or more targets than fit, a URL
 * that is not http(s), an unknown `inferred` word. */
int observed_load(const char *dir, struct tables *t, struct wa_error *err);
void observed_free(struct observed *o, size_t n);

/* The declared row that covers a wheel: the same project, release,
 * variant and platform, of several (a patch row such as "2.13.1") the
 * newest at or before version.  NULL when none. */
const struct declared *observed_declared_for(const struct tables *t, const char *project,
                                             const char *version, const char *variant,
                                             const char *platform);

/* "2.13.0+cu130 (linux-x86_64): declared 7.5;...;12.0+PTX, printed sm_75
 * ... sm_120: compute_120 declared, not printed" into buf. */
void observed_describe(const struct observed *o, char *buf, size_t n);

/* The observations that disagree with their declared row without the row
 * saying why, or have no declared row: their indexes into t->observed, in
 * file order, into out (at most max); returns how many there are. */
size_t observed_check(const struct tables *t, size_t *out, size_t max);

#endif
