/*
 * jsontext: JSON text of jansson values, byte for byte what jansson's
 * json_dumps writes, and back (what json_loads reads), several times
 * faster.
 *
 * A build writes about 20 MB of JSON (the feed, the GPU pages' scripts,
 * the rows' compact binaries) and jansson's writer spent a tenth of the
 * build on it: a callback per token, printf for every integer and, with
 * JSON_SORT_KEYS, a sort through an indirection per object.  This writer
 * appends straight to a strbuf.
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

/* Like json_loads(text, flags, error): the same value, or NULL with
 * jansson's error.  The fast path reads objects, arrays, strings,
 * integers and literals with flags 0 or JSON_REJECT_DUPLICATES; at the
 * first thing it does not take (a real, an integer out of range, an
 * escaped NUL, any error) the whole text goes to json_loads. */
json_t *jsontext_loads(const char *text, size_t flags, json_error_t *error);

#endif
