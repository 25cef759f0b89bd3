/*
 * sitedata_grid: a device's release x variant grid (relgrid) as the
 * templates read it: templates/relgrid.mustache renders it for a GPU page
 * and a device page alike.
 */
#ifndef WHEELARCH_SITEDATA_GRID_H
#define WHEELARCH_SITEDATA_GRID_H

#include "relgrid.h"

struct tmpl_value;

/* g as an object (g is borrowed: it outlives the render).  Its fields:
 *   platform, platform_name, amd   which grid it is (the caption)
 *   wide, nvariants                more variants than a phone shows
 *   variants                       the columns' variant ids
 *   rows                           per release shown: release, gap (the
 *                                  releases left out come before it),
 *                                  colspan, and cells: empty (no wheel),
 *                                  code, symbol, rec (the recommendation) */
void sitedata_grid_value(const struct relgrid *g, struct tmpl_value *out);

#endif
