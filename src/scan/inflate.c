/*
 * inflate: ISA-L and libzstd streaming decoding into a fixed buffer.
 */
#include "inflate.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <stdlib.h>
#include <zstd.h>

#include "xalloc.h"

/* The largest zstd window accepted (2^27 = 128 MiB, what clang's offload
 * bundler writes at most); a frame asking for more is refused rather than
 * allowed to allocate it. */
#define ZSTD_WINDOW_LOG_MAX 27

struct inflater {
    struct inflate_state st;
    ZSTD_DStream *zs; /* made on the first zstd stream, kept */
    int mode;
    int prefix; /* INFLATE_PREFIX */
    int cut;    /* INFLATE_CUT */
    int finished;
    int stopped; /* the sink asked for no more data */
    uint64_t limit;
    uint64_t total;
    uint32_t crc; /* stored mode only */
    uint8_t out[INFLATE_OUT_SIZE];
};

struct inflater *inflater_new(void)
{
    struct inflater *inf = xmalloc(sizeof *inf);
    inf->zs = NULL;
    inflater_reset(inf, INFLATE_DEFLATE, UINT64_MAX);
    return inf;
}

void inflater_free(struct inflater *inf)
{
    if (!inf)
        return;
    ZSTD_freeDStream(inf->zs);
    free(inf);
}

void inflater_reset(struct inflater *inf, int mode, uint64_t limit)
{
    inf->prefix = (mode & INFLATE_PREFIX) != 0;
    inf->cut = (mode & INFLATE_CUT) != 0;
    inf->mode = mode & 0xff;
    isal_inflate_init(&inf->st);
    inf->st.crc_flag = inf->mode == INFLATE_ZLIB ? ISAL_ZLIB : ISAL_GZIP_NO_HDR;
    if (inf->mode == INFLATE_ZSTD) {
        if (!inf->zs)
            inf->zs = ZSTD_createDStream();
        if (inf->zs) {
            ZSTD_DCtx_reset(inf->zs, ZSTD_reset_session_and_parameters);
            ZSTD_DCtx_setParameter(inf->zs, ZSTD_d_windowLogMax, ZSTD_WINDOW_LOG_MAX);
        }
    }
    inf->finished = 0;
    inf->stopped = 0;
    inf->limit = limit;
    inf->total = 0;
    inf->crc = 0;
}

/* Hands n decoded bytes to the sink, or with INFLATE_CUT those up to the
 * limit; an error when there were more. */
static int deliver(struct inflater *inf, const uint8_t *buf, size_t n, inflate_sink sink, void *ud,
                   struct wa_error *err)
{
    size_t give = n;
    if (give > inf->limit - inf->total)
        give = inf->cut ? (size_t)(inf->limit - inf->total) : 0;
    inf->total += give;
    if (!inf->stopped && sink && give) {
        int rc = sink(ud, buf, give, err);
        if (rc < 0)
            return rc;
        if (rc > 0)
            inf->stopped = 1;
    }
    if (give < n)
        return wa_error_set(err, WA_ERR_LIMIT, "inflates past its declared size of %llu bytes",
                            (unsigned long long)inf->limit);
    return 0;
}

static int feed_zstd(struct inflater *inf, const uint8_t *in, size_t n, size_t *used,
                     inflate_sink sink, void *ud, struct wa_error *err)
{
    if (!inf->zs)
        return wa_error_set(err, WA_ERR_LIMIT, "cannot create a zstd decoder");
    ZSTD_inBuffer ib = {in, n, 0};
    while (!inf->finished && !(inf->prefix && inf->stopped)) {
        ZSTD_outBuffer ob = {inf->out, sizeof inf->out, 0};
        size_t r = ZSTD_decompressStream(inf->zs, &ob, &ib);
        if (ZSTD_isError(r)) {
            *used = ib.pos;
            return wa_error_set(err, WA_ERR_FORMAT, "invalid zstd data (%s)", ZSTD_getErrorName(r));
        }
        if (ob.pos) {
            int rc = deliver(inf, inf->out, ob.pos, sink, ud, err);
            if (rc < 0) {
                *used = ib.pos;
                return rc;
            }
        }
        if (r == 0)
            inf->finished = 1; /* a frame ended: the stream is one frame */
        else if (ib.pos == ib.size && ob.pos < ob.size)
            break; /* needs more input */
    }
    *used = ib.pos;
    return 0;
}

int inflater_feed(struct inflater *inf, const uint8_t *in, size_t n, size_t *used,
                  inflate_sink sink, void *ud, struct wa_error *err)
{
    *used = 0;
    if (inf->mode == INFLATE_STORED) {
        inf->crc = inflate_crc32(inf->crc, in, n);
        *used = n;
        return deliver(inf, in, n, sink, ud, err);
    }
    if (inf->finished)
        return 0;
    if (inf->mode == INFLATE_ZSTD)
        return feed_zstd(inf, in, n, used, sink, ud, err);
    size_t off = 0;
    while (off < n || inf->st.block_state != ISAL_BLOCK_FINISH) {
        size_t chunk = n - off;
        if (chunk > UINT32_MAX)
            chunk = UINT32_MAX;
        inf->st.next_in = (uint8_t *)(in + off);
        inf->st.avail_in = (uint32_t)chunk;
        inf->st.next_out = inf->out;
        inf->st.avail_out = sizeof inf->out;
        int r = isal_inflate(&inf->st);
        size_t consumed = chunk - inf->st.avail_in;
        size_t produced = sizeof inf->out - inf->st.avail_out;
        off += consumed;
        if (r < 0) {
            *used = off;
            return wa_error_set(err, WA_ERR_FORMAT, "invalid %s data (ISA-L error %d)",
                                inf->mode == INFLATE_ZLIB ? "zlib" : "deflate", r);
        }
        if (produced) {
            int rc = deliver(inf, inf->out, produced, sink, ud, err);
            if (rc < 0) {
                *used = off;
                return rc;
            }
            if (inf->prefix && inf->stopped)
                break;
        }
        if (inf->st.block_state == ISAL_BLOCK_FINISH) {
            /* ISA-L loads input into a 64-bit bit buffer and may have read
             * whole bytes past the end of the stream: give them back, so
             * that a data descriptor or the next member starts where it
             * should.  They always come from this call's input. */
            size_t unread = (size_t)(inf->st.read_in_length / 8);
            if (unread > consumed)
                return wa_error_set(err, WA_ERR_FORMAT,
                                    "cannot locate the end of the deflate stream");
            off -= unread;
            inf->finished = 1;
            break;
        }
        if (consumed == 0 && produced == 0)
            break; /* needs more input */
    }
    *used = off;
    return 0;
}

int inflater_finished(const struct inflater *inf)
{
    return inf->finished;
}

uint32_t inflater_crc(const struct inflater *inf)
{
    return inf->mode == INFLATE_STORED ? inf->crc : inf->st.crc;
}

uint64_t inflater_total_out(const struct inflater *inf)
{
    return inf->total;
}

uint32_t inflate_crc32(uint32_t crc, const uint8_t *buf, size_t n)
{
    return crc32_gzip_refl(crc, buf, n);
}
