/*
 * fatbin: NVIDIA fat binary containers and their entries, from header bytes.
 *
 * Layouts are in docs/formats.md (fatbin containers and entries).  A container is
 * a 16-byte header followed by entries; each entry is a header (0x40 bytes or
 * more) and a payload padded to 8 bytes.  Everything this module reports
 * (kind, architecture, a/f suffix, PTX ISA, codec, sizes) comes from headers:
 * no payload is decompressed here.  All functions are pure and bounds-checked.
 */
#ifndef WHEELARCH_FATBIN_H
#define WHEELARCH_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "target.h"

#define FATBIN_MAGIC 0xBA55ED50u /* bytes 50 ED 55 BA */
#define FATBIN_HEADER_SIZE 16
#define FATBIN_ENTRY_MIN_HEADER 0x40
#define FATBIN_ENTRY_MAX_HEADER 0x400
#define FATBIN_ENTRY_VERSION 0x0101
/* The most a compressed entry may claim to inflate to: far above any real
 * payload, and low enough that sizes of many entries can be summed. */
#define FATBIN_MAX_UNCOMPRESSED (1ull << 40)

enum fatbin_kind {
    FATBIN_KIND_PTX = 1,
    FATBIN_KIND_ELF = 2,
    FATBIN_KIND_OLDCUBIN = 4,
    FATBIN_KIND_NVVM = 8, /* LTO-IR */
};

#define FATBIN_FLAG_64BIT 0x1ull
#define FATBIN_FLAG_DEBUG 0x2ull
#define FATBIN_FLAG_HOST_LINUX 0x10ull
#define FATBIN_FLAG_HOST_MAC 0x20ull
#define FATBIN_FLAG_HOST_WINDOWS 0x40ull
#define FATBIN_FLAG_ZLIB 0x1000ull
#define FATBIN_FLAG_LZ4 0x2000ull
#define FATBIN_FLAG_LZ4FRAME 0x4000ull
#define FATBIN_FLAG_ZSTD 0x8000ull
#define FATBIN_FLAG_CODEC_MASK 0xF000ull
#define FATBIN_FLAG_OBFUSCATED 0x10000ull
#define FATBIN_FLAG_ARCH_SPECIFIC 0x100000ull /* "a" */
#define FATBIN_FLAG_FAMILY 0x200000ull        /* "f" */

enum fatbin_codec {
    FATBIN_CODEC_NONE = 0,
    FATBIN_CODEC_ZLIB,
    FATBIN_CODEC_LZ4,
    FATBIN_CODEC_LZ4FRAME,
    FATBIN_CODEC_ZSTD,
    FATBIN_CODEC_COUNT
};

struct fatbin_header {
    uint16_t version;
    uint16_t header_size;
    uint64_t fat_size; /* bytes of entries after the header */
};

struct fatbin_entry {
    uint16_t kind;
    uint16_t version;
    uint32_t header_size;
    uint64_t padded_size;     /* payload bytes, a multiple of 8 */
    uint32_t compressed_size; /* 0 when not compressed */
    uint32_t options_offset;  /* from entry start; 0 = none */
    uint16_t code_minor;      /* PTX: ISA minor; ELF: cubin ABI */
    uint16_t code_major;      /* PTX: ISA major; ELF: 1 */
    uint32_t arch;            /* decimal SM number */
    uint32_t ident_offset;    /* from entry start; 0 = none */
    uint32_t ident_size;
    uint64_t flags;
    uint64_t uncompressed_size; /* 0 when not compressed */
};

/* Parses a container header from p[0..len).  Checks the magic, version 1,
 * header size 16 and a non-zero fat size.  Returns 0, WA_ERR_TRUNCATED when
 * len < 16, or WA_ERR_FORMAT. */
int fatbin_parse_header(const uint8_t *p, size_t len, struct fatbin_header *h,
                        struct wa_error *err);

/* Parses the fixed 0x40 bytes of an entry header and checks them: entry
 * version 0x0101, header size in [0x40, 0x400] and a multiple of 8, padded
 * size a multiple of 8, compressed size within the padded size, at most one
 * codec bit, a codec bit exactly when compressed, an uncompressed size of at
 * most FATBIN_MAX_UNCOMPRESSED.  Returns 0,
 * WA_ERR_TRUNCATED (len < 0x40) or WA_ERR_FORMAT. */
int fatbin_parse_entry(const uint8_t *p, size_t len, struct fatbin_entry *e, struct wa_error *err);

/* The codec of an entry (enum fatbin_codec). */
int fatbin_entry_codec(const struct fatbin_entry *e);

/* "none", "zlib", "lz4", "lz4frame", "zstd". */
const char *fatbin_codec_name(int codec);

/* Maps the entry kind to a target kind; returns -1 for kinds that are not
 * GPU code targets (old cubins, unknown kinds). */
int fatbin_entry_target(const struct fatbin_entry *e, struct target *t);

/* Finds the identifier or the option string inside the entry header bytes
 * hdr[0..len) (len = header size).  Sets *s and *n to a span inside hdr with
 * trailing NULs removed; returns 0, or -1 when absent or out of bounds. */
int fatbin_entry_identifier(const uint8_t *hdr, size_t len, const struct fatbin_entry *e,
                            const uint8_t **s, size_t *n);
int fatbin_entry_options(const uint8_t *hdr, size_t len, const struct fatbin_entry *e,
                         const uint8_t **s, size_t *n);

#endif
