/*
 * inflate: the one streaming decompressor: raw deflate with the zip CRC-32
 * (zip members), zlib (HIP offload bundles, fatbin entries), zstd (HIP
 * offload bundles) and stored data, behind one interface.
 *
 * Deflate and zlib run on ISA-L's isal_inflate, the fastest streaming
 * inflater Debian ships (2-3x zlib here), which computes the zip CRC-32 of
 * its output as it goes; zstd on libzstd's streaming decoder, its window
 * capped at 128 MiB.  Output goes through a fixed internal buffer to a
 * sink callback, so memory stays constant whatever the stream's size.
 * (codec.c keeps libzstd's buffer-less API for one job this cannot do:
 * the first block of a frame without allocating the frame's window.)
 */
#ifndef WHEELARCH_INFLATE_H
#define WHEELARCH_INFLATE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define INFLATE_OUT_SIZE (256u << 10)

/* Receives decoded bytes; returns 0 to continue, 1 to stop early (the rest
 * is still decoded when needed to find the end, but not delivered), or a
 * negative WA_ERR_* code (with err set) to abort. */
typedef int (*inflate_sink)(void *ud, const uint8_t *buf, size_t n, struct wa_error *err);

struct inflater;

/* Caller frees with inflater_free. */
struct inflater *inflater_new(void);
void inflater_free(struct inflater *inf);

enum inflate_mode {
    INFLATE_DEFLATE = 0, /* raw deflate (zip method 8), CRC-32 of the output */
    INFLATE_STORED = 1,  /* no compression (zip method 0), CRC-32 only */
    INFLATE_ZLIB = 2,    /* RFC 1950: header, deflate, Adler-32 */
    INFLATE_ZSTD = 3     /* zstd frames */
};

/* With a mode: stop decoding as soon as the sink asks for no more (for a
 * prefix; the stream's end is then never found). */
#define INFLATE_PREFIX 0x100

/* With a mode: output past the limit is cut there, the bytes up to the
 * limit delivered before the error; without it, the chunk that crosses
 * the limit is not delivered at all (a zip bomb is reported as such, not
 * as whatever its first bytes fail to parse as). */
#define INFLATE_CUT 0x200

/* Starts a new stream in `mode` (enum inflate_mode, possibly with
 * INFLATE_PREFIX and INFLATE_CUT); `limit` is the most output accepted:
 * beyond it the stream is reported as inflating past its declared size
 * (WA_ERR_LIMIT). */
void inflater_reset(struct inflater *inf, int mode, uint64_t limit);

/* Consumes compressed bytes.  Sets *used to the bytes consumed, also on
 * error: less than n when the stream (a zstd frame) ended inside the
 * chunk, when an INFLATE_PREFIX sink had enough, or when an error stopped
 * it.  Returns 0 or a negative WA_ERR_* code with a message in err. */
int inflater_feed(struct inflater *inf, const uint8_t *in, size_t n, size_t *used,
                  inflate_sink sink, void *ud, struct wa_error *err);

/* Whether the stream has ended (always 0 for stored data). */
int inflater_finished(const struct inflater *inf);

/* CRC-32 (deflate and stored modes) and count of all output so far,
 * delivered or not. */
uint32_t inflater_crc(const struct inflater *inf);
uint64_t inflater_total_out(const struct inflater *inf);

/* CRC-32 (zip/gzip polynomial) of a buffer, continuing from crc. */
uint32_t inflate_crc32(uint32_t crc, const uint8_t *buf, size_t n);

#endif
