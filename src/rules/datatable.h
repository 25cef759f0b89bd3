/*
 * datatable: opening one table of the data folder (a CSV file with named
 * columns) and the checks every table's loader shares (tables, observed,
 * schedule).
 */
#ifndef WHEELARCH_DATATABLE_H
#define WHEELARCH_DATATABLE_H

#include "csvfile.h"
#include "error.h"

/* Reads dir/name into c.  On an error nothing is left to free. */
int datatable_load(const char *dir, const char *name, struct csvfile *c, struct wa_error *err);
/* The places of the columns cols (NULL-ended) of c into idx; an error
 * naming file and the first column it lacks. */
int datatable_need_cols(const struct csvfile *c, const char *file, const char *const *cols,
                        int *idx, struct wa_error *err);
/* Opens dir/file, a table that must have the columns cols (NULL-ended),
 * their places into idx.  On an error nothing is left to free. */
int datatable_open(const char *dir, const char *file, const char *const *cols, int *idx,
                   struct csvfile *c, struct wa_error *err);
/* The same for a table that may be absent: 1 (nothing to free) when
 * dir/file does not exist, 0 when opened, <0 on an error. */
int datatable_open_optional(const char *dir, const char *file, const char *const *cols, int *idx,
                            struct csvfile *c, struct wa_error *err);
/* Whether s is a date written YYYY-MM-DD (a real day of the calendar). */
int datatable_is_date(const char *s);
/* The platform ids the tables and the answers know: "linux-x86_64",
 * "linux-aarch64", "windows-x86_64", "windows-arm64"; the static string
 * equal to p, or NULL when p is none of them. */
const char *datatable_platform(const char *p);

#endif
