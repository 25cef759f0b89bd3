/*
 * strpool: a bump allocator for strings.
 */
#include "strpool.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define BLOCK_SIZE ((size_t)256 << 10)

struct block {
    struct block *next;
    size_t used, size;
    char data[];
};

struct strpool {
    struct block *head; /* the block being filled; the older ones after it */
};

struct strpool *strpool_new(void)
{
    return xcalloc(1, sizeof(struct strpool));
}

static struct block *new_block(size_t size, struct block *next)
{
    struct block *b = xmalloc(sizeof *b + size);
    b->next = next;
    b->used = 0;
    b->size = size;
    return b;
}

char *strpool_dup(struct strpool *p, const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    struct block *b = p->head;
    if (!b || b->size - b->used < n) {
        if (n > BLOCK_SIZE / 4) {
            /* a long string: a block of its own, behind the one being filled */
            struct block *own = new_block(n, b ? b->next : NULL);
            if (b)
                b->next = own;
            else
                p->head = own;
            memcpy(own->data, s, n);
            own->used = n;
            return own->data;
        }
        b = p->head = new_block(BLOCK_SIZE, b);
    }
    char *out = b->data + b->used;
    memcpy(out, s, n);
    b->used += n;
    return out;
}

void strpool_free(struct strpool *p)
{
    if (!p)
        return;
    for (struct block *b = p->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(p);
}
