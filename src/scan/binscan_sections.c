/*
 * binscan_sections: the byte ranges a scan needs whole (the first bytes, the
 * ELF section table and its names, the PE section table and COFF string
 * table), copied as they stream past, and the section labels read from
 * them.
 */
#include "binscan_state.h"
#include "kpack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "offload.h"
#include "xalloc.h"

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

/* Copies the overlap of [base, base+n) into every active capture; runs the
 * completion handler of each capture that fills, which may start or extend
 * captures, so it loops until nothing changes. */
int binscan_captures_feed(struct binscan *bs, const uint8_t *buf, size_t n, uint64_t base)
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
                int rc = binscan_on_capture(bs, id);
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
        binscan_warnf(bs, "%s: sections not read", e.msg);
        return 0;
    }
    if (rc < 0)
        return binscan_fail(bs, rc, "bad ELF header: %s", e.msg);
    bs->have_elf = 1;
    bs->r.machine = bs->elf.machine;
    bs->r.elf_type = bs->elf.type;
    if (bs->elf.shoff == 0)
        return 0;
    uint64_t tsize = elf_section_table_size(&bs->elf);
    if (bs->size != BINSCAN_SIZE_UNKNOWN &&
        (bs->elf.shoff > bs->size || tsize > bs->size - bs->elf.shoff))
        return binscan_fail(
            bs, WA_ERR_FORMAT,
            "ELF section header table at offset %llu (%llu bytes) extends past the end "
            "of the file (%llu bytes)",
            (unsigned long long)bs->elf.shoff, (unsigned long long)tsize,
            (unsigned long long)bs->size);
    if (tsize > SHT_MAX)
        return binscan_fail(bs, WA_ERR_LIMIT, "ELF section header table of %llu bytes is too large",
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
        return binscan_fail(bs, WA_ERR_FORMAT, "bad ELF section table: %s", e.msg);
    if (bs->elf.shnum == 0 || bs->elf.shstrndx == 0xFFFF) {
        uint32_t before = bs->elf.shnum;
        elf_fix_counts(&bs->elf, &s0);
        if (before == 0 && bs->elf.shnum > 1) {
            uint64_t tsize = (uint64_t)bs->elf.shnum * bs->elf.shentsize;
            if (tsize > SHT_MAX)
                return binscan_fail(bs, WA_ERR_LIMIT,
                                    "ELF section header table of %llu bytes is too large",
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
            return binscan_fail(bs, WA_ERR_FORMAT, "bad ELF section table: %s", e.msg);
        int nobits = s.type == ELF_SHT_NOBITS;
        bs->sects[i].off = s.offset;
        bs->sects[i].size = nobits ? 0 : s.size;
        bs->sect_name_off[i] = s.name;
        if (i > 0 && fsize != BINSCAN_SIZE_UNKNOWN && !nobits &&
            (s.offset > fsize || s.size > fsize - s.offset))
            return binscan_fail(
                bs, WA_ERR_FORMAT,
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
        binscan_warnf(bs, "ELF section names not available; fatbins not labelled");
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
    binscan_warnf(bs,
                  "ELF section names lie too far before the section table to be read in one pass; "
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
        return binscan_fail(bs, rc == WA_ERR_TRUNCATED ? WA_ERR_TRUNCATED : WA_ERR_FORMAT,
                            "bad PE headers: %s", e.msg);
    uint64_t end = pe_section_table_end(&bs->pe);
    if (bs->size != BINSCAN_SIZE_UNKNOWN && end > bs->size)
        return binscan_fail(
            bs, WA_ERR_FORMAT,
            "PE section table (%u sections, ends at %llu) extends past the end of the "
            "file (%llu bytes)",
            bs->pe.nsections, (unsigned long long)end, (unsigned long long)bs->size);
    if (end > h->have) {
        capture_extend(bs, CAP_HEAD, end);
        if (!bs->caps[CAP_HEAD].missed)
            return 0;
        return binscan_fail(bs, WA_ERR_FORMAT, "PE section table not readable");
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
            return binscan_fail(bs, WA_ERR_FORMAT, "bad PE section table: %s", e.msg);
        if (bs->size != BINSCAN_SIZE_UNKNOWN && s.rawsize > 0 &&
            ((uint64_t)s.rawptr > bs->size || s.rawsize > bs->size - s.rawptr))
            return binscan_fail(
                bs, WA_ERR_FORMAT,
                "PE section %u (%s) data at offset %u (%u bytes) extends past the end of "
                "the file (%llu bytes)",
                i, s.name, s.rawptr, s.rawsize, (unsigned long long)bs->size);
        if (s.rawsize > 0 && (uint64_t)s.rawptr < end && s.rawptr != 0)
            return binscan_fail(bs, WA_ERR_FORMAT,
                                "PE section %u (%s) data at offset %u overlaps the headers", i,
                                s.name, s.rawptr);
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
            binscan_warnf(
                bs, "PE string table size %u is implausible; long section names not resolved", sz);
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

int binscan_detect_format(struct binscan *bs, const uint8_t *p, size_t n)
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
    if (n >= 4 && memcmp(p, KPACK_MAGIC, 4) == 0)
        return BINSCAN_FORMAT_KPACK;
    (void)bs;
    return BINSCAN_FORMAT_UNKNOWN;
}

int binscan_on_capture(struct binscan *bs, int id)
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
