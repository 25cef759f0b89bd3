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
#include "binscan_impl.h"

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

/* ---- results and diagnostics ------------------------------------------ */

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
            binscan_warnf(bs, "%s payload of a %s entry could not be decoded",
                          fatbin_codec_name(be->codec),
                          be->kind == FATBIN_KIND_ELF ? "cubin" : "PTX");
        return;
    }
    char name[TARGET_NAME_MAX];
    target_format(&be->target, name, sizeof name);
    if (be->kind == FATBIN_KIND_ELF) {
        struct cubin_info ci;
        if (elf_cubin_info(out, got, &ci, NULL) < 0) {
            binscan_warnf(bs, "%s entry does not hold a CUDA ELF cubin", name);
            return;
        }
        be->inspected = 1;
        be->elf_abi = ci.abi;
        be->elf_type = ci.type;
        be->elf_flags = ci.flags;
        be->toolkit = ci.toolkit;
        be->nvlink_stub = ci.nvlink_stub;
        if (ci.sm != be->target.arch)
            binscan_warnf(bs, "%s entry holds a cubin whose e_flags say sm_%u", name, ci.sm);
        if (ci.abi == 7 && ci.sm >= 90 && ci.arch_specific != (be->target.suffix == 'a'))
            binscan_warnf(bs, "%s entry: cubin e_flags %s the arch-specific bit", name,
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
                binscan_warnf(bs, "%s entry: PTX says .target %s", name, be->ptx_target);
        }
        if (be->ptx_version[0]) {
            char v[16];
            snprintf(v, sizeof v, "%u.%u", be->code_major, be->code_minor);
            if (strcmp(v, be->ptx_version) != 0)
                binscan_warnf(bs, "%s entry: header says PTX ISA %s, text says .version %s", name,
                              v, be->ptx_version);
        }
    }
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
        return binscan_fail(bs, WA_ERR_LIMIT, "more than %u fatbin containers",
                            BINSCAN_MAX_MODULES);
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
    return binscan_fail(bs, WA_ERR_FORMAT,
                        "fatbin container at offset %llu: entry at offset %llu: %s",
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
        return binscan_fail(bs, WA_ERR_LIMIT, "more than %u fatbin entries", BINSCAN_MAX_ENTRIES);
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
        binscan_warnf(bs, "fatbin entry of kind %u (not a known GPU code kind) skipped", fe->kind);
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
            binscan_grab_scan(bs, buf + i, j - i);
            if (j < n) {
                binscan_grab_break(bs);
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
        binscan_fail(bs, WA_ERR_FORMAT, "binary is longer than its declared %llu bytes",
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
            bs->r.format = binscan_detect_format(bs, first, have + add);
    }
    int rc = binscan_captures_feed(bs, buf, len, bs->pos);
    if (rc == 0 && !bs->failed)
        rc = walk(bs, buf, len, bs->pos);
    if (rc == 0 && !bs->failed) {
        struct wa_error he;
        if (hipscan_feed(bs->hip, buf, len, bs->pos, &he) < 0)
            rc = binscan_fail(bs, he.code, "%s", he.msg);
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
        binscan_fail(bs, WA_ERR_LIMIT, "more than %u GPU code modules", BINSCAN_MAX_MODULES);
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
        binscan_fail(bs, WA_ERR_LIMIT, "more than %u GPU code entries", BINSCAN_MAX_ENTRIES);
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
        return binscan_fail(bs, he.code, "%s", he.msg);
    const struct hipscan_result *hr = hipscan_result(bs->hip);
    for (size_t i = 0; i < hr->nwarnings; i++)
        binscan_warnf(bs, "%s", hr->warnings[i]);
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
            binscan_warnf(bs, "AMDGPU code object with unknown machine 0x%x",
                          (unsigned)(o.flags & 0xff));
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
        binscan_fail(bs, WA_ERR_TRUNCATED, "binary ends after %llu of its %llu bytes",
                     (unsigned long long)bs->pos, (unsigned long long)bs->size);
        goto out;
    }
    if (bs->size == BINSCAN_SIZE_UNKNOWN)
        bs->size = bs->pos;
    /* A short file: the head capture never filled. */
    struct capture *h = &bs->caps[CAP_HEAD];
    if (bs->r.format == BINSCAN_FORMAT_PENDING)
        bs->r.format =
            binscan_detect_format(bs, h->buf ? h->buf : (const uint8_t *)"", (size_t)h->have);
    if (!h->done && h->have > 0) {
        h->len = h->have;
        h->done = 1;
        if (binscan_on_capture(bs, CAP_HEAD) < 0)
            goto out;
    }
    if (bs->r.format == BINSCAN_FORMAT_ELF && !bs->have_elf && !bs->failed) {
        struct elf_header eh;
        struct wa_error e;
        if (elf_parse_header(h->buf ? h->buf : (const uint8_t *)"", (size_t)h->have, &eh, &e) < 0 &&
            e.code != WA_ERR_UNSUPPORTED) {
            binscan_fail(bs, e.code, "bad ELF header: %s", e.msg);
            goto out;
        }
    }
    if (bs->r.format == BINSCAN_FORMAT_PE && !bs->have_pe && !bs->failed) {
        binscan_fail(bs, WA_ERR_FORMAT, "bad PE headers: file too short");
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
        binscan_fail(
            bs, WA_ERR_TRUNCATED,
            "fatbin container at offset %llu (%llu bytes) is cut off by the end of the binary",
            (unsigned long long)bs->r.modules[bs->cur_module].offset,
            (unsigned long long)bs->r.modules[bs->cur_module].size);
        goto out;
    }
    binscan_grab_break(bs);
    if (bs->have_elf && bs->caps[CAP_ELF_SHT].active && !bs->caps[CAP_ELF_SHT].done) {
        binscan_fail(bs, WA_ERR_TRUNCATED, "ELF section header table missing");
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
            binscan_fail(bs, WA_ERR_FORMAT, "fatbin container at offset %llu%s%s: %s",
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
            binscan_fail(bs, WA_ERR_FORMAT, "offload bundle at offset %llu%s%s: %s",
                         (unsigned long long)rj->offset, s ? " in " : "", s ? s->name : "",
                         rj->why);
            goto out;
        }
    }
    if (bs->r.format == BINSCAN_FORMAT_FATBIN && bs->r.nmodules == 0)
        binscan_fail(bs, WA_ERR_FORMAT, "no valid fatbin container");
    if (bs->r.format == BINSCAN_FORMAT_OFFLOAD && bs->r.nmodules == 0)
        binscan_fail(bs, WA_ERR_FORMAT, "no valid offload bundle");
out:
    if (bs->failed) {
        if (err)
            *err = bs->err;
        return bs->err.code;
    }
    return 0;
}
