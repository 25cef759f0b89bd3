/*
 * binscan: streaming recognition of fatbin containers in one binary.
 *
 * Three things happen on every chunk:
 *  1. captures: byte ranges we need whole (the first 4 KiB, the ELF section
 *     table at e_shoff and a window before it for .shstrtab, the PE section
 *     table and COFF string table) are copied as they pass;
 *  2. the walker: a state machine over the bytes.  SEARCH tests 8-aligned
 *     offsets for the container magic; CANDIDATE collects the container
 *     header and the first entry header and validates them (a rejected
 *     candidate's bytes are searched again from the next aligned offset);
 *     ENTRY_HDR and PAYLOAD walk the entries of an accepted container,
 *     keeping a short prefix of each payload for inspection;
 *  3. outside containers, nvcc arch-flag strings ("-gencode...") are picked
 *     up by a substring search that carries across chunk boundaries.
 * binscan_finish then labels each container by the section holding it.
 */
#include "binscan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "codec.h"
#include "elf.h"
#include "fatbin.h"
#include "hipscan.h"
#include "offload.h"
#include "pe.h"
#include "strbuf.h"
#include "xalloc.h"

#define HEAD_SIZE 4096u
#define PE_HEAD_MAX (0x10000u + 0x10000u + PE_MAX_SECTIONS * PE_SECTION_HEADER_SIZE)
#define PRESHT_WINDOW (1u << 20)
#define SHT_MAX (16u << 20)
#define SHSTR_MAX (1u << 20)
#define PESTR_MAX (1u << 20)
#define ARCH_FLAGS_MAX 16384u
#define ARCH_FLAGS_LOOKBEHIND 1024u
#define PREFIX_OUT 1024u
#define CANDIDATE_BYTES (FATBIN_HEADER_SIZE + FATBIN_ENTRY_MIN_HEADER)
#define MAX_REJECTS 16

static const char gencode_needle[] = "-gencode";
#define NEEDLE_LEN (sizeof gencode_needle - 1)

/* Ordered so that a window completes before the table that needs it when
 * both end in the same chunk. */
enum capture_id { CAP_HEAD, CAP_ELF_PRESHT, CAP_ELF_SHT, CAP_ELF_SHSTR, CAP_PE_STR, CAP_COUNT };

struct capture {
    uint64_t off;
    uint64_t len;
    uint64_t have;
    uint8_t *buf;
    size_t bufcap;
    uint8_t active;
    uint8_t done;
    uint8_t missed;
};

enum walk_state { S_SEARCH, S_CANDIDATE, S_ENTRY_HDR, S_PAYLOAD };

struct section_label {
    uint64_t off;
    uint64_t size;
    char name[32];
};

struct reject {
    uint64_t off;
    char why[160];
};

struct binscan {
    uint64_t size;
    uint64_t pos;
    int failed;
    int finished;
    struct wa_error err;
    struct binscan_result r;
    size_t cap_modules, cap_entries, cap_warnings, cap_flags;

    struct capture caps[CAP_COUNT];
    struct elf_header elf;
    int have_elf;
    struct pe_info pe;
    int have_pe;
    int pe_need_strtab;
    struct section_label *sects;
    uint32_t *sect_name_off; /* ELF: offsets into .shstrtab */
    size_t nsects;
    int names_known;

    enum walk_state st;
    uint8_t hdr[FATBIN_HEADER_SIZE + FATBIN_ENTRY_MAX_HEADER];
    size_t hdrlen;
    size_t hdrneed;
    uint64_t cand_off;
    uint64_t cont_end;
    struct fatbin_entry fe;
    int fe_parsed;
    uint64_t entry_off;
    uint64_t payload_left;
    size_t cur_module;

    uint8_t *prefix;
    size_t prefix_len;
    size_t prefix_want;
    struct codec *codec;

    struct reject rejects[MAX_REJECTS];
    size_t nrejects;

    struct hipscan *hip;

    uint8_t gcarry[NEEDLE_LEN];
    size_t gncarry;
    int grabbing;
    struct strbuf grab;
};

/* ---- results and diagnostics ------------------------------------------ */

static void warnf(struct binscan *bs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warnf(struct binscan *bs, const char *fmt, ...)
{
    struct binscan_result *r = &bs->r;
    if (r->nwarnings >= BINSCAN_MAX_WARNINGS) {
        r->warnings_dropped++;
        return;
    }
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < r->nwarnings; i++)
        if (strcmp(r->warnings[i], buf) == 0)
            return;
    r->warnings = xgrow(r->warnings, &bs->cap_warnings, r->nwarnings + 1, sizeof *r->warnings);
    r->warnings[r->nwarnings++] = xstrdup(buf);
}

static int fail(struct binscan *bs, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct binscan *bs, int code, const char *fmt, ...)
{
    if (bs->failed)
        return bs->err.code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(bs->err.msg, sizeof bs->err.msg, fmt, ap);
    va_end(ap);
    bs->err.code = code;
    bs->failed = 1;
    return code;
}

static void add_reject(struct binscan *bs, uint64_t off, const char *why)
{
    if (bs->nrejects >= MAX_REJECTS)
        return;
    bs->rejects[bs->nrejects].off = off;
    wa_strlcpy(bs->rejects[bs->nrejects].why, why, sizeof bs->rejects[0].why);
    bs->nrejects++;
}

const char *binscan_format_name(int format)
{
    switch (format) {
    case BINSCAN_FORMAT_ELF:
        return "elf";
    case BINSCAN_FORMAT_PE:
        return "pe";
    case BINSCAN_FORMAT_FATBIN:
        return "fatbin";
    case BINSCAN_FORMAT_OFFLOAD:
        return "offload";
    default:
        return "unknown";
    }
}

const char *binscan_class_name(int cls)
{
    switch (cls) {
    case BINSCAN_CLASS_EXEC:
        return "exec";
    case BINSCAN_CLASS_LIBRARY:
        return "library";
    case BINSCAN_CLASS_RELOCATABLE:
        return "relocatable";
    case BINSCAN_CLASS_DLINK:
        return "dlink";
    default:
        return "unknown";
    }
}

/* ---- lifecycle ---------------------------------------------------------- */

struct binscan *binscan_new(uint64_t size)
{
    struct binscan *bs = xcalloc(1, sizeof *bs);
    bs->size = size;
    bs->st = S_SEARCH;
    bs->caps[CAP_HEAD].active = 1;
    bs->caps[CAP_HEAD].off = 0;
    bs->caps[CAP_HEAD].len = size < HEAD_SIZE ? size : HEAD_SIZE;
    bs->hip = hipscan_new(size == BINSCAN_SIZE_UNKNOWN ? UINT64_MAX : size);
    return bs;
}

void binscan_free(struct binscan *bs)
{
    if (!bs)
        return;
    for (int i = 0; i < CAP_COUNT; i++)
        free(bs->caps[i].buf);
    for (size_t i = 0; i < bs->r.narch_flags; i++)
        free(bs->r.arch_flags[i]);
    for (size_t i = 0; i < bs->r.nwarnings; i++)
        free(bs->r.warnings[i]);
    free(bs->r.arch_flags);
    free(bs->r.warnings);
    free(bs->r.modules);
    free(bs->r.entries);
    free(bs->sects);
    free(bs->sect_name_off);
    free(bs->prefix);
    codec_free(bs->codec);
    hipscan_free(bs->hip);
    strbuf_free(&bs->grab);
    free(bs);
}

int binscan_format(const struct binscan *bs)
{
    return bs->r.format;
}

const struct binscan_result *binscan_result(const struct binscan *bs)
{
    return &bs->r;
}

/* ---- captures ----------------------------------------------------------- */

static void capture_start(struct binscan *bs, int id, uint64_t off, uint64_t len)
{
    struct capture *c = &bs->caps[id];
    c->off = off;
    c->len = len;
    c->have = 0;
    c->active = 1;
    c->done = 0;
    c->missed = off < bs->pos;
    if (c->missed)
        c->active = 0;
}

/* Grows an active or finished capture to `len` bytes; the new bytes must
 * still lie ahead in the stream. */
static void capture_extend(struct binscan *bs, int id, uint64_t len)
{
    struct capture *c = &bs->caps[id];
    if (len <= c->len)
        return;
    if (c->off + c->have < bs->pos && c->have < c->len) {
        c->missed = 1;
        return;
    }
    c->len = len;
    c->done = 0;
    c->active = 1;
}

static int on_capture(struct binscan *bs, int id);

/* Copies the overlap of [base, base+n) into every active capture; runs the
 * completion handler of each capture that fills, which may start or extend
 * captures, so it loops until nothing changes. */
static int captures_feed(struct binscan *bs, const uint8_t *buf, size_t n, uint64_t base)
{
    int progress = 1;
    while (progress) {
        progress = 0;
        for (int id = 0; id < CAP_COUNT; id++) {
            struct capture *c = &bs->caps[id];
            if (!c->active || c->done)
                continue;
            uint64_t want_at = c->off + c->have;
            if (want_at < base) {
                c->missed = 1;
                c->active = 0;
                continue;
            }
            if (c->have < c->len && want_at < base + n) {
                uint64_t take = base + n - want_at;
                if (take > c->len - c->have)
                    take = c->len - c->have;
                if (c->bufcap < c->len) {
                    c->buf = xrealloc(c->buf, (size_t)c->len);
                    c->bufcap = (size_t)c->len;
                }
                memcpy(c->buf + c->have, buf + (want_at - base), (size_t)take);
                c->have += take;
            }
            if (c->have == c->len) {
                c->done = 1;
                int rc = on_capture(bs, id);
                if (rc < 0)
                    return rc;
                progress = 1;
            }
        }
    }
    return 0;
}

/* ---- ELF and PE structure ---------------------------------------------- */

static int elf_have_sht(struct binscan *bs);

static int elf_head(struct binscan *bs)
{
    struct capture *h = &bs->caps[CAP_HEAD];
    struct wa_error e;
    int rc = elf_parse_header(h->buf, (size_t)h->have, &bs->elf, &e);
    if (rc == WA_ERR_UNSUPPORTED) {
        warnf(bs, "%s: sections not read", e.msg);
        return 0;
    }
    if (rc < 0)
        return fail(bs, rc, "bad ELF header: %s", e.msg);
    bs->have_elf = 1;
    bs->r.machine = bs->elf.machine;
    bs->r.elf_type = bs->elf.type;
    if (bs->elf.shoff == 0)
        return 0;
    uint64_t tsize = elf_section_table_size(&bs->elf);
    if (bs->size != BINSCAN_SIZE_UNKNOWN &&
        (bs->elf.shoff > bs->size || tsize > bs->size - bs->elf.shoff))
        return fail(bs, WA_ERR_FORMAT,
                    "ELF section header table at offset %llu (%llu bytes) extends past the end "
                    "of the file (%llu bytes)",
                    (unsigned long long)bs->elf.shoff, (unsigned long long)tsize,
                    (unsigned long long)bs->size);
    if (tsize > SHT_MAX)
        return fail(bs, WA_ERR_LIMIT, "ELF section header table of %llu bytes is too large",
                    (unsigned long long)tsize);
    if (bs->elf.shoff < h->len) {
        /* Section table inside the head (tiny files): take it from there. */
        if (bs->elf.shoff + tsize <= h->have) {
            bs->caps[CAP_ELF_SHT].buf = xmalloc((size_t)tsize);
            bs->caps[CAP_ELF_SHT].bufcap = (size_t)tsize;
            memcpy(bs->caps[CAP_ELF_SHT].buf, h->buf + bs->elf.shoff, (size_t)tsize);
            bs->caps[CAP_ELF_SHT].off = bs->elf.shoff;
            bs->caps[CAP_ELF_SHT].len = bs->caps[CAP_ELF_SHT].have = tsize;
            bs->caps[CAP_ELF_SHT].done = 1;
            return elf_have_sht(bs);
        }
    }
    capture_start(bs, CAP_ELF_SHT, bs->elf.shoff, tsize);
    /* The window before the table starts no earlier than the bytes still in
     * reach; anything before that is in the head capture. */
    uint64_t from = bs->elf.shoff > PRESHT_WINDOW ? bs->elf.shoff - PRESHT_WINDOW : 0;
    if (from < bs->pos)
        from = bs->pos;
    if (from < bs->elf.shoff)
        capture_start(bs, CAP_ELF_PRESHT, from, bs->elf.shoff - from);
    return 0;
}

/* Names ELF sections from the string table bytes tab[0..size). */
static void elf_resolve_names(struct binscan *bs, const uint8_t *tab, uint64_t size)
{
    for (size_t i = 0; i < bs->nsects; i++) {
        uint32_t n = bs->sect_name_off[i];
        size_t k = 0;
        char *name = bs->sects[i].name;
        while (n < size && n + k < size && tab[n + k] && k + 1 < sizeof bs->sects[i].name) {
            name[k] = (char)tab[n + k];
            k++;
        }
        name[k] = '\0';
    }
    bs->names_known = 1;
}

/* Resolves names if the string table [off, off+size) lies inside capture c. */
static int elf_names_from(struct binscan *bs, const struct capture *c, uint64_t off, uint64_t size)
{
    if (!c->done || off < c->off || size > c->len || off - c->off > c->len - size)
        return 0;
    elf_resolve_names(bs, c->buf + (off - c->off), size);
    return 1;
}

static int elf_have_sht(struct binscan *bs)
{
    struct capture *c = &bs->caps[CAP_ELF_SHT];
    struct wa_error e;
    struct elf_section s0, s;
    if (elf_parse_section(c->buf, (size_t)c->len, &bs->elf, 0, &s0, &e) < 0)
        return fail(bs, WA_ERR_FORMAT, "bad ELF section table: %s", e.msg);
    if (bs->elf.shnum == 0 || bs->elf.shstrndx == 0xFFFF) {
        uint32_t before = bs->elf.shnum;
        elf_fix_counts(&bs->elf, &s0);
        if (before == 0 && bs->elf.shnum > 1) {
            uint64_t tsize = (uint64_t)bs->elf.shnum * bs->elf.shentsize;
            if (tsize > SHT_MAX)
                return fail(bs, WA_ERR_LIMIT, "ELF section header table of %llu bytes is too large",
                            (unsigned long long)tsize);
            capture_extend(bs, CAP_ELF_SHT, tsize);
            if (!c->missed)
                return 0; /* called again once the rest has arrived */
        }
    }
    uint32_t n = bs->elf.shnum;
    if ((uint64_t)n * bs->elf.shentsize > c->len)
        n = (uint32_t)(c->len / bs->elf.shentsize);
    bs->sects = xcalloc(n ? n : 1, sizeof *bs->sects);
    bs->sect_name_off = xcalloc(n ? n : 1, sizeof *bs->sect_name_off);
    bs->nsects = n;
    uint64_t fsize = bs->size;
    uint64_t str_off = 0, str_size = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (elf_parse_section(c->buf, (size_t)c->len, &bs->elf, i, &s, &e) < 0)
            return fail(bs, WA_ERR_FORMAT, "bad ELF section table: %s", e.msg);
        int nobits = s.type == ELF_SHT_NOBITS;
        bs->sects[i].off = s.offset;
        bs->sects[i].size = nobits ? 0 : s.size;
        bs->sect_name_off[i] = s.name;
        if (i > 0 && fsize != BINSCAN_SIZE_UNKNOWN && !nobits &&
            (s.offset > fsize || s.size > fsize - s.offset))
            return fail(bs, WA_ERR_FORMAT,
                        "ELF section %u at offset %llu (%llu bytes) extends past the end of the "
                        "file (%llu bytes)",
                        i, (unsigned long long)s.offset, (unsigned long long)s.size,
                        (unsigned long long)fsize);
        if (i == bs->elf.shstrndx && i != 0 && !nobits) {
            str_off = s.offset;
            str_size = s.size;
        }
    }
    if (str_size == 0 || str_size > SHSTR_MAX) {
        warnf(bs, "ELF section names not available; fatbins not labelled");
        return 0;
    }
    if (elf_names_from(bs, &bs->caps[CAP_ELF_PRESHT], str_off, str_size) ||
        elf_names_from(bs, &bs->caps[CAP_HEAD], str_off, str_size) ||
        elf_names_from(bs, c, str_off, str_size))
        return 0;
    if (str_off >= bs->pos) {
        capture_start(bs, CAP_ELF_SHSTR, str_off, str_size); /* the names come later */
        return 0;
    }
    warnf(bs, "ELF section names lie too far before the section table to be read in one pass; "
              "fatbins not labelled");
    return 0;
}

static int elf_have_shstr(struct binscan *bs)
{
    struct capture *c = &bs->caps[CAP_ELF_SHSTR];
    elf_resolve_names(bs, c->buf, c->len);
    return 0;
}

static int pe_head(struct binscan *bs)
{
    struct capture *h = &bs->caps[CAP_HEAD];
    struct wa_error e;
    int rc = pe_parse_headers(h->buf, (size_t)h->have, &bs->pe, &e);
    if (rc == WA_ERR_TRUNCATED && h->have == h->len && h->len < PE_HEAD_MAX &&
        (bs->size == BINSCAN_SIZE_UNKNOWN || h->len < bs->size)) {
        uint64_t want = 0x10000u + 0x200u;
        if (bs->size != BINSCAN_SIZE_UNKNOWN && want > bs->size)
            want = bs->size;
        capture_extend(bs, CAP_HEAD, want);
        return 0;
    }
    if (rc < 0)
        return fail(bs, rc == WA_ERR_TRUNCATED ? WA_ERR_TRUNCATED : WA_ERR_FORMAT,
                    "bad PE headers: %s", e.msg);
    uint64_t end = pe_section_table_end(&bs->pe);
    if (bs->size != BINSCAN_SIZE_UNKNOWN && end > bs->size)
        return fail(bs, WA_ERR_FORMAT,
                    "PE section table (%u sections, ends at %llu) extends past the end of the "
                    "file (%llu bytes)",
                    bs->pe.nsections, (unsigned long long)end, (unsigned long long)bs->size);
    if (end > h->have) {
        capture_extend(bs, CAP_HEAD, end);
        if (!bs->caps[CAP_HEAD].missed)
            return 0;
        return fail(bs, WA_ERR_FORMAT, "PE section table not readable");
    }
    bs->have_pe = 1;
    bs->r.machine = bs->pe.machine;
    bs->sects = xcalloc(bs->pe.nsections, sizeof *bs->sects);
    bs->nsects = bs->pe.nsections;
    const uint8_t *tab = h->buf + bs->pe.sections_offset;
    size_t tablen = (size_t)(end - bs->pe.sections_offset);
    for (uint32_t i = 0; i < bs->pe.nsections; i++) {
        struct pe_section s;
        if (pe_parse_section(tab, tablen, i, &s, &e) < 0)
            return fail(bs, WA_ERR_FORMAT, "bad PE section table: %s", e.msg);
        if (bs->size != BINSCAN_SIZE_UNKNOWN && s.rawsize > 0 &&
            ((uint64_t)s.rawptr > bs->size || s.rawsize > bs->size - s.rawptr))
            return fail(bs, WA_ERR_FORMAT,
                        "PE section %u (%s) data at offset %u (%u bytes) extends past the end of "
                        "the file (%llu bytes)",
                        i, s.name, s.rawptr, s.rawsize, (unsigned long long)bs->size);
        if (s.rawsize > 0 && (uint64_t)s.rawptr < end && s.rawptr != 0)
            return fail(bs, WA_ERR_FORMAT,
                        "PE section %u (%s) data at offset %u overlaps the headers", i, s.name,
                        s.rawptr);
        bs->sects[i].off = s.rawptr;
        bs->sects[i].size = s.rawptr ? pe_section_data_size(&s) : 0;
        snprintf(bs->sects[i].name, sizeof bs->sects[i].name, "%s", s.name);
        if (s.name[0] == '/')
            bs->pe_need_strtab = 1;
    }
    bs->names_known = 1;
    uint64_t st = pe_string_table_offset(&bs->pe);
    if (bs->pe_need_strtab && st != 0 && (bs->size == BINSCAN_SIZE_UNKNOWN || st + 4 <= bs->size))
        capture_start(bs, CAP_PE_STR, st, 4);
    return 0;
}

static int pe_have_strtab(struct binscan *bs)
{
    struct capture *c = &bs->caps[CAP_PE_STR];
    if (c->len == 4) {
        uint32_t sz = rd32(c->buf);
        if (sz > 4 && sz <= PESTR_MAX &&
            (bs->size == BINSCAN_SIZE_UNKNOWN || c->off + sz <= bs->size)) {
            capture_extend(bs, CAP_PE_STR, sz);
        } else {
            warnf(bs, "PE string table size %u is implausible; long section names not resolved",
                  sz);
        }
        return 0;
    }
    for (size_t i = 0; i < bs->nsects; i++) {
        char name[sizeof bs->sects[i].name];
        if (pe_long_name(bs->sects[i].name, c->buf, (size_t)c->len, name, sizeof name) == 0)
            memcpy(bs->sects[i].name, name, sizeof name);
    }
    return 0;
}

static int detect_format(struct binscan *bs, const uint8_t *p, size_t n)
{
    if (n >= 4 && memcmp(p,
                         "\x7f"
                         "ELF",
                         4) == 0)
        return BINSCAN_FORMAT_ELF;
    if (n >= 4 && rd32(p) == FATBIN_MAGIC)
        return BINSCAN_FORMAT_FATBIN;
    if (n >= 2 && p[0] == 'M' && p[1] == 'Z')
        return BINSCAN_FORMAT_PE;
    if (n >= 4 && (memcmp(p, "__CL", 4) == 0 || memcmp(p, OFFLOAD_CCOB_MAGIC, 4) == 0))
        return BINSCAN_FORMAT_OFFLOAD;
    (void)bs;
    return BINSCAN_FORMAT_UNKNOWN;
}

static int on_capture(struct binscan *bs, int id)
{
    switch (id) {
    case CAP_HEAD:
        if (bs->r.format == BINSCAN_FORMAT_ELF && !bs->have_elf)
            return elf_head(bs);
        if (bs->r.format == BINSCAN_FORMAT_PE && !bs->have_pe)
            return pe_head(bs);
        return 0;
    case CAP_ELF_SHT:
        return elf_have_sht(bs);
    case CAP_ELF_SHSTR:
        return elf_have_shstr(bs);
    case CAP_PE_STR:
        return pe_have_strtab(bs);
    default:
        return 0;
    }
}

/* ---- payload inspection ------------------------------------------------- */

static size_t prefix_budget(const struct fatbin_entry *fe, int codec)
{
    if (fe->kind != FATBIN_KIND_ELF && fe->kind != FATBIN_KIND_PTX)
        return 0;
    size_t want;
    switch (codec) {
    case FATBIN_CODEC_NONE:
        want = PREFIX_OUT;
        break;
    case FATBIN_CODEC_ZSTD:
        want = (128u << 10) + 64; /* a whole first block */
        break;
    default:
        want = 16u << 10;
        break;
    }
    uint64_t avail = codec == FATBIN_CODEC_NONE ? fe->padded_size : fe->compressed_size;
    return avail < want ? (size_t)avail : want;
}

static void read_ptx_header(struct binscan_entry *be, const uint8_t *p, size_t n)
{
    /* Directives start lines; look at the first few lines only. */
    size_t i = 0;
    int lines = 0;
    while (i < n && lines < 64) {
        size_t j = i;
        while (j < n && p[j] != '\n' && p[j] != 0)
            j++;
        const char *line = (const char *)p + i;
        size_t len = j - i;
        while (len && (*line == ' ' || *line == '\t')) {
            line++;
            len--;
        }
        if (len > 9 && memcmp(line, ".version", 8) == 0 && (line[8] == ' ' || line[8] == '\t')) {
            size_t k = 9, m = 0;
            while (k < len && (line[k] == ' ' || line[k] == '\t'))
                k++;
            while (k < len && m + 1 < sizeof be->ptx_version &&
                   ((line[k] >= '0' && line[k] <= '9') || line[k] == '.'))
                be->ptx_version[m++] = line[k++];
            be->ptx_version[m] = '\0';
        } else if (len > 8 && memcmp(line, ".target", 7) == 0 &&
                   (line[7] == ' ' || line[7] == '\t')) {
            size_t k = 8, m = 0;
            while (k < len && (line[k] == ' ' || line[k] == '\t'))
                k++;
            while (k < len && m + 1 < sizeof be->ptx_target && line[k] != ',' && line[k] != ' ' &&
                   line[k] != '\t' && line[k] != '\r')
                be->ptx_target[m++] = line[k++];
            be->ptx_target[m] = '\0';
            break;
        }
        if (j < n && p[j] == 0)
            break;
        i = j + 1;
        lines++;
    }
}

static void inspect_entry(struct binscan *bs, struct binscan_entry *be)
{
    if (bs->prefix_len == 0)
        return;
    uint8_t out[PREFIX_OUT];
    size_t want = be->kind == FATBIN_KIND_ELF ? 64 : PREFIX_OUT;
    if (be->uncompressed_size < want)
        want = (size_t)be->uncompressed_size;
    size_t got = 0;
    if (!bs->codec)
        bs->codec = codec_new();
    if (codec_decode_prefix(bs->codec, be->codec, bs->prefix, bs->prefix_len, out, want, &got) <
        0) {
        if (be->codec != FATBIN_CODEC_NONE)
            warnf(bs, "%s payload of a %s entry could not be decoded", fatbin_codec_name(be->codec),
                  be->kind == FATBIN_KIND_ELF ? "cubin" : "PTX");
        return;
    }
    char name[TARGET_NAME_MAX];
    target_format(&be->target, name, sizeof name);
    if (be->kind == FATBIN_KIND_ELF) {
        struct cubin_info ci;
        if (elf_cubin_info(out, got, &ci, NULL) < 0) {
            warnf(bs, "%s entry does not hold a CUDA ELF cubin", name);
            return;
        }
        be->inspected = 1;
        be->elf_abi = ci.abi;
        be->elf_type = ci.type;
        be->elf_flags = ci.flags;
        be->toolkit = ci.toolkit;
        be->nvlink_stub = ci.nvlink_stub;
        if (ci.sm != be->target.arch)
            warnf(bs, "%s entry holds a cubin whose e_flags say sm_%u", name, ci.sm);
        if (ci.abi == 7 && ci.sm >= 90 && ci.arch_specific != (be->target.suffix == 'a'))
            warnf(bs, "%s entry: cubin e_flags %s the arch-specific bit", name,
                  ci.arch_specific ? "set" : "lack");
    } else {
        read_ptx_header(be, out, got);
        be->inspected = 1;
        if (be->ptx_target[0]) {
            struct target t;
            char want_t[TARGET_NAME_MAX];
            snprintf(want_t, sizeof want_t, "sm_%u%s", be->target.arch,
                     be->target.suffix == 'a'   ? "a"
                     : be->target.suffix == 'f' ? "f"
                                                : "");
            if (target_parse(be->ptx_target, &t) == 0 && strcmp(want_t, be->ptx_target) != 0)
                warnf(bs, "%s entry: PTX says .target %s", name, be->ptx_target);
        }
        if (be->ptx_version[0]) {
            char v[16];
            snprintf(v, sizeof v, "%u.%u", be->code_major, be->code_minor);
            if (strcmp(v, be->ptx_version) != 0)
                warnf(bs, "%s entry: header says PTX ISA %s, text says .version %s", name, v,
                      be->ptx_version);
        }
    }
}

/* ---- arch-flag strings -------------------------------------------------- */

static int printable(uint8_t c)
{
    return c >= 0x20 && c < 0x7F;
}

static void grab_finish(struct binscan *bs)
{
    bs->grabbing = 0;
    const char *s = strbuf_str(&bs->grab);
    if (bs->grab.len >= ARCH_FLAGS_MAX || !strstr(s, "arch=") || !strstr(s, "code="))
        return;
    struct binscan_result *r = &bs->r;
    for (size_t i = 0; i < r->narch_flags; i++)
        if (strcmp(r->arch_flags[i], s) == 0)
            return;
    if (r->narch_flags >= BINSCAN_MAX_ARCH_FLAGS)
        return;
    r->arch_flags = xgrow(r->arch_flags, &bs->cap_flags, r->narch_flags + 1, sizeof *r->arch_flags);
    r->arch_flags[r->narch_flags++] = xstrdup(s);
}

/* Appends printable bytes from p[i..n) to the string being grabbed; returns
 * the index after the string, or n if it may go on in the next chunk. */
static size_t grab_continue(struct binscan *bs, const uint8_t *p, size_t i, size_t n)
{
    size_t j = i;
    while (j < n && printable(p[j]))
        j++;
    if (bs->grab.len < ARCH_FLAGS_MAX)
        strbuf_add(&bs->grab, p + i, j - i < ARCH_FLAGS_MAX ? j - i : ARCH_FLAGS_MAX);
    if (j < n) {
        grab_finish(bs);
        return j;
    }
    return n;
}

static void grab_start(struct binscan *bs, const uint8_t *p, size_t at)
{
    bs->gncarry = 0;
    size_t s = at;
    while (s > 0 && at - s < ARCH_FLAGS_LOOKBEHIND && printable(p[s - 1]))
        s--;
    strbuf_reset(&bs->grab);
    strbuf_add(&bs->grab, p + s, at - s);
    bs->grabbing = 1;
}

static void grab_scan(struct binscan *bs, const uint8_t *p, size_t n)
{
    if (n == 0)
        return;
    size_t i = 0;
    if (bs->grabbing) {
        i = grab_continue(bs, p, 0, n);
        if (bs->grabbing)
            return;
    } else if (bs->gncarry) {
        uint8_t tmp[2 * NEEDLE_LEN];
        size_t take = n < NEEDLE_LEN - 1 ? n : NEEDLE_LEN - 1;
        memcpy(tmp, bs->gcarry, bs->gncarry);
        memcpy(tmp + bs->gncarry, p, take);
        const uint8_t *m = memmem(tmp, bs->gncarry + take, gencode_needle, NEEDLE_LEN);
        if (m && (size_t)(m - tmp) < bs->gncarry) {
            strbuf_reset(&bs->grab);
            strbuf_add(&bs->grab, m, bs->gncarry - (size_t)(m - tmp));
            bs->grabbing = 1;
            bs->gncarry = 0;
            i = grab_continue(bs, p, 0, n);
            if (bs->grabbing)
                return;
        }
    }
    while (i < n) {
        const uint8_t *m = memmem(p + i, n - i, gencode_needle, NEEDLE_LEN);
        if (!m)
            break;
        size_t at = (size_t)(m - p);
        grab_start(bs, p, at);
        i = grab_continue(bs, p, at, n);
        if (bs->grabbing)
            return;
    }
    /* Keep the last NEEDLE_LEN-1 bytes of everything searched so far. */
    uint8_t tmp[2 * NEEDLE_LEN];
    size_t tail = n < NEEDLE_LEN - 1 ? n : NEEDLE_LEN - 1;
    memcpy(tmp, bs->gcarry, bs->gncarry);
    memcpy(tmp + bs->gncarry, p + n - tail, tail);
    size_t all = bs->gncarry + tail;
    size_t keep = all < NEEDLE_LEN - 1 ? all : NEEDLE_LEN - 1;
    memcpy(bs->gcarry, tmp + all - keep, keep);
    bs->gncarry = keep;
}

static void grab_break(struct binscan *bs)
{
    if (bs->grabbing)
        grab_finish(bs);
    bs->gncarry = 0;
}

/* ---- the walker --------------------------------------------------------- */

static const uint8_t magic_bytes[4] = {0x50, 0xED, 0x55, 0xBA};

/* Index of the first 8-aligned candidate in buf (absolute offset base), or
 * n.  A magic cut by the end of buf counts as a candidate. */
static size_t find_candidate(const uint8_t *buf, size_t n, uint64_t base)
{
    size_t j = (size_t)(((base + 7) & ~(uint64_t)7) - base);
    for (; j + 4 <= n; j += 8)
        if (rd32(buf + j) == FATBIN_MAGIC)
            return j;
    if (j < n && memcmp(buf + j, magic_bytes, n - j) == 0)
        return j;
    return n;
}

static int walk(struct binscan *bs, const uint8_t *buf, size_t n, uint64_t base);

static int open_module(struct binscan *bs)
{
    struct binscan_result *r = &bs->r;
    if (r->nmodules >= BINSCAN_MAX_MODULES)
        return fail(bs, WA_ERR_LIMIT, "more than %u fatbin containers", BINSCAN_MAX_MODULES);
    r->modules = xgrow(r->modules, &bs->cap_modules, r->nmodules + 1, sizeof *r->modules);
    struct binscan_module *m = &r->modules[r->nmodules];
    memset(m, 0, sizeof *m);
    m->offset = bs->cand_off;
    m->size = FATBIN_HEADER_SIZE + rd64(bs->hdr + 8);
    m->first_entry = r->nentries;
    bs->cur_module = r->nmodules++;
    bs->cont_end = m->offset + m->size;
    return 0;
}

/* Validates the candidate in bs->hdr (CANDIDATE_BYTES long).  Returns 1 if
 * accepted, 0 if rejected (reason recorded). */
static int validate_candidate(struct binscan *bs)
{
    struct fatbin_header fh;
    struct fatbin_entry fe;
    struct wa_error e;
    char why[160];
    if (fatbin_parse_header(bs->hdr, bs->hdrlen, &fh, &e) < 0) {
        add_reject(bs, bs->cand_off, e.msg);
        return 0;
    }
    if (fh.fat_size > (1ull << 48)) {
        add_reject(bs, bs->cand_off, "container size is implausibly large");
        return 0;
    }
    uint64_t limit = bs->size;
    if (limit != BINSCAN_SIZE_UNKNOWN &&
        (bs->cand_off + FATBIN_HEADER_SIZE > limit ||
         fh.fat_size > limit - bs->cand_off - FATBIN_HEADER_SIZE)) {
        snprintf(why, sizeof why,
                 "container size %llu runs past the end of the binary (%llu bytes)",
                 (unsigned long long)fh.fat_size, (unsigned long long)limit);
        add_reject(bs, bs->cand_off, why);
        return 0;
    }
    if (fatbin_parse_entry(bs->hdr + FATBIN_HEADER_SIZE, bs->hdrlen - FATBIN_HEADER_SIZE, &fe, &e) <
        0) {
        wa_strlcpy(why, "first entry: ", sizeof why);
        wa_strlcat(why, e.msg, sizeof why);
        add_reject(bs, bs->cand_off, why);
        return 0;
    }
    if (fe.kind != FATBIN_KIND_PTX && fe.kind != FATBIN_KIND_ELF && fe.kind != FATBIN_KIND_NVVM &&
        fe.kind != FATBIN_KIND_OLDCUBIN) {
        snprintf(why, sizeof why, "first entry kind %u", fe.kind);
        add_reject(bs, bs->cand_off, why);
        return 0;
    }
    if (fe.header_size > fh.fat_size || fe.padded_size > fh.fat_size - fe.header_size) {
        /* Header and payload apart: their sum can wrap. */
        snprintf(why, sizeof why,
                 "first entry (%u header bytes, %llu payload bytes) exceeds the container (%llu "
                 "bytes)",
                 fe.header_size, (unsigned long long)fe.padded_size,
                 (unsigned long long)fh.fat_size);
        add_reject(bs, bs->cand_off, why);
        return 0;
    }
    return 1;
}

static int container_error(struct binscan *bs, const char *what)
{
    return fail(bs, WA_ERR_FORMAT, "fatbin container at offset %llu: entry at offset %llu: %s",
                (unsigned long long)bs->r.modules[bs->cur_module].offset,
                (unsigned long long)bs->entry_off, what);
}

static int begin_entry_header(struct binscan *bs)
{
    bs->st = S_ENTRY_HDR;
    bs->hdrneed = FATBIN_ENTRY_MIN_HEADER;
    bs->fe_parsed = 0;
    return 0;
}

static int entry_header_done(struct binscan *bs)
{
    struct binscan_result *r = &bs->r;
    struct fatbin_entry *fe = &bs->fe;
    if (fe->padded_size > bs->cont_end - bs->entry_off - fe->header_size)
        return container_error(bs, "entry runs past the end of its container");
    if (r->nentries >= BINSCAN_MAX_ENTRIES)
        return fail(bs, WA_ERR_LIMIT, "more than %u fatbin entries", BINSCAN_MAX_ENTRIES);
    r->entries = xgrow(r->entries, &bs->cap_entries, r->nentries + 1, sizeof *r->entries);
    struct binscan_entry *be = &r->entries[r->nentries++];
    memset(be, 0, sizeof *be);
    be->has_target = fatbin_entry_target(fe, &be->target) == 0;
    be->codec = (uint8_t)fatbin_entry_codec(fe);
    be->kind = fe->kind;
    be->code_major = fe->code_major;
    be->code_minor = fe->code_minor;
    be->flags = fe->flags;
    be->offset = bs->entry_off;
    be->payload_size = fe->padded_size;
    be->uncompressed_size = be->codec ? fe->uncompressed_size : fe->padded_size;
    if (!be->has_target)
        warnf(bs, "fatbin entry of kind %u (not a known GPU code kind) skipped", fe->kind);
    r->modules[bs->cur_module].nentries++;

    bs->prefix_want = prefix_budget(fe, be->codec);
    bs->prefix_len = 0;
    if (bs->prefix_want && !bs->prefix)
        bs->prefix = xmalloc((128u << 10) + 64);
    bs->payload_left = fe->padded_size;
    bs->st = S_PAYLOAD;
    return 0;
}

static int entry_done(struct binscan *bs)
{
    struct binscan_entry *be = &bs->r.entries[bs->r.nentries - 1];
    if (bs->prefix_want)
        inspect_entry(bs, be);
    uint64_t next = bs->entry_off + bs->fe.header_size + bs->fe.padded_size;
    if (next == bs->cont_end) {
        bs->st = S_SEARCH;
        return 0;
    }
    if (bs->cont_end - next < FATBIN_ENTRY_MIN_HEADER) {
        bs->entry_off = next;
        return container_error(bs, "entries do not add up to the container size");
    }
    bs->entry_off = next;
    bs->hdrlen = 0;
    return begin_entry_header(bs);
}

/* The entry header has its first hdrneed bytes: parses them, waits for the
 * rest of a longer header, or starts the payload. */
static int entry_header_ready(struct binscan *bs)
{
    if (!bs->fe_parsed) {
        struct wa_error e;
        if (fatbin_parse_entry(bs->hdr, bs->hdrlen, &bs->fe, &e) < 0)
            return container_error(bs, e.msg);
        bs->fe_parsed = 1;
        if (bs->fe.header_size > bs->cont_end - bs->entry_off)
            return container_error(bs, "entry header runs past the end of its container");
        bs->hdrneed = bs->fe.header_size;
        if (bs->hdrlen < bs->hdrneed)
            return 0;
    }
    int rc = entry_header_done(bs);
    if (rc < 0)
        return rc;
    return bs->payload_left == 0 ? entry_done(bs) : 0;
}

static int reject_and_replay(struct binscan *bs)
{
    uint8_t replay[CANDIDATE_BYTES];
    size_t len = bs->hdrlen > 8 ? bs->hdrlen - 8 : 0;
    memcpy(replay, bs->hdr + 8, len);
    uint64_t base = bs->cand_off + 8;
    bs->st = S_SEARCH;
    bs->hdrlen = 0;
    return len ? walk(bs, replay, len, base) : 0;
}

static int walk(struct binscan *bs, const uint8_t *buf, size_t n, uint64_t base)
{
    size_t i = 0;
    while (i < n) {
        switch (bs->st) {
        case S_SEARCH: {
            size_t j = i + find_candidate(buf + i, n - i, base + i);
            grab_scan(bs, buf + i, j - i);
            if (j < n) {
                grab_break(bs);
                bs->st = S_CANDIDATE;
                bs->cand_off = base + j;
                bs->hdrlen = 0;
            }
            i = j;
            break;
        }
        case S_CANDIDATE: {
            size_t take = CANDIDATE_BYTES - bs->hdrlen;
            if (take > n - i)
                take = n - i;
            memcpy(bs->hdr + bs->hdrlen, buf + i, take);
            bs->hdrlen += take;
            i += take;
            /* A magic cut at the previous chunk's end may not match. */
            size_t k = bs->hdrlen < 4 ? bs->hdrlen : 4;
            if (memcmp(bs->hdr, magic_bytes, k) != 0) {
                int rc = reject_and_replay(bs);
                if (rc < 0)
                    return rc;
                break;
            }
            if (bs->hdrlen < CANDIDATE_BYTES)
                break;
            if (!validate_candidate(bs)) {
                int rc = reject_and_replay(bs);
                if (rc < 0)
                    return rc;
                break;
            }
            int rc = open_module(bs);
            if (rc < 0)
                return rc;
            memmove(bs->hdr, bs->hdr + FATBIN_HEADER_SIZE, FATBIN_ENTRY_MIN_HEADER);
            bs->hdrlen = FATBIN_ENTRY_MIN_HEADER;
            bs->entry_off = bs->cand_off + FATBIN_HEADER_SIZE;
            begin_entry_header(bs);
            /* Now, not with the next byte: an entry without payload may end
             * the binary. */
            rc = entry_header_ready(bs);
            if (rc < 0)
                return rc;
            break;
        }
        case S_ENTRY_HDR: {
            size_t take = bs->hdrneed - bs->hdrlen;
            if (take > n - i)
                take = n - i;
            memcpy(bs->hdr + bs->hdrlen, buf + i, take);
            bs->hdrlen += take;
            i += take;
            if (bs->hdrlen < bs->hdrneed)
                break;
            int rc = entry_header_ready(bs);
            if (rc < 0)
                return rc;
            break;
        }
        case S_PAYLOAD: {
            size_t take = n - i;
            if (take > bs->payload_left)
                take = (size_t)bs->payload_left;
            if (bs->prefix_len < bs->prefix_want) {
                size_t c = bs->prefix_want - bs->prefix_len;
                if (c > take)
                    c = take;
                memcpy(bs->prefix + bs->prefix_len, buf + i, c);
                bs->prefix_len += c;
            }
            i += take;
            bs->payload_left -= take;
            if (bs->payload_left == 0) {
                int rc = entry_done(bs);
                if (rc < 0)
                    return rc;
            }
            break;
        }
        }
    }
    return 0;
}

int binscan_feed(struct binscan *bs, const uint8_t *buf, size_t len, struct wa_error *err)
{
    if (bs->failed) {
        if (err)
            *err = bs->err;
        return bs->err.code;
    }
    if (len == 0)
        return 0;
    if (bs->size != BINSCAN_SIZE_UNKNOWN && len > bs->size - bs->pos) {
        fail(bs, WA_ERR_FORMAT, "binary is longer than its declared %llu bytes",
             (unsigned long long)bs->size);
        if (err)
            *err = bs->err;
        return bs->err.code;
    }
    if (bs->r.format == BINSCAN_FORMAT_PENDING) {
        /* The head capture sees these bytes below; decide the format from
         * what it will hold once 4 bytes are there. */
        struct capture *h = &bs->caps[CAP_HEAD];
        uint8_t first[4];
        size_t have = (size_t)(h->have < 4 ? h->have : 4);
        if (have)
            memcpy(first, h->buf, have);
        size_t add = 4 - have < len ? 4 - have : len;
        memcpy(first + have, buf, add);
        if (have + add >= 4 || (bs->size != BINSCAN_SIZE_UNKNOWN && bs->pos + len >= bs->size))
            bs->r.format = detect_format(bs, first, have + add);
    }
    int rc = captures_feed(bs, buf, len, bs->pos);
    if (rc == 0 && !bs->failed)
        rc = walk(bs, buf, len, bs->pos);
    if (rc == 0 && !bs->failed) {
        struct wa_error he;
        if (hipscan_feed(bs->hip, buf, len, bs->pos, &he) < 0)
            rc = fail(bs, he.code, "%s", he.msg);
    }
    bs->pos += len;
    bs->r.size = bs->pos;
    if (bs->failed) {
        if (err)
            *err = bs->err;
        return bs->err.code;
    }
    return rc;
}

/* ---- finish: labels and final checks ------------------------------------ */

static int section_is(const char *name, const char *prefix)
{
    return strncmp(name, prefix, strlen(prefix)) == 0;
}

static const struct section_label *section_of(const struct binscan *bs, uint64_t off)
{
    const struct section_label *best = NULL;
    for (size_t i = 0; i < bs->nsects; i++) {
        const struct section_label *s = &bs->sects[i];
        if (s->size && off >= s->off && off - s->off < s->size)
            if (!best || s->size < best->size)
                best = s;
    }
    return best;
}

static int fatbin_section(const char *name)
{
    return section_is(name, ".nv_fat") || section_is(name, "__nv_rel");
}

static void classify(struct binscan *bs)
{
    struct binscan_result *r = &bs->r;
    for (size_t i = 0; i < r->nmodules; i++) {
        struct binscan_module *m = &r->modules[i];
        const struct section_label *s = bs->names_known ? section_of(bs, m->offset) : NULL;
        if (s)
            snprintf(m->section, sizeof m->section, "%s", s->name);
        if (m->amd) {
            /* Registered with the HIP runtime from .hip_fatbin; a bundle or
             * code object file is loaded as a whole (hipModuleLoad). */
            m->cls = !s || r->format == BINSCAN_FORMAT_OFFLOAD || section_is(s->name, ".hip_fatbin")
                         ? BINSCAN_CLASS_EXEC
                         : BINSCAN_CLASS_LIBRARY;
            continue;
        }
        if (!s || r->format == BINSCAN_FORMAT_FATBIN)
            m->cls = BINSCAN_CLASS_EXEC;
        else if (section_is(s->name, "__nv_rel"))
            m->cls = BINSCAN_CLASS_RELOCATABLE;
        else if (section_is(s->name, ".nv_fat"))
            m->cls = BINSCAN_CLASS_EXEC;
        else
            m->cls = BINSCAN_CLASS_LIBRARY;
        if (m->cls == BINSCAN_CLASS_EXEC && m->nentries > 0) {
            size_t stubs = 0, elf = 0, other = 0;
            for (size_t k = 0; k < m->nentries; k++) {
                const struct binscan_entry *e = &r->entries[m->first_entry + k];
                if (e->kind == FATBIN_KIND_ELF) {
                    elf++;
                    stubs += e->nvlink_stub;
                } else {
                    other++;
                }
            }
            if (elf > 0 && stubs == elf && other == 0)
                m->cls = BINSCAN_CLASS_DLINK;
        }
    }
}

/* Appends one module for AMD GPU code; returns its index or -1. */
static long amd_module(struct binscan *bs, uint64_t off, uint64_t size, int codec)
{
    struct binscan_result *r = &bs->r;
    if (r->nmodules >= BINSCAN_MAX_MODULES) {
        fail(bs, WA_ERR_LIMIT, "more than %u GPU code modules", BINSCAN_MAX_MODULES);
        return -1;
    }
    r->modules = xgrow(r->modules, &bs->cap_modules, r->nmodules + 1, sizeof *r->modules);
    struct binscan_module *m = &r->modules[r->nmodules];
    memset(m, 0, sizeof *m);
    m->offset = off;
    m->size = size;
    m->first_entry = r->nentries;
    m->amd = 1;
    m->codec = (uint8_t)codec;
    return (long)r->nmodules++;
}

static struct binscan_entry *amd_entry(struct binscan *bs, size_t module)
{
    struct binscan_result *r = &bs->r;
    if (r->nentries >= BINSCAN_MAX_ENTRIES) {
        fail(bs, WA_ERR_LIMIT, "more than %u GPU code entries", BINSCAN_MAX_ENTRIES);
        return NULL;
    }
    r->entries = xgrow(r->entries, &bs->cap_entries, r->nentries + 1, sizeof *r->entries);
    struct binscan_entry *be = &r->entries[r->nentries++];
    memset(be, 0, sizeof *be);
    r->modules[module].nentries++;
    return be;
}

/* AMD GPU code: the offload bundles hipscan found, or the binary itself when
 * it is an AMDGPU code object. */
static int add_amd(struct binscan *bs)
{
    struct wa_error he;
    if (hipscan_finish(bs->hip, &he) < 0)
        return fail(bs, he.code, "%s", he.msg);
    const struct hipscan_result *hr = hipscan_result(bs->hip);
    for (size_t i = 0; i < hr->nwarnings; i++)
        warnf(bs, "%s", hr->warnings[i]);
    for (size_t b = 0; b < hr->nbundles; b++) {
        const struct hipscan_bundle *hb = &hr->bundles[b];
        int codec = !hb->compressed              ? FATBIN_CODEC_NONE
                    : hb->method == OFFLOAD_ZSTD ? FATBIN_CODEC_ZSTD
                                                 : FATBIN_CODEC_ZLIB;
        long m = amd_module(bs, hb->offset, hb->size, codec);
        if (m < 0)
            return -1;
        for (size_t k = 0; k < hb->nentries; k++) {
            const struct hipscan_entry *he2 = &hr->entries[hb->first_entry + k];
            struct binscan_entry *be = amd_entry(bs, (size_t)m);
            if (!be)
                return -1;
            be->target = he2->target;
            be->has_target = 1;
            be->codec = (uint8_t)codec;
            be->inspected = he2->inspected;
            be->elf_abi = he2->abi_version;
            be->elf_flags = he2->elf_flags;
            be->offset = hb->compressed ? hb->offset : hb->offset + he2->offset;
            be->payload_size = he2->size;
            be->uncompressed_size = he2->size;
        }
    }
    /* A bare code object (.hsaco, or a .so that is one): one module. */
    if (bs->have_elf && bs->elf.machine == 224 && hr->nbundles == 0) {
        const struct capture *h = &bs->caps[CAP_HEAD];
        struct offload_object o;
        if (offload_object_header(h->buf ? h->buf : (const uint8_t *)"", (size_t)h->have, &o) ==
                0 &&
            o.has_target) {
            long m = amd_module(bs, 0, bs->size, FATBIN_CODEC_NONE);
            if (m < 0)
                return -1;
            struct binscan_entry *be = amd_entry(bs, (size_t)m);
            if (!be)
                return -1;
            be->target = o.target;
            be->has_target = 1;
            be->inspected = 1;
            be->elf_abi = o.abi_version;
            be->elf_flags = o.flags;
            be->payload_size = bs->size;
            be->uncompressed_size = bs->size;
        } else {
            warnf(bs, "AMDGPU code object with unknown machine 0x%x", (unsigned)(o.flags & 0xff));
        }
    }
    return 0;
}

int binscan_finish(struct binscan *bs, struct wa_error *err)
{
    if (bs->finished || bs->failed)
        goto out;
    bs->finished = 1;
    if (bs->size != BINSCAN_SIZE_UNKNOWN && bs->pos < bs->size) {
        fail(bs, WA_ERR_TRUNCATED, "binary ends after %llu of its %llu bytes",
             (unsigned long long)bs->pos, (unsigned long long)bs->size);
        goto out;
    }
    if (bs->size == BINSCAN_SIZE_UNKNOWN)
        bs->size = bs->pos;
    /* A short file: the head capture never filled. */
    struct capture *h = &bs->caps[CAP_HEAD];
    if (bs->r.format == BINSCAN_FORMAT_PENDING)
        bs->r.format = detect_format(bs, h->buf ? h->buf : (const uint8_t *)"", (size_t)h->have);
    if (!h->done && h->have > 0) {
        h->len = h->have;
        h->done = 1;
        if (on_capture(bs, CAP_HEAD) < 0)
            goto out;
    }
    if (bs->r.format == BINSCAN_FORMAT_ELF && !bs->have_elf && !bs->failed) {
        struct elf_header eh;
        struct wa_error e;
        if (elf_parse_header(h->buf ? h->buf : (const uint8_t *)"", (size_t)h->have, &eh, &e) < 0 &&
            e.code != WA_ERR_UNSUPPORTED) {
            fail(bs, e.code, "bad ELF header: %s", e.msg);
            goto out;
        }
    }
    if (bs->r.format == BINSCAN_FORMAT_PE && !bs->have_pe && !bs->failed) {
        fail(bs, WA_ERR_FORMAT, "bad PE headers: file too short");
        goto out;
    }
    if (bs->failed)
        goto out;
    switch (bs->st) {
    case S_SEARCH:
        break;
    case S_CANDIDATE:
        if (bs->hdrlen >= 4 && memcmp(bs->hdr, magic_bytes, 4) == 0)
            add_reject(bs, bs->cand_off, "container header cut off by the end of the binary");
        break;
    case S_ENTRY_HDR:
    case S_PAYLOAD:
        fail(bs, WA_ERR_TRUNCATED,
             "fatbin container at offset %llu (%llu bytes) is cut off by the end of the binary",
             (unsigned long long)bs->r.modules[bs->cur_module].offset,
             (unsigned long long)bs->r.modules[bs->cur_module].size);
        goto out;
    }
    grab_break(bs);
    if (bs->have_elf && bs->caps[CAP_ELF_SHT].active && !bs->caps[CAP_ELF_SHT].done) {
        fail(bs, WA_ERR_TRUNCATED, "ELF section header table missing");
        goto out;
    }
    if (add_amd(bs) < 0)
        goto out;
    classify(bs);
    /* A rejected candidate is only an error where a fatbin must be. */
    for (size_t i = 0; i < bs->nrejects; i++) {
        const struct reject *rj = &bs->rejects[i];
        const struct section_label *s = bs->names_known ? section_of(bs, rj->off) : NULL;
        int must = (bs->r.format == BINSCAN_FORMAT_FATBIN && rj->off == 0) ||
                   (s && fatbin_section(s->name));
        if (must) {
            fail(bs, WA_ERR_FORMAT, "fatbin container at offset %llu%s%s: %s",
                 (unsigned long long)rj->off, s ? " in " : "", s ? s->name : "", rj->why);
            goto out;
        }
    }
    const struct hipscan_result *hr = hipscan_result(bs->hip);
    for (size_t i = 0; i < hr->nrejects; i++) {
        const struct hipscan_reject *rj = &hr->rejects[i];
        const struct section_label *s = bs->names_known ? section_of(bs, rj->offset) : NULL;
        int must = (bs->r.format == BINSCAN_FORMAT_OFFLOAD && rj->offset == 0) ||
                   (s && section_is(s->name, ".hip_fatbin"));
        if (must) {
            fail(bs, WA_ERR_FORMAT, "offload bundle at offset %llu%s%s: %s",
                 (unsigned long long)rj->offset, s ? " in " : "", s ? s->name : "", rj->why);
            goto out;
        }
    }
    if (bs->r.format == BINSCAN_FORMAT_FATBIN && bs->r.nmodules == 0)
        fail(bs, WA_ERR_FORMAT, "no valid fatbin container");
    if (bs->r.format == BINSCAN_FORMAT_OFFLOAD && bs->r.nmodules == 0)
        fail(bs, WA_ERR_FORMAT, "no valid offload bundle");
out:
    if (bs->failed) {
        if (err)
            *err = bs->err;
        return bs->err.code;
    }
    return 0;
}
