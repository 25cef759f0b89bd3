/*
 * Unit tests: zip reading in its three modes (central directory known,
 * streamed from the start without it, single members by range), against
 * archives written by libzip and by a small writer here that can emit data
 * descriptors and ZIP64 records; and the corruptions each must refuse.
 *
 * usage: test_zip WORKDIR
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zip.h>
#include <zlib.h>

#include "harness.h"
#include "scan.h"
#include "scanreport.h"
#include "synth.h"
#include "xalloc.h"

static char workdir[2048];

/* ---- a zip writer with the options libzip does not offer ----------------- */

struct hzip {
    struct strbuf out, cd;
    int n;
};

static void deflate_raw(const void *in, size_t len, struct strbuf *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
    uLong bound = deflateBound(&z, (uLong)len);
    strbuf_grow(out, bound);
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)out->buf + out->len;
    z.avail_out = (uInt)bound;
    deflate(&z, Z_FINISH);
    out->len += bound - z.avail_out;
    deflateEnd(&z);
}

static void hz_add(struct hzip *hz, const char *name, const void *data, size_t len, int method,
                   int descriptor, int zip64)
{
    struct strbuf comp = STRBUF_INIT;
    if (method == 8)
        deflate_raw(data, len, &comp);
    else
        strbuf_add(&comp, data, len);
    uint32_t crc = (uint32_t)crc32(0, data, (uInt)len);
    size_t lho = hz->out.len;
    uint16_t nlen = (uint16_t)strlen(name);
    put32(&hz->out, 0x04034b50);
    put16(&hz->out, zip64 ? 45 : 20);
    put16(&hz->out, descriptor ? 8 : 0);
    put16(&hz->out, (uint16_t)method);
    put32(&hz->out, 0);
    put32(&hz->out, descriptor ? 0 : crc);
    put32(&hz->out, descriptor ? 0 : zip64 ? 0xFFFFFFFFu : (uint32_t)comp.len);
    put32(&hz->out, descriptor ? 0 : zip64 ? 0xFFFFFFFFu : (uint32_t)len);
    put16(&hz->out, nlen);
    put16(&hz->out, zip64 ? 20 : 0);
    strbuf_add(&hz->out, name, nlen);
    if (zip64) {
        put16(&hz->out, 1);
        put16(&hz->out, 16);
        put64(&hz->out, descriptor ? 0 : len);
        put64(&hz->out, descriptor ? 0 : comp.len);
    }
    strbuf_add(&hz->out, comp.buf, comp.len);
    if (descriptor) {
        put32(&hz->out, 0x08074b50);
        put32(&hz->out, crc);
        if (zip64) {
            put64(&hz->out, comp.len);
            put64(&hz->out, len);
        } else {
            put32(&hz->out, (uint32_t)comp.len);
            put32(&hz->out, (uint32_t)len);
        }
    }
    put32(&hz->cd, 0x02014b50);
    put16(&hz->cd, 45);
    put16(&hz->cd, zip64 ? 45 : 20);
    put16(&hz->cd, descriptor ? 8 : 0);
    put16(&hz->cd, (uint16_t)method);
    put32(&hz->cd, 0);
    put32(&hz->cd, crc);
    put32(&hz->cd, zip64 ? 0xFFFFFFFFu : (uint32_t)comp.len);
    put32(&hz->cd, zip64 ? 0xFFFFFFFFu : (uint32_t)len);
    put16(&hz->cd, nlen);
    put16(&hz->cd, zip64 ? 28 : 0);
    put16(&hz->cd, 0);
    put16(&hz->cd, 0);
    put16(&hz->cd, 0);
    put32(&hz->cd, 0);
    put32(&hz->cd, zip64 ? 0xFFFFFFFFu : (uint32_t)lho);
    strbuf_add(&hz->cd, name, nlen);
    if (zip64) {
        put16(&hz->cd, 1);
        put16(&hz->cd, 24);
        put64(&hz->cd, len);
        put64(&hz->cd, comp.len);
        put64(&hz->cd, lho);
    }
    hz->n++;
    strbuf_free(&comp);
}

static void hz_finish(struct hzip *hz, int zip64)
{
    size_t cd_off = hz->out.len;
    strbuf_add(&hz->out, hz->cd.buf, hz->cd.len);
    if (zip64) {
        size_t e64 = hz->out.len;
        put32(&hz->out, 0x06064b50);
        put64(&hz->out, 44);
        put16(&hz->out, 45);
        put16(&hz->out, 45);
        put32(&hz->out, 0);
        put32(&hz->out, 0);
        put64(&hz->out, (uint64_t)hz->n);
        put64(&hz->out, (uint64_t)hz->n);
        put64(&hz->out, hz->cd.len);
        put64(&hz->out, cd_off);
        put32(&hz->out, 0x07064b50);
        put32(&hz->out, 0);
        put64(&hz->out, e64);
        put32(&hz->out, 1);
    }
    put32(&hz->out, 0x06054b50);
    put16(&hz->out, 0);
    put16(&hz->out, 0);
    put16(&hz->out, zip64 ? 0xFFFF : (uint16_t)hz->n);
    put16(&hz->out, zip64 ? 0xFFFF : (uint16_t)hz->n);
    put32(&hz->out, zip64 ? 0xFFFFFFFFu : (uint32_t)hz->cd.len);
    put32(&hz->out, zip64 ? 0xFFFFFFFFu : (uint32_t)cd_off);
    put16(&hz->out, 0);
}

/* ---- helpers -------------------------------------------------------------- */

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fwrite(data, 1, len, f);
    fclose(f);
}

static char *pathf(const char *name)
{
    return xasprintf("%s/%s", workdir, name);
}

static void make_gpu_payload(struct strbuf *elf)
{
    struct strbuf fb = STRBUF_INIT, c = STRBUF_INIT;
    synth_cubin(&c, 86, 8, 0, 4000);
    struct synth_entry e[] = {{2, 86, 0x11, 1, 8, c.buf, c.len, 0}};
    synth_fatbin(&fb, e, 1);
    /* Bulk so that members span many inflate buffers. */
    for (int i = 0; i < 200000; i++)
        strbuf_addc(&fb, (char)(i * 7 % 251));
    synth_elf(elf, &fb, ".nv_fatbin");
    strbuf_free(&fb);
    strbuf_free(&c);
}

/* The scan result as JSON text, with the volatile "input" removed. */
static char *result_text(struct scan_result *r)
{
    json_t *o = scanreport_json(r);
    json_object_del(o, "input");
    char *s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(o);
    return s;
}

/* Streams data without a central directory, in chunks of `chunk`. */
static struct scan_result *scan_stream(const struct strbuf *z, size_t chunk, struct wa_error *err)
{
    struct scan_result *r = scan_result_new("stream");
    struct scan_wheel *sw = scan_wheel_new(r, NULL, 0, 1);
    int rc = 0;
    for (size_t off = 0; off < z->len && rc == 0; off += chunk) {
        size_t n = z->len - off < chunk ? z->len - off : chunk;
        rc = scan_wheel_feed(sw, (const uint8_t *)z->buf + off, n, err);
    }
    if (rc == 0)
        rc = scan_wheel_finish(sw, 1, err);
    scan_wheel_free(sw);
    if (rc < 0) {
        r->failed = 1;
        r->error = *err;
    }
    return r;
}

/* ---- tests ---------------------------------------------------------------- */

static void test_libzip_archive(const struct strbuf *gpu)
{
    char *path = pathf("libzip_pkg-1.0-py3-none-any.whl");
    zip_t *za = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, NULL);
    OK(za != NULL, "libzip creates %s", path);
    if (!za)
        return;
    static const char text[] = "print('hello')\n";
    zip_dir_add(za, "pkg", ZIP_FL_ENC_UTF_8);
    zip_source_t *s1 = zip_source_buffer(za, text, sizeof text - 1, 0);
    zip_int64_t i1 = zip_file_add(za, "pkg/__init__.py", s1, ZIP_FL_ENC_UTF_8);
    zip_source_t *s2 = zip_source_buffer(za, gpu->buf, gpu->len, 0);
    zip_int64_t i2 = zip_file_add(za, "pkg/lib/libgpu.so.12", s2, ZIP_FL_ENC_UTF_8);
    zip_source_t *s3 = zip_source_buffer(za, gpu->buf, gpu->len, 0);
    zip_int64_t i3 = zip_file_add(za, "pkg/data/hidden.bin", s3, ZIP_FL_ENC_UTF_8);
    zip_set_file_compression(za, (zip_uint64_t)i1, ZIP_CM_STORE, 0);
    zip_set_file_compression(za, (zip_uint64_t)i2, ZIP_CM_DEFLATE, 9);
    zip_set_file_compression(za, (zip_uint64_t)i3, ZIP_CM_STORE, 0);
    OK(zip_close(za) == 0, "libzip writes");

    struct scan_result *r = scan_file(path);
    OK(!r->failed, "scan_file on libzip archive: %s", r->error.msg);
    INT_EQ(r->members, 4, "members");
    INT_EQ(r->nbins, 2, "GPU code found by name and by content");
    OK(r->has_wheel_name, "wheel name parsed");
    OK(strlen(r->sha256) == 64, "sha256");
    scan_result_free(r);
    free(path);
}

static void test_modes(const struct strbuf *gpu)
{
    static const char text[] = "just text, no GPU code here\n";
    for (int zip64 = 0; zip64 < 2; zip64++) {
        struct hzip cdz = {STRBUF_INIT, STRBUF_INIT, 0};
        struct hzip ddz = {STRBUF_INIT, STRBUF_INIT, 0};
        hz_add(&cdz, "a/readme.txt", text, sizeof text - 1, 8, 0, zip64);
        hz_add(&cdz, "a/libx.so", gpu->buf, gpu->len, 8, 0, zip64);
        hz_add(&cdz, "a/liby.so", gpu->buf, gpu->len, 0, 0, zip64);
        hz_finish(&cdz, zip64);
        hz_add(&ddz, "a/readme.txt", text, sizeof text - 1, 8, 1, zip64);
        hz_add(&ddz, "a/libx.so", gpu->buf, gpu->len, 8, 1, zip64);
        hz_add(&ddz, "a/liby.so", gpu->buf, gpu->len, 8, 0, zip64);
        hz_finish(&ddz, zip64);

        char *p1 = pathf(zip64 ? "z64-1.0-py3-none-any.whl" : "cd-1.0-py3-none-any.whl");
        write_file(p1, cdz.out.buf, cdz.out.len);
        struct scan_result *r = scan_file(p1);
        OK(!r->failed, "zip64=%d: local scan: %s", zip64, r->error.msg);
        INT_EQ(r->nbins, 2, "two binaries");
        char *want = result_text(r);
        scan_result_free(r);

        /* The same archive streamed from its start, in awkward chunks. */
        static const size_t chunks[] = {1, 13, 4096, 1 << 20};
        for (size_t i = 0; i < 4; i++) {
            struct wa_error err;
            struct scan_result *s = scan_stream(&cdz.out, chunks[i], &err);
            OK(!s->failed, "zip64=%d stream chunk %zu: %s", zip64, chunks[i], s->error.msg);
            INT_EQ(s->nbins, 2, "stream finds both");
            scan_result_free(s);
        }
        /* With data descriptors. */
        for (size_t i = 0; i < 4; i++) {
            struct wa_error err;
            struct scan_result *s = scan_stream(&ddz.out, chunks[i], &err);
            OK(!s->failed, "zip64=%d descriptors chunk %zu: %s", zip64, chunks[i], s->error.msg);
            INT_EQ(s->nbins, 2, "descriptor stream finds both");
            scan_result_free(s);
        }
        char *p2 = pathf(zip64 ? "dd64-1.0-py3-none-any.whl" : "dd-1.0-py3-none-any.whl");
        write_file(p2, ddz.out.buf, ddz.out.len);
        r = scan_file(p2);
        OK(!r->failed, "zip64=%d descriptors, local: %s", zip64, r->error.msg);
        scan_result_free(r);

        /* One member by range, as the crawler does with HTTP Range. */
        FILE *f = fopen(p1, "rb");
        struct zipdir_entry *ents = NULL;
        size_t n = 0;
        struct wa_error err;
        OK(scan_read_zip_directory(fileno(f), cdz.out.len, &ents, &n, &err) == 0,
           "read directory: %s", err.msg);
        fclose(f);
        if (n == 3) {
            struct scan_result *rr = scan_result_new("range");
            struct scan_wheel *sw = scan_wheel_new(rr, ents, n, 0);
            for (size_t k = 1; k < 3; k++) {
                uint64_t end = k + 1 < n ? ents[k + 1].lho : cdz.out.len - cdz.cd.len;
                if (zip64)
                    end = ents[k].lho + 30 + strlen(ents[k].name) + 20 + ents[k].csize;
                OK(scan_wheel_seek(sw, ents[k].lho, &err) == 0, "seek");
                OK(scan_wheel_feed(sw, (const uint8_t *)cdz.out.buf + ents[k].lho,
                                   (size_t)(end - ents[k].lho), &err) == 0,
                   "ranged feed: %s", err.msg);
            }
            OK(scan_wheel_finish(sw, 0, &err) == 0, "ranged finish: %s", err.msg);
            INT_EQ(rr->nbins, 2, "ranged members found");
            OK(scan_wheel_seek(sw, 12345, &err) != 0, "seek to a non-member refused");
            scan_wheel_free(sw);
            scan_result_free(rr);
        }
        zipdir_entries_free(ents, n);

        free(want);
        free(p1);
        free(p2);
        strbuf_free(&cdz.out);
        strbuf_free(&cdz.cd);
        strbuf_free(&ddz.out);
        strbuf_free(&ddz.cd);
    }
}

static void expect_fail(const char *name, const struct strbuf *z, const char *needle)
{
    char *p = pathf(name);
    write_file(p, z->buf, z->len);
    struct scan_result *r = scan_file(p);
    OK(r->failed, "%s refused", name);
    OK(strstr(r->error.msg, needle) != NULL, "%s: '%s' mentions '%s'", name, r->error.msg, needle);
    scan_result_free(r);
    free(p);
}

static size_t find(const struct strbuf *b, const char *needle, size_t nlen)
{
    for (size_t i = 0; i + nlen <= b->len; i++)
        if (memcmp(b->buf + i, needle, nlen) == 0)
            return i;
    return (size_t)-1;
}

static void test_corrupt(const struct strbuf *gpu)
{
    struct hzip hz = {STRBUF_INIT, STRBUF_INIT, 0};
    hz_add(&hz, "lib/libx.so", gpu->buf, gpu->len, 8, 0, 0);
    hz_add(&hz, "lib/libs.so", gpu->buf, gpu->len, 0, 0, 0);
    hz_finish(&hz, 0);
    struct strbuf z = STRBUF_INIT;

    strbuf_add(&z, hz.out.buf, hz.out.len / 2);
    expect_fail("truncated.whl", &z, "zip");
    strbuf_reset(&z);

    strbuf_add(&z, "this is not a zip file at all", 29);
    expect_fail("text.whl", &z, "not a wheel, ELF, PE, fatbin, offload bundle or kernel archive");
    strbuf_reset(&z);

    /* A flipped bit in the stored member's data: CRC mismatch. */
    strbuf_add(&z, hz.out.buf, hz.out.len);
    size_t second = find(&z, "lib/libs.so", 11);
    z.buf[second + 11 + 5000] ^= 0x10;
    expect_fail("crc.whl", &z, "CRC-32 mismatch");
    strbuf_reset(&z);

    /* Damage inside the deflate stream. */
    strbuf_add(&z, hz.out.buf, hz.out.len);
    size_t first = find(&z, "lib/libx.so", 11);
    for (int i = 0; i < 64; i++)
        z.buf[first + 11 + 100 + i] ^= 0x5A;
    expect_fail("deflate.whl", &z, "lib/libx.so");
    strbuf_reset(&z);

    /* A zip bomb: declared uncompressed size far below the real one (both
     * headers agree, so only inflating tells). */
    strbuf_add(&z, hz.out.buf, hz.out.len);
    set32(&z, 22, 1000);
    size_t cd = find(&z, "PK\x01\x02", 4);
    set32(&z, cd + 24, 1000);
    expect_fail("bomb.whl", &z, "past its declared size");
    strbuf_reset(&z);

    /* Central directory and local header disagree. */
    strbuf_add(&z, hz.out.buf, hz.out.len);
    set32(&z, cd + 16, 0xDEADBEEF);
    expect_fail("cdcrc.whl", &z, "disagrees");
    strbuf_reset(&z);

    /* Member offsets outside the file. */
    strbuf_add(&z, hz.out.buf, hz.out.len);
    set32(&z, cd + 42, 0x7FFFFFF0);
    expect_fail("offset.whl", &z, "outside the file");
    strbuf_reset(&z);

    /* A member name with a line break and a terminal escape, in a failing
     * member: the message stays one line and escapes them. */
    {
        struct hzip ev = {STRBUF_INIT, STRBUF_INIT, 0};
        static const char evil[] = "pkg/x\n\x1b[31mFAKE.so";
        hz_add(&ev, evil, gpu->buf, gpu->len, 0, 0, 0);
        hz_finish(&ev, 0);
        strbuf_reset(&z);
        strbuf_add(&z, ev.out.buf, ev.out.len);
        z.buf[find(&z, "FAKE.so", 7) + 7 + 4000] ^= 0x10;
        expect_fail("evilname.whl", &z, "pkg/x\\x0a\\x1b[31mFAKE.so: CRC-32 mismatch");
        char *pth = pathf("evilname.whl");
        struct scan_result *r = scan_file(pth);
        OK(!strchr(r->error.msg, '\n') && !strchr(r->error.msg, 0x1b), "no raw control byte: %s",
           r->error.msg);
        scan_result_free(r);
        free(pth);
        strbuf_free(&ev.out);
        strbuf_free(&ev.cd);
    }
    strbuf_reset(&z);

    /* No end of central directory record at all. */
    strbuf_add(&z, hz.out.buf, cd);
    expect_fail("noeocd.whl", &z, "end of central directory");
    strbuf_free(&z);
    strbuf_free(&hz.out);
    strbuf_free(&hz.cd);
}

/* Offsets and sizes near 2^64 in the end records and the central
 * directory: each class is refused with its own message, checked both on
 * the parsers and through scan_file (no sum may wrap into range). */
static void test_wrapping(const struct strbuf *gpu)
{
    struct hzip hz = {STRBUF_INIT, STRBUF_INIT, 0};
    hz_add(&hz, "lib/libx.so", gpu->buf, gpu->len, 8, 0, 1);
    hz_add(&hz, "lib/liby.so", gpu->buf, gpu->len, 0, 0, 1);
    hz_finish(&hz, 1);
    const struct strbuf *good = &hz.out;
    size_t loc = find(good, "PK\x06\x07", 4), e64 = find(good, "PK\x06\x06", 4);
    size_t cd = find(good, "PK\x01\x02", 4);
    struct strbuf z = STRBUF_INIT;
    static const uint64_t wraps[] = {0xFFFFFFFFFFFFFFF0ull, 0xFFFFFFFFFFFFFFFFull,
                                     0xFFFFFFFFFFFFFFC8ull /* + 56 == 0 */};
    for (size_t k = 0; k < sizeof wraps / sizeof wraps[0]; k++) {
        strbuf_reset(&z);
        strbuf_add(&z, good->buf, good->len);
        set64(&z, loc + 8, wraps[k]);
        struct zipdir_eocd eocd;
        size_t tail = z.len < ZIP_TAIL_MAX ? z.len : ZIP_TAIL_MAX;
        struct wa_error e;
        OK(zipdir_find_eocd((const uint8_t *)z.buf + z.len - tail, tail, z.len, &eocd, &e) ==
               WA_ERR_FORMAT,
           "ZIP64 locator offset %llx refused", (unsigned long long)wraps[k]);
        char num[32];
        snprintf(num, sizeof num, "%llu", (unsigned long long)wraps[k]);
        OK(strstr(e.msg, num) != NULL, "the message names the offset as given: %s", e.msg);
        expect_fail("wrap64.whl", &z, "out of range");
    }
    /* The ZIP64 record just overlapping its locator. */
    strbuf_reset(&z);
    strbuf_add(&z, good->buf, good->len);
    set64(&z, loc + 8, (uint64_t)e64 + 1);
    expect_fail("e64overlap.whl", &z, "out of range");
    /* ZIP64 central directory offset and size near 2^64. */
    strbuf_reset(&z);
    strbuf_add(&z, good->buf, good->len);
    set64(&z, e64 + 48, 0xFFFFFFFFFFFFFF00ull);
    expect_fail("cdoff64.whl", &z, "does not end before");
    strbuf_reset(&z);
    strbuf_add(&z, good->buf, good->len);
    set64(&z, e64 + 40, 0xFFFFFFFFFFFFFF00ull);
    expect_fail("cdsize64.whl", &z, "does not end before");
    /* A ZIP64 entry count of 2^64 - 1. */
    strbuf_reset(&z);
    strbuf_add(&z, good->buf, good->len);
    set64(&z, e64 + 24, 0xFFFFFFFFFFFFFFFFull);
    set64(&z, e64 + 32, 0xFFFFFFFFFFFFFFFFull);
    expect_fail("count64.whl", &z, "claims");
    /* ZIP64 extra fields with a local header offset and a compressed size
     * whose sum wraps. */
    strbuf_reset(&z);
    strbuf_add(&z, good->buf, good->len);
    set64(&z, cd + 46 + 11 + 4 + 16, 0xFFFFFFFFFFFFFFF0ull); /* lho of the first entry */
    expect_fail("lho64.whl", &z, "outside the file");
    strbuf_reset(&z);
    strbuf_add(&z, good->buf, good->len);
    set64(&z, cd + 46 + 11 + 4 + 8, 0xFFFFFFFFFFFFFFF0ull); /* its csize */
    expect_fail("csize64.whl", &z, "outside the file");
    /* Two entries naming the same local header (a zero gap).  With ZIP64
     * extras each central entry is 46 + 11 + 4 + 24 bytes. */
    strbuf_reset(&z);
    strbuf_add(&z, good->buf, good->len);
    set64(&z, cd + 85 + 46 + 11 + 4 + 16, 0);
    expect_fail("samelho.whl", &z, "overlaps");
    strbuf_free(&z);
    strbuf_free(&hz.out);
    strbuf_free(&hz.cd);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_zip WORKDIR\n");
        return 2;
    }
    snprintf(workdir, sizeof workdir, "%s/test_zip", argv[1]);
    mkdir(argv[1], 0777);
    mkdir(workdir, 0777);
    json_object_seed(1);
    struct strbuf gpu = STRBUF_INIT;
    make_gpu_payload(&gpu);
    test_libzip_archive(&gpu);
    test_modes(&gpu);
    test_corrupt(&gpu);
    test_wrapping(&gpu);
    strbuf_free(&gpu);
    return harness_done();
}
