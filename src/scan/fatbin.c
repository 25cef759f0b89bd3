/*
 * fatbin: container and entry headers (docs/formats.md section 2).
 */
#include "fatbin.h"

#include "bytes.h"

int fatbin_parse_header(const uint8_t *p, size_t len, struct fatbin_header *h, struct wa_error *err)
{
    if (len < FATBIN_HEADER_SIZE)
        return wa_error_set(err, WA_ERR_TRUNCATED, "fatbin header needs 16 bytes, have %zu", len);
    if (rd32(p) != FATBIN_MAGIC)
        return wa_error_set(err, WA_ERR_FORMAT, "no fatbin magic");
    h->version = rd16(p + 4);
    h->header_size = rd16(p + 6);
    h->fat_size = rd64(p + 8);
    if (h->version != 1)
        return wa_error_set(err, WA_ERR_FORMAT, "fatbin version %u (expected 1)", h->version);
    if (h->header_size != FATBIN_HEADER_SIZE)
        return wa_error_set(err, WA_ERR_FORMAT, "fatbin header size %u (expected 16)",
                            h->header_size);
    if (h->fat_size < FATBIN_ENTRY_MIN_HEADER)
        return wa_error_set(err, WA_ERR_FORMAT, "fatbin size %llu is too small for an entry",
                            (unsigned long long)h->fat_size);
    return 0;
}

int fatbin_parse_entry(const uint8_t *p, size_t len, struct fatbin_entry *e, struct wa_error *err)
{
    if (len < FATBIN_ENTRY_MIN_HEADER)
        return wa_error_set(err, WA_ERR_TRUNCATED, "fatbin entry header needs 64 bytes, have %zu",
                            len);
    e->kind = rd16(p);
    e->version = rd16(p + 2);
    e->header_size = rd32(p + 4);
    e->padded_size = rd64(p + 8);
    e->compressed_size = rd32(p + 0x10);
    e->options_offset = rd32(p + 0x14);
    e->code_minor = rd16(p + 0x18);
    e->code_major = rd16(p + 0x1A);
    e->arch = rd32(p + 0x1C);
    e->ident_offset = rd32(p + 0x20);
    e->ident_size = rd32(p + 0x24);
    e->flags = rd64(p + 0x28);
    e->uncompressed_size = rd64(p + 0x38);

    if (e->version != FATBIN_ENTRY_VERSION)
        return wa_error_set(err, WA_ERR_FORMAT, "entry version 0x%04x (expected 0x0101)",
                            e->version);
    if (e->kind == 0 || e->kind > 64)
        return wa_error_set(err, WA_ERR_FORMAT, "entry kind %u", e->kind);
    if (e->header_size < FATBIN_ENTRY_MIN_HEADER || e->header_size > FATBIN_ENTRY_MAX_HEADER ||
        e->header_size % 8 != 0)
        return wa_error_set(err, WA_ERR_FORMAT, "entry header size 0x%x", e->header_size);
    if (e->padded_size % 8 != 0)
        return wa_error_set(err, WA_ERR_FORMAT, "entry payload size %llu is not a multiple of 8",
                            (unsigned long long)e->padded_size);
    if (e->compressed_size > e->padded_size)
        return wa_error_set(err, WA_ERR_FORMAT,
                            "entry compressed size %u exceeds its payload size %llu",
                            e->compressed_size, (unsigned long long)e->padded_size);
    uint64_t codec_bits = e->flags & FATBIN_FLAG_CODEC_MASK;
    if (codec_bits & (codec_bits - 1))
        return wa_error_set(err, WA_ERR_FORMAT, "entry flags 0x%llx name several codecs",
                            (unsigned long long)e->flags);
    if ((codec_bits != 0) != (e->compressed_size != 0))
        return wa_error_set(err, WA_ERR_FORMAT,
                            "entry compressed size %u disagrees with its flags 0x%llx",
                            e->compressed_size, (unsigned long long)e->flags);
    if (codec_bits && e->uncompressed_size > FATBIN_MAX_UNCOMPRESSED)
        return wa_error_set(err, WA_ERR_FORMAT, "entry uncompressed size %llu is implausible",
                            (unsigned long long)e->uncompressed_size);
    return 0;
}

int fatbin_entry_codec(const struct fatbin_entry *e)
{
    switch (e->flags & FATBIN_FLAG_CODEC_MASK) {
    case FATBIN_FLAG_ZLIB:
        return FATBIN_CODEC_ZLIB;
    case FATBIN_FLAG_LZ4:
        return FATBIN_CODEC_LZ4;
    case FATBIN_FLAG_LZ4FRAME:
        return FATBIN_CODEC_LZ4FRAME;
    case FATBIN_FLAG_ZSTD:
        return FATBIN_CODEC_ZSTD;
    default:
        return FATBIN_CODEC_NONE;
    }
}

const char *fatbin_codec_name(int codec)
{
    static const char *const names[FATBIN_CODEC_COUNT] = {"none", "zlib", "lz4", "lz4frame",
                                                          "zstd"};
    return codec >= 0 && codec < FATBIN_CODEC_COUNT ? names[codec] : "unknown";
}

int fatbin_entry_target(const struct fatbin_entry *e, struct target *t)
{
    switch (e->kind) {
    case FATBIN_KIND_PTX:
        t->kind = TARGET_PTX;
        break;
    case FATBIN_KIND_ELF:
        t->kind = TARGET_SASS;
        break;
    case FATBIN_KIND_NVVM:
        t->kind = TARGET_LTO;
        break;
    default:
        return -1;
    }
    if (e->arch == 0 || e->arch > 65535)
        return -1;
    t->arch = (uint16_t)e->arch;
    /* The "a" flag wins if both are ever set: it is the stricter rule. */
    if (e->flags & FATBIN_FLAG_ARCH_SPECIFIC)
        t->suffix = 'a';
    else if (e->flags & FATBIN_FLAG_FAMILY)
        t->suffix = 'f';
    else
        t->suffix = 0;
    return 0;
}

static int span(const uint8_t *hdr, size_t len, uint64_t off, uint64_t size, const uint8_t **s,
                size_t *n)
{
    if (off == 0 || off >= len || size > len - off)
        return -1;
    size_t m = (size_t)size;
    while (m > 0 && hdr[off + m - 1] == 0)
        m--;
    if (m == 0)
        return -1;
    *s = hdr + off;
    *n = m;
    return 0;
}

int fatbin_entry_identifier(const uint8_t *hdr, size_t len, const struct fatbin_entry *e,
                            const uint8_t **s, size_t *n)
{
    return span(hdr, len, e->ident_offset, e->ident_size, s, n);
}

int fatbin_entry_options(const uint8_t *hdr, size_t len, const struct fatbin_entry *e,
                         const uint8_t **s, size_t *n)
{
    uint64_t d = e->options_offset;
    if (d == 0 || d >= len || len - d < 8)
        return -1;
    return span(hdr, len, rd32(hdr + d), rd32(hdr + d + 4), s, n);
}
