/*
 * dotver: dotted version numbers — driver versions ("570.86.15"), CUDA
 * versions ("12.8"), release versions ("2.10.0", "2.8.0rc1",
 * "2.12.0.dev20261120").  Compared field by field as integers, missing
 * fields as 0; a release with a pre-release or dev suffix sorts before the
 * same release without one, and such suffixes as PEP 440 orders them
 * (dev < a < b < rc, then by number).
 */
#ifndef WHEELARCH_DOTVER_H
#define WHEELARCH_DOTVER_H

#include <stddef.h>

#include <stdint.h>

#define DOTVER_FIELDS 6

struct dotver {
    long epoch; /* PEP 440's N! before the release ("1!2.5.0"), 0 when none */
    int n;      /* fields parsed */
    long f[DOTVER_FIELDS];
    int pre;      /* a pre-release suffix follows: 0 none, 1 dev, 2 a, 3 b, 4 rc */
    long pre_num; /* its number: 20261120 in .dev20261120, 1 in rc1 */
};

/* Parses the leading dotted number of s ("570.86.15", "12.8", "2.8.0+cu128",
 * "580 (13.0 GA...)"), after a PEP 440 epoch ("1!2.5.0": epoch 1, which
 * orders before every field).  Returns 0, or -1 when s does not start with
 * a digit. */
int dotver_parse(const char *s, struct dotver *v);

/* <0, 0, >0. */
int dotver_cmp(const struct dotver *a, const struct dotver *b);

/* Whether a and b are written alike: the same fields and pre-release
 * (dotver_cmp says "12.8" == "12.8.0"; this does not). */
int dotver_same(const struct dotver *a, const struct dotver *b);
/* A hash of what dotver_same compares, mixed into h. */
uint64_t dotver_hash(uint64_t h, const struct dotver *v);

/* Whether s is a final release written as digits and dots ("2.14.1"): no
 * pre-release, dev or local suffix ("2.16.0.dev20261006", "2.15.0rc3",
 * "2.8.0+cu128" are not). */
int dotver_is_final(const char *s);

/* Whether s is a version by PEP 440's grammar (its permissive spellings
 * too: 2.9.0RC1, 1.0.post1, 0.0.28.post3, v1.2), with a local label after
 * '+' ("2.8.0+cu128"), without '-' (a wheel's file name has none).  0, or
 * -1 with *why saying what is wrong ("'_' ... "). */
int dotver_pep440_check(const char *s, const char **why);

/* Compares two version strings (unparsable ones sort first). */
int dotver_cmp_str(const char *a, const char *b);

/* The release a version belongs to, the unit pages, pins ("==2.8.*") and
 * history group versions by: its first two fields ("2.8" of "2.8.1"),
 * or three when the first two are 0.0 ("0.0.33": projects such as
 * xformers that never left 0.0 make each patch a release), after its
 * epoch when it has one ("1!2.5").  Caller frees. */
char *dotver_release(const char *s);
/* The same into buf (n bytes), without allocating: 0, or -1 when it does
 * not fit (buf then holds nothing useful). */
int dotver_release_buf(const char *s, char *buf, size_t n);
/* The first nf fields of v ("2.8" for nf 2; a field v lacks is 0) into
 * buf (n bytes), without printf: 0, or -1 when they do not fit. */
int dotver_format_fields(const struct dotver *v, size_t nf, char *buf, size_t n);

#endif
