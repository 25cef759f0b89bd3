/*
 * pe: Windows PE/COFF headers and section tables (docs/formats.md section 5).
 *
 * Fatbins in DLLs live in `.nv_fatb` (the 8-byte cut of `.nv_fatbin`); long
 * section names (`/<n>`) point into the COFF string table, which sits after
 * the symbol table at PointerToSymbolTable + 18 * NumberOfSymbols.  All
 * functions are pure and bounds-checked.
 */
#ifndef WHEELARCH_PE_H
#define WHEELARCH_PE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define PE_MACHINE_AMD64 0x8664
#define PE_MACHINE_ARM64 0xAA64
#define PE_MACHINE_I386 0x14C
#define PE_SECTION_HEADER_SIZE 40
#define PE_MAX_SECTIONS 96 /* the PE specification's loader limit */

struct pe_info {
    uint32_t lfanew;
    uint16_t machine;
    uint16_t nsections;
    uint32_t symtab_ptr;
    uint32_t nsymbols;
    uint16_t opt_magic; /* 0x10B PE32, 0x20B PE32+ */
    uint64_t image_base;
    uint64_t sections_offset; /* file offset of the section table */
};

struct pe_section {
    char name[9]; /* as stored, NUL-terminated; "/123" for long names */
    uint32_t vsize;
    uint32_t vaddr;
    uint32_t rawsize;
    uint32_t rawptr;
    uint32_t characteristics;
};

/* Parses DOS, COFF and optional headers from the first bytes of the file,
 * p[0..len).  Returns 0, WA_ERR_TRUNCATED (need more bytes; the headers
 * themselves never reach past 64 KiB), or WA_ERR_FORMAT. */
int pe_parse_headers(const uint8_t *p, size_t len, struct pe_info *pi, struct wa_error *err);

/* File offset just past the section table. */
uint64_t pe_section_table_end(const struct pe_info *pi);

/* Parses section i from the bytes of the section table tab[0..len). */
int pe_parse_section(const uint8_t *tab, size_t len, uint32_t i, struct pe_section *s,
                     struct wa_error *err);

/* File offset of the COFF string table, or 0 if the file has none. */
uint64_t pe_string_table_offset(const struct pe_info *pi);

/* Resolves a long name "/<n>" against the string table bytes st[0..len)
 * (including its 4-byte size field).  Writes the name into out.  Returns 0,
 * or -1 if the name is not a long name or out of bounds. */
int pe_long_name(const char *short_name, const uint8_t *st, size_t len, char *out, size_t n);

/* Length of section data in the file: min(VirtualSize, SizeOfRawData), or
 * SizeOfRawData when VirtualSize is 0 (object files). */
uint32_t pe_section_data_size(const struct pe_section *s);

#endif
