/*
 * site_render: a page rendered from a template and written into the output
 * folder, and the state each of the build's two threads renders with
 * (struct ctx).  The lowest part of the site build: site_pages,
 * site_simple, site_feeds and site (the orchestrator) call it; it calls
 * none of them.  Not for other modules.
 */
#ifndef WHEELARCH_SITE_RENDER_H
#define WHEELARCH_SITE_RENDER_H

#include <jansson.h>
#include <stddef.h>

#include "dbview.h"
#include "error.h"
#include "outdir.h"
#include "sitejob.h"
#include "strbuf.h"
#include "tmpl.h"

struct ctx {
    const struct site_options *o;
    struct outdir *out;
    struct tmpl_set *tmpls;
    char *base_url; /* without a trailing slash, "" when none */
    const char *data_as_of;
    const char *checked_on;      /* the declared data's newest checked-on date */
    const char *freshness;       /* the banner of a release due and absent, or NULL */
    const char *freshness_brief; /* the same in one short line (its summary), or NULL */
    const char *data_through;    /* the newest torch version the site has, or NULL */
    size_t pages;
    /* Pages left out because an earlier page had their path (listed with
     * the skipped records); each thread has its own list. */
    struct dbview_skip *dups;
    size_t ndups, capdups;
    /* The page being rendered: one buffer per thread, reused, so that
     * pages do not each grow (and copy) a buffer of their own. */
    struct strbuf page;
};

/* "../../" for "gpu/x/index.html", "./" for "index.html"; caller frees. */
char *sitei_root_of(const char *path);
int sitei_put(struct ctx *c, const char *path, const char *data, size_t len, struct wa_error *err);
int sitei_put_page(struct ctx *c, const char *path, const char *data, size_t len, const char *what,
                   struct wa_error *err);
int sitei_put_json(struct ctx *c, const char *path, json_t *v, struct wa_error *err);
/* Renders template `name` with page (a typed value, borrowed) on top of
 * the fields every page has, and writes it at path: what NULL for a page
 * at a fixed path, where a second write is a bug, else the words naming a
 * page whose path was made from data (a second one is left out and
 * listed).  page_date is the page's own date (NULL: none). */
/* A thread's templates: a set loading templates_dir, traced when the
 * options ask (on_lookup).  Free with tmpl_set_free. */
struct tmpl_set *sitei_templates(const struct site_options *o);
/* Renders template `name` of c's set with the context stack ctx[0..n)
 * (tmpl_render_values), appending to out. */
int sitei_render_values(struct ctx *c, const char *name, const struct tmpl_value *ctx, size_t n,
                        struct strbuf *out, struct wa_error *err);
int sitei_render(struct ctx *c, const char *name, const char *path, const struct tmpl_value *page,
                 const char *page_date, const char *title, const char *description,
                 const char *what, struct wa_error *err);
/* A second thread's context: its own templates, page count and buffer;
 * sitei_ctx_join adds its counts back and frees it. */
void sitei_ctx_for_thread(struct ctx *child, const struct ctx *c);
void sitei_ctx_join(struct ctx *c, struct ctx *child);
int sitei_first_error(int rc, struct wa_error *err, int thread_rc, const struct wa_error *why);
int sitei_read_template_file(const struct ctx *c, const char *folder, const char *name, char **text,
                             size_t *n, struct wa_error *err);
int sitei_copy_asset(struct ctx *c, const char *name, struct wa_error *err);

#endif
