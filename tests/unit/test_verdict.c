/*
 * Unit tests: verdict, a row judged on platform, code, Python and driver
 * apart.  Every combination of the four inputs is judged, and the rules of
 * docs/answers.md are checked as invariants over all of them:
 *
 * - the headline is the first constraint that blocks, in the order
 *   platform, code, Python, driver;
 * - "driver too old" is never the headline of code that would not run,
 *   nor of a platform whose wheels do not apply;
 * - "no Python X wheel" is said only of a row whose platform and code fit;
 * - a row runs exactly when nothing blocks and its code runs;
 * - the label people read says the block (the platform's and Python's in
 *   words, else compat's label of the verdict).
 *
 * usage: test_verdict
 */
#include <string.h>

#include "compat.h"
#include "harness.h"
#include "tables.h"
#include "verdict.h"

static int code_runs(int c)
{
    return c == COMPAT_NATIVE || c == COMPAT_PTX_JIT;
}

int main(void)
{
    static const int codes[] = {COMPAT_NATIVE, COMPAT_PTX_JIT, COMPAT_PARTIAL, COMPAT_UNSUPPORTED};
    size_t judged = 0;
    for (int applies = 0; applies <= 1; applies++)
        for (size_t ci = 0; ci < sizeof codes / sizeof *codes; ci++)
            for (int python = -1; python <= 1; python++)
                for (int blocks = 0; blocks <= 1; blocks++) {
                    int code = codes[ci];
                    /* compat_judge's verdict of code and driver: the driver
                     * is judged only for code that would run */
                    struct compat_result res;
                    memset(&res, 0, sizeof res);
                    res.code = code;
                    res.driver_blocks = code_runs(code) && blocks;
                    res.verdict = code == COMPAT_PARTIAL ? COMPAT_PARTIAL
                                  : res.driver_blocks    ? COMPAT_DRIVER_TOO_OLD
                                                         : code;
                    struct verdict v;
                    verdict_judge(&res, applies, python, &v);
                    judged++;
                    char what[128];
                    snprintf(what, sizeof what, "applies %d, code %s, python %d, driver blocks %d",
                             applies, compat_verdict_label(code), python, res.driver_blocks);
                    int want = !applies            ? VERDICT_PLATFORM
                               : !code_runs(code)  ? VERDICT_CODE
                               : python == 0       ? VERDICT_PYTHON
                               : res.driver_blocks ? VERDICT_DRIVER
                                                   : VERDICT_RUNS;
                    OK(v.blocked_by == want, "%s: blocked by %s, want %s", what,
                       verdict_block_name(v.blocked_by) ? verdict_block_name(v.blocked_by)
                                                        : "nothing",
                       verdict_block_name(want) ? verdict_block_name(want) : "nothing");
                    OK(v.blocked_by != VERDICT_DRIVER || (applies && code_runs(code)),
                       "%s: the driver is blamed only for code that would run here", what);
                    OK(v.blocked_by != VERDICT_PYTHON || (applies && code_runs(code)),
                       "%s: Python is blamed only where platform and code fit", what);
                    OK(v.runs == (v.blocked_by == VERDICT_RUNS),
                       "%s: runs exactly when nothing "
                       "blocks",
                       what);
                    OK(v.applies == applies && v.code == code && v.python == python &&
                           v.driver_blocks == res.driver_blocks,
                       "%s: the four judgements kept apart", what);
                    char label[64];
                    verdict_label(&v, 312, 0, label, sizeof label);
                    const char *want_label =
                        v.blocked_by == VERDICT_PLATFORM ? "not for this system"
                        : v.blocked_by == VERDICT_PYTHON ? "no Python 3.12 wheel"
                                                         : compat_verdict_label(res.verdict);
                    STR_EQ(label, want_label, what);
                    OK(strcmp(label, compat_verdict_label(COMPAT_DRIVER_TOO_OLD)) != 0 ||
                           v.blocked_by == VERDICT_DRIVER,
                       "%s: \"%s\" only when the driver is what blocks", what, label);
                    if (v.blocked_by == VERDICT_PYTHON) {
                        verdict_label(&v, 313, 1, label, sizeof label);
                        STR_EQ(label, "no Python 3.13t wheel", "the free-threaded Python named");
                    }
                }
    INT_EQ((long)judged, 2L * 4 * 3 * 2, "every combination judged");
    /* A driver-too-old verdict that compat gives without driver_blocks (a
     * floor the row does not reach) still blocks on the driver, after
     * platform, code and Python. */
    struct compat_result res;
    memset(&res, 0, sizeof res);
    res.code = COMPAT_NATIVE;
    res.verdict = COMPAT_DRIVER_TOO_OLD;
    struct verdict v;
    verdict_judge(&res, 1, 1, &v);
    OK(v.blocked_by == VERDICT_DRIVER && !v.runs, "a driver-too-old verdict blocks on the driver");
    verdict_judge(&res, 1, 0, &v);
    OK(v.blocked_by == VERDICT_PYTHON, "but after Python");
    verdict_judge(&res, 0, 1, &v);
    OK(v.blocked_by == VERDICT_PLATFORM, "and after the platform");
    /* The names of the blocks. */
    STR_EQ(verdict_block_name(VERDICT_PLATFORM), "platform", "block name");
    STR_EQ(verdict_block_name(VERDICT_CODE), "code", "block name");
    STR_EQ(verdict_block_name(VERDICT_PYTHON), "python", "block name");
    STR_EQ(verdict_block_name(VERDICT_DRIVER), "driver", "block name");
    OK(verdict_block_name(VERDICT_RUNS) == NULL && verdict_block_name(VERDICT_BLOCKS) == NULL &&
           verdict_block_name(-1) == NULL,
       "no name for 'runs' or out of range");
    return harness_done();
}
