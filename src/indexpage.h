/*
 * indexpage: the links of a package index page, PEP 503 HTML or PEP 691 JSON.
 *
 * Parsed as download.pytorch.org serves them (../shared/samples): absolute,
 * root-relative and relative hrefs resolved against the page URL (or a
 * <base href>), %2B kept in the URL and decoded in the file name, optional
 * #sha256= fragments, data-requires-python with HTML entities,
 * data-yanked, data-dist-info-metadata / data-core-metadata and
 * data-upload-time.  Untrusted input: bounded, never reads past len.
 */
#ifndef WHEELARCH_INDEXPAGE_H
#define WHEELARCH_INDEXPAGE_H

#include <stddef.h>

#include "error.h"

#define INDEXPAGE_ACCEPT "application/vnd.pypi.simple.v1+json, text/html;q=0.1"
#define INDEXPAGE_MAX_LINKS 200000

struct index_link {
    char *filename;        /* last path segment of the URL, percent-decoded */
    char *url;             /* absolute, fragment removed */
    char *sha256;          /* as the index gives it (200 bytes at most; unchecked), or NULL */
    char *requires_python; /* entity-decoded, or NULL */
    char *yanked;          /* NULL: not yanked; "" or a reason: yanked */
    char *upload_time;     /* as given (RFC 3339), or NULL */
    int has_metadata;      /* PEP 658/714 metadata file announced */
};

struct index_page {
    struct index_link *links;
    size_t n;
};

/* Parses HTML of the page at page_url.  On success the caller frees out
 * with indexpage_free.  Returns 0 or WA_ERR_LIMIT (too many links). */
int indexpage_parse_html(const char *page_url, const char *html, size_t len, struct index_page *out,
                         struct wa_error *err);

/* Parses PEP 691 JSON.  Returns 0, WA_ERR_FORMAT or WA_ERR_UNSUPPORTED (a
 * major api-version other than 1). */
int indexpage_parse_json(const char *page_url, const char *json, size_t len, struct index_page *out,
                         struct wa_error *err);

/* Picks the parser by content type ("application/vnd.pypi.simple.v1+json"
 * or anything else for HTML). */
int indexpage_parse(const char *page_url, const char *content_type, const char *body, size_t len,
                    struct index_page *out, struct wa_error *err);

void indexpage_free(struct index_page *p);

/* Resolves href against base (RFC 3986 section 5.2, without a fragment).
 * Caller frees. */
char *indexpage_resolve(const char *base, const char *href);

/* Decodes HTML character references (&amp; &lt; &#39; &#x2B; ...) in s[0..n);
 * caller frees. */
char *indexpage_entity_decode(const char *s, size_t n);

#endif
