/*
 * harness: a tiny unit-test harness in the spirit of cmark's api_test.
 *
 * Each check prints a line only on failure; main() ends with
 * `return harness_done();`, which prints "N passed, N failed" and returns
 * non-zero when anything failed, so CTest sees the result.
 */
#ifndef WHEELARCH_TEST_HARNESS_H
#define WHEELARCH_TEST_HARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int harness_passed, harness_failed;

#define OK(cond, ...)                                                                              \
    do {                                                                                           \
        if (cond) {                                                                                \
            harness_passed++;                                                                      \
        } else {                                                                                   \
            harness_failed++;                                                                      \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

#define INT_EQ(got, want, what)                                                                    \
    do {                                                                                           \
        long long g_ = (long long)(got), w_ = (long long)(want);                                   \
        OK(g_ == w_, "%s: got %lld, want %lld", what, g_, w_);                                     \
    } while (0)

#define STR_EQ(got, want, what)                                                                    \
    do {                                                                                           \
        const char *g_ = (got), *w_ = (want);                                                      \
        OK(g_ &&w_ &&strcmp(g_, w_) == 0, "%s: got \"%s\", want \"%s\"", what, g_ ? g_ : "(null)", \
           w_ ? w_ : "(null)");                                                                    \
    } while (0)

static inline int harness_done(void)
{
    printf("%d passed, %d failed\n", harness_passed, harness_failed);
    if (harness_passed + harness_failed == 0) {
        fprintf(stderr, "FAIL: no check ran (a test that checks nothing cannot fail)\n");
        return 1;
    }
    return harness_failed ? 1 : 0;
}

#endif
