/*
 * sitedata_types: the site's data as one struct (struct sitedata), built
 * by sitedata.h, and the documents it holds: the simple indexes' picks,
 * the matrix pages, what each release changed.
 */
#ifndef WHEELARCH_SITEDATA_TYPES_H
#define WHEELARCH_SITEDATA_TYPES_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "grid.h"
#include "strbuf.h"
#include "target.h"

struct strmap;

#define SITE_API_VERSION "1.0"

/* How many platforms the site covers: Linux x86_64 and aarch64, Windows
 * x86_64 and on Arm (sitedata_platforms, sitedata_state.h). */
#define SITEDATA_NPLATFORMS 4

/* One link of a simple index: the link of wheel `link` of row `row` of
 * d->simple's rows. */
struct sitedata_pick {
    uint32_t row, link;
};

/* The simple indexes (simple/<arch>/, sitedata_simple.c): the projects
 * they list, sorted (borrowed from the view), how many rows they draw
 * links from (d->simple_rows: each one's view row), and per architecture
 * its folder ("sm_61", "gfx1100") and device code. */
struct sitedata_simple_arch {
    char arch[16];
    uint16_t cc;
};
struct sitedata_simple {
    const char **projects;
    size_t nprojects;
    size_t nrows;
    struct sitedata_simple_arch *archs; /* d->grid's devices, in its order */
    size_t narchs;
};

/* The links of one architecture's simple indexes, in page order. */
struct sitedata_picks {
    struct sitedata_pick *v;
    size_t n;
};

/* Releases per project the matrix page shows: the newest (matrix.json and
 * matrix.csv have them all). */
#define SITEDATA_MATRIX_RELEASES 40

/* A matrix page (sitedata_matrix.c): one table per platform and vendor
 * (CUDA and cpu, then ROCm), its rows the view rows shown (the project's
 * newest SITEDATA_MATRIX_RELEASES releases, the newest nightly of each),
 * its columns the grid's columns of that vendor, newest first. */
#define SITEDATA_MATRIX_TABLES (SITEDATA_NPLATFORMS * 2)
struct sitedata_matrix_table {
    const struct sitedata *d;
    char id[64], name[96]; /* "linux-x86_64-rocm", "Linux x86_64, AMD ROCm" */
    const char *axis;      /* "compute capability" or "AMD gfx processor" */
    size_t *rows, nrows;   /* view rows */
    char **pages;          /* each row's release page */
    size_t *cols, ncols;   /* grid columns */
};
struct sitedata_matrix {
    const struct sitedata *d;
    const char *project; /* borrowed */
    size_t at;           /* its place in d->matrix (0: torch, matrix/) */
    char *path, *href;   /* matrix/index.html and matrix/, or matrix/NAME/... */
    struct sitedata_matrix_table tables[SITEDATA_MATRIX_TABLES];
    int has_nightlies, older; /* older: some releases are left out */
};

/* What a release changed, variant by variant, against the one before
 * (sitedata_changes.c).  An item is a variant of this release (said: its
 * status, and whether it is new or the first in the data), or one the
 * previous release had and this one has not (state: "removed_variant",
 * "not_covered" or "no_arch_data"). */
struct sitedata_change_item {
    const char *variant, *platform; /* borrowed from the view */
    int said;                       /* status, new_variant and first_in_data are said */
    int status;                     /* enum dbview_status */
    int new_variant, first_in_data, changed;
    const char *state;      /* a gone variant's state, else NULL */
    const char *vendor;     /* a vendor's own build (AMD's whl-next): who, borrowed; else NULL */
    struct target *added;   /* targets this release has and the previous had not */
    struct target *dropped; /* and the other way round */
    size_t nadded, ndropped;
};
struct sitedata_change {
    const char *project, *release, *previous; /* borrowed from the view; previous may be NULL */
    char *id;                                 /* "torch-2.8": names the Atom entry */
    char *anchor;                             /* its HTML id on changes/ */
    char date[32];                            /* the release's date, if has_date */
    int has_date;
    struct sitedata_change_item *items;
    size_t nitems;
};

struct sitedata {
    const struct dbview *v;
    const struct tables *t;
    struct grid grid;
    struct query_order *query_order; /* query_order_new of the view, for its many queries */
    char *base_url;                  /* "" when none */
    json_t *meta;                    /* {"api-version", "data-as-of", "generator"} */
    json_t *variants;                /* api/v1/variants.json */
    struct strbuf csv;               /* api/v1/matrix.csv */
    struct sitedata_home *home;      /* index.html */
    struct sitedata_matrix *matrix;  /* matrix/ (torch), matrix/NAME/ */
    size_t nmatrix;
    const char **matrix_projects;         /* their projects (stack_projects) */
    struct sitedata_gpu_state *gpu_state; /* what the GPU pages share */
    struct sitedata_change *changes;      /* changes/ and changes.atom, newest first */
    size_t nchanges;
    struct sitedata_simple simple;       /* simple/<arch>/ */
    size_t *simple_rows;                 /* the view row of each of d->simple's rows */
    struct sitedata_picks *simple_picks; /* per architecture of d->simple: what it lists */
    struct strmap *newest;               /* project|release|variant|platform -> first row */
    size_t *newest_of;                   /* per view row: its group's newest row */
};

/* An answer of a device on one platform, as a GPU page shows it
 * (sitedata_gpu_page.h; its parts: sitedata_answer.c). */
struct answer_result;
struct sitedata_device;
struct sitedata_gpu_platform {
    const struct sitedata_device *dev;
    int p;                           /* its place in the platforms */
    const char *platform;            /* "linux-x86_64" */
    const struct answer_result *res; /* borrowed: never NULL */
    char *python_text[2];            /* the recommendation's and the fallback's Pythons in
                                        words ("3.10 to 3.14"), or NULL */
};

#endif
