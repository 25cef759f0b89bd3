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
#include "binscan_state.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "codec.h"
#include "fatbin.h"
#include "hipscan.h"
#include "kpack.h"
#include "strbuf.h"
#include "xalloc.h"

/* ---- results and diagnostics ------------------------------------------ */

void binscan_add_reject(struct binscan *bs, uint64_t off, const char *why)
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
    case BINSCAN_FORMAT_KPACK:
        return "kpack";
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
    bs->kpack = kpack_new(size == BINSCAN_SIZE_UNKNOWN ? UINT64_MAX : size);
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
    kpack_free(bs->kpack);
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

/* ---- the walker --------------------------------------------------------- */

const uint8_t binscan_magic[4] = {0x50, 0xED, 0x55, 0xBA};

/* Index of the first 8-aligned candidate in buf (absolute offset base), or
 * n.  A magic cut by the end of buf counts as a candidate. */
static size_t find_candidate(const uint8_t *buf, size_t n, uint64_t base)
{
    size_t j = (size_t)(((base + 7) & ~(uint64_t)7) - base);
    for (; j + 4 <= n; j += 8)
        if (rd32(buf + j) == FATBIN_MAGIC)
            return j;
    if (j < n && memcmp(buf + j, binscan_magic, n - j) == 0)
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
        binscan_add_reject(bs, bs->cand_off, e.msg);
        return 0;
    }
    if (fh.fat_size > (1ull << 48)) {
        binscan_add_reject(bs, bs->cand_off, "container size is implausibly large");
        return 0;
    }
    uint64_t limit = bs->size;
    if (limit != BINSCAN_SIZE_UNKNOWN &&
        (bs->cand_off + FATBIN_HEADER_SIZE > limit ||
         fh.fat_size > limit - bs->cand_off - FATBIN_HEADER_SIZE)) {
        snprintf(why, sizeof why,
                 "container size %llu runs past the end of the binary (%llu bytes)",
                 (unsigned long long)fh.fat_size, (unsigned long long)limit);
        binscan_add_reject(bs, bs->cand_off, why);
        return 0;
    }
    if (fatbin_parse_entry(bs->hdr + FATBIN_HEADER_SIZE, bs->hdrlen - FATBIN_HEADER_SIZE, &fe, &e) <
        0) {
        wa_strlcpy(why, "first entry: ", sizeof why);
        wa_strlcat(why, e.msg, sizeof why);
        binscan_add_reject(bs, bs->cand_off, why);
        return 0;
    }
    if (fe.kind != FATBIN_KIND_PTX && fe.kind != FATBIN_KIND_ELF && fe.kind != FATBIN_KIND_NVVM &&
        fe.kind != FATBIN_KIND_OLDCUBIN) {
        snprintf(why, sizeof why, "first entry kind %u", fe.kind);
        binscan_add_reject(bs, bs->cand_off, why);
        return 0;
    }
    if (fe.header_size > fh.fat_size || fe.padded_size > fh.fat_size - fe.header_size) {
        /* Header and payload apart: their sum can wrap. */
        snprintf(why, sizeof why,
                 "first entry (%u header bytes, %llu payload bytes) exceeds the container (%llu "
                 "bytes)",
                 fe.header_size, (unsigned long long)fe.padded_size,
                 (unsigned long long)fh.fat_size);
        binscan_add_reject(bs, bs->cand_off, why);
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

    bs->prefix_want = binscan_prefix_budget(fe, be->codec);
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
        binscan_inspect_entry(bs, be);
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
            if (memcmp(bs->hdr, binscan_magic, k) != 0) {
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
    if (rc == 0 && !bs->failed &&
        (bs->r.format == BINSCAN_FORMAT_PENDING || bs->r.format == BINSCAN_FORMAT_KPACK)) {
        struct wa_error ke;
        if (kpack_feed(bs->kpack, buf, len, bs->pos, &ke) < 0)
            rc = binscan_fail(bs, ke.code, "%s", ke.msg);
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
