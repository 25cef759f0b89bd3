/*
 * offload: AMD GPU code in clang offload bundles (docs/formats.md section 6).
 *
 * HIP binaries keep their device code in `.hip_fatbin`: one bundle per
 * translation unit, either plain (`__CLANG_OFFLOAD_BUNDLE__`, an entry table
 * of {offset, size, id} and the code objects) or compressed (`CCOB`: a small
 * header, then a zlib or zstd stream that inflates to a plain bundle).  An
 * entry id names the target: "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-".  The
 * code objects are AMDGPU ELF files whose e_flags repeat the processor and
 * the xnack/sramecc modes, which serves as a cross-check.
 *
 * Everything here works on bytes already in memory, with every length
 * checked against the buffer; the streaming (where a bundle starts, feeding
 * a decompressor as the bytes pass) is binscan's.  Returns: 0 done, 1 more
 * bytes needed (*need says how many in all), negative WA_ERR_* for bytes that
 * are not what they claim.
 */
#ifndef WHEELARCH_OFFLOAD_H
#define WHEELARCH_OFFLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "target.h"

#define OFFLOAD_MAGIC "__CLANG_OFFLOAD_BUNDLE__"
#define OFFLOAD_MAGIC_LEN 24
#define OFFLOAD_CCOB_MAGIC "CCOB"
#define OFFLOAD_MAX_ENTRIES 1024
#define OFFLOAD_MAX_ID 512
#define OFFLOAD_MAX_TABLE (OFFLOAD_MAGIC_LEN + 8 + OFFLOAD_MAX_ENTRIES * (24 + 128))
/* The most a compressed bundle may claim to inflate to: far above any real
 * one, and low enough that entry sizes bounded by it can be summed. */
#define OFFLOAD_MAX_INFLATED (1ull << 40)

struct offload_entry {
    uint64_t offset; /* from the start of the bundle */
    uint64_t size;
    char id[OFFLOAD_MAX_ID + 1];
};

/* The entry table of a plain bundle at buf[0..n).  `limit` is the most the
 * bundle can span (the bytes left in its section or file), or UINT64_MAX.
 * On 0, *entries (caller frees) and *nentries are set and *table_size is the
 * length of magic + count + table. */
int offload_bundle_table(const uint8_t *buf, size_t n, uint64_t limit,
                         struct offload_entry **entries, size_t *nentries, size_t *table_size,
                         size_t *need, struct wa_error *err);

/* Where offload_bundle_table_resume stopped checking entries; zero it for
 * each new table. */
struct offload_table_scan {
    size_t pos;     /* bytes of the table checked */
    uint64_t index; /* entries checked */
};

/* offload_bundle_table for a caller that asks again each time a few more
 * bytes of the same table (and the same limit) arrive: the entries already
 * checked are not checked again, so a table costs time linear in its size
 * however it is cut. */
int offload_bundle_table_resume(const uint8_t *buf, size_t n, uint64_t limit,
                                struct offload_table_scan *sc, struct offload_entry **entries,
                                size_t *nentries, size_t *table_size, size_t *need,
                                struct wa_error *err);

enum offload_method { OFFLOAD_ZLIB = 0, OFFLOAD_ZSTD = 1 };

struct offload_ccob {
    uint16_t version;           /* 1, 2 or 3 */
    uint16_t method;            /* enum offload_method */
    uint64_t total_size;        /* header + compressed stream; 0 when unknown (v1) */
    uint64_t uncompressed_size; /* of the plain bundle */
    uint64_t hash;              /* truncated MD5 of the plain bundle */
    size_t header_size;         /* 20, 24 or 32 */
};

/* The header of a compressed bundle at buf[0..n).  Refuses an inflated size
 * below a minimal bundle or above OFFLOAD_MAX_INFLATED, and (v2, v3) a total
 * size beyond `limit`. */
int offload_ccob_header(const uint8_t *buf, size_t n, uint64_t limit, struct offload_ccob *h,
                        size_t *need, struct wa_error *err);

/* Reads an entry id.  Returns 0 with *t set for an AMDGPU code object
 * ("hip-", "hipv4-", "openmp-" ... "amdgcn-amd-amdhsa--<target id>"), 1 for
 * the host entry or another triple (not GPU code we judge), or WA_ERR_FORMAT
 * for an id that is not "<kind>-<triple>--<target>" at all. */
int offload_parse_id(const char *id, struct target *t);

/* What an AMDGPU code object's ELF header says (first 64 bytes). */
struct offload_object {
    uint8_t abi_version; /* EI_ABIVERSION: 0..4 = code object v2..v6 */
    uint8_t osabi;       /* 64 HSA, 65 PAL, 66 Mesa */
    uint32_t flags;      /* e_flags */
    uint16_t mach;       /* e_flags & 0xff */
    uint8_t generic_version;
    struct target target; /* processor and the feature modes of the code */
    int has_target;       /* the MACH value is known */
};

/* Reads the header of an AMDGPU code object (EM_AMDGPU, ELF64 little-endian).
 * Returns 0, 1 if fewer than 64 bytes are given, WA_ERR_FORMAT otherwise. */
int offload_object_header(const uint8_t *buf, size_t n, struct offload_object *o);

/* The processor name of an EF_AMDGPU_MACH value, or NULL. */
const char *offload_mach_name(unsigned mach);

#endif
