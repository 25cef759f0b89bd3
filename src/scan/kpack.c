/*
 * kpack: AMD kernel archives read as they stream (kpack.h).
 */
#include "kpack.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msgpack.h"
#include "offload.h"
#include "xalloc.h"

#define ALIGN 64
#define HEAD 64

/* A code object's header as read at capture time (offload_object_header). */
struct header_seen {
    uint64_t offset;
    uint32_t flags;
    uint8_t abi;
    uint8_t has_target;   /* its MACH value is known */
    struct target target; /* the processor its e_flags name */
};

struct kpack {
    uint64_t size, pos;
    uint8_t head[16];
    size_t have_head;
    int bad_head; /* not "KPAK": said at finish */
    uint64_t toc_offset;
    uint8_t *toc; /* bytes from toc_offset on, as they pass */
    size_t toc_have, toc_cap;
    /* the code object header being read at a 64-byte boundary */
    uint8_t cur[HEAD];
    uint64_t cur_off;
    size_t cur_have;
    int capturing;
    struct header_seen *seen;
    size_t nseen, capseen;
    int too_many_headers;
    struct kpack_result r;
    size_t cap_entries;
};

struct kpack *kpack_new(uint64_t size)
{
    struct kpack *k = xcalloc(1, sizeof *k);
    k->size = size;
    return k;
}

void kpack_free(struct kpack *k)
{
    if (!k)
        return;
    for (size_t i = 0; i < k->r.nentries; i++)
        free(k->r.entries[i].binary);
    free(k->r.entries);
    for (size_t i = 0; i < k->r.nwarnings; i++)
        free(k->r.warnings[i]);
    free(k->r.warnings);
    free(k->toc);
    free(k->seen);
    free(k);
}

const struct kpack_result *kpack_result(const struct kpack *k)
{
    return &k->r;
}

static void warnf(struct kpack *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warnf(struct kpack *k, const char *fmt, ...)
{
    if (k->r.nwarnings >= 16)
        return;
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    k->r.warnings = xrealloc(k->r.warnings, (k->r.nwarnings + 1) * sizeof *k->r.warnings);
    k->r.warnings[k->r.nwarnings++] = xstrdup(buf);
}

static uint64_t rd_le(const uint8_t *p, unsigned n)
{
    uint64_t x = 0;
    for (unsigned i = n; i-- > 0;)
        x = x << 8 | p[i];
    return x;
}

/* A complete 64-byte header at cur_off: kept when it is an AMDGPU code
 * object's. */
static void header_done(struct kpack *k)
{
    struct offload_object o;
    k->capturing = 0;
    if (offload_object_header(k->cur, HEAD, &o) != 0)
        return;
    if (k->nseen >= KPACK_MAX_HEADERS) {
        k->too_many_headers = 1;
        return;
    }
    k->seen = xgrow(k->seen, &k->capseen, k->nseen + 1, sizeof *k->seen);
    k->seen[k->nseen++] =
        (struct header_seen){k->cur_off, o.flags, o.abi_version, (uint8_t)o.has_target, o.target};
}

/* The blob area [64, toc_offset): code object headers at 64-byte
 * boundaries.  A boundary whose bytes start like an ELF file starts a
 * capture of its 64-byte header, which may end in the next chunk. */
static void scan_blobs(struct kpack *k, const uint8_t *buf, size_t n, uint64_t base)
{
    uint64_t end = base + n;
    if (end > k->toc_offset)
        end = k->toc_offset;
    if (k->capturing) { /* it continues at the start of this chunk */
        size_t got = HEAD - k->cur_have < n ? HEAD - k->cur_have : n;
        memcpy(k->cur + k->cur_have, buf, got);
        k->cur_have += got;
        if (k->cur_have < HEAD)
            return;
        header_done(k);
    }
    uint64_t o = (base + ALIGN - 1) / ALIGN * ALIGN;
    if (o < ALIGN)
        o = ALIGN;
    for (; o < end; o += ALIGN) {
        const uint8_t *p = buf + (o - base);
        size_t left = (size_t)(base + n - o);
        if (memcmp(p,
                   "\x7f"
                   "ELF",
                   left < 4 ? left : 4) != 0)
            continue;
        k->cur_off = o;
        k->cur_have = left < HEAD ? left : HEAD;
        memcpy(k->cur, p, k->cur_have);
        k->capturing = 1;
        if (k->cur_have < HEAD)
            break; /* the chunk ends inside it */
        header_done(k);
    }
}

int kpack_feed(struct kpack *k, const uint8_t *buf, size_t n, uint64_t base, struct wa_error *err)
{
    if (base != k->pos)
        return wa_error_set(err, WA_ERR_USAGE, "kernel archive: bytes fed out of order");
    k->pos += n;
    if (k->have_head < sizeof k->head) {
        size_t add = sizeof k->head - k->have_head < n ? sizeof k->head - k->have_head : n;
        memcpy(k->head + k->have_head, buf, add);
        k->have_head += add;
        if (k->have_head == sizeof k->head) {
            if (memcmp(k->head, KPACK_MAGIC, 4) != 0)
                k->bad_head = 1;
            k->r.version = (uint32_t)rd_le(k->head + 4, 4);
            k->toc_offset = rd_le(k->head + 8, 8);
        }
    }
    if (k->have_head < sizeof k->head || k->bad_head)
        return 0;
    if (k->toc_offset < sizeof k->head || (k->size != UINT64_MAX && k->toc_offset >= k->size))
        return 0; /* said at finish */
    scan_blobs(k, buf, n, base);
    /* the table: bytes at toc_offset and after */
    uint64_t end = base + n;
    if (end > k->toc_offset) {
        uint64_t from = base > k->toc_offset ? base : k->toc_offset;
        size_t len = (size_t)(end - from);
        if (k->toc_have + len > KPACK_MAX_TOC)
            return 0; /* said at finish */
        k->toc = xgrow(k->toc, &k->toc_cap, k->toc_have + len, 1);
        memcpy(k->toc + k->toc_have, buf + (from - base), len);
        k->toc_have += len;
    }
    return 0;
}

static int fail(struct wa_error *err, const char *what)
{
    return wa_error_set(err, WA_ERR_FORMAT, "kernel archive: %s", what);
}

/* A string value into buf (n bytes); -1 when it is not a string or does
 * not fit. */
static int str_into(const struct msgpack_value *v, char *buf, size_t n)
{
    if (v->type != MSGPACK_STR || v->len >= n)
        return -1;
    memcpy(buf, v->s, (size_t)v->len);
    buf[v->len] = '\0';
    return 0;
}

/* blobs: [{offset, size}, ...] by ordinal. */
static int read_blobs(struct msgpack *m, uint64_t n, uint64_t **off, uint64_t **sz,
                      uint64_t *nblobs)
{
    if (n > KPACK_MAX_ENTRIES)
        return -1;
    *off = xcalloc(n ? n : 1, sizeof **off);
    *sz = xcalloc(n ? n : 1, sizeof **sz);
    *nblobs = n;
    for (uint64_t i = 0; i < n; i++) {
        struct msgpack_value v, key, val;
        if (msgpack_next(m, &v) < 0 || v.type != MSGPACK_MAP)
            return -1;
        for (uint64_t j = 0; j < v.len; j++) {
            if (msgpack_next(m, &key) < 0)
                return -1;
            if (msgpack_is_str(&key, "offset") || msgpack_is_str(&key, "size")) {
                if (msgpack_next(m, &val) < 0 || val.type != MSGPACK_UINT)
                    return -1;
                (msgpack_is_str(&key, "offset") ? *off : *sz)[i] = val.u;
            } else if (msgpack_skip(m) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* toc: {binary path: {gfx target: {type, ordinal, ...}}}. */
static int read_toc(struct kpack *k, struct msgpack *m, uint64_t nbin, struct wa_error *err)
{
    for (uint64_t b = 0; b < nbin; b++) {
        struct msgpack_value path, arches;
        char name[1024];
        if (msgpack_next(m, &path) < 0 || str_into(&path, name, sizeof name) < 0)
            return fail(err, "a binary's path in its table is not a string of under 1024 bytes");
        if (msgpack_next(m, &arches) < 0 || arches.type != MSGPACK_MAP)
            return fail(err, "a binary's entry in its table is not a map of gfx targets");
        for (uint64_t a = 0; a < arches.len; a++) {
            struct msgpack_value arch, ent, key, val;
            char tname[TARGET_NAME_MAX];
            struct target t;
            if (msgpack_next(m, &arch) < 0 || str_into(&arch, tname, sizeof tname) < 0 ||
                target_parse(tname, &t) != 0 || t.kind != TARGET_GFX)
                return fail(err, "a target in its table is not a gfx target");
            if (msgpack_next(m, &ent) < 0 || ent.type != MSGPACK_MAP)
                return fail(err, "a kernel's entry in its table is not a map");
            uint64_t ordinal = UINT64_MAX;
            int hsaco = 1;
            for (uint64_t j = 0; j < ent.len; j++) {
                if (msgpack_next(m, &key) < 0)
                    return fail(err, "its table ends inside a kernel's entry");
                if (msgpack_is_str(&key, "ordinal")) {
                    if (msgpack_next(m, &val) < 0 || val.type != MSGPACK_UINT)
                        return fail(err, "a kernel's ordinal is not an unsigned integer");
                    ordinal = val.u;
                } else if (msgpack_is_str(&key, "type")) {
                    if (msgpack_next(m, &val) < 0 || val.type != MSGPACK_STR)
                        return fail(err, "a kernel's type is not a string");
                    hsaco = msgpack_is_str(&val, "hsaco");
                } else if (msgpack_skip(m) < 0) {
                    return fail(err, "its table ends inside a kernel's entry");
                }
            }
            if (ordinal == UINT64_MAX)
                return fail(err, "a kernel's entry has no ordinal");
            if (!hsaco)
                continue; /* not a code object: no GPU code we judge */
            if (k->r.nentries >= KPACK_MAX_ENTRIES)
                return wa_error_set(err, WA_ERR_LIMIT, "kernel archive: more than %u kernels",
                                    KPACK_MAX_ENTRIES);
            k->r.entries =
                xgrow(k->r.entries, &k->cap_entries, k->r.nentries + 1, sizeof *k->r.entries);
            struct kpack_entry *e = &k->r.entries[k->r.nentries++];
            memset(e, 0, sizeof *e);
            e->binary = xstrdup(name);
            e->target = t;
            e->ordinal = ordinal;
        }
    }
    return 0;
}

static const struct header_seen *seen_at(const struct kpack *k, uint64_t off)
{
    size_t lo = 0, hi = k->nseen; /* in offset order: the stream's */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (k->seen[mid].offset < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < k->nseen && k->seen[lo].offset == off ? &k->seen[lo] : NULL;
}

/* Each uncompressed entry against the code object at its blob. */
static void check_blobs(struct kpack *k, const uint64_t *off, const uint64_t *sz, uint64_t nblobs)
{
    for (size_t i = 0; i < k->r.nentries; i++) {
        struct kpack_entry *e = &k->r.entries[i];
        char want[TARGET_NAME_MAX], got[TARGET_NAME_MAX];
        target_format(&e->target, want, sizeof want);
        if (e->ordinal >= nblobs) {
            warnf(k, "%s %s: ordinal %llu is past its %llu blobs", e->binary, want,
                  (unsigned long long)e->ordinal, (unsigned long long)nblobs);
            continue;
        }
        e->offset = off[e->ordinal];
        e->size = sz[e->ordinal];
        if (e->offset < 16 || e->offset >= k->toc_offset || e->size > k->toc_offset - e->offset) {
            warnf(k, "%s %s: its blob lies outside the archive's kernels", e->binary, want);
            continue;
        }
        const struct header_seen *h = seen_at(k, e->offset);
        if (!h) {
            warnf(k, "%s %s: its blob is not an AMDGPU code object", e->binary, want);
            continue;
        }
        if (!h->has_target)
            continue;
        e->inspected = 1;
        e->abi_version = h->abi;
        e->elf_flags = h->flags;
        struct target a = e->target, b = h->target;
        a.sramecc = a.xnack = b.sramecc = b.xnack = 0;
        if (target_cmp(&a, &b) != 0) {
            target_format(&h->target, got, sizeof got);
            warnf(k, "%s: the table says %s, the code object's header %s", e->binary, want, got);
        }
    }
}

int kpack_finish(struct kpack *k, struct wa_error *err)
{
    if (k->have_head < sizeof k->head)
        return fail(err, "shorter than its 16-byte header");
    if (k->bad_head)
        return fail(err, "does not start with KPAK");
    if (k->toc_offset < sizeof k->head || k->toc_offset >= k->pos)
        return wa_error_set(err, WA_ERR_FORMAT,
                            "kernel archive: its table of contents at %llu lies outside its %llu "
                            "bytes",
                            (unsigned long long)k->toc_offset, (unsigned long long)k->pos);
    if (k->pos - k->toc_offset > KPACK_MAX_TOC)
        return wa_error_set(err, WA_ERR_LIMIT,
                            "kernel archive: its table of contents is over %u bytes",
                            KPACK_MAX_TOC);
    struct msgpack m;
    struct msgpack_value top, key, val;
    msgpack_init(&m, k->toc, k->toc_have);
    if (msgpack_next(&m, &top) < 0 || top.type != MSGPACK_MAP)
        return fail(err, "its table of contents is not a MessagePack map");
    uint64_t *off = NULL, *sz = NULL, nblobs = 0;
    int rc = 0, have_toc = 0;
    snprintf(k->r.scheme, sizeof k->r.scheme, "none");
    for (uint64_t j = 0; j < top.len && rc == 0; j++) {
        if (msgpack_next(&m, &key) < 0) {
            rc = fail(err, "its table of contents ends early");
        } else if (msgpack_is_str(&key, "gfx_arch_family")) {
            if (msgpack_next(&m, &val) < 0 || str_into(&val, k->r.family, sizeof k->r.family) < 0)
                rc = fail(err, "gfx_arch_family is not a short string");
        } else if (msgpack_is_str(&key, "compression_scheme")) {
            if (msgpack_next(&m, &val) < 0 || str_into(&val, k->r.scheme, sizeof k->r.scheme) < 0)
                rc = fail(err, "compression_scheme is not a short string");
        } else if (msgpack_is_str(&key, "blobs")) {
            if (msgpack_next(&m, &val) < 0 || val.type != MSGPACK_ARRAY || off ||
                read_blobs(&m, val.len, &off, &sz, &nblobs) < 0)
                rc = fail(err, "blobs is not a list of {offset, size}");
        } else if (msgpack_is_str(&key, "toc")) {
            if (msgpack_next(&m, &val) < 0 || val.type != MSGPACK_MAP || have_toc)
                rc = fail(err, "toc is not a map of binaries");
            else
                rc = read_toc(k, &m, val.len, err);
            have_toc = 1;
        } else if (msgpack_skip(&m) < 0) {
            rc = fail(err, "its table of contents ends early");
        }
    }
    if (rc == 0 && !have_toc)
        rc = fail(err, "its table of contents has no toc");
    k->r.compressed = strcmp(k->r.scheme, "none") != 0;
    if (rc == 0 && !k->r.compressed)
        check_blobs(k, off, sz, nblobs);
    if (rc == 0 && k->too_many_headers)
        warnf(k, "more than %u code object headers: the later ones are not checked",
              KPACK_MAX_HEADERS);
    free(off);
    free(sz);
    return rc;
}
