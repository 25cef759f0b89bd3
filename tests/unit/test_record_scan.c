/*
 * The crawler's record of a scanned wheel has two routes, and they are
 * held to one meaning here: record_of_scan (what the crawl stores) makes
 * the struct record from the scan itself; record_of_json of
 * record_scanned(scanreport_json(scan)) (the JSON the crawl keeps as the
 * record's text and prints) makes it from the JSON, after
 * recordcheck_validate.  For real scans of wheels built here from the
 * CUDA and HIP fixtures and from synthetic binaries (every kind of target,
 * compressed fatbins, declared arch flags, warnings past the limit,
 * bundled NVIDIA libraries, member paths that need cleaning, a wheel
 * without binaries, one without METADATA, identities of many shapes) the
 * JSON passes recordcheck and the two records are equal field by field
 * and binary by binary.  For hostile ones (an index's text or a wheel's
 * contents that no record may hold) both routes refuse, with the same
 * message.
 *
 * usage: test_record_scan CUDA_FIXTURES HIP_FIXTURES WORK_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <zip.h>

#include "fsutil.h"
#include "harness.h"
#include "recbinary.h"
#include "record.h"
#include "recordcheck.h"
#include "recordcmp.h"
#include "scan.h"
#include "scanreport.h"
#include "strbuf.h"
#include "synth.h"
#include "wheelkey.h"
#include "xalloc.h"

static const char *cuda_dir, *hip_dir, *work;
static size_t compared, refused;

/* ---- wheels ------------------------------------------------------------ */

struct member {
    const char *name;
    const char *fixture;    /* a file of cuda_dir or hip_dir ("hip/NAME"), or NULL */
    const struct strbuf *b; /* else these bytes */
};

/* Writes the wheel WORK/filename of the members; returns its path
 * (caller frees) or NULL. */
static char *make_wheel(const char *filename, const struct member *m, size_t n)
{
    char *path = fsutil_join(work, filename);
    zip_t *za = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, NULL);
    if (!za) {
        OK(0, "libzip opens %s", path);
        free(path);
        return NULL;
    }
    char **held = xcalloc(n + 1, sizeof *held);
    for (size_t i = 0; i < n; i++) {
        const void *data;
        size_t len;
        if (m[i].fixture) {
            int hip = strncmp(m[i].fixture, "hip/", 4) == 0;
            char *f = fsutil_join(hip ? hip_dir : cuda_dir, m[i].fixture + (hip ? 4 : 0));
            struct wa_error err;
            if (fsutil_read(f, 64u << 20, &held[i], &len, NULL, &err) < 0) {
                OK(0, "read %s: %s", f, err.msg);
                len = 0;
            }
            free(f);
            data = held[i];
        } else {
            data = m[i].b->buf;
            len = m[i].b->len;
        }
        zip_source_t *s = zip_source_buffer(za, data, len, 0);
        zip_int64_t at = zip_file_add(za, m[i].name, s, ZIP_FL_ENC_RAW);
        OK(at >= 0, "libzip adds %s", m[i].name);
    }
    OK(zip_close(za) == 0, "libzip writes %s", filename);
    for (size_t i = 0; i < n; i++)
        free(held[i]);
    free(held);
    return path;
}

/* A fatbin of one container with the entries, in an ELF's .nv_fatbin. */
static void synth_library(struct strbuf *out, const struct synth_entry *e, size_t n)
{
    struct strbuf fb = STRBUF_INIT;
    synth_fatbin(&fb, e, n);
    synth_elf(out, &fb, ".nv_fatbin");
    strbuf_free(&fb);
}

static const char ptx90[] = "\n//\n.version 8.8\n.target sm_90\n.address_size 64\n";

/* LTO-IR in a loadable container (nvcc puts it only in relocatable ones
 * for the fixtures), SASS whose cubin names another SM, PTX whose text
 * names another target, and 40 entries of kinds no GPU runs: more
 * warnings than a binary keeps. */
static void synth_odd(struct strbuf *out)
{
    struct strbuf c86 = STRBUF_INIT;
    synth_cubin(&c86, 86, 8, 0, 136);
    static const char lto[8] = "LTOIR01";
    struct synth_entry e[44] = {
        {8, 80, 0x11, 0, 0, lto, sizeof lto, 0},
        {2, 80, 0x11, 1, 8, c86.buf, c86.len, 0},
        {1, 89, 0x11, 8, 8, ptx90, sizeof ptx90, 0},
        {1, 90, 0x11, 8, 8, ptx90, sizeof ptx90, 0},
    };
    static const char junk[8] = "junk";
    for (int i = 4; i < 44; i++)
        e[i] = (struct synth_entry){(uint16_t)(16 + i), 80, 0x11, 0, 0, junk, sizeof junk, 0};
    synth_library(out, e, 44);
    strbuf_free(&c86);
}

/* ---- identities ---------------------------------------------------------- */

struct ident {
    struct record_identity id;
    struct wheel_name wn;
    const char *indexes[3];
    char *key, *url;
    char sha256[SHA256_HEX_SIZE]; /* the index's: the scan's, kept apart */
};

static void ident_make(struct ident *x, const char *filename, const struct scan_result *s)
{
    memset(x, 0, sizeof *x);
    struct wa_error err;
    OK(wheelname_parse(filename, &x->wn, &err) == 0, "%s parses: %s", filename, err.msg);
    x->url = xasprintf("https://download.pytorch.org/whl/cu128/%s", filename);
    snprintf(x->sha256, sizeof x->sha256, "%s", s->sha256);
    x->key = wheelkey_make(s->sha256, x->url);
    x->indexes[0] = "cu128";
    x->indexes[1] = "pypi";
    x->id = (struct record_identity){
        .key = x->key,
        .url = x->url,
        .filename = filename,
        .sha256 = x->sha256,
        .upload_time = "2025-08-06T18:00:00.123456Z",
        .requires_python = ">=3.10",
        .yanked = NULL,
        .indexes = x->indexes,
        .nindexes = 2,
        .index_url = "https://download.pytorch.org/whl/cu128/",
        .name = &x->wn,
        .variant = "cu128",
        .variant_source = "label",
    };
}

static void ident_free(struct ident *x)
{
    wheelname_free(&x->wn);
    free(x->key);
    free(x->url);
}

/* ---- the two routes ------------------------------------------------------ */

/* The JSON route: what the crawl keeps as the record's text, checked and
 * read back (record_of_json runs recordcheck_validate).  Returns its rc. */
static int json_route(const struct scan_result *s, const struct record_identity *id,
                      const struct record_fetch *f, struct record *r, struct wa_error *err)
{
    json_t *rec = record_scanned(scanreport_json(s), s->sha256, id, f, "2026-11-20");
    int rc = record_of_json(id->key, rec, r, err);
    json_decref(rec);
    return rc;
}

/* Both routes take s under id and make one record (refuse 0), or both
 * refuse it with the same message (refuse 1). */
static void both_routes(const char *what, const struct scan_result *s,
                        const struct record_identity *id, const struct record_fetch *f, int refuse)
{
    struct record a, b;
    struct wa_error ea, eb;
    int ra = json_route(s, id, f, &a, &ea);
    int rb = record_of_scan(s, id, f, "2026-11-20", &b, &eb);
    if (!refuse) {
        OK(ra == 0, "%s: the crawl's JSON passes recordcheck: %s", what, ea.msg);
        OK(rb == 0, "%s: record_of_scan takes it: %s", what, eb.msg);
    } else {
        OK(ra < 0, "%s: recordcheck refuses it", what);
        OK(rb < 0, "%s: record_of_scan refuses it", what);
    }
    if (ra == 0 && rb == 0) {
        char diff[2048];
        recordcmp_differences(&a, &b, diff, sizeof diff);
        OK(diff[0] == '\0', "%s: the two routes differ in:%s", what, diff);
        compared++;
    } else if (ra < 0 && rb < 0) {
        /* The one message that may differ: recordcheck counts the targets
         * of the record's unions before those of its binaries, and
         * record_of_scan, which makes the unions of the binaries, the
         * other way round; both refuse the same records. */
        const char *many = "more than 512 distinct targets";
        OK(strcmp(ea.msg, eb.msg) == 0 || (strstr(ea.msg, many) && strstr(eb.msg, many)),
           "%s: the same message:\n  json: %s\n  scan: %s", what, ea.msg, eb.msg);
        refused++;
    }
    if (ra == 0)
        record_free(&a);
    if (rb == 0)
        record_free(&b);
}

static void same_record(const char *what, const struct scan_result *s,
                        const struct record_identity *id, const struct record_fetch *f)
{
    both_routes(what, s, id, f, 0);
}

static void same_refusal(const char *what, const struct scan_result *s,
                         const struct record_identity *id, const struct record_fetch *f)
{
    both_routes(what, s, id, f, 1);
}

static struct scan_result *scan_of(const char *path)
{
    struct scan_result *s = scan_file(path);
    OK(!s->failed, "%s scans: %s", path, s->failed ? s->error.msg : "");
    return s;
}

/* The identity variants every wheel is compared under. */
static void compare_all(const char *filename, struct scan_result *s)
{
    struct ident x;
    ident_make(&x, filename, s);
    struct record_fetch whole = {0, 1000, s->size, 1, 1}, range = {1, 400, s->size, 3, 0};
    char what[400];
    snprintf(what, sizeof what, "%s, read whole", filename);
    same_record(what, s, &x.id, &whole);
    snprintf(what, sizeof what, "%s, read by ranges", filename);
    same_record(what, s, &x.id, &range);
    /* yanked with a reason, yanked without one, no index hash, one index,
     * no upload time or Requires-Python */
    struct record_identity y = x.id;
    y.yanked = "broken wheel";
    y.sha256 = NULL;
    y.nindexes = 1;
    snprintf(what, sizeof what, "%s, yanked, no index hash", filename);
    same_record(what, s, &y, &whole);
    y.yanked = "";
    y.upload_time = y.requires_python = y.index_url = y.variant_source = NULL;
    snprintf(what, sizeof what, "%s, yanked without a reason, little said", filename);
    same_record(what, s, &y, &range);
    /* the index's text as jansson refuses it (not UTF-8): no value in the
     * JSON, none in the struct */
    y = x.id;
    y.upload_time = "2025-08-06\xff";
    y.yanked = "\xc3\x28";
    y.requires_python = ">=3.10\xed\xa0\x80"; /* a surrogate */
    const char *ix[] = {"cu\xfe", "pypi"};
    y.indexes = ix;
    snprintf(what, sizeof what, "%s, text that is not UTF-8", filename);
    same_record(what, s, &y, &whole);
    /* the scan's hash missing (a range read): the index's stands */
    char keep = s->sha256[0];
    s->sha256[0] = '\0';
    snprintf(what, sizeof what, "%s, no hash of its own", filename);
    same_record(what, s, &x.id, &range);
    s->sha256[0] = keep;
    ident_free(&x);
}

/* ---- wheels that a record may hold ---------------------------------------- */

static void test_real_wheels(void)
{
    struct strbuf odd = STRBUF_INIT, meta = STRBUF_INIT, py = STRBUF_INIT;
    synth_odd(&odd);
    strbuf_adds(&meta, "Metadata-Version: 2.1\nName: torch\nVersion: 2.9.0+cu128\n"
                       "Requires-Dist: filelock\n"
                       "Requires-Dist: nvidia-cudnn-cu12==9.10.2.21; platform_system == "
                       "\"Linux\"\n"
                       "Requires-Dist: sympy>=1.13.3\n"
                       "Requires-Dist: caf\xc3\xa9 ; extra == \"opt\"\n\nbody\n");
    strbuf_adds(&py, "print('hello')\n");
    const struct member cuda[] = {
        {"torch/__init__.py", NULL, &py},
        {"torch/lib/libk_default.so", "libk_default.so", NULL},
        {"torch/lib/libk_fam.so", "libk_fam.so", NULL},
        {"torch/lib/libk_gencode.so", "libk_gencode.so", NULL},
        {"torch/lib/libk_two.so", "libk_two.so", NULL},
        {"torch/lib/libk_dlink.so", "libk_dlink.so", NULL},
        {"torch/lib/libk_rdc.so", "libk_rdc.so", NULL},
        {"torch/lib/libk_speed.so", "libk_speed.so", NULL},
        {"torch/lib/libk_size.so", "libk_size.so", NULL},
        {"torch/lib/libk_debug.so", "libk_debug.so", NULL},
        {"torch/lib/kern_lto.o.so", "kern_lto.o", NULL},
        {"torch/lib/codec_zlib.fatbin", "codec_zlib.fatbin", NULL},
        {"torch/lib/codec_lz4frame.fatbin", "codec_lz4frame.fatbin", NULL},
        {"torch/lib/codec_lz4b.fatbin", "codec_lz4b.fatbin", NULL},
        {"torch/lib/test_longname.dll", "test_longname.dll", NULL},
        {"torch/lib/nogpu.so", "nogpu.so", NULL},
        {"torch/lib/libcudnn_ops.so.9", "libk_two.so", NULL},
        {"torch/lib/libnccl.so.2", "libk_default.so", NULL},
        {"torch/lib/libodd.so", NULL, &odd},
        {"torch/lib/\x01tab\there \xff\xc2\x9b.so", "libk_gencode.so", NULL},
        {"torch-2.9.0+cu128.dist-info/METADATA", NULL, &meta},
    };
    const char *names[] = {
        "torch-2.9.0+cu128-cp312-cp312-manylinux_2_28_x86_64.whl",
        "torch-2.9.0+cu128-1local-cp312-cp312-win_amd64.whl",
    };
    for (size_t k = 0; k < 2; k++) {
        char *path = make_wheel(names[k], cuda, sizeof cuda / sizeof cuda[0]);
        struct scan_result *s = path ? scan_of(path) : NULL;
        if (s) {
            OK(s->nbins > 15 && s->has_metadata && s->nrequires == 4,
               "%s: its binaries and METADATA were read (%zu, %zu)", names[k], s->nbins,
               s->nrequires);
            compare_all(names[k], s);
            scan_result_free(s);
        }
        free(path);
    }

    const struct member hip[] = {
        {"torch/lib/libhip_plain.so", "hip/libhip_plain.so", NULL},
        {"torch/lib/libhip_two.so", "hip/libhip_two.so", NULL},
        {"torch/lib/libhip_ccob.so", "hip/libhip_ccob.so", NULL},
        {"torch/lib/libhip_generic.so", "hip/libhip_generic.so", NULL},
        {"torch/lib/kern_gfx1100.hsaco", "hip/kern_gfx1100.hsaco", NULL},
        {"torch/lib/kern_bundle.co", "hip/kern_bundle.co", NULL},
        {"torch/lib/kern_zlib_v2.co", "hip/kern_zlib_v2.co", NULL},
        {"torch/lib/kern_zstd_v1.co", "hip/kern_zstd_v1.co", NULL},
        {"torch/lib/kern_zstd_v3.co", "hip/kern_zstd_v3.co", NULL},
        {"torch/lib/libk_two.so", "libk_two.so", NULL},
    };
    const char *rocm = "torch-2.9.0+rocm6.4-cp312-cp312-manylinux_2_28_x86_64.whl";
    char *path = make_wheel(rocm, hip, sizeof hip / sizeof hip[0]);
    struct scan_result *s = path ? scan_of(path) : NULL;
    if (s) {
        OK(s->nbins == 10 && !s->has_metadata, "%s: its binaries were read, no METADATA", rocm);
        compare_all(rocm, s);
        scan_result_free(s);
    }
    free(path);

    /* NVIDIA's own library wheel: its cuDNN is its own code, not bundled */
    const struct member lib[] = {
        {"nvidia/cudnn/lib/libcudnn_ops.so.9", "libk_default.so", NULL},
        {"nvidia_cudnn_cu12-9.10.2.21.dist-info/METADATA", NULL, &py},
    };
    const char *cudnn = "nvidia_cudnn_cu12-9.10.2.21-py3-none-manylinux_2_27_x86_64.whl";
    path = make_wheel(cudnn, lib, 2);
    s = path ? scan_of(path) : NULL;
    if (s) {
        OK(s->nbins == 1 && s->has_metadata && s->nrequires == 0,
           "%s: one library, a METADATA without Requires-Dist", cudnn);
        compare_all(cudnn, s);
        struct ident x;
        ident_make(&x, cudnn, s);
        struct record_fetch f = {0, 1, s->size, 1, 1};
        struct record r;
        struct wa_error err;
        OK(record_of_scan(s, &x.id, &f, "2026-11-20", &r, &err) == 0 && r.binaries.n == 1 &&
               !r.binaries.v[0].bundled && r.code && r.code[0] && r.requires && !r.requires[0],
           "%s: the library is the wheel's own code", cudnn);
        if (r.key)
            record_free(&r);
        ident_free(&x);
        scan_result_free(s);
    }
    free(path);

    /* a wheel without GPU code */
    const struct member none[] = {
        {"pkg/__init__.py", NULL, &py},
        {"pkg/_native.so", "nogpu.so", NULL},
        {"pkg-1.0.dist-info/METADATA", NULL, &meta},
    };
    const char *plain = "pkg-1.0-py3-none-any.whl";
    path = make_wheel(plain, none, 3);
    s = path ? scan_of(path) : NULL;
    if (s) {
        OK(s->nbins == 0, "%s: no binary holds GPU code", plain);
        compare_all(plain, s);
        struct ident x;
        ident_make(&x, plain, s);
        struct record_fetch f = {0, 1, s->size, 1, 1};
        struct record r;
        struct wa_error err;
        OK(record_of_scan(s, &x.id, &f, "2026-11-20", &r, &err) == 0 && r.binaries.listed &&
               r.binaries.n == 0 && r.code && !r.code[0] && r.sass.n == 0,
           "%s: a listed, empty list of binaries", plain);
        if (r.key)
            record_free(&r);
        ident_free(&x);
        scan_result_free(s);
    }
    free(path);
    strbuf_free(&odd);
    strbuf_free(&meta);
    strbuf_free(&py);
}

/* ---- what no record may hold ---------------------------------------------- */

/* A wheel of one member (in a file named for the test: the identity
 * names the wheel). */
static struct scan_result *one_member_wheel(const char *member, const struct strbuf *b)
{
    const struct member m[] = {{member, NULL, b}};
    char *path = make_wheel("torch-0-py3-none-any.whl", m, 1);
    struct scan_result *s = path ? scan_of(path) : NULL;
    free(path);
    return s;
}

static void test_hostile(void)
{
    const char *fn = "torch-2.9.0-cp312-cp312-manylinux_2_28_x86_64.whl";
    struct strbuf lib = STRBUF_INIT;
    static const char payload[8] = "x";
    struct synth_entry one = {1, 90, 0x11, 8, 8, ptx90, sizeof ptx90, 0};
    synth_library(&lib, &one, 1);
    struct scan_result *s = one_member_wheel("torch/lib/libk.so", &lib);
    if (!s)
        return;
    struct ident x;
    ident_make(&x, fn, s);
    struct record_fetch f = {0, 1, s->size, 1, 1};
    same_record("the hostile tests' wheel", s, &x.id, &f);

    /* the index's text */
    struct record_identity y;
#define REFUSED(what, field, value)                                                                \
    do {                                                                                           \
        y = x.id;                                                                                  \
        y.field = value;                                                                           \
        same_refusal(what, s, &y, &f);                                                             \
    } while (0)
    REFUSED("an upload time that is not one", upload_time, "yesterday");
    REFUSED("a yanked reason with a bell", yanked, "bad\a");
    REFUSED("a Requires-Python with U+FFFF", requires_python, ">=3.10\xef\xbf\xbf");
    REFUSED("a URL with a fragment", url, "https://example.org/w.whl#frag");
    REFUSED("a URL with user info", url, "https://user:hunter2@example.org/w.whl");
    REFUSED("an index URL with a query", index_url, "https://example.org/simple/?x=1");
    REFUSED("a variant with markup", variant, "rocm6<b>");
    REFUSED("a variant source that is none", variant_source, "guess");
    REFUSED("an index hash that is not one", sha256, "abc");
    REFUSED("a key that is not one", key, "../x");
    const char *bad_ix[] = {"cu128", "two words"};
    REFUSED("an index id with a space", indexes, bad_ix);
    char *long_py = xmalloc(5000);
    memset(long_py, '1', 4999);
    long_py[4999] = '\0';
    REFUSED("a Requires-Python of 4999 bytes", requires_python, long_py);
    free(long_py);
    y = x.id;
    struct record_fetch big = f;
    big.size = 1ull << 60;
    same_refusal("a size past 2^53", s, &y, &big);
#undef REFUSED
    ident_free(&x);
    scan_result_free(s);

    /* file names an index may list and no record may hold */
    const char *names[] = {
        "torch-1!2.9.0-cp312-cp312-manylinux_2_28_x86_64.whl",
        "_torch-2.9.0-cp312-cp312-manylinux_2_28_x86_64.whl",
        NULL,
    };
    char longname[400];
    snprintf(longname, sizeof longname, "torch-2.9.0-cp312-cp312-manylinux_2_28_%0280d.whl", 0);
    names[2] = longname;
    for (size_t i = 0; i < 3; i++) {
        s = one_member_wheel("torch/lib/libk.so", &lib);
        if (!s)
            continue;
        ident_make(&x, names[i], s);
        char what[600];
        snprintf(what, sizeof what, "the file name %.60s...", names[i]);
        same_refusal(what, s, &x.id, &f);
        ident_free(&x);
        scan_result_free(s);
    }

    /* wheels whose contents no record may hold */
    struct strbuf many = STRBUF_INIT, isa = STRBUF_INIT, bytes = STRBUF_INIT, meta = STRBUF_INIT;
    struct synth_entry *e = xcalloc(8200, sizeof *e);
    for (int i = 0; i < 600; i++)
        e[i] = (struct synth_entry){1, (uint32_t)(i + 1), 0x11, 8, 8, payload, sizeof payload, 0};
    synth_library(&many, e, 600);
    struct synth_entry high = {1, 90, 0x11, 4000, 0, ptx90, sizeof ptx90, 0};
    synth_library(&isa, &high, 1);
    /* 8200 compressed entries that say 2^40 bytes each: past 2^53 in all */
    for (int i = 0; i < 8200; i++)
        e[i] = (struct synth_entry){1, 80, 0x8011, 8, 8, payload, sizeof payload, 0};
    struct strbuf fb = STRBUF_INIT;
    size_t at = synth_fatbin(&fb, e, 8200);
    for (size_t i = 0; i < 8200; i++) {
        set32(&fb, at + 16 + i * 0x48 + 0x10, 8); /* compressed size */
        set64(&fb, at + 16 + i * 0x48 + 0x38, 1ull << 40);
    }
    synth_elf(&bytes, &fb, ".nv_fatbin");
    strbuf_free(&fb);
    free(e);
    strbuf_adds(&meta, "Metadata-Version: 2.1\nName: torch\nVersion: 2.9.0\n"
                       "Requires-Dist: evil\xef\xbf\xbf\n\n");
    char longpath[5200];
    memset(longpath, 'a', sizeof longpath);
    memcpy(longpath + sizeof longpath - 5, ".so", 4);
    const struct {
        const char *what, *member;
        const struct strbuf *b;
    } bad[] = {
        {"600 PTX targets in one binary", "torch/lib/libk.so", &many},
        {"a PTX ISA 4000.0", "torch/lib/libk.so", &isa},
        {"more than 2^53 bytes of code", "torch/lib/libk.so", &bytes},
        {"a member path of 5198 bytes", longpath, &lib},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        s = one_member_wheel(bad[i].member, bad[i].b);
        if (!s)
            continue;
        ident_make(&x, fn, s);
        same_refusal(bad[i].what, s, &x.id, &f);
        ident_free(&x);
        scan_result_free(s);
    }
    /* U+FFFE and U+FFFF, which no record may hold, are written as \xNN
     * when the wheel's text is cleaned (scanreport_clean_text), as invalid
     * UTF-8 and control characters are: the wheel is kept, the same way
     * by both routes (it was refused, lost over one character) */
    const struct {
        const char *what, *member;
        const struct strbuf *b;
        const char *want;
    } kept[] = {
        {"a member path with U+FFFE", "torch/lib/\xef\xbf\xbe.so", &lib,
         "torch/lib/\\xef\\xbf\\xbe.so"},
        {"a Requires-Dist with U+FFFF", "torch-2.9.0.dist-info/METADATA", &meta,
         "evil\\xef\\xbf\\xbf"},
    };
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        s = one_member_wheel(kept[i].member, kept[i].b);
        if (!s)
            continue;
        ident_make(&x, fn, s);
        both_routes(kept[i].what, s, &x.id, &f, 0);
        struct record r;
        struct wa_error ke;
        if (record_of_scan(s, &x.id, &f, "2026-11-20", &r, &ke) == 0) {
            int has = (r.requires && strstr(r.requires, kept[i].want)) ||
                      (r.binaries.n && strcmp(r.binaries.v[0].path, kept[i].want) == 0);
            OK(has, "%s: kept as %s", kept[i].what, kept[i].want);
            record_free(&r);
        }
        ident_free(&x);
        scan_result_free(s);
    }
    strbuf_free(&many);
    strbuf_free(&isa);
    strbuf_free(&bytes);
    strbuf_free(&meta);
    strbuf_free(&lib);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_record_scan CUDA_FIXTURES HIP_FIXTURES WORK_DIR\n");
        return 2;
    }
    cuda_dir = argv[1];
    hip_dir = argv[2];
    work = argv[3];
    fsutil_mkdirs(work, NULL);
    test_real_wheels();
    test_hostile();
    OK(compared >= 30, "records compared (%zu)", compared);
    printf("record scan: %zu records compared both ways, %zu fields; %zu refused both ways\n",
           compared, recordcmp_fields_checked, refused);
    return harness_done();
}
