/*
 * codec: bounded prefix decoding for the four fatbin codecs.
 */
#include "codec.h"

#include <lz4.h>
#include <stdlib.h>
#include <string.h>
/* The buffer-less decoding API (ZSTD_decompressBegin/Continue) decodes the
 * first block without allocating the frame's window, which NVIDIA sets to
 * the content size (several MiB) for single-segment frames. */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include "bytes.h"
#include "fatbin.h"
#include "inflate.h"
#include "xalloc.h"

struct codec {
    ZSTD_DCtx *zstd;
    struct inflater *inflate;          /* zlib */
    uint8_t block[ZSTD_BLOCKSIZE_MAX]; /* one decoded zstd block */
};

struct codec *codec_new(void)
{
    struct codec *c = xcalloc(1, sizeof *c);
    c->zstd = ZSTD_createDCtx();
    if (!c->zstd)
        abort();
    c->inflate = inflater_new();
    return c;
}

void codec_free(struct codec *c)
{
    if (!c)
        return;
    ZSTD_freeDCtx(c->zstd);
    inflater_free(c->inflate);
    free(c);
}

static int lz4_block(const uint8_t *src, size_t srclen, uint8_t *dst, size_t want, size_t *outlen)
{
    if (srclen == 0 || srclen > INT32_MAX || want > INT32_MAX)
        return -1;
    int n = LZ4_decompress_safe_partial((const char *)src, (char *)dst, (int)srclen, (int)want,
                                        (int)want);
    if (n <= 0)
        return -1;
    *outlen = (size_t)n;
    return 0;
}

/* LZ4 frame: magic, FLG, BD, optional content size and dictionary id, header
 * checksum, then blocks of u32 size (high bit: stored).  The first block
 * suffices for a prefix. */
static int lz4_frame(const uint8_t *src, size_t srclen, uint8_t *dst, size_t want, size_t *outlen)
{
    if (srclen < 7 || rd32(src) != 0x184D2204u)
        return -1;
    uint8_t flg = src[4];
    if ((flg >> 6) != 1)
        return -1;
    size_t p = 6 + ((flg & 0x08) ? 8 : 0) + ((flg & 0x01) ? 4 : 0) + 1;
    if (srclen < p + 4)
        return -1;
    uint32_t bsize = rd32(src + p);
    p += 4;
    if (bsize == 0)
        return -1;
    size_t avail = srclen - p;
    size_t blen = bsize & 0x7FFFFFFFu;
    if (blen < avail)
        avail = blen;
    if (bsize & 0x80000000u) {
        size_t n = avail < want ? avail : want;
        if (n == 0)
            return -1;
        memcpy(dst, src + p, n);
        *outlen = n;
        return 0;
    }
    return lz4_block(src + p, avail, dst, want, outlen);
}

static int zstd_frame(struct codec *c, const uint8_t *src, size_t srclen, uint8_t *dst, size_t want,
                      size_t *outlen)
{
    if (ZSTD_isError(ZSTD_decompressBegin(c->zstd)))
        return -1;
    size_t pos = 0;
    while (pos < srclen) {
        size_t need = ZSTD_nextSrcSizeToDecompress(c->zstd);
        if (need == 0 || need > srclen - pos)
            return -1;
        size_t r = ZSTD_decompressContinue(c->zstd, c->block, ZSTD_BLOCKSIZE_MAX, src + pos, need);
        if (ZSTD_isError(r))
            return -1;
        pos += need;
        if (r > 0) {
            size_t n = r < want ? r : want;
            memcpy(dst, c->block, n);
            *outlen = n;
            return 0;
        }
    }
    return -1;
}

struct prefix {
    uint8_t *dst;
    size_t want, n;
};

static int to_prefix(void *ud, const uint8_t *buf, size_t n, struct wa_error *err)
{
    (void)err;
    struct prefix *p = ud;
    size_t take = n < p->want - p->n ? n : p->want - p->n;
    memcpy(p->dst + p->n, buf, take);
    p->n += take;
    return p->n == p->want; /* 1: enough */
}

static int zlib_stream(struct codec *c, const uint8_t *src, size_t srclen, uint8_t *dst,
                       size_t want, size_t *outlen)
{
    if (srclen < 2 || (src[0] & 0x0F) != 8 || ((src[0] << 8) | src[1]) % 31 != 0)
        return -1;
    inflater_reset(c->inflate, INFLATE_ZLIB | INFLATE_PREFIX, UINT64_MAX);
    struct prefix p = {dst, want, 0};
    size_t used;
    struct wa_error err;
    /* a stream cut by the end of the prefix, or damaged after its first
     * bytes, still gives what decoded before */
    (void)inflater_feed(c->inflate, src, srclen, &used, to_prefix, &p, &err);
    if (p.n == 0)
        return -1;
    *outlen = p.n;
    return 0;
}

int codec_decode_prefix(struct codec *c, int codec, const uint8_t *src, size_t srclen, uint8_t *dst,
                        size_t want, size_t *outlen)
{
    *outlen = 0;
    if (want == 0 || srclen == 0)
        return -1;
    switch (codec) {
    case FATBIN_CODEC_ZLIB:
        return zlib_stream(c, src, srclen, dst, want, outlen);
    case FATBIN_CODEC_LZ4:
        return lz4_block(src, srclen, dst, want, outlen);
    case FATBIN_CODEC_LZ4FRAME:
        return lz4_frame(src, srclen, dst, want, outlen);
    case FATBIN_CODEC_ZSTD:
        return zstd_frame(c, src, srclen, dst, want, outlen);
    case FATBIN_CODEC_NONE: {
        size_t n = srclen < want ? srclen : want;
        memcpy(dst, src, n);
        *outlen = n;
        return 0;
    }
    default:
        return -1;
    }
}
