/*
 * binscan_finish: the end of a scan: entries labelled by the section they
 * came from, AMD code objects added, the final checks.
 */
#include "binscan.h"
#include "binscan_state.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "elf.h"
#include "fatbin.h"
#include "hipscan.h"
#include "kpack.h"
#include "offload.h"
#include "strbuf.h"
#include "xalloc.h"

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

/* A kernel archive's code objects: one module per host binary whose code
 * it holds, one entry per gfx target. */
static int add_kpack(struct binscan *bs)
{
    struct wa_error ke;
    if (kpack_finish(bs->kpack, &ke) < 0)
        return binscan_fail(bs, ke.code, "%s", ke.msg);
    const struct kpack_result *kr = kpack_result(bs->kpack);
    for (size_t i = 0; i < kr->nwarnings; i++)
        binscan_warnf(bs, "%s", kr->warnings[i]);
    int codec = kr->compressed ? FATBIN_CODEC_ZSTD : FATBIN_CODEC_NONE;
    long m = -1;
    for (size_t i = 0; i < kr->nentries; i++) {
        /* the table lists each binary's targets together: a module per binary */
        const struct kpack_entry *e = &kr->entries[i];
        if (m < 0 || strcmp(kr->entries[i - 1].binary, e->binary) != 0) {
            m = amd_module(bs, e->offset, 0, codec);
            if (m < 0)
                return -1;
            const char *base = strrchr(e->binary, '/');
            snprintf(bs->r.modules[m].section, sizeof bs->r.modules[m].section, "%s",
                     base ? base + 1 : e->binary);
        }
        struct binscan_entry *be = amd_entry(bs, (size_t)m);
        if (!be)
            return -1;
        be->target = e->target;
        be->has_target = 1;
        be->codec = (uint8_t)codec;
        be->inspected = e->inspected;
        be->elf_abi = e->abi_version;
        be->elf_flags = e->elf_flags;
        be->offset = e->offset;
        be->payload_size = e->size;
        be->uncompressed_size = e->size;
    }
    return 0;
}

/* AMD GPU code: the offload bundles hipscan found, or the binary itself when
 * it is an AMDGPU code object or a kernel archive. */
static int add_amd(struct binscan *bs)
{
    if (bs->r.format == BINSCAN_FORMAT_KPACK)
        return add_kpack(bs);
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
        if (bs->hdrlen >= 4 && memcmp(bs->hdr, binscan_magic, 4) == 0)
            binscan_add_reject(bs, bs->cand_off,
                               "container header cut off by the end of the binary");
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
