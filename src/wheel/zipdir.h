/*
 * zipdir: the fixed structures of a zip archive (APPNOTE 6.3.x): end of
 * central directory (with ZIP64), central directory entries, local headers
 * and data descriptors.
 *
 * Pure, bounds-checked parsers over byte spans; the streaming logic that
 * uses them is in zipstream.
 */
#ifndef WHEELARCH_ZIPDIR_H
#define WHEELARCH_ZIPDIR_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define ZIP_LOCAL_SIG 0x04034b50u
#define ZIP_CENTRAL_SIG 0x02014b50u
#define ZIP_EOCD_SIG 0x06054b50u
#define ZIP_EOCD64_SIG 0x06064b50u
#define ZIP_EOCD64_LOC_SIG 0x07064b50u
#define ZIP_DESCRIPTOR_SIG 0x08074b50u

#define ZIP_LOCAL_SIZE 30
#define ZIP_CENTRAL_SIZE 46
#define ZIP_EOCD_SIZE 22
#define ZIP_EOCD64_SIZE 56
#define ZIP_EOCD64_LOC_SIZE 20
/* The EOCD sits in the last 22 + 65535 bytes (its comment is at most 64 KiB). */
#define ZIP_TAIL_MAX (ZIP_EOCD_SIZE + 65535 + ZIP_EOCD64_LOC_SIZE)

#define ZIP_FLAG_ENCRYPTED 0x0001
#define ZIP_FLAG_DESCRIPTOR 0x0008

#define ZIP_METHOD_STORE 0
#define ZIP_METHOD_DEFLATE 8

/* Limits on what we accept from untrusted archives. */
#define ZIP_MAX_ENTRIES 1000000u
#define ZIP_MAX_CDIR (256u << 20)

struct zipdir_eocd {
    uint64_t cd_offset;
    uint64_t cd_size;
    uint64_t entries;
    uint64_t eocd_offset;   /* of the classic record */
    uint64_t eocd64_offset; /* of the ZIP64 record, if any (need_eocd64) */
    int need_eocd64;        /* parse the ZIP64 record with zipdir_parse_eocd64 */
};

struct zipdir_entry {
    char *name; /* NUL-terminated; owned by the array (zipdir_entries_free) */
    uint16_t name_len;
    uint16_t flags;
    uint16_t method;
    uint32_t crc;
    uint64_t csize;
    uint64_t usize;
    uint64_t lho; /* local header offset */
};

/* Finds the end-of-central-directory record in tail[0..len), the last len
 * bytes of a file of file_size bytes.  Returns 0, or WA_ERR_FORMAT when
 * there is none or it is inconsistent with the file size. */
int zipdir_find_eocd(const uint8_t *tail, size_t len, uint64_t file_size, struct zipdir_eocd *eocd,
                     struct wa_error *err);

/* Completes eocd from the 56-byte ZIP64 record at eocd->eocd64_offset. */
int zipdir_parse_eocd64(const uint8_t *p, size_t len, uint64_t file_size, struct zipdir_eocd *eocd,
                        struct wa_error *err);

/* Parses eocd->entries central directory entries from cd[0..len).  On
 * success *out is an array of *n entries sorted by local header offset,
 * freed with zipdir_entries_free.  Checks names (no NUL), sizes, offsets within
 * file_size and that local headers do not overlap. */
int zipdir_parse_cdir(const uint8_t *cd, size_t len, const struct zipdir_eocd *eocd,
                      uint64_t file_size, struct zipdir_entry **out, size_t *n,
                      struct wa_error *err);

void zipdir_entries_free(struct zipdir_entry *e, size_t n);

/* Reads bytes [off, off + len) of the archive for zipdir_read: sets *data
 * to them (valid until the next call) or returns an error. */
typedef int (*zipdir_fetch_fn)(void *ud, uint64_t off, uint64_t len, const uint8_t **data,
                               struct wa_error *err);

/* The one reader of a zip's end records and central directory, for a local
 * file and a remote one alike: tail[0..tail_len) holds the archive's bytes
 * from tail_start to its end (file_size); the ZIP64 record and the
 * directory are taken from it when they lie inside, else read with fetch.
 * On success *out holds *n entries as zipdir_parse_cdir gives them and
 * *eocd (may be NULL) the end records. */
int zipdir_read(const uint8_t *tail, size_t tail_len, uint64_t tail_start, uint64_t file_size,
                zipdir_fetch_fn fetch, void *ud, struct zipdir_eocd *eocd,
                struct zipdir_entry **out, size_t *n, struct wa_error *err);

/* A local file header.  `header_len` = 30 + name + extra. */
struct zipdir_local {
    uint16_t flags;
    uint16_t method;
    uint32_t crc;
    uint64_t csize;
    uint64_t usize;
    uint16_t name_len;
    uint16_t extra_len;
    uint32_t header_len;
    int zip64; /* sizes came from a ZIP64 extra field */
};

/* Parses the fixed 30 bytes of a local header (p[0..len), len >= 30). */
int zipdir_parse_local_fixed(const uint8_t *p, size_t len, struct zipdir_local *lh,
                             struct wa_error *err);

/* Applies the ZIP64 extra field found in extra[0..len) to lh. */
void zipdir_local_apply_extra(struct zipdir_local *lh, const uint8_t *extra, size_t len);

#endif
