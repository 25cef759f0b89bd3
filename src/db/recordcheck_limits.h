/*
 * recordcheck_limits: how much a record may hold (recordcheck.h): GPU
 * targets, JSON values, the length of paths and free text.
 */
#ifndef WHEELARCH_RECORDCHECK_LIMITS_H
#define WHEELARCH_RECORDCHECK_LIMITS_H

/* The most distinct GPU targets a record may name, in one list and in
 * all its lists together.  A real binary has fewer than 100 (libtorch_cuda
 * about 20; every CUDA and AMD architecture made so far is about 150), so
 * 512 leaves room for years of new ones, while it bounds the work per
 * target that the view and the pages do: a 297 KB wheel of 65,000
 * PTX-only fatbin containers gave a 24 MB record naming 65,000 targets,
 * which took `build` minutes. */
#define RECORDCHECK_TARGETS_MAX 512

/* The most JSON values (objects, arrays, strings, numbers, literals) a
 * record's text may hold: a real wheel's record holds a few thousand, and
 * a parsed value costs about a hundred bytes, so this bounds the memory a
 * record from elsewhere may take before it is checked (20 million empty
 * objects in a 60 MB line took 4.6 GB). */
#define RECORDCHECK_VALUES_MAX 1000000

/* The largest count (modules, entries) and size in bytes a record may
 * say: a count fits a 32-bit int, a size is exact as a double. */
#define RECORDCHECK_COUNT_MAX 2147483647LL
#define RECORDCHECK_BYTES_MAX (1LL << 53)

/* The longest URL (a wheel's, an index's). */
#define RECORDCHECK_URL_MAX 8192

/* The longest member path, and the longest arch-flag string or warning. */
#define RECORDCHECK_PATH_MAX 4096
#define RECORDCHECK_TEXT_MAX 65536

#endif
