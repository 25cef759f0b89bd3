/*
 * sitedata_grid: a release grid's fields, as tables (sitedata_grid.h).
 * A row is (the grid, its release's place); a cell is (the grid, its
 * place in the grid's cells).
 */
#include "sitedata_grid.h"
#include "sitedata_state.h"

#include "grid.h"
#include "tmpl.h"

/* The width past which a grid is wider than a phone, or than a page. */
#define GRID_WIDE 8

static int cell_of(const struct tmpl_value *v)
{
    return ((const struct relgrid *)v->p)->cell[v->at];
}

static void cell_empty(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_bool(cell_of(v) < 0, out);
}

static void cell_code(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_strf(out, "%c", grid_verdict_code(cell_of(v)));
}

static void cell_symbol(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(grid_verdict_symbol(cell_of(v)), out);
}

static void cell_rec(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_bool(((const struct relgrid *)v->p)->mark == (long)v->at, out);
}

static const struct tmpl_field cell_fields[] = {
    TMPL_GET("empty", cell_empty),
    TMPL_GET("code", cell_code),
    TMPL_GET("symbol", cell_symbol),
    TMPL_GET("rec", cell_rec),
};

static const struct tmpl_type cell_type = TMPL_FIELDS(cell_fields);

/* A row's cells: v is (the grid, the row's release). */
static size_t cells_len(const struct tmpl_value *v)
{
    return ((const struct relgrid *)v->p)->nvar;
}

static void cells_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    const struct relgrid *g = v->p;
    tmpl_value_typed(TMPL_OBJECT, &cell_type, g, v->at * g->nvar + i, out);
}

static const struct tmpl_type cells_type = {NULL, cells_len, cells_at, NULL, 0};

static void row_release(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(((const struct relgrid *)v->p)->rel[v->at], out);
}

static void row_gap(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct relgrid *g = v->p;
    tmpl_value_bool(g->gap && v->at == g->gap, out);
}

static void row_colspan(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_int((long long)((const struct relgrid *)v->p)->nvar + 1, out);
}

static void row_cells(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_ARRAY, &cells_type, v->p, v->at, out);
}

static const struct tmpl_field row_fields[] = {
    TMPL_GET("release", row_release),
    TMPL_GET("gap", row_gap),
    TMPL_GET("colspan", row_colspan),
    TMPL_GET("cells", row_cells),
};

static const struct tmpl_type row_type = TMPL_FIELDS(row_fields);

static size_t rows_len(const struct tmpl_value *v)
{
    return ((const struct relgrid *)v->p)->nrel;
}

static void rows_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &row_type, v->p, i, out);
}

static const struct tmpl_type rows_type = {NULL, rows_len, rows_at, NULL, 0};

static size_t variants_len(const struct tmpl_value *v)
{
    return ((const struct relgrid *)v->p)->nvar;
}

/* A column: the variant's name, and the vendor whose own index it is on. */
static void column_name(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(((const struct relgrid *)v->p)->var[v->at], out);
}

static void column_vendor(const struct tmpl_value *v, struct tmpl_value *out)
{
    const char *s = ((const struct relgrid *)v->p)->var_vendor[v->at];
    if (s)
        tmpl_value_str(s, out);
}

static const struct tmpl_field column_fields[] = {
    TMPL_GET("name", column_name),
    TMPL_GET("column_vendor", column_vendor),
};

static const struct tmpl_type column_type = TMPL_FIELDS(column_fields);

static void variants_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &column_type, v->p, i, out);
}

static const struct tmpl_type variants_type = {NULL, variants_len, variants_at, NULL, 0};

static void grid_platform_name(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(sitedata_platform_name(((const struct relgrid *)v->p)->platform), out);
}

static void grid_wide(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_bool(((const struct relgrid *)v->p)->nvar > GRID_WIDE, out);
}

static void grid_nvariants(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_int((long long)((const struct relgrid *)v->p)->nvar, out);
}

static void grid_variants(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_ARRAY, &variants_type, v->p, 0, out);
}

static void grid_rows(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_ARRAY, &rows_type, v->p, 0, out);
}

static const struct tmpl_field grid_fields[] = {
    TMPL_STR("platform", struct relgrid, platform),
    TMPL_GET("platform_name", grid_platform_name),
    TMPL_BOOL("amd", struct relgrid, amd),
    TMPL_GET("wide", grid_wide),
    TMPL_GET("nvariants", grid_nvariants),
    TMPL_GET("variants", grid_variants),
    TMPL_GET("rows", grid_rows),
};

static const struct tmpl_type grid_type = TMPL_FIELDS(grid_fields);

void sitedata_grid_value(const struct relgrid *g, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &grid_type, g, 0, out);
}
