/*
 * wheelkey: the key that names a wheel in the database.
 *
 * A key is the wheel's sha256 from the index, lowercased, or "url-" + the
 * sha256 of its URL when the index gives no hash.  Keys come from indexes
 * and from merged databases, so every consumer checks them with
 * wheelkey_valid before using one (as a file name, a page name or an id).
 */
#ifndef WHEELARCH_WHEELKEY_H
#define WHEELARCH_WHEELKEY_H

/* The key of a wheel: sha256 (NULL when the index gives none) or its URL.
 * Returns NULL when sha256 is given but is not 64 hex digits: a per-wheel
 * error.  Caller frees. */
char *wheelkey_make(const char *sha256, const char *url);

/* Whether s is 64 hex digits (either case): a sha256 as indexes give it. */
int wheelkey_sha256_valid(const char *s);

/* Whether key is a key as wheelkey_make makes them: 64 lowercase hex
 * digits, optionally after "url-". */
int wheelkey_valid(const char *key);

#endif
