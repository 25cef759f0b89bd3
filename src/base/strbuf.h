/*
 * strbuf: a growable byte buffer that is always NUL-terminated.
 *
 * A zero-initialised `struct strbuf` is an empty buffer; strbuf_free releases
 * it and leaves it empty again.  `buf` is owned by the strbuf unless taken
 * with strbuf_detach.
 */
#ifndef WHEELARCH_STRBUF_H
#define WHEELARCH_STRBUF_H

#include <stddef.h>

struct strbuf {
    char *buf; /* NULL or NUL-terminated, `len` bytes of content */
    size_t len;
    size_t cap;
};

#define STRBUF_INIT                                                                                \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }

void strbuf_free(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t n);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addc(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends s as a JSON string, quoted and escaped byte for byte as
 * jansson's json_dumps writes it (\" \\ \b \f \n \r \t, other control
 * characters as \u00XX, the rest as is), so that a document written partly
 * by hand is identical to one jansson dumps.  Returns 0, or -1 without
 * appending anything when s is not UTF-8 (json_string refuses it too). */
int strbuf_add_json(struct strbuf *sb, const char *s);
/* The same for the len bytes at s (a NUL among them is written \u0000,
 * as jansson writes it). */
int strbuf_add_json_n(struct strbuf *sb, const char *s, size_t len);
/* The length of the UTF-8 sequence at p (1 to 4), or 0 when p does not
 * start a valid one: overlong forms, surrogates and code points past
 * U+10FFFF are invalid, as for jansson.  Reads at most up to the first
 * byte that is not a continuation byte, so a NUL ends it. */
size_t strbuf_utf8_len(const unsigned char *p);
/* Whether the C string s is UTF-8 throughout (what json_string takes). */
int strbuf_utf8_valid(const char *s);
/* Empties sb and joins the strings after sep (up to a NULL) with sep
 * between them: a map key made of several fields ("torch|2.9|cu128").
 * sep is a character; an int, as the parameter before "..." must be. */
void strbuf_set_joined(struct strbuf *sb, int sep, ...);
/* The decimal digits of u into out (room for 20 bytes, not NUL-terminated);
 * returns how many.  For formatting many numbers without printf. */
size_t strbuf_decimal(unsigned long long u, char *out);
/* The content as a C string; "" for an empty buffer (never NULL). */
const char *strbuf_str(const struct strbuf *sb);
/* Hands the content to the caller (who frees it) and empties the buffer. */
char *strbuf_detach(struct strbuf *sb, size_t *len);

#endif
