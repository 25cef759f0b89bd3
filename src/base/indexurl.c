/*
 * indexurl: index URLs by a strict grammar, their user info split off
 * (indexurl.h).
 */
#include "indexurl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "strbuf.h"
#include "xalloc.h"

static int is_alnum(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static int is_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* How a character of a URL is written in a message: itself when it is
 * printable, else its code. */
static void char_name(unsigned char c, char *buf, size_t n)
{
    if (c > 0x20 && c < 0x7f)
        snprintf(buf, n, "'%c'", c);
    else
        snprintf(buf, n, "byte 0x%02x", c);
}

/* The host at s (up to end): a name, IPv4, or [IPv6].  0 or -1. */
static int host_ok(const char *s, const char *end)
{
    if (s == end)
        return -1;
    if (*s == '[') {
        if (end - s < 4 || end[-1] != ']')
            return -1;
        int colons = 0;
        for (const char *p = s + 1; p < end - 1; p++) {
            if (*p == ':')
                colons++;
            else if (!is_hex((unsigned char)*p) && *p != '.')
                return -1;
        }
        return colons >= 2 ? 0 : -1;
    }
    /* labels of letters, digits and '-', not starting or ending with '-' */
    const char *label = s;
    for (const char *p = s; p <= end; p++) {
        if (p == end || *p == '.') {
            size_t n = (size_t)(p - label);
            if (n == 0 || n > 63 || *label == '-' || p[-1] == '-')
                return -1;
            label = p + 1;
        } else if (!is_alnum((unsigned char)*p) && *p != '-') {
            return -1;
        }
    }
    return 0;
}

static int fail(struct wa_error *err, const char *what)
{
    return wa_error_set(err, WA_ERR_FORMAT, "%s", what);
}

int indexurl_split(const char *url, char **clean, char **userinfo, struct wa_error *err)
{
    *clean = NULL;
    if (userinfo)
        *userinfo = NULL;
    if (!url)
        return fail(err, "no URL");
    size_t len = strlen(url);
    if (len > INDEXURL_MAX)
        return wa_error_set(err, WA_ERR_FORMAT, "the URL is %zu bytes long, more than %d", len,
                            INDEXURL_MAX);
    size_t skip = strncasecmp(url, "https://", 8) == 0  ? 8
                  : strncasecmp(url, "http://", 7) == 0 ? 7
                                                        : 0;
    if (!skip)
        return fail(err, "an index URL starts with https:// or http://");
    const char *auth = url + skip;
    const char *path = auth + strcspn(auth, "/?#");
    if (*path != '/')
        return fail(err, "an index URL has a path starting with '/' after its host, and no "
                         "query or fragment");
    /* User info: up to the last '@' before the path. */
    const char *at = NULL;
    for (const char *p = auth; p < path; p++)
        if (*p == '@')
            at = p;
    const char *host = at ? at + 1 : auth;
    if (at) {
        for (const char *p = auth; p < at; p++)
            if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f)
                return fail(err, "the user info of an index URL holds a space, a control "
                                 "character or a byte past ASCII");
        if (at == auth)
            return fail(err, "an index URL's user info is empty");
    }
    /* Port: after the brackets of an IPv6 address, else after the first ':'. */
    const char *host_end = path, *port = NULL;
    if (*host == '[') {
        const char *rb = memchr(host, ']', (size_t)(path - host));
        if (!rb)
            return fail(err, "an index URL's IPv6 address has no ']'");
        host_end = rb + 1;
        if (host_end < path) {
            if (*host_end != ':')
                return fail(err, "an index URL's IPv6 address is followed by a port or the path");
            port = host_end + 1;
        }
    } else {
        const char *c = memchr(host, ':', (size_t)(path - host));
        if (c) {
            host_end = c;
            port = c + 1;
        }
    }
    if (port) {
        long value = 0;
        if (port == path || path - port > 5)
            return fail(err, "an index URL's port is 1 to 65535");
        for (const char *q = port; q < path; q++) {
            if (*q < '0' || *q > '9')
                return fail(err, "an index URL's port is 1 to 65535");
            value = value * 10 + (*q - '0');
        }
        if (value < 1 || value > 65535)
            return fail(err, "an index URL's port is 1 to 65535");
    }
    if (host_ok(host, host_end) < 0)
        return fail(err, "an index URL's host is a name of letters, digits, '-' and '.', an "
                         "IPv4 address or an IPv6 address in brackets");
    /* The path: segments of letters, digits and . _ ~ + - */
    const char *seg = path + 1;
    for (const char *p = path + 1;; p++) {
        if (*p == '/' || !*p) {
            size_t n = (size_t)(p - seg);
            if ((n == 1 && seg[0] == '.') || (n == 2 && seg[0] == '.' && seg[1] == '.'))
                return fail(err, "an index URL's path has no '.' or '..' segment");
            if (n == 0 && *p == '/')
                return fail(err, "an index URL's path has no empty segment ('//')");
            if (!*p)
                break;
            seg = p + 1;
        } else if (!is_alnum((unsigned char)*p) && !strchr("._~+-", *p)) {
            char name[16], msg[160];
            char_name((unsigned char)*p, name, sizeof name);
            snprintf(msg, sizeof msg,
                     "%s is not allowed in an index URL's path (letters, digits, '/' and . _ ~ + "
                     "- are)",
                     name);
            return fail(err, msg);
        }
    }
    struct strbuf b = STRBUF_INIT;
    for (const char *p = url; p < url + skip; p++)
        strbuf_addc(&b, (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p));
    for (const char *p = host; p < path; p++)
        strbuf_addc(&b, (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p));
    strbuf_adds(&b, path);
    *clean = strbuf_detach(&b, NULL);
    if (at && userinfo)
        *userinfo = xstrndup(auth, (size_t)(at - auth));
    return 0;
}

int indexurl_valid(const char *url)
{
    char *clean, *ui;
    if (indexurl_split(url, &clean, &ui, NULL) < 0)
        return 0;
    int ok = !ui && strcmp(clean, url) == 0;
    free(clean);
    free(ui);
    return ok;
}

void indexurl_origin(const char *url, char *buf, size_t n)
{
    if (!n)
        return;
    buf[0] = '\0';
    const char *s = strstr(url, "://");
    if (!s)
        return;
    const char *end = s + 3 + strcspn(s + 3, "/?#");
    size_t k = (size_t)(end - url);
    if (k >= n)
        return;
    memcpy(buf, url, k);
    buf[k] = '\0';
}

int indexurl_has_userinfo(const char *url, const char **at)
{
    const char *s = strstr(url, "://");
    const char *auth = s ? s + 3 : url;
    const char *end = auth + strcspn(auth, "/?#"), *last = NULL;
    for (const char *p = auth; p < end; p++)
        if (*p == '@')
            last = p;
    if (at)
        *at = last;
    return last != NULL;
}

void indexurl_redact(const char *url, char *buf, size_t n)
{
    if (!n)
        return;
    const char *at;
    if (!indexurl_has_userinfo(url, &at)) {
        snprintf(buf, n, "%s", url);
        return;
    }
    const char *s = strstr(url, "://");
    const char *auth = s ? s + 3 : url;
    snprintf(buf, n, "%.*s***%s", (int)(auth - url), url, at);
}
