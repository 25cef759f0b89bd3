/*
 * sitedata_matrix: a matrix page (matrix/, matrix/<project>/) as a
 * template value.
 */
#ifndef WHEELARCH_SITEDATA_MATRIX_H
#define WHEELARCH_SITEDATA_MATRIX_H

#include <stddef.h>

#include "sitedata_types.h"

struct tmpl_value;

/* A matrix page as a template value (borrowing m). */
void sitedata_matrix_value(const struct sitedata_matrix *m, struct tmpl_value *out);

#endif
