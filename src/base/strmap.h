/*
 * strmap: a hash map from strings to size_t values (open addressing,
 * FNV-1a).  Keys are copied and owned by the map.
 */
#ifndef WHEELARCH_STRMAP_H
#define WHEELARCH_STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct strmap;

/* Caller frees with strmap_free. */
struct strmap *strmap_new(void);
void strmap_free(struct strmap *m);

/* Sets key to value (replacing). */
void strmap_put(struct strmap *m, const char *key, size_t value);
/* Returns 1 and stores the value if key is present, else 0. */
int strmap_get(const struct strmap *m, const char *key, size_t *value);
size_t strmap_count(const struct strmap *m);

/* 64-bit FNV-1a of a string (stable across runs and machines). */
uint64_t strmap_hash(const char *s);

#endif
