/*
 * target: names of GPU code targets and their order.
 *
 * A target is what nvcc calls a "code" in -gencode: SASS for one compute
 * capability (sm_90, sm_90a, sm_100f), PTX for a virtual architecture
 * (compute_90), or LTO-IR (lto_80).  `arch` is the compute capability as an
 * integer (10 * major + minor), `suffix` is 0, 'a' (architecture-specific) or
 * 'f' (family-specific).
 *
 * AMD code objects are TARGET_GFX, named by LLVM's target id: a processor
 * (gfx90a, gfx1100) or a generic target (gfx11-generic), then the features
 * the code was built for (":sramecc+", ":xnack-"; absent means "any").  `arch`
 * holds the processor's digits read as hexadecimal (gfx90a 0x90a, gfx1030
 * 0x1030), which orders processors by generation; generic targets use the
 * family's digits (gfx9-generic 0x900, gfx9-4-generic 0x940, gfx10-3-generic
 * 0x1030, gfx11-generic 0x1100) with suffix 'g'.
 *
 * Order (target_cmp): kind, then arch number, then suffix, then features:
 * sm_90 < sm_90a < sm_100 < sm_100a < sm_100f; gfx906 < gfx90a < gfx942 <
 * gfx1030 < gfx1100.  Never sort target names as strings.
 */
#ifndef WHEELARCH_TARGET_H
#define WHEELARCH_TARGET_H

#include <stddef.h>
#include <stdint.h>

enum target_kind {
    TARGET_SASS = 0, /* "sm_" */
    TARGET_PTX = 1,  /* "compute_" */
    TARGET_LTO = 2,  /* "lto_" */
    TARGET_GFX = 3,  /* "gfx": an AMDGPU code object */
};

/* A feature of an AMD target: built for either mode, or for one. */
enum target_feature { TARGET_FEAT_ANY = 0, TARGET_FEAT_OFF = 1, TARGET_FEAT_ON = 2 };

struct target {
    uint8_t kind;    /* enum target_kind */
    char suffix;     /* 0, 'a' or 'f'; 'g' for a generic AMD target */
    uint16_t arch;   /* 75, 90, 100, 121 ...; 0x90a, 0x1100 for gfx */
    uint8_t sramecc; /* gfx only: enum target_feature */
    uint8_t xnack;   /* gfx only: enum target_feature */
};

/* Longest formatted name ("gfx10-3-generic:sramecc+:xnack-") plus NUL, with room. */
#define TARGET_NAME_MAX 40

/* Parses "sm_90a", "compute_120", "lto_80", "gfx90a:xnack-",
 * "gfx11-generic".  Returns 0 or WA_ERR_FORMAT. */
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
