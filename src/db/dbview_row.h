/*
 * dbview_row: what a view row (dbview_types.h) says of itself in words:
 * its status's name, whether it is a nightly, its confidence and where
 * its verdict comes from.
 */
#ifndef WHEELARCH_DBVIEW_ROW_H
#define WHEELARCH_DBVIEW_ROW_H

#include "dbview_types.h"

/* A nightly (PEP 440 dev release: "2.12.0.dev20261120"). */
int dbview_is_nightly(const char *version);

const char *dbview_status_name(int status);

/* The confidence of a declared row ("high", "medium", ...), or NULL for
 * rows read from wheels and declared rows without one. */
const char *dbview_row_confidence(const struct dbview_row *r);
/* Where a row's verdict comes from, in words: "verified (read from the
 * wheel)", "declared (PyTorch's build configuration, medium confidence;
 * seen in a published get_arch_list() of 2.13.0+cu130)".  Owned by the
 * row or static. */
const char *dbview_row_provenance(const struct dbview_row *r);

#endif
