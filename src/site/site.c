/*
 * site: templates + site data -> files in the output folder.
 */
#include "site.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbview.h"
#include "fsutil.h"
#include "jsontext.h"
#include "markdown.h"
#include "feeddb.h"
#include "pepvariants.h"
#include "sitedata.h"
#include "schedule.h"
#include "sitestamp.h"
#include "strbuf.h"
#include "strmap.h"
#include "tables.h"
#include "tmpl.h"
#include "version.h"
#include "workers.h"
#include "xalloc.h"

/* Tells the caller's observer that a phase of the build ends (NULL: the
 * build starts); the core itself neither times nor prints. */
static void phase(const struct site_options *o, const char *name)
{
    if (o->on_phase)
        o->on_phase(o->phase_ud, name);
}

struct ctx {
    const struct site_options *o;
    struct outdir *out;
    struct tmpl_set *tmpls;
    char *base_url; /* without a trailing slash, "" when none */
    const char *data_as_of;
    const char *checked_on;   /* the declared data's newest checked-on date */
    const char *freshness;    /* the banner of a release due and absent, or NULL */
    const char *data_through; /* the newest torch version the site has, or NULL */
    size_t pages;
    /* Pages left out because an earlier page had their path (listed with
     * the skipped records); each thread has its own list. */
    struct dbview_skip *dups;
    size_t ndups, capdups;
    /* The page being rendered: one buffer per thread, reused, so that
     * pages do not each grow (and copy) a buffer of their own. */
    struct strbuf page;
};

/* ---- the kinds of page ------------------------------------------------------
 *
 * One entry per kind of HTML page: its template, where its pages go, the
 * title and description each page says, and the function that makes the
 * pages of the kind (with the data sitedata made for them).  A new kind is
 * an entry here, a function and a template.  Pages whose making is tied
 * to how the build runs (a wheel's, made while the database is read; a
 * release's, on both threads at the end) have no function: their code
 * reads the entry for the rest.
 */
struct page_kind;
typedef int (*page_make_fn)(struct ctx *c, struct sitedata *d, const struct page_kind *k,
                            struct wa_error *err);
struct page_kind {
    const char *template_name; /* templates/<template_name>.mustache */
    const char *path;          /* where its pages go, for the reader */
    const char *title;         /* a page's title; "{}": the page's own name */
    const char *title_one;     /* the title of the kind's main page, or NULL */
    const char *description;
    const char *source; /* prose: the Markdown file in templates/content/ */
    page_make_fn make;  /* NULL: made where the build runs it */
    const char *phase;  /* the phase the build reports after it, or NULL */
};

enum {
    PAGE_HOME,
    PAGE_MATRIX,
    PAGE_GPU,
    PAGE_CHANGES,
    PAGE_METHODOLOGY,
    PAGE_API,
    PAGE_FAQ,
    PAGE_RELEASE,
    PAGE_WHEEL,
    PAGE_KINDS
};
static const struct page_kind page_kinds[PAGE_KINDS];

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

/* "../../" for "gpu/x/index.html", "./" for "index.html". */
static char *root_of(const char *path)
{
    struct strbuf b = STRBUF_INIT;
    for (const char *p = path; *p; p++)
        if (*p == '/')
            strbuf_adds(&b, "../");
    if (b.len == 0)
        strbuf_adds(&b, "./");
    return strbuf_detach(&b, NULL);
}

static int put(struct ctx *c, const char *path, const char *data, size_t len, struct wa_error *err)
{
    return outdir_put(c->out, path, data, len, err);
}

/* Writes a page whose path was made from data (a release, a GPU, a wheel,
 * a project's simple index), named `what` in messages.  Segments are
 * injective (sitedata_segment), so two pages should never share a path; if
 * two still do, the first one written stays and the other is left out with
 * a warning, and the build goes on.  (Which one is first depends on the
 * threads' timing where two threads make pages of one kind: wheel and
 * release pages.)  Returns 0, 1 when the page was left out, or a WA_ERR_*
 * code. */
static int put_page(struct ctx *c, const char *path, const char *data, size_t len, const char *what,
                    struct wa_error *err)
{
    int rc = outdir_put_first(c->out, path, data, len, err);
    if (rc != 1)
        return rc;
    c->dups = xgrow(c->dups, &c->capdups, c->ndups + 1, sizeof *c->dups);
    struct dbview_skip *s = &c->dups[c->ndups++];
    s->file = fsutil_join(c->o->out_dir, path);
    s->reason =
        xasprintf("already written for an earlier page, so the page of %s is left out", what);
    return 1;
}

static int put_json(struct ctx *c, const char *path, json_t *v, struct wa_error *err)
{
    struct strbuf s = STRBUF_INIT;
    if (jsontext_append(&s, v, JSON_SORT_KEYS | JSON_COMPACT) < 0) {
        strbuf_free(&s);
        return wa_error_set(err, WA_ERR_FORMAT, "cannot serialise %s", path);
    }
    strbuf_addc(&s, '\n');
    int rc = put(c, path, s.buf, s.len, err);
    strbuf_free(&s);
    return rc;
}

/* Renders template `name` with data (the common fields are set on it).
 * what: NULL for a page at a fixed path, where a second write is a bug;
 * else the page's path was made from data and put_page writes it. */
static int render(struct ctx *c, const char *name, const char *path, json_t *data,
                  const char *title, const char *description, const char *what,
                  struct wa_error *err)
{
    char *root = root_of(path);
    json_object_set_new(data, "root", json_string(root));
    free(root);
    json_object_set_new(data, "title", json_string(title));
    /* a page may carry its own one-line answer (GPU pages do) */
    if (!json_is_string(json_object_get(data, "description")))
        json_object_set_new(data, "description", json_string(description));
    if (c->base_url[0]) {
        const char *slash = strrchr(path, '/');
        char *dir = slash ? xstrndup(path, (size_t)(slash - path + 1)) : xstrdup("");
        char *canon = xasprintf("%s/%s", c->base_url,
                                strcmp(slash ? slash + 1 : path, "index.html") == 0 ? dir : path);
        char *href = sitedata_href(canon); /* --base-url is percent-encoded like any URL */
        if (href)
            json_object_set_new(data, "canonical", json_string(href));
        free(href);
        free(canon);
        free(dir);
    }
    if (!json_object_get(data, "data_as_of"))
        json_object_set_new(data, "data_as_of",
                            c->data_as_of ? json_string(c->data_as_of) : json_null());
    /* a page's own date (a wheel page's: the day it was read) says wheels
     * were read as much as the site's */
    json_object_set_new(data, "wheels_read",
                        json_boolean(json_is_string(json_object_get(data, "data_as_of"))));
    json_object_set_new(data, "checked_on", json_string(c->checked_on ? c->checked_on : ""));
    if (c->freshness)
        json_object_set_new(data, "freshness", json_string(c->freshness));
    if (c->data_through)
        json_object_set_new(data, "data_through", json_string(c->data_through));
    json_object_set_new(data, "generator", json_string("wheelarch " WHEELARCH_VERSION));
    json_object_set_new(data, "api_version", json_string(SITE_API_VERSION));
    struct strbuf *out = &c->page;
    strbuf_reset(out);
    int rc = tmpl_render_name(c->tmpls, name, data, out, err);
    if (rc == 0 && what) {
        rc = put_page(c, path, strbuf_str(out), out->len, what, err);
        if (rc > 0)
            rc = 0; /* left out and listed */
    } else if (rc == 0) {
        rc = put(c, path, strbuf_str(out), out->len, err);
    } else {
        wa_error_prefix(err, name);
    }
    c->pages++;
    return rc;
}

/* The data's freshness against the release schedule (schedule.h), into
 * *f and the feed's meta: "data-through" (the newest torch version the
 * site has) and "overdue" (the release due and absent, or null). */
static void judge_freshness(const struct dbview *v, const struct tables *t, const char *today,
                            struct freshness *f, json_t *meta)
{
    schedule_freshness(t, today, dbview_newest_version(v, "torch"), f);
    json_object_set_new(meta, "data-through",
                        f->through[0] ? json_string(f->through) : json_null());
    if (f->overdue)
        json_object_set_new(meta, "overdue",
                            json_pack("{s:s, s:s, s:s, s:s}", "project", f->overdue->project,
                                      "release", f->overdue->release, "scheduled",
                                      f->overdue->planned, "note", f->sentence));
    else
        json_object_set_new(meta, "overdue", json_null());
}

/* ---- wheel pages, rendered while the records are read ------------------- */

static int wheel_page(struct ctx *c, const struct record *r, struct wa_error *err)
{
    json_t *page = sitedata_wheel_page(r);
    /* A wheel page's date is the day that wheel was read: the page then
     * changes only when its record does. */
    json_object_set_new(page, "data_as_of",
                        r->scanned_at ? json_string(r->scanned_at) : json_null());
    char *seg = sitedata_segment(r->key);
    char *path = xasprintf("wheel/%s.html", seg);
    char *what = xasprintf("wheel %s", r->filename);
    const struct page_kind *k = &page_kinds[PAGE_WHEEL];
    int rc = render(c, k->template_name, path, page, r->filename, k->description, what, err);
    free(what);
    free(path);
    free(seg);
    json_decref(page);
    return rc;
}

/* The context of a second thread: the same output and options, its own
 * templates (a tmpl_set is one thread's), page count and list of pages
 * left out.  Free its templates with tmpl_set_free when it is done. */
static void ctx_for_thread(struct ctx *child, const struct ctx *c)
{
    *child = *c;
    child->pages = 0;
    child->dups = NULL;
    child->ndups = child->capdups = 0;
    child->page = (struct strbuf)STRBUF_INIT;
    child->tmpls = tmpl_set_new(tmpl_dir_loader, (void *)c->o->templates_dir);
}

/* Adds a thread's page count and pages left out to c's. */
static void ctx_join(struct ctx *c, struct ctx *child)
{
    c->pages += child->pages;
    for (size_t i = 0; i < child->ndups; i++) {
        c->dups = xgrow(c->dups, &c->capdups, c->ndups + 1, sizeof *c->dups);
        c->dups[c->ndups++] = child->dups[i];
    }
    free(child->dups);
    child->dups = NULL;
    child->ndups = child->capdups = 0;
    tmpl_set_free(child->tmpls);
    child->tmpls = NULL;
    strbuf_free(&child->page);
}

/* rc, or a joined thread's error (thread_rc, why) when rc is 0. */
static int first_error(int rc, struct wa_error *err, int thread_rc, const struct wa_error *why)
{
    if (rc == 0 && thread_rc < 0) {
        if (err)
            *err = *why;
        return thread_rc;
    }
    return rc;
}

/* Wheel pages are made as the database is read, from the records dbview
 * hands on, on its two threads (recqueue.h): each has its own context. */
struct wheel_pages {
    struct ctx *c[2]; /* per worker */
};

static int on_record(void *ud, unsigned worker, struct record *r, struct wa_error *err)
{
    struct wheel_pages *w = ud;
    /* Inferred wheels were not read: the release page lists them with their
     * provenance and links to the page of the wheel that was. */
    int rc = r->scanned ? wheel_page(w->c[worker ? 1 : 0], r, err) : 0;
    record_free(r);
    return rc;
}

/* ---- prose --------------------------------------------------------------- */

/* Reads templates/<folder>/<name> (at most 4 MiB); caller frees *text. */
static int read_template_file(const struct ctx *c, const char *folder, const char *name,
                              char **text, size_t *n, struct wa_error *err)
{
    char *file = xasprintf("%s/%s/%s", c->o->templates_dir, folder, name);
    int rc = fsutil_read(file, 4u << 20, text, n, NULL, err);
    free(file);
    return rc;
}

static int prose(struct ctx *c, struct sitedata *d, const struct page_kind *k, struct wa_error *err)
{
    (void)d;
    char *text;
    size_t n;
    int rc = read_template_file(c, "content", k->source, &text, &n, err);
    if (rc < 0)
        return rc;
    char *html;
    rc = markdown_to_html(text, n, &html, err);
    if (rc < 0) {
        free(text);
        return rc;
    }
    /* The title is the first "# " heading. */
    char title[128] = "wheelarch";
    if (strncmp(text, "# ", 2) == 0) {
        size_t l = strcspn(text + 2, "\n");
        snprintf(title, sizeof title, "%.*s", (int)(l < 120 ? l : 120), text + 2);
    }
    json_t *data = json_object();
    json_object_set_new(data, "html", json_string(html));
    rc = render(c, k->template_name, k->path, data, title, k->description, NULL, err);
    json_decref(data);
    free(html);
    free(text);
    return rc;
}

/* ---- the pages ----------------------------------------------------------- */

static int gpu_pages(struct ctx *c, struct sitedata *d, const struct page_kind *kind,
                     struct wa_error *err)
{
    /* The release tables depend only on the device code (compute capability
     * or gfx processor): rendered once per code (dozens) rather than once per
     * GPU (hundreds). */
    struct strmap *by_cc = strmap_new();
    char **html = NULL;
    size_t nhtml = 0, cap = 0;
    int rc = 0;
    for (size_t i = 0; i < sitedata_gpu_count(d); i++) {
        json_t *p = sitedata_gpu_page(d, i);
        const char *page = json_string_value(json_object_get(p, "page"));
        const char *name = json_string_value(json_object_get(p, "name"));
        const char *dev = json_string_value(json_object_get(p, "device"));
        /* an Arm-only GPU (GH200) has other rows than its device code's */
        char *cc = xasprintf("%s%s", dev ? dev : "",
                             json_is_true(json_object_get(p, "arm_host")) ? "/arm" : "");
        char *path = xasprintf("%sindex.html", page);
        size_t k;
        if (!strmap_get(by_cc, cc, &k)) {
            json_t *data = json_object();
            json_object_set(data, "releases", json_object_get(p, "releases"));
            char *root = root_of(path);
            json_object_set_new(data, "root", json_string(root));
            free(root);
            struct strbuf out = STRBUF_INIT;
            rc = tmpl_render_name(c->tmpls, "gpu_releases", data, &out, err);
            json_decref(data);
            html = xgrow(html, &cap, nhtml + 1, sizeof *html);
            html[nhtml] = strbuf_detach(&out, NULL);
            k = nhtml++;
            strmap_put(by_cc, cc, k);
        }
        char *title = title_of(kind, name);
        if (rc == 0) {
            /* rendered from checked strings: no need to check its UTF-8 again */
            json_object_set_new(p, "releases_html", json_string_nocheck(html[k] ? html[k] : ""));
            json_object_set_new(p, "has_releases",
                                json_boolean(json_array_size(json_object_get(p, "releases")) > 0));
            rc = render(c, kind->template_name, path, p, title, kind->description, name, err);
        }
        free(title);
        free(path);
        free(cc);
        json_decref(p);
        if (rc < 0)
            break;
    }
    for (size_t k = 0; k < nhtml; k++)
        free(html[k]);
    free(html);
    strmap_free(by_cc);
    return rc;
}

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

static int same_page(const struct dbview_row *a, const struct dbview_row *b)
{
    return strcmp(a->project, b->project) == 0 && strcmp(a->version, b->version) == 0;
}

static void release_pages_run(struct release_job *j)
{
    const struct dbview *v = j->d->v;
    while (j->rc == 0) {
        pthread_mutex_lock(j->mu);
        size_t at = *j->next, end = at;
        if (at > v->nrows) { /* the other thread failed */
            pthread_mutex_unlock(j->mu);
            return;
        }
        while (end < v->nrows && same_page(&v->rows[at], &v->rows[end]))
            end++;
        *j->next = end;
        pthread_mutex_unlock(j->mu);
        json_t *p = at < v->nrows ? sitedata_release_page(j->d, &at) : NULL;
        if (!p)
            return;
        char *path = xasprintf("%sindex.html", json_string_value(json_object_get(p, "path")));
        const struct page_kind *k = &page_kinds[PAGE_RELEASE];
        char *title = xasprintf("%s %s", json_string_value(json_object_get(p, "project")),
                                json_string_value(json_object_get(p, "version")));
        j->rc = render(&j->c, k->template_name, path, p, title, k->description, title, &j->err);
        if (j->rc < 0) {
            pthread_mutex_lock(j->mu);
            *j->next = v->nrows + 1;
            pthread_mutex_unlock(j->mu);
        }
        free(title);
        free(path);
        json_decref(p);
    }
}

/* The release pages not taken yet, shared by the two threads: the feeds'
 * thread takes them when its steps are done, this one after its other
 * pages; pages are small, so the two end together. */
struct release_cursor {
    pthread_mutex_t mu;
    size_t next; /* the first row of the next page; past the last row when
                  * a thread failed, so the other stops */
};

/* Makes release pages from cur on c's thread until none is left. */
static int release_pages(struct ctx *c, const struct sitedata *d, struct release_cursor *cur,
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
    json_t *data = json_object();
    json_object_set(data, "changes", d->changes);
    int rc = render(c, k->template_name, k->path, data, k->title, k->description, NULL, err);
    json_decref(data);
    if (rc < 0)
        return rc;
    /* Atom: absolute URLs when a base URL is given. */
    json_t *feed = json_object();
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
    json_object_set_new(feed, "self", json_string(self));
    json_object_set_new(feed, "alternate", json_string(alt));
    json_object_set_new(feed, "feed_id", json_string(b[0] ? self : "urn:wheelarch:changes"));
    /* The feed changed when its newest entry did. */
    const char *newest = NULL;
    size_t ni;
    json_t *ne;
    json_array_foreach(d->changes, ni, ne)
    {
        const char *dt = json_string_value(json_object_get(ne, "date"));
        if (dt && (!newest || strcmp(dt, newest) > 0))
            newest = dt;
    }
    char *upd = atom_time(newest ? newest : c->data_as_of ? c->data_as_of : c->checked_on);
    json_object_set_new(feed, "updated", json_string(upd));
    free(upd);
    json_t *entries = json_array();
    size_t i;
    json_t *e;
    json_array_foreach(d->changes, i, e)
    {
        json_t *x = json_deep_copy(e);
        const char *id = json_string_value(json_object_get(e, "id"));
        char *eid = xasprintf("urn:wheelarch:changes:%s", id);
        char *link = xasprintf("%s#%s", alt, json_string_value(json_object_get(e, "anchor")));
        const char *date = json_string_value(json_object_get(e, "date"));
        char *t = atom_time(date ? date : c->data_as_of);
        json_object_set_new(x, "entry_id", json_string(eid));
        json_object_set_new(x, "link", json_string(link));
        json_object_set_new(x, "updated", json_string(t));
        free(eid);
        free(link);
        free(t);
        json_array_append_new(entries, x);
    }
    json_object_set_new(feed, "entries", entries);
    struct strbuf out = STRBUF_INIT;
    rc = tmpl_render_name(c->tmpls, "atom", feed, &out, err);
    if (rc == 0)
        rc = put(c, "changes.atom", out.buf ? out.buf : "", out.len, err);
    strbuf_free(&out);
    json_decref(feed);
    free(self);
    free(alt);
    return rc;
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

static int simple(struct ctx *c, struct sitedata *d, struct wa_error *err)
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
        rc = tmpl_render_name(c->tmpls, "simple_root", data, &out, err);
        if (rc == 0)
            rc = put(c, path, out.buf ? out.buf : "", out.len, err);
        free(path);
        json_t *root = json_object(), *meta = json_object();
        json_object_set_new(meta, "api-version", json_string("1.0"));
        json_object_set_new(root, "meta", meta);
        json_object_set_new(root, "projects", plist);
        path = xasprintf("simple/%s/index.json", an);
        if (rc == 0 && want_json)
            rc = put_json(c, path, root, err);
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
            rc = tmpl_render_name(c->tmpls, "simple_project", pd, &out, err);
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
                rc = put_page(c, path, strbuf_str(page), page->len, what, err);
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
                if ((rc = put_page(c, path, doc.buf, doc.len, what, err)) > 0)
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

static int copy_asset(struct ctx *c, const char *name, struct wa_error *err)
{
    char *text;
    size_t n;
    int rc = read_template_file(c, "assets", name, &text, &n, err);
    if (rc < 0)
        return rc;
    char *path = xasprintf("assets/%s", name);
    rc = put(c, path, text, n, err);
    free(path);
    free(text);
    return rc;
}

struct pepfile {
    struct ctx *c;
    struct wa_error *err;
};

static int put_pepvariants(void *ud, const char *file, json_t *doc)
{
    struct pepfile *pf = ud;
    char *path = xasprintf("api/v1/variants/%s", file);
    int rc = put_json(pf->c, path, doc, pf->err);
    free(path);
    return rc;
}

/* The feed and the simple indexes, in steps that depend on nothing but
 * the view and the grid, so that either thread may take any: the feeds'
 * thread starts on them while this one makes the pages, and this one
 * takes what is left when its pages are done.  Largest first, so that
 * the last step taken is a short one.  Each document is made, written and
 * freed in turn: at 100,000 wheels they are tens of MB each as trees. */
enum feed_step {
    FEED_SIMPLE,      /* simple/ */
    FEED_MATRIX_JSON, /* api/v1/matrix.json */
    FEED_SQLITE,      /* api/v1/wheelarch.sqlite */
    FEED_VARIANTS,    /* api/v1/variants.json */
    FEED_INDEX_TABLE, /* api/v1/index-table.json */
    FEED_PEP,         /* api/v1/variants/ */
    FEED_CSV,         /* api/v1/matrix.csv */
    FEED_SCHEMA,      /* api/v1/schema.json */
    FEED_STEPS
};

static int simple(struct ctx *c, struct sitedata *d, struct wa_error *err);

static int feed_step(struct ctx *c, struct sitedata *d, enum feed_step step, struct wa_error *err)
{
    int rc = 0;
    switch (step) {
    case FEED_SIMPLE:
        sitedata_build_simple(d);
        return simple(c, d, err);
    case FEED_MATRIX_JSON: {
        struct strbuf m = STRBUF_INIT;
        sitedata_matrix_json(d, &m);
        rc = put(c, "api/v1/matrix.json", m.buf ? m.buf : "", m.len, err);
        strbuf_free(&m);
        return rc;
    }
    case FEED_SQLITE: {
        unsigned char *db;
        size_t n;
        rc = feeddb_make(d, &db, &n, err);
        if (rc == 0)
            rc = put(c, "api/v1/wheelarch.sqlite", (const char *)db, n, err);
        free(db);
        return rc;
    }
    case FEED_VARIANTS:
        d->variants = sitedata_build_variants(d);
        rc = put_json(c, "api/v1/variants.json", d->variants, err);
        json_decref(d->variants);
        d->variants = NULL;
        return rc;
    case FEED_INDEX_TABLE:
        d->index_table = sitedata_build_index_table(d);
        rc = put_json(c, "api/v1/index-table.json", d->index_table, err);
        json_decref(d->index_table);
        d->index_table = NULL;
        return rc;
    case FEED_PEP: {
        /* PEP 825 index metadata per (project, version), and their list */
        struct pepfile pf = {c, err};
        json_t *vindex = NULL;
        rc = pepvariants_each(d->v, d->t, put_pepvariants, &pf, &vindex);
        if (rc == 0)
            rc = put_json(c, "api/v1/variants/index.json", vindex, err);
        json_decref(vindex);
        return rc;
    }
    case FEED_CSV:
        sitedata_build_csv(d);
        rc = put(c, "api/v1/matrix.csv", d->csv.buf ? d->csv.buf : "", d->csv.len, err);
        strbuf_free(&d->csv);
        return rc;
    case FEED_SCHEMA: {
        char *file = xasprintf("%s/schema.json", c->o->templates_dir);
        json_error_t je;
        json_t *schema = json_load_file(file, JSON_REJECT_DUPLICATES, &je);
        free(file);
        if (!schema)
            return wa_error_set(err, WA_ERR_FORMAT, "templates/schema.json: line %d: %s", je.line,
                                je.text);
        if (c->base_url[0]) {
            char *id = xasprintf("%s/api/v1/schema.json", c->base_url);
            json_object_set_new(schema, "$id", json_string(id));
            free(id);
        }
        rc = put_json(c, "api/v1/schema.json", schema, err);
        json_decref(schema);
        return rc;
    }
    default:
        return 0;
    }
}

/* The steps still to take, shared by the two threads. */
struct feed_steps {
    pthread_mutex_t mu;
    int next; /* FEED_STEPS when all are taken or a step failed */
};

/* Takes steps until none is left; a failure stops the other thread's too. */
static int feeds_work(struct feed_steps *fs, struct ctx *c, struct sitedata *d,
                      struct wa_error *err)
{
    for (;;) {
        pthread_mutex_lock(&fs->mu);
        int step = fs->next < FEED_STEPS ? fs->next++ : -1;
        pthread_mutex_unlock(&fs->mu);
        if (step < 0)
            return 0;
        int rc = feed_step(c, d, (enum feed_step)step, err);
        if (rc < 0) {
            pthread_mutex_lock(&fs->mu);
            fs->next = FEED_STEPS;
            pthread_mutex_unlock(&fs->mu);
            return rc;
        }
    }
}

/* ---- the second thread ---------------------------------------------------- */

struct feeds_job {
    struct ctx c; /* its own templates and page count */
    struct sitedata *d;
    struct feed_steps steps;
    struct release_cursor releases; /* then release pages, beside this thread */
    struct wa_error err;
    int rc;
    struct workers_task task;
};

static void feeds_run(void *arg)
{
    struct feeds_job *j = arg;
    j->rc = feeds_work(&j->steps, &j->c, j->d, &j->err);
    if (j->rc == 0)
        j->rc = release_pages(&j->c, j->d, &j->releases, &j->err);
}

static void feeds_start(struct feeds_job *j, const struct ctx *c, struct sitedata *d)
{
    ctx_for_thread(&j->c, c); /* its pages left out join the main list after */
    j->d = d;
    pthread_mutex_init(&j->steps.mu, NULL);
    j->steps.next = 0;
    pthread_mutex_init(&j->releases.mu, NULL);
    j->releases.next = 0;
    workers_spawn(&j->task, feeds_run, j);
}

/* Takes the feeds' steps left (on c's thread, with helper's templates and
 * lists), waits for the feeds' thread; returns rc, or the first error of
 * the steps when rc is 0. */
static int feeds_join(struct feeds_job *j, struct ctx *helper, int rc, struct wa_error *err)
{
    struct wa_error mine;
    int mrc = 0;
    if (rc == 0)
        mrc = feeds_work(&j->steps, helper, j->d, &mine);
    else { /* stop the feeds' thread at its next step or page */
        pthread_mutex_lock(&j->steps.mu);
        j->steps.next = FEED_STEPS;
        pthread_mutex_unlock(&j->steps.mu);
        pthread_mutex_lock(&j->releases.mu);
        j->releases.next = j->d->v->nrows + 1;
        pthread_mutex_unlock(&j->releases.mu);
    }
    workers_join(&j->task);
    pthread_mutex_destroy(&j->steps.mu);
    pthread_mutex_destroy(&j->releases.mu);
    tmpl_set_free(j->c.tmpls);
    j->c.tmpls = NULL;
    strbuf_free(&j->c.page);
    rc = first_error(rc, err, mrc, &mine);
    return first_error(rc, err, j->rc, &j->err);
}

static int skip_cmp(const void *a, const void *b)
{
    return strcmp(((const struct dbview_skip *)a)->file, ((const struct dbview_skip *)b)->file);
}

/* Appends the n pages of list (taken) to the skipped records of st. */
static void add_skips(struct site_stats *st, struct dbview_skip *list, size_t n)
{
    if (n) {
        st->skipped = xrealloc(st->skipped, (st->nskipped + n) * sizeof *st->skipped);
        memcpy(st->skipped + st->nskipped, list, n * sizeof *list);
        st->nskipped += n;
    }
    free(list);
}

void site_stats_free(struct site_stats *st)
{
    dbview_skips_free(st->skipped, st->nskipped);
    st->skipped = NULL;
    st->nskipped = 0;
}

/* ---- the pages of the registry -------------------------------------------- */

static int home_page(struct ctx *c, struct sitedata *d, const struct page_kind *k,
                     struct wa_error *err)
{
    return render(c, k->template_name, k->path, d->home, k->title, k->description, NULL, err);
}

/* matrix/ for torch, matrix/<project>/ for each other project */
static int matrix_pages(struct ctx *c, struct sitedata *d, const struct page_kind *k,
                        struct wa_error *err)
{
    int rc = 0;
    size_t mi;
    json_t *mp;
    json_array_foreach(d->matrix_pages, mi, mp)
    {
        json_t *page = json_object_get(mp, "page");
        const char *proj = json_string_value(json_object_get(page, "project"));
        char *title = mi == 0 ? xstrdup(k->title_one) : title_of(k, proj);
        char *desc = mi == 0
                         ? xstrdup(k->description)
                         : xasprintf("%s releases and variants against GPU architectures", proj);
        rc = render(c, k->template_name, json_string_value(json_object_get(mp, "path")), page,
                    title, desc, NULL, err);
        free(title);
        free(desc);
        if (rc < 0)
            break;
    }
    return rc;
}

static const struct page_kind page_kinds[PAGE_KINDS] = {
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
    [PAGE_CHANGES] = {"changes", "changes/index.html", "Changes between releases", NULL,
                      "GPU targets each release added or dropped", NULL, changes, NULL},
    [PAGE_METHODOLOGY] = {"prose", "methodology/index.html", NULL, NULL,
                          "How wheelarch reads GPU code and decides what runs where",
                          "methodology.md", prose, NULL},
    [PAGE_API] = {"prose", "api/index.html", NULL, NULL, "The JSON feed and the GPU-aware indexes",
                  "api.md", prose, NULL},
    [PAGE_FAQ] = {"prose", "faq/index.html", NULL, NULL, "Questions and answers", "faq.md", prose,
                  "pages"},
    [PAGE_RELEASE] = {"release", "release/<project>/<version>/index.html", "{project} {version}",
                      NULL, "GPU targets per variant and platform, module coverage, provenance",
                      NULL, NULL, NULL},
    [PAGE_WHEEL] = {"wheel", "wheel/<key>.html", "{file name}", NULL,
                    "GPU code read from one wheel", NULL, NULL, NULL},
};

int site_build(const struct site_options *o, struct site_stats *st, struct wa_error *err)
{
    memset(st, 0, sizeof *st);
    if (!o->templates_dir)
        return wa_error_set(err, WA_ERR_IO,
                            "templates folder not found (set WHEELARCH_TEMPLATES_DIR)");
    /* Nothing changed since the site in out_dir was built: done, without
     * reading the database or rendering a page. */
    char *inputs = sitestamp_inputs(o);
    if (inputs && sitestamp_matches(o->out_dir, inputs, st)) {
        free(inputs);
        return 0;
    }
    struct tables t;
    int rc = tables_load(o->data_dir, &t, err);
    if (rc < 0) {
        free(inputs);
        return rc;
    }
    struct ctx c = {0};
    c.o = o;
    c.base_url = xstrdup(o->base_url ? o->base_url : "");
    size_t bl = strlen(c.base_url);
    while (bl > 0 && c.base_url[bl - 1] == '/')
        c.base_url[--bl] = '\0';
    c.tmpls = tmpl_set_new(tmpl_dir_loader, (void *)o->templates_dir);
    struct dbview v;
    struct sitedata d;
    struct feeds_job fj = {0};
    int have_view = 0, have_data = 0;
    c.checked_on = t.checked_on; /* wheel pages are rendered while the view is read */
    rc = outdir_begin(o->out_dir, &c.out, err);
    if (rc < 0)
        goto out;
    phase(o, NULL);
    struct ctx second;
    ctx_for_thread(&second, &c);
    struct wheel_pages wp = {{&c, &second}};
    rc = dbview_build_with(o->cache_dir, &t, 0, o->nightlies, &v, on_record, &wp, err);
    ctx_join(&c, &second);
    if (rc < 0)
        goto out;
    have_view = 1;
    st->skipped = v.skipped;
    st->nskipped = v.nskipped;
    v.skipped = NULL;
    v.nskipped = 0;
    phase(o, "records");
    st->records = v.records;
    c.data_as_of = v.data_date;
    sitedata_begin(&v, &t, c.base_url, &d);
    have_data = 1;
    /* Wheel pages were rendered while the records were read; every page
     * from here on says when a release is due and absent. */
    struct freshness fresh;
    judge_freshness(&v, &t, o->today, &fresh, d.meta);
    snprintf(st->freshness, sizeof st->freshness, "%s", fresh.sentence);
    c.freshness = fresh.sentence[0] ? st->freshness : NULL;
    c.data_through = fresh.through[0] ? fresh.through : NULL;
    phase(o, "grid");
    /* The feed and the simple indexes are made on a second thread while
     * this one does the pages (both only read the view and the grid); the
     * two share what is left of the feeds and the release pages at the
     * end (feeds_work, release_pages). */
    feeds_start(&fj, &c, &d);
    sitedata_build_pages(&d);
    phase(o, "page data");
    rc = put_json(&c, "api/v1/gpus.json", d.gpus, err);
    for (const struct page_kind *k = page_kinds; rc == 0 && k < page_kinds + PAGE_KINDS; k++) {
        if (k->make)
            rc = k->make(&c, &d, k, err);
        if (k->phase)
            phase(o, k->phase);
    }
    /* The feeds' steps left, then the release pages with the feeds' thread
     * (small pages: the two threads end together). */
    struct ctx helper; /* this thread's part of the feeds */
    ctx_for_thread(&helper, &c);
    struct wa_error ferr;
    int frc = rc == 0 ? feeds_work(&fj.steps, &helper, &d, &ferr) : 0;
    rc = first_error(rc, err, frc, &ferr);
    phase(o, "feeds");
    if (rc == 0)
        rc = release_pages(&c, &d, &fj.releases, err);
    phase(o, "releases");
    rc = feeds_join(&fj, &helper, rc, err);
    phase(o, "join");
    /* Pages left out, in a fixed order: this thread's, then the feeds' by
     * path (either thread may have made any of them). */
    add_skips(st, c.dups, c.ndups);
    c.dups = NULL;
    c.ndups = 0;
    ctx_join(&fj.c, &helper); /* its pages and pages left out to the feeds' */
    c.pages += fj.c.pages;
    if (fj.c.ndups > 1)
        qsort(fj.c.dups, fj.c.ndups, sizeof *fj.c.dups, skip_cmp);
    add_skips(st, fj.c.dups, fj.c.ndups);
    fj.c.dups = NULL;
    fj.c.ndups = 0;
    if (rc == 0)
        rc = copy_asset(&c, "style.css", err);
    if (rc == 0)
        rc = copy_asset(&c, "search.js", err);
    if (rc == 0)
        rc = copy_asset(&c, "gpuname.js", err);
    if (rc == 0)
        rc = copy_asset(&c, "favicon.svg", err);
    if (rc == 0)
        rc = put(&c, "assets/answers.js", d.answers_js, strlen(d.answers_js), err);
    if (rc == 0)
        rc = copy_asset(&c, "driver.js", err);
    if (rc == 0)
        rc = put(&c, ".nojekyll", "", 0, err);
out:
    add_skips(st, c.dups, c.ndups); /* a build stopped before the feeds: its wheel pages */
    st->pages = c.pages;
    if (c.out) {
        /* The stamp goes before the swap and comes back after it: killed in
         * between, the next build finds none and builds. */
        sitestamp_remove(o->out_dir);
        if (rc == 0) {
            rc = outdir_commit(c.out, &st->out, err); /* frees c.out, whatever it returns */
            if (rc == 0 && inputs)
                sitestamp_write(o->out_dir, inputs, st);
        } else {
            outdir_abort(c.out);
        }
        c.out = NULL;
    }
    free(inputs);
    phase(o, "commit");
    if (have_data)
        sitedata_free(&d);
    if (have_view)
        dbview_free(&v);
    tmpl_set_free(c.tmpls);
    strbuf_free(&c.page);
    tables_free(&t);
    free(c.base_url);
    return rc;
}
