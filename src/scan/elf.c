/*
 * elf: host ELF headers and section tables; cubin headers.
 */
#include "elf.h"

#include <string.h>

#include "bytes.h"

int elf_parse_header(const uint8_t *p, size_t len, struct elf_header *h, struct wa_error *err)
{
    memset(h, 0, sizeof *h);
    if (len < 16)
        return wa_error_set(err, WA_ERR_TRUNCATED, "ELF identification truncated");
    if (memcmp(p,
               "\x7f"
               "ELF",
               4) != 0)
        return wa_error_set(err, WA_ERR_FORMAT, "not an ELF file");
    if (p[4] != 1 && p[4] != 2)
        return wa_error_set(err, WA_ERR_FORMAT, "ELF class %u", p[4]);
    if (p[5] == 2)
        return wa_error_set(err, WA_ERR_UNSUPPORTED, "big-endian ELF");
    if (p[5] != 1)
        return wa_error_set(err, WA_ERR_FORMAT, "ELF data encoding %u", p[5]);
    h->is64 = p[4] == 2;
    h->osabi = p[7];
    h->abiversion = p[8];
    size_t need = h->is64 ? 64 : 52;
    if (len < need)
        return wa_error_set(err, WA_ERR_TRUNCATED, "ELF header truncated");
    h->type = rd16(p + 16);
    h->machine = rd16(p + 18);
    h->version = rd32(p + 20);
    if (h->is64) {
        h->shoff = rd64(p + 0x28);
        h->flags = rd32(p + 0x30);
        h->shentsize = rd16(p + 0x3A);
        h->shnum = rd16(p + 0x3C);
        h->shstrndx = rd16(p + 0x3E);
    } else {
        h->shoff = rd32(p + 0x20);
        h->flags = rd32(p + 0x24);
        h->shentsize = rd16(p + 0x2E);
        h->shnum = rd16(p + 0x30);
        h->shstrndx = rd16(p + 0x32);
    }
    if (h->shoff != 0 && h->shentsize != (h->is64 ? 64 : 40))
        return wa_error_set(err, WA_ERR_FORMAT, "ELF section header size %u", h->shentsize);
    return 0;
}

uint64_t elf_section_table_size(const struct elf_header *h)
{
    uint64_t n = h->shnum ? h->shnum : 1; /* extended numbering: section 0 first */
    return h->shoff ? n * h->shentsize : 0;
}

int elf_parse_section(const uint8_t *tab, size_t len, const struct elf_header *h, uint32_t i,
                      struct elf_section *s, struct wa_error *err)
{
    uint64_t off = (uint64_t)i * h->shentsize;
    if (h->shentsize == 0 || off > len || len - off < h->shentsize)
        return wa_error_set(err, WA_ERR_TRUNCATED, "ELF section header %u truncated", i);
    const uint8_t *q = tab + off;
    s->name = rd32(q);
    s->type = rd32(q + 4);
    if (h->is64) {
        s->flags = rd64(q + 8);
        s->addr = rd64(q + 0x10);
        s->offset = rd64(q + 0x18);
        s->size = rd64(q + 0x20);
        s->link = rd32(q + 0x28);
    } else {
        s->flags = rd32(q + 8);
        s->addr = rd32(q + 0x0C);
        s->offset = rd32(q + 0x10);
        s->size = rd32(q + 0x14);
        s->link = rd32(q + 0x18);
    }
    return 0;
}

void elf_fix_counts(struct elf_header *h, const struct elf_section *s0)
{
    if (h->shnum == 0 && s0->size <= UINT32_MAX)
        h->shnum = (uint32_t)s0->size;
    if (h->shstrndx == 0xFFFF)
        h->shstrndx = s0->link;
}

int elf_cubin_info(const uint8_t *p, size_t len, struct cubin_info *ci, struct wa_error *err)
{
    memset(ci, 0, sizeof *ci);
    if (len < 64 ||
        memcmp(p,
               "\x7f"
               "ELF",
               4) != 0 ||
        p[4] != 2 || p[5] != 1)
        return wa_error_set(err, WA_ERR_FORMAT, "not a 64-bit little-endian ELF cubin");
    if (rd16(p + 18) != ELF_EM_CUDA)
        return wa_error_set(err, WA_ERR_FORMAT, "cubin e_machine %u (expected 190)", rd16(p + 18));
    ci->osabi = p[7];
    ci->abi = p[8];
    ci->type = rd16(p + 16);
    ci->flags = rd32(p + 0x30);
    uint32_t version = rd32(p + 20);
    if (ci->abi >= 8) {
        ci->sm = (ci->flags >> 8) & 0xFF;
        ci->nvlink_stub = (ci->flags >> 24) == 0x05;
    } else {
        ci->sm = ci->flags & 0xFF;
        ci->virtual_sm = (ci->flags >> 16) & 0xFF;
        ci->arch_specific = (ci->flags & 0x800) && ci->sm >= 90;
        ci->toolkit = version;
    }
    return 0;
}
