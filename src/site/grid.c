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
    g->cell = xcalloc(g->nccs * (v->nrows ? v->nrows : 1), sizeof *g->cell);
    /* filled by grid_fill */
}

const struct compat_result *grid_get(const struct grid *g, uint16_t cc, size_t row)
{
    for (size_t c = 0; c < g->nccs; c++)
        if (g->ccs[c] == cc)
            return grid_at(g, c, row);
    return NULL;
}

/* The distinct results one thread found: an open-addressing set of
 * indexes into `v`, hashed on the fields that vary. */
struct pool {
    struct compat_result *v;
    size_t n, cap;
    uint32_t *slot; /* index + 1, 0 = empty */
    size_t nslots;  /* a power of two, at least twice n */
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

static uint64_t result_hash(const struct compat_result *r)
{
    uint64_t h = fnv(14695981039346656037ULL, &r->verdict, sizeof r->verdict);
    h = fnv(h, r->reason, strlen(r->reason));
    h = fnv(h, r->min_driver, strlen(r->min_driver));
    h = fnv(h, r->full_driver, strlen(r->full_driver));
    size_t counts[4] = {r->modules, r->native_modules, r->ptx_modules, r->none_modules};
    return fnv(h, counts, sizeof counts);
}

/* The index of r in the pool, added when new.  compat_judge zeroes the
 * result first, so equal answers are equal bytes. */
static uint32_t pool_add(struct pool *p, const struct compat_result *r)
{
    if (2 * (p->n + 1) > p->nslots) {
        size_t ns = p->nslots ? 2 * p->nslots : 1024;
        uint32_t *slot = xcalloc(ns, sizeof *slot);
        for (size_t i = 0; i < p->n; i++) {
            size_t k = (size_t)result_hash(&p->v[i]) & (ns - 1);
            while (slot[k])
                k = (k + 1) & (ns - 1);
            slot[k] = (uint32_t)i + 1;
        }
        free(p->slot);
        p->slot = slot;
        p->nslots = ns;
    }
    size_t k = (size_t)result_hash(r) & (p->nslots - 1);
    for (; p->slot[k]; k = (k + 1) & (p->nslots - 1))
        if (memcmp(&p->v[p->slot[k] - 1], r, sizeof *r) == 0)
            return p->slot[k] - 1;
    p->v = xgrow(p->v, &p->cap, p->n + 1, sizeof *p->v);
    p->v[p->n] = *r;
    p->slot[k] = (uint32_t)++p->n;
    return (uint32_t)(p->n - 1);
}

/* Rows judged alike for every device (dbview_row_classes): only the first
 * row of each class is judged; the others copy its cells. */
struct classes {
    size_t *cls, *first;
    size_t n;
};

static void classes_find(struct classes *k, const struct dbview *v)
{
    const struct dbview_row **rows = xmalloc((v->nrows ? v->nrows : 1) * sizeof *rows);
    for (size_t i = 0; i < v->nrows; i++)
        rows[i] = &v->rows[i];
    k->cls = xmalloc((v->nrows ? v->nrows : 1) * sizeof *k->cls);
    k->first = xmalloc((v->nrows ? v->nrows : 1) * sizeof *k->first);
    k->n = dbview_row_classes(rows, v->nrows, k->cls, k->first);
    free(rows);
}

/* The grid on two threads (a half of the compute capabilities each): each
 * cell is independent and the cells are most of the shared work. */
struct grid_half {
    struct grid *g;
    const struct tables *t;
    const struct classes *k;
    size_t from, to;
    struct pool pool;
};

static void grid_fill(void *ud, unsigned i)
{
    struct grid_half *h = (struct grid_half *)ud + i;
    const struct dbview *v = h->g->v;
    struct compat_result r;
    for (size_t c = h->from; c < h->to; c++)
        for (size_t j = 0; j < h->k->n; j++) {
            size_t row = h->k->first[j];
            const struct dbview_row *x = &v->rows[row];
            struct compat_query q = {
                h->g->ccs[c], 0, {0}, tables_platform_os(x->platform), TARGET_FEAT_ANY};
            compat_judge(h->t, &q, &x->code, &x->cuda, &r);
            h->g->cell[c * v->nrows + row] = pool_add(&h->pool, &r);
        }
}

void grid_build(struct grid *g, const struct dbview *v, const struct tables *t)
{
    grid_shape(g, v, t);
    struct classes k;
    classes_find(&k, v);
    struct grid_half halves[2] = {{g, t, &k, 0, g->nccs / 2, {0}},
                                  {g, t, &k, g->nccs / 2, g->nccs, {0}}};
    workers_run(2, grid_fill, halves);
    /* one array: the second half's indexes move past the first's results */
    struct pool *a = &halves[0].pool, *b = &halves[1].pool;
    g->nresults = a->n + b->n;
    g->results = xmalloc((g->nresults ? g->nresults : 1) * sizeof *g->results);
    if (a->n)
        memcpy(g->results, a->v, a->n * sizeof *a->v);
    if (b->n)
        memcpy(g->results + a->n, b->v, b->n * sizeof *b->v);
    for (size_t c = halves[1].from; c < halves[1].to; c++)
        for (size_t j = 0; j < k.n; j++)
            g->cell[c * v->nrows + k.first[j]] += (uint32_t)a->n;
    /* every other row: its class's cells */
    for (size_t c = 0; c < g->nccs; c++)
        for (size_t row = 0; row < v->nrows; row++)
            if (k.first[k.cls[row]] != row)
                g->cell[c * v->nrows + row] = g->cell[c * v->nrows + k.first[k.cls[row]]];
    for (int h = 0; h < 2; h++) {
        free(halves[h].pool.v);
        free(halves[h].pool.slot);
    }
    free(k.cls);
    free(k.first);
}

void grid_free(struct grid *g)
{
    free(g->ccs);
    free(g->cell);
    free(g->results);
    memset(g, 0, sizeof *g);
}
