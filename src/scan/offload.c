/*
 * offload: clang offload bundles, compressed bundles and AMDGPU code object
 * headers, read from memory with every length checked.
 */
#include "offload.h"

#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "xalloc.h"

/* EF_AMDGPU_MACH values (LLVM's BinaryFormat/ELF.h, AMDGPUUsage's
 * processor table): index = MACH. */
static const char *const mach_names[] = {
    [0x20] = "gfx600",          [0x21] = "gfx601",          [0x22] = "gfx700",
    [0x23] = "gfx701",          [0x24] = "gfx702",          [0x25] = "gfx703",
    [0x26] = "gfx704",          [0x28] = "gfx801",          [0x29] = "gfx802",
    [0x2a] = "gfx803",          [0x2b] = "gfx810",          [0x2c] = "gfx900",
    [0x2d] = "gfx902",          [0x2e] = "gfx904",          [0x2f] = "gfx906",
    [0x30] = "gfx908",          [0x31] = "gfx909",          [0x32] = "gfx90c",
    [0x33] = "gfx1010",         [0x34] = "gfx1011",         [0x35] = "gfx1012",
    [0x36] = "gfx1030",         [0x37] = "gfx1031",         [0x38] = "gfx1032",
    [0x39] = "gfx1033",         [0x3a] = "gfx602",          [0x3b] = "gfx705",
    [0x3c] = "gfx805",          [0x3d] = "gfx1035",         [0x3e] = "gfx1034",
    [0x3f] = "gfx90a",          [0x40] = "gfx940",          [0x41] = "gfx1100",
    [0x42] = "gfx1013",         [0x43] = "gfx1150",         [0x44] = "gfx1103",
    [0x45] = "gfx1036",         [0x46] = "gfx1101",         [0x47] = "gfx1102",
    [0x48] = "gfx1200",         [0x49] = "gfx1250",         [0x4a] = "gfx1151",
    [0x4b] = "gfx941",          [0x4c] = "gfx942",          [0x4e] = "gfx1201",
    [0x4f] = "gfx950",          [0x50] = "gfx1310",         [0x51] = "gfx9-generic",
    [0x52] = "gfx10-1-generic", [0x53] = "gfx10-3-generic", [0x54] = "gfx11-generic",
    [0x55] = "gfx1152",         [0x57] = "gfx1154",         [0x58] = "gfx1153",
    [0x59] = "gfx12-generic",   [0x5a] = "gfx1251",         [0x5b] = "gfx12-5-generic",
    [0x5c] = "gfx1172",         [0x5d] = "gfx1170",         [0x5e] = "gfx1171",
    [0x5f] = "gfx9-4-generic",  [0x62] = "gfx11-7-generic", [0x63] = "gfx13-generic",
};

const char *offload_mach_name(unsigned mach)
{
    return mach < sizeof mach_names / sizeof mach_names[0] ? mach_names[mach] : NULL;
}

int offload_bundle_table_resume(const uint8_t *buf, size_t n, uint64_t limit,
                                struct offload_table_scan *sc, struct offload_entry **entries,
                                size_t *nentries, size_t *table_size, size_t *need,
                                struct wa_error *err)
{
    *entries = NULL;
    *nentries = 0;
    *need = OFFLOAD_MAGIC_LEN + 8;
    if (n < *need)
        return 1;
    if (memcmp(buf, OFFLOAD_MAGIC, OFFLOAD_MAGIC_LEN) != 0)
        return wa_error_set(err, WA_ERR_FORMAT, "not an offload bundle");
    uint64_t count = rd64(buf + OFFLOAD_MAGIC_LEN);
    if (count == 0 || count > OFFLOAD_MAX_ENTRIES)
        return wa_error_set(err, WA_ERR_FORMAT, "offload bundle with %llu entries",
                            (unsigned long long)count);
    /* Check the whole table before allocating, and each entry once: a
     * streaming caller asks again each time a few more bytes arrive. */
    if (sc->pos < OFFLOAD_MAGIC_LEN + 8 || sc->pos > n || sc->index > count) {
        sc->pos = OFFLOAD_MAGIC_LEN + 8;
        sc->index = 0;
    }
    for (; sc->index < count; sc->index++) {
        size_t pos = sc->pos;
        uint64_t i = sc->index;
        if (n - pos < 24) {
            *need = pos + 24;
            return 1;
        }
        uint64_t off = rd64(buf + pos), size = rd64(buf + pos + 8), idlen = rd64(buf + pos + 16);
        if (idlen == 0 || idlen > OFFLOAD_MAX_ID)
            return wa_error_set(err, WA_ERR_FORMAT, "offload bundle entry %llu: id of %llu bytes",
                                (unsigned long long)i, (unsigned long long)idlen);
        if (size && (off < OFFLOAD_MAGIC_LEN + 8 || off > limit || size > limit - off))
            return wa_error_set(err, WA_ERR_FORMAT,
                                "offload bundle entry %llu: %llu bytes at %llu overrun the bundle",
                                (unsigned long long)i, (unsigned long long)size,
                                (unsigned long long)off);
        if (n - pos - 24 < idlen) {
            *need = pos + 24 + (size_t)idlen;
            return 1;
        }
        if (memchr(buf + pos + 24, '\0', (size_t)idlen))
            return wa_error_set(err, WA_ERR_FORMAT, "offload bundle entry %llu: NUL in its id",
                                (unsigned long long)i);
        sc->pos = pos + 24 + (size_t)idlen;
    }
    /* Code objects lie after the table. */
    size_t end = sc->pos, pos = OFFLOAD_MAGIC_LEN + 8;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t off = rd64(buf + pos), size = rd64(buf + pos + 8);
        if (size && off < end)
            return wa_error_set(err, WA_ERR_FORMAT, "offload bundle entry %llu overlaps the table",
                                (unsigned long long)i);
        pos += 24 + (size_t)rd64(buf + pos + 16);
    }
    struct offload_entry *e = xcalloc((size_t)count, sizeof *e);
    pos = OFFLOAD_MAGIC_LEN + 8;
    for (size_t i = 0; i < (size_t)count; i++) {
        size_t idlen = (size_t)rd64(buf + pos + 16);
        e[i].offset = rd64(buf + pos);
        e[i].size = rd64(buf + pos + 8);
        memcpy(e[i].id, buf + pos + 24, idlen);
        e[i].id[idlen] = '\0';
        pos += 24 + idlen;
    }
    *entries = e;
    *nentries = (size_t)count;
    *table_size = end;
    *need = end;
    return 0;
}

int offload_bundle_table(const uint8_t *buf, size_t n, uint64_t limit,
                         struct offload_entry **entries, size_t *nentries, size_t *table_size,
                         size_t *need, struct wa_error *err)
{
    struct offload_table_scan sc = {0, 0};
    return offload_bundle_table_resume(buf, n, limit, &sc, entries, nentries, table_size, need,
                                       err);
}

int offload_ccob_header(const uint8_t *buf, size_t n, uint64_t limit, struct offload_ccob *h,
                        size_t *need, struct wa_error *err)
{
    memset(h, 0, sizeof *h);
    *need = 8;
    if (n < 8)
        return 1;
    if (memcmp(buf, OFFLOAD_CCOB_MAGIC, 4) != 0)
        return wa_error_set(err, WA_ERR_FORMAT, "not a compressed bundle");
    h->version = rd16(buf + 4);
    h->method = rd16(buf + 6);
    static const size_t sizes[] = {0, 20, 24, 32};
    if (h->version < 1 || h->version > 3)
        return wa_error_set(err, WA_ERR_FORMAT, "compressed bundle version %u", h->version);
    if (h->method != OFFLOAD_ZLIB && h->method != OFFLOAD_ZSTD)
        return wa_error_set(err, WA_ERR_FORMAT, "compressed bundle method %u", h->method);
    h->header_size = sizes[h->version];
    *need = h->header_size;
    if (n < h->header_size)
        return 1;
    switch (h->version) {
    case 1:
        h->uncompressed_size = rd32(buf + 8);
        h->hash = rd64(buf + 12);
        break;
    case 2:
        h->total_size = rd32(buf + 8);
        h->uncompressed_size = rd32(buf + 12);
        h->hash = rd64(buf + 16);
        break;
    default:
        h->total_size = rd64(buf + 8);
        h->uncompressed_size = rd64(buf + 16);
        h->hash = rd64(buf + 24);
        break;
    }
    if (h->uncompressed_size < OFFLOAD_MAGIC_LEN + 8 + 24 ||
        h->uncompressed_size > OFFLOAD_MAX_INFLATED)
        return wa_error_set(err, WA_ERR_FORMAT, "compressed bundle of %llu bytes inflated",
                            (unsigned long long)h->uncompressed_size);
    if (h->version > 1 && (h->total_size <= h->header_size || h->total_size > limit))
        return wa_error_set(err, WA_ERR_FORMAT, "compressed bundle of %llu bytes (%llu available)",
                            (unsigned long long)h->total_size, (unsigned long long)limit);
    return 0;
}

int offload_parse_id(const char *id, struct target *t)
{
    /* <kind>-<arch>-<vendor>-<os>-<env>-<target id>: the triple has four
     * parts (the environment may be empty, hence "--"). */
    const char *p = strchr(id, '-');
    if (!p || p == id)
        return WA_ERR_FORMAT;
    const char *triple = p + 1;
    const char *q = triple;
    const char *target = NULL;
    for (int i = 0; i < 4; i++) {
        if (i == 3 && strncmp(q, "gfx", 3) == 0) {
            target = q; /* the older three-part form: hip-amdgcn-amd-amdhsa-gfx906 */
            break;
        }
        q = strchr(q, '-');
        if (!q)
            return i >= 2 ? 1 : WA_ERR_FORMAT; /* e.g. "host-x86_64-unknown-linux" */
        q++;
    }
    if (strncmp(triple, "amdgcn-", 7) != 0)
        return 1;
    if (!target)
        target = q; /* after "<env>-" */
    if (*target == '\0')
        return WA_ERR_FORMAT;
    return target_parse(target, t) == 0 && t->kind == TARGET_GFX ? 0 : WA_ERR_FORMAT;
}

static uint8_t feature_v4(uint32_t bits)
{
    /* 0 unsupported, 1 any, 2 off, 3 on */
    return bits == 2 ? TARGET_FEAT_OFF : bits == 3 ? TARGET_FEAT_ON : TARGET_FEAT_ANY;
}

int offload_object_header(const uint8_t *buf, size_t n, struct offload_object *o)
{
    memset(o, 0, sizeof *o);
    if (n < 64)
        return 1;
    if (memcmp(buf,
               "\x7f"
               "ELF",
               4) != 0 ||
        buf[4] != 2 || buf[5] != 1 || rd16(buf + 18) != 224)
        return WA_ERR_FORMAT;
    o->osabi = buf[7];
    o->abi_version = buf[8];
    o->flags = rd32(buf + 48);
    o->mach = (uint16_t)(o->flags & 0xff);
    const char *name = offload_mach_name(o->mach);
    if (!name || target_parse(name, &o->target) != 0)
        return 0;
    o->has_target = 1;
    if (o->abi_version >= 2) { /* code object v4+: two-bit modes */
        o->target.xnack = feature_v4((o->flags >> 8) & 3);
        o->target.sramecc = feature_v4((o->flags >> 10) & 3);
        if (o->abi_version >= 4)
            o->generic_version = (uint8_t)(o->flags >> 24);
    } else if (o->abi_version == 1) { /* v3: booleans */
        o->target.xnack = (o->flags & 0x100) ? TARGET_FEAT_ON : TARGET_FEAT_ANY;
        o->target.sramecc = (o->flags & 0x200) ? TARGET_FEAT_ON : TARGET_FEAT_ANY;
    }
    return 0;
}
