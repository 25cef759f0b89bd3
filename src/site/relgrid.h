/*
 * relgrid: the release x variant grid of one device on one platform:
 * torch releases down (newest first), the GPU variants of the device's
 * vendor across (CUDA for NVIDIA, ROCm for AMD; newest first), a verdict
 * per cell.  A
 * GPU page shows it first, as a table (a symbol in every cell, never
 * colour alone; templates/relgrid.mustache over sitedata_grid's type),
 * with the page's recommendation marked; the device page shows every
 * release; api/v1/gpu/<device>.json carries it as JSON (feed_device).
 */
#ifndef WHEELARCH_RELGRID_H
#define WHEELARCH_RELGRID_H

#include <stdint.h>

#include "grid.h"

/* The releases a GPU page's grid shows: the newest, and the release its
 * answer names when that is older (the device page shows them all). */
#define RELGRID_PAGE_RELEASES 8

struct relgrid {
    const char **rel; /* releases shown, newest first (borrowed from the view) */
    const char **var; /* variants with a wheel in them, newest first (borrowed) */
    /* per variant: the vendor whose own index has it (AMD's whl-next),
     * borrowed from the tables, or NULL for PyTorch's */
    const char **var_vendor;
    size_t nrel, nvar;
    signed char *cell;    /* nrel x nvar, by release: enum compat_verdict, or -1 (no wheel) */
    const char **vers;    /* the version each cell judges (the newest patch), or NULL */
    size_t gap;           /* releases left out before rel[gap] (0: none) */
    size_t total;         /* releases there are */
    long mark;            /* the marked cell (release * nvar + variant), or -1 */
    const char *platform; /* the platform (borrowed from the caller) */
    int amd;              /* the device is AMD's: the variants are ROCm's */
};

/* The grid of device cc on platform: every release when max is 0, else
 * the newest max, plus the release of `mark_row` when that is older.
 * mark_row (a view row, or NULL) is the cell to mark: the recommendation;
 * its cell judges that row's own version (an answer pinned to a patch a
 * later patch of its release dropped).  Free with relgrid_free. */
void relgrid_make(const struct grid *g, uint16_t cc, const char *platform, size_t max,
                  const struct dbview_row *mark_row, struct relgrid *out);
void relgrid_free(struct relgrid *r);

#endif
