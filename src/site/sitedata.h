/*
 * sitedata: the data the site is rendered from, and the JSON feed itself.
 *
 * Everything published is computed here once, as jansson values, from the
 * database view and the shipped tables: the feed documents under api/v1/
 * (matrix.json, gpus.json, index-table.json, variants.json, matrix.csv;
 * the JSON Schema they follow is templates/schema.json) and the data of
 * every page.  Pages are rendered from these
 * same values, so pages and feed cannot disagree.  Output is deterministic:
 * arrays are sorted, there are no reals and no wall-clock times ("data as
 * of" is the newest record's scan date).
 */
#ifndef WHEELARCH_SITEDATA_H
#define WHEELARCH_SITEDATA_H

#include <jansson.h>
#include <stdint.h>

#include "compat.h"
#include "dbview.h"
#include "error.h"
#include "grid.h"
#include "relgrid.h"
#include "strbuf.h"
#include "tables.h"

struct strmap;

#define SITE_API_VERSION "1.0"

/* One link of a simple index: the link of wheel `link` of row `row` of
 * d->simple's "rows". */
struct sitedata_pick {
    uint32_t row, link;
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
#define SITEDATA_MATRIX_TABLES 6
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
    json_t *gpus;                    /* api/v1/gpus.json */
    json_t *variants;                /* api/v1/variants.json */
    struct strbuf csv;               /* api/v1/matrix.csv */
    struct sitedata_home *home;      /* index.html */
    char *answers_js;                /* assets/answers.js: the home filter's answers */
    struct sitedata_matrix *matrix;  /* matrix/ (torch), matrix/NAME/ */
    size_t nmatrix;
    const char **matrix_projects;         /* their projects (stack_projects) */
    struct sitedata_gpu_state *gpu_state; /* what the GPU pages share */
    struct sitedata_change *changes;      /* changes/ and changes.atom, newest first */
    size_t nchanges;
    json_t *simple;                      /* simple/<arch>/: {projects, rows: [{project}],
                                            archs: [{arch, cc}]} */
    size_t *simple_rows;                 /* the view row of each of d->simple's rows */
    struct sitedata_picks *simple_picks; /* per entry of "archs": what it lists */
    struct strmap *newest;               /* project|release|variant|platform -> first row */
    size_t *newest_of;                   /* per view row: its group's newest row */
};

/* Builds everything.  base_url (may be NULL) only changes absolute URLs.
 * Caller frees with sitedata_free. */
int sitedata_build(const struct dbview *v, const struct tables *t, const char *base_url,
                   struct sitedata *d, struct wa_error *err);

/* sitedata_build in steps, for a caller that uses two threads: begin
 * computes what both halves read (the grid, the newest rows); then the
 * feed half (csv, variants, simple) and the page half
 * (gpus and what the GPU pages share, home, matrix_pages, changes) only read
 * it and each other's nothing, so they may run at the same time. */
void sitedata_begin(const struct dbview *v, const struct tables *t, const char *base_url,
                    struct sitedata *d);
void sitedata_build_feeds(struct sitedata *d);
void sitedata_build_pages(struct sitedata *d);
/* The feed half one document at a time, so that a caller can write each
 * and free it before the next is made: d->csv, a new variants.json
 * (caller owns the reference), and d->simple with what the simple indexes
 * read. */
void sitedata_build_csv(struct sitedata *d);
/* api/v1/index-table.json, appended to out one build at a time. */
void sitedata_index_table_json(const struct sitedata *d, struct strbuf *out);
json_t *sitedata_build_variants(struct sitedata *d);
void sitedata_build_simple(struct sitedata *d);
void sitedata_free(struct sitedata *d);

/* api/v1/matrix.json, appended to out row by row (the whole matrix is
 * never a JSON tree in memory). */
void sitedata_matrix_json(const struct sitedata *d, struct strbuf *out);

/* The links of row i of d->simple's "rows", one per wheel of its view row
 * (null for a wheel with no http(s) URL): {filename, href, url, sha256,
 * requires_python, yanked, upload_time}.  Made when asked; caller frees. */
json_t *sitedata_simple_links(const struct sitedata *d, size_t i);
/* How many links row i of d->simple has (its wheels), and link k's line
 * of a PEP 503 page ("<a href=...>name</a><br>\n"; caller frees), or NULL
 * when the wheel's URL is not http(s) (the JSON's null). */
size_t sitedata_simple_nlinks(const struct sitedata *d, size_t i);
char *sitedata_simple_link_html(const struct sitedata *d, size_t i, size_t k);

/* The GPU pages (gpu/<slug>/), one per GPU name: how many, the GPU of
 * page i, and the Python versions every page's switch offers (oldest
 * first; borrowed). */
struct gpu;
size_t sitedata_gpu_count(const struct sitedata *d);
const struct gpu *sitedata_gpu_of_page(const struct sitedata *d, size_t i);
size_t sitedata_gpu_npythons(const struct sitedata *d);
const char *sitedata_gpu_python(const struct sitedata *d, size_t k);

/* A GPU page's data, typed: the GPU, its device's answers per platform
 * (borrowed from what the pages share) and what the page derives from
 * them.  The templates read it through sitedata_gpu_page_value; no JSON
 * tree is made, but for the driver box's script, which is JSON. */
struct answer_result;
struct answer_guidance;
struct sitedata_device;
struct sitedata_gpu_platform {
    const struct sitedata_device *dev;
    int p;                           /* its place in the platforms */
    const char *platform;            /* "linux-x86_64" */
    const struct answer_result *res; /* borrowed: never NULL */
    char *python_text[2];            /* the recommendation's and the fallback's Pythons in
                                        words ("3.10 to 3.14"), or NULL */
};
struct sitedata_gpu_page {
    const struct sitedata *d;
    const struct gpu *g;
    const struct sitedata_device *dev;
    char device[16];                  /* "6.1" or "gfx1100" */
    char gfx_target[TARGET_NAME_MAX]; /* AMD: with its feature modes ("gfx90a:xnack-") */
    char *page;                       /* gpu/<slug>/ */
    char *other_text;                 /* the other chips sold under the name in words, or NULL */
    char *description;                /* the one-line answer for search results */
    const char *patch_pin; /* an answer pinned to a patch the timeline does not show, or NULL */
    const struct answer_guidance *guidance; /* or NULL */
    struct sitedata_gpu_platform plats[3];  /* the platforms with an answer, in order */
    size_t nplats;
    int driver_box; /* the driver box is shown */
};
/* Makes page i (< sitedata_gpu_count) into *p; free with
 * sitedata_gpu_page_free. */
void sitedata_gpu_page_make(const struct sitedata *d, size_t i, struct sitedata_gpu_page *p);
void sitedata_gpu_page_free(struct sitedata_gpu_page *p);
/* The page as a template value (borrowing p, which must outlive it). */
struct tmpl_value;
void sitedata_gpu_page_value(const struct sitedata_gpu_page *p, struct tmpl_value *out);

/* The device slots (sitedata_device_count of them) and the device in slot
 * k when it has a device page (device/<id>/) and feed file
 * (api/v1/gpu/<id>.json), else NULL; the device whose page stands for
 * dev (dev itself, or for an Arm-host device its code's). */
size_t sitedata_device_count(const struct sitedata *d);
/* The history's groups ({{#releases}} of gpu_releases). */
void sitedata_device_history_releases(const struct sitedata_device *dev, struct tmpl_value *out);
const struct sitedata_device *sitedata_device_at(const struct sitedata *d, size_t k);
const struct sitedata_device *sitedata_device_page_of(const struct sitedata *d,
                                                      const struct sitedata_device *dev);
/* The path of dev's feed file in the site ("api/v1/gpu/6.1.json": its
 * page's device's), owned by the caller. */
char *sitedata_device_file(const struct sitedata *d, const struct sitedata_device *dev);

/* A device's page (device/<id>/), typed: every release of its grid per
 * platform and the history of every project; and its feed file
 * (api/v1/gpu/<id>.json, a new tree).  sitedata_device_at gives the
 * devices that have one. */
struct sitedata_device_page {
    const struct sitedata *d;
    const struct sitedata_device *dev;
    int amd;
    char *path;       /* device/<id>/ */
    char *title;      /* "Compute capability 6.1", "AMD gfx1100" */
    char **gpu_pages; /* per GPU of the device, its page (gpu/<slug>/) */
    /* per platform (sitedata_platforms' order): every release's grid, empty
     * where the platform does not apply; the page shows those with rows */
    struct relgrid grid[3];
    char *html[3]; /* the grids with rows as tables, the first nplat */
    const char *plat[3];
    size_t nplat;
};
const char *sitedata_device_id(const struct sitedata_device *dev); /* "6.1" */
void sitedata_device_page_make(const struct sitedata *d, const struct sitedata_device *dev,
                               struct sitedata_device_page *p);
void sitedata_device_page_free(struct sitedata_device_page *p);
void sitedata_device_page_value(const struct sitedata_device_page *p, struct tmpl_value *out);
/* The device's feed file, from its page's data (the same grids). */
json_t *sitedata_device_json(const struct sitedata_device_page *p);

/* The home page's data, typed: the GPUs by segment with their status at
 * a glance, and the three newest torch releases with their variants. */
struct sitedata_home_gpu {
    const struct gpu *g;
    const struct sitedata_device *dev;
    char *page;               /* gpu/<slug>/ */
    char device[16];          /* "6.1", "gfx1100" */
    char *other;              /* the other chips' device codes ("7.0 7.5"), or NULL */
    char glance[80];          /* the newest release with native code, at a glance */
    const char *glance_class; /* its class: n(ewest), o(lder), j(it), x (none), t (Jetson) */
};
struct sitedata_home_segment {
    const char *id, *title;
    struct sitedata_home_gpu *gpus;
    size_t n;
};
struct sitedata_home_release {
    const struct dbview_row *row; /* its newest version's first row */
    char *page;
    const struct dbview_row **variants; /* its Linux x86_64 rows */
    char **ranges;                      /* per variant: "sm_50 … sm_120", "" none */
    size_t n;
};
struct sitedata_home {
    struct sitedata_home_segment *segments;
    size_t nsegments;
    struct sitedata_home_release releases[3];
    size_t nreleases;
    size_t gpu_count;
    const struct sitedata *d; /* borrowed: the Python box's choices are the GPU pages' */
};
void sitedata_home_free(struct sitedata_home *h);
void sitedata_home_value(const struct sitedata_home *h, struct tmpl_value *out);

/* The changes page's data (d->changes), and the Atom feed's: the feed's
 * own fields (borrowed) and, per entry, its id, link and time (made by the
 * caller, one per change, borrowed).  Template values borrowing d and f. */
struct tmpl_value;
struct sitedata_atom {
    const struct sitedata *d;
    const char *self, *alternate, *feed_id, *updated;
    char **entry_ids, **links, **times;
};
void sitedata_changes_value(const struct sitedata *d, struct tmpl_value *out);
/* A matrix page as a template value (borrowing m). */
void sitedata_matrix_value(const struct sitedata_matrix *m, struct tmpl_value *out);
void sitedata_atom_value(const struct sitedata_atom *f, struct tmpl_value *out);

/* One release page's data (release/<project>/<version>/), typed: the view
 * rows of one project and version (borrowed from the view) and what the
 * page derives from each.  The templates read it through
 * sitedata_release_value; no JSON tree is made. */
struct sitedata_release_row {
    const struct dbview_row *row;
    const struct tables *tables;
    char cuda[16];                   /* "12.8" when the variant is CUDA's */
    const struct minor_compat *mc;   /* its driver floors, or NULL */
    char *index_href;                /* the index URL as a link, or NULL */
    char *section_id, *wheels_id;    /* ids unique in the page */
    char **table_ids;                /* per binary */
    size_t **order;                  /* per binary: its targets' places in target order */
    struct dbview_citation citation; /* of the declared row's source, if has_citation */
    int has_citation;
    char **hrefs, **pages; /* per wheel: its link, the wheel page its line links to (or NULL) */
    char *inferred_page;   /* the one wheel the inferred ones come from, or NULL */
};
struct sitedata_release {
    const struct sitedata *d;
    const char *project, *version, *release; /* borrowed from the view */
    char *path;                              /* release/<project>/<version>/ */
    struct sitedata_release_row *rows;
    size_t n;
};
/* The first view row after the page that starts at row `at` (the rows of
 * one project and version are adjacent): at < v->nrows. */
size_t sitedata_release_end(const struct dbview *v, size_t at);
/* Makes the page of view rows [at, end) (end from sitedata_release_end,
 * at < end) into *p.  One page at a time, so a site's pages never all sit
 * in memory; free each with sitedata_release_free. */
void sitedata_release_make(const struct sitedata *d, size_t at, size_t end,
                           struct sitedata_release *p);
void sitedata_release_free(struct sitedata_release *p);
/* The page as a template value (borrowing p, which must outlive it). */
struct tmpl_value;
void sitedata_release_value(const struct sitedata_release *p, struct tmpl_value *out);

/* A scanned wheel's page data, typed: the record (borrowed) and what the
 * page derives from it.  The templates read it through
 * sitedata_wheel_value, field by field; no JSON tree is made. */
struct sitedata_wheel {
    const struct record *r;
    char *href;              /* the wheel's URL as a link, or NULL (not http(s)) */
    char *release_page;      /* release/<project>/<version>/ */
    char *inferred_page;     /* an inferred wheel: its source's page, else NULL */
    const char *variant_how; /* how the variant was decided, in words ("" none) */
    size_t **order;          /* per binary: its targets' places in target order */
};
void sitedata_wheel_make(const struct record *r, struct sitedata_wheel *w);
void sitedata_wheel_free(struct sitedata_wheel *w);
/* The page as a template value (borrowing w, which must outlive it). */
struct tmpl_value;
void sitedata_wheel_value(const struct sitedata_wheel *w, struct tmpl_value *out);

/* A safe path segment for a name that came from an index or a record,
 * and a different one for every name (injective), so two releases never
 * share a page: [A-Za-z0-9.-] is kept, every other byte (the '_' of the
 * escape included) becomes "_xx" in lowercase hex, as does a leading '.';
 * "" becomes "_".  "2.9.0" -> "2.9.0", "1!2.0" -> "1_212.0", "1_2.0" ->
 * "1_5f2.0", ".." -> "_2e.", "a/b" -> "a_2fb".  Caller frees. */
char *sitedata_segment(const char *s);

/* The one place each page kind's URL path is made, relative to the site's
 * root (pages, feeds, links and the SQLite feed all take it from here):
 *   a GPU's page            "gpu/<slug>/"
 *   a wheel's page          "wheel/<key>.html"
 *   a release's page        "release/<project>/<version>/"
 *   a device's page         "device/<id>/"
 *   a device's feed file    "api/v1/gpu/<id>.json"
 * Names that came from an index or a record go through sitedata_segment;
 * a device id is wheelarch's own ("8.6", "gfx1100"), used as it is.
 * Caller frees. */
char *sitedata_gpu_path(const char *slug);
char *sitedata_wheel_path(const char *key);
char *sitedata_release_path(const char *project, const char *version);
char *sitedata_device_path(const char *id);
char *sitedata_device_feed_path(const char *id);

/* An HTML id made from s: [A-Za-z0-9_-] kept, each run of other bytes
 * one '-', "x" for an empty result ("torch-2.9" -> "torch-2-9").  Not
 * unique by itself: page data adds "-2", "-3" where two would clash.
 * Caller frees. */
char *sitedata_id(const char *s);

/* url as an href: NULL unless it is an http(s) URL; bytes a URL may not
 * hold (controls, space, non-ASCII, " < > \ ^ ` { | } and a % not starting
 * an escape) percent-encoded.  HTML escaping is still the template's job.
 * Caller frees. */
char *sitedata_href(const char *url);
/* Whether sitedata_href(url) is not NULL, without making it. */
int sitedata_is_http(const char *url);

/* "sm_61" for 61, "gfx1100" for an AMD device code. */
void sitedata_arch_dir(uint16_t cc, char *buf, size_t n);

#endif
