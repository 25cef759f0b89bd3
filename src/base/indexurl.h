/*
 * indexurl: the grammar of a package index's URL, the one kind of URL that
 * reaches a command people paste (`--index-url URL`).
 *
 *   http[s]://HOST[:PORT]/SEGMENT/.../
 *
 * HOST is a name of letters, digits, '-' and '.' (kept lowercase), an IPv4
 * address, or an IPv6 address in brackets; PORT 1 to 65535; each path
 * SEGMENT letters, digits and . _ ~ + - (not "." or ".."); no query, no
 * fragment, no percent escape, at most INDEXURL_MAX bytes.  Nothing in such
 * a URL is special to bash, zsh, dash, fish, PowerShell or cmd inside
 * double quotes (shellcmd.h), and most of them need none.
 *
 * User info ("https://user:token@mirror/whl/cu126/") is split off: the
 * URL kept, stored and published is the one without it; the credentials go
 * to the requests to that URL's origin only (indexurl_split).
 */
#ifndef WHEELARCH_INDEXURL_H
#define WHEELARCH_INDEXURL_H

#include <stddef.h>

#include "error.h"

#define INDEXURL_MAX 2048

/* The root of download.pytorch.org's indexes (.../whl/ID/). */
#define INDEXURL_PYTORCH_ROOT "https://download.pytorch.org/whl/"

/* Whether url is an index URL by the grammar, without user info. */
int indexurl_valid(const char *url);

/* Splits url into the URL without its user info (*clean; scheme and host
 * lowercased) and the user info ("user:token", percent escapes kept as
 * curl takes them; NULL when there is none), each owned by the caller.
 * Returns 0, or WA_ERR_FORMAT with a one-line reason naming what is wrong
 * ("'$' is not allowed in an index URL's path"); the user info is never
 * part of the message. */
int indexurl_split(const char *url, char **clean, char **userinfo, struct wa_error *err);

/* Whether url's authority (between "://" and the path) holds user info
 * ("user:token@"): the last '@' before the first '/', '?' or '#'.  Sets
 * *at to that '@' when given. */
int indexurl_has_userinfo(const char *url, const char **at);

/* The origin of a URL ("https://mirror.example:8443"), into buf (n
 * bytes); "" when url has none.  Two URLs of one origin share
 * credentials. */
void indexurl_origin(const char *url, char *buf, size_t n);

/* url as a message may show it: its user info, if any, replaced by three
 * asterisks before the "@", into buf (n bytes, cut short when
 * longer). */
void indexurl_redact(const char *url, char *buf, size_t n);

#endif
