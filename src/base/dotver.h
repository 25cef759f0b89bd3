/*
 * dotver: dotted version numbers — driver versions ("570.86.15"), CUDA
 * versions ("12.8"), release versions ("2.10.0", "2.8.0rc1").  Compared
 * field by field as integers, missing fields as 0; a release with a
 * pre-release or dev suffix sorts before the same release without one.
 */
#ifndef WHEELARCH_DOTVER_H
#define WHEELARCH_DOTVER_H

#define DOTVER_FIELDS 6

struct dotver {
    int n; /* fields parsed */
    long f[DOTVER_FIELDS];
    int pre; /* a suffix such as rc1, a1, .dev2 follows */
};

/* Parses the leading dotted number of s ("570.86.15", "12.8", "2.8.0+cu128",
 * "580 (13.0 GA...)").  Returns 0, or -1 when s does not start with a digit. */
int dotver_parse(const char *s, struct dotver *v);

/* <0, 0, >0. */
int dotver_cmp(const struct dotver *a, const struct dotver *b);

/* Compares two version strings (unparsable ones sort first). */
int dotver_cmp_str(const char *a, const char *b);

/* "2.8" from "2.8.1": the first two fields; caller frees. */
char *dotver_major_minor(const char *s);

#endif
