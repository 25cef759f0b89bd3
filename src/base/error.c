/*
 * error: one-line error messages with a code.
 */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int wa_error_set(struct wa_error *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

void wa_error_prefix(struct wa_error *err, const char *prefix)
{
    char tmp[WA_ERROR_MSG_SIZE];
    size_t n = 0;
    if (!err || !prefix || !*prefix)
        return;
    const char *parts[3] = {prefix, ": ", err->msg};
    for (int i = 0; i < 3; i++)
        for (const char *c = parts[i]; *c && n + 1 < sizeof tmp; c++)
            tmp[n++] = *c;
    tmp[n] = '\0';
    memcpy(err->msg, tmp, n + 1);
}

void wa_error_clear(struct wa_error *err)
{
    if (err) {
        err->code = WA_OK;
        err->msg[0] = '\0';
    }
}

const char *wa_errcode_name(int code)
{
    switch (code) {
    case WA_OK:
        return "ok";
    case WA_ERR_IO:
        return "io";
    case WA_ERR_FORMAT:
        return "format";
    case WA_ERR_TRUNCATED:
        return "truncated";
    case WA_ERR_LIMIT:
        return "limit";
    case WA_ERR_CHECKSUM:
        return "checksum";
    case WA_ERR_UNSUPPORTED:
        return "unsupported";
    case WA_ERR_NETWORK:
        return "network";
    case WA_ERR_USAGE:
        return "usage";
    case WA_ERR_BUSY:
        return "busy";
    default:
        return "error";
    }
}

void wa_strlcpy(char *dst, const char *src, size_t n)
{
    if (n == 0)
        return;
    size_t i = 0;
    for (; src[i] && i + 1 < n; i++)
        dst[i] = src[i];
    dst[i] = '\0';
}

void wa_strlcat(char *dst, const char *src, size_t n)
{
    size_t len = strnlen(dst, n);
    if (len < n)
        wa_strlcpy(dst + len, src, n - len);
}

char *wa_quote(char *dst, size_t n, const char *src, size_t max_src)
{
    static const char hex[] = "0123456789abcdef";
    if (n == 0)
        return dst;
    size_t o = 0, i = 0;
    for (; src[i] && i < max_src; i++) {
        unsigned char ch = (unsigned char)src[i], next = (unsigned char)src[i + 1];
        /* C1 controls, U+0080..U+009F (C2 80..C2 9F): some terminals act on
         * U+009B as on ESC [.  0xC2 is never a continuation byte, so the
         * byte before a continuation tells which character it ends. */
        int c1 = (ch == 0xc2 && next >= 0x80 && next <= 0x9f) ||
                 (i > 0 && (unsigned char)src[i - 1] == 0xc2 && ch >= 0x80 && ch <= 0x9f);
        char esc[5];
        size_t k = 0;
        if (ch < 0x20 || ch == 0x7f || c1) {
            esc[k++] = '\\';
            esc[k++] = 'x';
            esc[k++] = hex[ch >> 4];
            esc[k++] = hex[ch & 15];
        } else if (ch == '"' || ch == '\\') {
            esc[k++] = '\\';
            esc[k++] = (char)ch;
        } else {
            esc[k++] = (char)ch;
        }
        if (o + k + 4 > n) /* room for "..." and the NUL */
            break;
        memcpy(dst + o, esc, k);
        o += k;
    }
    if (src[i] && o + 4 <= n) {
        memcpy(dst + o, "...", 3);
        o += 3;
    }
    dst[o] = '\0';
    return dst;
}

void wa_printable_ascii(char *s)
{
    for (; s && *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
            *s = '?';
}
