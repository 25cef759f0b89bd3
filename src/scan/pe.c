/*
 * pe: PE/COFF headers, section table, long section names.
 */
#include "pe.h"

#include <stdio.h>
#include <string.h>

#include "bytes.h"

int pe_parse_headers(const uint8_t *p, size_t len, struct pe_info *pi, struct wa_error *err)
{
    memset(pi, 0, sizeof *pi);
    if (len < 0x40)
        return wa_error_set(err, WA_ERR_TRUNCATED, "DOS header truncated");
    if (p[0] != 'M' || p[1] != 'Z')
        return wa_error_set(err, WA_ERR_FORMAT, "not a PE file (no MZ)");
    pi->lfanew = rd32(p + 0x3C);
    if (pi->lfanew < 0x40 || pi->lfanew > 0x10000 || pi->lfanew % 4 != 0)
        return wa_error_set(err, WA_ERR_FORMAT, "PE header offset 0x%x is implausible", pi->lfanew);
    uint64_t coff = (uint64_t)pi->lfanew + 4;
    if (len < coff + 20 + 2)
        return wa_error_set(err, WA_ERR_TRUNCATED, "PE headers truncated");
    if (memcmp(p + pi->lfanew, "PE\0\0", 4) != 0)
        return wa_error_set(err, WA_ERR_FORMAT, "no PE signature at 0x%x", pi->lfanew);
    pi->machine = rd16(p + coff);
    pi->nsections = rd16(p + coff + 2);
    pi->symtab_ptr = rd32(p + coff + 8);
    pi->nsymbols = rd32(p + coff + 12);
    uint16_t optsize = rd16(p + coff + 16);
    uint64_t opt = coff + 20;
    pi->sections_offset = opt + optsize;
    if (pi->nsections == 0)
        return wa_error_set(err, WA_ERR_FORMAT, "PE file has no sections");
    if (pi->nsections > PE_MAX_SECTIONS)
        return wa_error_set(err, WA_ERR_FORMAT, "PE section count %u exceeds %u", pi->nsections,
                            PE_MAX_SECTIONS);
    if (optsize == 0)
        return wa_error_set(err, WA_ERR_FORMAT, "PE image without an optional header");
    if (len < opt + 2)
        return wa_error_set(err, WA_ERR_TRUNCATED, "PE optional header truncated");
    pi->opt_magic = rd16(p + opt);
    if (pi->opt_magic == 0x20B) {
        if (optsize < 32)
            return wa_error_set(err, WA_ERR_FORMAT, "PE32+ optional header of %u bytes", optsize);
        if (len < opt + 32)
            return wa_error_set(err, WA_ERR_TRUNCATED, "PE optional header truncated");
        pi->image_base = rd64(p + opt + 24);
    } else if (pi->opt_magic == 0x10B) {
        if (optsize < 32)
            return wa_error_set(err, WA_ERR_FORMAT, "PE32 optional header of %u bytes", optsize);
        if (len < opt + 32)
            return wa_error_set(err, WA_ERR_TRUNCATED, "PE optional header truncated");
        pi->image_base = rd32(p + opt + 28);
    } else {
        return wa_error_set(err, WA_ERR_FORMAT, "PE optional header magic 0x%x", pi->opt_magic);
    }
    return 0;
}

uint64_t pe_section_table_end(const struct pe_info *pi)
{
    return pi->sections_offset + (uint64_t)pi->nsections * PE_SECTION_HEADER_SIZE;
}

int pe_parse_section(const uint8_t *tab, size_t len, uint32_t i, struct pe_section *s,
                     struct wa_error *err)
{
    uint64_t off = (uint64_t)i * PE_SECTION_HEADER_SIZE;
    if (off > len || len - off < PE_SECTION_HEADER_SIZE)
        return wa_error_set(err, WA_ERR_TRUNCATED, "PE section header %u truncated", i);
    const uint8_t *q = tab + off;
    memcpy(s->name, q, 8);
    s->name[8] = '\0';
    s->vsize = rd32(q + 8);
    s->vaddr = rd32(q + 12);
    s->rawsize = rd32(q + 16);
    s->rawptr = rd32(q + 20);
    s->characteristics = rd32(q + 36);
    return 0;
}

uint64_t pe_string_table_offset(const struct pe_info *pi)
{
    if (pi->symtab_ptr == 0)
        return 0;
    return (uint64_t)pi->symtab_ptr + 18ull * pi->nsymbols;
}

int pe_long_name(const char *short_name, const uint8_t *st, size_t len, char *out, size_t n)
{
    if (short_name[0] != '/' || short_name[1] < '0' || short_name[1] > '9' || n == 0)
        return -1;
    uint64_t off = 0;
    for (const char *c = short_name + 1; *c; c++) {
        /* Stop before the number can wrap back into the table. */
        if (*c < '0' || *c > '9' || off >= len)
            return -1;
        off = off * 10 + (uint64_t)(*c - '0');
    }
    if (off < 4 || off >= len)
        return -1;
    size_t i = 0;
    while (off + i < len && st[off + i] != 0 && i + 1 < n) {
        out[i] = (char)st[off + i];
        i++;
    }
    if (off + i >= len && i + 1 < n)
        return -1; /* no terminating NUL inside the table */
    out[i] = '\0';
    return 0;
}

uint32_t pe_section_data_size(const struct pe_section *s)
{
    if (s->vsize == 0 || s->vsize > s->rawsize)
        return s->rawsize;
    return s->vsize;
}
