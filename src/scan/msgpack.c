/*
 * msgpack: bounded MessagePack reading (msgpack.h).
 */
#include "msgpack.h"

#include <string.h>

void msgpack_init(struct msgpack *m, const uint8_t *p, size_t n)
{
    m->p = p;
    m->n = n;
    m->at = 0;
}

/* The next k bytes as a big-endian number; -1 when fewer are left. */
static int take(struct msgpack *m, unsigned k, uint64_t *out)
{
    if (m->n - m->at < k)
        return -1;
    uint64_t x = 0;
    for (unsigned j = 0; j < k; j++)
        x = x << 8 | m->p[m->at + j];
    m->at += k;
    *out = x;
    return 0;
}

/* A string, binary or extension body of len bytes at the cursor. */
static int body(struct msgpack *m, struct msgpack_value *v, int type, uint64_t len)
{
    if (len > m->n - m->at)
        return -1;
    v->type = type;
    v->s = m->p + m->at;
    v->len = len;
    m->at += (size_t)len;
    return 0;
}

int msgpack_next(struct msgpack *m, struct msgpack_value *v)
{
    memset(v, 0, sizeof *v);
    uint64_t x;
    if (m->at >= m->n)
        return -1;
    uint8_t c = m->p[m->at++];
    if (c <= 0x7f) {
        v->type = MSGPACK_UINT;
        v->u = c;
        return 0;
    }
    if (c >= 0xe0) {
        v->type = MSGPACK_INT;
        v->i = (int8_t)c;
        return 0;
    }
    if ((c & 0xf0) == 0x80) {
        v->type = MSGPACK_MAP;
        v->len = c & 0x0f;
        return 0;
    }
    if ((c & 0xf0) == 0x90) {
        v->type = MSGPACK_ARRAY;
        v->len = c & 0x0f;
        return 0;
    }
    if ((c & 0xe0) == 0xa0)
        return body(m, v, MSGPACK_STR, c & 0x1f);
    switch (c) {
    case 0xc0:
        v->type = MSGPACK_NIL;
        return 0;
    case 0xc2:
    case 0xc3:
        v->type = MSGPACK_BOOL;
        v->b = c == 0xc3;
        return 0;
    case 0xc4:
    case 0xc5:
    case 0xc6:
        if (take(m, 1u << (c - 0xc4), &x) < 0)
            return -1;
        return body(m, v, MSGPACK_BIN, x);
    case 0xc7:
    case 0xc8:
    case 0xc9:
        if (take(m, 1u << (c - 0xc7), &x) < 0 || take(m, 1, &v->u) < 0)
            return -1;
        return body(m, v, MSGPACK_EXT, x);
    case 0xca:
    case 0xcb:
        v->type = MSGPACK_FLOAT;
        return take(m, c == 0xca ? 4 : 8, &x);
    case 0xcc:
    case 0xcd:
    case 0xce:
    case 0xcf:
        v->type = MSGPACK_UINT;
        return take(m, 1u << (c - 0xcc), &v->u);
    case 0xd0:
    case 0xd1:
    case 0xd2:
    case 0xd3: {
        unsigned k = 1u << (c - 0xd0);
        if (take(m, k, &x) < 0)
            return -1;
        /* sign-extend the k-byte two's complement value */
        int64_t s =
            k == 8 ? (int64_t)x : (int64_t)(x ^ (1ull << (8 * k - 1))) - (1ll << (8 * k - 1));
        if (s >= 0) {
            v->type = MSGPACK_UINT;
            v->u = (uint64_t)s;
        } else {
            v->type = MSGPACK_INT;
            v->i = s;
        }
        return 0;
    }
    case 0xd4:
    case 0xd5:
    case 0xd6:
    case 0xd7:
    case 0xd8:
        if (take(m, 1, &v->u) < 0)
            return -1;
        return body(m, v, MSGPACK_EXT, 1u << (c - 0xd4));
    case 0xd9:
    case 0xda:
    case 0xdb:
        if (take(m, 1u << (c - 0xd9), &x) < 0)
            return -1;
        return body(m, v, MSGPACK_STR, x);
    case 0xdc:
    case 0xdd:
        v->type = MSGPACK_ARRAY;
        return take(m, c == 0xdc ? 2 : 4, &v->len);
    case 0xde:
    case 0xdf:
        v->type = MSGPACK_MAP;
        return take(m, c == 0xde ? 2 : 4, &v->len);
    default: /* 0xc1: never used */
        return -1;
    }
}

static int skip_at(struct msgpack *m, int depth)
{
    struct msgpack_value v;
    if (msgpack_next(m, &v) < 0)
        return -1;
    if (v.type != MSGPACK_ARRAY && v.type != MSGPACK_MAP)
        return 0;
    if (depth >= MSGPACK_MAX_DEPTH)
        return -1;
    uint64_t k = v.type == MSGPACK_MAP ? v.len * 2 : v.len;
    if (v.len > m->n - m->at) /* every element takes a byte at least */
        return -1;
    for (uint64_t j = 0; j < k; j++)
        if (skip_at(m, depth + 1) < 0)
            return -1;
    return 0;
}

int msgpack_skip(struct msgpack *m)
{
    return skip_at(m, 0);
}

int msgpack_is_str(const struct msgpack_value *v, const char *want)
{
    size_t n = strlen(want);
    return v->type == MSGPACK_STR && v->len == n && memcmp(v->s, want, n) == 0;
}
