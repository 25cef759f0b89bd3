/*
 * grid: every row's verdict for every device.
 */
#include "grid.h"

#include <stdlib.h>
#include <string.h>

#include "workers.h"
#include "xalloc.h"

char grid_verdict_code(int v)
{
    static const char codes[] = "njpdx";
    return v >= 0 && v < COMPAT_VERDICTS ? codes[v] : '?';
}

const char *grid_verdict_symbol(int v)
{
    static const char *const s[] = {"\xe2\x9c\x93", "\xe2\x89\x88", "\xe2\x97\x90", "\xe2\x9a\xa0",
                                    "\xe2\x9c\x97"}; /* ✓ ≈ ◐ ⚠ ✗ */
    return v >= 0 && v < COMPAT_VERDICTS ? s[v] : "?";
}

int grid_row_fits(const struct dbview_row *row, uint16_t cc)
{
    int rocm = tables_variant_rocm(row->variant, NULL);
    return cc >= TABLES_AMD_MIN ? rocm : !rocm;
}

static void add_cc(uint16_t **ccs, size_t *n, size_t *cap, uint16_t cc)
{
    for (size_t i = 0; i < *n; i++)
        if ((*ccs)[i] == cc)
            return;
    *ccs = xgrow(*ccs, cap, *n + 1, sizeof **ccs);
    (*ccs)[(*n)++] = cc;
}

static int cmp_u16(const void *a, const void *b)
{
    uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;
    return x < y ? -1 : x > y;
}

static void grid_shape(struct grid *g, const struct dbview *v, const struct tables *t)
{
    size_t cap = 0;
    memset(g, 0, sizeof *g);
    g->v = v;
    for (size_t i = 0; i < t->ngpus; i++)
        add_cc(&g->ccs, &g->nccs, &cap, t->gpus[i].cc);
    for (size_t r = 0; r < v->nrows; r++)
        for (size_t k = 0; k < v->rows[r].nsass; k++)
            if (!v->rows[r].sass[k].suffix && v->rows[r].sass[k].arch >= 30 &&
                v->rows[r].sass[k].arch < 200)
                add_cc(&g->ccs, &g->nccs, &cap, v->rows[r].sass[k].arch);
    if (g->nccs > 1)
        qsort(g->ccs, g->nccs, sizeof *g->ccs, cmp_u16);
    g->res = xcalloc(g->nccs * (v->nrows ? v->nrows : 1), sizeof *g->res);
    /* filled by grid_fill */
}

const struct compat_result *grid_get(const struct grid *g, uint16_t cc, size_t row)
{
    for (size_t c = 0; c < g->nccs; c++)
        if (g->ccs[c] == cc)
            return &g->res[c * g->v->nrows + row];
    return NULL;
}

/* The grid on two threads (a half of the compute capabilities each): each
 * cell is independent and the cells are most of the shared work. */
struct grid_half {
    struct grid *g;
    const struct tables *t;
    size_t from, to;
};

static void grid_fill(void *ud, unsigned i)
{
    struct grid_half *h = (struct grid_half *)ud + i;
    const struct dbview *v = h->g->v;
    for (size_t c = h->from; c < h->to; c++)
        for (size_t r = 0; r < v->nrows; r++) {
            const struct dbview_row *row = &v->rows[r];
            struct compat_query q = {h->g->ccs[c],
                                     0,
                                     {0},
                                     strncmp(row->platform, "windows", 7) == 0 ? TABLES_WINDOWS
                                                                               : TABLES_LINUX};
            compat_judge(h->t, &q, &row->code, &row->cuda, &h->g->res[c * v->nrows + r]);
        }
}

void grid_build(struct grid *g, const struct dbview *v, const struct tables *t)
{
    grid_shape(g, v, t);
    struct grid_half halves[2] = {{g, t, 0, g->nccs / 2}, {g, t, g->nccs / 2, g->nccs}};
    workers_run(2, grid_fill, halves);
}

void grid_free(struct grid *g)
{
    free(g->ccs);
    free(g->res);
    memset(g, 0, sizeof *g);
}
