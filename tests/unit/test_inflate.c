/* Unit tests: inflate, the one streaming decompressor, against the
 * reference encoders (zlib for raw deflate and zlib streams, libzstd for
 * zstd): every mode gives back the bytes it was given, fed in chunks of
 * every size from 1 byte up, with zlib's CRC-32; a limit cuts or refuses
 * the output as documented; a prefix read stops when the sink has enough;
 * a damaged stream is an error with one line, never a crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>

#include "harness.h"
#include "inflate.h"

static unsigned long long rng = 0x2545f4914f6cdd1dull;

static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* Text-like data (compressible) with runs of noise. */
static uint8_t *sample(size_t n)
{
    uint8_t *b = malloc(n ? n : 1);
    static const char words[] = "sm_80 sm_86 sm_90a compute_90 .nv_fatbin libtorch_cuda.so ";
    for (size_t i = 0; i < n; i++)
        b[i] = rnd(8) == 0 ? (uint8_t)rnd(256) : (uint8_t)words[i % (sizeof words - 1)];
    return b;
}

struct sink {
    uint8_t *buf;
    size_t n, cap, stop_after; /* stop_after 0: never */
};

static int collect(void *ud, const uint8_t *buf, size_t n, struct wa_error *err)
{
    (void)err;
    struct sink *s = ud;
    if (s->n + n > s->cap) {
        s->cap = (s->n + n) * 2;
        s->buf = realloc(s->buf, s->cap);
    }
    memcpy(s->buf + s->n, buf, n);
    s->n += n;
    return s->stop_after && s->n >= s->stop_after ? 1 : 0;
}

/* Feeds in chunks of `chunk` bytes; returns the last code. */
static int run(struct inflater *inf, int mode, uint64_t limit, const uint8_t *in, size_t n,
               size_t chunk, struct sink *s, struct wa_error *err)
{
    inflater_reset(inf, mode, limit);
    size_t at = 0;
    while (at < n) {
        size_t k = n - at < chunk ? n - at : chunk, used = 0;
        int rc = inflater_feed(inf, in + at, k, &used, collect, s, err);
        if (rc < 0)
            return rc;
        if (used == 0 && (mode & 0xff) != INFLATE_STORED)
            break; /* the stream ended, or the sink had enough */
        at += used;
    }
    return 0;
}

static uint8_t *zlib_encode(const uint8_t *in, size_t n, int raw, size_t *out_n)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    deflateInit2(&z, 6, Z_DEFLATED, raw ? -15 : 15, 8, Z_DEFAULT_STRATEGY);
    size_t cap = deflateBound(&z, n) + 16;
    uint8_t *out = malloc(cap);
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    deflate(&z, Z_FINISH);
    *out_n = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

static void round_trips(void)
{
    static const size_t sizes[] = {0, 1, 100, 65536, 300000, 1 << 20};
    static const size_t chunks[] = {1, 7, 4096, (size_t)1 << 30};
    struct inflater *inf = inflater_new();
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t n = sizes[si];
        uint8_t *data = sample(n);
        uint32_t want_crc = (uint32_t)crc32(0, data, (uInt)n);
        OK(inflate_crc32(0, data, n) == want_crc, "crc32 of %zu bytes is zlib's", n);
        size_t nraw, nz;
        uint8_t *raw = zlib_encode(data, n, 1, &nraw), *zl = zlib_encode(data, n, 0, &nz);
        size_t zcap = ZSTD_compressBound(n);
        uint8_t *zs = malloc(zcap);
        size_t nzs = ZSTD_compress(zs, zcap, data, n, 3);
        struct {
            int mode;
            const uint8_t *in;
            size_t n;
            const char *name;
        } cases[] = {{INFLATE_DEFLATE, raw, nraw, "deflate"},
                     {INFLATE_ZLIB, zl, nz, "zlib"},
                     {INFLATE_ZSTD, zs, nzs, "zstd"},
                     {INFLATE_STORED, data, n, "stored"}};
        for (size_t c = 0; c < 4; c++)
            for (size_t ci = 0; ci < sizeof chunks / sizeof *chunks; ci++) {
                if (chunks[ci] == 1 && n > 65536)
                    continue; /* a byte at a time: the small sizes say enough */
                struct sink s = {0};
                struct wa_error err = {0};
                int rc = run(inf, cases[c].mode, (uint64_t)n + 1, cases[c].in, cases[c].n,
                             chunks[ci], &s, &err);
                OK(rc == 0 && s.n == n && (n == 0 || memcmp(s.buf, data, n) == 0),
                   "%s, %zu bytes in chunks of %zu: the same bytes back (%s)", cases[c].name, n,
                   chunks[ci], err.msg);
                OK(inflater_total_out(inf) == n, "%s: total out", cases[c].name);
                if (cases[c].mode == INFLATE_DEFLATE || cases[c].mode == INFLATE_STORED)
                    OK(inflater_crc(inf) == want_crc, "%s, %zu bytes: CRC-32", cases[c].name, n);
                if (cases[c].mode != INFLATE_STORED)
                    OK(inflater_finished(inf), "%s, %zu bytes: the stream's end found",
                       cases[c].name, n);
                free(s.buf);
            }

        if (n >= 65536) {
            /* a limit below the size: refused, or cut with INFLATE_CUT */
            struct sink s = {0};
            struct wa_error err = {0};
            int rc = run(inf, INFLATE_DEFLATE, 1000, raw, nraw, 4096, &s, &err);
            OK(rc == WA_ERR_LIMIT && !strchr(err.msg, '\n'), "past the limit: refused (%s)",
               err.msg);
            OK(s.n <= 1000, "nothing past the limit delivered (%zu)", s.n);
            free(s.buf);
            memset(&s, 0, sizeof s);
            rc = run(inf, INFLATE_DEFLATE | INFLATE_CUT, 1000, raw, nraw, 4096, &s, &err);
            OK(rc == WA_ERR_LIMIT && s.n == 1000 && memcmp(s.buf, data, 1000) == 0,
               "INFLATE_CUT: the first 1000 bytes, then the error (%zu)", s.n);
            free(s.buf);
            /* a prefix: the sink stops it early */
            memset(&s, 0, sizeof s);
            s.stop_after = 5000;
            rc = run(inf, INFLATE_ZLIB | INFLATE_PREFIX, (uint64_t)n, zl, nz, 4096, &s, &err);
            OK(rc == 0 && s.n >= 5000 && s.n < n && memcmp(s.buf, data, s.n) == 0,
               "INFLATE_PREFIX: stops once the sink has enough (%zu of %zu)", s.n, n);
            free(s.buf);
            /* damage: a flipped byte in the middle, and a cut stream */
            for (int k = 0; k < 20; k++) {
                uint8_t *bad = malloc(nz);
                memcpy(bad, zl, nz);
                bad[2 + rnd((unsigned)(nz - 2))] ^= (uint8_t)(1 + rnd(255));
                memset(&s, 0, sizeof s);
                rc = run(inf, INFLATE_ZLIB, (uint64_t)n * 2, bad, nz, 4096, &s, &err);
                OK(rc == 0 || (rc < 0 && err.msg[0] && !strchr(err.msg, '\n')),
                   "a damaged zlib stream: done or one line (%s)", rc ? err.msg : "ok");
                OK(rc < 0 || s.n != n || memcmp(s.buf, data, n) != 0 || !inflater_finished(inf),
                   "a damaged stream is not taken as whole and right");
                free(s.buf);
                free(bad);
            }
            memset(&s, 0, sizeof s);
            rc = run(inf, INFLATE_ZSTD, (uint64_t)n, zs, nzs / 2, 4096, &s, &err);
            OK(!inflater_finished(inf), "a zstd frame cut in half has not ended");
            free(s.buf);
        }
        free(raw);
        free(zl);
        free(zs);
        free(data);
    }
    inflater_free(inf);
}

int main(void)
{
    round_trips();
    return harness_done();
}
