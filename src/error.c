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
