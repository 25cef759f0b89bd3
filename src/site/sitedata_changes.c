/*
 * sitedata_changes: the changes page and its Atom feed: what each release
 * added and dropped, variant by variant, against the one before.
 */
#include "sitedata_impl.h"

#include "scanreport.h"

#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "recbinary.h"
#include "strbuf.h"
#include "strmap.h"
#include "variant.h"
#include "xalloc.h"

static json_t *diff_list(const struct target *a, size_t na, const struct target *b, size_t nb)
{
    /* targets in a and not in b */
    json_t *out = json_array();
    for (size_t i = 0; i < na; i++) {
        int found = 0;
        for (size_t k = 0; k < nb; k++)
            found |= target_cmp(&a[i], &b[k]) == 0;
        if (!found) {
            char name[TARGET_NAME_MAX];
            target_format(&a[i], name, sizeof name);
            json_array_append_new(out, json_string(name));
        }
    }
    return out;
}

/* The SASS, PTX and gfx targets of row a that row b lacks, in that order. */
static json_t *diff_rows(const struct dbview_row *a, const struct dbview_row *b)
{
    json_t *out = diff_list(a->sass, a->nsass, b->sass, b->nsass);
    json_t *ptx = diff_list(a->ptx, a->nptx, b->ptx, b->nptx);
    json_t *gfx = diff_list(a->gfx, a->ngfx, b->gfx, b->ngfx);
    json_array_extend(out, ptx);
    json_array_extend(out, gfx);
    json_decref(ptx);
    json_decref(gfx);
    return out;
}

void sitedata_build_changes(struct sitedata *d)
{
    const struct dbview *v = d->v;
    d->changes = json_array();
    struct strmap *ids = strmap_new();
    /* The rows of each (project, release), in view order: a release's
     * entry looks up the previous release's rows (a scan of every row per
     * release was most of this page on a project with hundreds). */
    struct strmap *rel_at = strmap_new(); /* "project\x01release" -> list + 1 */
    size_t **rel_rows = xcalloc(v->nrows + 1, sizeof *rel_rows);
    size_t *rel_n = xcalloc(v->nrows + 1, sizeof *rel_n), nrel = 0;
    struct strbuf key = STRBUF_INIT;
    for (size_t k = 0; k < v->nrows; k++) {
        strbuf_set_joined(&key, 1, v->rows[k].project, v->rows[k].release, (char *)NULL);
        size_t at;
        if (!strmap_get(rel_at, key.buf, &at)) {
            at = ++nrel;
            strmap_put(rel_at, key.buf, at);
        }
        if (rel_n[at - 1] % 16 == 0)
            rel_rows[at - 1] = xrealloc(rel_rows[at - 1], (rel_n[at - 1] + 16) * sizeof **rel_rows);
        rel_rows[at - 1][rel_n[at - 1]++] = k;
    }
    /* Releases per project, newest first (rows are sorted that way). */
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        if (r > 0 && strcmp(v->rows[r - 1].project, row->project) == 0 &&
            strcmp(v->rows[r - 1].release, row->release) == 0)
            continue;
        /* The previous release of this project. */
        const char *prev = NULL;
        for (size_t k = r + 1; k < v->nrows; k++) {
            if (strcmp(v->rows[k].project, row->project) != 0)
                break;
            if (strcmp(v->rows[k].release, row->release) != 0) {
                prev = v->rows[k].release;
                break;
            }
        }
        json_t *entry = json_object();
        json_object_set_new(entry, "project", json_string(row->project));
        json_object_set_new(entry, "release", json_string(row->release));
        json_object_set_new(entry, "previous", prev ? json_string(prev) : json_null());
        /* "id" names the entry in the Atom feed (kept stable); "anchor" is
         * its HTML id on changes/. */
        char *id = xasprintf("%s-%s", row->project, row->release);
        json_object_set_new(entry, "id", json_string(id));
        sitedata_set_page_id(entry, "anchor", ids, "c-", id);
        free(id);
        json_t *items = json_array();
        const char *date = NULL;
        char datebuf[11];
        for (size_t k = r; k < v->nrows; k++) {
            const struct dbview_row *x = &v->rows[k];
            if (strcmp(x->project, row->project) || strcmp(x->release, row->release))
                break;
            if (!sitedata_is_newest(d, k))
                continue;
            /* the release's date: its first upload where crawled */
            for (size_t wi = 0; wi < x->nwheels; wi++) {
                const char *up = x->wheels[wi].upload_time;
                if (up && strlen(up) >= 10 && (!date || strncmp(up, date, 10) < 0)) {
                    snprintf(datebuf, sizeof datebuf, "%.10s", up);
                    date = datebuf;
                }
            }
            json_t *it = json_object();
            json_object_set_new(it, "variant", json_string(x->variant));
            json_object_set_new(it, "platform", json_string(x->platform));
            json_object_set_new(it, "platform_name",
                                json_string(sitedata_platform_name(x->platform)));
            json_object_set_new(it, "status", json_string(dbview_status_name(x->status)));
            long pr = prev ? sitedata_newest_row(d, x->project, prev, x->variant, x->platform) : -1;
            if (pr < 0) {
                /* "new" only when the data says which variants the
                 * previous release had */
                const struct release_info *pi =
                    prev ? tables_release(d->t, x->project, prev, x->platform) : NULL;
                int is_new = pi && pi->covered && !tables_release_has(pi, x->variant);
                json_object_set_new(it, "new_variant", json_boolean(is_new));
                json_object_set_new(it, "first_in_data", json_boolean(!is_new));
                json_object_set_new(it, "added", json_array());
                json_object_set_new(it, "dropped", json_array());
            } else {
                const struct dbview_row *p = &v->rows[pr];
                json_object_set_new(it, "new_variant", json_false());
                json_object_set_new(it, "first_in_data", json_false());
                json_object_set_new(it, "added", diff_rows(x, p));
                json_object_set_new(it, "dropped", diff_rows(p, x));
            }
            json_object_set_new(it, "has_added",
                                json_boolean(json_array_size(json_object_get(it, "added")) > 0));
            json_object_set_new(it, "has_dropped",
                                json_boolean(json_array_size(json_object_get(it, "dropped")) > 0));
            int changed = json_is_true(json_object_get(it, "new_variant")) ||
                          (prev && json_is_true(json_object_get(it, "first_in_data"))) ||
                          json_array_size(json_object_get(it, "added")) ||
                          json_array_size(json_object_get(it, "dropped"));
            json_object_set_new(it, "changed", json_boolean(changed));
            if (changed || !prev)
                json_array_append_new(items, it);
            else
                json_decref(it);
        }
        /* Variants the previous release had and this one does not. */
        size_t prev_list = 0, nprev = 0;
        if (prev) {
            strbuf_set_joined(&key, 1, row->project, prev, (char *)NULL);
            if (strmap_get(rel_at, key.buf, &prev_list))
                nprev = rel_n[prev_list - 1];
        }
        if (prev) {
            for (size_t pi_k = 0; pi_k < nprev; pi_k++) {
                size_t k = rel_rows[prev_list - 1][pi_k];
                const struct dbview_row *p = &v->rows[k];
                if (!sitedata_is_newest(d, k))
                    continue;
                if (sitedata_newest_row(d, p->project, row->release, p->variant, p->platform) >= 0)
                    continue;
                /* Dropped is a fact only when the data lists the variants
                 * of both releases; otherwise the gap is ours. */
                const struct release_info *ci =
                    tables_release(d->t, row->project, row->release, p->platform);
                const struct release_info *pi =
                    tables_release(d->t, row->project, prev, p->platform);
                const char *state;
                if (!ci || !ci->covered || !pi || !pi->covered)
                    state = "not_covered"; /* which variants exist is not in the data */
                else if (tables_release_has(ci, p->variant))
                    state = "no_arch_data"; /* published; its arch list is not in the data */
                else if (tables_release_has(pi, p->variant))
                    state = "removed_variant";
                else
                    continue; /* neither release lists it: nothing to say */
                json_t *it = json_object();
                json_object_set_new(it, state, json_true());
                json_object_set_new(it, "variant", json_string(p->variant));
                json_object_set_new(it, "platform", json_string(p->platform));
                json_object_set_new(it, "platform_name",
                                    json_string(sitedata_platform_name(p->platform)));
                json_object_set_new(it, "changed", json_true());
                json_object_set_new(it, "added", json_array());
                json_object_set_new(it, "dropped", json_array());
                json_object_set_new(it, "has_added", json_false());
                json_object_set_new(it, "has_dropped", json_false());
                json_array_append_new(items, it);
            }
        }
        json_object_set_new(entry, "items", items);
        if (!date) { /* not crawled: the release date of the data file */
            for (int p = 0; p < SITEDATA_NPLATFORMS && !date; p++) {
                const struct release_info *ri =
                    tables_release(d->t, row->project, row->release, sitedata_platforms[p]);
                if (ri && ri->release_date[0])
                    date = ri->release_date;
            }
        }
        json_object_set_new(entry, "date", date ? json_string(date) : json_null());
        json_array_append_new(d->changes, entry);
    }
    strmap_free(ids);
    for (size_t i = 0; i < nrel; i++)
        free(rel_rows[i]);
    free(rel_rows);
    free(rel_n);
    strmap_free(rel_at);
    strbuf_free(&key);
}
