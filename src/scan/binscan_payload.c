/*
 * binscan_payload: what one fatbin entry holds, read from its first bytes
 * (a PTX header's ISA and target, a cubin's ELF header) within a budget.
 */
#include "binscan_state.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codec.h"
#include "elf.h"
#include "fatbin.h"
size_t binscan_prefix_budget(const struct fatbin_entry *fe, int codec)
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

void binscan_inspect_entry(struct binscan *bs, struct binscan_entry *be)
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
