/*
 * indexpage: the links of a package index page, PEP 503 HTML or PEP 691 JSON.
 *
 * Parsed as download.pytorch.org serves them (tests/fixtures/index-pages): absolute,
 * root-relative and relative hrefs resolved against the page URL (or a
 * <base href>), %2B kept in the URL and decoded in the file name, optional
 * #sha256= fragments, data-requires-python with HTML entities,
 * data-yanked, data-dist-info-metadata / data-core-metadata and
 * data-upload-time.  Untrusted input: never reads past len, and costs time
 * and memory linear in len with small constants: an href or URL longer
 * than INDEXPAGE_MAX_URL is skipped (and counted) before it is copied, only
 * the first <base href> counts (as in HTML), the text kept for the links is
 * bounded by the page's size, and a JSON page is sized up before jansson
 * builds its tree.
 */
#ifndef WHEELARCH_INDEXPAGE_H
#define WHEELARCH_INDEXPAGE_H

#include <stddef.h>

#include "error.h"

#define INDEXPAGE_ACCEPT "application/vnd.pypi.simple.v1+json, text/html;q=0.1"
#define INDEXPAGE_MAX_LINKS 200000
/* Longest href, <base href>, resolved URL or JSON file name considered, in
 * bytes (real wheel URLs are a few hundred). */
#define INDEXPAGE_MAX_URL 8192
/* What the links' strings may take: twice the page plus this. */
#define INDEXPAGE_TEXT_SLACK (16u << 20)
/* Estimated memory jansson may use for a JSON page's tree (a PEP 691 page
 * of INDEXPAGE_MAX_LINKS files needs about 600 MiB). */
#define INDEXPAGE_MAX_JSON_TREE (1u << 30)

struct index_link {
    char *filename;        /* last path segment of the URL, percent-decoded */
    char *url;             /* absolute, fragment removed */
    char *sha256;          /* as the index gives it (200 bytes at most; unchecked), or NULL */
    char *requires_python; /* entity-decoded, or NULL */
    char *yanked;          /* NULL: not yanked; "" or a reason: yanked */
    char *upload_time;     /* as given (RFC 3339), or NULL */
    long long size;        /* the file's size in bytes as PEP 700 gives it, or -1 */
    int has_metadata;      /* PEP 658/714 metadata file announced */
};

struct index_page {
    struct index_link *links;
    size_t n;
    size_t skipped; /* links left out: href, URL or file name longer than INDEXPAGE_MAX_URL */
};

/* Parses HTML of the page at page_url.  Relative links resolve against the
 * first <base href> of the document, wherever it is, or else page_url.  On
 * success the caller frees out with indexpage_free.  Returns 0 or
 * WA_ERR_LIMIT (more than INDEXPAGE_MAX_LINKS links, or links whose
 * strings take more than 2 * len + INDEXPAGE_TEXT_SLACK bytes). */
int indexpage_parse_html(const char *page_url, const char *html, size_t len, struct index_page *out,
                         struct wa_error *err);

/* Parses PEP 691 JSON.  meta.api-version must be "MAJOR.MINOR" in decimal
 * digits.  Returns 0, WA_ERR_FORMAT (bad JSON, missing fields, a malformed
 * api-version), WA_ERR_UNSUPPORTED (a major api-version other than 1) or
 * WA_ERR_LIMIT (the limits of indexpage_parse_html, or a tree estimated
 * above INDEXPAGE_MAX_JSON_TREE bytes). */
int indexpage_parse_json(const char *page_url, const char *json, size_t len, struct index_page *out,
                         struct wa_error *err);

/* Picks the parser by content type ("application/vnd.pypi.simple.v1+json"
 * or anything else for HTML). */
int indexpage_parse(const char *page_url, const char *content_type, const char *body, size_t len,
                    struct index_page *out, struct wa_error *err);

void indexpage_free(struct index_page *p);

/* Resolves href against base (RFC 3986 section 5.2, without a fragment),
 * in time linear in their lengths.  Caller frees. */
char *indexpage_resolve(const char *base, const char *href);

/* Decodes HTML character references (&amp; &lt; &#39; &#x2B; ...) in s[0..n);
 * caller frees. */
char *indexpage_entity_decode(const char *s, size_t n);

#endif
