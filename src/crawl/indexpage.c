/*
 * indexpage: links from PEP 503 HTML and PEP 691 JSON index pages.
 */
#include "indexpage.h"

#include <ctype.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "strbuf.h"
#include "wheelname.h"
#include "scanreport.h"
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

/* Shortens b to its first k bytes. */
static void cut(struct strbuf *b, size_t k)
{
    b->len = k;
    b->buf[k] = '\0';
}

/* Appends path[0..n) to b with "." and ".." segments removed (RFC 3986
 * 5.2.4).  One pass: a ".." cuts the output back to its last '/', so each
 * byte is written and removed at most once, and nothing is allocated per
 * segment. */
static void add_without_dots(struct strbuf *b, const char *path, size_t n)
{
    size_t i = 0;
    strbuf_grow(b, n + 1);
    if (n > 0 && path[0] == '/') {
        strbuf_addc(b, '/');
        i = 1;
    }
    size_t root = b->len; /* a ".." never cuts into what is before */
    size_t ns = 0;        /* segments in b after root */
    int trailing = 0;
    while (1) {
        const char *seg = path + i;
        const char *e = memchr(seg, '/', n - i);
        size_t len = e ? (size_t)(e - seg) : n - i;
        trailing = 0;
        if (len == 1 && seg[0] == '.') {
            trailing = 1;
        } else if (len == 2 && seg[0] == '.' && seg[1] == '.') {
            if (ns > 0 && --ns == 0) {
                cut(b, root);
            } else if (ns > 0) {
                /* Segments hold no '/', so the last one after root is the
                 * separator before the last segment. */
                size_t k = b->len;
                while (b->buf[k - 1] != '/')
                    k--;
                cut(b, k - 1);
            }
            trailing = 1;
        } else {
            if (ns++ > 0)
                strbuf_addc(b, '/');
            strbuf_add(b, seg, len);
        }
        if (!e)
            break;
        i += len + 1;
    }
    if (trailing && ns > 0)
        strbuf_addc(b, '/');
}

/* Appends path (which may end in a query) with its dot segments removed
 * and the query as it is. */
static void add_path_query(struct strbuf *b, const char *path)
{
    size_t pl = strcspn(path, "?");
    add_without_dots(b, path, pl);
    strbuf_adds(b, path + pl);
}

char *indexpage_resolve(const char *base, const char *href)
{
    size_t hl = strcspn(href, "#");
    char *h = xstrndup(href, hl);
    if (scheme_len(h))
        return h;
    size_t sl = scheme_len(base);
    const char *auth = base + sl;
    const char *path = auth;
    if (auth[0] == '/' && auth[1] == '/') {
        path = strchr(auth + 2, '/');
        if (!path)
            path = auth + strlen(auth);
    }
    struct strbuf b = STRBUF_INIT;
    if (h[0] == '/' && h[1] == '/') {
        strbuf_add(&b, base, sl);
        strbuf_add(&b, h, hl);
    } else if (h[0] == '/') {
        strbuf_add(&b, base, (size_t)(path - base));
        add_path_query(&b, h);
    } else if (h[0] == '\0') {
        strbuf_add(&b, base, strcspn(base, "#"));
    } else if (h[0] == '?') {
        strbuf_add(&b, base, strcspn(base, "?#"));
        strbuf_add(&b, h, hl);
    } else {
        /* Merge with the base path's directory. */
        size_t plen = strcspn(path, "?#");
        size_t dir = 0;
        for (size_t i = 0; i < plen; i++)
            if (path[i] == '/')
                dir = i + 1;
        strbuf_add(&b, base, (size_t)(path - base));
        char *merged = xmalloc(dir + hl + 2);
        size_t ml = 0;
        if (dir == 0)
            merged[ml++] = '/';
        memcpy(merged + ml, path, dir);
        memcpy(merged + ml + dir, h, hl + 1);
        add_path_query(&b, merged);
        free(merged);
    }
    free(h);
    return strbuf_detach(&b, NULL);
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

static size_t text_size(const struct index_link *l)
{
    const char *f[] = {l->filename,        l->url,    l->sha256,
                       l->requires_python, l->yanked, l->upload_time};
    size_t n = 0;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        n += f[i] ? strlen(f[i]) + 1 : 0;
    return n;
}

/* What the links of a page of len bytes may keep: every link's strings
 * come from its own bytes of the page, except the prefix a relative URL
 * takes from the page URL or <base href>, which the slack covers for real
 * pages; many tiny links under a long <base> would otherwise multiply it. */
static size_t text_budget(size_t len)
{
    return len > (SIZE_MAX - INDEXPAGE_TEXT_SLACK) / 2 ? SIZE_MAX : 2 * len + INDEXPAGE_TEXT_SLACK;
}

struct collect {
    struct index_page *out;
    size_t cap;
    size_t text;   /* bytes the links' strings take */
    size_t len;    /* of the page */
    size_t budget; /* text_budget(len) */
};

/* Takes l over: adds it to the page, or frees it and returns an error. */
static int add_link(struct collect *c, struct index_link *l, struct wa_error *err)
{
    int rc = 0;
    size_t t = text_size(l);
    if (c->out->n >= INDEXPAGE_MAX_LINKS)
        rc = wa_error_set(err, WA_ERR_LIMIT, "more than %u links on one page", INDEXPAGE_MAX_LINKS);
    else if (t > c->budget - c->text)
        rc = wa_error_set(err, WA_ERR_LIMIT,
                          "the links on this page take more than %zu bytes (twice the page's %zu "
                          "bytes and %u)",
                          c->budget, c->len, INDEXPAGE_TEXT_SLACK);
    if (rc < 0) {
        link_free(l);
        return rc;
    }
    c->text += t;
    c->out->links = xgrow(c->out->links, &c->cap, c->out->n + 1, sizeof *c->out->links);
    c->out->links[c->out->n++] = *l;
    return 0;
}

/* Resolves a non-empty href of at most INDEXPAGE_MAX_URL bytes into l->url
 * and sets l->filename (to a copy of fn, or from the URL).  Returns 0, or -1
 * (nothing allocated) when the URL is longer than INDEXPAGE_MAX_URL. */
static int link_url(struct index_link *l, const char *base, const char *href, const char *fn)
{
    char *url = indexpage_resolve(base, href);
    if (strlen(url) > INDEXPAGE_MAX_URL) {
        free(url);
        return -1;
    }
    l->url = url;
    l->filename = fn ? xstrdup(fn) : filename_of(url);
    return 0;
}

/* ---- HTML --------------------------------------------------------------- */

#define MAX_ATTRS 32

struct attr {
    const char *name;
    size_t nlen;
    const char *val; /* NULL for a boolean attribute */
    size_t vlen;
};

/* Parses attributes of a tag from s[i] up to '>'; returns the index after
 * the tag, keeping the first max attributes. */
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
        if (s[i] == '=') /* HTML: a '=' here starts the attribute's name */
            i++;
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
                const char *e = memchr(s + i, q, n - i);
                i = e ? (size_t)(e - s) : n;
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

/* A yanked wheel's reason as records keep it: one line of UTF-8, what a
 * record may not hold written as \xNN (scanreport_clean_text).  A reason
 * that was not UTF-8 used to be dropped from the record, and the wheel
 * read as not yanked; one with a line break made the wheel fail. */
static void clean_reason(struct index_link *l)
{
    if (!l->yanked)
        return;
    char *clean = scanreport_clean_text(l->yanked);
    free(l->yanked);
    l->yanked = clean;
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

enum { TAG_END, TAG_A, TAG_BASE };

struct html_scan {
    const char *s;
    size_t n;
    size_t i;
    struct attr attrs[MAX_ATTRS];
    size_t na;
};

/* Moves to the next <a> or <base> tag, skipping comments, and parses its
 * attributes.  Returns TAG_A, TAG_BASE or TAG_END. */
static int next_tag(struct html_scan *h)
{
    const char *s = h->s;
    size_t n = h->n;
    while (h->i < n) {
        const char *lt = memchr(s + h->i, '<', n - h->i);
        if (!lt)
            break;
        size_t i = (size_t)(lt - s);
        if (n - i >= 4 && memcmp(s + i, "<!--", 4) == 0) {
            const char *end = memmem(s + i + 4, n - i - 4, "-->", 3);
            h->i = end ? (size_t)(end - s) + 3 : n;
            continue;
        }
        if (tag_is(s, i, n, "base")) {
            h->i = parse_attrs(s, i + 5, n, h->attrs, MAX_ATTRS, &h->na);
            return TAG_BASE;
        }
        if (tag_is(s, i, n, "a")) {
            h->i = parse_attrs(s, i + 2, n, h->attrs, MAX_ATTRS, &h->na);
            return TAG_A;
        }
        h->i = i + 1;
    }
    h->i = n;
    return TAG_END;
}

/* The document's base URL: the first <base> with an href, resolved against
 * the page URL, as HTML defines it (later ones are ignored; resolving each
 * against the one before made repeated tags quadratic).  NULL means the
 * page URL: no such tag, or its href is empty or longer than
 * INDEXPAGE_MAX_URL, before or after resolving.  Caller frees. */
static char *document_base(const char *page_url, const char *s, size_t n)
{
    struct html_scan h = {.s = s, .n = n};
    int t;
    while ((t = next_tag(&h)) != TAG_END) {
        const struct attr *a = t == TAG_BASE ? find_attr(h.attrs, h.na, "href") : NULL;
        if (!a)
            continue;
        if (!a->val || a->vlen == 0 || a->vlen > INDEXPAGE_MAX_URL)
            return NULL;
        char *href = attr_value(a);
        char *base = indexpage_resolve(page_url, href);
        free(href);
        if (strlen(base) > INDEXPAGE_MAX_URL) {
            free(base);
            base = NULL;
        }
        return base;
    }
    return NULL;
}

int indexpage_parse_html(const char *page_url, const char *s, size_t n, struct index_page *out,
                         struct wa_error *err)
{
    memset(out, 0, sizeof *out);
    struct collect c = {out, 0, 0, n, text_budget(n)};
    char *doc_base = document_base(page_url, s, n);
    const char *base = doc_base ? doc_base : page_url;
    struct html_scan h = {.s = s, .n = n};
    int t, rc = 0;
    while (rc == 0 && (t = next_tag(&h)) != TAG_END) {
        if (t != TAG_A)
            continue;
        const struct attr *ha = find_attr(h.attrs, h.na, "href");
        if (!ha || !ha->val || ha->vlen == 0)
            continue;
        if (ha->vlen > INDEXPAGE_MAX_URL) {
            out->skipped++;
            continue;
        }
        char *href = attr_value(ha); /* never "": an entity decodes to something */
        struct index_link l;
        memset(&l, 0, sizeof l);
        if (link_url(&l, base, href, NULL) < 0) {
            out->skipped++;
            free(href);
            continue;
        }
        l.sha256 = sha256_of_fragment(href);
        free(href);
        l.requires_python = attr_value(find_attr(h.attrs, h.na, "data-requires-python"));
        if (l.requires_python && !*l.requires_python) {
            free(l.requires_python);
            l.requires_python = NULL;
        }
        l.yanked = attr_value(find_attr(h.attrs, h.na, "data-yanked"));
        clean_reason(&l);
        l.upload_time = attr_value(find_attr(h.attrs, h.na, "data-upload-time"));
        l.size = -1; /* HTML pages say no size */
        l.has_metadata = find_attr(h.attrs, h.na, "data-core-metadata") != NULL ||
                         find_attr(h.attrs, h.na, "data-dist-info-metadata") != NULL;
        rc = add_link(&c, &l, err);
    }
    if (rc < 0)
        indexpage_free(out);
    free(doc_base);
    return rc;
}

/* ---- JSON --------------------------------------------------------------- */

static char *json_str_dup(json_t *v)
{
    return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

/* An upper estimate of the memory jansson takes for the tree of s[0..n),
 * stopping once it passes max: every value but the root follows a '[', ','
 * or ':', counted 48 bytes (a number, or a value's slot in its parent); on
 * top of that an object counts 256, an array 144, a string 64 and its
 * length.  Measured with jansson 2.14 on x86_64: [{},...] takes 232 bytes
 * an element, [[],...] 136, ["",...] 88, [0,...] 40, a real PEP 691 file
 * entry about 3 KB (estimated 4 KB).  One pass without validation: jansson
 * checks the syntax afterwards. */
static unsigned long long json_tree_estimate(const char *s, size_t n, unsigned long long max)
{
    unsigned long long est = 0;
    for (size_t i = 0; i < n && est <= max; i++) {
        switch (s[i]) {
        case '"': {
            size_t start = i;
            for (i++; i < n && s[i] != '"'; i++)
                if (s[i] == '\\')
                    i++;
            est += 64 + (i - start);
            break;
        }
        case '{':
            est += 256;
            break;
        case '[':
            est += 144 + 48;
            break;
        case ',':
        case ':':
            est += 48;
            break;
        default:
            break;
        }
    }
    return est;
}

/* PEP 629: "MAJOR.MINOR", decimal digits only.  Returns the major version
 * (at most 9999: larger ones are as unsupported), or -1 for anything else
 * ("1e9", "1", "1.0.0", " 1.0", "+1.0", "1.0\n"). */
static int api_major(const char *v)
{
    int major = 0;
    size_t i = 0;
    if (!(v[i] >= '0' && v[i] <= '9'))
        return -1;
    for (; v[i] >= '0' && v[i] <= '9'; i++)
        if (major < 1000)
            major = major * 10 + (v[i] - '0');
    if (v[i++] != '.' || !(v[i] >= '0' && v[i] <= '9'))
        return -1;
    while (v[i] >= '0' && v[i] <= '9')
        i++;
    return v[i] == '\0' ? major : -1;
}

int indexpage_parse_json(const char *page_url, const char *body, size_t len, struct index_page *out,
                         struct wa_error *err)
{
    memset(out, 0, sizeof *out);
    char q[160];
    unsigned long long est = json_tree_estimate(body, len, INDEXPAGE_MAX_JSON_TREE);
    if (est > INDEXPAGE_MAX_JSON_TREE)
        return wa_error_set(err, WA_ERR_LIMIT,
                            "JSON index page of %zu bytes would take more than %u bytes to parse",
                            len, INDEXPAGE_MAX_JSON_TREE);
    json_error_t je;
    json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return wa_error_set(err, WA_ERR_FORMAT, "bad JSON index page at line %d column %d: %s",
                            je.line, je.column, wa_quote(q, sizeof q, je.text, 120));
    int rc = 0;
    json_t *meta = json_object_get(root, "meta");
    const char *ver = json_string_value(json_object_get(meta, "api-version"));
    json_t *files = json_object_get(root, "files");
    if (!ver || !json_is_array(files)) {
        rc = wa_error_set(err, WA_ERR_FORMAT, "JSON index page without meta.api-version or files");
        goto done;
    }
    int major = api_major(ver);
    if (major < 0) {
        rc = wa_error_set(err, WA_ERR_FORMAT, "JSON index api-version \"%s\" is not MAJOR.MINOR",
                          wa_quote(q, sizeof q, ver, 40));
        goto done;
    }
    if (major != 1) {
        rc = wa_error_set(err, WA_ERR_UNSUPPORTED, "JSON index api-version \"%s\" is not 1.x",
                          wa_quote(q, sizeof q, ver, 40));
        goto done;
    }
    struct collect c = {out, 0, 0, len, text_budget(len)};
    size_t i;
    json_t *f;
    json_array_foreach(files, i, f)
    {
        json_t *u = json_object_get(f, "url");
        const char *url = json_string_value(u);
        if (!url || !*url)
            continue;
        const char *fn = json_string_value(json_object_get(f, "filename"));
        struct index_link l;
        memset(&l, 0, sizeof l);
        if (json_string_length(u) > INDEXPAGE_MAX_URL || (fn && strlen(fn) > INDEXPAGE_MAX_URL) ||
            link_url(&l, page_url, url, fn) < 0) {
            out->skipped++;
            continue;
        }
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
        clean_reason(&l);
        l.upload_time = json_str_dup(json_object_get(f, "upload-time"));
        json_t *sz = json_object_get(f, "size");
        l.size = json_is_integer(sz) && json_integer_value(sz) >= 0 ? json_integer_value(sz) : -1;
        json_t *md = json_object_get(f, "core-metadata");
        if (!md)
            md = json_object_get(f, "dist-info-metadata");
        l.has_metadata = md && !json_is_false(md);
        rc = add_link(&c, &l, err);
        if (rc < 0) {
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
