/*
 * codec: decode the beginning of a compressed fatbin payload.
 *
 * Targets come from entry headers alone; the first bytes of a payload (a
 * cubin's ELF header, a PTX module's .version/.target lines) only serve as
 * cross-checks and to tell nvlink's kernel-less stub cubins apart.  So this
 * module decodes a bounded prefix from a bounded prefix of the compressed
 * stream, with bounded memory: zlib (RFC 1950), LZ4 block, LZ4 frame and
 * zstd (the first block only, whatever the frame's window size).
 */
#ifndef WHEELARCH_CODEC_H
#define WHEELARCH_CODEC_H

#include <stddef.h>
#include <stdint.h>

struct codec; /* reusable decoder state; opaque */

/* Caller frees with codec_free. */
struct codec *codec_new(void);
void codec_free(struct codec *c);

/* Decodes up to `want` bytes (want <= dstcap) from src[0..srclen), the first
 * bytes of a stream compressed with `codec` (enum fatbin_codec).  Stores the
 * number of bytes produced in *outlen.  Returns 0 when at least one byte was
 * produced, -1 when the stream is malformed or needs more input than given
 * or more memory than allowed. */
int codec_decode_prefix(struct codec *c, int codec, const uint8_t *src, size_t srclen, uint8_t *dst,
                        size_t want, size_t *outlen);

#endif
