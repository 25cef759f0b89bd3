/*
 * uvbackend: uv's torch backends and the projects it routes to them.
 */
#include "uvbackend.h"

#include <stdlib.h>
#include <string.h>

#include "csvfile.h"
#include "datatable.h"
#include "xalloc.h"

static const char FILE_NAME[] = "uv_torch_backends.csv";

/* "0.6.9": three numbers, nothing else. */
static int version_ok(const char *s, struct dotver *v)
{
    int dots = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '.')
            dots++;
        else if (*p < '0' || *p > '9')
            return 0;
    }
    return dots == 2 && dotver_parse(s, v) == 0 && v->n == 3 && !v->pre;
}

static int name_ok(const char *s)
{
    if (!*s)
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '.' || *p == '-'))
            return 0;
    return 1;
}

int uvbackend_load(const char *dir, struct tables *t, struct wa_error *err)
{
    static const char *const cols[] = {"kind", "name", "uv_from", "source", "checked_on", NULL};
    int idx[5];
    struct csvfile c;
    int rc = datatable_open_optional(dir, FILE_NAME, cols, idx, &c, err);
    if (rc != 0)
        return rc < 0 ? rc : 0;
    t->uv = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->uv);
    for (size_t r = 0; r < c.nrows && rc == 0; r++) {
        char *const *row = c.rows[r];
        struct uv_backend_entry e = {0};
        const char *kind = row[idx[0]], *name = row[idx[1]];
        if (strcmp(kind, "backend") != 0 && strcmp(kind, "package") != 0)
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s line %zu: kind \"%s\" is not backend or package", FILE_NAME,
                              r + 2, kind);
        else if (!name_ok(name))
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s line %zu: name \"%s\" is not a lowercase index id or project",
                              FILE_NAME, r + 2, name);
        else if (!version_ok(row[idx[2]], &e.from))
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: uv_from \"%s\" is not X.Y.Z",
                              FILE_NAME, r + 2, row[idx[2]]);
        else if (!datatable_is_date(row[idx[4]]))
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: checked_on \"%s\" is not a date",
                              FILE_NAME, r + 2, row[idx[4]]);
        else if (uvbackend_find(t, kind[0] == 'p', name))
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: %s \"%s\" is listed twice",
                              FILE_NAME, r + 2, kind, name);
        if (rc < 0)
            break;
        e.package = kind[0] == 'p';
        e.name = xstrdup(name);
        e.uv_from = xstrdup(row[idx[2]]);
        t->uv[t->nuv++] = e;
    }
    csvfile_free(&c);
    return rc;
}

void uvbackend_free(struct uv_backend_entry *e, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(e[i].name);
        free(e[i].uv_from);
    }
    free(e);
}

const struct uv_backend_entry *uvbackend_find(const struct tables *t, int package, const char *name)
{
    for (size_t i = 0; i < t->nuv; i++)
        if (t->uv[i].package == package && strcmp(t->uv[i].name, name) == 0)
            return &t->uv[i];
    return NULL;
}
