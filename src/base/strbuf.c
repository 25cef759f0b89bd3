/*
 * strbuf: growable NUL-terminated buffer.
 */
#include "strbuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void strbuf_free(struct strbuf *sb)
{
    free(sb->buf);
    sb->buf = NULL;
    sb->len = sb->cap = 0;
}

void strbuf_reset(struct strbuf *sb)
{
    sb->len = 0;
    if (sb->buf)
        sb->buf[0] = '\0';
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
    int fresh = sb->buf == NULL;
    sb->buf = xgrow(sb->buf, &sb->cap, sb->len + extra + 1, 1);
    if (fresh)
        sb->buf[0] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t n)
{
    strbuf_grow(sb, n);
    if (n)
        memcpy(sb->buf + sb->len, data, n);
    sb->len += n;
    sb->buf[sb->len] = '\0';
}

void strbuf_adds(struct strbuf *sb, const char *s)
{
    strbuf_add(sb, s, strlen(s));
}

void strbuf_addc(struct strbuf *sb, char c)
{
    strbuf_add(sb, &c, 1);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
    /* one vsnprintf when the text fits what the buffer has left */
    if (!sb->buf)
        strbuf_grow(sb, 64);
    size_t room = sb->cap - sb->len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(sb->buf + sb->len, room, fmt, ap);
    va_end(ap);
    if (n <= 0) {
        sb->buf[sb->len] = '\0';
        return;
    }
    if ((size_t)n >= room) {
        strbuf_grow(sb, (size_t)n);
        va_start(ap, fmt);
        vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    sb->len += (size_t)n;
}

void strbuf_set_joined(struct strbuf *sb, int sep, ...)
{
    strbuf_reset(sb);
    va_list ap;
    va_start(ap, sep);
    const char *s;
    for (int first = 1; (s = va_arg(ap, const char *)) != NULL; first = 0) {
        if (!first)
            strbuf_addc(sb, (char)sep);
        strbuf_adds(sb, s);
    }
    va_end(ap);
}

size_t strbuf_decimal(unsigned long long u, char *out)
{
    char tmp[20];
    size_t k = 0;
    do
        tmp[k++] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    for (size_t i = 0; i < k; i++)
        out[i] = tmp[k - 1 - i];
    return k;
}

const char *strbuf_str(const struct strbuf *sb)
{
    return sb->buf ? sb->buf : "";
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
    char *s = sb->buf ? sb->buf : xstrdup("");
    if (len)
        *len = sb->len;
    sb->buf = NULL;
    sb->len = sb->cap = 0;
    return s;
}

/* The length of the UTF-8 sequence at p (1 to 4), or 0 when it is not
 * one: overlong forms, surrogates and code points past U+10FFFF refused. */
size_t strbuf_utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    if (c < 0x80)
        return 1;
    size_t n = c >= 0xf0 && c <= 0xf4  ? 4
               : c >= 0xe0 && c < 0xf0 ? 3
               : c >= 0xc2 && c < 0xe0 ? 2
                                       : 0;
    if (!n)
        return 0;
    unsigned cp = c & (0x7f >> n);
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return n;
}

/* 8 bytes at p (any alignment) */
static uint64_t word_at(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* Whether one of the 8 bytes of w needs a look: not ASCII, a control
 * character, '"' or '\\' (the usual test for a zero byte, applied to
 * w ^ the byte repeated, and to w - 0x20 repeated for bytes below 0x20). */
static int word_special(uint64_t w)
{
    uint64_t q = w ^ (ONES * '"'), b = w ^ (ONES * '\\');
    uint64_t zero_q = (q - ONES) & ~q, zero_b = (b - ONES) & ~b;
    uint64_t low = (w - ONES * 0x20) & ~w;
    return ((zero_q | zero_b | low) & HIGHS) != 0 || (w & HIGHS) != 0;
}

int strbuf_utf8_valid(const char *s)
{
    size_t len = strlen(s);
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end) {
        while (end - p >= 8 && !(word_at(p) & HIGHS)) /* ASCII, 8 at a time */
            p += 8;
        while (p < end && *p < 0x80)
            p++;
        if (p == end)
            return 1;
        size_t n = strbuf_utf8_len(p);
        if (!n)
            return 0;
        p += n;
    }
    return 1;
}

int strbuf_add_json_n(struct strbuf *sb, const char *s, size_t len)
{
    size_t mark = sb->len;
    strbuf_grow(sb, len + 2);
    sb->buf[sb->len++] = '"';
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    const unsigned char *run = p; /* bytes not yet appended that need no escape */
    while (p < end) {
        if (end - p >= 8 && !word_special(word_at(p))) { /* 8 plain bytes */
            p += 8;
            continue;
        }
        unsigned c = *p;
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            p++;
            continue;
        }
        if (c >= 0x80) {
            size_t n = strbuf_utf8_len(p);
            if (!n || n > (size_t)(end - p)) {
                sb->len = mark;
                sb->buf[mark] = '\0';
                return -1;
            }
            p += n;
            continue;
        }
        strbuf_add(sb, run, (size_t)(p - run));
        run = ++p;
        switch (c) {
        case '"':
            strbuf_add(sb, "\\\"", 2);
            break;
        case '\\':
            strbuf_add(sb, "\\\\", 2);
            break;
        case '\b':
            strbuf_add(sb, "\\b", 2);
            break;
        case '\f':
            strbuf_add(sb, "\\f", 2);
            break;
        case '\n':
            strbuf_add(sb, "\\n", 2);
            break;
        case '\r':
            strbuf_add(sb, "\\r", 2);
            break;
        case '\t':
            strbuf_add(sb, "\\t", 2);
            break;
        default: {
            static const char hex[] = "0123456789ABCDEF";
            char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            strbuf_add(sb, u, 6);
        }
        }
    }
    strbuf_add(sb, run, (size_t)(p - run));
    strbuf_addc(sb, '"');
    return 0;
}

int strbuf_add_json(struct strbuf *sb, const char *s)
{
    return strbuf_add_json_n(sb, s, strlen(s));
}
