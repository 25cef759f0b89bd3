/*
 * hipscan: find AMD GPU code (clang offload bundles) in one binary while its
 * bytes stream past; binscan runs it beside the CUDA walker.
 *
 * Bundles are recognised at 8-aligned offsets by their magic and validated
 * by their entry table (plain) or header (CCOB).  A plain bundle's table is
 * read as it passes, and the first 64 bytes of each code object are kept
 * for the e_flags cross-check.  A compressed bundle is inflated as its bytes
 * pass (zlib through ISA-L, zstd through a zstd stream), only as far as the
 * table and the code object headers need, with bounded memory; the rest of
 * its bytes are skipped.
 *
 * Lifecycle as binscan's: new, feed (in order, once), finish, read, free.
 */
#ifndef WHEELARCH_HIPSCAN_H
#define WHEELARCH_HIPSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "target.h"

#define HIPSCAN_MAX_BUNDLES 65536
#define HIPSCAN_MAX_ENTRIES 262144

struct hipscan_bundle {
    uint64_t offset; /* in the binary */
    uint64_t size;   /* bytes it spans in the binary (0 when unknown) */
    uint8_t compressed;
    uint8_t method;   /* enum offload_method when compressed */
    uint16_t version; /* CCOB version when compressed */
    uint64_t uncompressed_size;
    size_t first_entry;
    size_t nentries;
};

struct hipscan_entry {
    struct target target; /* from the entry id */
    uint64_t offset;      /* in the (inflated) bundle */
    uint64_t size;
    uint8_t inspected;   /* the code object header was read */
    uint8_t abi_version; /* EI_ABIVERSION of the code object */
    uint32_t elf_flags;
};

struct hipscan_reject {
    uint64_t offset;
    char why[160];
};

struct hipscan_result {
    struct hipscan_bundle *bundles;
    size_t nbundles;
    struct hipscan_entry *entries;
    size_t nentries;
    char **warnings;
    size_t nwarnings;
    struct hipscan_reject *rejects; /* candidates that were not bundles */
    size_t nrejects;
};

struct hipscan;

/* size: the binary's size, or UINT64_MAX when unknown. */
struct hipscan *hipscan_new(uint64_t size);
void hipscan_free(struct hipscan *h);

/* Pushes buf[0..n), which starts at offset `base` of the binary. */
int hipscan_feed(struct hipscan *h, const uint8_t *buf, size_t n, uint64_t base,
                 struct wa_error *err);
int hipscan_finish(struct hipscan *h, struct wa_error *err);

/* Owned by h. */
const struct hipscan_result *hipscan_result(const struct hipscan *h);

#endif
