/*
 * error: how the core reports failures.
 *
 * Core functions return an int: 0 on success, a negative WA_ERR_* code on
 * failure, and fill an optional `struct wa_error` with a one-line message
 * (libzip's zip_error_t and jansson's json_error_t work the same way).  The
 * message never names the input: the CLI prefixes it with the input's name.
 */
#ifndef WHEELARCH_ERROR_H
#define WHEELARCH_ERROR_H

#include <stddef.h>

enum wa_errcode {
    WA_OK = 0,
    WA_ERR_IO = -1,          /* the operating system refused a read or write */
    WA_ERR_FORMAT = -2,      /* bytes do not follow the format they claim */
    WA_ERR_TRUNCATED = -3,   /* input ends before its structures do */
    WA_ERR_LIMIT = -4,       /* a declared size or count is beyond what we accept */
    WA_ERR_CHECKSUM = -5,    /* CRC-32 or sha256 mismatch */
    WA_ERR_UNSUPPORTED = -6, /* valid input we do not handle (e.g. zip encryption) */
    WA_ERR_NETWORK = -7,     /* HTTP or transport failure */
    WA_ERR_USAGE = -8,       /* a caller passed arguments that make no sense */
    WA_ERR_BUSY = -9,        /* another process holds the lock */
};

#define WA_ERROR_MSG_SIZE 512

struct wa_error {
    int code;
    char msg[WA_ERROR_MSG_SIZE];
};

/* Records `code` and a printf-style message in `err` (which may be NULL) and
 * returns `code`, so callers can write `return wa_error_set(err, ...)`. */
int wa_error_set(struct wa_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prefixes the message already in `err` with `prefix: `, e.g. a member path. */
void wa_error_prefix(struct wa_error *err, const char *prefix);

/* Clears `err` to WA_OK with an empty message. */
void wa_error_clear(struct wa_error *err);

/* Copies / appends src into dst of size n, truncating, always NUL-terminated
 * (for messages, where a cut is acceptable; never for paths). */
void wa_strlcpy(char *dst, const char *src, size_t n);
void wa_strlcat(char *dst, const char *src, size_t n);

/* Copies untrusted text src into dst of size n for a one-line message:
 * bytes below 0x20, 0x7f, C1 controls (U+0080-U+009F, each of their two
 * bytes), '"' and '\\' become escapes (\x1b, \xc2\x9b, \", \\), so a
 * name from an index cannot move the cursor or split a log line; cut at
 * max_src bytes of src with "..." added.  Returns dst. */
char *wa_quote(char *dst, size_t n, const char *src, size_t max_src);

/* Replaces, in place, every byte of s that is not printable ASCII (below
 * 0x20, 0x7f and above) with '?': for names read from the machine (a
 * driver, a command's output, sysfs, METADATA) that end up in JSON, which
 * wants UTF-8, and on terminals.  NULL is left alone. */
void wa_printable_ascii(char *s);

/* A short lowercase name for a code, e.g. "truncated". */
const char *wa_errcode_name(int code);

#endif
