/*
 * Unit tests: binscan on synthetic binaries (every validation and error
 * path) and on real fixtures fed in chunks of many sizes, which must give
 * exactly the result of one whole feed.
 *
 * usage: test_binscan [FIXTURE_DIR]
 */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "binscan.h"
#include "harness.h"
#include "scanreport.h"
#include "synth.h"
#include "xalloc.h"

/* Scans buf in chunks: sizes cycle through `pattern` (0-terminated). */
static char *scan_chunks(const uint8_t *buf, size_t len, const size_t *pattern, int size_known,
                         struct wa_error *err)
{
    struct binscan *bs = binscan_new(size_known ? len : BINSCAN_SIZE_UNKNOWN);
    size_t off = 0, k = 0;
    int rc = 0;
    while (off < len && rc == 0) {
        size_t c = pattern[k] ? pattern[k] : len;
        k = pattern[k + 1] ? k + 1 : 0;
        if (c > len - off)
            c = len - off;
        rc = binscan_feed(bs, buf + off, c, err);
        off += c;
    }
    if (rc == 0)
        rc = binscan_finish(bs, err);
    char *s = NULL;
    if (rc == 0) {
        json_t *o = scanreport_binary_json("x", binscan_result(bs));
        s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
        json_decref(o);
    }
    binscan_free(bs);
    return s;
}

static char *scan_whole(const struct strbuf *b, struct wa_error *err)
{
    static const size_t whole[] = {0, 0};
    return scan_chunks((const uint8_t *)b->buf, b->len, whole, 1, err);
}

static json_t *scan_json(const struct strbuf *b, struct wa_error *err)
{
    char *s = scan_whole(b, err);
    if (!s)
        return NULL;
    json_t *o = json_loads(s, 0, NULL);
    free(s);
    return o;
}

static const char *list_str(json_t *o, const char *key)
{
    static char buf[512];
    buf[0] = '\0';
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(o, key), i, v)
    {
        if (i)
            strcat(buf, " ");
        strncat(buf, json_string_value(v), sizeof buf - strlen(buf) - 1);
    }
    return buf;
}

static const char ptx90a[] = "\n\n//\n.version 8.4\n.target sm_90a\n.address_size 64\n";

static void build_basic(struct strbuf *fb)
{
    struct strbuf c90 = STRBUF_INIT, c80 = STRBUF_INIT;
    synth_cubin(&c90, 90, 8, 0, 200);
    synth_cubin(&c80, 80, 7, 0, 136);
    struct synth_entry e[] = {
        {2, 80, 0x11, 1, 7, c80.buf, c80.len, 0},
        {2, 90, 0x100011, 1, 8, c90.buf, c90.len, 0x48},
        {1, 90, 0x100011, 8, 4, ptx90a, sizeof ptx90a, 0x50},
    };
    synth_fatbin(fb, e, 3);
    strbuf_free(&c90);
    strbuf_free(&c80);
}

static void test_raw_fatbin(void)
{
    struct strbuf fb = STRBUF_INIT;
    build_basic(&fb);
    struct wa_error err;
    json_t *o = scan_json(&fb, &err);
    OK(o != NULL, "basic fatbin scans");
    if (o) {
        STR_EQ(json_string_value(json_object_get(o, "format")), "fatbin", "format");
        STR_EQ(list_str(o, "sass"), "sm_80 sm_90a", "sass");
        STR_EQ(list_str(o, "ptx"), "compute_90a", "ptx");
        INT_EQ(json_integer_value(json_object_get(o, "modules")), 1, "modules");
        json_t *p = json_object_get(json_object_get(o, "targets"), "compute_90a");
        STR_EQ(json_string_value(json_object_get(p, "isa")), "8.4", "PTX ISA");
        INT_EQ(json_array_size(json_object_get(o, "warnings")), 0, "no warnings");
        json_decref(o);
    }

    /* Chunking must not matter, down to one byte at a time. */
    char *whole = scan_whole(&fb, &err);
    static const size_t p1[] = {1, 0}, p2[] = {3, 5, 7, 0}, p3[] = {17, 0}, p4[] = {8, 0},
                        p5[] = {63, 65, 2, 0};
    const size_t *pats[] = {p1, p2, p3, p4, p5};
    for (size_t i = 0; i < 5; i++) {
        for (int known = 0; known < 2; known++) {
            char *s = scan_chunks((const uint8_t *)fb.buf, fb.len, pats[i], known, &err);
            OK(s && whole && strcmp(s, whole) == 0, "pattern %zu (size known %d) matches", i,
               known);
            free(s);
        }
    }
    free(whole);

    /* Two containers back to back, with zero padding between. */
    struct strbuf two = STRBUF_INIT;
    build_basic(&two);
    for (int i = 0; i < 24; i++)
        strbuf_addc(&two, 0);
    build_basic(&two);
    o = scan_json(&two, &err);
    OK(o && json_integer_value(json_object_get(o, "modules")) == 2, "two modules");
    json_decref(o);
    strbuf_free(&two);
    strbuf_free(&fb);
}

static void test_suffix_disagreement(void)
{
    /* The entry says sm_90 (no "a"), the ABI 7 cubin says arch-specific. */
    struct strbuf fb = STRBUF_INIT, c = STRBUF_INIT;
    synth_cubin(&c, 90, 7, 0, 128);
    c.buf[0x31] |= 0x08; /* e_flags 0x800 */
    struct synth_entry e[] = {{2, 90, 0x11, 1, 7, c.buf, c.len, 0}};
    synth_fatbin(&fb, e, 1);
    struct wa_error err;
    json_t *o = scan_json(&fb, &err);
    OK(o != NULL, "scans");
    if (o) {
        STR_EQ(list_str(o, "sass"), "sm_90", "entry flag wins");
        OK(json_array_size(json_object_get(o, "warnings")) == 1, "one warning");
        json_decref(o);
    }
    strbuf_free(&fb);
    strbuf_free(&c);
}

static void test_stub_container(void)
{
    struct strbuf fb = STRBUF_INIT, c = STRBUF_INIT, s = STRBUF_INIT;
    synth_cubin(&c, 80, 8, 0, 128);
    synth_cubin(&s, 80, 8, 1, 128);
    struct synth_entry real[] = {{2, 80, 0x11, 1, 8, c.buf, c.len, 0}};
    struct synth_entry stub[] = {{2, 80, 0x11, 1, 8, s.buf, s.len, 0}};
    synth_fatbin(&fb, real, 1);
    synth_fatbin(&fb, stub, 1);
    struct wa_error err;
    json_t *o = scan_json(&fb, &err);
    OK(o && json_integer_value(json_object_get(o, "modules")) == 1, "stub container not counted");
    OK(o && json_integer_value(json_object_get(o, "dlink_modules")) == 1, "stub counted apart");
    json_decref(o);
    strbuf_free(&fb);
    strbuf_free(&c);
    strbuf_free(&s);
}

static void expect_error(const struct strbuf *b, const char *needle, const char *what)
{
    struct wa_error err;
    wa_error_clear(&err);
    char *s = scan_whole(b, &err);
    OK(s == NULL, "%s: rejected", what);
    OK(strstr(err.msg, needle) != NULL, "%s: message '%s' mentions '%s'", what, err.msg, needle);
    free(s);
}

static void test_errors(void)
{
    struct strbuf fb = STRBUF_INIT;
    build_basic(&fb);

    /* Absurd container size in a raw fatbin. */
    struct strbuf bad = STRBUF_INIT;
    strbuf_add(&bad, fb.buf, fb.len);
    set64(&bad, 8, 1ull << 40);
    expect_error(&bad, "runs past the end", "absurd fat size");
    strbuf_reset(&bad);

    /* Entry header size out of range inside an accepted container. */
    strbuf_add(&bad, fb.buf, fb.len);
    size_t second = 16 + 0x40 + 136; /* the second entry's header */
    set32(&bad, second + 4, 0x2000);
    expect_error(&bad, "entry header size", "bad second entry");
    strbuf_reset(&bad);

    /* Entries that do not add up to the container size. */
    strbuf_add(&bad, fb.buf, fb.len);
    set64(&bad, 8, (uint64_t)(fb.len - 16 - 8));
    expect_error(&bad, "container", "entries vs container size");
    strbuf_reset(&bad);

    /* Cut off inside the payload. */
    strbuf_add(&bad, fb.buf, fb.len - 24);
    expect_error(&bad, "past the end", "truncated raw fatbin");
    strbuf_reset(&bad);

    /* ELF whose section table points past the end of the file. */
    struct strbuf elf = STRBUF_INIT;
    synth_elf(&elf, &fb, ".nv_fatbin");
    strbuf_add(&bad, elf.buf, elf.len);
    set64(&bad, 0x28, elf.len * 4);
    expect_error(&bad, "extends past the end", "ELF e_shoff past end");
    strbuf_reset(&bad);

    /* ELF with one section whose data lies past the end. */
    strbuf_add(&bad, elf.buf, elf.len);
    size_t sh2 = elf.len - 64 + 0x18;
    set64(&bad, sh2, elf.len + 100);
    expect_error(&bad, "section 2", "ELF section offset past end");
    strbuf_reset(&bad);

    /* A corrupt container inside .nv_fatbin is an error; the same bytes in
     * another section are just not a fatbin. */
    struct strbuf cor = STRBUF_INIT;
    strbuf_add(&cor, fb.buf, fb.len);
    set32(&cor, 16 + 2, 0x0202); /* first entry version */
    struct strbuf e1 = STRBUF_INIT, e2 = STRBUF_INIT;
    synth_elf(&e1, &cor, ".nv_fatbin");
    expect_error(&e1, "in .nv_fatbin", "corrupt container in .nv_fatbin");
    synth_elf(&e2, &cor, ".rodata");
    struct wa_error err;
    json_t *o = scan_json(&e2, &err);
    OK(o && json_integer_value(json_object_get(o, "modules")) == 0, "no module in .rodata");
    json_decref(o);

    /* PE whose section data lies past the end of the file. */
    struct strbuf pe = STRBUF_INIT;
    synth_pe(&pe, &fb, ".nv_fatb");
    o = scan_json(&pe, &err);
    OK(o != NULL, "synthetic PE scans");
    if (o) {
        STR_EQ(list_str(o, "sass"), "sm_80 sm_90a", "PE sass");
        json_t *secs = json_object_get(o, "sections");
        OK(json_object_get(secs, ".nv_fatb") != NULL, "labelled .nv_fatb");
        json_decref(o);
    }
    strbuf_add(&bad, pe.buf, pe.len);
    set32(&bad, 0x80 + 24 + 240 + 16, 0x100000); /* SizeOfRawData */
    expect_error(&bad, "extends past the end", "PE raw data past end");
    strbuf_reset(&bad);
    strbuf_add(&bad, pe.buf, pe.len);
    bad.buf[0x80 + 6] = 90; /* NumberOfSections */
    expect_error(&bad, "PE section", "PE section table past end");
    strbuf_reset(&bad);
    strbuf_add(&bad, pe.buf, 0x100);
    expect_error(&bad, "PE", "PE cut in its headers");

    strbuf_free(&bad);
    strbuf_free(&cor);
    strbuf_free(&e1);
    strbuf_free(&e2);
    strbuf_free(&elf);
    strbuf_free(&pe);
    strbuf_free(&fb);
}

static void test_false_positives(void)
{
    /* Magic at unaligned offsets and aligned magic with a bad header, in
     * ordinary data: neither is a module nor an error. */
    struct strbuf body = STRBUF_INIT;
    for (int i = 0; i < 100; i++)
        strbuf_addc(&body, (char)i);
    strbuf_add(&body, "\x50\xED\x55\xBA", 4); /* offset 100: not 8-aligned */
    pad_to(&body, 8);
    strbuf_add(&body, "\x50\xED\x55\xBA\x01\x00\x10\x00", 8);
    put64(&body, 5); /* fat size too small */
    strbuf_add(&body, "\x50\xED\x55\xBA\x02\x00\x10\x00", 8);
    put64(&body, 500);
    for (int i = 0; i < 100; i++)
        strbuf_addc(&body, 0);
    struct strbuf elf = STRBUF_INIT;
    synth_elf(&elf, &body, ".text");
    struct wa_error err;
    json_t *o = scan_json(&elf, &err);
    OK(o && json_integer_value(json_object_get(o, "modules")) == 0, "no false module");
    json_decref(o);
    strbuf_free(&elf);
    strbuf_free(&body);
}

static void test_arch_flags(void)
{
    static const char flags[] =
        "-gencode;arch=compute_50,code=sm_50;-gencode;arch=compute_90,code=[sm_90,compute_90]";
    struct strbuf body = STRBUF_INIT;
    strbuf_add(&body, "\x01\x02junk\0", 7);
    strbuf_add(&body, flags, sizeof flags); /* with its NUL */
    strbuf_add(&body, "-gencode without the rest", 26);
    build_basic(&body);
    struct strbuf elf = STRBUF_INIT;
    synth_elf(&elf, &body, ".rodata");
    static const size_t pats[][3] = {{1, 0, 0}, {5, 3, 0}, {4096, 0, 0}, {9, 0, 0}};
    for (size_t i = 0; i < 4; i++) {
        struct wa_error err;
        char *s = scan_chunks((const uint8_t *)elf.buf, elf.len, pats[i], 1, &err);
        json_t *o = s ? json_loads(s, 0, NULL) : NULL;
        json_t *a = o ? json_object_get(o, "arch_flags") : NULL;
        OK(a && json_array_size(a) == 1, "one arch-flag string (pattern %zu)", i);
        if (a && json_array_size(a) == 1)
            STR_EQ(json_string_value(json_array_get(a, 0)), flags, "arch flags");
        json_decref(o);
        free(s);
    }
    strbuf_free(&elf);
    strbuf_free(&body);
}

static int read_file(const char *path, struct strbuf *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        strbuf_add(out, buf, n);
    fclose(f);
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a > b && strcmp(s + a - b, suffix) == 0;
}

static void test_fixture_chunking(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        printf("fixture dir %s not found; chunking test on fixtures skipped\n", dir);
        return;
    }
    struct dirent *de;
    int files = 0;
    while ((de = readdir(d)) != NULL) {
        const char *n = de->d_name;
        if (!ends_with(n, ".so") && !ends_with(n, ".fatbin") && !ends_with(n, ".dll") &&
            !ends_with(n, ".o"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, n);
        struct strbuf b = STRBUF_INIT;
        if (read_file(path, &b) < 0)
            continue;
        files++;
        struct wa_error err;
        char *whole = scan_whole(&b, &err);
        OK(whole != NULL, "%s scans: %s", n, whole ? "" : err.msg);
        static const size_t pats[][4] = {
            {1, 0, 0, 0}, {7, 4093, 0, 0}, {65536, 0, 0, 0}, {8, 16, 24, 0}};
        for (size_t i = 0; i < 4 && whole; i++) {
            for (int known = 0; known < 2; known++) {
                char *s = scan_chunks((const uint8_t *)b.buf, b.len, pats[i], known, &err);
                OK(s && strcmp(s, whole) == 0, "%s: chunk pattern %zu (size known %d)", n, i,
                   known);
                free(s);
            }
        }
        free(whole);
        strbuf_free(&b);
    }
    closedir(d);
    OK(files > 10, "found fixtures (%d)", files);
}

int main(int argc, char **argv)
{
    json_object_seed(1);
    test_raw_fatbin();
    test_suffix_disagreement();
    test_stub_container();
    test_errors();
    test_false_positives();
    test_arch_flags();
    if (argc > 1)
        test_fixture_chunking(argv[1]);
    return harness_done();
}
