/*
 * inflate: streaming raw-deflate decoding with CRC-32, on ISA-L.
 *
 * ISA-L's isal_inflate is the fastest streaming inflater Debian ships (2-3x
 * zlib here) and computes the zip CRC-32 of its output as it goes.  Output
 * goes through a fixed internal buffer to a sink callback, so memory stays
 * constant whatever the member size.  Stored (method 0) data goes through
 * the same interface with CRC only.
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

/* Starts a new member.  `stored` selects method 0 (copy) instead of deflate;
 * `limit` is the most output accepted before the stream is reported as
 * inflating past its declared size. */
void inflater_reset(struct inflater *inf, int stored, uint64_t limit);

/* Consumes compressed bytes.  Sets *used to the bytes consumed (less than n
 * only when the deflate stream ended inside the chunk).  Returns 0 or a
 * negative WA_ERR_* code with a message in err. */
int inflater_feed(struct inflater *inf, const uint8_t *in, size_t n, size_t *used,
                  inflate_sink sink, void *ud, struct wa_error *err);

/* Whether the deflate stream has ended (always 0 for stored data). */
int inflater_finished(const struct inflater *inf);

/* CRC-32 and count of all output so far, delivered or not. */
uint32_t inflater_crc(const struct inflater *inf);
uint64_t inflater_total_out(const struct inflater *inf);

/* CRC-32 (zip/gzip polynomial) of a buffer, continuing from crc. */
uint32_t inflate_crc32(uint32_t crc, const uint8_t *buf, size_t n);

#endif
