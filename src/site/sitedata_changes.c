/*
 * sitedata_changes: the changes page and its Atom feed: what each release
 * added and dropped, variant by variant, against the one before.
 */
#include "sitedata_changes.h"
#include "sitedata_state.h"
#include <stdlib.h>
#include <string.h>
#include "strbuf.h"
#include "strmap.h"
#include "tmpl.h"
#include "vendorindex.h"
#include "xalloc.h"
#include "sitedata_types.h"

/* Appends the targets of a (na of them) that b lacks to *out. */
static void diff_list(const struct target *a, size_t na, const struct target *b, size_t nb,
                      struct target **out, size_t *n)
{
    for (size_t i = 0; i < na; i++) {
        int found = 0;
        for (size_t k = 0; k < nb && !found; k++)
            found = target_cmp(&a[i], &b[k]) == 0;
        if (!found) {
            *out = xrealloc(*out, (*n + 1) * sizeof **out);
            (*out)[(*n)++] = a[i];
        }
    }
}

/* The SASS, PTX and gfx targets of row a that row b lacks, in that order. */
static void diff_rows(const struct dbview_row *a, const struct dbview_row *b, struct target **out,
                      size_t *n)
{
    diff_list(a->sass, a->nsass, b->sass, b->nsass, out, n);
    diff_list(a->ptx, a->nptx, b->ptx, b->nptx, out, n);
    diff_list(a->gfx, a->ngfx, b->gfx, b->ngfx, out, n);
}

static struct sitedata_change_item *add_item(struct sitedata_change *e)
{
    e->items = xrealloc(e->items, (e->nitems + 1) * sizeof *e->items);
    struct sitedata_change_item *it = &e->items[e->nitems++];
    memset(it, 0, sizeof *it);
    return it;
}

void sitedata_build_changes(struct sitedata *d)
{
    const struct dbview *v = d->v;
    d->changes = NULL;
    d->nchanges = 0;
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
        d->changes = xrealloc(d->changes, (d->nchanges + 1) * sizeof *d->changes);
        struct sitedata_change *entry = &d->changes[d->nchanges++];
        memset(entry, 0, sizeof *entry);
        entry->project = row->project;
        entry->release = row->release;
        entry->previous = prev;
        /* "id" names the entry in the Atom feed (kept stable); "anchor" is
         * its HTML id on changes/. */
        entry->id = xasprintf("%s-%s", row->project, row->release);
        entry->anchor = sitedata_page_id(ids, "c-", entry->id);
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
            struct sitedata_change_item it = {0};
            it.variant = x->variant;
            it.platform = x->platform;
            it.vendor = x->vendor ? x->vendor->vendor : NULL;
            it.said = 1;
            it.status = x->status;
            long pr = prev ? sitedata_newest_row(d, x->project, prev, x->variant, x->platform) : -1;
            if (pr < 0) {
                /* "new" only when the data says which variants the
                 * previous release had */
                const struct release_info *pi =
                    prev ? tables_release(d->t, x->project, prev, x->platform) : NULL;
                it.new_variant = pi && pi->covered && !tables_release_has(pi, x->variant);
                it.first_in_data = !it.new_variant;
            } else {
                const struct dbview_row *p = &v->rows[pr];
                diff_rows(x, p, &it.added, &it.nadded);
                diff_rows(p, x, &it.dropped, &it.ndropped);
            }
            it.changed = it.new_variant || (prev && it.first_in_data) || it.nadded || it.ndropped;
            if (it.changed || !prev) {
                *add_item(entry) = it;
            } else {
                free(it.added);
                free(it.dropped);
            }
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
                if (p->vendor)
                    continue; /* a vendor's own index: not a variant this release dropped */
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
                struct sitedata_change_item *it = add_item(entry);
                it->state = state;
                it->variant = p->variant;
                it->platform = p->platform;
                it->changed = 1;
            }
        }
        if (!date) { /* not crawled: the release date of the data file */
            for (int p = 0; p < SITEDATA_NPLATFORMS && !date; p++) {
                const struct release_info *ri =
                    tables_release(d->t, row->project, row->release, sitedata_platforms[p]);
                if (ri && ri->release_date[0])
                    date = ri->release_date;
            }
        }
        if (date)
            snprintf(entry->date, sizeof entry->date, "%s", date);
        entry->has_date = date != NULL;
    }
    strmap_free(ids);
    for (size_t i = 0; i < nrel; i++)
        free(rel_rows[i]);
    free(rel_rows);
    free(rel_n);
    strmap_free(rel_at);
    strbuf_free(&key);
}

/* ---- the types the templates read ---------------------------------------------- */

/* A list of targets: p is the item, at 0 added, 1 dropped. */
static size_t targets_len(const struct tmpl_value *v)
{
    const struct sitedata_change_item *it = v->p;
    return v->at ? it->ndropped : it->nadded;
}

static void targets_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    const struct sitedata_change_item *it = v->p;
    char s[TARGET_NAME_MAX];
    target_format(v->at ? &it->dropped[i] : &it->added[i], s, sizeof s);
    tmpl_value_strf(out, "%s", s);
}

static const struct tmpl_type targets_type = {NULL, targets_len, targets_at, NULL, 0};

/* One item: p is the item.  Names an item does not say are missing (the
 * lookup goes on down the stack), as the JSON once left them out: the
 * status and what is new only where it is said, a gone variant's state
 * (not_covered, no_arch_data, removed_variant) only as its own name. */
static const struct sitedata_change_item *item_of(const struct tmpl_value *v)
{
    return v->p;
}

static void item_platform_name(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(sitedata_platform_name(item_of(v)->platform), out);
}

static void item_status(const struct tmpl_value *v, struct tmpl_value *out)
{
    if (item_of(v)->said)
        tmpl_value_str(dbview_status_name(item_of(v)->status), out);
}

static void item_new_variant(const struct tmpl_value *v, struct tmpl_value *out)
{
    if (item_of(v)->said)
        tmpl_value_bool(item_of(v)->new_variant, out);
}

static void item_first_in_data(const struct tmpl_value *v, struct tmpl_value *out)
{
    if (item_of(v)->said)
        tmpl_value_bool(item_of(v)->first_in_data, out);
}

/* True where the item's state is want, else missing. */
static void item_state(const struct tmpl_value *v, const char *want, struct tmpl_value *out)
{
    const char *state = item_of(v)->state;
    if (state && strcmp(state, want) == 0)
        tmpl_value_bool(1, out);
}

static void item_not_covered(const struct tmpl_value *v, struct tmpl_value *out)
{
    item_state(v, "not_covered", out);
}

static void item_no_arch_data(const struct tmpl_value *v, struct tmpl_value *out)
{
    item_state(v, "no_arch_data", out);
}

static void item_removed_variant(const struct tmpl_value *v, struct tmpl_value *out)
{
    item_state(v, "removed_variant", out);
}

static void item_added(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_ARRAY, &targets_type, v->p, 0, out);
}

static void item_dropped(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_ARRAY, &targets_type, v->p, 1, out);
}

static void item_has_added(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_bool(item_of(v)->nadded > 0, out);
}

static void item_has_dropped(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_bool(item_of(v)->ndropped > 0, out);
}

static const struct tmpl_field item_fields[] = {
    TMPL_STR("variant", struct sitedata_change_item, variant),
    TMPL_STR("platform", struct sitedata_change_item, platform),
    TMPL_STR("index_vendor", struct sitedata_change_item, vendor),
    TMPL_GET("platform_name", item_platform_name),
    TMPL_GET("status", item_status),
    TMPL_GET("new_variant", item_new_variant),
    TMPL_GET("first_in_data", item_first_in_data),
    TMPL_GET("not_covered", item_not_covered),
    TMPL_GET("no_arch_data", item_no_arch_data),
    TMPL_GET("removed_variant", item_removed_variant),
    TMPL_GET("added", item_added),
    TMPL_GET("dropped", item_dropped),
    TMPL_GET("has_added", item_has_added),
    TMPL_GET("has_dropped", item_has_dropped),
    TMPL_BOOL("changed", struct sitedata_change_item, changed),
};

static const struct tmpl_type item_type = TMPL_FIELDS(item_fields);

static size_t items_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_change *)v->p)->nitems;
}

static void items_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &item_type, &((const struct sitedata_change *)v->p)->items[i], 0,
                     out);
}

static const struct tmpl_type items_type = {NULL, items_len, items_at, NULL, 0};

/* One release's entry: p is the change. */
static void change_date(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_change *e = v->p;
    tmpl_value_str(e->has_date ? e->date : NULL, out);
}

static void change_items(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_change *e = v->p;
    tmpl_value_typed(TMPL_ARRAY, &items_type, e, 0, out);
}

static const struct tmpl_field change_fields[] = {
    TMPL_STR("project", struct sitedata_change, project),
    TMPL_STR("release", struct sitedata_change, release),
    TMPL_STR("previous", struct sitedata_change, previous),
    TMPL_STR("id", struct sitedata_change, id),
    TMPL_STR("anchor", struct sitedata_change, anchor),
    TMPL_GET("date", change_date),
    TMPL_GET("items", change_items),
};

static const struct tmpl_type change_type = TMPL_FIELDS(change_fields);

static size_t changes_len(const struct tmpl_value *v)
{
    return ((const struct sitedata *)v->p)->nchanges;
}

static void changes_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &change_type, &((const struct sitedata *)v->p)->changes[i], 0,
                     out);
}

static const struct tmpl_type changes_type = {NULL, changes_len, changes_at, NULL, 0};

/* The page: p is the sitedata. */
static void page_changes(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_ARRAY, &changes_type, v->p, 0, out);
}

static const struct tmpl_field page_fields[] = {
    TMPL_GET("changes", page_changes),
};

static const struct tmpl_type page_type = TMPL_FIELDS(page_fields);

void sitedata_changes_value(const struct sitedata *d, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &page_type, d, 0, out);
}

/* An entry of the feed: p is the feed, at the change; its title and
 * content are the change's. */
static const struct sitedata_atom *atom_of(const struct tmpl_value *v)
{
    return v->p;
}

static void entry_entry_id(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(atom_of(v)->entry_ids[v->at], out);
}

static void entry_link(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(atom_of(v)->links[v->at], out);
}

static void entry_updated(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(atom_of(v)->times[v->at], out);
}

static void entry_project(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(atom_of(v)->d->changes[v->at].project, out);
}

static void entry_release(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(atom_of(v)->d->changes[v->at].release, out);
}

static void entry_items(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_ARRAY, &items_type, &atom_of(v)->d->changes[v->at], 0, out);
}

static const struct tmpl_field entry_fields[] = {
    TMPL_GET("entry_id", entry_entry_id), TMPL_GET("link", entry_link),
    TMPL_GET("updated", entry_updated),   TMPL_GET("project", entry_project),
    TMPL_GET("release", entry_release),   TMPL_GET("items", entry_items),
};

static const struct tmpl_type entry_type = TMPL_FIELDS(entry_fields);

static size_t entries_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_atom *)v->p)->d->nchanges;
}

static void entries_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &entry_type, v->p, i, out);
}

static const struct tmpl_type entries_type = {NULL, entries_len, entries_at, NULL, 0};

/* The feed: p is the sitedata_atom. */
static void feed_entries(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_atom *f = v->p;
    tmpl_value_typed(TMPL_ARRAY, &entries_type, f, 0, out);
}

static const struct tmpl_field feed_fields[] = {
    TMPL_STR("self", struct sitedata_atom, self),
    TMPL_STR("alternate", struct sitedata_atom, alternate),
    TMPL_STR("feed_id", struct sitedata_atom, feed_id),
    TMPL_STR("updated", struct sitedata_atom, updated),
    TMPL_GET("entries", feed_entries),
};

static const struct tmpl_type feed_type = TMPL_FIELDS(feed_fields);

void sitedata_atom_value(const struct sitedata_atom *f, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &feed_type, f, 0, out);
}
