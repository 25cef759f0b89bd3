/*
 * site: templates + site data -> files in the output folder.  site_build
 * runs the phases in order on two threads.  It orchestrates four parts,
 * each with a header of its own, which call downwards only, in this order:
 *   site_feeds     the second thread: the feed documents, the SQLite
 *                  feed, the variant files, the simple indexes
 *   site_simple    the PEP 503/691 simple indexes
 *   site_pages     the page registry (site_page_kinds) and each kind's
 *                  pages
 *   site_render    a page rendered from a template and written; the
 *                  context each thread renders with (struct ctx)
 * No part includes this file's header or another part above it.
 */
#include "site.h"
#include "site_feeds.h"
#include "site_pages.h"
#include "site_render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbview.h"
#include "feed_answer.h"
#include "feed_gpus.h"
#include "feed_home.h"
#include "sitedata.h"
#include "schedule.h"
#include "sitestamp.h"
#include "strbuf.h"
#include "tables.h"
#include "tmpl_set.h"
#include "xalloc.h"
#include "sitedata_types.h"

/* Tells the caller's observer that a phase of the build ends (NULL: the
 * build starts); the core itself neither times nor prints. */
static void phase(const struct site_options *o, const char *name)
{
    if (o->on_phase)
        o->on_phase(o->phase_ud, name);
}

/* The data's freshness against the release schedule (schedule.h), into
 * *f and the feed's meta: "data-through" (the newest torch version the
 * site has) and "overdue" (the release due and absent, or null). */
static void judge_freshness(const struct dbview *v, const struct tables *t, const char *today,
                            struct freshness *f, json_t *meta)
{
    schedule_freshness(t, today, dbview_newest_version(v, "torch"), f);
    feed_meta_set_freshness(meta, f);
}

/* ---- wheel pages, rendered while the records are read ------------------- */

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
    int rc = r->scanned ? sitei_wheel_page(w->c[worker ? 1 : 0], r, err) : 0;
    record_free(r);
    return rc;
}

/* ---- pages left out ------------------------------------------------------- */

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

/* ---- the build ------------------------------------------------------------ */

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
    c.tmpls = sitei_templates(o);
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
    sitei_ctx_for_thread(&second, &c);
    struct wheel_pages wp = {{&c, &second}};
    rc = dbview_build_with(o->cache_dir, &t, 0, o->nightlies, &v, on_record, &wp, err);
    sitei_ctx_join(&c, &second);
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
    c.freshness_brief = fresh.brief[0] ? fresh.brief : NULL;
    c.data_through = fresh.through[0] ? fresh.through : NULL;
    phase(o, "grid");
    /* The feed and the simple indexes are made on a second thread while
     * this one does the pages (both only read the view and the grid); the
     * two share what is left of the feeds and the release pages at the
     * end (feeds_work, release_pages). */
    sitei_feeds_start(&fj, &c, &d);
    sitedata_build_pages(&d);
    phase(o, "page data");
    json_t *gpus = feed_gpus_json(&d);
    rc = sitei_put_json(&c, "api/v1/gpus.json", gpus, err);
    json_decref(gpus);
    for (const struct page_kind *k = site_page_kinds; rc == 0 && k < site_page_kinds + PAGE_KINDS;
         k++) {
        if (k->make)
            rc = k->make(&c, &d, k, err);
        if (k->phase)
            phase(o, k->phase);
    }
    /* The feeds' steps left, then the release pages with the feeds' thread
     * (small pages: the two threads end together). */
    struct ctx helper; /* this thread's part of the feeds */
    sitei_ctx_for_thread(&helper, &c);
    struct wa_error ferr;
    int frc = rc == 0 ? sitei_feeds_work(&fj.steps, &helper, &d, &ferr) : 0;
    rc = sitei_first_error(rc, err, frc, &ferr);
    phase(o, "feeds");
    if (rc == 0)
        rc = sitei_release_pages(&c, &d, &fj.releases, err);
    phase(o, "releases");
    rc = sitei_feeds_join(&fj, &helper, rc, err);
    phase(o, "join");
    /* Pages left out, in a fixed order: this thread's, then the feeds' by
     * path (either thread may have made any of them). */
    add_skips(st, c.dups, c.ndups);
    c.dups = NULL;
    c.ndups = 0;
    sitei_ctx_join(&fj.c, &helper); /* its pages and pages left out to the feeds' */
    c.pages += fj.c.pages;
    if (fj.c.ndups > 1)
        qsort(fj.c.dups, fj.c.ndups, sizeof *fj.c.dups, skip_cmp);
    add_skips(st, fj.c.dups, fj.c.ndups);
    fj.c.dups = NULL;
    fj.c.ndups = 0;
    if (rc == 0)
        rc = sitei_copy_asset(&c, "style.css", err);
    if (rc == 0)
        rc = sitei_copy_asset(&c, "search.js", err);
    if (rc == 0)
        rc = sitei_copy_asset(&c, "gpuname.js", err);
    if (rc == 0)
        rc = sitei_copy_asset(&c, "favicon.svg", err);
    if (rc == 0) {
        char *js = feed_home_answers_js(&d);
        rc = sitei_put(&c, "assets/answers.js", js, strlen(js), err);
        free(js);
    }
    if (rc == 0)
        rc = sitei_copy_asset(&c, "decide.js", err);
    if (rc == 0)
        rc = sitei_copy_asset(&c, "copy.js", err);
    if (rc == 0)
        rc = sitei_copy_asset(&c, "prefs.js", err);
    if (rc == 0)
        rc = sitei_copy_asset(&c, "gpu.js", err);
    if (rc == 0)
        rc = sitei_put(&c, ".nojekyll", "", 0, err);
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
