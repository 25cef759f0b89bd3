/*
 * sitedata_releases: release pages, the changes page and feed, wheel pages.
 */
#include "sitedata_impl.h"

#include "scanreport.h"

#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "recbinary.h"
#include "strbuf.h"
#include "strmap.h"
#include "variant.h"
#include "xalloc.h"

/* ---- releases, changes -------------------------------------------------- */

/* Sets o[name] to the path of the page of the wheel with this key. */
static void set_wheel_page(json_t *o, const char *name, const char *key)
{
    char *seg = sitedata_segment(key);
    char *p = xasprintf("wheel/%s.html", seg);
    free(seg);
    json_object_set_new(o, name, json_string(p));
    free(p);
}

/* Appends the wheel's line of a release page's wheel table, byte for byte
 * what release.mustache's rows made from the wheel's JSON (it once did):
 * 100,000 wheels as JSON objects were a good part of a build.  root: the
 * page's way to the site's root; link_inferred: an inferred wheel links
 * to the wheel it was inferred from (not all of the row's name one). */
static void wheel_line(struct strbuf *out, const struct record_wheel *w, const char *root,
                       int link_inferred)
{
    strbuf_adds(out, "<tr><th scope=\"row\">");
    char *href = sitedata_wheel_href(w);
    if (href) {
        strbuf_adds(out, "<a href=\"");
        sitedata_html_text(out, href);
        strbuf_adds(out, "\">");
        sitedata_html_text(out, w->filename);
        strbuf_adds(out, "</a>");
    } else {
        sitedata_html_text(out, w->filename);
    }
    free(href);
    const char *reason;
    if (sitedata_wheel_yanked(w, &reason)) {
        strbuf_adds(out, " <span class=\"status\">yanked");
        if (reason) {
            strbuf_adds(out, ": ");
            sitedata_html_text(out, reason);
        }
        strbuf_adds(out, "</span>"); /* without a reason: "yanked" (once "yanked: true") */
    }
    strbuf_adds(out, "</th><td><code>");
    sitedata_html_text(out, w->sha256);
    strbuf_adds(out, "</code></td><td>");
    const char *key = w->scanned      ? (w->key[0] ? w->key : NULL)
                      : link_inferred ? w->inferred_from
                                      : NULL;
    char *page = NULL;
    if (key && strbuf_utf8_valid(key)) {
        char *seg = sitedata_segment(key);
        page = xasprintf("wheel/%s.html", seg);
        free(seg);
    }
    if (!w->scanned) {
        strbuf_adds(out, "inferred");
        if (page) {
            strbuf_adds(out, " from <a href=\"");
            sitedata_html_text(out, root);
            sitedata_html_text(out, page);
            strbuf_adds(out, "\">its sibling</a>");
        }
    } else {
        strbuf_adds(out, "<a href=\"");
        sitedata_html_text(out, root);
        sitedata_html_text(out, page);
        strbuf_adds(out, "\">scanned</a> ");
        sitedata_html_text(out, w->scanned_at);
    }
    strbuf_adds(out, "</td></tr>\n");
    free(page);
}

/* A target-list item with its name parsed once, for by_target_name. */
struct named {
    struct target t;
    int ok; /* the name parsed */
    const char *name;
    size_t at; /* its place in the list */
};

/* target_name_cmp on parsed names (unparsable ones last, by string), then
 * the place in the list, so the order is total and deterministic. */
static int named_cmp(const void *a, const void *b)
{
    const struct named *x = a, *y = b;
    int c = x->ok && y->ok   ? target_cmp(&x->t, &y->t)
            : x->ok != y->ok ? (x->ok ? -1 : 1)
                             : strcmp(x->name, y->name);
    if (c)
        return c;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* The objects of tl (each with a "name") in architecture order: SASS,
 * then PTX, then gfx.  Records keep targets in key order, where "sm_100"
 * sorts before "sm_75".  Each name is parsed once and the list sorted
 * with qsort: O(n log n) (records cap the targets at
 * RECORDCHECK_TARGETS_MAX, but a sort per page must not be quadratic
 * anyway).  Takes tl; returns a new array. */
static json_t *by_target_name(json_t *tl)
{
    size_t n = json_array_size(tl), m = 0;
    struct named *k = xmalloc((n ? n : 1) * sizeof *k);
    for (size_t i = 0; i < n; i++) {
        const char *name = json_string_value(json_object_get(json_array_get(tl, i), "name"));
        if (!name)
            continue; /* a target without a name: dropped */
        k[m].ok = target_parse(name, &k[m].t) == 0;
        k[m].name = name;
        k[m].at = i;
        m++;
    }
    if (m > 1)
        qsort(k, m, sizeof *k, named_cmp);
    json_t *out = json_array();
    for (size_t i = 0; i < m; i++)
        json_array_append(out, json_array_get(tl, k[i].at));
    free(k);
    json_decref(tl);
    return out;
}

json_t *sitedata_release_page(const struct sitedata *d, size_t *next)
{
    const struct dbview *v = d->v;
    json_t *cur = NULL;
    struct strmap *ids = NULL; /* of the page */
    struct strbuf rootb = STRBUF_INIT;
    const char *root = "./";
    size_t r;
    for (r = *next; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        if (!cur || strcmp(json_string_value(json_object_get(cur, "project")), row->project) != 0 ||
            strcmp(json_string_value(json_object_get(cur, "version")), row->version) != 0) {
            if (cur)
                break; /* the next page's first row */
            ids = strmap_new();
            cur = json_object();
            json_object_set_new(cur, "project", json_string(row->project));
            json_object_set_new(cur, "version", json_string(row->version));
            json_object_set_new(cur, "release", json_string(row->release));
            char *path = sitedata_release_path(row->project, row->version);
            json_object_set_new(cur, "path", json_string(path));
            /* the page is path + "index.html": "../" per folder */
            strbuf_reset(&rootb);
            for (const char *p = path; *p; p++)
                if (*p == '/')
                    strbuf_adds(&rootb, "../");
            root = rootb.len ? rootb.buf : "./";
            free(path);
            json_object_set_new(cur, "rows", json_array());
        }
        json_t *x = dbview_row_json(v, row);
        json_object_set_new(x, "binaries", dbview_row_binaries(row));
        json_object_set_new(x, "platform_name", json_string(sitedata_platform_name(row->platform)));
        sitedata_set_href(x, "index_href", row->index_url);
        json_object_set_new(x, "has_differences", json_boolean(row->ndifferences > 0));
        json_object_set_new(x, "has_wheels", json_boolean(row->nwheels > 0));
        /* Ids from the variant and platform, unique in the page; binaries
         * by their place (member paths are any bytes). */
        char *raw = xasprintf("%s-%s", row->variant, row->platform);
        sitedata_set_page_id(x, "section_id", ids, "r-", raw);
        sitedata_set_page_id(x, "wheels_id", ids, "w-", raw);
        /* Per binary, the targets as a list for the templates. */
        size_t i;
        json_t *b;
        json_array_foreach(json_object_get(x, "binaries"), i, b)
        {
            json_t *tl = json_array();
            const char *name;
            json_t *tv;
            json_object_foreach(json_object_get(b, "targets"), name, tv)
            {
                json_t *e = json_copy(tv); /* keys are only added: a shallow copy */
                json_object_set_new(e, "name", json_string(name));
                json_int_t m = json_integer_value(json_object_get(tv, "modules"));
                json_t *all = json_object_get(b, "modules");
                json_object_set_new(e, "all_modules", json_boolean(m == json_integer_value(all)));
                json_object_set(e, "modules_total", all);
                json_array_append_new(tl, e);
            }
            json_object_set_new(b, "target_list", by_target_name(tl));
            char *braw = xasprintf("%s-%zu", raw, i + 1);
            sitedata_set_page_id(b, "table_id", ids, "b-", braw);
            free(braw);
        }
        free(raw);
        /* Scanned wheels have a page; inferred ones link to the page of
         * the wheel they were inferred from: once, above the table, when
         * they all name the same one (the usual case: one wheel of a
         * build is read), else on each line. */
        const char *source = NULL;
        int one_source = 1;
        for (size_t k = 0; k < row->nwheels; k++) {
            const struct record_wheel *w = &row->wheels[k];
            if (w->scanned)
                continue;
            const char *from =
                w->inferred_from && strbuf_utf8_valid(w->inferred_from) ? w->inferred_from : NULL;
            if (!from || (source && strcmp(source, from) != 0))
                one_source = 0;
            else
                source = from;
        }
        if (!source)
            one_source = 0;
        struct strbuf lines = STRBUF_INIT;
        for (size_t k = 0; k < row->nwheels; k++)
            wheel_line(&lines, &row->wheels[k], root, !one_source);
        json_object_set_new(x, "wheels_html", json_stringn_nocheck(strbuf_str(&lines), lines.len));
        strbuf_free(&lines);
        if (one_source)
            set_wheel_page(x, "inferred_page", source);
        json_array_append_new(json_object_get(cur, "rows"), x);
    }
    strmap_free(ids);
    strbuf_free(&rootb);
    *next = r;
    return cur;
}

static json_t *diff_list(const struct target *a, size_t na, const struct target *b, size_t nb)
{
    /* targets in a and not in b */
    json_t *out = json_array();
    for (size_t i = 0; i < na; i++) {
        int found = 0;
        for (size_t k = 0; k < nb; k++)
            found |= target_cmp(&a[i], &b[k]) == 0;
        if (!found) {
            char name[TARGET_NAME_MAX];
            target_format(&a[i], name, sizeof name);
            json_array_append_new(out, json_string(name));
        }
    }
    return out;
}

/* The SASS, PTX and gfx targets of row a that row b lacks, in that order. */
static json_t *diff_rows(const struct dbview_row *a, const struct dbview_row *b)
{
    json_t *out = diff_list(a->sass, a->nsass, b->sass, b->nsass);
    json_t *ptx = diff_list(a->ptx, a->nptx, b->ptx, b->nptx);
    json_t *gfx = diff_list(a->gfx, a->ngfx, b->gfx, b->ngfx);
    json_array_extend(out, ptx);
    json_array_extend(out, gfx);
    json_decref(ptx);
    json_decref(gfx);
    return out;
}

void sitedata_build_changes(struct sitedata *d)
{
    const struct dbview *v = d->v;
    d->changes = json_array();
    struct strmap *ids = strmap_new();
    /* The rows of each (project, release), in view order: a release's
     * entry looks up the previous release's rows (a scan of every row per
     * release was most of this page on a project with hundreds). */
    struct strmap *rel_at = strmap_new(); /* "project\x01release" -> list + 1 */
    size_t **rel_rows = xcalloc(v->nrows + 1, sizeof *rel_rows);
    size_t *rel_n = xcalloc(v->nrows + 1, sizeof *rel_n), nrel = 0;
    struct strbuf key = STRBUF_INIT;
    for (size_t k = 0; k < v->nrows; k++) {
        strbuf_set_joined(&key, 1, v->rows[k].project, v->rows[k].release, (char *)NULL);
        size_t at;
        if (!strmap_get(rel_at, key.buf, &at)) {
            at = ++nrel;
            strmap_put(rel_at, key.buf, at);
        }
        if (rel_n[at - 1] % 16 == 0)
            rel_rows[at - 1] = xrealloc(rel_rows[at - 1], (rel_n[at - 1] + 16) * sizeof **rel_rows);
        rel_rows[at - 1][rel_n[at - 1]++] = k;
    }
    /* Releases per project, newest first (rows are sorted that way). */
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        if (r > 0 && strcmp(v->rows[r - 1].project, row->project) == 0 &&
            strcmp(v->rows[r - 1].release, row->release) == 0)
            continue;
        /* The previous release of this project. */
        const char *prev = NULL;
        for (size_t k = r + 1; k < v->nrows; k++) {
            if (strcmp(v->rows[k].project, row->project) != 0)
                break;
            if (strcmp(v->rows[k].release, row->release) != 0) {
                prev = v->rows[k].release;
                break;
            }
        }
        json_t *entry = json_object();
        json_object_set_new(entry, "project", json_string(row->project));
        json_object_set_new(entry, "release", json_string(row->release));
        json_object_set_new(entry, "previous", prev ? json_string(prev) : json_null());
        /* "id" names the entry in the Atom feed (kept stable); "anchor" is
         * its HTML id on changes/. */
        char *id = xasprintf("%s-%s", row->project, row->release);
        json_object_set_new(entry, "id", json_string(id));
        sitedata_set_page_id(entry, "anchor", ids, "c-", id);
        free(id);
        json_t *items = json_array();
        const char *date = NULL;
        char datebuf[11];
        for (size_t k = r; k < v->nrows; k++) {
            const struct dbview_row *x = &v->rows[k];
            if (strcmp(x->project, row->project) || strcmp(x->release, row->release))
                break;
            if (!sitedata_is_newest(d, k))
                continue;
            /* the release's date: its first upload where crawled */
            for (size_t wi = 0; wi < x->nwheels; wi++) {
                const char *up = x->wheels[wi].upload_time;
                if (up && strlen(up) >= 10 && (!date || strncmp(up, date, 10) < 0)) {
                    snprintf(datebuf, sizeof datebuf, "%.10s", up);
                    date = datebuf;
                }
            }
            json_t *it = json_object();
            json_object_set_new(it, "variant", json_string(x->variant));
            json_object_set_new(it, "platform", json_string(x->platform));
            json_object_set_new(it, "platform_name",
                                json_string(sitedata_platform_name(x->platform)));
            json_object_set_new(it, "status", json_string(dbview_status_name(x->status)));
            long pr = prev ? sitedata_newest_row(d, x->project, prev, x->variant, x->platform) : -1;
            if (pr < 0) {
                /* "new" only when the data says which variants the
                 * previous release had */
                const struct release_info *pi =
                    prev ? tables_release(d->t, x->project, prev, x->platform) : NULL;
                int is_new = pi && pi->covered && !tables_release_has(pi, x->variant);
                json_object_set_new(it, "new_variant", json_boolean(is_new));
                json_object_set_new(it, "first_in_data", json_boolean(!is_new));
                json_object_set_new(it, "added", json_array());
                json_object_set_new(it, "dropped", json_array());
            } else {
                const struct dbview_row *p = &v->rows[pr];
                json_object_set_new(it, "new_variant", json_false());
                json_object_set_new(it, "first_in_data", json_false());
                json_object_set_new(it, "added", diff_rows(x, p));
                json_object_set_new(it, "dropped", diff_rows(p, x));
            }
            json_object_set_new(it, "has_added",
                                json_boolean(json_array_size(json_object_get(it, "added")) > 0));
            json_object_set_new(it, "has_dropped",
                                json_boolean(json_array_size(json_object_get(it, "dropped")) > 0));
            int changed = json_is_true(json_object_get(it, "new_variant")) ||
                          (prev && json_is_true(json_object_get(it, "first_in_data"))) ||
                          json_array_size(json_object_get(it, "added")) ||
                          json_array_size(json_object_get(it, "dropped"));
            json_object_set_new(it, "changed", json_boolean(changed));
            if (changed || !prev)
                json_array_append_new(items, it);
            else
                json_decref(it);
        }
        /* Variants the previous release had and this one does not. */
        size_t prev_list = 0, nprev = 0;
        if (prev) {
            strbuf_set_joined(&key, 1, row->project, prev, (char *)NULL);
            if (strmap_get(rel_at, key.buf, &prev_list))
                nprev = rel_n[prev_list - 1];
        }
        if (prev) {
            for (size_t pi_k = 0; pi_k < nprev; pi_k++) {
                size_t k = rel_rows[prev_list - 1][pi_k];
                const struct dbview_row *p = &v->rows[k];
                if (!sitedata_is_newest(d, k))
                    continue;
                if (sitedata_newest_row(d, p->project, row->release, p->variant, p->platform) >= 0)
                    continue;
                /* Dropped is a fact only when the data lists the variants
                 * of both releases; otherwise the gap is ours. */
                const struct release_info *ci =
                    tables_release(d->t, row->project, row->release, p->platform);
                const struct release_info *pi =
                    tables_release(d->t, row->project, prev, p->platform);
                const char *state;
                if (!ci || !ci->covered || !pi || !pi->covered)
                    state = "not_covered"; /* which variants exist is not in the data */
                else if (tables_release_has(ci, p->variant))
                    state = "no_arch_data"; /* published; its arch list is not in the data */
                else if (tables_release_has(pi, p->variant))
                    state = "removed_variant";
                else
                    continue; /* neither release lists it: nothing to say */
                json_t *it = json_object();
                json_object_set_new(it, state, json_true());
                json_object_set_new(it, "variant", json_string(p->variant));
                json_object_set_new(it, "platform", json_string(p->platform));
                json_object_set_new(it, "platform_name",
                                    json_string(sitedata_platform_name(p->platform)));
                json_object_set_new(it, "changed", json_true());
                json_object_set_new(it, "added", json_array());
                json_object_set_new(it, "dropped", json_array());
                json_object_set_new(it, "has_added", json_false());
                json_object_set_new(it, "has_dropped", json_false());
                json_array_append_new(items, it);
            }
        }
        json_object_set_new(entry, "items", items);
        if (!date) { /* not crawled: the release date of the data file */
            for (int p = 0; p < SITEDATA_NPLATFORMS && !date; p++) {
                const struct release_info *ri =
                    tables_release(d->t, row->project, row->release, sitedata_platforms[p]);
                if (ri && ri->release_date[0])
                    date = ri->release_date;
            }
        }
        json_object_set_new(entry, "date", date ? json_string(date) : json_null());
        json_array_append_new(d->changes, entry);
    }
    strmap_free(ids);
    for (size_t i = 0; i < nrel; i++)
        free(rel_rows[i]);
    free(rel_rows);
    free(rel_n);
    strmap_free(rel_at);
    strbuf_free(&key);
}
