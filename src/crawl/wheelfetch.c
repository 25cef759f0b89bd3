/*
 * wheelfetch: ranged or whole-body scanning of a remote wheel.
 *
 * Every answer is checked against the others: a 206 must carry the range
 * asked for, the same file size as the first answer, and a body of the
 * announced length; a server that lies is this wheel's error, never a
 * wrong size or a scan of the wrong bytes.
 */
#include "wheelfetch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recbinary.h"
#include "sha256.h"
#include "strbuf.h"
#include "xalloc.h"
#include "zipdir.h"

struct fetch {
    struct http_client *c;
    const char *url;
    const char *origin;
    int strict_origin;
    int skip_bundled;
    const char *expected; /* the index's sha256, or NULL */
    struct scan_result *r;
    struct wheelfetch_stats *st;
    wheelfetch_progress progress;
    void *ud;
    int64_t total; /* the file's size from the first answer; -1 before */

    /* the range being asked for, and whether its answer was checked */
    int64_t want_start, want_end; /* inclusive; want_end -1: to the end */
    int checked;

    /* a ranged request into memory */
    struct strbuf buf;
    size_t buf_max;

    /* whole-body mode */
    int full;
    const struct zipdir_entry *full_ents; /* central directory, when known */
    size_t full_nents;
    struct scan_wheel *sw_full;
    struct sha256 *h;
    uint64_t full_bytes;

    /* member mode: one request per span of wanted members */
    struct scan_wheel *sw;
    const struct zipdir_entry *ents;
    size_t nents;
    uint64_t cd_offset;
    const size_t *wanted;      /* indexes of the wanted members */
    size_t k, k_first, k_last; /* the member being read, the span's first and last */
    uint64_t pos;              /* file offset of the next byte */
    int seeked;                /* scan_wheel_seek was called for member k */
};

static void count(struct fetch *f, size_t n)
{
    if (f->progress)
        f->progress(f->ud, n);
}

/* Checks a 206 answer against what was asked and what earlier answers
 * said, once per response (at its first body bytes). */
static int check_range(struct fetch *f, const struct http_response *resp, struct wa_error *err)
{
    if (f->checked)
        return 0;
    f->checked = 1;
    if (resp->range_start < 0 || resp->range_total < 0)
        return wa_error_set(err, WA_ERR_NETWORK,
                            "206 answer without a valid Content-Range (bytes START-END/SIZE)");
    if (f->total >= 0 && resp->range_total != f->total)
        return wa_error_set(err, WA_ERR_NETWORK,
                            "the server gives the file's size as %lld bytes, after %lld before",
                            (long long)resp->range_total, (long long)f->total);
    if (resp->range_start != f->want_start || (f->want_end >= 0 && resp->range_end != f->want_end))
        return wa_error_set(err, WA_ERR_NETWORK,
                            "asked for bytes %lld-%lld, the server sent %lld-%lld",
                            (long long)f->want_start, (long long)f->want_end,
                            (long long)resp->range_start, (long long)resp->range_end);
    if (resp->content_length >= 0 &&
        resp->content_length != resp->range_end - resp->range_start + 1)
        return wa_error_set(err, WA_ERR_NETWORK,
                            "Content-Length %lld does not match Content-Range bytes %lld-%lld",
                            (long long)resp->content_length, (long long)resp->range_start,
                            (long long)resp->range_end);
    return 0;
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
    /* A whole body may not outgrow the size the range answers gave, nor any
     * wheel: an endless body is an error, not a day of downloading. */
    uint64_t max = f->total >= 0 ? (uint64_t)f->total : WHEELFETCH_MAX_SIZE;
    if (n > max - f->full_bytes)
        return wa_error_set(err, WA_ERR_NETWORK, "the body is larger than %s%llu bytes",
                            f->total >= 0 ? "the file's size, " : "", (unsigned long long)max);
    if (!f->sw_full) {
        f->sw_full = scan_wheel_new(f->r, f->full_ents, f->full_nents, 0);
        /* Without the index's hash nothing else vouches for the members
         * that are not scanned: check every member's CRC-32. */
        if (!f->expected)
            scan_wheel_set_verify(f->sw_full, 1);
        f->h = sha256_new();
    }
    sha256_update(f->h, buf, n);
    f->full_bytes += n;
    return scan_wheel_feed(f->sw_full, buf, n, err);
}

/* Sink of the first request: a tail by range, or the whole file. */
/* Appends a range's bytes to the in-memory buffer, refusing more than was
 * asked for. */
static int keep(struct fetch *f, const uint8_t *buf, size_t n, struct wa_error *err)
{
    if (f->buf.len + n > f->buf_max)
        return wa_error_set(err, WA_ERR_NETWORK, "server sent more than the range asked for");
    strbuf_add(&f->buf, buf, n);
    return 0;
}

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
    if (!f->checked) {
        /* A suffix range: the last min(asked, size) bytes. */
        if (resp->range_total > 0) {
            int64_t want = resp->range_total < (int64_t)WHEELFETCH_TAIL ? resp->range_total
                                                                        : (int64_t)WHEELFETCH_TAIL;
            f->want_start = resp->range_total - want;
            f->want_end = resp->range_total - 1;
        }
        int rc = check_range(f, resp, err);
        if (rc < 0)
            return rc;
    }
    return keep(f, buf, n, err);
}

static void tail_restart(void *ud)
{
    struct fetch *f = ud;
    strbuf_reset(&f->buf);
    if (f->full)
        full_reset(f);
    f->full = 0;
    f->checked = 0;
}

/* Counts n bytes of a range request's answer and checks it: a 206 with
 * the range asked for (check_range). */
static int range_answer(struct fetch *f, const struct http_response *resp, size_t n,
                        struct wa_error *err)
{
    count(f, n);
    if (resp->status != 206)
        return wa_error_set(err, WA_ERR_NETWORK, "server answered a range request with HTTP %ld",
                            resp->status);
    return check_range(f, resp, err);
}

/* Sink of a ranged request into memory (end records, central directory). */
static int mem_sink(void *ud, const struct http_response *resp, const uint8_t *buf, size_t n,
                    struct wa_error *err)
{
    struct fetch *f = ud;
    int rc = range_answer(f, resp, n, err);
    if (rc < 0)
        return rc;
    return keep(f, buf, n, err);
}

static void mem_restart(void *ud)
{
    struct fetch *f = ud;
    strbuf_reset(&f->buf);
    f->checked = 0;
}

static void base_request(struct fetch *f, struct http_request *req)
{
    memset(req, 0, sizeof *req);
    req->url = f->url;
    req->origin = f->origin;
    req->strict_origin = f->strict_origin;
    req->ud = f;
}

/* Runs req and counts it; an answer other than want_status is an error
 * naming `what` ("a range of the file"). */
static int run_request(struct fetch *f, const struct http_request *req, long want_status,
                       const char *what, struct http_response *resp, struct wa_error *err)
{
    f->st->requests++;
    int rc = http_get(f->c, req, resp, err);
    f->st->bytes += resp->bytes_received;
    if (rc == 0 && resp->status != want_status) {
        f->st->http_status = resp->status;
        rc = wa_error_set(err, WA_ERR_NETWORK, "HTTP %ld for %s", resp->status, what);
    }
    return rc;
}

static int fetch_range(struct fetch *f, uint64_t start, uint64_t len, struct wa_error *err)
{
    strbuf_reset(&f->buf);
    f->buf_max = (size_t)len;
    f->want_start = (int64_t)start;
    f->want_end = (int64_t)(start + len - 1);
    f->checked = 0;
    struct http_request req;
    base_request(f, &req);
    req.range_start = f->want_start;
    req.range_end = f->want_end;
    req.body = mem_sink;
    req.restart = mem_restart;
    struct http_response resp;
    int rc = run_request(f, &req, 206, "a range of the file", &resp, err);
    if (rc == 0 && f->buf.len != len)
        rc = wa_error_set(err, WA_ERR_NETWORK, "range request returned %zu of %llu bytes",
                          f->buf.len, (unsigned long long)len);
    return rc;
}

/* Sink of a span's range: each wanted member's bytes go to the scanner,
 * the bytes of other members between them are dropped. */
static int member_sink(void *ud, const struct http_response *resp, const uint8_t *buf, size_t n,
                       struct wa_error *err);

static void member_restart(void *ud)
{
    struct fetch *f = ud;
    f->checked = 0;
    f->k = f->k_first;
    f->pos = f->ents[f->wanted[f->k_first]].lho;
    f->seeked = 0;
    scan_wheel_restart(f->sw, f->pos, NULL);
}

/* The byte range [lho, end) of each member a ranged read would fetch. */
static uint64_t member_end(const struct zipdir_entry *ents, size_t n, size_t i, uint64_t cd_offset)
{
    return i + 1 < n ? ents[i + 1].lho : cd_offset;
}

static int wanted(const struct fetch *f, const struct zipdir_entry *e)
{
    size_t len = strlen(e->name);
    return scan_member_is_wanted(e->name) && !(len && e->name[len - 1] == '/') &&
           !(f->skip_bundled && recbinary_is_bundled(e->name));
}

/* Feeds the bytes of the span being read (from f->pos on) to the
 * scanner, member by member, skipping the bytes of members not wanted. */
static int feed_span(struct fetch *f, const uint8_t *buf, size_t n, struct wa_error *err)
{
    int rc = 0;
    while (rc == 0 && n > 0 && f->k <= f->k_last) {
        size_t i = f->wanted[f->k];
        uint64_t lho = f->ents[i].lho, end = member_end(f->ents, f->nents, i, f->cd_offset);
        if (f->pos < lho) { /* another member's bytes */
            size_t skip = lho - f->pos < n ? (size_t)(lho - f->pos) : n;
            buf += skip;
            n -= skip;
            f->pos += skip;
            continue;
        }
        if (!f->seeked) {
            rc = scan_wheel_seek(f->sw, lho, err);
            f->seeked = 1;
            if (rc < 0)
                break;
        }
        size_t take = end - f->pos < n ? (size_t)(end - f->pos) : n;
        rc = scan_wheel_feed(f->sw, buf, take, err);
        buf += take;
        n -= take;
        f->pos += take;
        if (f->pos == end) {
            f->k++;
            f->seeked = 0;
        }
    }
    return rc;
}

static int member_sink(void *ud, const struct http_response *resp, const uint8_t *buf, size_t n,
                       struct wa_error *err)
{
    struct fetch *f = ud;
    int rc = range_answer(f, resp, n, err);
    if (rc == 0)
        rc = feed_span(f, buf, n, err);
    return rc;
}

/* Wanted members whose gap (other members' bytes) is at most this are read
 * with one request: many small libraries cost one request, not thousands. */
#define SPAN_GAP (64u << 10)

/* The first bytes read (the file's tail, [start, start + len)): wanted
 * members inside it (the METADATA, usually) cost no request. */
struct tail {
    const uint8_t *buf;
    size_t len;
    uint64_t start;
};

static int scan_members(struct fetch *f, const struct zipdir_entry *ents, size_t n,
                        uint64_t cd_offset, const size_t *want, size_t nwant,
                        const struct tail *tail, struct wa_error *err)
{
    f->sw = scan_wheel_new(f->r, ents, n, 0);
    f->ents = ents;
    f->nents = n;
    f->cd_offset = cd_offset;
    f->wanted = want;
    int rc = 0;
    for (size_t a = 0; a < nwant && rc == 0;) {
        size_t b = a;
        while (b + 1 < nwant &&
               ents[want[b + 1]].lho - member_end(ents, n, want[b], cd_offset) <= SPAN_GAP)
            b++;
        uint64_t start = ents[want[a]].lho, end = member_end(ents, n, want[b], cd_offset);
        f->k = f->k_first = a;
        f->k_last = b;
        f->pos = start;
        f->seeked = 0;
        scan_wheel_mark(f->sw);
        if (tail && start >= tail->start && end <= tail->start + tail->len) {
            rc = feed_span(f, tail->buf + (start - tail->start), (size_t)(end - start), err);
            a = b + 1;
            continue;
        }
        struct http_request req;
        base_request(f, &req);
        f->want_start = req.range_start = (int64_t)start;
        f->want_end = req.range_end = (int64_t)end - 1;
        f->checked = 0;
        req.body = member_sink;
        req.restart = member_restart;
        struct http_response resp;
        char q[160], what[200];
        wa_quote(q, sizeof q, ents[want[a]].name, 120);
        snprintf(what, sizeof what, "member %s%s", q, b > a ? " and the next" : "");
        rc = run_request(f, &req, 206, what, &resp, err);
        if (rc == 0 && resp.body_bytes != end - start)
            rc = wa_error_set(err, WA_ERR_NETWORK, "%s: range returned %llu of %llu bytes", q,
                              (unsigned long long)resp.body_bytes,
                              (unsigned long long)(end - start));
        a = b + 1;
    }
    if (rc == 0)
        rc = scan_wheel_finish(f->sw, 0, err);
    scan_wheel_free(f->sw);
    f->sw = NULL;
    return rc;
}

static int finish_full(struct fetch *f, struct wa_error *err)
{
    int rc = scan_wheel_finish(f->sw_full, 1, err);
    if (rc < 0)
        return rc;
    if (f->total >= 0 && f->full_bytes != (uint64_t)f->total)
        return wa_error_set(err, WA_ERR_NETWORK,
                            "the whole file is %llu bytes, the range answers said %lld",
                            (unsigned long long)f->full_bytes, (long long)f->total);
    sha256_final_hex(f->h, f->r->sha256);
    f->st->size = f->full_bytes;
    f->r->size = f->full_bytes;
    if (f->expected) {
        if (strcmp(f->expected, f->r->sha256) != 0)
            return wa_error_set(err, WA_ERR_CHECKSUM,
                                "sha256 mismatch: the index says %s, the file is %s", f->expected,
                                f->r->sha256);
        f->st->sha256_checked = 1;
    }
    return 0;
}

/* Sink of a plain GET of the whole file (after the central directory was
 * read by range). */
static int whole_sink(void *ud, const struct http_response *resp, const uint8_t *buf, size_t n,
                      struct wa_error *err)
{
    struct fetch *f = ud;
    count(f, n);
    if (resp->status != 200)
        return wa_error_set(err, WA_ERR_NETWORK,
                            "server answered a request for the whole file with HTTP %ld",
                            resp->status);
    return full_feed(f, buf, n, err);
}

static void whole_restart(void *ud)
{
    full_reset((struct fetch *)ud);
}

/* The ranges would cover most of the file anyway: read it whole, once,
 * through the scanner and the hash, with the central directory known. */
static int read_whole(struct fetch *f, const struct zipdir_entry *ents, size_t n,
                      struct wa_error *err)
{
    f->full = 1;
    f->full_ents = ents;
    f->full_nents = n;
    struct http_request req;
    base_request(f, &req);
    req.range_start = -1;
    req.body = whole_sink;
    req.restart = whole_restart;
    struct http_response resp;
    int rc = run_request(f, &req, 200, "the whole file", &resp, err);
    if (rc == 0 && !f->sw_full)
        rc = wa_error_set(err, WA_ERR_NETWORK, "the whole file came back empty");
    if (rc == 0)
        rc = finish_full(f, err);
    return rc;
}

/* zipdir_fetch_fn: a range of the remote file. */
static int fetch_for_zipdir(void *ud, uint64_t off, uint64_t len, const uint8_t **data,
                            struct wa_error *err)
{
    struct fetch *f = ud;
    int rc = fetch_range(f, off, len ? len : 1, err); /* checks the length */
    *data = (const uint8_t *)f->buf.buf;
    return rc;
}

/* Central directory from the tail (and more ranges when it lies before). */
static int ranged(struct fetch *f, uint64_t size, uint64_t tail_start, struct wa_error *err)
{
    /* The tail is kept apart: fetch_range reuses f->buf. */
    struct strbuf keep = STRBUF_INIT;
    strbuf_add(&keep, f->buf.buf, f->buf.len);
    struct zipdir_entry *ents = NULL;
    size_t n = 0;
    struct zipdir_eocd eocd;
    int rc = zipdir_read((const uint8_t *)keep.buf, keep.len, tail_start, size, fetch_for_zipdir, f,
                         &eocd, &ents, &n, err);
    if (rc < 0) {
        strbuf_free(&keep);
        if (err && err->code != WA_ERR_NETWORK)
            wa_error_prefix(err, "not a readable zip archive");
        return rc;
    }
    f->r->kind = SCAN_KIND_ZIP;
    uint64_t want = 0;
    size_t *idx = xcalloc(n ? n : 1, sizeof *idx), nidx = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t end = member_end(ents, n, i, eocd.cd_offset);
        if (wanted(f, &ents[i]) && end > ents[i].lho) {
            want += end - ents[i].lho;
            idx[nidx++] = i;
        }
    }
    if ((double)want >= (double)size * WHEELFETCH_WHOLE_PERCENT / 100.0) {
        rc = read_whole(f, ents, n, err);
    } else {
        f->st->range_mode = 1;
        struct tail t = {(const uint8_t *)keep.buf, keep.len, tail_start};
        rc = scan_members(f, ents, n, eocd.cd_offset, idx, nidx, &t, err);
    }
    strbuf_free(&keep);
    free(idx);
    zipdir_entries_free(ents, n);
    return rc;
}

int wheelfetch_scan(struct http_client *c, const char *url, const char *expected_sha256,
                    struct scan_result *r, struct wheelfetch_stats *st,
                    wheelfetch_progress progress, void *ud, struct wa_error *err)
{
    struct wheelfetch_request rq = {url, NULL, expected_sha256, 0, 0, 0};
    return wheelfetch_scan_from(c, &rq, r, st, progress, ud, err);
}

int wheelfetch_scan_from(struct http_client *c, const struct wheelfetch_request *rq,
                         struct scan_result *r, struct wheelfetch_stats *st,
                         wheelfetch_progress progress, void *ud, struct wa_error *err)
{
    const char *url = rq->url, *expected_sha256 = rq->expected_sha256;
    struct fetch f;
    memset(&f, 0, sizeof f);
    memset(st, 0, sizeof *st);
    f.c = c;
    f.url = url;
    f.origin = rq->origin;
    f.strict_origin = rq->strict_origin;
    f.skip_bundled = rq->skip_bundled;
    f.expected = expected_sha256 && *expected_sha256 ? expected_sha256 : NULL;
    f.r = r;
    f.st = st;
    f.progress = progress;
    f.ud = ud;
    f.total = -1;
    f.buf_max = WHEELFETCH_TAIL;
    r->kind = SCAN_KIND_ZIP;

    struct http_request req;
    base_request(&f, &req);
    req.range_start = -1;
    req.range_suffix = rq->whole ? 0 : WHEELFETCH_TAIL; /* no Range: the whole file */
    req.body = tail_sink;
    req.restart = tail_restart;
    struct http_response resp;
    st->requests = 1;
    int rc = http_get(c, &req, &resp, err);
    st->bytes += resp.bytes_received;
    if (rc == 0 && resp.status != 200 && resp.status != 206) {
        st->http_status = resp.status;
        rc = wa_error_set(err, WA_ERR_NETWORK, "HTTP %ld", resp.status);
    }
    if (rc == 0 && resp.status == 200) {
        rc = f.sw_full ? finish_full(&f, err)
                       : wa_error_set(err, WA_ERR_NETWORK, "the server sent an empty file");
    } else if (rc == 0 && !f.checked) {
        rc = wa_error_set(err, WA_ERR_NETWORK, "206 answer with an empty body");
    } else if (rc == 0) {
        f.total = resp.range_total;
        if (f.buf.len != (uint64_t)(resp.range_end - resp.range_start + 1)) {
            rc = wa_error_set(err, WA_ERR_NETWORK, "range returned %zu of %lld bytes", f.buf.len,
                              (long long)(resp.range_end - resp.range_start + 1));
        } else if (resp.range_start == 0) {
            /* The whole file fitted in the tail: read it from memory. */
            struct strbuf whole = f.buf;
            memset(&f.buf, 0, sizeof f.buf);
            rc = full_feed(&f, (const uint8_t *)whole.buf, whole.len, err);
            if (rc == 0)
                rc = finish_full(&f, err);
            strbuf_free(&whole);
        } else {
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
