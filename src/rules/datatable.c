/*
 * datatable: opening one table of the data folder (a CSV file with named
 * columns) and the checks every table's loader shares.
 */
#include "datatable.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"

int datatable_load(const char *dir, const char *name, struct csvfile *c, struct wa_error *err)
{
    char *p = fsutil_join(dir, name);
    int rc = csvfile_load(p, c, err);
    free(p);
    return rc;
}

int datatable_need_cols(const struct csvfile *c, const char *file, const char *const *cols,
                        int *idx, struct wa_error *err)
{
    for (size_t i = 0; cols[i]; i++) {
        idx[i] = csvfile_col(c, cols[i]);
        if (idx[i] < 0)
            return wa_error_set(err, WA_ERR_FORMAT, "%s: no column %s", file, cols[i]);
    }
    return 0;
}

int datatable_open(const char *dir, const char *file, const char *const *cols, int *idx,
                   struct csvfile *c, struct wa_error *err)
{
    int rc = datatable_load(dir, file, c, err);
    if (rc == 0 && (rc = datatable_need_cols(c, file, cols, idx, err)) < 0)
        csvfile_free(c);
    return rc;
}

int datatable_open_optional(const char *dir, const char *file, const char *const *cols, int *idx,
                            struct csvfile *c, struct wa_error *err)
{
    char *path = fsutil_join(dir, file);
    int exists = fsutil_exists(path);
    free(path);
    return exists ? datatable_open(dir, file, cols, idx, c, err) : 1;
}

int datatable_is_date(const char *s)
{
    static const char shape[] = "dddd-dd-dd";
    for (size_t i = 0; i < sizeof shape - 1; i++)
        if (shape[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != '-')
            return 0;
    static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int year = atoi(s), month = (s[5] - '0') * 10 + (s[6] - '0'),
        day = (s[8] - '0') * 10 + (s[9] - '0');
    if (s[sizeof shape - 1] != '\0' || month < 1 || month > 12 || day < 1 || day > days[month - 1])
        return 0;
    return month != 2 || day < 29 || (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0));
}

const char *datatable_platform(const char *p)
{
    static const char *const ok[] = {"linux-x86_64", "linux-aarch64", "windows-x86_64",
                                     "windows-arm64"};
    for (size_t i = 0; p && i < sizeof ok / sizeof ok[0]; i++)
        if (strcmp(ok[i], p) == 0)
            return ok[i];
    return NULL;
}
