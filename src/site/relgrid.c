/*
 * relgrid: a device's release x variant grid, as data (pages
 * show it through templates/relgrid.mustache, sitedata_grid's type; the
 * device files carry it as JSON, feed_device's).
 */
#include "relgrid.h"

#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "vendorindex.h"
#include "xalloc.h"

/* Position of s in a list indexed by map (position + 1), or -1. */
static long find(const struct strmap *map, const char *s)
{
    size_t at;
    return strmap_get(map, s, &at) ? (long)at - 1 : -1;
}

static void add_unique(const char ***list, size_t *n, struct strmap *map, const char *s)
{
    if (find(map, s) >= 0)
        return;
    *list = xrealloc(*list, (*n + 1) * sizeof **list);
    (*list)[*n] = s;
    strmap_put(map, s, ++*n);
}

static void reindex(const char **list, size_t n, struct strmap **map)
{
    strmap_free(*map);
    *map = strmap_new();
    for (size_t i = 0; i < n; i++)
        strmap_put(*map, list[i], i + 1);
}

/* Newest release first, as in the matrix: the releases people install
 * come first. */
static int cmp_release(const void *a, const void *b)
{
    return dotver_cmp_str(*(const char *const *)b, *(const char *const *)a);
}

/* The newest CUDA (ROCm) first, as the releases: the builds people
 * install today are in view on a phone without scrolling. */
static int cmp_variant(const void *a, const void *b)
{
    return tables_variant_cmp(*(const char *const *)b, *(const char *const *)a);
}

/* The rows a grid shows: torch on the platform, the GPU variants of the
 * device's vendor. */
static int on_grid(const struct dbview_row *row, uint16_t cc, const char *platform)
{
    return strcmp(row->project, "torch") == 0 && strcmp(row->platform, platform) == 0 &&
           (row->cuda.n || tables_variant_rocm(row->variant, NULL)) && grid_row_fits(row, cc);
}

void relgrid_make(const struct grid *g, uint16_t cc, const char *platform, size_t max,
                  const struct dbview_row *mark_row, struct relgrid *out)
{
    memset(out, 0, sizeof *out);
    out->mark = -1;
    out->platform = platform;
    out->amd = cc >= TABLES_AMD_MIN;
    const struct dbview *v = g->v;
    const char **rel = NULL, **var = NULL;
    size_t nrel = 0, nvar = 0;
    struct strmap *relmap = strmap_new(), *varmap = strmap_new();
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        if (!on_grid(row, cc, platform))
            continue;
        add_unique(&rel, &nrel, relmap, row->release);
        add_unique(&var, &nvar, varmap, row->variant);
    }
    if (nrel > 1)
        qsort(rel, nrel, sizeof *rel, cmp_release);
    if (nvar > 1)
        qsort(var, nvar, sizeof *var, cmp_variant);
    reindex(var, nvar, &varmap);
    out->total = nrel;
    if (max && nrel > max) {
        /* the newest, and the answer's release when it is older */
        long at = -1;
        for (size_t x = max; mark_row && x < nrel && at < 0; x++)
            if (strcmp(rel[x], mark_row->release) == 0)
                at = (long)x;
        if (at >= 0) {
            rel[max] = rel[at];
            out->gap = max;
            nrel = max + 1;
        } else {
            nrel = max;
        }
    }
    reindex(rel, nrel, &relmap);
    signed char *cell = xmalloc(nrel * nvar + 1);
    /* per variant, the vendor whose index has it (a row of it is the vendor's) */
    const char **var_vendor = xcalloc(nvar + 1, sizeof *var_vendor);
    const char **vers = xcalloc(nrel * nvar + 1, sizeof *vers);
    memset(cell, -1, nrel * nvar + 1);
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        if (!on_grid(row, cc, platform))
            continue;
        long x = find(relmap, row->release), y = find(varmap, row->variant);
        if (y >= 0 && row->vendor)
            var_vendor[y] = row->vendor->vendor;
        if (x < 0 || y < 0)
            continue; /* a release the grid leaves out */
        size_t i = (size_t)x * nvar + (size_t)y;
        int is_mark = row == mark_row;
        if (is_mark)
            out->mark = (long)i;
        /* rows are newest version first: the first seen, but for the
         * marked row, which judges its own (pinned) version */
        if (cell[i] >= 0 && !is_mark)
            continue;
        const struct compat_result *res = grid_get(g, cc, r);
        cell[i] = (signed char)(res ? res->verdict : COMPAT_UNSUPPORTED);
        vers[i] = row->version;
    }
    /* Variants with no wheel among the releases shown get no column: with
     * the old releases cut, their variants (cu75 ...) would be empty. */
    size_t kept = 0;
    long mark = out->mark;
    out->mark = -1;
    for (size_t y = 0; y < nvar; y++) {
        int any = 0;
        for (size_t x = 0; x < nrel && !any; x++)
            any = cell[x * nvar + y] >= 0;
        if (!any)
            continue;
        for (size_t x = 0; x < nrel; x++) {
            cell[x * nvar + kept] = cell[x * nvar + y];
            vers[x * nvar + kept] = vers[x * nvar + y];
            if (mark == (long)(x * nvar + y))
                out->mark = (long)(x * nvar + kept);
        }
        var_vendor[kept] = var_vendor[y];
        var[kept++] = var[y];
    }
    /* close the columns up: rows of `kept` cells */
    for (size_t x = 0; x < nrel; x++) {
        memmove(&cell[x * kept], &cell[x * nvar], kept);
        memmove(&vers[x * kept], &vers[x * nvar], kept * sizeof *vers);
    }
    if (out->mark >= 0)
        out->mark = out->mark / (long)nvar * (long)kept + out->mark % (long)nvar;
    out->rel = rel;
    out->var = var;
    out->var_vendor = var_vendor;
    out->nrel = nrel;
    out->nvar = kept;
    out->cell = cell;
    out->vers = vers;
    strmap_free(relmap);
    strmap_free(varmap);
}

void relgrid_free(struct relgrid *r)
{
    free(r->rel);
    free(r->var);
    free(r->var_vendor);
    free(r->cell);
    free(r->vers);
    memset(r, 0, sizeof *r);
}
