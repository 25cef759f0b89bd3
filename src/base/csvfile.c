/*
 * csvfile: a small RFC 4180 reader.
 */
#include "csvfile.h"

#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "strbuf.h"
#include "xalloc.h"

void csvfile_free(struct csvfile *c)
{
    for (size_t i = 0; i < c->ncols; i++)
        free(c->header[i]);
    free(c->header);
    for (size_t r = 0; r < c->nrows; r++) {
        for (size_t i = 0; i < c->ncols; i++)
            free(c->rows[r][i]);
        free(c->rows[r]);
    }
    free(c->rows);
    memset(c, 0, sizeof *c);
}

/* Reads one record starting at *pos; returns fields (caller frees) or NULL
 * at the end of the text. */
static char **read_record(const char *s, size_t len, size_t *pos, size_t *nfields, int *bad)
{
    if (*pos >= len)
        return NULL;
    char **f = NULL;
    size_t n = 0, cap = 0;
    struct strbuf b = STRBUF_INIT;
    size_t i = *pos;
    int quoted = 0, done = 0;
    *bad = 0;
    while (!done) {
        if (i >= len) {
            if (quoted)
                *bad = 1;
            done = 1;
        } else if (quoted) {
            if (s[i] == '"') {
                if (i + 1 < len && s[i + 1] == '"') {
                    strbuf_addc(&b, '"');
                    i += 2;
                    continue;
                }
                quoted = 0;
                i++;
            } else { /* a run up to the next quote */
                size_t j = i + 1;
                while (j < len && s[j] != '"')
                    j++;
                strbuf_add(&b, s + i, j - i);
                i = j;
            }
            continue;
        } else if (s[i] == '"' && b.len == 0) {
            quoted = 1;
            i++;
            continue;
        } else if (s[i] == ',') {
            f = xgrow(f, &cap, n + 1, sizeof *f);
            f[n++] = strbuf_detach(&b, NULL);
            i++;
            continue;
        } else if (s[i] == '\r' && i + 1 < len && s[i + 1] == '\n') {
            i += 2;
            done = 1;
        } else if (s[i] == '\n') {
            i++;
            done = 1;
        } else { /* a run of plain characters (a quote inside a field is one) */
            size_t j = i + 1;
            while (j < len && s[j] != ',' && s[j] != '\n' && s[j] != '\r')
                j++;
            strbuf_add(&b, s + i, j - i);
            i = j;
            continue;
        }
    }
    f = xgrow(f, &cap, n + 1, sizeof *f);
    f[n++] = strbuf_detach(&b, NULL);
    *pos = i;
    *nfields = n;
    return f;
}

static void free_fields(char **f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(f[i]);
    free(f);
}

int csvfile_parse(const char *text, size_t len, struct csvfile *out, struct wa_error *err)
{
    memset(out, 0, sizeof *out);
    size_t pos = 0, n, line = 1, cap = 0;
    int bad;
    out->header = read_record(text, len, &pos, &out->ncols, &bad);
    if (!out->header || bad)
        return wa_error_set(err, WA_ERR_FORMAT, "no header row");
    char **f;
    while ((f = read_record(text, len, &pos, &n, &bad)) != NULL) {
        line++;
        if (n == 1 && f[0][0] == '\0') {
            free_fields(f, n); /* blank line */
            continue;
        }
        if (bad || n != out->ncols) {
            free_fields(f, n);
            int rc = wa_error_set(err, WA_ERR_FORMAT, "line %zu: %zu fields, %zu expected%s", line,
                                  n, out->ncols, bad ? " (unterminated quote)" : "");
            csvfile_free(out);
            return rc;
        }
        out->rows = xgrow(out->rows, &cap, out->nrows + 1, sizeof *out->rows);
        out->rows[out->nrows++] = f;
    }
    return 0;
}

int csvfile_load(const char *path, struct csvfile *out, struct wa_error *err)
{
    char *text;
    size_t len;
    int rc = fsutil_read(path, 64u << 20, &text, &len, NULL, err);
    if (rc < 0)
        return rc;
    rc = csvfile_parse(text, len, out, err);
    free(text);
    if (rc < 0)
        wa_error_prefix(err, path);
    return rc;
}

int csvfile_col(const struct csvfile *c, const char *name)
{
    for (size_t i = 0; i < c->ncols; i++)
        if (strcmp(c->header[i], name) == 0)
            return (int)i;
    return -1;
}
