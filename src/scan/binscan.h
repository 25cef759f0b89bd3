/*
 * binscan: find GPU code in one binary while its bytes stream past.
 *
 * The binary (an ELF shared object or executable, a PE DLL, or a raw fatbin)
 * is pushed in chunks of any size, in order, exactly once; nothing is held
 * whole and memory stays bounded whatever the input.  binscan recognises
 * fatbin containers at 8-aligned offsets by their header (docs/formats.md 2.6),
 * walks their entries from the headers, decodes a few bytes of each payload
 * for cross-checks, reads the section table when it passes (ELF: at e_shoff,
 * usually at the end; PE: at the front) to label each container, and picks
 * up nvcc arch-flag strings such as libtorch's `-gencode;arch=...`.
 *
 * AMD GPU code is found beside it by hipscan (clang offload bundles, plain or
 * compressed, in `.hip_fatbin` or as whole files) and by the ELF header of a
 * bare AMDGPU code object; its modules and entries join the same result,
 * with gfx targets (TARGET_GFX) and `amd` set on the module.
 *
 * Lifecycle: binscan_new, binscan_feed (any number of times), binscan_finish,
 * then read binscan_result; binscan_free releases everything including the
 * result.  After an error every later call returns the same error.  The
 * result's types are in binscan_types.h.
 */
#ifndef WHEELARCH_BINSCAN_H
#define WHEELARCH_BINSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "binscan_types.h"
#include "error.h"

struct binscan;

/* `size` is the binary's total size, or BINSCAN_SIZE_UNKNOWN.  Caller frees
 * with binscan_free. */
struct binscan *binscan_new(uint64_t size);
void binscan_free(struct binscan *bs);

/* Pushes the next len bytes.  Returns 0 or a negative WA_ERR_* code. */
int binscan_feed(struct binscan *bs, const uint8_t *buf, size_t len, struct wa_error *err);

/* Declares the end of the binary, labels the modules and checks that every
 * structure ended inside it.  Returns 0 or a negative WA_ERR_* code. */
int binscan_finish(struct binscan *bs, struct wa_error *err);

/* The format recognised from the first bytes (PENDING before 4 bytes). */
int binscan_format(const struct binscan *bs);

/* The result; owned by bs, valid until binscan_free. */
const struct binscan_result *binscan_result(const struct binscan *bs);

/* "elf", "pe", "fatbin", "offload", "kpack", "unknown". */
const char *binscan_format_name(int format);
const char *binscan_class_name(int cls);

#endif
