/*
 * strbuf: growable NUL-terminated buffer.
 */
#include "strbuf.h"

#include <stdarg.h>
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
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    strbuf_grow(sb, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
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

int strbuf_add_json(struct strbuf *sb, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t n; *p; p += n)
        if (!(n = strbuf_utf8_len(p)))
            return -1;
    strbuf_addc(sb, '"');
    const char *run = s; /* bytes not yet appended that need no escape */
    for (p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x20 && *p != '"' && *p != '\\')
            continue;
        strbuf_add(sb, run, (size_t)((const char *)p - run));
        run = (const char *)p + 1;
        switch (*p) {
        case '"':
            strbuf_adds(sb, "\\\"");
            break;
        case '\\':
            strbuf_adds(sb, "\\\\");
            break;
        case '\b':
            strbuf_adds(sb, "\\b");
            break;
        case '\f':
            strbuf_adds(sb, "\\f");
            break;
        case '\n':
            strbuf_adds(sb, "\\n");
            break;
        case '\r':
            strbuf_adds(sb, "\\r");
            break;
        case '\t':
            strbuf_adds(sb, "\\t");
            break;
        default:
            strbuf_addf(sb, "\\u%04X", *p);
        }
    }
    strbuf_adds(sb, run);
    strbuf_addc(sb, '"');
    return 0;
}
