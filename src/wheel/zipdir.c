/*
 * zipdir: zip archive records.
 */
#include "zipdir.h"

#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "xalloc.h"

int zipdir_find_eocd(const uint8_t *tail, size_t len, uint64_t file_size, struct zipdir_eocd *eocd,
                     struct wa_error *err)
{
    memset(eocd, 0, sizeof *eocd);
    if (len < ZIP_EOCD_SIZE || len > file_size)
        return wa_error_set(err, WA_ERR_FORMAT, "too short to be a zip archive");
    uint64_t tail_off = file_size - len;
    /* Search backwards: the record with a comment length that reaches the
     * end of the file exactly is the real one. */
    for (size_t i = len - ZIP_EOCD_SIZE + 1; i-- > 0;) {
        const uint8_t *p = tail + i;
        if (rd32(p) != ZIP_EOCD_SIG)
            continue;
        uint16_t comment = rd16(p + 20);
        if (i + ZIP_EOCD_SIZE + comment != len)
            continue;
        uint16_t disk = rd16(p + 4), cd_disk = rd16(p + 6);
        uint16_t n_here = rd16(p + 8), n_total = rd16(p + 10);
        uint32_t cd_size = rd32(p + 12), cd_off = rd32(p + 16);
        if (disk != 0 && disk != 0xFFFF)
            return wa_error_set(err, WA_ERR_UNSUPPORTED,
                                "multi-disk zip archives are not supported");
        (void)cd_disk;
        eocd->eocd_offset = tail_off + i;
        eocd->entries = n_total;
        eocd->cd_size = cd_size;
        eocd->cd_offset = cd_off;
        if (n_here != n_total && n_total != 0xFFFF)
            return wa_error_set(err, WA_ERR_UNSUPPORTED,
                                "multi-disk zip archives are not supported");
        if (n_total == 0xFFFF || cd_size == 0xFFFFFFFFu || cd_off == 0xFFFFFFFFu) {
            if (i < ZIP_EOCD64_LOC_SIZE || rd32(p - ZIP_EOCD64_LOC_SIZE) != ZIP_EOCD64_LOC_SIG)
                return wa_error_set(err, WA_ERR_FORMAT, "ZIP64 end record locator missing");
            eocd->eocd64_offset = rd64(p - ZIP_EOCD64_LOC_SIZE + 8);
            eocd->need_eocd64 = 1;
            /* The ZIP64 record (56 bytes at least) ends where its locator
             * starts.  Compared by subtraction: the offset is the file's
             * word and may be anything up to 2^64 - 1. */
            uint64_t loc_off = eocd->eocd_offset - ZIP_EOCD64_LOC_SIZE; /* i >= 20: no wrap */
            if (loc_off < ZIP_EOCD64_SIZE || eocd->eocd64_offset > loc_off - ZIP_EOCD64_SIZE)
                return wa_error_set(err, WA_ERR_FORMAT,
                                    "ZIP64 end record offset %llu is out of range (the record "
                                    "must end before byte %llu)",
                                    (unsigned long long)eocd->eocd64_offset,
                                    (unsigned long long)loc_off);
            return 0;
        }
        if (eocd->cd_offset > eocd->eocd_offset ||
            eocd->cd_size > eocd->eocd_offset - eocd->cd_offset)
            return wa_error_set(err, WA_ERR_FORMAT,
                                "central directory (offset %llu, %llu bytes) overlaps its end "
                                "record at %llu",
                                (unsigned long long)eocd->cd_offset,
                                (unsigned long long)eocd->cd_size,
                                (unsigned long long)eocd->eocd_offset);
        return 0;
    }
    return wa_error_set(err, WA_ERR_FORMAT, "no zip end of central directory record");
}

int zipdir_parse_eocd64(const uint8_t *p, size_t len, uint64_t file_size, struct zipdir_eocd *eocd,
                        struct wa_error *err)
{
    (void)file_size;
    if (len < ZIP_EOCD64_SIZE || rd32(p) != ZIP_EOCD64_SIG)
        return wa_error_set(err, WA_ERR_FORMAT, "bad ZIP64 end of central directory record");
    uint32_t disk = rd32(p + 16);
    uint64_t n_here = rd64(p + 24);
    eocd->entries = rd64(p + 32);
    eocd->cd_size = rd64(p + 40);
    eocd->cd_offset = rd64(p + 48);
    eocd->need_eocd64 = 0;
    if (disk != 0 || n_here != eocd->entries)
        return wa_error_set(err, WA_ERR_UNSUPPORTED, "multi-disk zip archives are not supported");
    if (eocd->cd_offset > eocd->eocd64_offset ||
        eocd->cd_size > eocd->eocd64_offset - eocd->cd_offset)
        return wa_error_set(err, WA_ERR_FORMAT,
                            "ZIP64 central directory (offset %llu, %llu bytes) does not end "
                            "before its end record at %llu",
                            (unsigned long long)eocd->cd_offset, (unsigned long long)eocd->cd_size,
                            (unsigned long long)eocd->eocd64_offset);
    return 0;
}

void zipdir_entries_free(struct zipdir_entry *e, size_t n)
{
    if (!e)
        return;
    for (size_t i = 0; i < n; i++)
        free(e[i].name);
    free(e);
}

/* Reads the ZIP64 extended information extra field (id 1): the 8-byte
 * values present are those whose 32-bit field is 0xFFFFFFFF, in the order
 * usize, csize, lho. */
static void apply_zip64(const uint8_t *x, size_t len, uint64_t *usize, uint64_t *csize,
                        uint64_t *lho, int *found)
{
    size_t i = 0;
    while (i + 4 <= len) {
        uint16_t id = rd16(x + i), sz = rd16(x + i + 2);
        if (sz > len - i - 4)
            return;
        if (id == 1) {
            const uint8_t *q = x + i + 4;
            size_t k = 0;
            if (usize && *usize == 0xFFFFFFFFu && k + 8 <= sz) {
                *usize = rd64(q + k);
                k += 8;
            }
            if (csize && *csize == 0xFFFFFFFFu && k + 8 <= sz) {
                *csize = rd64(q + k);
                k += 8;
            }
            if (lho && *lho == 0xFFFFFFFFu && k + 8 <= sz)
                *lho = rd64(q + k);
            if (found)
                *found = 1;
            return;
        }
        i += 4 + (size_t)sz;
    }
}

static int cmp_lho(const void *a, const void *b)
{
    const struct zipdir_entry *x = a, *y = b;
    return x->lho < y->lho ? -1 : x->lho > y->lho;
}

int zipdir_parse_cdir(const uint8_t *cd, size_t len, const struct zipdir_eocd *eocd,
                      uint64_t file_size, struct zipdir_entry **out, size_t *n,
                      struct wa_error *err)
{
    *out = NULL;
    *n = 0;
    if (eocd->entries > ZIP_MAX_ENTRIES)
        return wa_error_set(err, WA_ERR_LIMIT, "zip archive claims %llu entries",
                            (unsigned long long)eocd->entries);
    if (eocd->entries > len / ZIP_CENTRAL_SIZE + 1)
        return wa_error_set(err, WA_ERR_FORMAT, "central directory too small for %llu entries",
                            (unsigned long long)eocd->entries);
    size_t count = (size_t)eocd->entries;
    char q1[160], q2[160]; /* member names in messages, escaped */
    struct zipdir_entry *e = xcalloc(count ? count : 1, sizeof *e);
    size_t off = 0, i;
    int rc = 0;
    for (i = 0; i < count; i++) {
        if (len - off < ZIP_CENTRAL_SIZE) {
            rc = wa_error_set(err, WA_ERR_TRUNCATED, "central directory entry %zu truncated", i);
            goto fail;
        }
        const uint8_t *p = cd + off;
        if (rd32(p) != ZIP_CENTRAL_SIG) {
            rc = wa_error_set(err, WA_ERR_FORMAT, "central directory entry %zu has a bad signature",
                              i);
            goto fail;
        }
        e[i].flags = rd16(p + 8);
        e[i].method = rd16(p + 10);
        e[i].crc = rd32(p + 16);
        e[i].csize = rd32(p + 20);
        e[i].usize = rd32(p + 24);
        uint16_t nlen = rd16(p + 28), xlen = rd16(p + 30), clen = rd16(p + 32);
        e[i].lho = rd32(p + 42);
        size_t rec = (size_t)ZIP_CENTRAL_SIZE + nlen + xlen + clen;
        if (rec > len - off) {
            rc = wa_error_set(err, WA_ERR_TRUNCATED, "central directory entry %zu truncated", i);
            goto fail;
        }
        if (nlen == 0 || memchr(p + ZIP_CENTRAL_SIZE, 0, nlen)) {
            rc = wa_error_set(err, WA_ERR_FORMAT, "central directory entry %zu has a bad name", i);
            goto fail;
        }
        e[i].name = xstrndup((const char *)p + ZIP_CENTRAL_SIZE, nlen);
        e[i].name_len = nlen;
        apply_zip64(p + ZIP_CENTRAL_SIZE + nlen, xlen, &e[i].usize, &e[i].csize, &e[i].lho, NULL);
        if (e[i].lho >= file_size || e[i].csize > file_size - e[i].lho) {
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s: data (offset %llu, %llu bytes) lies outside "
                              "the file",
                              wa_quote(q1, sizeof q1, e[i].name, 120), (unsigned long long)e[i].lho,
                              (unsigned long long)e[i].csize);
            i++;
            goto fail;
        }
        if (e[i].lho >= eocd->cd_offset) {
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s: local header offset %llu is not before the central "
                              "directory at %llu",
                              wa_quote(q1, sizeof q1, e[i].name, 120), (unsigned long long)e[i].lho,
                              (unsigned long long)eocd->cd_offset);
            i++;
            goto fail;
        }
        off += rec;
    }
    if (count > 1)
        qsort(e, count, sizeof *e, cmp_lho);
    for (i = 0; i < count; i++) {
        /* Sorted, so the gap is never negative; the member's header and
         * data must fit in it (compared without adding file-given sizes). */
        uint64_t gap = (i + 1 < count ? e[i + 1].lho : eocd->cd_offset) - e[i].lho;
        uint64_t header = (uint64_t)ZIP_LOCAL_SIZE + e[i].name_len;
        if (gap < header || e[i].csize > gap - header) {
            if (i + 1 < count)
                rc = wa_error_set(err, WA_ERR_FORMAT, "%s overlaps %s",
                                  wa_quote(q1, sizeof q1, e[i].name, 120),
                                  wa_quote(q2, sizeof q2, e[i + 1].name, 120));
            else
                rc = wa_error_set(err, WA_ERR_FORMAT, "%s overlaps the central directory",
                                  wa_quote(q1, sizeof q1, e[i].name, 120));
            i = count;
            goto fail;
        }
    }
    *out = e;
    *n = count;
    return 0;
fail:
    zipdir_entries_free(e, i < count ? i : count);
    return rc;
}

int zipdir_parse_local_fixed(const uint8_t *p, size_t len, struct zipdir_local *lh,
                             struct wa_error *err)
{
    memset(lh, 0, sizeof *lh);
    if (len < ZIP_LOCAL_SIZE)
        return wa_error_set(err, WA_ERR_TRUNCATED, "local header truncated");
    if (rd32(p) != ZIP_LOCAL_SIG)
        return wa_error_set(err, WA_ERR_FORMAT, "bad local header signature");
    lh->flags = rd16(p + 6);
    lh->method = rd16(p + 8);
    lh->crc = rd32(p + 14);
    lh->csize = rd32(p + 18);
    lh->usize = rd32(p + 22);
    lh->name_len = rd16(p + 26);
    lh->extra_len = rd16(p + 28);
    lh->header_len = (uint32_t)ZIP_LOCAL_SIZE + lh->name_len + lh->extra_len;
    return 0;
}

void zipdir_local_apply_extra(struct zipdir_local *lh, const uint8_t *extra, size_t len)
{
    apply_zip64(extra, len, &lh->usize, &lh->csize, NULL, &lh->zip64);
}

/* Bytes [off, off + len) from the tail when they lie inside it, else from
 * fetch.  The offsets come from the archive: compared by subtraction. */
static int bytes_at(const uint8_t *tail, size_t tail_len, uint64_t tail_start, uint64_t off,
                    uint64_t len, zipdir_fetch_fn fetch, void *ud, const uint8_t **data,
                    const char *what, struct wa_error *err)
{
    if (off >= tail_start) {
        uint64_t o = off - tail_start;
        if (o > tail_len || len > tail_len - o)
            return wa_error_set(err, WA_ERR_FORMAT, "%s (offset %llu, %llu bytes) is out of range",
                                what, (unsigned long long)off, (unsigned long long)len);
        *data = tail + o;
        return 0;
    }
    return fetch(ud, off, len, data, err);
}

int zipdir_read(const uint8_t *tail, size_t tail_len, uint64_t tail_start, uint64_t file_size,
                zipdir_fetch_fn fetch, void *ud, struct zipdir_eocd *eocd_out,
                struct zipdir_entry **out, size_t *n, struct wa_error *err)
{
    *out = NULL;
    *n = 0;
    struct zipdir_eocd eocd;
    int rc = zipdir_find_eocd(tail, tail_len, file_size, &eocd, err);
    const uint8_t *p = NULL;
    if (rc == 0 && eocd.need_eocd64) {
        rc = bytes_at(tail, tail_len, tail_start, eocd.eocd64_offset, ZIP_EOCD64_SIZE, fetch, ud,
                      &p, "ZIP64 end record", err);
        if (rc == 0)
            rc = zipdir_parse_eocd64(p, ZIP_EOCD64_SIZE, file_size, &eocd, err);
    }
    if (rc == 0 && eocd.cd_size > ZIP_MAX_CDIR)
        rc = wa_error_set(err, WA_ERR_LIMIT, "central directory of %llu bytes is too large",
                          (unsigned long long)eocd.cd_size);
    if (rc == 0)
        rc = bytes_at(tail, tail_len, tail_start, eocd.cd_offset, eocd.cd_size, fetch, ud, &p,
                      "central directory", err);
    if (rc == 0)
        rc = zipdir_parse_cdir(p, (size_t)eocd.cd_size, &eocd, file_size, out, n, err);
    if (rc == 0 && eocd_out)
        *eocd_out = eocd;
    return rc;
}
