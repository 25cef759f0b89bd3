/*
 * grid: the verdict of every view row for every device the site covers,
 * computed once and read by every page and feed.
 *
 * The devices are the compute capabilities of the GPU table and every real
 * SASS architecture a row carries, and the AMD processors of the table;
 * each cell is compat_judge without a driver.  The cells are filled on two
 * threads (half of the devices each).
 */
#ifndef WHEELARCH_GRID_H
#define WHEELARCH_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "compat.h"
#include "dbview.h"
#include "tables.h"

struct grid {
    uint16_t *ccs; /* sorted ascending */
    size_t nccs;
    const struct dbview *v;
    /* The cells: nccs x v->nrows indexes into `results`, where each
     * distinct verdict (with its reason) is kept once.  A site has
     * thousands of distinct answers and millions of cells; a compat_result
     * is most of a kilobyte. */
    uint32_t *cell;
    struct compat_result *results;
    size_t nresults;
};

/* Computes the grid of view v (which must outlive it).  Free with
 * grid_free. */
void grid_build(struct grid *g, const struct dbview *v, const struct tables *t);
void grid_free(struct grid *g);

/* The verdict of row `row` for device cc, or NULL when cc is not covered. */
const struct compat_result *grid_get(const struct grid *g, uint16_t cc, size_t row);

/* The verdict of row `row` for the device at position c of g->ccs. */
static inline const struct compat_result *grid_at(const struct grid *g, size_t c, size_t row)
{
    return &g->results[g->cell[c * g->v->nrows + row]];
}

/* Whether a row can be judged for device cc at all: ROCm rows for AMD
 * processors, the others for NVIDIA GPUs. */
int grid_row_fits(const struct dbview_row *row, uint16_t cc);

/* One character per verdict for compact data: n native, j PTX JIT, p partial,
 * d driver too old, x unsupported. */
char grid_verdict_code(int verdict);
/* A symbol shown beside the label (meaning is never carried by colour alone). */
const char *grid_verdict_symbol(int verdict);

#endif
