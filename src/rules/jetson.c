/*
 * jetson: NVIDIA's PyTorch builds per JetPack release.
 */
#include "jetson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvfile.h"
#include "datatable.h"
#include "strbuf.h"
#include "tables_load.h"
#include "xalloc.h"

static const char FILE_NAME[] = "jetson_pytorch.csv";

static int is_https(const char *s)
{
    return strncmp(s, "https://", 8) == 0 && s[8] && !strpbrk(s, " \"<>");
}

int jetson_load(const char *dir, struct tables *t, struct wa_error *err)
{
    static const char *const cols[] = {"jetpack", "l4t",        "cuda",      "python",
                                       "torch",   "devices",    "index_url", "where",
                                       "source",  "checked_on", NULL};
    int idx[10];
    struct csvfile c;
    int rc = datatable_open_optional(dir, FILE_NAME, cols, idx, &c, err);
    if (rc != 0)
        return rc < 0 ? rc : 0; /* no table: the pages link NVIDIA's page alone */
    t->jetson = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->jetson);
    for (size_t r = 0; r < c.nrows && rc == 0; r++) {
        char *const *row = c.rows[r];
        struct jetson_build b = {0};
        const char *dev = row[idx[5]];
        while (*dev && rc == 0) {
            size_t n = strcspn(dev, ";");
            char one[16];
            uint16_t cc;
            snprintf(one, sizeof one, "%.*s", (int)(n < 15 ? n : 15), dev);
            if (n >= 15 || tablesi_parse_cc(one, &cc) < 0 || b.ndevices == JETSON_MAX_DEVICES)
                rc = wa_error_set(err, WA_ERR_FORMAT,
                                  "%s line %zu: devices \"%s\" is not a list of X.Y", FILE_NAME,
                                  r + 2, row[idx[5]]);
            else
                b.devices[b.ndevices++] = cc;
            dev += n + (dev[n] == ';');
        }
        if (rc == 0 && !b.ndevices)
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: no devices", FILE_NAME, r + 2);
        else if (rc == 0 && row[idx[6]][0] && !is_https(row[idx[6]]))
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: index_url \"%s\" is not https",
                              FILE_NAME, r + 2, row[idx[6]]);
        else if (rc == 0 && !is_https(row[idx[7]]))
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: where \"%s\" is not https",
                              FILE_NAME, r + 2, row[idx[7]]);
        else if (rc == 0 && !datatable_is_date(row[idx[9]]))
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: checked_on \"%s\" is not a date",
                              FILE_NAME, r + 2, row[idx[9]]);
        if (rc < 0)
            break;
        b.jetpack = xstrdup(row[idx[0]]);
        b.l4t = xstrdup(row[idx[1]]);
        b.cuda = xstrdup(row[idx[2]]);
        b.python = xstrdup(row[idx[3]]);
        b.torch = xstrdup(row[idx[4]]);
        struct strbuf words = STRBUF_INIT;
        for (const char *v = b.torch; *v; v++)
            strbuf_adds(&words, *v == ';' ? ", " : (char[]){*v, 0});
        b.torch_text = strbuf_detach(&words, NULL);
        b.index_url = xstrdup(row[idx[6]]);
        b.where = xstrdup(row[idx[7]]);
        b.source = xstrdup(row[idx[8]]);
        b.checked_on = xstrdup(row[idx[9]]);
        t->jetson[t->njetson++] = b;
    }
    csvfile_free(&c);
    return rc;
}

void jetson_free(struct jetson_build *j, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(j[i].jetpack);
        free(j[i].l4t);
        free(j[i].cuda);
        free(j[i].python);
        free(j[i].torch);
        free(j[i].torch_text);
        free(j[i].index_url);
        free(j[i].where);
        free(j[i].source);
        free(j[i].checked_on);
    }
    free(j);
}

int jetson_takes_jetpack(const struct gpu *g)
{
    if (!g)
        return 1;
    return strcmp(g->segment, "jetson") == 0 || strncmp(g->name, "Tegra ", 6) == 0;
}

int jetson_runs_on(const struct jetson_build *b, uint16_t cc)
{
    for (size_t i = 0; i < b->ndevices; i++)
        if (b->devices[i] == cc)
            return 1;
    return 0;
}
