/*
 * Unit tests: crafted binaries whose offsets, sizes and counts sit near
 * 2^64 or beyond any real file, one per class of overflow the readers must
 * refuse (or survive) cleanly: the error code, and a one-line message that
 * never passes off a wrapped sum as a small number.  The same inputs, in
 * the form each fuzz target reads them, are committed under
 * tests/fuzz/seeds/<target>/; given that directory, every seed there is
 * also scanned and must end in a result or a clean one-line error.
 *
 * usage: test_hostile_bin [SEEDS_DIR]
 */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "binscan.h"
#include "bytes.h"
#include "codec.h"
#include "elf.h"
#include "fatbin.h"
#include "harness.h"
#include "hipscan.h"
#include "offload.h"
#include "pe.h"
#include "scanreport.h"
#include "synth.h"

#define M64 UINT64_MAX
static const char gfx90a_id[] = "hipv4-amdgcn-amd-amdhsa--gfx90a";

/* ---- helpers ------------------------------------------------------------ */

struct scan {
    int rc;
    struct wa_error err;
    json_t *json; /* the report when rc == 0 */
    size_t nmodules;
    size_t nwarnings;
    char warnings[1024];
};

/* Scans buf fed in chunks of `chunk` bytes (0: whole). */
static struct scan scan(const uint8_t *buf, size_t len, size_t chunk, int size_known)
{
    struct scan s;
    memset(&s, 0, sizeof s);
    wa_error_clear(&s.err);
    struct binscan *bs = binscan_new(size_known ? len : BINSCAN_SIZE_UNKNOWN);
    for (size_t off = 0; off < len && s.rc == 0; off += chunk ? chunk : len) {
        size_t k = chunk && chunk < len - off ? chunk : len - off;
        s.rc = binscan_feed(bs, buf + off, k, &s.err);
    }
    if (s.rc == 0)
        s.rc = binscan_finish(bs, &s.err);
    if (s.rc == 0) {
        const struct binscan_result *r = binscan_result(bs);
        s.json = scanreport_binary_json("x", r);
        s.nmodules = r->nmodules;
        s.nwarnings = r->nwarnings;
        for (size_t i = 0; i < r->nwarnings; i++) {
            wa_strlcat(s.warnings, r->warnings[i], sizeof s.warnings);
            wa_strlcat(s.warnings, "\n", sizeof s.warnings);
        }
    }
    binscan_free(bs);
    return s;
}

static struct scan scan_buf(const struct strbuf *b, size_t chunk, int size_known)
{
    return scan((const uint8_t *)b->buf, b->len, chunk, size_known);
}

/* A message fit for one line of output: not empty, no line break. */
static int one_line(const char *msg)
{
    return msg[0] != '\0' && strchr(msg, '\n') == NULL && strlen(msg) < 300;
}

/* Every byte count in the report is a real count: not negative (a sum or a
 * size past INT64_MAX comes out negative from json_integer). */
static int counts_sane(json_t *o)
{
    json_t *targets = json_object_get(o, "targets");
    const char *name;
    json_t *t;
    json_object_foreach(targets, name, t)
    {
        if (json_integer_value(json_object_get(t, "bytes")) < 0 ||
            json_integer_value(json_object_get(t, "uncompressed_bytes")) < 0)
            return 0;
    }
    return 1;
}

static void expect_error(const struct strbuf *b, int code, const char *needle, const char *what)
{
    struct scan s = scan_buf(b, 0, 1);
    INT_EQ(s.rc, code, what);
    OK(one_line(s.err.msg), "%s: one-line message '%s'", what, s.err.msg);
    OK(strstr(s.err.msg, needle) != NULL, "%s: message '%s' mentions '%s'", what, s.err.msg,
       needle);
    json_decref(s.json);
    /* The same, one byte at a time. */
    struct scan s1 = scan_buf(b, 1, 1);
    INT_EQ(s1.rc, code, what);
    STR_EQ(s1.err.msg, s.err.msg, what);
    json_decref(s1.json);
}

/* A fatbin entry header (0x40 bytes). */
static void entry(struct strbuf *b, uint16_t kind, uint64_t padded, uint32_t compressed,
                  uint64_t flags, uint64_t uncompressed)
{
    put16(b, kind);
    put16(b, 0x0101);
    put32(b, 0x40);
    put64(b, padded);
    put32(b, compressed);
    put32(b, 0);
    put16(b, kind == 2 ? 8 : 0);
    put16(b, 1);
    put32(b, 80);
    put32(b, 0);
    put32(b, 0);
    put64(b, flags);
    put64(b, 0);
    put64(b, uncompressed);
}

static void container(struct strbuf *b, uint64_t fat_size)
{
    put32(b, 0xBA55ED50u);
    put16(b, 1);
    put16(b, 16);
    put64(b, fat_size);
}

/* A plain offload bundle table: magic, count, {offset, size, id} each. */
static void bundle(struct strbuf *b, const uint64_t *offs, const uint64_t *sizes, size_t n,
                   const char *id)
{
    strbuf_add(b, OFFLOAD_MAGIC, OFFLOAD_MAGIC_LEN);
    put64(b, n);
    for (size_t i = 0; i < n; i++) {
        put64(b, offs[i]);
        put64(b, sizes[i]);
        put64(b, strlen(id));
        strbuf_add(b, id, strlen(id));
    }
}

/* 64 bytes of an AMDGPU code object header for gfx90a (code object v4). */
static void code_object(struct strbuf *b)
{
    size_t start = b->len;
    strbuf_add(b,
               "\x7f"
               "ELF\x02\x01\x01\x40\x02",
               9);
    while (b->len - start < 18)
        strbuf_addc(b, 0);
    put16(b, 224);
    while (b->len - start < 48)
        strbuf_addc(b, 0);
    put32(b, 0x3f);
    while (b->len - start < 64)
        strbuf_addc(b, 0);
}

static uint32_t adler32(const uint8_t *p, size_t n)
{
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + p[i]) % 65521;
        b = (b + a) % 65521;
    }
    return b << 16 | a;
}

/* A zlib stream of one stored block (n < 65536). */
static void zlib_stored(struct strbuf *b, const uint8_t *p, size_t n)
{
    strbuf_addc(b, 0x78);
    strbuf_addc(b, 0x01);
    strbuf_addc(b, 0x01); /* BFINAL, stored */
    put16(b, (uint16_t)n);
    put16(b, (uint16_t)~n);
    strbuf_add(b, p, n);
    uint32_t a = adler32(p, n);
    uint8_t be[4] = {(uint8_t)(a >> 24), (uint8_t)(a >> 16), (uint8_t)(a >> 8), (uint8_t)a};
    strbuf_add(b, be, 4);
}

/* ---- fatbin ----------------------------------------------------------- */

/* Class: the first entry's header size + payload size wraps; the reject
 * message printed that sum ("first entry (56 bytes)"). */
static void fatbin_entry_size_wraps(void)
{
    struct strbuf b = STRBUF_INIT;
    container(&b, 64);
    entry(&b, 2, M64 - 7, 0, 0x11, 0);
    expect_error(&b, WA_ERR_FORMAT, "18446744073709551608 payload bytes", "entry size wraps");
    struct scan s = scan_buf(&b, 0, 1);
    OK(strstr(s.err.msg, "(56 bytes)") == NULL, "no wrapped sum in '%s'", s.err.msg);
    strbuf_free(&b);
}

/* Class: a compressed entry claims an uncompressed size near 2^64; the
 * report summed such claims into a wrapped (or negative) byte count. */
static void fatbin_uncompressed_absurd(void)
{
    struct fatbin_entry e;
    struct wa_error err;
    struct strbuf b = STRBUF_INIT;
    entry(&b, 2, 8, 8, 0x8011, 1ull << 63);
    INT_EQ(fatbin_parse_entry((const uint8_t *)b.buf, b.len, &e, &err), WA_ERR_FORMAT,
           "absurd uncompressed size");
    OK(strstr(err.msg, "uncompressed size 9223372036854775808") && one_line(err.msg),
       "message '%s'", err.msg);
    strbuf_reset(&b);
    entry(&b, 2, 8, 8, 0x8011, FATBIN_MAX_UNCOMPRESSED);
    INT_EQ(fatbin_parse_entry((const uint8_t *)b.buf, b.len, &e, &err), 0, "largest accepted");
    strbuf_reset(&b);
    entry(&b, 2, 8, 0, 0x11, M64); /* not compressed: the field is not used */
    INT_EQ(fatbin_parse_entry((const uint8_t *)b.buf, b.len, &e, &err), 0, "uncompressed entry");

    /* Two entries of 2^63 claimed bytes each: the sum wrapped to 0. */
    strbuf_reset(&b);
    container(&b, 2 * (64 + 8));
    for (int i = 0; i < 2; i++) {
        entry(&b, 2, 8, 8, 0x8011, 1ull << 63);
        strbuf_add(&b, "\x28\xb5\x2f\xfd\0\0\0\0", 8);
    }
    expect_error(&b, WA_ERR_FORMAT, "implausible", "two absurd claims");
    /* Inside an ELF the candidate is only rejected; nothing is counted. */
    struct strbuf elf = STRBUF_INIT;
    synth_elf(&elf, &b, ".rodata");
    struct scan s = scan_buf(&elf, 0, 1);
    INT_EQ(s.rc, 0, "absurd claim in .rodata: scanned");
    INT_EQ(s.nmodules, 0, "absurd claim in .rodata: no module");
    json_decref(s.json);
    /* Claims at the cap add up without wrapping. */
    strbuf_reset(&b);
    container(&b, 2 * (64 + 8));
    for (int i = 0; i < 2; i++) {
        entry(&b, 2, 8, 8, 0x8011, FATBIN_MAX_UNCOMPRESSED);
        strbuf_add(&b, "\x28\xb5\x2f\xfd\0\0\0\0", 8);
    }
    s = scan_buf(&b, 0, 1);
    INT_EQ(s.rc, 0, "claims at the cap");
    OK(s.json && counts_sane(s.json), "claims at the cap: counts not negative");
    json_t *t = json_object_get(json_object_get(s.json, "targets"), "sm_80");
    INT_EQ(json_integer_value(json_object_get(t, "uncompressed_bytes")),
           2 * FATBIN_MAX_UNCOMPRESSED, "claims at the cap: summed");
    json_decref(s.json);
    strbuf_free(&elf);
    strbuf_free(&b);
}

/* Class: the first entry ends the container and the binary with no payload;
 * the walker waited for one more byte and then called it cut off. */
static void fatbin_empty_entry_at_eof(void)
{
    struct strbuf b = STRBUF_INIT;
    container(&b, 64);
    entry(&b, 2, 0, 0, 0x11, 0);
    for (size_t chunk = 0; chunk <= 3; chunk++) {
        struct scan s = scan_buf(&b, chunk, 1);
        INT_EQ(s.rc, 0, "empty entry at the end");
        INT_EQ(s.nmodules, 1, "empty entry at the end: one module");
        json_decref(s.json);
        s = scan_buf(&b, chunk, 0);
        INT_EQ(s.rc, 0, "empty entry at the end, size unknown");
        json_decref(s.json);
    }
    strbuf_free(&b);
}

/* Guards for checks that were right already: container size near 2^64 and
 * entry offsets in the header. */
static void fatbin_guards(void)
{
    struct strbuf b = STRBUF_INIT;
    container(&b, M64 - 15);
    entry(&b, 2, 0, 0, 0x11, 0);
    expect_error(&b, WA_ERR_FORMAT, "implausibly large", "container size near 2^64");
    strbuf_reset(&b);
    container(&b, 1ull << 40);
    entry(&b, 2, 0, 0, 0x11, 0);
    expect_error(&b, WA_ERR_FORMAT, "runs past the end", "container size past the end");

    struct fatbin_entry e;
    memset(&e, 0, sizeof e);
    e.ident_offset = 0x40;
    e.ident_size = UINT32_MAX;
    uint8_t hdr[0x48] = {0};
    const uint8_t *sp;
    size_t n;
    OK(fatbin_entry_identifier(hdr, sizeof hdr, &e, &sp, &n) < 0,
       "identifier size past the header");
    e.options_offset = 0x40;
    hdr[0x40] = 0xff, hdr[0x41] = 0xff, hdr[0x42] = 0xff, hdr[0x43] = 0xff;
    hdr[0x44] = 2;
    OK(fatbin_entry_options(hdr, sizeof hdr, &e, &sp, &n) < 0, "options offset past the header");
    strbuf_free(&b);
}

/* ---- offload bundles ---------------------------------------------------- */

/* Class: with the binary's size unknown, an entry may span up to 2^64 - 1
 * from the bundle, so bundle offset + entry end wrapped: the bundle was
 * accepted with an end before its start. */
static void bundle_end_wraps(void)
{
    struct strbuf b = STRBUF_INIT;
    size_t tsize = OFFLOAD_MAGIC_LEN + 8 + 24 + strlen(gfx90a_id);
    for (int i = 0; i < 8; i++)
        strbuf_addc(&b, 0);
    uint64_t off = tsize, size = M64 - tsize;
    bundle(&b, &off, &size, 1, gfx90a_id);
    for (int i = 0; i < 128; i++)
        strbuf_addc(&b, 0);

    struct offload_entry *e;
    size_t ne, ts, need;
    struct wa_error err;
    INT_EQ(offload_bundle_table((const uint8_t *)b.buf + 8, b.len - 8, M64 - 8, &e, &ne, &ts, &need,
                                &err),
           WA_ERR_FORMAT, "entry end past 2^64 - 1");
    OK(strstr(err.msg, "overrun the bundle") && one_line(err.msg), "message '%s'", err.msg);

    struct hipscan *h = hipscan_new(M64);
    for (size_t k = 0; k < b.len; k += 5)
        hipscan_feed(h, (const uint8_t *)b.buf + k, b.len - k < 5 ? b.len - k : 5, k, NULL);
    INT_EQ(hipscan_finish(h, &err), 0, "hipscan finishes");
    const struct hipscan_result *hr = hipscan_result(h);
    INT_EQ(hr->nbundles, 0, "no bundle with a wrapped end");
    OK(hr->nrejects == 1 && strstr(hr->rejects[0].why, "overrun"), "rejected as overrunning");
    hipscan_free(h);

    struct scan s = scan_buf(&b, 3, 0);
    INT_EQ(s.rc, 0, "binscan, size unknown");
    INT_EQ(s.nmodules, 0, "binscan: no module");
    json_decref(s.json);

    /* The largest span that does not wrap: a bundle the binary cuts off. */
    strbuf_reset(&b);
    for (int i = 0; i < 8; i++)
        strbuf_addc(&b, 0);
    size = M64 - 8 - tsize;
    bundle(&b, &off, &size, 1, gfx90a_id);
    for (int i = 0; i < 128; i++)
        strbuf_addc(&b, 0);
    h = hipscan_new(M64);
    hipscan_feed(h, (const uint8_t *)b.buf, b.len, 0, NULL);
    INT_EQ(hipscan_finish(h, &err), WA_ERR_TRUNCATED, "largest span: cut off");
    OK(strstr(err.msg, "offset 8 is cut off") && one_line(err.msg), "message '%s'", err.msg);
    hipscan_free(h);
    strbuf_free(&b);
}

/* Class: a compressed bundle claims to inflate to 2^64 - 1 bytes, so its
 * entries could claim as much; two such entries summed to a negative byte
 * count in the report. */
static void ccob_uncompressed_absurd(void)
{
    uint8_t hd[32] = "CCOB";
    struct offload_ccob c;
    size_t need;
    struct wa_error err;
    hd[4] = 3;
    hd[8] = 200; /* total */
    memset(hd + 16, 0xff, 8);
    INT_EQ(offload_ccob_header(hd, 32, 1000, &c, &need, &err), WA_ERR_FORMAT, "v3 2^64 - 1");
    OK(strstr(err.msg, "18446744073709551615 bytes inflated") && one_line(err.msg), "message '%s'",
       err.msg);
    memset(hd + 16, 0, 8);
    hd[21] = 1; /* 2^40 */
    INT_EQ(offload_ccob_header(hd, 32, 1000, &c, &need, &err), 0, "v3 at the cap");
    INT_EQ(c.uncompressed_size, OFFLOAD_MAX_INFLATED, "v3 at the cap: size");
    hd[21] = 0, hd[22] = 1;
    INT_EQ(offload_ccob_header(hd, 32, 1000, &c, &need, &err), WA_ERR_FORMAT, "v3 past the cap");

    /* A whole file: header and a stream inflating to a table whose entries
     * claim almost all of it. */
    struct strbuf tbl = STRBUF_INIT, b = STRBUF_INIT;
    uint64_t offs[2] = {256, 256}, sizes[2] = {M64 - 256, M64 - 256};
    bundle(&tbl, offs, sizes, 2, gfx90a_id);
    while (tbl.len < 256)
        strbuf_addc(&tbl, 0);
    code_object(&tbl);
    struct strbuf z = STRBUF_INIT;
    zlib_stored(&z, (const uint8_t *)tbl.buf, tbl.len);
    strbuf_add(&b, "CCOB", 4);
    put16(&b, 3);
    put16(&b, 0);
    put64(&b, 32 + z.len);
    put64(&b, M64);
    put64(&b, 0);
    strbuf_add(&b, z.buf, z.len);
    expect_error(&b, WA_ERR_FORMAT, "offload bundle at offset 0", "CCOB claims 2^64 - 1");
    /* Entries at the cap's scale sum fine. */
    strbuf_reset(&tbl);
    offs[0] = offs[1] = 256;
    sizes[0] = sizes[1] = OFFLOAD_MAX_INFLATED - 256;
    bundle(&tbl, offs, sizes, 2, gfx90a_id);
    while (tbl.len < 256)
        strbuf_addc(&tbl, 0);
    code_object(&tbl);
    strbuf_reset(&z);
    zlib_stored(&z, (const uint8_t *)tbl.buf, tbl.len);
    b.len = 32;
    set64(&b, 8, 32 + z.len);
    set64(&b, 16, OFFLOAD_MAX_INFLATED);
    strbuf_add(&b, z.buf, z.len);
    struct scan s = scan_buf(&b, 7, 1);
    INT_EQ(s.rc, 0, "CCOB at the cap");
    INT_EQ(s.nmodules, 1, "CCOB at the cap: one module");
    OK(s.json && counts_sane(s.json), "CCOB at the cap: counts not negative");
    json_decref(s.json);
    strbuf_free(&z);
    strbuf_free(&tbl);
    strbuf_free(&b);
}

/* Class: a compressed bundle whose stream inflates past its declared size.
 * v1 gives no total size, so the decoder ran to the end of the stream
 * whatever the claim; now only the declared bytes are read. */
static void ccob_inflates_past_declared(void)
{
    struct strbuf tbl = STRBUF_INIT, z = STRBUF_INIT, b = STRBUF_INIT;
    uint64_t off = 128, size = 64;
    bundle(&tbl, &off, &size, 1, gfx90a_id);
    while (tbl.len < 128)
        strbuf_addc(&tbl, 0);
    code_object(&tbl);
    while (tbl.len < 32768)
        strbuf_addc(&tbl, 0);
    zlib_stored(&z, (const uint8_t *)tbl.buf, tbl.len);
    for (int version = 1; version <= 2; version++) {
        strbuf_reset(&b);
        strbuf_add(&b, "CCOB", 4);
        put16(&b, (uint16_t)version);
        put16(&b, 0);
        if (version == 2)
            put32(&b, (uint32_t)(24 + z.len));
        put32(&b, 192); /* declared: the table and the code object only */
        put64(&b, 0);
        strbuf_add(&b, z.buf, z.len);
        for (size_t chunk = 0; chunk <= 4096; chunk += 4096) {
            struct scan s = scan_buf(&b, chunk, 1);
            INT_EQ(s.rc, 0, "inflates past its size: scanned");
            INT_EQ(s.nmodules, 1, "inflates past its size: the bundle is kept");
            OK(strstr(s.warnings, "inflates past its declared 192 bytes") != NULL,
               "v%d: warned: '%s'", version, s.warnings);
            json_t *gfx = json_object_get(s.json, "gfx");
            OK(json_array_size(gfx) == 1 &&
                   strcmp(json_string_value(json_array_get(gfx, 0)), "gfx90a") == 0,
               "v%d: gfx90a", version);
            json_decref(s.json);
        }
    }
    strbuf_free(&tbl);
    strbuf_free(&z);
    strbuf_free(&b);
}

/* Class: the bundle table was allocated (count x 536 bytes) and parsed from
 * its start each time a few more of its bytes arrived: a 1024-entry table of
 * 25 KiB cost 2048 allocations of half a megabyte and 2 million entry checks
 * (15 s of CPU time for these 32 tables under ASan; 28 s for two tables in
 * fuzz_offload, a timeout).  Now nothing is allocated until the table is
 * whole and each entry is checked once (0.04 s); a generous time bound
 * catches a regression. */
static void bundle_table_cost(void)
{
    struct strbuf b = STRBUF_INIT;
    static uint64_t offs[OFFLOAD_MAX_ENTRIES], sizes[OFFLOAD_MAX_ENTRIES];
    for (int k = 0; k < 32; k++) {
        bundle(&b, offs, sizes, OFFLOAD_MAX_ENTRIES, "x");
        pad_to(&b, 8);
    }
    clock_t t0 = clock();
    struct scan s = scan_buf(&b, 4096, 1);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    INT_EQ(s.rc, 0, "32 tables of 1024 entries");
    OK(secs < 2.0, "32 tables of 1024 entries took %.2f s", secs);
    json_decref(s.json);

    struct offload_entry *e;
    size_t ne, ts, need;
    struct wa_error err;
    strbuf_reset(&b);
    bundle(&b, offs, sizes, OFFLOAD_MAX_ENTRIES, "x");
    INT_EQ(offload_bundle_table((const uint8_t *)b.buf, b.len, M64, &e, &ne, &ts, &need, &err), 0,
           "1024 entries");
    INT_EQ(ne, OFFLOAD_MAX_ENTRIES, "1024 entries: count");
    INT_EQ(ts, b.len, "1024 entries: table size");
    STR_EQ(e[OFFLOAD_MAX_ENTRIES - 1].id, "x", "1024 entries: last id");
    free(e);
    INT_EQ(offload_bundle_table((const uint8_t *)b.buf, b.len - 1, M64, &e, &ne, &ts, &need, &err),
           1, "one byte short");
    OK(e == NULL && need == b.len, "one byte short: need %zu", need);

    /* Resumed as the bytes arrive: asks exactly for what is missing, then
     * gives the same table, and the same error for a bad entry. */
    struct offload_table_scan sc = {0, 0};
    size_t have = 0, calls = 0;
    int rc;
    while ((rc = offload_bundle_table_resume((const uint8_t *)b.buf, have, M64, &sc, &e, &ne, &ts,
                                             &need, &err)) == 1 &&
           need > have && need <= b.len) {
        have = need;
        calls++;
    }
    INT_EQ(rc, 0, "resumed: parses");
    OK(ne == OFFLOAD_MAX_ENTRIES && ts == b.len && calls == 2 * OFFLOAD_MAX_ENTRIES + 1,
       "resumed: %zu entries, %zu bytes, %zu calls", ne, ts, calls);
    free(e);
    set64(&b, OFFLOAD_MAGIC_LEN + 8 + 700 * 25 + 16, 0); /* entry 700: empty id */
    memset(&sc, 0, sizeof sc);
    have = 0;
    while ((rc = offload_bundle_table_resume((const uint8_t *)b.buf, have, M64, &sc, &e, &ne, &ts,
                                             &need, &err)) == 1 &&
           need > have && need <= b.len)
        have = need;
    INT_EQ(rc, WA_ERR_FORMAT, "resumed: bad entry");
    OK(strstr(err.msg, "entry 700: id of 0 bytes") != NULL, "resumed: message '%s'", err.msg);
    strbuf_free(&b);
}

/* ---- ELF and PE ---------------------------------------------------------- */

/* Guards for checks that were right already: e_shoff and section
 * offset + size near 2^64, an extended section count of 2^32 - 1. */
static void elf_guards(void)
{
    struct strbuf body = STRBUF_INIT, elf = STRBUF_INIT;
    strbuf_add(&body, "payload!", 8);
    synth_elf(&elf, &body, ".nv_fatbin");
    size_t shoff = (size_t)rd64((const uint8_t *)elf.buf + 0x28);

    struct strbuf bad = STRBUF_INIT;
    strbuf_add(&bad, elf.buf, elf.len);
    set64(&bad, 0x28, M64 - 63);
    expect_error(&bad, WA_ERR_FORMAT, "extends past the end", "e_shoff near 2^64");
    struct scan s = scan_buf(&bad, 0, 0);
    /* A file shorter than the head is measured at the end. */
    INT_EQ(s.rc, WA_ERR_FORMAT, "e_shoff near 2^64, size unknown");
    OK(one_line(s.err.msg), "message '%s'", s.err.msg);
    /* A longer one never reaches the table. */
    while (bad.len < 3 * 4096)
        strbuf_addc(&bad, 0);
    s = scan_buf(&bad, 1000, 0);
    INT_EQ(s.rc, WA_ERR_TRUNCATED, "e_shoff near 2^64, size unknown, long file");
    OK(strstr(s.err.msg, "section header table missing") && one_line(s.err.msg), "message '%s'",
       s.err.msg);

    /* Section 2 (the body): offset 2^64 - 8, size 16. */
    strbuf_reset(&bad);
    strbuf_add(&bad, elf.buf, elf.len);
    set64(&bad, shoff + 2 * 64 + 0x18, M64 - 7);
    set64(&bad, shoff + 2 * 64 + 0x20, 16);
    expect_error(&bad, WA_ERR_FORMAT, "section 2 at offset 18446744073709551608 (16 bytes)",
                 "section offset + size wraps");

    /* Extended numbering: section 0's sh_size says 2^32 - 1 sections. */
    strbuf_reset(&bad);
    strbuf_add(&bad, elf.buf, elf.len);
    bad.buf[0x3C] = 0, bad.buf[0x3D] = 0;
    set64(&bad, shoff + 0x20, UINT32_MAX);
    expect_error(&bad, WA_ERR_LIMIT, "too large", "2^32 - 1 sections");

    struct elf_header h;
    struct elf_section sec;
    INT_EQ(elf_parse_header((const uint8_t *)elf.buf, elf.len, &h, NULL), 0, "header");
    h.shnum = UINT32_MAX;
    OK(elf_section_table_size(&h) == (uint64_t)UINT32_MAX * 64, "table size does not wrap");
    OK(elf_parse_section((const uint8_t *)elf.buf + shoff, elf.len - shoff, &h, UINT32_MAX, &sec,
                         NULL) == WA_ERR_TRUNCATED,
       "section 2^32 - 1 is past the table");
    strbuf_free(&bad);
    strbuf_free(&elf);
    strbuf_free(&body);
}

/* Class: a long section name "/<decimal>" accumulated without bound, so
 * "/18446744073709551620" wrapped to offset 4 and named a section from the
 * start of the string table. */
static void pe_long_name_wraps(void)
{
    static const uint8_t st[16] = "\x10\0\0\0abc\0.nv_fat"; /* size, "abc", ".nv_fat" */
    char out[32];
    INT_EQ(pe_long_name("/4", st, sizeof st, out, sizeof out), 0, "plain long name");
    STR_EQ(out, "abc", "plain long name");
    INT_EQ(pe_long_name("/18446744073709551620", st, sizeof st, out, sizeof out), -1,
           "offset 2^64 + 4 does not wrap to 4");
    INT_EQ(pe_long_name("/0000000000000000000008", st, sizeof st, out, sizeof out), 0,
           "leading zeros");
    STR_EQ(out, ".nv_fat", "leading zeros");
    INT_EQ(pe_long_name("/16", st, sizeof st, out, sizeof out), -1, "offset at the end");
}

/* Guards for checks that were right already: a section's raw pointer +
 * size past 2^32 (and the file), the string table past the file. */
static void pe_guards(void)
{
    struct strbuf body = STRBUF_INIT, pe = STRBUF_INIT, bad = STRBUF_INIT;
    strbuf_add(&body, "payload!", 8);
    synth_pe(&pe, &body, ".nv_fatb");
    size_t sect = 0x80 + 24 + 240;
    strbuf_add(&bad, pe.buf, pe.len);
    set32(&bad, sect + 16, 0x200);       /* SizeOfRawData */
    set32(&bad, sect + 20, 0xFFFFFF00u); /* PointerToRawData */
    expect_error(&bad, WA_ERR_FORMAT, "data at offset 4294967040 (512 bytes) extends past",
                 "raw pointer + size wraps 32 bits");
    strbuf_reset(&bad);
    strbuf_add(&bad, pe.buf, pe.len);
    bad.buf[0x80 + 6] = (char)0xff; /* 65535 sections */
    bad.buf[0x80 + 7] = (char)0xff;
    expect_error(&bad, WA_ERR_FORMAT, "section count 65535 exceeds 96", "65535 sections");
    struct pe_info pi;
    memset(&pi, 0, sizeof pi);
    pi.symtab_ptr = UINT32_MAX;
    pi.nsymbols = UINT32_MAX;
    OK(pe_string_table_offset(&pi) == UINT32_MAX + 18ull * UINT32_MAX, "string table offset");
    strbuf_free(&bad);
    strbuf_free(&pe);
    strbuf_free(&body);
}

/* ---- codecs ----------------------------------------------------------- */

/* Class: the zlib prefix decoder narrowed `want` to 32 bits for ISA-L's
 * avail_out, then computed the output length from the full `want`: a
 * want of 2^32 + 65 reported 2^32 + 65 bytes decoded. */
static void codec_want_narrowed(void)
{
    uint8_t text[100];
    for (size_t i = 0; i < sizeof text; i++)
        text[i] = (uint8_t)('a' + i % 26);
    struct strbuf z = STRBUF_INIT;
    zlib_stored(&z, text, sizeof text);
    uint8_t out[128];
    size_t got = 0;
    struct codec *c = codec_new();
    INT_EQ(codec_decode_prefix(c, FATBIN_CODEC_ZLIB, (const uint8_t *)z.buf, z.len, out,
                               (size_t)UINT32_MAX + 65, &got),
           0, "zlib with a 2^32 + 65 budget");
    INT_EQ(got, sizeof text, "zlib: the bytes really decoded");
    OK(memcmp(out, text, sizeof text) == 0, "zlib: the text");
    codec_free(c);
    strbuf_free(&z);
}

/* ---- the committed seeds ------------------------------------------------ */

/* Each seed in the form its fuzz target reads it (two chunking bytes first
 * for fatbin and offload), scanned with the size known and unknown, whole
 * and in small chunks: a result with sane counts or a one-line error. */
static void seeds(const char *dir)
{
    static const char *const targets[] = {"elf", "pe", "fatbin", "offload"};
    size_t n = 0;
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, targets[t]);
        DIR *d = opendir(path);
        if (!d)
            continue;
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.')
                continue;
            char file[8192];
            snprintf(file, sizeof file, "%s/%s", path, de->d_name);
            FILE *f = fopen(file, "rb");
            if (!f)
                continue;
            struct strbuf b = STRBUF_INIT;
            char buf[65536];
            size_t k;
            while ((k = fread(buf, 1, sizeof buf, f)) > 0)
                strbuf_add(&b, buf, k);
            fclose(f);
            size_t skip = t >= 2 && b.len >= 2 ? 2 : 0;
            for (int known = 0; known <= 1; known++)
                for (size_t chunk = 0; chunk <= 13; chunk += 13) {
                    struct scan s = scan((const uint8_t *)b.buf + skip, b.len - skip, chunk, known);
                    if (s.rc == 0)
                        OK(counts_sane(s.json), "%s/%s: counts not negative", targets[t],
                           de->d_name);
                    else
                        OK(one_line(s.err.msg), "%s/%s: one-line message '%s'", targets[t],
                           de->d_name, s.err.msg);
                    json_decref(s.json);
                }
            strbuf_free(&b);
            n++;
        }
        closedir(d);
    }
    OK(n > 0, "seeds found in %s", dir);
}

int main(int argc, char **argv)
{
    json_object_seed(1);
    fatbin_entry_size_wraps();
    fatbin_uncompressed_absurd();
    fatbin_empty_entry_at_eof();
    fatbin_guards();
    bundle_end_wraps();
    ccob_uncompressed_absurd();
    ccob_inflates_past_declared();
    bundle_table_cost();
    elf_guards();
    pe_long_name_wraps();
    pe_guards();
    codec_want_narrowed();
    if (argc > 1)
        seeds(argv[1]);
    return harness_done();
}
