/*
 * timeline: the per-GPU release timeline as inline SVG.
 *
 * The SVG is inserted into the page raw ({{{svg}}} in gpu.mustache), so
 * every value in it that did not come from a constant here (releases,
 * versions and variant ids, which come from records) is escaped with
 * tmpl_html_escape on the way in.
 */
#include "timeline.h"

#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "strbuf.h"
#include "strmap.h"
#include "tmpl.h"
#include "xalloc.h"

#define CELL_W 34
#define CELL_H 22
#define LABEL_W 62
#define HEAD_H 26

/* Position of s in a list indexed by map (position + 1), or -1. */
static long find(const struct strmap *map, const char *s)
{
    size_t at;
    return strmap_get(map, s, &at) ? (long)at - 1 : -1;
}

static void add_unique(char ***list, size_t *n, struct strmap *map, const char *s)
{
    if (find(map, s) >= 0)
        return;
    *list = xrealloc(*list, (*n + 1) * sizeof **list);
    (*list)[*n] = (char *)s;
    strmap_put(map, s, ++*n);
}

/* After sorting, the map holds the new positions (those past keep drop). */
static void reindex(char **list, size_t n, size_t keep, struct strmap **map)
{
    strmap_free(*map);
    *map = strmap_new();
    for (size_t i = 0; i < n && i < keep; i++)
        strmap_put(*map, list[i], i + 1);
}

/* Newest release first, as in the matrix: on a phone the releases in view
 * are the ones people install. */
static int cmp_release(const void *a, const void *b)
{
    return dotver_cmp_str(*(char *const *)b, *(char *const *)a);
}

static int cmp_variant(const void *a, const void *b)
{
    return tables_variant_cmp(*(char *const *)a, *(char *const *)b);
}

/* s as SVG (XML) text or attribute content. */
static void add_text(struct strbuf *b, const char *s)
{
    tmpl_html_escape(b, s, strlen(s));
}

/* The rows the timeline shows: torch on Linux x86_64, the GPU variants of
 * the GPU's vendor (CUDA for NVIDIA, ROCm for AMD). */
static int on_timeline(const struct dbview_row *row, uint16_t cc)
{
    return strcmp(row->project, "torch") == 0 && strcmp(row->platform, "linux-x86_64") == 0 &&
           (row->cuda.n || tables_variant_rocm(row->variant, NULL)) && grid_row_fits(row, cc);
}

char *timeline_svg(const struct grid *g, uint16_t cc, size_t *shown, size_t *total)
{
    const struct dbview *v = g->v;
    char **rel = NULL, **var = NULL;
    size_t nrel = 0, nvar = 0;
    struct strmap *relmap = strmap_new(), *varmap = strmap_new();
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        if (!on_timeline(row, cc))
            continue;
        add_unique(&rel, &nrel, relmap, row->release);
        add_unique(&var, &nvar, varmap, row->variant);
    }
    if (nrel > 1)
        qsort(rel, nrel, sizeof *rel, cmp_release);
    if (nvar > 1)
        qsort(var, nvar, sizeof *var, cmp_variant);
    *total = nrel;
    if (nrel > TIMELINE_MAX_RELEASES)
        nrel = TIMELINE_MAX_RELEASES; /* the newest; the history table has all */
    *shown = nrel;
    reindex(rel, nrel, nrel, &relmap);
    reindex(var, nvar, nvar, &varmap);
    /* verdict per cell: -1 = no such wheel */
    int *cell = xmalloc((nrel * nvar + 1) * sizeof *cell);
    const char **vers = xcalloc(nrel * nvar + 1, sizeof *vers);
    for (size_t i = 0; i < nrel * nvar; i++)
        cell[i] = -1;
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        if (!on_timeline(row, cc))
            continue;
        long x = find(relmap, row->release), y = find(varmap, row->variant);
        if (x < 0 || y < 0)
            continue; /* an older release than the timeline shows */
        size_t i = (size_t)y * nrel + (size_t)x;
        /* rows are newest version first: keep the first seen */
        if (cell[i] >= 0)
            continue;
        const struct compat_result *res = grid_get(g, cc, r);
        cell[i] = res ? res->verdict : COMPAT_UNSUPPORTED;
        vers[i] = row->version;
    }
    /* Variants with no wheel among the releases shown get no row: with
     * the oldest releases cut, their variants (cu75 ...) would be empty. */
    size_t kept = 0;
    for (size_t y = 0; y < nvar; y++) {
        int any = 0;
        for (size_t x = 0; x < nrel && !any; x++)
            any = cell[y * nrel + x] >= 0;
        if (!any)
            continue;
        if (kept != y) {
            var[kept] = var[y];
            memmove(&cell[kept * nrel], &cell[y * nrel], nrel * sizeof *cell);
            memmove(&vers[kept * nrel], &vers[y * nrel], nrel * sizeof *vers);
        }
        kept++;
    }
    nvar = kept;
    char ccs[16], what[40];
    compat_cc_string(cc, ccs, sizeof ccs);
    snprintf(what, sizeof what, "%s%s", cc >= TABLES_AMD_MIN ? "" : "compute capability ", ccs);
    /* a column as wide as its longest label ("2.11" fits the default; the
     * headings are about 7 px a character) */
    int cw = CELL_W;
    for (size_t x = 0; x < nrel; x++) {
        int need = 7 * (int)strlen(rel[x]) + 6;
        if (need > cw && need < 200)
            cw = need;
    }
    int w = LABEL_W + (int)nrel * cw + 4, h = HEAD_H + (int)nvar * CELL_H + 4;
    struct strbuf b = STRBUF_INIT;
    strbuf_addf(&b,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" role=\"img\" "
                "aria-labelledby=\"tl-title tl-desc\" width=\"%d\" height=\"%d\" "
                "viewBox=\"0 0 %d %d\">\n<title id=\"tl-title\">torch releases on Linux x86_64 "
                "for ",
                w, h, w, h);
    add_text(&b, what);
    strbuf_addf(
        &b,
        "</title>\n<desc id=\"tl-desc\">One column per "
        "release, newest first, one row per %s variant. \xe2\x9c\x93 native code, \xe2\x89\x88 PTX "
        "compiled at first start, \xe2\x97\x90 some modules only, \xe2\x9c\x97 no code "
        "for this GPU; an empty cell means the release has no such variant.</desc>\n",
        cc >= TABLES_AMD_MIN ? "ROCm" : "CUDA");
    for (size_t x = 0; x < nrel; x++) {
        strbuf_addf(&b, "<text class=\"tl-head\" x=\"%d\" y=\"16\" text-anchor=\"middle\">",
                    LABEL_W + (int)x * cw + cw / 2);
        add_text(&b, rel[x]);
        strbuf_adds(&b, "</text>\n");
    }
    for (size_t y = 0; y < nvar; y++) {
        int ty = HEAD_H + (int)y * CELL_H;
        strbuf_addf(&b, "<text class=\"tl-label\" x=\"4\" y=\"%d\">", ty + 15);
        add_text(&b, var[y]);
        strbuf_adds(&b, "</text>\n");
        for (size_t x = 0; x < nrel; x++) {
            int c = cell[y * nrel + x];
            if (c < 0)
                continue;
            int tx = LABEL_W + (int)x * cw;
            strbuf_addf(&b, "<g class=\"tl-%c\"><title>torch ", grid_verdict_code(c));
            add_text(&b, vers[y * nrel + x]);
            strbuf_addc(&b, ' ');
            add_text(&b, var[y]);
            strbuf_adds(&b, ": ");
            add_text(&b, compat_verdict_label(c));
            strbuf_addf(&b,
                        "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"3\"/>"
                        "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text></g>\n",
                        tx + 2, ty + 2, cw - 4, CELL_H - 4, tx + cw / 2, ty + 15,
                        grid_verdict_symbol(c));
        }
    }
    strbuf_adds(&b, "</svg>");
    free(cell);
    free(vers);
    free(rel);
    free(var);
    strmap_free(relmap);
    strmap_free(varmap);
    return strbuf_detach(&b, NULL);
}
