/*
 * site_pages: the page registry (site_page_kinds: one entry per kind of
 * HTML page) and the functions that make each kind's pages.
 */
#include "site_pages.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbview_types.h"
#include "markdown.h"
#include "strbuf.h"
#include "tmpl.h"
#include "xalloc.h"
#include "sitedata_changes.h"
#include "feed_device.h"
#include "feed_variant_lists.h"
#include "sitedata_device.h"
#include "sitedata_gpu_page.h"
#include "sitedata_gpus.h"
#include "sitedata_home.h"
#include "sitedata_matrix.h"
#include "sitedata_release.h"
#include "sitedata_text.h"
#include "sitedata_types.h"
#include "sitedata_wheel.h"

/* Release pages on both threads (struct release_cursor): each page is
 * independent.  A thread takes the next page (its rows: one project and
 * version) under the lock and makes it outside. */
struct release_job {
    struct ctx c;
    const struct sitedata *d;
    pthread_mutex_t *mu;
    size_t *next; /* the first row of the next page; past the last row
                   * when either thread failed, so both stop */
    int rc;
    struct wa_error err;
};

/* k's title for a page named name: "{}" in it replaced.  Caller frees. */
static char *title_of(const struct page_kind *k, const char *name)
{
    const char *at = strstr(k->title, "{}");
    if (!at)
        return xstrdup(k->title);
    struct strbuf b = STRBUF_INIT;
    strbuf_add(&b, k->title, (size_t)(at - k->title));
    strbuf_adds(&b, name);
    strbuf_adds(&b, at + 2);
    return strbuf_detach(&b, NULL);
}

int sitei_wheel_page(struct ctx *c, const struct record *r, struct wa_error *err)
{
    struct sitedata_wheel w;
    sitedata_wheel_make(r, &w);
    struct tmpl_value page;
    sitedata_wheel_value(&w, &page);
    char *path = sitedata_wheel_path(r->key);
    char *what = xasprintf("wheel %s", r->filename);
    const struct page_kind *k = &site_page_kinds[PAGE_WHEEL];
    /* A wheel page's date is the day that wheel was read: the page then
     * changes only when its record does. */
    int rc = sitei_render(c, k->template_name, path, &page, r->scanned_at, r->filename,
                          k->description, what, err);
    free(what);
    free(path);
    sitedata_wheel_free(&w);
    return rc;
}

/* A prose page's data: its Markdown as HTML. */
static void prose_html(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(v->p, out);
}

static const struct tmpl_field prose_fields[] = {
    TMPL_GET("html", prose_html),
};

static const struct tmpl_type prose_type = TMPL_FIELDS(prose_fields);

/* A Markdown file of templates/content/ as the page at path; its title is
 * its first "# " heading. */
static int prose_page(struct ctx *c, const struct page_kind *k, const char *source,
                      const char *path, struct wa_error *err)
{
    char *text;
    size_t n;
    int rc = sitei_read_template_file(c, "content", source, &text, &n, err);
    if (rc < 0)
        return rc;
    char *html;
    rc = markdown_to_html(text, n, &html, err);
    if (rc < 0) {
        free(text);
        return rc;
    }
    char title[128] = "wheelarch";
    if (strncmp(text, "# ", 2) == 0) {
        size_t l = strcspn(text + 2, "\n");
        snprintf(title, sizeof title, "%.*s", (int)(l < 120 ? l : 120), text + 2);
    }
    struct tmpl_value page;
    tmpl_value_typed(TMPL_OBJECT, &prose_type, html, 0, &page);
    rc = sitei_render(c, k->template_name, path, &page, c->data_as_of, title, k->description, NULL,
                      err);
    free(html);
    free(text);
    return rc;
}

static int prose(struct ctx *c, struct sitedata *d, const struct page_kind *k, struct wa_error *err)
{
    (void)d;
    return prose_page(c, k, k->source, k->path, err);
}

/* The error messages people paste, one page each (errors/<slug>/, from
 * templates/content/errors/<slug>.md, named as `explain --json` names the
 * message), and their index (errors/, from errors/index.md). */
static const char *const site_error_pages[] = {"not-compatible",
                                               "too-old",
                                               "capability-table",
                                               "no-kernel-image",
                                               "ptx-unsupported-toolchain",
                                               "driver-insufficient",
                                               "not-compiled-with-cuda",
                                               "invalid-device-function",
                                               "hsa-override",
                                               NULL};

static int error_pages(struct ctx *c, struct sitedata *d, const struct page_kind *k,
                       struct wa_error *err)
{
    (void)d;
    int rc = prose_page(c, k, "errors/index.md", "errors/index.html", err);
    for (const char *const *s = site_error_pages; rc == 0 && *s; s++) {
        char *source = xasprintf("errors/%s.md", *s);
        char *path = xasprintf("errors/%s/index.html", *s);
        rc = prose_page(c, k, source, path, err);
        free(source);
        free(path);
    }
    return rc;
}

static int gpu_pages(struct ctx *c, struct sitedata *d, const struct page_kind *kind,
                     struct wa_error *err)
{
    int rc = 0;
    for (size_t i = 0; i < sitedata_gpu_count(d) && rc == 0; i++) {
        struct sitedata_gpu_page p;
        sitedata_gpu_page_make(d, i, &p);
        char *path = xasprintf("%sindex.html", p.page);
        char *title = title_of(kind, p.g->name);
        struct tmpl_value page;
        sitedata_gpu_page_value(&p, &page);
        rc = sitei_render(c, kind->template_name, path, &page, c->data_as_of, title,
                          kind->description, p.g->name, err);
        free(title);
        free(path);
        sitedata_gpu_page_free(&p);
    }
    return rc;
}

/* device/<id>/ and api/v1/gpu/<id>.json per device code */
static int device_pages(struct ctx *c, struct sitedata *d, const struct page_kind *kind,
                        struct wa_error *err)
{
    int rc = 0;
    for (size_t k = 0; k < sitedata_device_count(d) && rc == 0; k++) {
        const struct sitedata_device *dev = sitedata_device_at(d, k);
        if (!dev)
            continue;
        struct sitedata_device_page p;
        sitedata_device_page_make(d, dev, &p);
        char *path = xasprintf("%sindex.html", p.path);
        char *title = title_of(kind, p.title);
        struct tmpl_value page;
        sitedata_device_page_value(&p, &page);
        rc = sitei_render(c, kind->template_name, path, &page, c->data_as_of, title,
                          kind->description, p.title, err);
        free(title);
        free(path);
        if (rc == 0) {
            json_t *doc = feed_device_json(&p);
            char *file = sitedata_device_feed_path(sitedata_device_id(dev));
            rc = sitei_put_json(c, file, doc, err);
            free(file);
            json_decref(doc);
        }
        if (rc == 0) {
            json_t *doc =
                feed_variant_lists_json(d->t, sitedata_device_cc(dev), sitedata_device_id(dev));
            char *file = feed_variant_lists_path(sitedata_device_id(dev));
            rc = sitei_put_json(c, file, doc, err);
            free(file);
            json_decref(doc);
        }
        sitedata_device_page_free(&p);
    }
    return rc;
}

static void release_pages_run(struct release_job *j)
{
    const struct dbview *v = j->d->v;
    while (j->rc == 0) {
        /* the next page's rows, taken under the lock; its data made
         * outside it */
        pthread_mutex_lock(j->mu);
        size_t at = *j->next;
        if (at >= v->nrows) { /* none left, or the other thread failed */
            pthread_mutex_unlock(j->mu);
            return;
        }
        size_t end = sitedata_release_end(v, at);
        *j->next = end;
        pthread_mutex_unlock(j->mu);
        struct sitedata_release p;
        sitedata_release_make(j->d, at, end, &p);
        struct tmpl_value page;
        sitedata_release_value(&p, &page);
        char *path = xasprintf("%sindex.html", p.path);
        const struct page_kind *k = &site_page_kinds[PAGE_RELEASE];
        char *title = xasprintf("%s %s", p.project, p.version);
        j->rc = sitei_render(&j->c, k->template_name, path, &page, j->c.data_as_of, title,
                             k->description, title, &j->err);
        if (j->rc < 0) {
            pthread_mutex_lock(j->mu);
            *j->next = v->nrows + 1;
            pthread_mutex_unlock(j->mu);
        }
        free(title);
        free(path);
        sitedata_release_free(&p);
    }
}

/* Makes release pages from cur on c's thread until none is left. */
int sitei_release_pages(struct ctx *c, const struct sitedata *d, struct release_cursor *cur,
                        struct wa_error *err)
{
    struct release_job mine = {0};
    mine.c = *c; /* this thread's own context */
    mine.d = d;
    mine.mu = &cur->mu;
    mine.next = &cur->next;
    release_pages_run(&mine);
    *c = mine.c;
    if (mine.rc < 0 && err)
        *err = mine.err;
    return mine.rc;
}

static char *atom_time(const char *date)
{
    if (date && strlen(date) >= 10)
        return xasprintf("%.10sT00:00:00Z", date);
    return xstrdup("1970-01-01T00:00:00Z");
}

static int changes(struct ctx *c, struct sitedata *d, const struct page_kind *k,
                   struct wa_error *err)
{
    struct tmpl_value page;
    sitedata_changes_value(d, &page);
    int rc = sitei_render(c, k->template_name, k->path, &page, c->data_as_of, k->title,
                          k->description, NULL, err);
    if (rc < 0)
        return rc;
    /* Atom: absolute URLs when a base URL is given. */
    const char *b = c->base_url;
    char *self = b[0] ? xasprintf("%s/changes.atom", b) : xstrdup("changes.atom");
    char *alt = b[0] ? xasprintf("%s/changes/", b) : xstrdup("changes/");
    if (b[0]) { /* --base-url percent-encoded like any URL */
        char *h = sitedata_href(self);
        free(self);
        self = h ? h : xstrdup("changes.atom");
        h = sitedata_href(alt);
        free(alt);
        alt = h ? h : xstrdup("changes/");
    }
    struct sitedata_atom f = {d,    self, alt,  b[0] ? self : "urn:wheelarch:changes",
                              NULL, NULL, NULL, NULL};
    /* The feed changed when its newest entry did. */
    const char *newest = NULL;
    for (size_t i = 0; i < d->nchanges; i++) {
        const char *dt = d->changes[i].has_date ? d->changes[i].date : NULL;
        if (dt && (!newest || strcmp(dt, newest) > 0))
            newest = dt;
    }
    char *upd = atom_time(newest ? newest : c->data_as_of ? c->data_as_of : c->checked_on);
    f.updated = upd;
    size_t n = d->nchanges;
    f.entry_ids = xcalloc(n ? n : 1, sizeof *f.entry_ids);
    f.links = xcalloc(n ? n : 1, sizeof *f.links);
    f.times = xcalloc(n ? n : 1, sizeof *f.times);
    for (size_t i = 0; i < n; i++) {
        const struct sitedata_change *e = &d->changes[i];
        f.entry_ids[i] = xasprintf("urn:wheelarch:changes:%s", e->id);
        f.links[i] = xasprintf("%s#%s", alt, e->anchor);
        f.times[i] = atom_time(e->has_date ? e->date : c->data_as_of);
    }
    struct tmpl_value feed;
    sitedata_atom_value(&f, &feed);
    struct strbuf out = STRBUF_INIT;
    const struct tmpl *t;
    rc = tmpl_set_get(c->tmpls, "atom", &t, err);
    if (rc == 0)
        rc = tmpl_render_values(c->tmpls, t, &feed, 1, &out, err);
    if (rc == 0)
        rc = sitei_put(c, "changes.atom", out.buf ? out.buf : "", out.len, err);
    strbuf_free(&out);
    for (size_t i = 0; i < n; i++) {
        free(f.entry_ids[i]);
        free(f.links[i]);
        free(f.times[i]);
    }
    free(f.entry_ids);
    free(f.links);
    free(f.times);
    free(upd);
    free(self);
    free(alt);
    return rc;
}

static int home_page(struct ctx *c, struct sitedata *d, const struct page_kind *k,
                     struct wa_error *err)
{
    struct tmpl_value page;
    sitedata_home_value(d->home, &page);
    return sitei_render(c, k->template_name, k->path, &page, c->data_as_of, k->title,
                        k->description, NULL, err);
}

/* matrix/ for torch, matrix/<project>/ for each other project */
static int matrix_pages(struct ctx *c, struct sitedata *d, const struct page_kind *k,
                        struct wa_error *err)
{
    int rc = 0;
    for (size_t mi = 0; mi < d->nmatrix && rc == 0; mi++) {
        const struct sitedata_matrix *m = &d->matrix[mi];
        char *title = mi == 0 ? xstrdup(k->title_one) : title_of(k, m->project);
        char *desc =
            mi == 0 ? xstrdup(k->description)
                    : xasprintf("%s releases and variants against GPU architectures", m->project);
        struct tmpl_value page;
        sitedata_matrix_value(m, &page);
        rc = sitei_render(c, k->template_name, m->path, &page, c->data_as_of, title, desc, NULL,
                          err);
        free(title);
        free(desc);
    }
    return rc;
}

const struct page_kind site_page_kinds[PAGE_KINDS] = {
    [PAGE_HOME] = {"index", "index.html", "Which PyTorch runs on my GPU?", NULL,
                   "Which PyTorch wheel runs on which NVIDIA GPU, read from the GPU code in the "
                   "wheels",
                   NULL, home_page, NULL},
    [PAGE_MATRIX] = {"matrix", "matrix/index.html, matrix/<project>/index.html", "The matrix: {}",
                     "The matrix", "PyTorch releases and CUDA variants against GPU architectures",
                     NULL, matrix_pages, "home"},
    [PAGE_GPU] = {"gpu", "gpu/<slug>/index.html", "{}: which PyTorch wheels run on it", NULL,
                  "Verdict per PyTorch release, CUDA variant and platform, and the index to "
                  "install from",
                  NULL, gpu_pages, "gpus"},
    [PAGE_DEVICE] = {"device", "device/<id>/index.html", "{}: every PyTorch release on it", NULL,
                     "Every PyTorch release and CUDA or ROCm variant on one device code, with "
                     "the reasons",
                     NULL, device_pages, "devices"},
    [PAGE_CHANGES] = {"changes", "changes/index.html", "Changes between releases", NULL,
                      "GPU targets each release added or dropped", NULL, changes, NULL},
    [PAGE_METHODOLOGY] = {"prose", "methodology/index.html", NULL, NULL,
                          "How wheelarch reads GPU code and decides what runs where",
                          "methodology.md", prose, NULL},
    [PAGE_API] = {"prose", "api/index.html", NULL, NULL, "The JSON feed and the GPU-aware indexes",
                  "api.md", prose, NULL},
    [PAGE_FAQ] = {"prose", "faq/index.html", NULL, NULL, "Questions and answers", "faq.md", prose,
                  "pages"},
    [PAGE_ERRORS] = {"prose", "errors/index.html, errors/<message>/index.html", NULL, NULL,
                     "The error messages people see, what each means and what to do", NULL,
                     error_pages, NULL},
    [PAGE_RELEASE] = {"release", "release/<project>/<version>/index.html", "{project} {version}",
                      NULL, "GPU targets per variant and platform, module coverage, provenance",
                      NULL, NULL, NULL},
    [PAGE_WHEEL] = {"wheel", "wheel/<key>.html", "{file name}", NULL,
                    "GPU code read from one wheel", NULL, NULL, NULL},
};
