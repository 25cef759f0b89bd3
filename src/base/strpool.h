/*
 * strpool: strings copied into large blocks and freed all at once.
 *
 * A view of 100,000 wheels holds nine strings per wheel.  Copied one by
 * one (xstrdup) they cost 900,000 allocations and as many frees, and lie
 * scattered over the heap, so every pass over the wheels (the feed, the
 * release pages, the simple indexes) misses the cache on each of them.
 * A pool puts them one after another in blocks of 256 KiB.
 *
 * Ownership: the pool owns every string it returns; they live until
 * strpool_free.  A pool is not thread-safe: one thread adds to it.
 */
#ifndef WHEELARCH_STRPOOL_H
#define WHEELARCH_STRPOOL_H

struct strpool;

/* A new empty pool; free it with strpool_free. */
struct strpool *strpool_new(void);

/* A copy of s in the pool; NULL for NULL. */
char *strpool_dup(struct strpool *p, const char *s);

/* Frees the pool and every string in it; NULL does nothing. */
void strpool_free(struct strpool *p);

#endif
