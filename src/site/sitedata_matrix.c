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

/* A cell: at is its verdict. */
static void cell_code(const struct tmpl_value *v, struct tmpl_value *out)
{
    int k = (int)v->at;
    tmpl_value_strf(out, "%c", grid_verdict_code(k));
}

static void cell_symbol(const struct tmpl_value *v, struct tmpl_value *out)
{
    int k = (int)v->at;
    tmpl_value_str(grid_verdict_symbol(k), out);
}

static void cell_label(const struct tmpl_value *v, struct tmpl_value *out)
{
    int k = (int)v->at;
    tmpl_value_str(compat_verdict_label(k), out);
}

static const struct tmpl_field cell_fields[] = {
    TMPL_GET("code", cell_code),
    TMPL_GET("symbol", cell_symbol),
    TMPL_GET("label", cell_label),
};

static const struct tmpl_type cell_type = TMPL_FIELDS(cell_fields);

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
static void row_project(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix_table *t = v->p;
    const struct dbview_row *row = &t->d->v->rows[t->rows[v->at]];
    tmpl_value_str(row->project, out);
}

static void row_version(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix_table *t = v->p;
    const struct dbview_row *row = &t->d->v->rows[t->rows[v->at]];
    tmpl_value_str(row->version, out);
}

static void row_variant(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix_table *t = v->p;
    const struct dbview_row *row = &t->d->v->rows[t->rows[v->at]];
    tmpl_value_str(row->variant, out);
}

static void row_status(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix_table *t = v->p;
    const struct dbview_row *row = &t->d->v->rows[t->rows[v->at]];
    tmpl_value_str(dbview_status_name(row->status), out);
}

static void row_confidence(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix_table *t = v->p;
    const struct dbview_row *row = &t->d->v->rows[t->rows[v->at]];
    tmpl_value_str(dbview_row_confidence(row), out);
}

static void row_page(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix_table *t = v->p;
    tmpl_value_str(t->pages[v->at], out);
}

static void row_cells(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix_table *t = v->p;
    tmpl_value_typed(TMPL_ARRAY, &cells_type, t, v->at, out);
}

static const struct tmpl_field row_fields[] = {
    TMPL_GET("project", row_project),       TMPL_GET("version", row_version),
    TMPL_GET("variant", row_variant),       TMPL_GET("status", row_status),
    TMPL_GET("confidence", row_confidence), TMPL_GET("page", row_page),
    TMPL_GET("cells", row_cells),
};

static const struct tmpl_type row_type = TMPL_FIELDS(row_fields);

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
static void column_cc(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix_table *t = v->p;
    char s[16];
    compat_cc_string(t->d->grid.ccs[t->cols[v->at]], s, sizeof s);
    tmpl_value_strf(out, "%s", s);
}

static const struct tmpl_field column_fields[] = {
    TMPL_GET("cc", column_cc),
};

static const struct tmpl_type column_type = TMPL_FIELDS(column_fields);

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
static void table_columns(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix_table *t = v->p;
    tmpl_value_typed(TMPL_ARRAY, &columns_type, t, 0, out);
}

static void table_rows(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix_table *t = v->p;
    tmpl_value_typed(TMPL_ARRAY, &rows_type, t, 0, out);
}

static void table_has_rows(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix_table *t = v->p;
    tmpl_value_bool(t->nrows > 0, out);
}

static const struct tmpl_field table_fields[] = {
    TMPL_CHARS("id", struct sitedata_matrix_table, id),
    TMPL_CHARS("name", struct sitedata_matrix_table, name),
    TMPL_STR("axis", struct sitedata_matrix_table, axis),
    TMPL_GET("columns", table_columns),
    TMPL_GET("rows", table_rows),
    TMPL_GET("has_rows", table_has_rows),
    TMPL_SIZE("ncolumns", struct sitedata_matrix_table, ncols),
};

static const struct tmpl_type table_type = TMPL_FIELDS(table_fields);

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
static void link_name(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix *m = v->p;
    const struct sitedata *d = m->d;
    tmpl_value_str(d->matrix[v->at].project, out);
}

static void link_href(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix *m = v->p;
    const struct sitedata *d = m->d;
    tmpl_value_str(d->matrix[v->at].href, out);
}

static void link_current(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix *m = v->p;
    tmpl_value_bool(v->at == m->at, out);
}

static const struct tmpl_field link_fields[] = {
    TMPL_GET("name", link_name),
    TMPL_GET("href", link_href),
    TMPL_GET("current", link_current),
};

static const struct tmpl_type link_type = TMPL_FIELDS(link_fields);

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
static void older_releases(const struct tmpl_value *v, struct tmpl_value *out)
{
    (void)v;
    tmpl_value_int(SITEDATA_MATRIX_RELEASES, out);
}

static const struct tmpl_field older_fields[] = {
    TMPL_GET("releases", older_releases),
};

static const struct tmpl_type older_type = TMPL_FIELDS(older_fields);

/* The page: p is the sitedata_matrix. */
static void page_platforms(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix *m = v->p;
    tmpl_value_typed(TMPL_ARRAY, &tables_type, m, 0, out);
}

static void page_older(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix *m = v->p;
    if (m->older)
        tmpl_value_typed(TMPL_OBJECT, &older_type, m, 0, out);
}

static void page_projects(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix *m = v->p;
    tmpl_value_typed(TMPL_ARRAY, &links_type, m, 0, out);
}

static void page_has_projects(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_matrix *m = v->p;
    tmpl_value_bool(m->d->nmatrix > 1, out);
}

static const struct tmpl_field page_fields[] = {
    TMPL_STR("project", struct sitedata_matrix, project),
    TMPL_GET("platforms", page_platforms),
    TMPL_BOOL("has_nightlies", struct sitedata_matrix, has_nightlies),
    TMPL_GET("older", page_older),
    TMPL_GET("projects", page_projects),
    TMPL_GET("has_projects", page_has_projects),
};

static const struct tmpl_type page_type = TMPL_FIELDS(page_fields);

void sitedata_matrix_value(const struct sitedata_matrix *m, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &page_type, m, 0, out);
}
