/*
 * wheelfetch: ranged or whole-body scanning of a remote wheel.
 */
#include "wheelfetch.h"

#include <stdlib.h>
#include <string.h>

#include "sha256.h"
#include "strbuf.h"
#include "xalloc.h"
#include "zipdir.h"

struct fetch {
    struct http_client *c;
    const char *url;
    struct scan_result *r;
    struct wheelfetch_stats *st;
    wheelfetch_progress progress;
    void *ud;

    /* a ranged request into memory */
    struct strbuf buf;
    size_t buf_max;
    int64_t want_start;

    /* whole-body mode */
    int full;
    struct scan_wheel *sw_full;
    struct sha256 *h;
    uint64_t full_bytes;

    /* member mode */
    struct scan_wheel *sw;
    uint64_t member_off;
};

static void count(struct fetch *f, size_t n)
{
    if (f->progress)
        f->progress(f->ud, n);
}

static void full_reset(struct fetch *f)
{
    scan_wheel_free(f->sw_full);
    f->sw_full = NULL;
    sha256_free(f->h);
    f->h = NULL;
    f->full_bytes = 0;
    scan_result_clear(f->r);
}

static int full_feed(struct fetch *f, const uint8_t *buf, size_t n, struct wa_error *err)
{
    if (!f->sw_full) {
        f->sw_full = scan_wheel_new(f->r, NULL, 0, 0);
        f->h = sha256_new();
    }
    sha256_update(f->h, buf, n);
    f->full_bytes += n;
    return scan_wheel_feed(f->sw_full, buf, n, err);
}

/* Sink of the first request: a tail by range, or the whole file. */
static int tail_sink(void *ud, const struct http_response *resp, const uint8_t *buf, size_t n,
                     struct wa_error *err)
{
    struct fetch *f = ud;
    count(f, n);
    if (resp->status == 200) {
        f->full = 1;
        return full_feed(f, buf, n, err);
    }
    if (resp->status != 206)
        return wa_error_set(err, WA_ERR_NETWORK, "unexpected HTTP %ld", resp->status);
    if (f->buf.len + n > f->buf_max)
        return wa_error_set(err, WA_ERR_NETWORK, "server sent more than the range asked for");
    strbuf_add(&f->buf, buf, n);
    return 0;
}

static void tail_restart(void *ud)
{
    struct fetch *f = ud;
    strbuf_reset(&f->buf);
    if (f->full)
        full_reset(f);
    f->full = 0;
}

/* Sink of a ranged request into memory (end records, central directory). */
static int mem_sink(void *ud, const struct http_response *resp, const uint8_t *buf, size_t n,
                    struct wa_error *err)
{
    struct fetch *f = ud;
    count(f, n);
    if (resp->status != 206 || resp->range_start != f->want_start)
        return wa_error_set(err, WA_ERR_NETWORK, "server answered a range request with HTTP %ld%s",
                            resp->status, resp->status == 206 ? " for another range" : "");
    if (f->buf.len + n > f->buf_max)
        return wa_error_set(err, WA_ERR_NETWORK, "server sent more than the range asked for");
    strbuf_add(&f->buf, buf, n);
    return 0;
}

static void mem_restart(void *ud)
{
    strbuf_reset(&((struct fetch *)ud)->buf);
}

static int fetch_range(struct fetch *f, uint64_t start, uint64_t len, struct wa_error *err)
{
    strbuf_reset(&f->buf);
    f->buf_max = (size_t)len;
    f->want_start = (int64_t)start;
    struct http_request req = {0};
    req.url = f->url;
    req.range_start = (int64_t)start;
    req.range_end = (int64_t)(start + len - 1);
    req.body = mem_sink;
    req.restart = mem_restart;
    req.ud = f;
    struct http_response resp;
    f->st->requests++;
    int rc = http_get(f->c, &req, &resp, err);
    f->st->bytes += resp.bytes_received;
    if (rc == 0 && resp.status != 206) {
        f->st->http_status = resp.status;
        rc = wa_error_set(err, WA_ERR_NETWORK, "HTTP %ld for a range of %s", resp.status, f->url);
    }
    if (rc == 0 && f->buf.len != len)
        rc = wa_error_set(err, WA_ERR_NETWORK, "range request returned %zu of %llu bytes",
                          f->buf.len, (unsigned long long)len);
    return rc;
}

/* Sink of one member's range: straight into the scanner. */
static int member_sink(void *ud, const struct http_response *resp, const uint8_t *buf, size_t n,
                       struct wa_error *err)
{
    struct fetch *f = ud;
    count(f, n);
    if (resp->status != 206 || resp->range_start != (int64_t)f->member_off)
        return wa_error_set(err, WA_ERR_NETWORK, "server answered a range request with HTTP %ld",
                            resp->status);
    return scan_wheel_feed(f->sw, buf, n, err);
}

static void member_restart(void *ud)
{
    struct fetch *f = ud;
    scan_wheel_seek(f->sw, f->member_off, NULL);
}

static int scan_members(struct fetch *f, const struct zip_entry *ents, size_t n, uint64_t cd_offset,
                        struct wa_error *err)
{
    f->sw = scan_wheel_new(f->r, ents, n, 0);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t len = strlen(ents[i].name);
        if (!scan_member_is_candidate(ents[i].name) || (len && ents[i].name[len - 1] == '/'))
            continue;
        uint64_t end = i + 1 < n ? ents[i + 1].lho : cd_offset;
        if (end <= ents[i].lho)
            continue;
        f->member_off = ents[i].lho;
        rc = scan_wheel_seek(f->sw, ents[i].lho, err);
        if (rc < 0)
            break;
        struct http_request req = {0};
        req.url = f->url;
        req.range_start = (int64_t)ents[i].lho;
        req.range_end = (int64_t)end - 1;
        req.body = member_sink;
        req.restart = member_restart;
        req.ud = f;
        struct http_response resp;
        f->st->requests++;
        rc = http_get(f->c, &req, &resp, err);
        f->st->bytes += resp.bytes_received;
        if (rc == 0 && resp.status != 206) {
            f->st->http_status = resp.status;
            rc = wa_error_set(err, WA_ERR_NETWORK, "HTTP %ld for member %s", resp.status,
                              ents[i].name);
        }
    }
    if (rc == 0)
        rc = scan_wheel_finish(f->sw, 0, err);
    scan_wheel_free(f->sw);
    f->sw = NULL;
    return rc;
}

/* Central directory from the tail (and more ranges when it lies before). */
static int ranged(struct fetch *f, uint64_t size, uint64_t tail_start, struct wa_error *err)
{
    const uint8_t *tail = (const uint8_t *)f->buf.buf;
    size_t tail_len = f->buf.len;
    struct zip_eocd eocd;
    int rc = zip_find_eocd(tail, tail_len, size, &eocd, err);
    if (rc < 0)
        return rc;
    struct strbuf keep = STRBUF_INIT;
    strbuf_add(&keep, tail, tail_len);
    if (eocd.need_eocd64) {
        /* zip_find_eocd bounded the offset by the locator's position; the
         * in-memory case still checks before it indexes the buffer. */
        if (eocd.eocd64_offset >= tail_start) {
            uint64_t o = eocd.eocd64_offset - tail_start;
            if (o > tail_len || tail_len - o < ZIP_EOCD64_SIZE)
                rc =
                    wa_error_set(err, WA_ERR_FORMAT, "ZIP64 end record offset %llu is out of range",
                                 (unsigned long long)eocd.eocd64_offset);
            else
                rc = zip_parse_eocd64((const uint8_t *)keep.buf + o, tail_len - (size_t)o, size,
                                      &eocd, err);
        } else {
            rc = fetch_range(f, eocd.eocd64_offset, ZIP_EOCD64_SIZE, err);
            if (rc == 0)
                rc = zip_parse_eocd64((const uint8_t *)f->buf.buf, f->buf.len, size, &eocd, err);
        }
    }
    const uint8_t *cd = NULL;
    if (rc == 0 && eocd.cd_size > ZIP_MAX_CDIR)
        rc = wa_error_set(err, WA_ERR_LIMIT, "central directory of %llu bytes is too large",
                          (unsigned long long)eocd.cd_size);
    if (rc == 0) {
        if (eocd.cd_offset >= tail_start) {
            uint64_t o = eocd.cd_offset - tail_start;
            if (o > tail_len || eocd.cd_size > tail_len - o)
                rc = wa_error_set(err, WA_ERR_FORMAT,
                                  "central directory (offset %llu, %llu bytes) is out of range",
                                  (unsigned long long)eocd.cd_offset,
                                  (unsigned long long)eocd.cd_size);
            else
                cd = (const uint8_t *)keep.buf + o;
        } else {
            rc = fetch_range(f, eocd.cd_offset, eocd.cd_size ? eocd.cd_size : 1, err);
            cd = (const uint8_t *)f->buf.buf;
        }
    }
    struct zip_entry *ents = NULL;
    size_t n = 0;
    if (rc == 0)
        rc = zip_parse_cdir(cd, (size_t)eocd.cd_size, &eocd, size, &ents, &n, err);
    strbuf_free(&keep);
    if (rc < 0) {
        wa_error_prefix(err, "not a readable zip archive");
        return rc;
    }
    f->r->kind = SCAN_KIND_ZIP;
    rc = scan_members(f, ents, n, eocd.cd_offset, err);
    zip_entries_free(ents, n);
    return rc;
}

static int finish_full(struct fetch *f, const char *expected, struct wa_error *err)
{
    int rc = scan_wheel_finish(f->sw_full, 1, err);
    if (rc < 0)
        return rc;
    sha256_final_hex(f->h, f->r->sha256);
    f->st->sha256_checked = 1;
    f->st->size = f->full_bytes;
    f->r->size = f->full_bytes;
    if (expected && *expected && strcmp(expected, f->r->sha256) != 0)
        return wa_error_set(err, WA_ERR_CHECKSUM,
                            "sha256 mismatch: the index says %s, the file is %s", expected,
                            f->r->sha256);
    return 0;
}

int wheelfetch_scan(struct http_client *c, const char *url, const char *expected_sha256,
                    struct scan_result *r, struct wheelfetch_stats *st,
                    wheelfetch_progress progress, void *ud, struct wa_error *err)
{
    struct fetch f;
    memset(&f, 0, sizeof f);
    memset(st, 0, sizeof *st);
    f.c = c;
    f.url = url;
    f.r = r;
    f.st = st;
    f.progress = progress;
    f.ud = ud;
    f.buf_max = WHEELFETCH_TAIL;
    r->kind = SCAN_KIND_ZIP;

    struct http_request req = {0};
    req.url = url;
    req.range_start = -1;
    req.range_suffix = WHEELFETCH_TAIL;
    req.body = tail_sink;
    req.restart = tail_restart;
    req.ud = &f;
    struct http_response resp;
    st->requests = 1;
    int rc = http_get(c, &req, &resp, err);
    st->bytes += resp.bytes_received;
    if (rc == 0 && resp.status != 200 && resp.status != 206) {
        st->http_status = resp.status;
        rc = wa_error_set(err, WA_ERR_NETWORK, "HTTP %ld", resp.status);
    }
    if (rc == 0 && f.full) {
        rc = finish_full(&f, expected_sha256, err);
    } else if (rc == 0) {
        if (resp.range_total < 0 || resp.range_start < 0) {
            rc = wa_error_set(err, WA_ERR_NETWORK, "206 response without the file size");
        } else if (resp.range_start == 0) {
            /* The whole file fitted in the tail: read it from memory. */
            uint64_t total = (uint64_t)resp.range_total;
            struct strbuf whole = f.buf;
            memset(&f.buf, 0, sizeof f.buf);
            if (whole.len != total) {
                rc = wa_error_set(err, WA_ERR_NETWORK, "range returned %zu of %llu bytes",
                                  whole.len, (unsigned long long)total);
            } else {
                rc = full_feed(&f, (const uint8_t *)whole.buf, whole.len, err);
                if (rc == 0)
                    rc = finish_full(&f, expected_sha256, err);
            }
            strbuf_free(&whole);
        } else {
            st->range_mode = 1;
            st->size = (uint64_t)resp.range_total;
            r->size = st->size;
            rc = ranged(&f, (uint64_t)resp.range_total, (uint64_t)resp.range_start, err);
        }
    }
    scan_wheel_free(f.sw_full);
    sha256_free(f.h);
    strbuf_free(&f.buf);
    if (rc < 0) {
        r->failed = 1;
        if (err)
            r->error = *err;
    }
    return rc;
}
