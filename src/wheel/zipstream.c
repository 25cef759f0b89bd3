/*
 * zipstream: forward-only zip member reader over pushed bytes.
 */
#include "zipstream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "inflate.h"
#include "strbuf.h"
#include "xalloc.h"

/* Without a declared size, a member may inflate to at most this much. */
#define MEMBER_OUTPUT_MAX (1ull << 40)

enum zs_state {
    Z_SKIP,     /* central directory mode: bytes before the next member */
    Z_LOCAL,    /* collecting a local header */
    Z_DATA,     /* member data, delivered or at least checked */
    Z_SKIPDATA, /* member data of known size we do not look at */
    Z_DESC,     /* data descriptor after the data */
    Z_CDIR,     /* no central directory given: collecting the one at the end */
    Z_IDLE,     /* central directory mode: after the last member, or after a
                   ranged member until the next seek */
};

struct seen {
    uint64_t off, csize, usize;
    uint32_t crc;
    char *name;
};

struct zipstream {
    const struct zipdir_entry *ents;
    size_t nents;
    size_t next; /* CD mode: index of the next member */
    int ranged;  /* zipstream_seek was used */
    const struct zipstream_handler *h;
    void *ud;
    struct inflater *inf;

    enum zs_state st;
    uint64_t pos;
    uint8_t *hdr;
    size_t hdrlen, hdrneed;
    struct zipdir_local lh;
    char *name;
    char qname[160]; /* name for messages: control characters escaped */
    const struct zipdir_entry *cur;
    uint64_t start; /* local header offset of the current member */
    uint64_t csize, usize;
    uint32_t crc;
    int sizes_known;
    int deliver;
    int stopped; /* the handler asked for no more bytes */
    int verify;  /* inflate and CRC-check every member, wanted or not */
    uint64_t data_left;
    uint64_t data_in;
    uint8_t desc[24];
    size_t desclen;

    struct strbuf cdir;
    uint64_t cdir_off;
    struct seen *seen;
    size_t nseen, capseen;

    size_t members_seen;
    uint64_t bytes_in;
    int failed;
    struct wa_error err;
};

struct zipstream *zipstream_new(const struct zipdir_entry *entries, size_t n,
                                const struct zipstream_handler *h, void *ud)
{
    struct zipstream *zs = xcalloc(1, sizeof *zs);
    zs->ents = entries;
    zs->nents = entries ? n : 0;
    zs->h = h;
    zs->ud = ud;
    zs->inf = inflater_new();
    zs->hdr = xmalloc(ZIP_LOCAL_SIZE + 2 * 65535);
    if (entries)
        zs->st = zs->nents ? Z_SKIP : Z_IDLE;
    else
        zs->st = Z_LOCAL;
    return zs;
}

void zipstream_free(struct zipstream *zs)
{
    if (!zs)
        return;
    inflater_free(zs->inf);
    free(zs->hdr);
    free(zs->name);
    strbuf_free(&zs->cdir);
    for (size_t i = 0; i < zs->nseen; i++)
        free(zs->seen[i].name);
    free(zs->seen);
    free(zs);
}

void zipstream_set_verify(struct zipstream *zs, int on)
{
    zs->verify = on;
}

size_t zipstream_members_seen(const struct zipstream *zs)
{
    return zs->members_seen;
}

uint64_t zipstream_bytes_in(const struct zipstream *zs)
{
    return zs->bytes_in;
}

static int fail(struct zipstream *zs, struct wa_error *err)
{
    zs->failed = 1;
    zs->err = *err;
    return err->code;
}

static int member_fail(struct zipstream *zs, int code, const char *what)
{
    wa_error_set(&zs->err, code, "%s: %s", zs->name ? zs->qname : "?", what);
    zs->failed = 1;
    return code;
}

int zipstream_seek(struct zipstream *zs, uint64_t offset, struct wa_error *err)
{
    if (!zs->ents)
        return wa_error_set(err, WA_ERR_USAGE, "zipstream_seek needs a central directory");
    size_t lo = 0, hi = zs->nents;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (zs->ents[mid].lho < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == zs->nents || zs->ents[lo].lho != offset)
        return wa_error_set(err, WA_ERR_USAGE, "no member starts at offset %llu",
                            (unsigned long long)offset);
    zs->ranged = 1;
    zs->next = lo;
    zs->pos = offset;
    zs->st = Z_LOCAL;
    zs->hdrlen = 0;
    return 0;
}

/* ---- member lifecycle ---------------------------------------------------- */

static int start_member(struct zipstream *zs)
{
    struct zipdir_local *lh = &zs->lh;
    const uint8_t *nm = zs->hdr + ZIP_LOCAL_SIZE;
    free(zs->name);
    zs->name = xstrndup((const char *)nm, lh->name_len);
    wa_quote(zs->qname, sizeof zs->qname, zs->name, 120);
    zs->members_seen++;
    if (lh->name_len == 0 || memchr(nm, 0, lh->name_len))
        return member_fail(zs, WA_ERR_FORMAT, "local header has a bad name");
    zipdir_local_apply_extra(lh, nm + lh->name_len, lh->extra_len);
    zs->cur = NULL;
    if (zs->ents) {
        zs->cur = &zs->ents[zs->next];
        if (zs->cur->name_len != lh->name_len || memcmp(zs->cur->name, nm, lh->name_len) != 0)
            return member_fail(zs, WA_ERR_FORMAT,
                               "local header name differs from the central directory");
        zs->csize = zs->cur->csize;
        zs->usize = zs->cur->usize;
        zs->crc = zs->cur->crc;
        zs->sizes_known = 1;
        if (!(lh->flags & ZIP_FLAG_DESCRIPTOR) &&
            (lh->csize != zs->csize || lh->usize != zs->usize || lh->crc != zs->crc))
            return member_fail(zs, WA_ERR_FORMAT,
                               "local header disagrees with the central directory");
        if (lh->method != zs->cur->method)
            return member_fail(zs, WA_ERR_FORMAT,
                               "local header method differs from the central directory");
    } else {
        zs->sizes_known = !(lh->flags & ZIP_FLAG_DESCRIPTOR) || lh->csize != 0 || lh->usize != 0;
        zs->csize = zs->sizes_known ? lh->csize : ZIPSTREAM_SIZE_UNKNOWN;
        zs->usize = zs->sizes_known ? lh->usize : ZIPSTREAM_SIZE_UNKNOWN;
        zs->crc = lh->crc;
    }
    if (lh->flags & ZIP_FLAG_ENCRYPTED)
        return member_fail(zs, WA_ERR_UNSUPPORTED, "encrypted members are not supported");

    struct zipstream_member m = {zs->name, zs->start, zs->usize, zs->csize, lh->method};
    zs->deliver = zs->h && zs->h->begin ? zs->h->begin(zs->ud, &m) : 0;
    zs->stopped = 0;
    zs->data_in = 0;
    if (lh->method != ZIP_METHOD_STORE && lh->method != ZIP_METHOD_DEFLATE) {
        if (zs->deliver)
            return member_fail(zs, WA_ERR_UNSUPPORTED, "compression method not supported");
        if (!zs->sizes_known)
            return member_fail(zs, WA_ERR_UNSUPPORTED,
                               "member of unknown size with an unsupported method");
    }
    if (lh->method == ZIP_METHOD_STORE && !zs->sizes_known)
        return member_fail(zs, WA_ERR_UNSUPPORTED,
                           "stored member with a data descriptor cannot be streamed");
    if (lh->method == ZIP_METHOD_STORE && zs->csize != zs->usize)
        return member_fail(zs, WA_ERR_FORMAT, "stored member with different sizes");
    int checkable = lh->method == ZIP_METHOD_STORE || lh->method == ZIP_METHOD_DEFLATE;
    if (zs->sizes_known && !zs->deliver && !(zs->verify && checkable)) {
        zs->st = Z_SKIPDATA;
        zs->data_left = zs->csize;
        return 0;
    }
    inflater_reset(zs->inf, lh->method == ZIP_METHOD_STORE ? INFLATE_STORED : INFLATE_DEFLATE,
                   zs->sizes_known ? zs->usize : MEMBER_OUTPUT_MAX);
    zs->st = Z_DATA;
    zs->data_left = zs->sizes_known ? zs->csize : ZIPSTREAM_SIZE_UNKNOWN;
    return 0;
}

static void record_seen(struct zipstream *zs)
{
    if (zs->ents || zs->nseen >= ZIP_MAX_ENTRIES)
        return;
    zs->seen = xgrow(zs->seen, &zs->capseen, zs->nseen + 1, sizeof *zs->seen);
    struct seen *s = &zs->seen[zs->nseen++];
    s->off = zs->start;
    s->csize = zs->csize;
    s->usize = zs->usize;
    s->crc = zs->crc;
    s->name = xstrdup(zs->name);
}

/* After the data: where the next bytes belong. */
static void after_member(struct zipstream *zs)
{
    record_seen(zs);
    if (zs->ents) {
        zs->next++;
        if (zs->ranged || zs->next >= zs->nents)
            zs->st = Z_IDLE;
        else
            zs->st = Z_SKIP;
    } else if (zs->lh.flags & ZIP_FLAG_DESCRIPTOR) {
        zs->st = Z_DESC;
        zs->desclen = 0;
    } else {
        zs->st = Z_LOCAL;
        zs->hdrlen = 0;
    }
}

static int check_member(struct zipstream *zs)
{
    if (!zs->stopped || zs->verify) {
        uint32_t got = inflater_crc(zs->inf);
        if (zs->usize != ZIPSTREAM_SIZE_UNKNOWN && inflater_total_out(zs->inf) != zs->usize)
            return member_fail(zs, WA_ERR_FORMAT, "size differs from the declared size");
        if (zs->sizes_known && got != zs->crc) {
            char msg[96];
            snprintf(msg, sizeof msg, "CRC-32 mismatch (stored %08x, computed %08x)", zs->crc, got);
            return member_fail(zs, WA_ERR_CHECKSUM, msg);
        }
    }
    return 0;
}

static int end_member(struct zipstream *zs)
{
    if (zs->deliver && zs->h && zs->h->end) {
        struct wa_error e;
        wa_error_clear(&e);
        int rc = zs->h->end(zs->ud, &e);
        if (rc < 0) {
            if (!e.msg[0])
                wa_error_set(&e, rc, "scan failed");
            wa_error_prefix(&e, zs->qname);
            return fail(zs, &e);
        }
    }
    return 0;
}

/* ---- data --------------------------------------------------------------- */

static int sink(void *ud, const uint8_t *buf, size_t n, struct wa_error *err)
{
    struct zipstream *zs = ud;
    if (zs->stopped || !zs->h || !zs->h->data)
        return 1;
    int rc = zs->h->data(zs->ud, buf, n, err);
    if (rc > 0)
        zs->stopped = 1;
    return rc;
}

static int feed_data(struct zipstream *zs, const uint8_t *buf, size_t n, size_t *used)
{
    size_t take = n;
    if (zs->data_left != ZIPSTREAM_SIZE_UNKNOWN && take > zs->data_left)
        take = (size_t)zs->data_left;
    size_t u = 0;
    struct wa_error e;
    wa_error_clear(&e);
    int rc = inflater_feed(zs->inf, buf, take, &u, sink, zs, &e);
    if (rc < 0) {
        if (e.msg[0] == '\0')
            wa_error_set(&e, rc, "member data rejected");
        wa_error_prefix(&e, zs->qname);
        return fail(zs, &e);
    }
    *used = u;
    zs->data_in += u;
    if (zs->data_left != ZIPSTREAM_SIZE_UNKNOWN) {
        zs->data_left -= u;
        if (u < take)
            return member_fail(zs, WA_ERR_FORMAT, "deflate stream ends before its compressed size");
        if (zs->stopped && zs->data_left > 0 && !zs->verify) {
            /* Known size: skip the rest without inflating it. */
            zs->st = Z_SKIPDATA;
            return 0;
        }
        if (zs->data_left == 0) {
            if (zs->lh.method == ZIP_METHOD_DEFLATE && !inflater_finished(zs->inf))
                return member_fail(zs, WA_ERR_FORMAT, "deflate stream is cut short");
            rc = check_member(zs);
            if (rc < 0)
                return rc;
            rc = end_member(zs);
            if (rc < 0)
                return rc;
            after_member(zs);
        }
        return 0;
    }
    if (inflater_finished(zs->inf)) {
        zs->csize = zs->data_in;
        rc = end_member(zs); /* CRC is checked against the descriptor */
        if (rc < 0)
            return rc;
        zs->usize = inflater_total_out(zs->inf);
        after_member(zs);
    }
    return 0;
}

static int parse_descriptor(struct zipstream *zs, int *done)
{
    *done = 0;
    size_t sig = zs->desclen >= 4 && rd32(zs->desc) == ZIP_DESCRIPTOR_SIG ? 4 : 0;
    size_t need = sig + 4 + (zs->lh.zip64 ? 16 : 8);
    if (zs->desclen < need)
        return 0;
    uint32_t crc = rd32(zs->desc + sig);
    uint64_t cs, us;
    if (zs->lh.zip64) {
        cs = rd64(zs->desc + sig + 4);
        us = rd64(zs->desc + sig + 12);
    } else {
        cs = rd32(zs->desc + sig + 4);
        us = rd32(zs->desc + sig + 8);
    }
    *done = 1;
    zs->crc = crc;
    zs->sizes_known = 1;
    if (cs != zs->data_in || us != inflater_total_out(zs->inf))
        return member_fail(zs, WA_ERR_FORMAT, "data descriptor sizes differ from the data");
    if ((!zs->stopped || zs->verify) && crc != inflater_crc(zs->inf)) {
        char msg[96];
        snprintf(msg, sizeof msg, "CRC-32 mismatch (stored %08x, computed %08x)", crc,
                 inflater_crc(zs->inf));
        return member_fail(zs, WA_ERR_CHECKSUM, msg);
    }
    if (zs->nseen) {
        zs->seen[zs->nseen - 1].crc = crc;
        zs->seen[zs->nseen - 1].csize = cs;
        zs->seen[zs->nseen - 1].usize = us;
    }
    return (int)need;
}

int zipstream_feed(struct zipstream *zs, const uint8_t *buf, size_t n, struct wa_error *err)
{
    if (zs->failed) {
        if (err)
            *err = zs->err;
        return zs->err.code;
    }
    size_t i = 0;
    int rc = 0;
    zs->bytes_in += n;
    while (i < n && rc == 0) {
        switch (zs->st) {
        case Z_SKIP: {
            uint64_t target = zs->ents[zs->next].lho;
            if (zs->pos > target) {
                free(zs->name);
                zs->name = xstrdup(zs->ents[zs->next].name);
                wa_quote(zs->qname, sizeof zs->qname, zs->name, 120);
                rc = member_fail(zs, WA_ERR_FORMAT, "local header lies inside the previous member");
                break;
            }
            uint64_t skip = target - zs->pos;
            size_t take = skip < n - i ? (size_t)skip : n - i;
            i += take;
            zs->pos += take;
            if (zs->pos == target) {
                zs->st = Z_LOCAL;
                zs->hdrlen = 0;
            }
            break;
        }
        case Z_LOCAL: {
            if (zs->hdrlen == 0)
                zs->start = zs->pos;
            size_t need = zs->hdrlen < ZIP_LOCAL_SIZE ? ZIP_LOCAL_SIZE : zs->lh.header_len;
            size_t take = need - zs->hdrlen < n - i ? need - zs->hdrlen : n - i;
            memcpy(zs->hdr + zs->hdrlen, buf + i, take);
            zs->hdrlen += take;
            i += take;
            zs->pos += take;
            if (zs->hdrlen < need)
                break;
            if (need == ZIP_LOCAL_SIZE) {
                uint32_t sig = rd32(zs->hdr);
                if (!zs->ents && (sig == ZIP_CENTRAL_SIG || sig == ZIP_EOCD_SIG)) {
                    zs->st = Z_CDIR;
                    zs->cdir_off = zs->start;
                    strbuf_add(&zs->cdir, zs->hdr, zs->hdrlen);
                    break;
                }
                struct wa_error e;
                if (zipdir_parse_local_fixed(zs->hdr, zs->hdrlen, &zs->lh, &e) < 0) {
                    wa_error_set(&zs->err, WA_ERR_FORMAT, "offset %llu: %s",
                                 (unsigned long long)zs->start, e.msg);
                    zs->failed = 1;
                    rc = zs->err.code;
                    break;
                }
                if (zs->lh.header_len > ZIP_LOCAL_SIZE)
                    break;
            }
            rc = start_member(zs);
            break;
        }
        case Z_DATA: {
            size_t used = 0;
            rc = feed_data(zs, buf + i, n - i, &used);
            i += used;
            zs->pos += used;
            if (rc == 0 && used == 0 && zs->st == Z_DATA)
                rc = member_fail(zs, WA_ERR_FORMAT, "deflate data did not advance");
            break;
        }
        case Z_SKIPDATA: {
            size_t take = zs->data_left < n - i ? (size_t)zs->data_left : n - i;
            i += take;
            zs->pos += take;
            zs->data_left -= take;
            if (zs->data_left == 0) {
                rc = end_member(zs);
                if (rc == 0)
                    after_member(zs);
            }
            break;
        }
        case Z_DESC: {
            size_t take = sizeof zs->desc - zs->desclen;
            if (take > n - i)
                take = n - i;
            memcpy(zs->desc + zs->desclen, buf + i, take);
            int done = 0;
            size_t before = zs->desclen;
            zs->desclen += take;
            int used = parse_descriptor(zs, &done);
            if (used < 0) {
                rc = used;
                break;
            }
            if (!done) {
                i += take;
                zs->pos += take;
                break;
            }
            size_t consumed = (size_t)used - before;
            i += consumed;
            zs->pos += consumed;
            zs->st = Z_LOCAL;
            zs->hdrlen = 0;
            break;
        }
        case Z_CDIR: {
            if (zs->cdir.len + (n - i) > (uint64_t)ZIP_MAX_CDIR + ZIP_TAIL_MAX) {
                wa_error_set(&zs->err, WA_ERR_LIMIT, "central directory larger than %u bytes",
                             ZIP_MAX_CDIR);
                zs->failed = 1;
                rc = zs->err.code;
                break;
            }
            strbuf_add(&zs->cdir, buf + i, n - i);
            zs->pos += n - i;
            i = n;
            break;
        }
        case Z_IDLE:
            zs->pos += n - i;
            i = n;
            break;
        }
    }
    if (rc < 0 || zs->failed) {
        if (!zs->failed) {
            zs->failed = 1;
            if (!zs->err.msg[0])
                wa_error_set(&zs->err, rc, "zip stream failed");
        }
        if (err)
            *err = zs->err;
        return zs->err.code;
    }
    return 0;
}

/* ---- finish ------------------------------------------------------------- */

/* zipdir_fetch_fn of a stream: the bytes collected from the directory on;
 * nothing before it is kept. */
static int from_collected(void *ud, uint64_t off, uint64_t len, const uint8_t **data,
                          struct wa_error *err)
{
    struct zipstream *zs = ud;
    *data = NULL;
    if (off >= zs->cdir_off && off - zs->cdir_off <= zs->cdir.len &&
        len <= zs->cdir.len - (off - zs->cdir_off)) {
        *data = (const uint8_t *)zs->cdir.buf + (off - zs->cdir_off);
        return 0;
    }
    return wa_error_set(err, WA_ERR_FORMAT,
                        "a record (offset %llu, %llu bytes) is out of range: it lies before the "
                        "directory, which starts at %llu",
                        (unsigned long long)off, (unsigned long long)len,
                        (unsigned long long)zs->cdir_off);
}

static int check_collected_cdir(struct zipstream *zs, struct wa_error *err)
{
    const uint8_t *b = (const uint8_t *)zs->cdir.buf;
    size_t len = zs->cdir.len;
    uint64_t fsize = zs->cdir_off + len;
    /* Everything from the directory to the end was collected: the end
     * records and the directory must lie in it. */
    size_t tail = len < ZIP_TAIL_MAX ? len : ZIP_TAIL_MAX;
    struct zipdir_eocd eocd;
    struct zipdir_entry *ents;
    size_t n;
    int rc = zipdir_read(b + len - tail, tail, fsize - tail, fsize, from_collected, zs, &eocd,
                         &ents, &n, err);
    if (rc < 0)
        return rc;
    if (eocd.cd_offset != zs->cdir_off) {
        zipdir_entries_free(ents, n);
        return wa_error_set(err, WA_ERR_FORMAT,
                            "central directory offset %llu, but it starts at %llu",
                            (unsigned long long)eocd.cd_offset, (unsigned long long)zs->cdir_off);
    }
    if (n != zs->nseen) {
        zipdir_entries_free(ents, n);
        return wa_error_set(err, WA_ERR_FORMAT,
                            "central directory lists %zu members, the archive holds %zu", n,
                            zs->nseen);
    }
    for (size_t i = 0; i < n; i++) {
        const struct seen *s = &zs->seen[i];
        const struct zipdir_entry *e = &ents[i];
        if (e->lho != s->off || strcmp(e->name, s->name) != 0 || e->crc != s->crc ||
            e->csize != s->csize || e->usize != s->usize) {
            char q[160];
            wa_error_set(err, WA_ERR_FORMAT,
                         "%s: central directory entry disagrees with the "
                         "local header",
                         wa_quote(q, sizeof q, e->name, 120));
            zipdir_entries_free(ents, n);
            return WA_ERR_FORMAT;
        }
    }
    zipdir_entries_free(ents, n);
    return 0;
}

int zipstream_finish(struct zipstream *zs, int expect_all, struct wa_error *out)
{
    struct wa_error local, *err = &local;
    wa_error_clear(err);
    if (zs->failed) {
        if (out)
            *out = zs->err;
        return zs->err.code;
    }
    int rc = 0;
    char q[160];
    switch (zs->st) {
    case Z_LOCAL:
        if (zs->ents && zs->hdrlen == 0 && !expect_all)
            break;
        if (zs->hdrlen == 0 && zs->bytes_in == 0) {
            rc = wa_error_set(err, WA_ERR_TRUNCATED, "empty input");
            break;
        }
        if (!zs->ents && zs->hdrlen == 0) {
            rc = wa_error_set(err, WA_ERR_TRUNCATED, "archive ends without a central directory");
            break;
        }
        rc = wa_error_set(err, WA_ERR_TRUNCATED, "archive is cut off in a local header");
        break;
    case Z_DATA:
    case Z_SKIPDATA:
    case Z_DESC:
        rc = wa_error_set(err, WA_ERR_TRUNCATED, "%s: member data is cut off", zs->qname);
        break;
    case Z_SKIP:
        if (expect_all)
            rc = wa_error_set(err, WA_ERR_TRUNCATED, "%s: member missing (archive cut off?)",
                              wa_quote(q, sizeof q, zs->ents[zs->next].name, 120));
        break;
    case Z_CDIR:
        rc = check_collected_cdir(zs, err);
        break;
    case Z_IDLE:
        if (expect_all && zs->ents && zs->next < zs->nents)
            rc = wa_error_set(err, WA_ERR_TRUNCATED, "%s: member missing",
                              wa_quote(q, sizeof q, zs->ents[zs->next].name, 120));
        break;
    }
    if (rc < 0) {
        zs->failed = 1;
        zs->err = *err;
        if (out)
            *out = *err;
    }
    return rc;
}
