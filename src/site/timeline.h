/*
 * timeline: a small SVG, no script, showing release by release which CUDA
 * variants of torch run on one compute capability (Linux x86_64): one
 * column per release, one row per variant, a glyph per cell (never colour
 * alone), a <title> per cell for details.
 */
#ifndef WHEELARCH_TIMELINE_H
#define WHEELARCH_TIMELINE_H

#include <stdint.h>

#include "grid.h"

/* At most this many columns: the newest releases (a GPU page's history
 * table lists every release). */
#define TIMELINE_MAX_RELEASES 40

/* A new SVG document (caller frees); *shown and *total are the releases
 * it shows and the releases there are. */
char *timeline_svg(const struct grid *g, uint16_t cc, size_t *shown, size_t *total);

#endif
