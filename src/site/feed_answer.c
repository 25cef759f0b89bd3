/*
 * feed_answer: the JSON of the feed files' shared parts: the meta every
 * file starts with, and a device's answer on a platform as gpus.json, the
 * device files and the home filter carry it (feed_answer.h).
 */
#include "feed_answer.h"

#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "answer_json.h"
#include "grid.h"
#include "installcmd.h"
#include "version.h"
#include "xalloc.h"
#include "sitedata_types.h"

/* ---- the meta ------------------------------------------------------------ */

json_t *feed_meta_new(const struct dbview *v, const struct tables *t)
{
    json_t *meta = json_object();
    json_object_set_new(meta, "api-version", json_string(SITE_API_VERSION));
    /* The newest scan, else the day the declared data was last checked. */
    const char *asof = v->data_date ? v->data_date : (t->checked_on[0] ? t->checked_on : NULL);
    json_object_set_new(meta, "data-as-of", asof ? json_string(asof) : json_null());
    json_object_set_new(meta, "declared-checked-on",
                        t->checked_on[0] ? json_string(t->checked_on) : json_null());
    json_object_set_new(meta, "wheels-read", json_boolean(v->data_date != NULL));
    json_object_set_new(meta, "generator", json_string("wheelarch " WHEELARCH_VERSION));
    return meta;
}

void feed_meta_set_freshness(json_t *meta, const struct freshness *f)
{
    json_object_set_new(meta, "data-through",
                        f->through[0] ? json_string(f->through) : json_null());
    if (f->overdue)
        json_object_set_new(meta, "overdue",
                            json_pack("{s:s, s:s, s:s, s:s}", "project", f->overdue->project,
                                      "release", f->overdue->release, "scheduled",
                                      f->overdue->planned, "note", f->sentence));
    else
        json_object_set_new(meta, "overdue", json_null());
}

json_t *feed_meta_copy(const struct sitedata *d)
{
    return json_deep_copy(d->meta);
}

/* ---- an answer ----------------------------------------------------------- */

/* An answer (recommendation, fallback, driver-table row) as the feed and
 * the pages carry it, with its verdict's symbol: the source text stays in
 * the full answer only. */
static json_t *slim_answer(const struct answer_result *a, const struct answer_install *i,
                           int keep_source)
{
    if (!i)
        return json_null();
    json_t *x = answer_install_json(a, i);
    if (!keep_source)
        json_object_del(x, "source");
    json_object_del(x, "scanned_at");
    json_object_set_new(x, "symbol", json_string(grid_verdict_symbol(i->res.verdict)));
    return x;
}

/* A driver-table row as a page's Python switch needs it, compact (a page
 * carries one table per Python): [floor, index, pin, index URL, verdict]. */
static json_t *py_table_row(const struct answer_install *i)
{
    return json_pack("[sssss]", i->floor, i->row->variant, i->pin, i->index_url,
                     compat_verdict_name(i->res.verdict));
}

/* Whether two driver tables give the same answers at the same floors. */
static int same_table(const struct answer_install *a, size_t na, const struct answer_install *b,
                      size_t nb)
{
    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (a[i].row != b[i].row || strcmp(a[i].pin, b[i].pin) != 0 ||
            strcmp(a[i].floor, b[i].floor) != 0)
            return 0;
    return 1;
}

/* {"3.12": table, "3.13": "3.12" (the same as that one's), "3.9": 0 (the
 * same as by_driver), ...} of r's py_tables (docs/site.md). */
json_t *feed_py_tables_json(const struct answer_result *r)
{
    json_t *out = json_object();
    char names[64][16];
    for (size_t k = 0; k < r->npy_tables && k < 64; k++) {
        const struct answer_py_table *t = &r->py_tables[k];
        tables_python_format(t->python, t->free_threaded, names[k], sizeof names[k]);
        if (same_table(t->rows, t->nrows, r->by_driver, r->nby_driver)) {
            json_object_set_new(out, names[k], json_integer(0));
            continue;
        }
        size_t j = 0;
        while (j < k && !same_table(t->rows, t->nrows, r->py_tables[j].rows, r->py_tables[j].nrows))
            j++;
        if (j < k) {
            json_t *prev = json_object_get(out, names[j]);
            json_object_set_new(out, names[k],
                                json_is_array(prev) ? json_string(names[j]) : json_incref(prev));
            continue;
        }
        json_t *rows = json_array();
        for (size_t i = 0; i < t->nrows; i++)
            json_array_append_new(rows, py_table_row(&t->rows[i]));
        json_object_set_new(out, names[k], rows);
    }
    return out;
}

json_t *feed_py_commands_json(const struct tables *tb, const struct answer_result *r)
{
    json_t *out = json_object();
    for (size_t k = 0; k < r->npy_tables; k++) {
        const struct answer_py_table *t = &r->py_tables[k];
        for (size_t i = 0; i < t->nrows; i++) {
            const struct answer_install *in = &t->rows[i];
            char *key = xasprintf("%s %s", in->index_url, in->pin);
            if (!json_object_get(out, key)) {
                /* rows copied from the answer's own table have theirs;
                 * those the Python's table made anew have none */
                struct installcmd own = {0};
                const struct installcmd *c = &in->commands.install;
                if (!c->pip_line) {
                    const struct installcmd_req req = {r->project, in->pin,
                                                       in->extra[0] ? in->extra : NULL};
                    installcmd_make(&own, tb, &req, 1, in->index_url, 0);
                    c = &own;
                }
                json_object_set_new(out, key, answer_installcmd_json(c));
                installcmd_free(&own);
            }
            free(key);
        }
    }
    return out;
}

/* A driver-table line as the feed carries it (and the pages' driver box
 * reads it from the feed's object) */
static json_t *driver_row_json(const struct answer_result *r, const struct answer_install *i)
{
    json_t *e = slim_answer(r, i, 0);
    json_object_del(e, "reason");
    json_object_del(e, "checked_on");
    /* each page carries this table: the companions stay with the
     * answer itself */
    json_object_del(e, "companions");
    json_t *cmds = json_object_get(e, "commands");
    json_t *argv = json_object_get(cmds, "argv");
    static const char *const with[] = {"pip_with_companions", "uv_with_companions",
                                       "uv_with_companions_min_version"};
    for (size_t k = 0; k < sizeof with / sizeof with[0]; k++) {
        json_object_del(cmds, with[k]);
        json_object_del(argv, with[k]);
    }
    return e;
}

json_t *feed_answer_json(const struct answer_result *r)
{
    if (!r)
        return json_null();
    json_t *out = json_object();
    json_object_set_new(out, "release", json_string(r->version));
    json_object_set_new(out, "applies", json_boolean(r->applies));
    json_object_set_new(out, "recommendation", slim_answer(r, r->recommendation, 1));
    json_object_set_new(out, "fallback", slim_answer(r, r->fallback, 1));
    /* the newest release with code whatever the driver: what a driver
     * update can reach (null: none has code, see way_forward) */
    json_object_set_new(out, "newest_with_code", slim_answer(r, r->newest_with_code, 1));
    json_t *bd = json_array();
    for (size_t i = 0; i < r->nby_driver; i++)
        json_array_append_new(bd, driver_row_json(r, &r->by_driver[i]));
    json_object_set_new(out, "by_driver", bd);
    json_t *py = answer_pypi_json(&r->pypi);
    if (json_is_object(py)) {
        json_object_del(py, "source");
        json_object_del(py, "scanned_at");
        if (!r->pypi.unknown)
            json_object_set_new(py, "symbol", json_string(grid_verdict_symbol(r->pypi.verdict)));
    }
    json_object_set_new(out, "pypi", py);
    json_t *ln = json_array();
    for (size_t i = 0; i < r->nlast_native; i++) {
        json_t *e = answer_native_json(&r->last_native[i]);
        json_object_del(e, "source");
        json_object_del(e, "scanned_at");
        json_object_del(e, "checked_on");
        json_array_append_new(ln, e);
    }
    json_object_set_new(out, "last_native", ln);
    json_object_set_new(out, "way_forward", answer_source_build_json(&r->source_build));
    json_object_set_new(out, "build_from_source", answer_source_build_json(&r->self_build));
    json_object_set_new(out, "guidance", answer_guidance_json(&r->guidance));
    json_t *vs = json_object();
    for (size_t i = 0; i < r->nrows; i++)
        json_object_set_new(vs, r->rows[i].row->variant,
                            json_string(compat_verdict_name(r->rows[i].v.res.verdict)));
    json_object_set_new(out, "variants", vs);
    return out;
}
