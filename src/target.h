/*
 * target: names of GPU code targets and their order.
 *
 * A target is what nvcc calls a "code" in -gencode: SASS for one compute
 * capability (sm_90, sm_90a, sm_100f), PTX for a virtual architecture
 * (compute_90), or LTO-IR (lto_80).  `arch` is the compute capability as an
 * integer (10 * major + minor), `suffix` is 0, 'a' (architecture-specific) or
 * 'f' (family-specific).
 *
 * Order (target_cmp): kind, then arch number, then suffix: sm_90 < sm_90a <
 * sm_100 < sm_100a < sm_100f.  Never sort target names as strings.
 */
#ifndef WHEELARCH_TARGET_H
#define WHEELARCH_TARGET_H

#include <stddef.h>
#include <stdint.h>

enum target_kind {
    TARGET_SASS = 0, /* "sm_" */
    TARGET_PTX = 1,  /* "compute_" */
    TARGET_LTO = 2,  /* "lto_" */
};

struct target {
    uint8_t kind;  /* enum target_kind */
    char suffix;   /* 0, 'a' or 'f' */
    uint16_t arch; /* 75, 90, 100, 121 ... */
};

/* Longest formatted name ("compute_65535f") plus NUL. */
#define TARGET_NAME_MAX 16

/* Parses "sm_90a", "compute_120", "lto_80".  Returns 0 or WA_ERR_FORMAT. */
int target_parse(const char *s, struct target *t);

/* Writes the canonical name into buf (TARGET_NAME_MAX bytes suffice). */
void target_format(const struct target *t, char *buf, size_t n);

/* qsort-style comparison in the order described above. */
int target_cmp(const struct target *a, const struct target *b);
int target_cmp_void(const void *a, const void *b);

/* Compares two target names by target order; unparsable names sort last, by
 * string.  Usable on names read back from JSON records. */
int target_name_cmp(const char *a, const char *b);

/* Reads the targets an nvcc arch-flag string asks for, e.g. libtorch's
 * "-gencode;arch=compute_50,code=sm_50;...;arch=compute_90,code=[sm_90,compute_90]"
 * or "-arch=sm_80" (which means sm_80 plus compute_80).  Appends up to
 * `max` targets to out, sorted and unique; returns the count. */
size_t target_parse_gencode(const char *flags, struct target *out, size_t max);

/* Sorts and removes duplicates in place; returns the new count. */
size_t target_sort_unique(struct target *t, size_t n);

#endif
