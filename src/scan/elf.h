/*
 * elf: ELF headers and section tables of host binaries, and the header of
 * CUDA cubins (docs/formats.md sections 3 and 4).
 *
 * Host binaries may be ELF32 or ELF64, little-endian; big-endian files are
 * reported as unsupported.  All functions are pure and bounds-checked.
 */
#ifndef WHEELARCH_ELF_H
#define WHEELARCH_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define ELF_EM_CUDA 190
#define ELF_EM_AMDGPU 224
#define ELF_ET_REL 1
#define ELF_ET_EXEC 2
#define ELF_ET_DYN 3
#define ELF_SHT_NOBITS 8

struct elf_header {
    uint8_t is64;
    uint8_t osabi;
    uint8_t abiversion;
    uint16_t type;
    uint16_t machine;
    uint32_t version;
    uint64_t shoff;
    uint32_t flags;
    uint16_t shentsize;
    uint32_t shnum;    /* 0 means "in section 0's sh_size" (see elf_fix_counts) */
    uint32_t shstrndx; /* 0xFFFF means "in section 0's sh_link" */
};

struct elf_section {
    uint32_t name; /* offset in the section-name string table */
    uint32_t type;
    uint64_t flags;
    uint64_t addr;
    uint64_t offset;
    uint64_t size;
    uint32_t link;
};

/* Bytes of an ELF header for the class given by byte 4 (52 or 64). */
#define ELF_HEADER_MAX 64

/* Parses the ELF identification and header from p[0..len).  Returns 0,
 * WA_ERR_TRUNCATED, WA_ERR_FORMAT (not ELF or inconsistent) or
 * WA_ERR_UNSUPPORTED (big-endian). */
int elf_parse_header(const uint8_t *p, size_t len, struct elf_header *h, struct wa_error *err);

/* Bytes the section header table takes (shnum * shentsize). */
uint64_t elf_section_table_size(const struct elf_header *h);

/* Parses section header i from the table bytes tab[0..len). */
int elf_parse_section(const uint8_t *tab, size_t len, const struct elf_header *h, uint32_t i,
                      struct elf_section *s, struct wa_error *err);

/* Applies the extended numbering of section 0 (e_shnum = 0, e_shstrndx =
 * 0xFFFF) once section 0 is known. */
void elf_fix_counts(struct elf_header *h, const struct elf_section *s0);

/* What a cubin's ELF header says (ABI 7: SM in e_flags bits 0-7, virtual SM
 * in bits 16-23, "a" = 0x800; ABI 8: SM in bits 8-15, nvlink stubs have top
 * byte 0x05). */
struct cubin_info {
    uint8_t abi; /* EI_ABIVERSION: 7 or 8 (others reported as is) */
    uint8_t osabi;
    uint16_t type;         /* ET_EXEC or ET_REL */
    uint32_t flags;        /* raw e_flags */
    uint16_t sm;           /* SASS architecture from e_flags */
    uint16_t virtual_sm;   /* ABI 7 only; 0 otherwise */
    uint8_t arch_specific; /* ABI 7 0x800 with SM >= 90 */
    uint8_t nvlink_stub;   /* ABI 8 e_flags top byte 0x05 */
    uint32_t toolkit;      /* ABI 7 e_version (toolkit x 10); 0 for ABI 8 */
};

/* Reads a cubin header from p[0..len).  Returns 0, or WA_ERR_FORMAT when it
 * is not a 64-bit little-endian EM_CUDA ELF. */
int elf_cubin_info(const uint8_t *p, size_t len, struct cubin_info *ci, struct wa_error *err);

#endif
