/*
 * jsontext: JSON text of jansson values, byte for byte what jansson's
 * json_dumps writes, several times faster.  (Reading is jansson's own
 * json_loads: once a build read its records from typed rows, a faster
 * reader no longer changed any measured time.)
 *
 * A build writes about 20 MB of JSON (the feed files, matrix.json, the GPU
 * pages' scripts), and jansson's writer pays a callback per token, printf
 * for every integer and, with JSON_SORT_KEYS, a sort through an
 * indirection per object.  This writer appends straight to a strbuf.
 * Measured on bench/build.sh's 100,000-wheel databases, json_dumps in its
 * place made a build 10-25 % slower (pytorch mix 0.79-0.92 s against
 * 0.96-1.23 s; stress mix 3.4-3.7 s of CPU against 3.9-4.2 s).
 *
 * The fast path takes JSON_COMPACT, JSON_SORT_KEYS and JSON_ENCODE_ANY and
 * the values the site makes: objects, arrays, strings, integers, true,
 * false and null.  Anything else (another flag, a real, a key with a NUL
 * byte, a string that is not UTF-8, nesting deeper than
 * JSONTEXT_MAX_DEPTH) is handed to json_dumps itself, so the result is
 * always json_dumps's.  test_jsontext compares the two on random values.
 */
#ifndef WHEELARCH_JSONTEXT_H
#define WHEELARCH_JSONTEXT_H

#include <jansson.h>
#include <stddef.h>

#include "strbuf.h"

#define JSONTEXT_MAX_DEPTH 512 /* deeper values go to json_dumps */

/* Appends json_dumps(v, flags) to sb.  Returns 0, or -1 with sb unchanged
 * where json_dumps returns NULL (no JSON_ENCODE_ANY and v not an object or
 * an array; a string that is not UTF-8; a cycle). */
int jsontext_append(struct strbuf *sb, const json_t *v, size_t flags);

/* Like json_dumps(v, flags): a new string the caller frees, or NULL. */
char *jsontext_dumps(const json_t *v, size_t flags);

/* s as a JSON string, or JSON null when s is NULL (a new reference; NULL,
 * as json_string gives, when s is not UTF-8). */
json_t *jsontext_str_or_null(const char *s);

#endif
