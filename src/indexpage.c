/*
 * indexpage: links from PEP 503 HTML and PEP 691 JSON index pages.
 */
#include "indexpage.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "strbuf.h"
#include "wheelname.h"
#include "xalloc.h"

static void link_free(struct index_link *l)
{
    free(l->filename);
    free(l->url);
    free(l->sha256);
    free(l->requires_python);
    free(l->yanked);
    free(l->upload_time);
}

void indexpage_free(struct index_page *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        link_free(&p->links[i]);
    free(p->links);
    p->links = NULL;
    p->n = 0;
}

/* ---- entities ----------------------------------------------------------- */

static void put_utf8(struct strbuf *b, unsigned long cp)
{
    if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        cp = 0xFFFD;
    if (cp < 0x80) {
        strbuf_addc(b, (char)cp);
    } else if (cp < 0x800) {
        strbuf_addc(b, (char)(0xC0 | (cp >> 6)));
        strbuf_addc(b, (char)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        strbuf_addc(b, (char)(0xE0 | (cp >> 12)));
        strbuf_addc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
        strbuf_addc(b, (char)(0x80 | (cp & 0x3F)));
    } else {
        strbuf_addc(b, (char)(0xF0 | (cp >> 18)));
        strbuf_addc(b, (char)(0x80 | ((cp >> 12) & 0x3F)));
        strbuf_addc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
        strbuf_addc(b, (char)(0x80 | (cp & 0x3F)));
    }
}

char *indexpage_entity_decode(const char *s, size_t n)
{
    static const struct {
        const char *name;
        char c;
    } named[] = {{"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
    struct strbuf b = STRBUF_INIT;
    strbuf_grow(&b, n);
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '&') {
            strbuf_addc(&b, s[i]);
            continue;
        }
        size_t j = i + 1;
        while (j < n && j - i < 12 && s[j] != ';' && s[j] != '&')
            j++;
        if (j >= n || s[j] != ';') {
            strbuf_addc(&b, '&');
            continue;
        }
        const char *ent = s + i + 1;
        size_t elen = j - i - 1;
        int done = 0;
        if (elen >= 2 && ent[0] == '#') {
            unsigned long cp = 0;
            int hex = ent[1] == 'x' || ent[1] == 'X';
            size_t k = hex ? 2 : 1;
            int ok = k < elen;
            for (; k < elen && ok; k++) {
                int c = (unsigned char)ent[k];
                if (hex && isxdigit(c))
                    cp = cp * 16 + (unsigned long)(isdigit(c) ? c - '0' : (tolower(c) - 'a' + 10));
                else if (!hex && isdigit(c))
                    cp = cp * 10 + (unsigned long)(c - '0');
                else
                    ok = 0;
                if (cp > 0x10FFFF)
                    cp = 0x110000;
            }
            if (ok) {
                put_utf8(&b, cp);
                done = 1;
            }
        } else {
            for (size_t k = 0; k < sizeof named / sizeof named[0]; k++)
                if (strlen(named[k].name) == elen && memcmp(named[k].name, ent, elen) == 0) {
                    strbuf_addc(&b, named[k].c);
                    done = 1;
                }
        }
        if (done)
            i = j;
        else
            strbuf_addc(&b, '&');
    }
    return strbuf_detach(&b, NULL);
}

/* ---- URLs --------------------------------------------------------------- */

/* Length of "scheme:" at the start of s, or 0. */
static size_t scheme_len(const char *s)
{
    if (!isalpha((unsigned char)s[0]))
        return 0;
    size_t i = 1;
    while (isalnum((unsigned char)s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.')
        i++;
    return s[i] == ':' ? i + 1 : 0;
}

/* Removes "." and ".." segments (RFC 3986 5.2.4) from a path. */
static char *remove_dots(const char *path)
{
    size_t n = strlen(path);
    char **segs = xcalloc(n + 2, sizeof *segs);
    size_t ns = 0;
    const char *p = path;
    int absolute = *p == '/';
    if (absolute)
        p++;
    int trailing = 0;
    while (1) {
        const char *e = strchr(p, '/');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        trailing = 0;
        if (len == 1 && p[0] == '.') {
            trailing = 1;
        } else if (len == 2 && p[0] == '.' && p[1] == '.') {
            if (ns > 0)
                free(segs[--ns]);
            trailing = 1;
        } else {
            segs[ns++] = xstrndup(p, len);
        }
        if (!e)
            break;
        p = e + 1;
    }
    struct strbuf b = STRBUF_INIT;
    if (absolute)
        strbuf_addc(&b, '/');
    for (size_t i = 0; i < ns; i++) {
        if (i)
            strbuf_addc(&b, '/');
        strbuf_adds(&b, segs[i]);
        free(segs[i]);
    }
    if (trailing && ns > 0)
        strbuf_addc(&b, '/');
    free(segs);
    return strbuf_detach(&b, NULL);
}

char *indexpage_resolve(const char *base, const char *href)
{
    size_t hl = strcspn(href, "#");
    char *h = xstrndup(href, hl);
    char *out;
    if (scheme_len(h)) {
        out = h;
        return out;
    }
    size_t sl = scheme_len(base);
    const char *auth = base + sl;
    const char *path = auth;
    if (auth[0] == '/' && auth[1] == '/') {
        path = strchr(auth + 2, '/');
        if (!path)
            path = auth + strlen(auth);
    }
    if (h[0] == '/' && h[1] == '/') {
        out = xasprintf("%.*s%s", (int)sl, base, h);
    } else if (h[0] == '/') {
        char *clean = remove_dots(h);
        out = xasprintf("%.*s%s", (int)(path - base), base, clean);
        free(clean);
    } else if (h[0] == '\0') {
        out = xstrndup(base, strcspn(base, "#"));
    } else if (h[0] == '?') {
        out = xasprintf("%.*s%s", (int)strcspn(base, "?#"), base, h);
    } else {
        /* Merge with the base path's directory. */
        size_t plen = strcspn(path, "?#");
        const char *slash = NULL;
        for (size_t i = 0; i < plen; i++)
            if (path[i] == '/')
                slash = path + i;
        char *merged =
            slash ? xasprintf("%.*s%s", (int)(slash - path + 1), path, h) : xasprintf("/%s", h);
        char *q = strchr(merged, '?');
        char *query = NULL;
        if (q) {
            query = xstrdup(q);
            *q = '\0';
        }
        char *clean = remove_dots(merged);
        out = xasprintf("%.*s%s%s", (int)(path - base), base, clean, query ? query : "");
        free(clean);
        free(merged);
        free(query);
    }
    free(h);
    return out;
}

/* ---- links -------------------------------------------------------------- */

static char *filename_of(const char *url)
{
    size_t end = strcspn(url, "?#");
    size_t start = end;
    while (start > 0 && url[start - 1] != '/')
        start--;
    char *raw = xstrndup(url + start, end - start);
    char *dec = wheelname_percent_decode(raw);
    free(raw);
    return dec;
}

/* The value of a #sha256= fragment as written (up to '&' and at most 200
 * bytes), or NULL: the crawler checks it, so a bad one is reported for
 * that wheel instead of being silently dropped. */
static char *sha256_of_fragment(const char *href)
{
    const char *h = strchr(href, '#');
    if (!h)
        return NULL;
    const char *p = strstr(h, "sha256=");
    if (!p)
        return NULL;
    p += 7;
    size_t n = strcspn(p, "&");
    return xstrndup(p, n < 200 ? n : 200);
}

static int add_link(struct index_page *out, size_t *cap, struct index_link *l, struct wa_error *err)
{
    if (out->n >= INDEXPAGE_MAX_LINKS)
        return wa_error_set(err, WA_ERR_LIMIT, "more than %u links on one page",
                            INDEXPAGE_MAX_LINKS);
    out->links = xgrow(out->links, cap, out->n + 1, sizeof *out->links);
    out->links[out->n++] = *l;
    return 0;
}

struct attr {
    const char *name;
    size_t nlen;
    const char *val; /* NULL for a boolean attribute */
    size_t vlen;
};

/* Parses attributes of a tag from p up to '>'; returns the index after the
 * tag, filling up to max attributes. */
static size_t parse_attrs(const char *s, size_t i, size_t n, struct attr *attrs, size_t max,
                          size_t *nattrs)
{
    *nattrs = 0;
    while (i < n) {
        while (i < n && isspace((unsigned char)s[i]))
            i++;
        if (i >= n)
            break;
        if (s[i] == '>')
            return i + 1;
        if (s[i] == '/') {
            i++;
            continue;
        }
        size_t ns = i;
        while (i < n && !isspace((unsigned char)s[i]) && s[i] != '=' && s[i] != '>' && s[i] != '/')
            i++;
        struct attr a = {s + ns, i - ns, NULL, 0};
        while (i < n && isspace((unsigned char)s[i]))
            i++;
        if (i < n && s[i] == '=') {
            i++;
            while (i < n && isspace((unsigned char)s[i]))
                i++;
            if (i < n && (s[i] == '"' || s[i] == '\'')) {
                char q = s[i++];
                size_t vs = i;
                while (i < n && s[i] != q)
                    i++;
                a.val = s + vs;
                a.vlen = i - vs;
                if (i < n)
                    i++;
            } else {
                size_t vs = i;
                while (i < n && !isspace((unsigned char)s[i]) && s[i] != '>')
                    i++;
                a.val = s + vs;
                a.vlen = i - vs;
            }
        }
        if (a.nlen == 0) {
            i++;
            continue;
        }
        if (*nattrs < max)
            attrs[(*nattrs)++] = a;
    }
    return n;
}

static const struct attr *find_attr(const struct attr *a, size_t n, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < n; i++)
        if (a[i].nlen == len && strncasecmp(a[i].name, name, len) == 0)
            return &a[i];
    return NULL;
}

static char *attr_value(const struct attr *a)
{
    if (!a)
        return NULL;
    if (!a->val)
        return xstrdup("");
    return indexpage_entity_decode(a->val, a->vlen);
}

static int tag_is(const char *s, size_t i, size_t n, const char *name)
{
    size_t len = strlen(name);
    if (i + 1 + len > n || strncasecmp(s + i + 1, name, len) != 0)
        return 0;
    if (i + 1 + len == n)
        return 1;
    char c = s[i + 1 + len];
    return isspace((unsigned char)c) || c == '>' || c == '/';
}

int indexpage_parse_html(const char *page_url, const char *s, size_t n, struct index_page *out,
                         struct wa_error *err)
{
    out->links = NULL;
    out->n = 0;
    size_t cap = 0;
    char *base = xstrdup(page_url);
    struct attr attrs[32];
    size_t na;
    size_t i = 0;
    int rc = 0;
    while (i < n) {
        const char *lt = memchr(s + i, '<', n - i);
        if (!lt)
            break;
        i = (size_t)(lt - s);
        if (i + 4 <= n && memcmp(s + i, "<!--", 4) == 0) {
            const char *end = NULL;
            for (size_t k = i + 4; k + 3 <= n; k++)
                if (memcmp(s + k, "-->", 3) == 0) {
                    end = s + k;
                    break;
                }
            i = end ? (size_t)(end - s) + 3 : n;
            continue;
        }
        if (tag_is(s, i, n, "base")) {
            i = parse_attrs(s, i + 5, n, attrs, 32, &na);
            char *href = attr_value(find_attr(attrs, na, "href"));
            if (href && *href) {
                char *nb = indexpage_resolve(base, href);
                free(base);
                base = nb;
            }
            free(href);
            continue;
        }
        if (!tag_is(s, i, n, "a")) {
            i++;
            continue;
        }
        i = parse_attrs(s, i + 2, n, attrs, 32, &na);
        char *href = attr_value(find_attr(attrs, na, "href"));
        if (!href || !*href) {
            free(href);
            continue;
        }
        struct index_link l;
        memset(&l, 0, sizeof l);
        l.url = indexpage_resolve(base, href);
        l.filename = filename_of(l.url);
        l.sha256 = sha256_of_fragment(href);
        free(href);
        l.requires_python = attr_value(find_attr(attrs, na, "data-requires-python"));
        if (l.requires_python && !*l.requires_python) {
            free(l.requires_python);
            l.requires_python = NULL;
        }
        l.yanked = attr_value(find_attr(attrs, na, "data-yanked"));
        l.upload_time = attr_value(find_attr(attrs, na, "data-upload-time"));
        l.has_metadata = find_attr(attrs, na, "data-core-metadata") != NULL ||
                         find_attr(attrs, na, "data-dist-info-metadata") != NULL;
        rc = add_link(out, &cap, &l, err);
        if (rc < 0) {
            link_free(&l);
            indexpage_free(out);
            break;
        }
    }
    free(base);
    return rc;
}

static char *json_str_dup(json_t *v)
{
    return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

int indexpage_parse_json(const char *page_url, const char *body, size_t len, struct index_page *out,
                         struct wa_error *err)
{
    out->links = NULL;
    out->n = 0;
    json_error_t je;
    json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return wa_error_set(err, WA_ERR_FORMAT, "bad JSON index page at line %d column %d: %s",
                            je.line, je.column, je.text);
    int rc = 0;
    json_t *meta = json_object_get(root, "meta");
    const char *ver = json_string_value(json_object_get(meta, "api-version"));
    json_t *files = json_object_get(root, "files");
    if (!ver || !json_is_array(files)) {
        rc = wa_error_set(err, WA_ERR_FORMAT, "JSON index page without meta.api-version or files");
        goto done;
    }
    if (strtol(ver, NULL, 10) != 1) {
        rc = wa_error_set(err, WA_ERR_UNSUPPORTED, "JSON index api-version %s is not 1.x", ver);
        goto done;
    }
    size_t cap = 0, i;
    json_t *f;
    json_array_foreach(files, i, f)
    {
        const char *url = json_string_value(json_object_get(f, "url"));
        if (!url || !*url)
            continue;
        struct index_link l;
        memset(&l, 0, sizeof l);
        l.url = indexpage_resolve(page_url, url);
        const char *fn = json_string_value(json_object_get(f, "filename"));
        l.filename = fn ? xstrdup(fn) : filename_of(l.url);
        const char *sha =
            json_string_value(json_object_get(json_object_get(f, "hashes"), "sha256"));
        if (sha)
            l.sha256 = xstrndup(sha, strnlen(sha, 200));
        l.requires_python = json_str_dup(json_object_get(f, "requires-python"));
        json_t *y = json_object_get(f, "yanked");
        if (json_is_string(y))
            l.yanked = xstrdup(json_string_value(y));
        else if (json_is_true(y))
            l.yanked = xstrdup("");
        l.upload_time = json_str_dup(json_object_get(f, "upload-time"));
        json_t *md = json_object_get(f, "core-metadata");
        if (!md)
            md = json_object_get(f, "dist-info-metadata");
        l.has_metadata = md && !json_is_false(md);
        rc = add_link(out, &cap, &l, err);
        if (rc < 0) {
            link_free(&l);
            indexpage_free(out);
            break;
        }
    }
done:
    json_decref(root);
    return rc;
}

int indexpage_parse(const char *page_url, const char *content_type, const char *body, size_t len,
                    struct index_page *out, struct wa_error *err)
{
    if (content_type && strncasecmp(content_type, "application/vnd.pypi.simple.v1+json", 35) == 0)
        return indexpage_parse_json(page_url, body, len, out, err);
    return indexpage_parse_html(page_url, body, len, out, err);
}
