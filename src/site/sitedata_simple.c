/*
 * sitedata_simple: the data of the GPU-aware simple indexes (simple/<arch>/):
 * which projects and rows each architecture lists, and each row's links.
 */
#include "sitedata_simple.h"
#include "sitedata_state.h"

#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "wheelname.h"
#include "xalloc.h"
#include "sitedata_text.h"
#include "sitedata_types.h"

static int cmp_cstr(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A link's wheel tags ("cp312-cp312-manylinux_2_28_x86_64"): what an
 * installer chooses between once the version is fixed; caller frees. */
static char *link_tag(const char *filename)
{
    struct wheel_name w;
    if (wheelname_parse(filename, &w, NULL) < 0)
        return xstrdup(filename);
    char *tag = xasprintf("%s-%s-%s", w.python, w.abi, w.platform);
    wheelname_free(&w);
    return tag;
}

#define NO_TAG UINT32_MAX

struct candidate {
    size_t row;
    const struct dbview_row *vrow;
};

/* The preferred build first: the newest CUDA (or ROCm), as `query` picks
 * when it knows no driver; then by platform. */
static int candidate_cmp(const void *a, const void *b)
{
    const struct candidate *x = a, *y = b;
    int c = tables_variant_cmp(y->vrow->variant, x->vrow->variant);
    return c ? c : strcmp(x->vrow->platform, y->vrow->platform);
}

/* The simple indexes list what an installer can use: for each version of
 * a project and each wheel tag (python, ABI, platform), the wheel of the
 * preferred variant among those with native code for the architecture; a
 * variant that runs but would never be chosen is left out: d->simple;
 * d->simple_picks says
 * which wheels of which rows each architecture's pages list, in order, and
 * site_simple makes a row's links when they are written. */
void sitedata_build_simple(struct sitedata *d)
{
    const struct dbview *v = d->v;
    struct sitedata_simple *sd = &d->simple;
    size_t nrows = 0;
    size_t *index = xcalloc(v->nrows + 1, sizeof *index); /* view row -> simple row + 1 */
    /* per simple row, per wheel: its tag as a number (the same number for
     * the same tag), NO_TAG for a wheel without a link */
    uint32_t **tags = xcalloc(v->nrows + 1, sizeof *tags);
    size_t *ntags = xcalloc(v->nrows + 1, sizeof *ntags);
    struct strmap *tag_ids = strmap_new();
    size_t nids = 0;
    d->simple_rows = xcalloc(v->nrows + 1, sizeof *d->simple_rows);
    const char **names = xcalloc(v->nrows + 1, sizeof *names);
    size_t nnames = 0;
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        /* a build whose GPU code comes by an install extra (AMD's
         * whl-next torch) is left out: `pip install torch` from a GPU's
         * index would take it without the code; its device packages are
         * listed, each under its own name */
        if (row->status == VIEW_DECLARED || row->nwheels == 0 || row->nextras)
            continue;
        size_t at = nrows;
        d->simple_rows[at] = r;
        tags[at] = xcalloc(row->nwheels + 1, sizeof **tags);
        ntags[at] = row->nwheels;
        for (size_t k = 0; k < row->nwheels; k++) {
            tags[at][k] = NO_TAG;
            if (!sitedata_is_http(row->wheels[k].url))
                continue; /* no link (sitedata_href's NULL) */
            char *tag = link_tag(row->wheels[k].filename);
            size_t id;
            if (!strmap_get(tag_ids, tag, &id)) {
                id = nids++;
                strmap_put(tag_ids, tag, id);
            }
            tags[at][k] = (uint32_t)id;
            free(tag);
        }
        nrows++;
        index[r] = at + 1;
        size_t k;
        for (k = 0; k < nnames; k++)
            if (strcmp(names[k], row->project) == 0)
                break;
        if (k == nnames)
            names[nnames++] = row->project;
    }
    if (nnames > 1)
        qsort(names, nnames, sizeof *names, cmp_cstr);
    sd->projects = names;
    sd->nprojects = nnames;
    sd->nrows = nrows;
    sd->archs = xcalloc(d->grid.nccs + 1, sizeof *sd->archs);
    sd->narchs = d->grid.nccs;
    d->simple_picks = xcalloc(d->grid.nccs + 1, sizeof *d->simple_picks);
    struct candidate *cand = xcalloc(v->nrows + 1, sizeof *cand);
    /* the tags a (project, version) has listed: seen[id] == its number */
    size_t *seen = xcalloc(nids + 1, sizeof *seen), group = 0;
    for (size_t c = 0; c < d->grid.nccs; c++) {
        uint16_t cc = d->grid.ccs[c];
        sitedata_arch_dir(cc, sd->archs[c].arch, sizeof sd->archs[c].arch);
        sd->archs[c].cc = cc;
        struct sitedata_picks *pk = &d->simple_picks[c];
        size_t cap = 0;
        /* one (project, version) at a time: its rows are consecutive */
        for (size_t r = 0; r < v->nrows;) {
            size_t end = r + 1;
            while (end < v->nrows && strcmp(v->rows[end].project, v->rows[r].project) == 0 &&
                   strcmp(v->rows[end].version, v->rows[r].version) == 0)
                end++;
            size_t n = 0;
            group++;
            for (size_t q = r; q < end; q++)
                if (index[q] && grid_at(&d->grid, c, q)->verdict == COMPAT_NATIVE)
                    cand[n++] = (struct candidate){q, &v->rows[q]};
            if (n > 1)
                qsort(cand, n, sizeof *cand, candidate_cmp);
            /* Wheels that are not yanked first: pip passes over a yanked
             * file unless pinned to it, so a yanked wheel of the preferred
             * variant must not hide another variant's good one; a yanked
             * wheel is listed only for a tag nothing else has (PEP 592). */
            for (int pass = 0; pass < 2; pass++)
                for (size_t i = 0; i < n; i++) {
                    size_t sr = index[cand[i].row] - 1;
                    const struct dbview_row *vr = cand[i].vrow;
                    for (size_t k = 0; k < ntags[sr]; k++) {
                        uint32_t id = tags[sr][k];
                        if (id == NO_TAG || vr->wheels[k].yanked != pass || seen[id] == group)
                            continue; /* a preferred variant has a wheel for it */
                        seen[id] = group;
                        pk->v = xgrow(pk->v, &cap, pk->n + 1, sizeof *pk->v);
                        pk->v[pk->n++] = (struct sitedata_pick){(uint32_t)sr, (uint32_t)k};
                    }
                }
            r = end;
        }
    }
    free(seen);
    strmap_free(tag_ids);
    free(cand);
    for (size_t i = 0; i < nrows; i++)
        free(tags[i]);
    free(tags);
    free(ntags);
    free(index);
}

size_t sitedata_simple_nlinks(const struct sitedata *d, size_t i)
{
    return d->v->rows[d->simple_rows[i]].nwheels;
}

char *sitedata_simple_link_html(const struct sitedata *d, size_t i, size_t k)
{
    const struct record_wheel *w = &d->v->rows[d->simple_rows[i]].wheels[k];
    char *url = sitedata_wheel_href(w);
    if (!url)
        return NULL;               /* not an http(s) URL: no link */
    url[strcspn(url, "#")] = '\0'; /* as row_links */
    struct strbuf b = STRBUF_INIT;
    strbuf_adds(&b, "<a href=\"");
    if (!w->sha256 || strbuf_utf8_valid(w->sha256)) {
        sitedata_html_text(&b, url);
        if (w->sha256) {
            strbuf_adds(&b, "#sha256=");
            sitedata_html_text(&b, w->sha256);
        }
    }
    strbuf_addc(&b, '"');
    if (w->requires_python && strbuf_utf8_valid(w->requires_python)) {
        strbuf_adds(&b, " data-requires-python=\"");
        sitedata_html_text(&b, w->requires_python);
        strbuf_addc(&b, '"');
    }
    const char *reason;
    if (sitedata_wheel_yanked(w, &reason)) {
        strbuf_adds(&b, " data-yanked=\""); /* PEP 592: the reason, empty without one */
        sitedata_html_text(&b, reason);
        strbuf_addc(&b, '"');
    }
    strbuf_addc(&b, '>');
    sitedata_html_text(&b, w->filename);
    strbuf_adds(&b, "</a><br>\n");
    free(url);
    return strbuf_detach(&b, NULL);
}
