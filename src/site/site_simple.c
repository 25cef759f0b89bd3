/*
 * site_simple: the simple indexes (PEP 503 HTML and PEP 691 JSON), one per
 * GPU architecture and project, linking the wheels with code for it.
 */
#include "site_simple.h"

#include <stdlib.h>
#include <string.h>

#include "jsontext.h"
#include "record.h"
#include "strbuf.h"
#include "compat.h"
#include "tmpl.h"
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

/* The PEP 691 links of one row's wheels, one per wheel in order (null for
 * a wheel whose URL is not http(s)): {filename, href, url, sha256,
 * requires_python, yanked, upload_time}.  Made when a row is first
 * written; caller frees. */
static json_t *row_links(const struct dbview_row *row)
{
    json_t *links = json_array();
    for (size_t i = 0; i < row->nwheels; i++) {
        const struct record_wheel *w = &row->wheels[i];
        char *url = sitedata_href(w->url);
        if (!url) {
            json_array_append_new(links, json_null()); /* not an http(s) URL: no link */
            continue;
        }
        /* recordcheck refuses a URL with a fragment; were one to get
         * through, it is cut, so a link never has two '#'. */
        url[strcspn(url, "#")] = '\0';
        json_t *l = json_object();
        json_object_set_new(l, "filename", json_string(w->filename));
        char *href = w->sha256 ? xasprintf("%s#sha256=%s", url, w->sha256) : xstrdup(url);
        json_object_set_new(l, "href", json_string(href));
        json_object_set_new(l, "url", json_string(url));
        free(href);
        free(url);
        json_object_set_new(l, "sha256", w->sha256 ? json_string(w->sha256) : json_null());
        json_object_set_new(l, "requires_python",
                            w->requires_python ? json_string(w->requires_python) : json_null());
        /* PEP 691: the reason, or true; PEP 592's data-yanked: the reason,
         * empty for a wheel yanked without one */
        json_t *y = record_wheel_yanked_json(w);
        if (json_is_string(y) || json_is_true(y))
            json_object_set_new(l, "data_yanked",
                                json_string(json_is_string(y) ? json_string_value(y) : ""));
        json_object_set_new(l, "is_yanked", json_boolean(json_is_string(y) || json_is_true(y)));
        json_object_set_new(l, "yanked", y);
        json_object_set_new(l, "upload_time",
                            w->upload_time ? json_string(w->upload_time) : json_null());
        json_array_append_new(links, l);
    }
    return links;
}

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
            row->links = row_links(&sl->d->v->rows[sl->d->simple_rows[r]]);
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

/* A simple index's root page (simple/<arch>/): its architecture and the
 * projects it links, each to its folder. */
struct root_page {
    const struct sitedata_simple *sd;
    const char *arch;
    char cc[16];
    char **dirs; /* per project: its folder's name (sitedata_segment) */
};

static void project_name(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct root_page *p = v->p;
    tmpl_value_str(p->sd->projects[v->at], out);
}

static void project_dir(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct root_page *p = v->p;
    tmpl_value_str(p->dirs[v->at], out);
}

static const struct tmpl_field project_fields[] = {
    TMPL_GET("name", project_name),
    TMPL_GET("dir", project_dir),
};

static const struct tmpl_type project_type = TMPL_FIELDS(project_fields);

static size_t projects_len(const struct tmpl_value *v)
{
    return ((const struct root_page *)v->p)->sd->nprojects;
}

static void projects_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &project_type, v->p, i, out);
}

static const struct tmpl_type projects_type = {NULL, projects_len, projects_at, NULL, 0};

static void root_arch(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(((const struct root_page *)v->p)->arch, out);
}

static void root_cc(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(((const struct root_page *)v->p)->cc, out);
}

static void root_projects(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_ARRAY, &projects_type, v->p, 0, out);
}

static const struct tmpl_field root_fields[] = {
    TMPL_GET("arch", root_arch),
    TMPL_GET("cc", root_cc),
    TMPL_GET("projects", root_projects),
};

static const struct tmpl_type root_type = TMPL_FIELDS(root_fields);

/* A project's page of a simple index (simple/<arch>/<project>/): its
 * links are put in after rendering, in place of links_html's marker. */
struct project_page {
    const char *name, *arch;
};

static void page_name(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(((const struct project_page *)v->p)->name, out);
}

static void page_arch(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(((const struct project_page *)v->p)->arch, out);
}

/* The template is rendered around a marker byte, which nothing else in it
 * can hold (the name and the architecture are escaped ids), and the lines
 * go in its place. */
static void page_links_html(const struct tmpl_value *v, struct tmpl_value *out)
{
    (void)v;
    tmpl_value_str("\x01", out);
}

static const struct tmpl_field page_fields[] = {
    TMPL_GET("name", page_name),
    TMPL_GET("arch", page_arch),
    TMPL_GET("links_html", page_links_html),
};

static const struct tmpl_type page_type = TMPL_FIELDS(page_fields);

/* Renders template `name` with one typed value as its data into out. */
static int render_simple(struct ctx *c, const char *name, const struct tmpl_type *type,
                         const void *data, struct strbuf *out, struct wa_error *err)
{
    struct tmpl_value v;
    tmpl_value_typed(TMPL_OBJECT, type, data, 0, &v);
    return sitei_render_values(c, name, &v, 1, out, err);
}

int sitei_simple(struct ctx *c, struct sitedata *d, struct wa_error *err)
{
    const struct sitedata_simple *sd = &d->simple;
    size_t nrows = sd->nrows;
    /* Each link formatted once, as HTML and (--simple-json) as PEP 691
     * JSON, when a page first lists it, however many architecture pages
     * list it (and not at all when none does: most wheels of a project
     * with hundreds of releases are on no page). */
    int want_json = c->o->simple_json;
    struct simple_links sl = {d, want_json, xcalloc(nrows + 1, sizeof *sl.rows), nrows};
    int rc = 0;
    struct root_page root = {sd, NULL, "", xcalloc(sd->nprojects + 1, sizeof *root.dirs)};
    for (size_t k = 0; k < sd->nprojects; k++)
        root.dirs[k] = sitedata_segment(sd->projects[k]);
    /* PEP 691's root lists {name}, the same for every architecture. */
    struct strbuf root_json = STRBUF_INIT;
    if (want_json) {
        strbuf_adds(&root_json, "{\"meta\":{\"api-version\":\"1.0\"},\"projects\":[");
        for (size_t k = 0; k < sd->nprojects; k++) {
            strbuf_adds(&root_json, k ? ",{\"name\":" : "{\"name\":");
            strbuf_add_json(&root_json, sd->projects[k]);
            strbuf_addc(&root_json, '}');
        }
        strbuf_adds(&root_json, "]}\n");
    }
    struct strbuf out = STRBUF_INIT;
    for (size_t a = 0; rc >= 0 && a < sd->narchs; a++) {
        const char *an = sd->archs[a].arch;
        root.arch = an;
        compat_cc_string(sd->archs[a].cc, root.cc, sizeof root.cc);
        strbuf_reset(&out);
        char *path = xasprintf("simple/%s/index.html", an);
        rc = render_simple(c, "simple_root", &root_type, &root, &out, err);
        if (rc == 0)
            rc = sitei_put(c, path, out.buf ? out.buf : "", out.len, err);
        free(path);
        path = xasprintf("simple/%s/index.json", an);
        if (rc == 0 && want_json)
            rc = sitei_put(c, path, root_json.buf, root_json.len, err);
        free(path);
        for (size_t k = 0; k < sd->nprojects; k++) {
            if (rc < 0)
                break;
            const char *name = sd->projects[k];
            struct strbuf files = STRBUF_INIT;
            const struct sitedata_picks *pk = &d->simple_picks[a];
            /* the page's link lines, joined only into the page itself (a
             * project's page of an architecture can be megabytes) */
            const char **lines = xmalloc((pk->n + 1) * sizeof *lines);
            size_t nlines = 0, lines_len = 0;
            for (size_t m = 0; m < pk->n; m++) {
                size_t r = pk->v[m].row, l = pk->v[m].link;
                if (r >= nrows || strcmp(d->v->rows[d->simple_rows[r]].project, name) != 0)
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
            const char *seg = root.dirs[k];
            struct project_page pd = {name, an};
            strbuf_reset(&out);
            path = xasprintf("simple/%s/%s/index.html", an, seg);
            char *what = xasprintf("the %s index of %s", an, name);
            rc = render_simple(c, "simple_project", &page_type, &pd, &out, err);
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
            /* PEP 691, keys in sorted order like every JSON file here. */
            if (rc == 0 && want_json && !left_out) {
                struct strbuf doc = STRBUF_INIT;
                strbuf_adds(&doc, "{\"files\":[");
                strbuf_add(&doc, files.buf ? files.buf : "", files.len);
                strbuf_adds(&doc, "],\"meta\":{\"api-version\":\"1.0\"},\"name\":");
                strbuf_add_json(&doc, name);
                strbuf_adds(&doc, "}\n");
                path = xasprintf("simple/%s/%s/index.json", an, seg);
                if ((rc = sitei_put_page(c, path, doc.buf, doc.len, what, err)) > 0)
                    rc = 0;
                free(path);
                strbuf_free(&doc);
            }
            free(what);
            free(lines);
            strbuf_free(&files);
        }
    }
    strbuf_free(&out);
    strbuf_free(&root_json);
    for (size_t k = 0; k < sd->nprojects; k++)
        free(root.dirs[k]);
    free(root.dirs);
    simple_links_free(&sl);
    return rc;
}
