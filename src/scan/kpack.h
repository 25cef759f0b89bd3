/*
 * kpack: AMD kernel archives (.kpack, from ROCm's rocm-kpack), read while
 * their bytes stream past.
 *
 * AMD's split ("multi-arch") ROCm wheels leave the GPU code out of the
 * host libraries and put it, one GPU target per package, in kernel
 * archives: amd_torch_device_gfx1100's torch/.kpack/torch_gfx1100.kpack
 * holds the gfx1100 code objects of libtorch_hip.so and the rest.  The
 * layout (docs/formats.md, "AMD kernel archives"):
 *
 *   "KPAK", u32 version, u64 offset of the table of contents (little-endian)
 *   kernel blobs, 64-byte aligned
 *   the table of contents, MessagePack: a map with gfx_arch_family,
 *   gfx_arches, compression_scheme ("none" or "zstd-per-kernel"), blobs
 *   (for "none": [{offset, size}] by ordinal) and toc: binary path ->
 *   gfx target -> {type, ordinal, original_size}.
 *
 * The table sits at the end; it is kept as it passes (up to
 * KPACK_MAX_TOC bytes).  Before it, the 64-byte header of each AMDGPU code
 * object that starts on a 64-byte boundary is kept (offset and e_flags),
 * so that an uncompressed archive's entries are checked against the code
 * objects themselves: the target the table names for a blob must be the
 * one its ELF header says.
 *
 * Lifecycle as hipscan's: new, feed (in order, once), finish, read, free.
 */
#ifndef WHEELARCH_KPACK_H
#define WHEELARCH_KPACK_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "target.h"

#define KPACK_MAGIC "KPAK"
#define KPACK_MAX_TOC (16u << 20)
#define KPACK_MAX_ENTRIES 65536
#define KPACK_MAX_HEADERS 262144

struct kpack_entry {
    char *binary;         /* owned: the host binary's path in the archive's tree */
    struct target target; /* the gfx target the table names */
    uint64_t ordinal;
    uint64_t offset, size; /* of its blob ("none"), else 0 */
    uint8_t inspected;     /* its code object's ELF header was read */
    uint8_t abi_version;
    uint32_t elf_flags;
};

struct kpack_result {
    uint32_t version; /* the header's */
    char family[64];  /* gfx_arch_family, "" when not given */
    int compressed;   /* compression_scheme is not "none" */
    char scheme[32];  /* compression_scheme */
    struct kpack_entry *entries;
    size_t nentries;
    char **warnings; /* owned */
    size_t nwarnings;
};

struct kpack;

/* size: the archive's size, or UINT64_MAX when unknown. */
struct kpack *kpack_new(uint64_t size);
void kpack_free(struct kpack *k);
/* Pushes buf[0..n), which starts at offset base of the archive. */
int kpack_feed(struct kpack *k, const uint8_t *buf, size_t n, uint64_t base, struct wa_error *err);
/* Reads the table of contents.  Errors (WA_ERR_FORMAT) name what is wrong:
 * a header that is not KPAK, a table outside the file or too large, a
 * table that is not the map described above. */
int kpack_finish(struct kpack *k, struct wa_error *err);
/* Owned by k. */
const struct kpack_result *kpack_result(const struct kpack *k);

#endif
