/*
 * zipstream: read zip members from bytes pushed in file order.
 *
 * One forward pass, constant memory: local headers are parsed as they
 * arrive, deflated data is inflated through a fixed buffer (inflate.h) and
 * handed to a handler, every delivered member's CRC-32 and size are checked,
 * and members the handler does not want are skipped without inflating when
 * their size is known.
 *
 * Two modes:
 *  - with a central directory (entries from zipdir, e.g. read from the end
 *    of a local file or fetched with an HTTP range first): member sizes and
 *    CRCs come from it, and the caller may zipstream_seek to any member's
 *    local header and push only that member's bytes (HTTP Range);
 *  - without one (an HTTP body streamed from the start): sizes come from
 *    local headers or data descriptors, and the central directory at the end
 *    is collected and checked against what was read.
 */
#ifndef WHEELARCH_ZIPSTREAM_H
#define WHEELARCH_ZIPSTREAM_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "zipdir.h"

#define ZIPSTREAM_SIZE_UNKNOWN UINT64_MAX

struct zipstream_member {
    const char *name;
    uint64_t offset; /* of the local header */
    uint64_t usize;  /* declared uncompressed size or ZIPSTREAM_SIZE_UNKNOWN */
    uint64_t csize;  /* compressed size or ZIPSTREAM_SIZE_UNKNOWN */
    uint16_t method;
};

struct zipstream_handler {
    /* Returns 1 to receive the member's bytes, 0 to skip it. */
    int (*begin)(void *ud, const struct zipstream_member *m);
    /* Decoded bytes of the member; returns 0 to go on, 1 to receive no more
     * of this member, or a negative WA_ERR_* code with err set.  A member
     * whose data is refused early is not CRC-checked when its size is known
     * (its remaining bytes are skipped, not inflated). */
    int (*data)(void *ud, const uint8_t *buf, size_t n, struct wa_error *err);
    /* The member ended and its CRC and size were checked.  Returns 0 or a
     * negative WA_ERR_* code (with err set) to stop the whole stream. */
    int (*end)(void *ud, struct wa_error *err);
};

struct zipstream;

/* entries (may be NULL) is borrowed and must outlive the stream.  Caller
 * frees with zipstream_free. */
struct zipstream *zipstream_new(const struct zipdir_entry *entries, size_t n,
                                const struct zipstream_handler *h, void *ud);
void zipstream_free(struct zipstream *zs);

/* With on, every stored or deflated member is inflated to its end and its
 * CRC-32 and size checked, also members the handler skips or stops early
 * (a local file or a whole download: nothing else vouches for their
 * bytes).  Off by default: a ranged read checks what it reads. */
void zipstream_set_verify(struct zipstream *zs, int on);

/* The next bytes pushed start at `offset`, which must be the local header
 * offset of a central directory entry (central directory mode only). */
int zipstream_seek(struct zipstream *zs, uint64_t offset, struct wa_error *err);

/* Pushes the next n bytes.  Returns 0 or a negative WA_ERR_* code; errors
 * about a member name it (e.g. "torch/lib/x.so: CRC-32 mismatch"). */
int zipstream_feed(struct zipstream *zs, const uint8_t *buf, size_t n, struct wa_error *err);

/* Ends the stream.  With expect_all, every central directory entry must have
 * been seen (a whole-file read); without a central directory the one
 * collected at the end is parsed and checked.  Returns 0 or an error. */
int zipstream_finish(struct zipstream *zs, int expect_all, struct wa_error *err);

/* Members whose local header was read so far. */
size_t zipstream_members_seen(const struct zipstream *zs);
/* Compressed bytes pushed so far. */
uint64_t zipstream_bytes_in(const struct zipstream *zs);

#endif
