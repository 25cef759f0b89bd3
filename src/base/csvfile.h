/*
 * csvfile: the project's data tables (RFC 4180: comma-separated, one header
 * row, fields quoted with "" when they hold commas, quotes or newlines).
 */
#ifndef WHEELARCH_CSVFILE_H
#define WHEELARCH_CSVFILE_H

#include <stddef.h>

#include "error.h"

struct csvfile {
    char **header;
    size_t ncols;
    char ***rows; /* nrows rows of ncols fields each */
    size_t nrows;
};

/* Parses text; every row must have the header's column count.  Caller frees
 * with csvfile_free.  Returns 0 or WA_ERR_FORMAT ("line 12: 4 fields, 5
 * expected"). */
int csvfile_parse(const char *text, size_t len, struct csvfile *out, struct wa_error *err);
int csvfile_load(const char *path, struct csvfile *out, struct wa_error *err);
void csvfile_free(struct csvfile *c);

/* Index of a column by name, or -1. */
int csvfile_col(const struct csvfile *c, const char *name);

#endif
