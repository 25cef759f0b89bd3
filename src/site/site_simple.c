/*
 * site_simple: the simple indexes (PEP 503 HTML and PEP 691 JSON), one per
 * GPU architecture and project, linking the wheels with code for it.
 */
#include "site_simple.h"

#include <stdlib.h>
#include <string.h>

#include "jsontext.h"
#include "strbuf.h"
#include "tmpl_json.h"
#include "xalloc.h"
#include "sitedata_simple.h"
#include "sitedata_text.h"
#include "sitedata_types.h"

/* The simple indexes' links, made when first listed: per row of
 * d->simple, per wheel, its HTML line and its PEP 691 JSON. */
struct simple_link {
    int made;
    char *html; /* NULL: not an http(s) URL */
    char *json; /* --simple-json only */
};

struct simple_row_links {
    struct simple_link *v; /* NULL until one of the row's links is listed */
    size_t n;
    json_t *links; /* the row's links as JSON (--simple-json), when made */
};

struct simple_links {
    struct sitedata *d;
    int want_json;
    struct simple_row_links *rows;
    size_t nrows;
};

/* PEP 691 file objects of one row's links, as JSON text without the
 * enclosing brackets ("" when there are none). */
static char *files_json(json_t *links)
{
    json_t *files = json_array();
    size_t m;
    json_t *l;
    json_array_foreach(links, m, l)
    {
        json_t *f = json_object();
        json_object_set(f, "filename", json_object_get(l, "filename"));
        json_object_set(f, "url", json_object_get(l, "url"));
        json_t *h = json_object();
        if (json_is_string(json_object_get(l, "sha256")))
            json_object_set(h, "sha256", json_object_get(l, "sha256"));
        json_object_set_new(f, "hashes", h);
        if (json_is_string(json_object_get(l, "requires_python")))
            json_object_set(f, "requires-python", json_object_get(l, "requires_python"));
        /* PEP 691: the reason, or true for a wheel yanked without one */
        json_t *y = json_object_get(l, "yanked");
        if (json_is_string(y))
            json_object_set(f, "yanked", json_string_value(y)[0] ? y : json_true());
        else if (json_is_true(y))
            json_object_set(f, "yanked", y);
        json_array_append_new(files, f);
    }
    char *s = jsontext_dumps(files, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(files);
    size_t n = strlen(s);
    char *inner = xstrndup(s + 1, n >= 2 ? n - 2 : 0);
    free(s);
    return inner;
}

static const struct simple_link *simple_link(struct simple_links *sl, size_t r, size_t l)
{
    static const struct simple_link none = {1, NULL, NULL};
    struct simple_row_links *row = &sl->rows[r];
    if (!row->v) {
        row->n = sitedata_simple_nlinks(sl->d, r);
        row->v = xcalloc(row->n + 1, sizeof *row->v);
    }
    if (l >= row->n)
        return &none;
    struct simple_link *k = &row->v[l];
    if (k->made)
        return k;
    k->made = 1;
    k->html = sitedata_simple_link_html(sl->d, r, l);
    if (sl->want_json) {
        if (!row->links)
            row->links = sitedata_simple_links(sl->d, r);
        json_t *one_link = json_array_get(row->links, l);
        if (one_link && !json_is_null(one_link)) {
            json_t *one = json_array();
            json_array_append(one, one_link);
            k->json = files_json(one);
            json_decref(one);
        }
    }
    return k;
}

static void simple_links_free(struct simple_links *sl)
{
    for (size_t r = 0; r < sl->nrows; r++) {
        struct simple_row_links *row = &sl->rows[r];
        for (size_t l = 0; row->v && l < row->n; l++) {
            free(row->v[l].html);
            free(row->v[l].json);
        }
        free(row->v);
        json_decref(row->links);
    }
    free(sl->rows);
}

int sitei_simple(struct ctx *c, struct sitedata *d, struct wa_error *err)
{
    json_t *rows = json_object_get(d->simple, "rows");
    json_t *projects = json_object_get(d->simple, "projects");
    size_t nrows = json_array_size(rows);
    /* Each link formatted once, as HTML and (--simple-json) as PEP 691
     * JSON, when a page first lists it, however many architecture pages
     * list it (and not at all when none does: most wheels of a project
     * with hundreds of releases are on no page). */
    int want_json = c->o->simple_json;
    struct simple_links sl = {d, want_json, xcalloc(nrows + 1, sizeof *sl.rows), nrows};
    int rc = 0;
    size_t a;
    json_t *arch;
    json_array_foreach(json_object_get(d->simple, "archs"), a, arch)
    {
        if (rc < 0)
            break;
        const char *an = json_string_value(json_object_get(arch, "arch"));
        json_t *data = json_object();
        json_object_set(data, "arch", json_object_get(arch, "arch"));
        json_object_set(data, "cc", json_object_get(arch, "cc"));
        /* PEP 691 lists {name}; the page links each name to its folder. */
        json_t *plist = json_array(), *plinks = json_array();
        size_t k;
        json_t *p;
        json_array_foreach(projects, k, p)
        {
            json_t *x = json_object();
            json_object_set(x, "name", p);
            json_array_append(plist, x);
            json_t *l = json_copy(x);
            char *seg = sitedata_segment(json_string_value(p));
            json_object_set_new(l, "dir", json_string(seg));
            free(seg);
            json_array_append_new(plinks, l);
            json_decref(x);
        }
        json_object_set_new(data, "projects", plinks);
        struct strbuf out = STRBUF_INIT;
        char *path = xasprintf("simple/%s/index.html", an);
        rc = tmpl_json_render_name(c->tmpls, "simple_root", data, &out, err);
        if (rc == 0)
            rc = sitei_put(c, path, out.buf ? out.buf : "", out.len, err);
        free(path);
        json_t *root = json_object(), *meta = json_object();
        json_object_set_new(meta, "api-version", json_string("1.0"));
        json_object_set_new(root, "meta", meta);
        json_object_set_new(root, "projects", plist);
        path = xasprintf("simple/%s/index.json", an);
        if (rc == 0 && want_json)
            rc = sitei_put_json(c, path, root, err);
        free(path);
        json_decref(root);
        json_array_foreach(projects, k, p)
        {
            if (rc < 0)
                break;
            const char *name = json_string_value(p);
            struct strbuf files = STRBUF_INIT;
            const struct sitedata_picks *pk = &d->simple_picks[a];
            /* the page's link lines, joined only into the page itself (a
             * project's page of an architecture can be megabytes) */
            const char **lines = xmalloc((pk->n + 1) * sizeof *lines);
            size_t nlines = 0, lines_len = 0;
            for (size_t m = 0; m < pk->n; m++) {
                size_t r = pk->v[m].row, l = pk->v[m].link;
                const char *rp =
                    json_string_value(json_object_get(json_array_get(rows, r), "project"));
                if (r >= nrows || strcmp(rp, name) != 0)
                    continue;
                const struct simple_link *sk = simple_link(&sl, r, l);
                if (sk->html) { /* picks have http(s) URLs; never a NULL here */
                    lines[nlines++] = sk->html;
                    lines_len += strlen(sk->html);
                }
                if (sk->json && sk->json[0]) {
                    if (files.len)
                        strbuf_addc(&files, ',');
                    strbuf_adds(&files, sk->json);
                }
            }
            char *seg = sitedata_segment(name);
            json_t *pd = json_object();
            json_object_set(pd, "name", p);
            json_object_set(pd, "arch", json_object_get(arch, "arch"));
            /* The template is rendered around a marker byte, which nothing
             * else in it can hold (the name and the architecture are
             * escaped ids), and the lines go in its place. */
            json_object_set_new(pd, "links_html", json_string("\x01"));
            strbuf_reset(&out);
            path = xasprintf("simple/%s/%s/index.html", an, seg);
            char *what = xasprintf("the %s index of %s", an, name);
            rc = tmpl_json_render_name(c->tmpls, "simple_project", pd, &out, err);
            int left_out = 0;
            if (rc == 0) {
                struct strbuf *page = &c->page;
                strbuf_reset(page);
                strbuf_grow(page, out.len + lines_len);
                const char *at = strbuf_str(&out), *end = at + out.len, *mark;
                while ((mark = memchr(at, 1, (size_t)(end - at))) != NULL) {
                    strbuf_add(page, at, (size_t)(mark - at));
                    for (size_t li = 0; li < nlines; li++)
                        strbuf_adds(page, lines[li]);
                    at = mark + 1;
                }
                strbuf_add(page, at, (size_t)(end - at));
                rc = sitei_put_page(c, path, strbuf_str(page), page->len, what, err);
                left_out = rc == 1; /* then its index.json too, with one warning */
                if (rc > 0)
                    rc = 0;
            }
            free(path);
            json_decref(pd);
            /* PEP 691, keys in sorted order like every JSON file here. */
            if (rc == 0 && want_json && !left_out) {
                char *qname = json_dumps(p, JSON_ENCODE_ANY);
                struct strbuf doc = STRBUF_INIT;
                strbuf_adds(&doc, "{\"files\":[");
                strbuf_add(&doc, files.buf ? files.buf : "", files.len);
                strbuf_adds(&doc, "],\"meta\":{\"api-version\":\"1.0\"},\"name\":");
                strbuf_adds(&doc, qname);
                strbuf_adds(&doc, "}\n");
                path = xasprintf("simple/%s/%s/index.json", an, seg);
                if ((rc = sitei_put_page(c, path, doc.buf, doc.len, what, err)) > 0)
                    rc = 0;
                free(path);
                strbuf_free(&doc);
                free(qname);
            }
            free(what);
            free(seg);
            free(lines);
            strbuf_free(&files);
        }
        strbuf_free(&out);
        json_decref(data);
    }
    simple_links_free(&sl);
    return rc;
}
