/*
 * msgpack: a bounded reader of MessagePack values in a buffer, for the
 * table of contents of an AMD kernel archive (kpack.h).
 *
 * It reads one value's header at a time: a scalar whole (nil, bool,
 * integers, floats skipped to their kind), a string or binary as a pointer
 * into the buffer with its length, an array or map as its element count
 * (the caller then reads the elements, a map's as key, value, key, ...).
 * Every length is checked against the bytes left, and msgpack_skip bounds
 * the nesting it walks: a hostile buffer can only make it fail, never read
 * past the end or recurse without bound.
 *
 * Ownership: the reader borrows the buffer; values point into it.
 */
#ifndef WHEELARCH_MSGPACK_H
#define WHEELARCH_MSGPACK_H

#include <stddef.h>
#include <stdint.h>

/* The deepest nesting msgpack_skip walks. */
#define MSGPACK_MAX_DEPTH 32

enum msgpack_type {
    MSGPACK_NIL = 0,
    MSGPACK_BOOL,
    MSGPACK_UINT,  /* u */
    MSGPACK_INT,   /* i: a negative integer */
    MSGPACK_FLOAT, /* its bytes skipped */
    MSGPACK_STR,   /* s, len */
    MSGPACK_BIN,   /* s, len */
    MSGPACK_EXT,   /* s, len (the type byte left out) */
    MSGPACK_ARRAY, /* len elements follow */
    MSGPACK_MAP    /* len key-value pairs follow */
};

struct msgpack_value {
    int type; /* enum msgpack_type */
    uint64_t u;
    int64_t i;
    int b;
    const uint8_t *s;
    uint64_t len;
};

struct msgpack {
    const uint8_t *p;
    size_t n, at;
};

void msgpack_init(struct msgpack *m, const uint8_t *p, size_t n);
/* Reads the next value's header into v.  Returns 0, or -1 when the bytes
 * end inside it or a byte is not a MessagePack type (0xc1). */
int msgpack_next(struct msgpack *m, struct msgpack_value *v);
/* Skips one whole value (with its elements).  0, or -1 as above or when
 * it nests deeper than MSGPACK_MAX_DEPTH. */
int msgpack_skip(struct msgpack *m);
/* Whether v is the string `want`. */
int msgpack_is_str(const struct msgpack_value *v, const char *want);

#endif
