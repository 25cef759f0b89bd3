/*
 * strmap: open-addressing string map.
 */
#include "strmap.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

struct slot {
    char *key;
    size_t value;
    uint64_t hash;
};

struct strmap {
    struct slot *slots;
    size_t cap; /* a power of two */
    size_t count;
};

uint64_t strmap_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

struct strmap *strmap_new(void)
{
    struct strmap *m = xcalloc(1, sizeof *m);
    m->cap = 64;
    m->slots = xcalloc(m->cap, sizeof *m->slots);
    return m;
}

void strmap_free(struct strmap *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->cap; i++)
        free(m->slots[i].key);
    free(m->slots);
    free(m);
}

static struct slot *find(const struct strmap *m, const char *key, uint64_t h)
{
    size_t mask = m->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        struct slot *s = &m->slots[i];
        if (!s->key || (s->hash == h && strcmp(s->key, key) == 0))
            return s;
    }
}

static void grow(struct strmap *m)
{
    struct slot *old = m->slots;
    size_t oldcap = m->cap;
    m->cap *= 2;
    m->slots = xcalloc(m->cap, sizeof *m->slots);
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].key)
            *find(m, old[i].key, old[i].hash) = old[i];
    free(old);
}

void strmap_put(struct strmap *m, const char *key, size_t value)
{
    if ((m->count + 1) * 2 > m->cap)
        grow(m);
    uint64_t h = strmap_hash(key);
    struct slot *s = find(m, key, h);
    if (!s->key) {
        s->key = xstrdup(key);
        s->hash = h;
        m->count++;
    }
    s->value = value;
}

int strmap_get(const struct strmap *m, const char *key, size_t *value)
{
    struct slot *s = find(m, key, strmap_hash(key));
    if (!s->key)
        return 0;
    if (value)
        *value = s->value;
    return 1;
}

size_t strmap_count(const struct strmap *m)
{
    return m->count;
}
