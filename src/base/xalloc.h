/*
 * xalloc: allocation that never returns NULL.
 *
 * Out of memory is not a condition wheelarch can recover from, so these
 * wrappers print one line and abort (as cmark's default allocator and jq's
 * jv_mem_alloc do); callers never check their results.
 */
#ifndef WHEELARCH_XALLOC_H
#define WHEELARCH_XALLOC_H

#include <stddef.h>

/* Each returns memory the caller frees with free(). */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* Grows an array of `*cap` elements of `size` bytes to hold at least `need`. */
void *xgrow(void *p, size_t *cap, size_t need, size_t size);
char *xstrdup(const char *s);
/* xstrdup(s), or NULL for NULL. */
char *xstrdup_or_null(const char *s);
/* Copies exactly n bytes of s (which must have them: this is for spans of
 * known length, not a bounded strdup) and a NUL. */
char *xstrndup(const char *s, size_t n);
/* printf into a new string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
