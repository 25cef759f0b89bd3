/*
 * Unit tests of the AMD side of the scanner: offload bundle tables,
 * compressed bundle headers, entry ids and code object headers from
 * synthetic bytes (every bound), and binscan over the committed HIP
 * fixtures fed whole and one byte at a time (same result).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binscan.h"
#include "harness.h"
#include "offload.h"

static size_t put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
    return 8;
}

/* A bundle: magic, count, entries {offset, size, id}. */
static size_t bundle(uint8_t *buf, const char *const *ids, const uint64_t *offs,
                     const uint64_t *sizes, size_t n)
{
    size_t p = 0;
    memcpy(buf, OFFLOAD_MAGIC, OFFLOAD_MAGIC_LEN);
    p += OFFLOAD_MAGIC_LEN;
    p += put64(buf + p, n);
    for (size_t i = 0; i < n; i++) {
        p += put64(buf + p, offs[i]);
        p += put64(buf + p, sizes[i]);
        p += put64(buf + p, strlen(ids[i]));
        memcpy(buf + p, ids[i], strlen(ids[i]));
        p += strlen(ids[i]);
    }
    return p;
}

static void tables(void)
{
    static uint8_t buf[8192];
    const char *ids[] = {"host-x86_64-unknown-linux", "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-",
                         "hipv4-amdgcn-amd-amdhsa--gfx1030"};
    uint64_t offs[] = {0, 4096, 6144}, sizes[] = {0, 2000, 1000};
    size_t len = bundle(buf, ids, offs, sizes, 3);
    struct offload_entry *e;
    size_t ne, ts, need;
    struct wa_error err;
    INT_EQ(offload_bundle_table(buf, len, 8192, &e, &ne, &ts, &need, &err), 0, "table parses");
    INT_EQ(ne, 3, "three entries");
    INT_EQ(ts, len, "table size");
    STR_EQ(e[1].id, ids[1], "entry id");
    INT_EQ(e[2].offset, 6144, "entry offset");
    free(e);
    /* Every shorter prefix asks for more, never reads past it. */
    for (size_t k = 0; k < len; k++) {
        int rc = offload_bundle_table(buf, k, 8192, &e, &ne, &ts, &need, &err);
        OK(rc == 1 && need > k, "prefix of %zu bytes: rc %d need %zu", k, rc, need);
    }
    /* Damage. */
    OK(offload_bundle_table(buf, len, 7000, &e, &ne, &ts, &need, &err) < 0,
       "an entry past the limit is refused");
    uint64_t bad_off[] = {0, 16, 6144};
    len = bundle(buf, ids, bad_off, sizes, 3);
    OK(offload_bundle_table(buf, len, 8192, &e, &ne, &ts, &need, &err) < 0,
       "an entry overlapping the table is refused");
    len = bundle(buf, ids, offs, sizes, 3);
    put64(buf + OFFLOAD_MAGIC_LEN, 0);
    OK(offload_bundle_table(buf, len, 8192, &e, &ne, &ts, &need, &err) < 0, "zero entries");
    put64(buf + OFFLOAD_MAGIC_LEN, 1ull << 40);
    OK(offload_bundle_table(buf, len, 8192, &e, &ne, &ts, &need, &err) < 0, "absurd count");
    len = bundle(buf, ids, offs, sizes, 3);
    put64(buf + OFFLOAD_MAGIC_LEN + 8 + 16, 1u << 20); /* first id length */
    OK(offload_bundle_table(buf, len, 8192, &e, &ne, &ts, &need, &err) < 0, "absurd id length");
    buf[0] = 'x';
    OK(offload_bundle_table(buf, len, 8192, &e, &ne, &ts, &need, &err) < 0, "wrong magic");
}

static void ccob(void)
{
    uint8_t h[32] = "CCOB";
    struct offload_ccob c;
    size_t need;
    struct wa_error err;
    /* v2: u16 version, u16 method, u32 total, u32 uncompressed, u64 hash */
    h[4] = 2, h[6] = 1;
    h[8] = 200, h[12] = 0, h[13] = 0x10; /* total 200, uncompressed 4096 */
    INT_EQ(offload_ccob_header(h, 24, 1000, &c, &need, &err), 0, "v2 header");
    INT_EQ(c.header_size, 24, "v2 header size");
    INT_EQ(c.total_size, 200, "v2 total");
    INT_EQ(c.uncompressed_size, 4096, "v2 uncompressed");
    INT_EQ(c.method, OFFLOAD_ZSTD, "zstd");
    INT_EQ(offload_ccob_header(h, 12, 1000, &c, &need, &err), 1, "v2 needs 24 bytes");
    INT_EQ(need, 24, "v2 need");
    OK(offload_ccob_header(h, 24, 100, &c, &need, &err) < 0, "total beyond the limit");
    h[4] = 4;
    OK(offload_ccob_header(h, 24, 1000, &c, &need, &err) < 0, "version 4 unknown");
    h[4] = 2, h[6] = 2;
    OK(offload_ccob_header(h, 24, 1000, &c, &need, &err) < 0, "method 2 unknown");
    /* v1: no total size */
    memset(h + 4, 0, 28);
    h[4] = 1, h[9] = 0x10;
    INT_EQ(offload_ccob_header(h, 20, 1000, &c, &need, &err), 0, "v1 header");
    INT_EQ(c.total_size, 0, "v1 has no total");
    INT_EQ(c.uncompressed_size, 4096, "v1 uncompressed");
    /* v3: u64 sizes */
    memset(h + 4, 0, 28);
    h[4] = 3, h[8] = 100, h[17] = 0x20;
    INT_EQ(offload_ccob_header(h, 32, 1000, &c, &need, &err), 0, "v3 header");
    INT_EQ(c.header_size, 32, "v3 header size");
    INT_EQ(c.uncompressed_size, 8192, "v3 uncompressed");
}

static void ids(void)
{
    struct target t;
    char name[TARGET_NAME_MAX];
    static const struct {
        const char *id;
        int rc;
        const char *target;
    } cases[] = {
        {"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", 0, "gfx90a:xnack-"},
        {"hip-amdgcn-amd-amdhsa--gfx906", 0, "gfx906"},
        {"hip-amdgcn-amd-amdhsa-gfx803", 0, "gfx803"},
        {"openmp-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack+", 0, "gfx942:sramecc+:xnack+"},
        {"hipv4-amdgcn-amd-amdhsa--gfx11-generic", 0, "gfx11-generic"},
        {"host-x86_64-unknown-linux", 1, NULL},
        {"host-x86_64-unknown-linux-gnu", 1, NULL},
        {"host-x86_64-unknown-linux--", 1, NULL},
        {"cuda-nvptx64-nvidia-cuda--sm_80", 1, NULL},
        {"hipv4-amdgcn-amd-amdhsa--", WA_ERR_FORMAT, NULL},
        {"hipv4-amdgcn-amd-amdhsa--sm_80", WA_ERR_FORMAT, NULL},
        {"nodash", WA_ERR_FORMAT, NULL},
        {"-x", WA_ERR_FORMAT, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = offload_parse_id(cases[i].id, &t);
        INT_EQ(rc, cases[i].rc, cases[i].id);
        if (rc == 0 && cases[i].target) {
            target_format(&t, name, sizeof name);
            STR_EQ(name, cases[i].target, cases[i].id);
        }
    }
}

static void object(uint8_t abi, uint32_t flags, const char *want)
{
    uint8_t h[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 64, abi};
    h[18] = 224;
    h[48] = (uint8_t)flags, h[49] = (uint8_t)(flags >> 8), h[50] = (uint8_t)(flags >> 16),
    h[51] = (uint8_t)(flags >> 24);
    struct offload_object o;
    INT_EQ(offload_object_header(h, 64, &o), 0, want);
    OK(o.has_target, "%s: known machine", want);
    char name[TARGET_NAME_MAX];
    target_format(&o.target, name, sizeof name);
    STR_EQ(name, want, "e_flags decode");
}

static void objects(void)
{
    /* Values seen in Debian's rocSPARSE 5.3 (docs/formats.md 6.3), code object v4. */
    object(2, 0x36, "gfx1030");
    object(2, 0x22C, "gfx900:xnack-");
    object(2, 0x62F, "gfx906:xnack-"); /* sramecc any */
    object(2, 0x73F, "gfx90a:xnack+");
    object(2, 0x63F, "gfx90a:xnack-");
    object(2, 0xE3F, "gfx90a:sramecc+:xnack-");
    object(1, 0x12F, "gfx906:xnack+"); /* v3 booleans */
    object(4, 0x01000154, "gfx11-generic");
    object(4, 0x4F, "gfx950");
    uint8_t h[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 64, 2};
    struct offload_object o;
    h[18] = 190; /* EM_CUDA */
    OK(offload_object_header(h, 64, &o) < 0, "a CUDA ELF is not a code object");
    h[18] = 224;
    INT_EQ(offload_object_header(h, 63, &o), 1, "63 bytes are not enough");
    h[48] = 0x7e;
    INT_EQ(offload_object_header(h, 64, &o), 0, "unknown machine");
    OK(!o.has_target, "unknown machine: no target");
    STR_EQ(offload_mach_name(0x4c), "gfx942", "mach name");
    OK(offload_mach_name(0x27) == NULL && offload_mach_name(4096) == NULL, "no name for gaps");
}

/* The scan of a file fed in chunks of `chunk` bytes, as a string of targets
 * per module. */
static char *scan_signature(const uint8_t *data, size_t n, size_t chunk)
{
    struct binscan *bs = binscan_new(n);
    for (size_t off = 0; off < n; off += chunk) {
        size_t k = n - off < chunk ? n - off : chunk;
        if (binscan_feed(bs, data + off, k, NULL) < 0)
            break;
    }
    char *out = malloc(8192);
    size_t len = 0;
    out[0] = '\0';
    if (binscan_finish(bs, NULL) == 0) {
        const struct binscan_result *r = binscan_result(bs);
        for (size_t m = 0; m < r->nmodules; m++) {
            len += (size_t)snprintf(out + len, 8192 - len, "[%d@%llu", r->modules[m].cls,
                                    (unsigned long long)r->modules[m].offset);
            for (size_t k = 0; k < r->modules[m].nentries; k++) {
                const struct binscan_entry *e = &r->entries[r->modules[m].first_entry + k];
                char name[TARGET_NAME_MAX];
                target_format(&e->target, name, sizeof name);
                len +=
                    (size_t)snprintf(out + len, 8192 - len, " %s%s", name, e->inspected ? "" : "?");
            }
            len += (size_t)snprintf(out + len, 8192 - len, "]");
        }
        len += (size_t)snprintf(out + len, 8192 - len, " w%zu", r->nwarnings);
    } else {
        snprintf(out, 8192, "error");
    }
    binscan_free(bs);
    return out;
}

static void fixtures(const char *dir)
{
    static const char *const files[] = {
        "libhip_plain.so",   "libhip_two.so",      "libhip_ccob.so",
        "libhip_generic.so", "kern_gfx1100.hsaco", "kern_bundle.co",
        "kern_zlib_v2.co",   "kern_zstd_v1.co",    "kern_zstd_v3.co"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        FILE *f = fopen(path, "rb");
        if (!f) {
            OK(0, "cannot open %s", path);
            continue;
        }
        static uint8_t data[1 << 20];
        size_t n = fread(data, 1, sizeof data, f);
        fclose(f);
        char *whole = scan_signature(data, n, n);
        char *bytes = scan_signature(data, n, 1);
        char *odd = scan_signature(data, n, 4093);
        OK(strchr(whole, '[') != NULL, "%s: modules found: %s", files[i], whole);
        OK(strstr(whole, "?") == NULL, "%s: every code object cross-checked: %s", files[i], whole);
        OK(strstr(whole, " w0") != NULL, "%s: no warnings: %s", files[i], whole);
        STR_EQ(bytes, whole, "one byte at a time gives the same result");
        STR_EQ(odd, whole, "4093-byte chunks give the same result");
        free(whole);
        free(bytes);
        free(odd);
    }
}

int main(int argc, char **argv)
{
    tables();
    ccob();
    ids();
    objects();
    if (argc > 1)
        fixtures(argv[1]);
    return harness_done();
}
