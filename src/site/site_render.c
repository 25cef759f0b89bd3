/*
 * site_render: a page rendered from its template with the fields every
 * page has (root, title, canonical URL, dates, freshness) and written to
 * the output folder; the context each thread renders with.
 */
#include "site_render.h"

#include <stdlib.h>
#include <string.h>

#include "dbview_types.h"
#include "fsutil.h"
#include "jsontext.h"
#include "strbuf.h"
#include "tmpl.h"
#include "version.h"
#include "xalloc.h"
#include "sitedata_text.h"
#include "sitedata_types.h"

/* "../../" for "gpu/x/index.html", "./" for "index.html". */
char *sitei_root_of(const char *path)
{
    struct strbuf b = STRBUF_INIT;
    for (const char *p = path; *p; p++)
        if (*p == '/')
            strbuf_adds(&b, "../");
    if (b.len == 0)
        strbuf_adds(&b, "./");
    return strbuf_detach(&b, NULL);
}

int sitei_put(struct ctx *c, const char *path, const char *data, size_t len, struct wa_error *err)
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
int sitei_put_page(struct ctx *c, const char *path, const char *data, size_t len, const char *what,
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

int sitei_put_json(struct ctx *c, const char *path, json_t *v, struct wa_error *err)
{
    struct strbuf s = STRBUF_INIT;
    if (jsontext_append(&s, v, JSON_SORT_KEYS | JSON_COMPACT) < 0) {
        strbuf_free(&s);
        return wa_error_set(err, WA_ERR_FORMAT, "cannot serialise %s", path);
    }
    strbuf_addc(&s, '\n');
    int rc = sitei_put(c, path, s.buf, s.len, err);
    strbuf_free(&s);
    return rc;
}

/* The fields every page has (root, title, description, canonical URL,
 * dates, generator), below the page's own data on its context stack: a
 * page that has a field of its own (a GPU page's one-line description, a
 * page's own date) is read first.  Strings are NULL where a field is
 * absent; the title and description only when UTF-8. */
struct page_common {
    const struct ctx *c;
    char *root; /* "../../" */
    const char *title, *description;
    char *canonical;        /* with --base-url */
    const char *data_as_of; /* the page's date as it stands on the stack: NULL is null */
};

#define COMMON(v) ((const struct page_common *)(v)->p)

static void common_str(const char *s, struct tmpl_value *out)
{
    if (s)
        tmpl_value_str(s, out);
    else
        out->kind = TMPL_MISSING;
}

static void common_root(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(COMMON(v)->root, out);
}

static void common_title(const struct tmpl_value *v, struct tmpl_value *out)
{
    common_str(COMMON(v)->title, out);
}

static void common_description(const struct tmpl_value *v, struct tmpl_value *out)
{
    common_str(COMMON(v)->description, out);
}

static void common_canonical(const struct tmpl_value *v, struct tmpl_value *out)
{
    common_str(COMMON(v)->canonical, out);
}

static void common_data_as_of(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(COMMON(v)->data_as_of, out);
}

/* a page's own date (a wheel page's: the day it was read) says wheels
 * were read as much as the site's */
static void common_wheels_read(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_bool(COMMON(v)->data_as_of != NULL, out);
}

static void common_checked_on(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(COMMON(v)->c->checked_on ? COMMON(v)->c->checked_on : "", out);
}

static void common_freshness(const struct tmpl_value *v, struct tmpl_value *out)
{
    common_str(COMMON(v)->c->freshness, out);
}

static void common_freshness_brief(const struct tmpl_value *v, struct tmpl_value *out)
{
    common_str(COMMON(v)->c->freshness_brief, out);
}

static void common_data_through(const struct tmpl_value *v, struct tmpl_value *out)
{
    common_str(COMMON(v)->c->data_through, out);
}

static void common_generator(const struct tmpl_value *v, struct tmpl_value *out)
{
    (void)v;
    tmpl_value_str("wheelarch " WHEELARCH_VERSION, out);
}

static void common_api_version(const struct tmpl_value *v, struct tmpl_value *out)
{
    (void)v;
    tmpl_value_str(SITE_API_VERSION, out);
}

static const struct tmpl_field common_fields[] = {
    TMPL_GET("root", common_root),
    TMPL_GET("title", common_title),
    TMPL_GET("description", common_description),
    TMPL_GET("canonical", common_canonical),
    TMPL_GET("data_as_of", common_data_as_of),
    TMPL_GET("wheels_read", common_wheels_read),
    TMPL_GET("checked_on", common_checked_on),
    TMPL_GET("freshness", common_freshness),
    TMPL_GET("freshness_brief", common_freshness_brief),
    TMPL_GET("data_through", common_data_through),
    TMPL_GET("generator", common_generator),
    TMPL_GET("api_version", common_api_version),
};

static const struct tmpl_type common_type = TMPL_FIELDS(common_fields);

static void common_make(const struct ctx *c, struct page_common *p, const char *path,
                        const char *title, const char *description, const char *data_as_of)
{
    p->c = c;
    p->root = sitei_root_of(path);
    p->title = title && strbuf_utf8_valid(title) ? title : NULL;
    p->description = description && strbuf_utf8_valid(description) ? description : NULL;
    p->canonical = NULL;
    if (c->base_url[0]) {
        const char *slash = strrchr(path, '/');
        char *dir = slash ? xstrndup(path, (size_t)(slash - path + 1)) : xstrdup("");
        char *canon = xasprintf("%s/%s", c->base_url,
                                strcmp(slash ? slash + 1 : path, "index.html") == 0 ? dir : path);
        p->canonical = sitedata_href(canon); /* --base-url is percent-encoded like any URL */
        free(canon);
        free(dir);
    }
    p->data_as_of = data_as_of;
}

static void common_free(struct page_common *p)
{
    free(p->root);
    free(p->canonical);
}

struct tmpl_set *sitei_templates(const struct site_options *o)
{
    struct tmpl_set *s = tmpl_set_new(tmpl_dir_loader, (void *)o->templates_dir);
    if (o->on_lookup)
        tmpl_set_trace(s, o->on_lookup, o->lookup_ud);
    return s;
}

int sitei_render_values(struct ctx *c, const char *name, const struct tmpl_value *ctx, size_t n,
                        struct strbuf *out, struct wa_error *err)
{
    const struct tmpl *t;
    int rc = tmpl_set_get(c->tmpls, name, &t, err);
    return rc != 0 ? rc : tmpl_render_values(c->tmpls, t, ctx, n, out, err);
}

/* Writes the page rendered into c->page (see sitei_render). */
static int put_rendered(struct ctx *c, const char *name, const char *path, const char *what, int rc,
                        struct wa_error *err)
{
    struct strbuf *out = &c->page;
    if (rc == 0 && what) {
        rc = sitei_put_page(c, path, strbuf_str(out), out->len, what, err);
        if (rc > 0)
            rc = 0; /* left out and listed */
    } else if (rc == 0) {
        rc = sitei_put(c, path, strbuf_str(out), out->len, err);
    } else {
        wa_error_prefix(err, name);
    }
    c->pages++;
    return rc;
}

int sitei_render(struct ctx *c, const char *name, const char *path, const struct tmpl_value *page,
                 const char *page_date, const char *title, const char *description,
                 const char *what, struct wa_error *err)
{
    struct page_common common;
    common_make(c, &common, path, title, description, page_date);
    struct tmpl_value ctx[2];
    tmpl_value_typed(TMPL_OBJECT, &common_type, &common, 0, &ctx[0]);
    ctx[1] = *page; /* on top: the page's own fields first */
    strbuf_reset(&c->page);
    int rc = sitei_render_values(c, name, ctx, 2, &c->page, err);
    rc = put_rendered(c, name, path, what, rc, err);
    common_free(&common);
    return rc;
}

/* The context of a second thread: the same output and options, its own
 * templates (a tmpl_set is one thread's), page count and list of pages
 * left out.  Free its templates with tmpl_set_free when it is done. */
void sitei_ctx_for_thread(struct ctx *child, const struct ctx *c)
{
    *child = *c;
    child->pages = 0;
    child->dups = NULL;
    child->ndups = child->capdups = 0;
    child->page = (struct strbuf)STRBUF_INIT;
    child->tmpls = sitei_templates(c->o);
}

/* Adds a thread's page count and pages left out to c's. */
void sitei_ctx_join(struct ctx *c, struct ctx *child)
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
int sitei_first_error(int rc, struct wa_error *err, int thread_rc, const struct wa_error *why)
{
    if (rc == 0 && thread_rc < 0) {
        if (err)
            *err = *why;
        return thread_rc;
    }
    return rc;
}

/* Reads templates/<folder>/<name> (at most 4 MiB); caller frees *text. */
int sitei_read_template_file(const struct ctx *c, const char *folder, const char *name, char **text,
                             size_t *n, struct wa_error *err)
{
    char *file = xasprintf("%s/%s/%s", c->o->templates_dir, folder, name);
    int rc = fsutil_read(file, 4u << 20, text, n, NULL, err);
    free(file);
    return rc;
}

/* A script as the site serves it: each line without its indentation, and
 * lines that are only a // comment left out (the comments are for whoever
 * reads templates/assets/; a visitor's phone need not load them).  The
 * scripts hold no string or regular expression spanning lines, so a line
 * that starts with // is always a comment. */
static size_t js_served(char *text, size_t n)
{
    size_t out = 0, i = 0;
    while (i < n) {
        size_t end = i;
        while (end < n && text[end] != '\n')
            end++;
        size_t b = i;
        while (b < end && (text[b] == ' ' || text[b] == '\t'))
            b++;
        if (!(end - b >= 2 && text[b] == '/' && text[b + 1] == '/')) {
            memmove(text + out, text + b, end - b);
            out += end - b;
            if (end < n)
                text[out++] = '\n';
        }
        i = end < n ? end + 1 : n;
    }
    return out;
}

/* The stylesheet as served: without its comments, indentation and blank
 * lines (no string in it holds a comment's opening). */
static size_t css_served(char *text, size_t n)
{
    size_t out = 0, i = 0;
    int line_start = 1;
    while (i < n) {
        if (i + 1 < n && text[i] == '/' && text[i + 1] == '*') {
            size_t j = i + 2;
            while (j + 1 < n && !(text[j] == '*' && text[j + 1] == '/'))
                j++;
            i = j + 2 <= n ? j + 2 : n;
            continue;
        }
        char ch = text[i++];
        if (line_start && (ch == ' ' || ch == '\t' || ch == '\n'))
            continue;
        line_start = ch == '\n';
        text[out++] = ch;
    }
    return out;
}

int sitei_copy_asset(struct ctx *c, const char *name, struct wa_error *err)
{
    char *text;
    size_t n;
    int rc = sitei_read_template_file(c, "assets", name, &text, &n, err);
    if (rc < 0)
        return rc;
    size_t len = strlen(name);
    if (len > 3 && strcmp(name + len - 3, ".js") == 0)
        n = js_served(text, n);
    else if (len > 4 && strcmp(name + len - 4, ".css") == 0)
        n = css_served(text, n);
    char *path = xasprintf("assets/%s", name);
    rc = sitei_put(c, path, text, n, err);
    free(path);
    free(text);
    return rc;
}
