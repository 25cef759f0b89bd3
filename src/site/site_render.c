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
#include "tmpl_json.h"
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

/* Renders template `name` with data (the common fields are set on it).
 * what: NULL for a page at a fixed path, where a second write is a bug;
 * else the page's path was made from data and put_page writes it. */
/* Sets on data the fields every page has (root, title, description
 * unless the page has its own, canonical URL, dates, generator). */
static void set_common(struct ctx *c, json_t *data, const char *path, const char *title,
                       const char *description)
{
    char *root = sitei_root_of(path);
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
    if (c->freshness_brief)
        json_object_set_new(data, "freshness_brief", json_string(c->freshness_brief));
    if (c->data_through)
        json_object_set_new(data, "data_through", json_string(c->data_through));
    json_object_set_new(data, "generator", json_string("wheelarch " WHEELARCH_VERSION));
    json_object_set_new(data, "api_version", json_string(SITE_API_VERSION));
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

int sitei_render(struct ctx *c, const char *name, const char *path, json_t *data, const char *title,
                 const char *description, const char *what, struct wa_error *err)
{
    set_common(c, data, path, title, description);
    strbuf_reset(&c->page);
    int rc = tmpl_json_render_name(c->tmpls, name, data, &c->page, err);
    return put_rendered(c, name, path, what, rc, err);
}

int sitei_render_typed(struct ctx *c, const char *name, const char *path,
                       const struct tmpl_value *page, const char *page_date, const char *title,
                       const char *description, const char *what, struct wa_error *err)
{
    json_t *common = json_object();
    json_object_set_new(common, "data_as_of", page_date ? json_string(page_date) : json_null());
    set_common(c, common, path, title, description);
    struct tmpl_value ctx[2];
    tmpl_json_value(common, &ctx[0]);
    ctx[1] = *page; /* on top: the page's own fields first */
    const struct tmpl *t;
    strbuf_reset(&c->page);
    int rc = tmpl_set_get(c->tmpls, name, &t, err);
    if (rc == 0)
        rc = tmpl_render_values(c->tmpls, t, ctx, 2, &c->page, err);
    rc = put_rendered(c, name, path, what, rc, err);
    json_decref(common);
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
    child->tmpls = tmpl_set_new(tmpl_dir_loader, (void *)c->o->templates_dir);
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
