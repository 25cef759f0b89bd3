/*
 * sitedata_matrix: the matrix pages' data, typed.  One page per project
 * (torch's is matrix/, the others' matrix/NAME/), one table per platform
 * and vendor: CUDA (and cpu) rows against compute capabilities, ROCm rows
 * against gfx processors, each cell the grid's verdict.  The templates
 * read it through tmpl_types; no JSON tree is built.
 */
#include "sitedata_matrix.h"
#include "sitedata_state.h"

#include <stdlib.h>
#include <string.h>

#include "stack.h"
#include "strmap.h"
#include "tmpl.h"
#include "xalloc.h"
#include "sitedata_text.h"
#include "sitedata_types.h"

/* ---- making the pages ------------------------------------------------------------ */

/* Whether view row r is among its project's newest `keep` releases: rows
 * are newest version first within a project, so counting the releases
 * seen so far tells. */
static void newest_releases(const struct dbview *v, size_t keep, unsigned char *in)
{
    const char *project = NULL;
    size_t seen = 0;
    struct strmap *rels = strmap_new();
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        if (!project || strcmp(project, row->project)) {
            strmap_free(rels);
            rels = strmap_new();
            project = row->project;
            seen = 0;
        }
        size_t one;
        if (!strmap_get(rels, row->release, &one)) {
            strmap_put(rels, row->release, 1);
            seen++;
        }
        in[r] = seen <= keep;
    }
    strmap_free(rels);
}

static void make_table(const struct sitedata *d, const unsigned char *shown, const char *project,
                       int p, int amd, struct sitedata_matrix_table *t, size_t *nightlies)
{
    const struct dbview *v = d->v;
    t->d = d;
    snprintf(t->id, sizeof t->id, "%s%s", sitedata_platforms[p], amd ? "-rocm" : "");
    snprintf(t->name, sizeof t->name, "%s%s", sitedata_platform_name(sitedata_platforms[p]),
             amd ? ", AMD ROCm" : "");
    t->axis = amd ? "AMD gfx processor" : "compute capability";
    /* newest architectures first: on a phone they are the columns in
     * view, and at 1280 px Blackwell is not behind a scroll */
    t->cols = xmalloc((d->grid.nccs ? d->grid.nccs : 1) * sizeof *t->cols);
    for (size_t c = d->grid.nccs; c-- > 0;)
        if ((d->grid.ccs[c] >= TABLES_AMD_MIN) == amd)
            t->cols[t->ncols++] = c;
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        if (!shown[r] || strcmp(row->project, project) != 0 ||
            strcmp(row->platform, sitedata_platforms[p]) != 0 ||
            tables_variant_rocm(row->variant, NULL) != amd)
            continue;
        /* of a release's nightlies, the newest (the others are on the
         * release pages) */
        if (dbview_is_nightly(row->version) && !sitedata_is_newest(d, r))
            continue;
        *nightlies += dbview_is_nightly(row->version);
        t->rows = xrealloc(t->rows, (t->nrows + 1) * sizeof *t->rows);
        t->pages = xrealloc(t->pages, (t->nrows + 1) * sizeof *t->pages);
        t->rows[t->nrows] = r;
        t->pages[t->nrows++] = sitedata_release_path(row->project, row->version);
    }
}

void sitedata_build_matrix_page(struct sitedata *d)
{
    const struct dbview *v = d->v;
    size_t n;
    const char **names = stack_projects(v, 1, &n);
    d->matrix = xcalloc(n ? n : 1, sizeof *d->matrix);
    d->nmatrix = n;
    d->matrix_projects = names;
    unsigned char *shown = xcalloc(v->nrows + 1, 1);
    newest_releases(v, SITEDATA_MATRIX_RELEASES, shown);
    for (size_t i = 0; i < n; i++) {
        struct sitedata_matrix *m = &d->matrix[i];
        m->d = d;
        m->project = names[i];
        m->at = i;
        char *seg = sitedata_segment(names[i]);
        m->path = i == 0 ? xstrdup("matrix/index.html") : xasprintf("matrix/%s/index.html", seg);
        m->href = i == 0 ? xstrdup("matrix/") : xasprintf("matrix/%s/", seg);
        free(seg);
        size_t nightlies = 0;
        for (int p = 0; p < SITEDATA_NPLATFORMS; p++)
            for (int amd = 0; amd < 2; amd++)
                make_table(d, shown, names[i], p, amd, &m->tables[p * 2 + amd], &nightlies);
        m->has_nightlies = nightlies > 0;
        for (size_t r = 0; r < v->nrows; r++)
            m->older |= !shown[r] && strcmp(v->rows[r].project, names[i]) == 0;
    }
    free(shown);
}

void sitedata_matrix_free(struct sitedata *d)
{
    for (size_t i = 0; i < d->nmatrix; i++) {
        struct sitedata_matrix *m = &d->matrix[i];
        for (size_t k = 0; k < SITEDATA_MATRIX_TABLES; k++) {
            struct sitedata_matrix_table *t = &m->tables[k];
            for (size_t r = 0; r < t->nrows; r++)
                free(t->pages[r]);
            free(t->pages);
            free(t->rows);
            free(t->cols);
        }
        free(m->path);
        free(m->href);
    }
    free(d->matrix);
    free(d->matrix_projects);
    d->matrix = NULL;
    d->nmatrix = 0;
}

/* ---- the types the templates read ---------------------------------------------- */

#define IS(want) sitedata_name_is(name, len, want)

/* A cell: at is its verdict. */
static void cell_get(const struct tmpl_value *v, const char *name, size_t len,
                     struct tmpl_value *out)
{
    int k = (int)v->at;
    out->kind = TMPL_MISSING;
    if (IS("code"))
        tmpl_value_strf(out, "%c", grid_verdict_code(k));
    else if (IS("symbol"))
        tmpl_value_str(grid_verdict_symbol(k), out);
    else if (IS("label"))
        tmpl_value_str(compat_verdict_label(k), out);
}

static const struct tmpl_type cell_type = {cell_get, NULL, NULL, NULL, 0};

/* A row's verdict in column c of its table, or -1 when the grid has none
 * (such a cell is left out, as it always was). */
static int verdict_at(const struct sitedata_matrix_table *t, const struct sitedata *d, size_t row,
                      size_t col)
{
    int k = grid_at(&d->grid, t->cols[col], t->rows[row])->verdict;
    return k >= 0 && k < COMPAT_VERDICTS ? k : -1;
}

/* A row's cells: p is the table, at the row; the table's page is found
 * through its sitedata (struct sitedata_matrix_table.d). */
static size_t cells_len(const struct tmpl_value *v)
{
    const struct sitedata_matrix_table *t = v->p;
    size_t n = 0;
    for (size_t c = 0; c < t->ncols; c++)
        n += verdict_at(t, t->d, v->at, c) >= 0;
    return n;
}

static void cells_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    const struct sitedata_matrix_table *t = v->p;
    for (size_t c = 0; c < t->ncols; c++) {
        int k = verdict_at(t, t->d, v->at, c);
        if (k >= 0 && i-- == 0) {
            static const char cell;
            tmpl_value_typed(TMPL_OBJECT, &cell_type, &cell, (size_t)k, out);
            return;
        }
    }
}

static const struct tmpl_type cells_type = {NULL, cells_len, cells_at, NULL, 0};

/* A row: p is the table, at the row. */
static void row_get(const struct tmpl_value *v, const char *name, size_t len,
                    struct tmpl_value *out)
{
    const struct sitedata_matrix_table *t = v->p;
    const struct dbview_row *row = &t->d->v->rows[t->rows[v->at]];
    out->kind = TMPL_MISSING;
    if (IS("project"))
        tmpl_value_str(row->project, out);
    else if (IS("version"))
        tmpl_value_str(row->version, out);
    else if (IS("variant"))
        tmpl_value_str(row->variant, out);
    else if (IS("status"))
        tmpl_value_str(dbview_status_name(row->status), out);
    else if (IS("confidence"))
        tmpl_value_str(dbview_row_confidence(row), out);
    else if (IS("page"))
        tmpl_value_str(t->pages[v->at], out);
    else if (IS("cells"))
        tmpl_value_typed(TMPL_ARRAY, &cells_type, t, v->at, out);
}

static const struct tmpl_type row_type = {row_get, NULL, NULL, NULL, 0};

static size_t rows_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_matrix_table *)v->p)->nrows;
}

static void rows_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &row_type, v->p, i, out);
}

static const struct tmpl_type rows_type = {NULL, rows_len, rows_at, NULL, 0};

/* A column: at is its grid column. */
static void column_get(const struct tmpl_value *v, const char *name, size_t len,
                       struct tmpl_value *out)
{
    const struct sitedata_matrix_table *t = v->p;
    out->kind = TMPL_MISSING;
    if (IS("cc")) {
        char s[16];
        compat_cc_string(t->d->grid.ccs[t->cols[v->at]], s, sizeof s);
        tmpl_value_strf(out, "%s", s);
    }
}

static const struct tmpl_type column_type = {column_get, NULL, NULL, NULL, 0};

static size_t columns_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_matrix_table *)v->p)->ncols;
}

static void columns_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &column_type, v->p, i, out);
}

static const struct tmpl_type columns_type = {NULL, columns_len, columns_at, NULL, 0};

/* A table: p is the table. */
static void table_get(const struct tmpl_value *v, const char *name, size_t len,
                      struct tmpl_value *out)
{
    const struct sitedata_matrix_table *t = v->p;
    out->kind = TMPL_MISSING;
    if (IS("id"))
        tmpl_value_str(t->id, out);
    else if (IS("name"))
        tmpl_value_str(t->name, out);
    else if (IS("axis"))
        tmpl_value_str(t->axis, out);
    else if (IS("columns"))
        tmpl_value_typed(TMPL_ARRAY, &columns_type, t, 0, out);
    else if (IS("rows"))
        tmpl_value_typed(TMPL_ARRAY, &rows_type, t, 0, out);
    else if (IS("has_rows"))
        tmpl_value_bool(t->nrows > 0, out);
    else if (IS("ncolumns"))
        tmpl_value_int((long long)t->ncols, out);
}

static const struct tmpl_type table_type = {table_get, NULL, NULL, NULL, 0};

static size_t tables_len(const struct tmpl_value *v)
{
    (void)v;
    return SITEDATA_MATRIX_TABLES;
}

static void tables_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &table_type, &((const struct sitedata_matrix *)v->p)->tables[i],
                     0, out);
}

static const struct tmpl_type tables_type = {NULL, tables_len, tables_at, NULL, 0};

/* The link to project k's page: p is the page, at k. */
static void link_get(const struct tmpl_value *v, const char *name, size_t len,
                     struct tmpl_value *out)
{
    const struct sitedata_matrix *m = v->p;
    const struct sitedata *d = m->d;
    out->kind = TMPL_MISSING;
    if (IS("name"))
        tmpl_value_str(d->matrix[v->at].project, out);
    else if (IS("href"))
        tmpl_value_str(d->matrix[v->at].href, out);
    else if (IS("current"))
        tmpl_value_bool(v->at == m->at, out);
}

static const struct tmpl_type link_type = {link_get, NULL, NULL, NULL, 0};

/* The other projects' pages, listed when there is more than one. */
static size_t links_len(const struct tmpl_value *v)
{
    size_t n = ((const struct sitedata_matrix *)v->p)->d->nmatrix;
    return n > 1 ? n : 0;
}

static void links_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &link_type, v->p, i, out);
}

static const struct tmpl_type links_type = {NULL, links_len, links_at, NULL, 0};

/* "older": how many releases a page shows when it does not show all. */
static void older_get(const struct tmpl_value *v, const char *name, size_t len,
                      struct tmpl_value *out)
{
    (void)v;
    out->kind = TMPL_MISSING;
    if (IS("releases"))
        tmpl_value_int(SITEDATA_MATRIX_RELEASES, out);
}

static const struct tmpl_type older_type = {older_get, NULL, NULL, NULL, 0};

/* The page: p is the sitedata_matrix. */
static void page_get(const struct tmpl_value *v, const char *name, size_t len,
                     struct tmpl_value *out)
{
    const struct sitedata_matrix *m = v->p;
    out->kind = TMPL_MISSING;
    if (IS("project"))
        tmpl_value_str(m->project, out);
    else if (IS("platforms"))
        tmpl_value_typed(TMPL_ARRAY, &tables_type, m, 0, out);
    else if (IS("has_nightlies"))
        tmpl_value_bool(m->has_nightlies, out);
    else if (IS("older") && m->older)
        tmpl_value_typed(TMPL_OBJECT, &older_type, m, 0, out);
    else if (IS("projects"))
        tmpl_value_typed(TMPL_ARRAY, &links_type, m, 0, out);
    else if (IS("has_projects"))
        tmpl_value_bool(m->d->nmatrix > 1, out);
}

static const struct tmpl_type page_type = {page_get, NULL, NULL, NULL, 0};

void sitedata_matrix_value(const struct sitedata_matrix *m, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &page_type, m, 0, out);
}
