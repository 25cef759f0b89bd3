/*
 * inflate: ISA-L streaming inflate into a fixed buffer.
 */
#include "inflate.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <stdlib.h>

#include "xalloc.h"

struct inflater {
    struct inflate_state st;
    int stored;
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
    inflater_reset(inf, 0, UINT64_MAX);
    return inf;
}

void inflater_free(struct inflater *inf)
{
    free(inf);
}

void inflater_reset(struct inflater *inf, int stored, uint64_t limit)
{
    isal_inflate_init(&inf->st);
    inf->st.crc_flag = ISAL_GZIP_NO_HDR;
    inf->stored = stored;
    inf->finished = 0;
    inf->stopped = 0;
    inf->limit = limit;
    inf->total = 0;
    inf->crc = 0;
}

static int deliver(struct inflater *inf, const uint8_t *buf, size_t n, inflate_sink sink, void *ud,
                   struct wa_error *err)
{
    if (n > inf->limit - inf->total)
        return wa_error_set(err, WA_ERR_LIMIT, "inflates past its declared size of %llu bytes",
                            (unsigned long long)inf->limit);
    inf->total += n;
    if (inf->stopped || !sink)
        return 0;
    int rc = sink(ud, buf, n, err);
    if (rc < 0)
        return rc;
    if (rc > 0)
        inf->stopped = 1;
    return 0;
}

int inflater_feed(struct inflater *inf, const uint8_t *in, size_t n, size_t *used,
                  inflate_sink sink, void *ud, struct wa_error *err)
{
    *used = 0;
    if (inf->stored) {
        inf->crc = inflate_crc32(inf->crc, in, n);
        *used = n;
        return deliver(inf, in, n, sink, ud, err);
    }
    if (inf->finished)
        return 0;
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
        if (r < 0)
            return wa_error_set(err, WA_ERR_FORMAT, "invalid deflate data (ISA-L error %d)", r);
        if (produced) {
            int rc = deliver(inf, inf->out, produced, sink, ud, err);
            if (rc < 0)
                return rc;
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
    return inf->stored ? inf->crc : inf->st.crc;
}

uint64_t inflater_total_out(const struct inflater *inf)
{
    return inf->total;
}

uint32_t inflate_crc32(uint32_t crc, const uint8_t *buf, size_t n)
{
    return crc32_gzip_refl(crc, buf, n);
}
