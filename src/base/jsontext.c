/*
 * jsontext: json_dumps's bytes, written straight into a strbuf.
 */
#include "jsontext.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define FAST_FLAGS (JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY)

/* The text of a container referenced from several places (GPUs of one
 * compute capability share their answers): written once, then copied
 * from where it was written.  Keyed by address, open addressing. */
struct seen_text {
    const json_t *v; /* NULL: empty slot */
    size_t off, len; /* in the output */
};

struct writer {
    struct strbuf *sb;
    size_t flags;
    struct seen_text *seen;
    size_t nseen, capseen; /* capseen: 0 or a power of two */
};

/* Containers smaller than this are written again: a lookup costs more. */
#define SHARED_MIN_BYTES 64

static size_t seen_slot(const struct writer *w, const json_t *v)
{
    size_t h = (size_t)(uintptr_t)v;
    h ^= h >> 17;
    h *= 0x9e3779b97f4a7c15ull;
    size_t i = (h >> 7) & (w->capseen - 1);
    while (w->seen[i].v && w->seen[i].v != v)
        i = (i + 1) & (w->capseen - 1);
    return i;
}

static void seen_add(struct writer *w, const json_t *v, size_t off, size_t len)
{
    if ((w->nseen + 1) * 2 > w->capseen) {
        struct seen_text *old = w->seen;
        size_t oldcap = w->capseen;
        w->capseen = oldcap ? oldcap * 2 : 64;
        w->seen = xcalloc(w->capseen, sizeof *w->seen);
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].v)
                w->seen[seen_slot(w, old[i].v)] = old[i];
        free(old);
    }
    size_t i = seen_slot(w, v);
    if (!w->seen[i].v)
        w->nseen++;
    w->seen[i] = (struct seen_text){v, off, len};
}

/* -1: not for the fast path (json_dumps decides) */
static int put_value(struct writer *w, const json_t *v, int depth);

static void put_integer(struct strbuf *sb, json_int_t i)
{
    char digits[20];
    if (i < 0)
        strbuf_addc(sb, '-');
    /* unsigned, so that the most negative value has a magnitude */
    unsigned long long u = i < 0 ? 0ull - (unsigned long long)i : (unsigned long long)i;
    strbuf_add(sb, digits, strbuf_decimal(u, digits));
}

static int key_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int put_member(struct writer *w, const char *key, const json_t *value, int depth, int first)
{
    int compact = (w->flags & JSON_COMPACT) != 0;
    if (!first)
        strbuf_add(w->sb, ", ", compact ? 1 : 2);
    if (strbuf_add_json(w->sb, key) < 0)
        return -1;
    strbuf_add(w->sb, ": ", compact ? 1 : 2);
    return put_value(w, value, depth + 1);
}

static int put_object(struct writer *w, const json_t *v, int depth)
{
    size_t n = json_object_size(v);
    strbuf_addc(w->sb, '{');
    const char *key;
    void *it;
    if (!(w->flags & JSON_SORT_KEYS) || n < 2) {
        int first = 1;
        for (it = json_object_iter((json_t *)v); it; it = json_object_iter_next((json_t *)v, it)) {
            key = json_object_iter_key(it);
            if (json_object_iter_key_len(it) != strlen(key))
                return -1;
            if (put_member(w, key, json_object_iter_value(it), depth, first) < 0)
                return -1;
            first = 0;
        }
    } else {
        const char *stack[32];
        const char **keys = n <= 32 ? stack : xmalloc(n * sizeof *keys);
        size_t k = 0;
        int rc = 0;
        for (it = json_object_iter((json_t *)v); it && k < n;
             it = json_object_iter_next((json_t *)v, it)) {
            key = json_object_iter_key(it);
            if (json_object_iter_key_len(it) != strlen(key)) {
                rc = -1;
                break;
            }
            keys[k++] = key;
        }
        if (rc == 0) {
            qsort(keys, k, sizeof *keys, key_cmp);
            for (size_t i = 0; i < k && rc == 0; i++)
                rc = put_member(w, keys[i], json_object_get(v, keys[i]), depth, i == 0);
        }
        if (keys != stack)
            free(keys);
        if (rc < 0)
            return -1;
    }
    strbuf_addc(w->sb, '}');
    return 0;
}

static int put_container(struct writer *w, const json_t *v, int depth)
{
    if (json_is_object(v))
        return put_object(w, v, depth);
    size_t n = json_array_size(v);
    strbuf_addc(w->sb, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            strbuf_add(w->sb, ", ", w->flags & JSON_COMPACT ? 1 : 2);
        if (put_value(w, json_array_get(v, i), depth + 1) < 0)
            return -1;
    }
    strbuf_addc(w->sb, ']');
    return 0;
}

static int put_value(struct writer *w, const json_t *v, int depth)
{
    struct strbuf *sb = w->sb;
    if (depth > JSONTEXT_MAX_DEPTH)
        return -1;
    switch (json_typeof(v)) {
    case JSON_OBJECT:
    case JSON_ARRAY: {
        /* referenced more than once: perhaps written already */
        int shared = v->refcount > 1;
        if (shared && w->capseen) {
            size_t i = seen_slot(w, v);
            if (w->seen[i].v) {
                size_t off = w->seen[i].off, len = w->seen[i].len;
                strbuf_grow(sb, len); /* first: the copy's source is in sb */
                memcpy(sb->buf + sb->len, sb->buf + off, len);
                sb->len += len;
                sb->buf[sb->len] = '\0';
                return 0;
            }
        }
        size_t off = sb->len;
        if (put_container(w, v, depth) < 0)
            return -1;
        if (shared && sb->len - off >= SHARED_MIN_BYTES)
            seen_add(w, v, off, sb->len - off);
        return 0;
    }
    case JSON_STRING:
        return strbuf_add_json_n(sb, json_string_value(v), json_string_length(v));
    case JSON_INTEGER:
        put_integer(sb, json_integer_value(v));
        return 0;
    case JSON_TRUE:
        strbuf_add(sb, "true", 4);
        return 0;
    case JSON_FALSE:
        strbuf_add(sb, "false", 5);
        return 0;
    case JSON_NULL:
        strbuf_add(sb, "null", 4);
        return 0;
    default: /* reals: json_dumps's own formatting */
        return -1;
    }
}

int jsontext_append(struct strbuf *sb, const json_t *v, size_t flags)
{
    if (!v)
        return -1;
    size_t mark = sb->len;
    int container = json_is_object(v) || json_is_array(v);
    if (!container && !(flags & JSON_ENCODE_ANY))
        return -1;
    if (!(flags & ~(size_t)FAST_FLAGS)) {
        struct writer w = {sb, flags, NULL, 0, 0};
        int rc = put_value(&w, v, 0);
        free(w.seen);
        if (rc == 0)
            return 0;
    }
    /* not for the fast path: what json_dumps writes, or its refusal */
    sb->len = mark;
    if (sb->buf)
        sb->buf[mark] = '\0';
    char *s = json_dumps(v, flags);
    if (!s)
        return -1;
    strbuf_adds(sb, s);
    free(s);
    return 0;
}

char *jsontext_dumps(const json_t *v, size_t flags)
{
    struct strbuf sb = STRBUF_INIT;
    if (jsontext_append(&sb, v, flags) < 0) {
        strbuf_free(&sb);
        return NULL;
    }
    if (!sb.buf)
        return xstrdup("");
    return strbuf_detach(&sb, NULL);
}

/* ---- reading ------------------------------------------------------------ */

struct reader {
    const unsigned char *p; /* the next byte; the text ends at a NUL */
    size_t flags;
    int depth;
    struct strbuf tmp; /* a string with escapes, decoded */
};

static void skip_space(struct reader *r)
{
    while (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t')
        r->p++;
}

static int hex4(const unsigned char *p, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned c = p[i], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return -1;
        v = v << 4 | d;
    }
    *out = v;
    return 0;
}

static void put_utf8(struct strbuf *sb, unsigned cp)
{
    char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (char)(0xc0 | cp >> 6);
        b[1] = (char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (char)(0xe0 | cp >> 12);
        b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        b[2] = (char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        b[0] = (char)(0xf0 | cp >> 18);
        b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
        b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
        b[3] = (char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    strbuf_add(sb, b, n);
}

/* One escape after the backslash at r->p, decoded into r->tmp. */
static int read_escape(struct reader *r)
{
    unsigned char c = *++r->p;
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *at = c ? strchr(from, c) : NULL;
    if (at) {
        strbuf_addc(&r->tmp, to[at - from]);
        r->p++;
        return 0;
    }
    unsigned cp, lo;
    if (c != 'u' || hex4(r->p + 1, &cp) < 0)
        return -1;
    r->p += 5;
    if (cp >= 0xdc00 && cp <= 0xdfff)
        return -1; /* a low surrogate alone */
    if (cp >= 0xd800 && cp <= 0xdbff) {
        if (r->p[0] != '\\' || r->p[1] != 'u' || hex4(r->p + 2, &lo) < 0 || lo < 0xdc00 ||
            lo > 0xdfff)
            return -1;
        r->p += 6;
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
    }
    if (cp == 0)
        return -1; /* NUL in a string: jansson's call (JSON_ALLOW_NUL) */
    put_utf8(&r->tmp, cp);
    return 0;
}

/* The string at r->p (past its opening quote): *s and *len point either
 * into the text (no escapes) or into r->tmp. */
static int read_string(struct reader *r, const char **s, size_t *len)
{
    const unsigned char *start = r->p;
    for (;;) {
        unsigned char c = *r->p;
        if (c == '"') {
            *s = (const char *)start;
            *len = (size_t)(r->p - start);
            r->p++;
            return 0;
        }
        if (c == '\\')
            break;
        if (c < 0x20)
            return -1; /* a control character, or the end of the text */
        if (c < 0x80) {
            r->p++;
        } else {
            size_t n = strbuf_utf8_len(r->p);
            if (!n)
                return -1;
            r->p += n;
        }
    }
    /* escapes: decode into tmp */
    strbuf_reset(&r->tmp);
    strbuf_add(&r->tmp, start, (size_t)(r->p - start));
    for (;;) {
        unsigned char c = *r->p;
        if (c == '"') {
            r->p++;
            *s = r->tmp.buf;
            *len = r->tmp.len;
            return 0;
        }
        if (c == '\\') {
            if (read_escape(r) < 0)
                return -1;
            continue;
        }
        if (c < 0x20)
            return -1;
        size_t n = c < 0x80 ? 1 : strbuf_utf8_len(r->p);
        if (!n)
            return -1;
        strbuf_add(&r->tmp, r->p, n);
        r->p += n;
    }
}

/* An integer, as strtoll reads it; reals and integers out of range are
 * jansson's to read (NULL). */
static json_t *read_number(struct reader *r)
{
    const unsigned char *p = r->p;
    int neg = *p == '-';
    if (neg)
        p++;
    if (*p < '0' || *p > '9')
        return NULL;
    if (*p == '0' && p[1] >= '0' && p[1] <= '9')
        return NULL; /* a leading zero */
    unsigned long long u = 0;
    const unsigned long long lim = neg ? (unsigned long long)LLONG_MAX + 1 : LLONG_MAX;
    for (; *p >= '0' && *p <= '9'; p++) {
        unsigned d = *p - '0';
        if (u > (lim - d) / 10)
            return NULL; /* out of range */
        u = u * 10 + d;
    }
    if (*p == '.' || *p == 'e' || *p == 'E')
        return NULL; /* a real */
    r->p = p;
    json_int_t i =
        neg ? (u == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(json_int_t)u) : (json_int_t)u;
    return json_integer(i);
}

static json_t *read_value(struct reader *r);

/* After an item of an object or array: 1 at its close (taken), 0 at a
 * ',' (taken, with the space after it), -1 at anything else. */
static int after_item(struct reader *r, char close)
{
    skip_space(r);
    if (*r->p == (unsigned char)close) {
        r->p++;
        return 1;
    }
    if (*r->p != ',')
        return -1;
    r->p++;
    skip_space(r);
    return 0;
}

static json_t *read_object(struct reader *r)
{
    json_t *o = json_object();
    skip_space(r);
    if (*r->p == '}') {
        r->p++;
        return o;
    }
    for (;;) {
        const char *k;
        size_t klen;
        if (*r->p != '"')
            break;
        r->p++;
        if (read_string(r, &k, &klen) < 0)
            break;
        /* the key may sit in tmp, which the value's strings reuse */
        char kbuf[128];
        char *key = klen < sizeof kbuf ? kbuf : xmalloc(klen + 1);
        memcpy(key, k, klen);
        key[klen] = '\0';
        json_t *v = NULL;
        int dup = (r->flags & JSON_REJECT_DUPLICATES) && json_object_getn(o, key, klen);
        skip_space(r);
        if (!dup && *r->p == ':') {
            r->p++;
            skip_space(r);
            v = read_value(r);
        }
        if (v && json_object_setn_new_nocheck(o, key, klen, v) < 0)
            v = NULL;
        if (key != kbuf)
            free(key);
        int end = v ? after_item(r, '}') : -1;
        if (end > 0)
            return o;
        if (end < 0)
            break;
    }
    json_decref(o);
    return NULL;
}

static json_t *read_array(struct reader *r)
{
    json_t *a = json_array();
    skip_space(r);
    if (*r->p == ']') {
        r->p++;
        return a;
    }
    for (;;) {
        json_t *v = read_value(r);
        int end = v && json_array_append_new(a, v) == 0 ? after_item(r, ']') : -1;
        if (end > 0)
            return a;
        if (end < 0)
            break;
    }
    json_decref(a);
    return NULL;
}

/* The value at r->p (no space before it), or NULL. */
static json_t *read_value(struct reader *r)
{
    const char *s;
    size_t len;
    json_t *v = NULL;
    switch (*r->p) {
    case '{':
    case '[':
        if (++r->depth > JSONTEXT_MAX_DEPTH)
            return NULL;
        r->p++;
        v = r->p[-1] == '{' ? read_object(r) : read_array(r);
        r->depth--;
        return v;
    case '"':
        r->p++;
        return read_string(r, &s, &len) < 0 ? NULL : json_stringn_nocheck(s, len);
    case 't':
        if (strncmp((const char *)r->p, "true", 4) == 0) {
            r->p += 4;
            return json_true();
        }
        return NULL;
    case 'f':
        if (strncmp((const char *)r->p, "false", 5) == 0) {
            r->p += 5;
            return json_false();
        }
        return NULL;
    case 'n':
        if (strncmp((const char *)r->p, "null", 4) == 0) {
            r->p += 4;
            return json_null();
        }
        return NULL;
    default:
        return read_number(r);
    }
}

json_t *jsontext_loads(const char *text, size_t flags, json_error_t *error)
{
    json_t *v = NULL;
    size_t end = 0;
    if (text && !(flags & ~(size_t)JSON_REJECT_DUPLICATES)) {
        struct reader r = {(const unsigned char *)text, flags, 0, STRBUF_INIT};
        skip_space(&r);
        if (*r.p == '{' || *r.p == '[')
            v = read_value(&r);
        if (v) {
            skip_space(&r);
            if (*r.p) { /* something after the value */
                json_decref(v);
                v = NULL;
            }
            end = (size_t)((const char *)r.p - text);
        }
        strbuf_free(&r.tmp);
    }
    if (!v) /* anything unusual or wrong: jansson's result and message */
        return json_loads(text, flags, error);
    if (error) {
        /* as jansson leaves it after a success: the bytes read */
        memset(error, 0, sizeof *error);
        error->line = error->column = -1;
        error->position = end > INT_MAX ? INT_MAX : (int)end;
        snprintf(error->source, sizeof error->source, "%s", "<string>");
    }
    return v;
}
