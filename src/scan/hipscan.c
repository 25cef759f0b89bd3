/*
 * hipscan: streaming recognition of clang offload bundles.
 *
 * States: SEARCH tests 8-aligned offsets for "__CL" or "CCOB"; HEAD collects
 * the bundle header and entry table (or the CCOB header) until it parses or
 * is rejected (a rejected candidate's bytes are searched again from the next
 * aligned offset); PLAIN walks the bundle's body, copying the first bytes of
 * each code object into its probe; CCOB feeds the compressed stream to an
 * inflater whose output first fills the table, then the probes, and is
 * dropped after that.
 */
#include "hipscan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "inflate.h"
#include "offload.h"
#include "warnlist.h"
#include "xalloc.h"

#define PROBE_LEN 64u
#define INFLATE_BUDGET (64ull << 20) /* inflated bytes read for the probes at most */
#define MAX_REPLAY_DEPTH 16
#define MAX_REJECTS 16
#define MAX_WARNINGS 32

enum state { H_SEARCH, H_HEAD, H_PLAIN, H_CCOB };

struct probe {
    uint64_t at; /* absolute offset (plain) or inflated offset (CCOB) */
    size_t entry;
    uint8_t buf[PROBE_LEN];
    size_t have;
};

struct hipscan {
    uint64_t size;
    int failed;
    struct wa_error err;
    struct hipscan_result r;
    size_t capb, cape, capw, capr;

    enum state st;
    uint64_t cand_off;
    uint8_t *head;
    size_t headlen, headcap, headneed;
    int depth;
    struct offload_table_scan tscan; /* of the table in head, or in table (CCOB) */

    uint64_t body_end; /* absolute end of the current bundle, UINT64_MAX if unknown */
    struct probe *probes;
    size_t nprobes, capp;

    /* CCOB */
    struct offload_ccob ccob;
    uint64_t comp_left; /* compressed bytes still to pass; UINT64_MAX for v1 */
    int inflating;      /* the decoder still runs */
    int stream_done;
    uint64_t out_pos;
    uint8_t *table; /* inflated prefix until the table parses */
    size_t tablelen, tablecap;
    int table_done;
    size_t bundle;        /* index of the current bundle once created */
    struct inflater *inf; /* made on the first compressed bundle, kept */
    int enough;           /* the decoder's sink needs no more of this bundle */
};

static void warnf(struct hipscan *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warnf(struct hipscan *h, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    warnlist_addv(&h->r.warnings, &h->r.nwarnings, &h->capw, MAX_WARNINGS, fmt, ap);
    va_end(ap);
}

static int fail(struct hipscan *h, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct hipscan *h, int code, const char *fmt, ...)
{
    if (h->failed)
        return h->err.code;
    h->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    char msg[WA_ERROR_MSG_SIZE];
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return wa_error_set(&h->err, code, "%s", msg);
}

static void add_reject(struct hipscan *h, uint64_t off, const char *why)
{
    if (h->r.nrejects >= MAX_REJECTS)
        return;
    h->r.rejects = xgrow(h->r.rejects, &h->capr, h->r.nrejects + 1, sizeof *h->r.rejects);
    struct hipscan_reject *rj = &h->r.rejects[h->r.nrejects++];
    rj->offset = off;
    snprintf(rj->why, sizeof rj->why, "%s", why);
}

struct hipscan *hipscan_new(uint64_t size)
{
    struct hipscan *h = xcalloc(1, sizeof *h);
    h->size = size;
    return h;
}

/* Stops decoding the current bundle (the decoder is kept for the next). */
static void decoder_free(struct hipscan *h)
{
    h->inflating = 0;
}

void hipscan_free(struct hipscan *h)
{
    if (!h)
        return;
    decoder_free(h);
    for (size_t i = 0; i < h->r.nwarnings; i++)
        free(h->r.warnings[i]);
    free(h->r.warnings);
    free(h->r.bundles);
    free(h->r.entries);
    free(h->r.rejects);
    free(h->head);
    free(h->probes);
    free(h->table);
    inflater_free(h->inf);
    free(h);
}

const struct hipscan_result *hipscan_result(const struct hipscan *h)
{
    return &h->r;
}

/* ---- bundles and their code objects ---------------------------------- */

/* Creates the bundle and its entries from a parsed table; probes (at
 * `base` + entry offset) for the entries holding AMDGPU code. */
static int add_bundle(struct hipscan *h, const struct offload_entry *e, size_t n, uint64_t base)
{
    struct hipscan_result *r = &h->r;
    if (r->nbundles >= HIPSCAN_MAX_BUNDLES)
        return fail(h, WA_ERR_LIMIT, "more than %u offload bundles", HIPSCAN_MAX_BUNDLES);
    r->bundles = xgrow(r->bundles, &h->capb, r->nbundles + 1, sizeof *r->bundles);
    struct hipscan_bundle *b = &r->bundles[r->nbundles];
    memset(b, 0, sizeof *b);
    b->offset = h->cand_off;
    b->first_entry = r->nentries;
    h->bundle = r->nbundles++;
    h->nprobes = 0;
    for (size_t i = 0; i < n; i++) {
        struct target t;
        int rc = offload_parse_id(e[i].id, &t);
        if (rc == 1)
            continue; /* the host entry */
        if (rc < 0) {
            warnf(h, "offload bundle entry '%.80s' not understood", e[i].id);
            continue;
        }
        if (r->nentries >= HIPSCAN_MAX_ENTRIES)
            return fail(h, WA_ERR_LIMIT, "more than %u offload bundle entries",
                        HIPSCAN_MAX_ENTRIES);
        r->entries = xgrow(r->entries, &h->cape, r->nentries + 1, sizeof *r->entries);
        struct hipscan_entry *x = &r->entries[r->nentries];
        memset(x, 0, sizeof *x);
        x->target = t;
        x->offset = e[i].offset;
        x->size = e[i].size;
        if (e[i].size >= PROBE_LEN) {
            h->probes = xgrow(h->probes, &h->capp, h->nprobes + 1, sizeof *h->probes);
            struct probe *p = &h->probes[h->nprobes++];
            p->at = base + e[i].offset;
            p->entry = r->nentries;
            p->have = 0;
        }
        r->nentries++;
        b->nentries++;
    }
    return 0;
}

/* Copies the overlap of [at, at+n) into the probes. */
static void fill_probes(struct hipscan *h, const uint8_t *buf, size_t n, uint64_t at)
{
    for (size_t i = 0; i < h->nprobes; i++) {
        struct probe *p = &h->probes[i];
        if (p->have == PROBE_LEN)
            continue;
        uint64_t want = p->at + p->have;
        if (want < at || want >= at + n)
            continue;
        size_t take = (size_t)(at + n - want);
        if (take > PROBE_LEN - p->have)
            take = PROBE_LEN - p->have;
        memcpy(p->buf + p->have, buf + (want - at), take);
        p->have += take;
    }
}

static int probes_pending(const struct hipscan *h)
{
    for (size_t i = 0; i < h->nprobes; i++)
        if (h->probes[i].have < PROBE_LEN)
            return 1;
    return 0;
}

/* Cross-checks each entry id with its code object's e_flags. */
static void check_probes(struct hipscan *h)
{
    for (size_t i = 0; i < h->nprobes; i++) {
        struct probe *p = &h->probes[i];
        struct hipscan_entry *x = &h->r.entries[p->entry];
        char name[TARGET_NAME_MAX];
        target_format(&x->target, name, sizeof name);
        if (p->have < PROBE_LEN)
            continue; /* beyond what was inflated */
        struct offload_object o;
        if (offload_object_header(p->buf, p->have, &o) != 0) {
            warnf(h, "%s entry does not hold an AMDGPU code object", name);
            continue;
        }
        x->inspected = 1;
        x->abi_version = o.abi_version;
        x->elf_flags = o.flags;
        if (!o.has_target) {
            warnf(h, "%s entry: code object e_flags machine 0x%x unknown", name, o.mach);
            continue;
        }
        char got[TARGET_NAME_MAX];
        target_format(&o.target, got, sizeof got);
        struct target proc = x->target;
        proc.sramecc = proc.xnack = TARGET_FEAT_ANY;
        struct target oproc = o.target;
        oproc.sramecc = oproc.xnack = TARGET_FEAT_ANY;
        if (target_cmp(&proc, &oproc) != 0)
            warnf(h, "%s entry holds a code object whose e_flags say %s", name, got);
        else if (o.abi_version >= 2 &&
                 (x->target.xnack != o.target.xnack || x->target.sramecc != o.target.sramecc))
            warnf(h, "%s entry: code object e_flags say %s", name, got);
    }
    h->nprobes = 0;
}

static void end_bundle(struct hipscan *h, uint64_t end)
{
    if (h->r.nbundles && h->bundle < h->r.nbundles) {
        struct hipscan_bundle *b = &h->r.bundles[h->bundle];
        b->size = end > b->offset ? end - b->offset : 0;
    }
    check_probes(h);
    decoder_free(h);
    h->st = H_SEARCH;
    h->bundle = (size_t)-1;
}

/* ---- compressed bundles -------------------------------------------------- */

static int start_decoder(struct hipscan *h)
{
    if (!h->inf)
        h->inf = inflater_new();
    /* Only the declared bytes count; a stream that goes on is cut there. */
    inflater_reset(h->inf,
                   (h->ccob.method == OFFLOAD_ZLIB ? INFLATE_ZLIB : INFLATE_ZSTD) | INFLATE_PREFIX |
                       INFLATE_CUT,
                   h->ccob.uncompressed_size);
    h->inflating = 1;
    h->stream_done = 0;
    h->out_pos = 0;
    h->tablelen = 0;
    h->table_done = 0;
    memset(&h->tscan, 0, sizeof h->tscan);
    return 0;
}

/* Inflated bytes out[0..n) at inflated offset h->out_pos. */
static int on_inflated(struct hipscan *h, const uint8_t *out, size_t n)
{
    if (!h->table_done) {
        size_t take = n;
        if (h->tablelen + take > OFFLOAD_MAX_TABLE)
            take = OFFLOAD_MAX_TABLE - h->tablelen;
        if (h->tablecap < h->tablelen + take) {
            h->tablecap = h->tablelen + take;
            h->table = xrealloc(h->table, h->tablecap);
        }
        memcpy(h->table + h->tablelen, out, take);
        h->tablelen += take;
        struct offload_entry *e;
        size_t ne, tsize, need;
        struct wa_error err;
        int rc = offload_bundle_table_resume(h->table, h->tablelen, h->ccob.uncompressed_size,
                                             &h->tscan, &e, &ne, &tsize, &need, &err);
        if (rc == 1 && need <= OFFLOAD_MAX_TABLE && h->tablelen < h->ccob.uncompressed_size)
            return 0;
        if (rc != 0) {
            warnf(h, "compressed bundle at offset %llu does not inflate to an offload bundle: %s",
                  (unsigned long long)h->cand_off, rc == 1 ? "table too large" : err.msg);
            decoder_free(h);
            return 0;
        }
        h->table_done = 1;
        rc = add_bundle(h, e, ne, 0);
        free(e);
        if (rc < 0)
            return rc;
        struct hipscan_bundle *b = &h->r.bundles[h->bundle];
        b->compressed = 1;
        b->method = (uint8_t)h->ccob.method;
        b->version = h->ccob.version;
        b->uncompressed_size = h->ccob.uncompressed_size;
        fill_probes(h, h->table, h->tablelen, 0);
        if (take < n) /* the table stopped growing inside this chunk */
            fill_probes(h, out + take, n - take, h->out_pos + take);
    } else {
        fill_probes(h, out, n, h->out_pos);
    }
    return 0;
}

/* The decoder's sink: hands the bytes on, and asks for no more once
 * nothing more is needed from a bundle whose end is known (the table is
 * read and no probe is waiting, or the budget is spent). */
static int on_decoded(void *ud, const uint8_t *buf, size_t n, struct wa_error *err)
{
    (void)err;
    struct hipscan *h = ud;
    int rc = on_inflated(h, buf, n);
    if (rc < 0)
        return rc;
    h->out_pos += n;
    if (!h->inflating)
        return 1; /* on_inflated gave up on the bundle */
    if (h->comp_left != UINT64_MAX &&
        ((h->table_done && !probes_pending(h)) || h->out_pos > INFLATE_BUDGET)) {
        h->enough = 1; /* the rest is not needed */
        return 1;
    }
    return 0;
}

/* Feeds compressed bytes to the decoder.  *consumed: the bytes it took
 * (all of them unless the stream ended inside them, or the decoder
 * stopped). */
static int inflate_feed(struct hipscan *h, const uint8_t *in, size_t n, size_t *consumed)
{
    struct wa_error err;
    h->enough = 0;
    int rc = inflater_feed(h->inf, in, n, consumed, on_decoded, h, &err);
    if (h->failed)
        return h->err.code; /* on_inflated failed the scan */
    if (rc < 0 && h->inflating) {
        if (err.code == WA_ERR_LIMIT)
            warnf(h, "compressed bundle at offset %llu inflates past its declared %llu bytes",
                  (unsigned long long)h->cand_off, (unsigned long long)h->ccob.uncompressed_size);
        else
            warnf(h, "compressed bundle at offset %llu: %s", (unsigned long long)h->cand_off,
                  err.msg);
        decoder_free(h);
        return 0;
    }
    if (h->enough) {
        decoder_free(h);
        return 0;
    }
    if (inflater_finished(h->inf) && h->inflating) {
        h->stream_done = 1;
        h->inflating = 0;
    }
    return 0;
}

/* ---- the walker ------------------------------------------------------------ */

static int is_magic_start(const uint8_t *p, size_t n)
{
    /* "__CL" or "CCOB", or their beginnings when cut by the end of buf. */
    return (n >= 4 && (memcmp(p, "__CL", 4) == 0 || memcmp(p, "CCOB", 4) == 0)) ||
           (n < 4 && (memcmp(p, "__CL", n) == 0 || memcmp(p, "CCOB", n) == 0));
}

static size_t find_candidate(const uint8_t *buf, size_t n, uint64_t base)
{
    size_t j = (size_t)(((base + 7) & ~(uint64_t)7) - base);
    for (; j < n; j += 8)
        if ((buf[j] == '_' || buf[j] == 'C') && is_magic_start(buf + j, n - j < 4 ? n - j : 4))
            return j;
    return n;
}

static int walk(struct hipscan *h, const uint8_t *buf, size_t n, uint64_t base);

/* The candidate is not a bundle: search its bytes again from the next
 * aligned offset. */
static int reject_and_replay(struct hipscan *h, const char *why)
{
    if (why)
        add_reject(h, h->cand_off, why);
    h->st = H_SEARCH;
    if (h->headlen <= 8 || h->depth >= MAX_REPLAY_DEPTH) {
        h->headlen = 0;
        return 0;
    }
    size_t len = h->headlen - 8;
    uint8_t *replay = xmalloc(len);
    memcpy(replay, h->head + 8, len);
    uint64_t at = h->cand_off + 8;
    h->headlen = 0;
    h->depth++;
    int rc = walk(h, replay, len, at);
    h->depth--;
    free(replay);
    return rc;
}

/* The most a structure at `off` can span; when the size is unknown, still
 * no more than keeps off + span from wrapping. */
static uint64_t room_after(const struct hipscan *h, uint64_t off)
{
    return h->size == UINT64_MAX ? UINT64_MAX - off : h->size - off;
}

/* The head holds headlen bytes at cand_off.  Returns 0 when more bytes are
 * needed or the candidate was settled. */
static int head_ready(struct hipscan *h)
{
    struct wa_error err;
    size_t need;
    if (h->head[0] == '_') {
        struct offload_entry *e;
        size_t ne, tsize;
        int rc = offload_bundle_table_resume(h->head, h->headlen, room_after(h, h->cand_off),
                                             &h->tscan, &e, &ne, &tsize, &need, &err);
        if (rc == 1) {
            if (need > OFFLOAD_MAX_TABLE)
                return reject_and_replay(h, "offload bundle table too large");
            h->headneed = need;
            return 0;
        }
        if (rc < 0)
            return reject_and_replay(
                h, memcmp(h->head, OFFLOAD_MAGIC, OFFLOAD_MAGIC_LEN) == 0 ? err.msg : NULL);
        uint64_t end = tsize;
        for (size_t i = 0; i < ne; i++)
            if (e[i].size && e[i].offset + e[i].size > end)
                end = e[i].offset + e[i].size;
        rc = add_bundle(h, e, ne, h->cand_off);
        free(e);
        if (rc < 0)
            return rc;
        h->body_end = h->cand_off + end;
        h->st = H_PLAIN;
        if (h->cand_off + h->headlen >= h->body_end)
            end_bundle(h, h->body_end);
        return 0;
    }
    int rc =
        offload_ccob_header(h->head, h->headlen, room_after(h, h->cand_off), &h->ccob, &need, &err);
    if (rc == 1) {
        h->headneed = need;
        return 0;
    }
    if (rc < 0)
        return reject_and_replay(h, err.msg);
    h->comp_left = h->ccob.version == 1 ? UINT64_MAX : h->ccob.total_size - h->ccob.header_size;
    h->body_end = h->ccob.version == 1 ? UINT64_MAX : h->cand_off + h->ccob.total_size;
    h->bundle = (size_t)-1;
    h->nprobes = 0;
    h->st = H_CCOB;
    return start_decoder(h);
}

static int walk(struct hipscan *h, const uint8_t *buf, size_t n, uint64_t base)
{
    size_t i = 0;
    while (i < n && !h->failed) {
        uint64_t pos = base + i;
        switch (h->st) {
        case H_SEARCH: {
            size_t j = i + find_candidate(buf + i, n - i, pos);
            if (j < n) {
                h->st = H_HEAD;
                h->cand_off = base + j;
                h->headlen = 0;
                memset(&h->tscan, 0, sizeof h->tscan);
                h->headneed = buf[j] == '_' ? OFFLOAD_MAGIC_LEN + 8 : 8;
            }
            i = j;
            break;
        }
        case H_HEAD: {
            size_t take = h->headneed - h->headlen;
            if (take > n - i)
                take = n - i;
            if (h->headcap < h->headneed) {
                h->headcap = h->headneed;
                h->head = xrealloc(h->head, h->headcap);
            }
            memcpy(h->head + h->headlen, buf + i, take);
            h->headlen += take;
            i += take;
            /* A magic cut by the previous chunk's end may not match. */
            const char *magic = h->head[0] == '_' ? OFFLOAD_MAGIC : OFFLOAD_CCOB_MAGIC;
            size_t mlen = h->head[0] == '_' ? OFFLOAD_MAGIC_LEN : 4;
            size_t k = h->headlen < mlen ? h->headlen : mlen;
            if (memcmp(h->head, magic, k) != 0) {
                int rc = reject_and_replay(h, NULL);
                if (rc < 0)
                    return rc;
                break;
            }
            if (h->headlen < h->headneed)
                break;
            int rc = head_ready(h);
            if (rc < 0)
                return rc;
            break;
        }
        case H_PLAIN: {
            size_t take = n - i;
            if (h->body_end - pos < take)
                take = (size_t)(h->body_end - pos);
            fill_probes(h, buf + i, take, pos);
            i += take;
            if (base + i >= h->body_end)
                end_bundle(h, h->body_end);
            break;
        }
        case H_CCOB: {
            size_t take = n - i;
            if (h->comp_left != UINT64_MAX && h->comp_left < take)
                take = (size_t)h->comp_left;
            size_t used = 0;
            if (h->inflating) {
                int rc = inflate_feed(h, buf + i, take, &used);
                if (rc < 0)
                    return rc;
            }
            if (h->comp_left == UINT64_MAX) {
                /* v1 gives no size: the bundle ends where its stream does (or
                 * where the decoder gave up). */
                i += used;
                if (h->stream_done || !h->inflating || used == 0)
                    end_bundle(h, base + i);
                break;
            }
            h->comp_left -= take;
            i += take;
            if (h->comp_left == 0)
                end_bundle(h, base + i);
            break;
        }
        }
    }
    return h->failed ? h->err.code : 0;
}

int hipscan_feed(struct hipscan *h, const uint8_t *buf, size_t n, uint64_t base,
                 struct wa_error *err)
{
    int rc = h->failed ? h->err.code : walk(h, buf, n, base);
    if (rc < 0 && err)
        *err = h->err;
    return rc;
}

int hipscan_finish(struct hipscan *h, struct wa_error *err)
{
    if (!h->failed) {
        switch (h->st) {
        case H_SEARCH:
            break;
        case H_HEAD:
            if (h->headlen >= 4)
                add_reject(h, h->cand_off, "bundle header cut off by the end of the binary");
            h->st = H_SEARCH;
            break;
        case H_PLAIN:
            fail(h, WA_ERR_TRUNCATED,
                 "offload bundle at offset %llu is cut off by the end of the binary",
                 (unsigned long long)h->cand_off);
            break;
        case H_CCOB:
            if (h->comp_left != UINT64_MAX && h->comp_left > 0)
                fail(h, WA_ERR_TRUNCATED,
                     "compressed bundle at offset %llu is cut off by the end of the binary",
                     (unsigned long long)h->cand_off);
            else
                end_bundle(h, h->size == UINT64_MAX ? h->cand_off : h->size);
            break;
        }
    }
    if (h->failed) {
        if (err)
            *err = h->err;
        return h->err.code;
    }
    return 0;
}
