/*
 * sitedata_release: a release page's data, typed.  The templates read the
 * view's rows of one release (project and version), their binaries and
 * their targets through tmpl_types; no JSON tree is built.  The names are
 * the feed's row fields (dbview_row_json) and what the page adds; a name
 * is missing exactly where the JSON once left the key out, so lookups
 * fall through the template's context stack as they did.
 */
#include "sitedata_release.h"
#include "sitedata_state.h"

#include <stdlib.h>
#include <string.h>

#include "observed.h"
#include "recbinary.h"
#include "strbuf.h"
#include "strmap.h"
#include "tmpl.h"
#include "xalloc.h"
#include "sitedata_text.h"
#include "sitedata_types.h"

/* ---- making the page ---------------------------------------------------------- */

/* The wheel page a wheel's line links to ("wheel/KEY.html": a scanned
 * wheel's own, an inferred one's source when link_inferred), or NULL where
 * there is none or the key is not UTF-8.  Caller frees. */
static char *wheel_page_of(const struct record_wheel *w, int link_inferred)
{
    const char *key = w->scanned      ? (w->key[0] ? w->key : NULL)
                      : link_inferred ? w->inferred_from
                                      : NULL;
    if (!key || !strbuf_utf8_valid(key))
        return NULL;
    return sitedata_wheel_path(key);
}

size_t sitedata_release_end(const struct dbview *v, size_t at)
{
    size_t end = at;
    while (end < v->nrows && strcmp(v->rows[at].project, v->rows[end].project) == 0 &&
           strcmp(v->rows[at].version, v->rows[end].version) == 0)
        end++;
    return end;
}

/* Scanned wheels have a page; inferred ones link to the page of the wheel
 * they were inferred from: once, above the table, when they all name the
 * same one (the usual case: one wheel of a build is read), else on each
 * line.  Returns that one source, or NULL. */
static const char *one_source(const struct dbview_row *row)
{
    const char *source = NULL;
    for (size_t k = 0; k < row->nwheels; k++) {
        const struct record_wheel *w = &row->wheels[k];
        if (w->scanned)
            continue;
        const char *from =
            w->inferred_from && strbuf_utf8_valid(w->inferred_from) ? w->inferred_from : NULL;
        if (!from || (source && strcmp(source, from) != 0))
            return NULL;
        source = from;
    }
    return source;
}

static void make_row(const struct sitedata *d, const struct dbview_row *row, struct strmap *ids,
                     struct sitedata_release_row *x)
{
    memset(x, 0, sizeof *x);
    x->row = row;
    x->tables = d->t;
    if (row->cuda.n)
        tables_variant_cuda_text(row->variant, x->cuda, sizeof x->cuda);
    x->mc = row->cuda.n ? tables_minor_compat(d->t, (int)row->cuda.f[0]) : NULL;
    x->index_href = sitedata_href(row->index_url);
    /* Ids from the variant and platform, unique in the page; binaries by
     * their place (member paths are any bytes). */
    char *raw = xasprintf("%s-%s", row->variant, row->platform);
    x->section_id = sitedata_page_id(ids, "r-", raw);
    x->wheels_id = sitedata_page_id(ids, "w-", raw);
    size_t nb = row->binaries.n;
    x->table_ids = xcalloc(nb ? nb : 1, sizeof *x->table_ids);
    x->order = xcalloc(nb ? nb : 1, sizeof *x->order);
    for (size_t i = 0; i < nb; i++) {
        char *braw = xasprintf("%s-%zu", raw, i + 1);
        x->table_ids[i] = sitedata_page_id(ids, "b-", braw);
        free(braw);
        x->order[i] = sitedata_target_order(&row->binaries.v[i]);
    }
    free(raw);
    const struct declared *dc = row->declared;
    if (dc)
        x->has_citation = dbview_citation_parse(dc->source, &x->citation);
    const char *source = one_source(row);
    x->hrefs = xcalloc(row->nwheels ? row->nwheels : 1, sizeof *x->hrefs);
    x->pages = xcalloc(row->nwheels ? row->nwheels : 1, sizeof *x->pages);
    for (size_t k = 0; k < row->nwheels; k++) {
        x->hrefs[k] = sitedata_wheel_href(&row->wheels[k]);
        x->pages[k] = wheel_page_of(&row->wheels[k], !source);
    }
    if (source)
        x->inferred_page = sitedata_wheel_path(source);
}

void sitedata_release_make(const struct sitedata *d, size_t at, size_t end,
                           struct sitedata_release *p)
{
    const struct dbview *v = d->v;
    memset(p, 0, sizeof *p);
    const struct dbview_row *first = &v->rows[at];
    p->d = d;
    p->project = first->project;
    p->version = first->version;
    p->release = first->release;
    p->path = sitedata_release_path(first->project, first->version);
    p->n = end - at;
    p->rows = xcalloc(p->n, sizeof *p->rows);
    struct strmap *ids = strmap_new();
    for (size_t i = 0; i < p->n; i++)
        make_row(d, &v->rows[at + i], ids, &p->rows[i]);
    strmap_free(ids);
}

void sitedata_release_free(struct sitedata_release *p)
{
    for (size_t i = 0; i < p->n; i++) {
        struct sitedata_release_row *x = &p->rows[i];
        for (size_t b = 0; b < x->row->binaries.n; b++) {
            free(x->table_ids[b]);
            free(x->order[b]);
        }
        free(x->table_ids);
        free(x->order);
        free(x->index_href);
        free(x->section_id);
        free(x->wheels_id);
        for (size_t k = 0; k < x->row->nwheels; k++) {
            free(x->hrefs[k]);
            free(x->pages[k]);
        }
        free(x->hrefs);
        free(x->pages);
        free(x->inferred_page);
        free(x->citation.text);
        free(x->citation.url);
    }
    free(p->rows);
    free(p->path);
    memset(p, 0, sizeof *p);
}

/* ---- the types the templates read ---------------------------------------------- */

#define IS(want) sitedata_name_is(name, len, want)

/* Lists of targets (struct target arrays): p is the first, at the count. */
static size_t tlist_len(const struct tmpl_value *v)
{
    return v->at;
}

static void tlist_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    char s[TARGET_NAME_MAX];
    target_format(&((const struct target *)v->p)[i], s, sizeof s);
    tmpl_value_strf(out, "%s", s);
}

static const struct tmpl_type tlist_type = {NULL, tlist_len, tlist_at, NULL, 0};

static void tlist(const struct target *t, size_t n, struct tmpl_value *out)
{
    static const struct target none;
    tmpl_value_typed(TMPL_ARRAY, &tlist_type, n ? t : &none, n, out);
}

/* The row's differences: p is the row. */
static size_t diffs_len(const struct tmpl_value *v)
{
    return ((const struct dbview_row *)v->p)->ndifferences;
}

static void diffs_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_str(((const struct dbview_row *)v->p)->differences[i], out);
}

static const struct tmpl_type diffs_type = {NULL, diffs_len, diffs_at, NULL, 0};

/* min_driver: p is the page row; its minor-version floors per OS. */
static void min_driver_get(const struct tmpl_value *v, const char *name, size_t len,
                           struct tmpl_value *out)
{
    const struct minor_compat *mc = ((const struct sitedata_release_row *)v->p)->mc;
    out->kind = TMPL_MISSING;
    if (IS("linux") && mc && mc->min_driver_text[TABLES_LINUX])
        tmpl_value_str(mc->min_driver_text[TABLES_LINUX], out);
    else if (IS("windows") && mc && mc->min_driver_text[TABLES_WINDOWS])
        tmpl_value_str(mc->min_driver_text[TABLES_WINDOWS], out);
}

static const struct tmpl_type min_driver_type = {min_driver_get, NULL, NULL, NULL, 0};

/* ptx_isa: p is the row's code; {compute_90: "8.8"}. */
static void isa_get(const struct tmpl_value *v, const char *name, size_t len,
                    struct tmpl_value *out)
{
    const struct compat_code *code = v->p;
    out->kind = TMPL_MISSING;
    for (size_t i = 0; i < code->nisas; i++) {
        char tn[TARGET_NAME_MAX], iv[16];
        dbview_isa_format(&code->isas[i], tn, iv);
        if (IS(tn))
            tmpl_value_strf(out, "%s", iv); /* the last of a name, as a JSON object keeps */
    }
}

static const struct tmpl_type isa_type = {isa_get, NULL, NULL, NULL, 0};

/* module_sets: p is the row's code, at the set. */
static void set_get(const struct tmpl_value *v, const char *name, size_t len,
                    struct tmpl_value *out)
{
    const struct compat_code_set *s = &((const struct compat_code *)v->p)->sets[v->at];
    out->kind = TMPL_MISSING;
    if (IS("modules"))
        tmpl_value_int((long long)s->modules, out);
    else if (IS("targets"))
        tlist(s->targets, s->n, out);
}

static const struct tmpl_type set_type = {set_get, NULL, NULL, NULL, 0};

static size_t sets_len(const struct tmpl_value *v)
{
    return ((const struct compat_code *)v->p)->nsets;
}

static void sets_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &set_type, v->p, i, out);
}

static const struct tmpl_type sets_type = {NULL, sets_len, sets_at, NULL, 0};

/* A citation: p is the struct dbview_citation. */
static void citation_get(const struct tmpl_value *v, const char *name, size_t len,
                         struct tmpl_value *out)
{
    const struct dbview_citation *c = v->p;
    out->kind = TMPL_MISSING;
    if (IS("text"))
        tmpl_value_str(c->text, out);
    else if (IS("url"))
        tmpl_value_str(c->url, out); /* NULL: null */
}

static const struct tmpl_type citation_type = {citation_get, NULL, NULL, NULL, 0};

/* The published get_arch_list() outputs of the wheels a declared row
 * covers: p is the tables, at the observation. */
static void observed_get(const struct tmpl_value *v, const char *name, size_t len,
                         struct tmpl_value *out)
{
    const struct observed *o = &((const struct tables *)v->p)->observed[v->at];
    out->kind = TMPL_MISSING;
    if (IS("wheel"))
        tmpl_value_strf(out, "%s+%s", o->version, o->variant);
    else if (IS("printed"))
        tmpl_value_str(o->printed, out);
    else if (IS("url"))
        tmpl_value_str(o->url, out);
    else if (IS("agrees"))
        tmpl_value_bool(o->agrees, out);
    else if (IS("reason"))
        tmpl_value_str(o->reason, out);
}

static const struct tmpl_type observed_type = {observed_get, NULL, NULL, NULL, 0};

/* The observations of the declared row p: the tables' observations whose
 * declared row it is, counted and found by a walk (a few hundred). */
static const struct tables *observed_tables(const struct tmpl_value *v)
{
    return ((const struct sitedata_release_row *)v->p)->tables;
}

static size_t observed_len(const struct tmpl_value *v)
{
    const struct tables *t = observed_tables(v);
    const struct declared *dc = ((const struct sitedata_release_row *)v->p)->row->declared;
    size_t n = 0;
    for (size_t i = 0; t && i < t->nobserved; i++)
        n += t->observed[i].declared == dc;
    return n;
}

static void observed_at(const struct tmpl_value *v, size_t k, struct tmpl_value *out)
{
    const struct tables *t = observed_tables(v);
    const struct declared *dc = ((const struct sitedata_release_row *)v->p)->row->declared;
    for (size_t i = 0; i < t->nobserved; i++)
        if (t->observed[i].declared == dc && k-- == 0) {
            tmpl_value_typed(TMPL_OBJECT, &observed_type, t, i, out);
            return;
        }
}

static const struct tmpl_type observeds_type = {NULL, observed_len, observed_at, NULL, 0};

/* declared: p is the page row, whose declared row it is. */
static void declared_get(const struct tmpl_value *v, const char *name, size_t len,
                         struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct declared *dc = x->row->declared;
    out->kind = TMPL_MISSING;
    if (IS("arch_list"))
        tmpl_value_str(dc->arch_list, out);
    else if (IS("sass"))
        tlist(dc->sass, dc->nsass, out);
    else if (IS("ptx"))
        tlist(dc->ptx, dc->nptx, out);
    else if (IS("gfx"))
        tlist(dc->gfx, dc->ngfx, out);
    else if (IS("source"))
        tmpl_value_str(dc->source, out);
    else if (IS("citation")) {
        if (x->has_citation)
            tmpl_value_typed(TMPL_OBJECT, &citation_type, &x->citation, 0, out);
        else
            out->kind = TMPL_NULL;
    } else if (IS("confidence"))
        tmpl_value_str(dc->confidence, out);
    else if (IS("observed"))
        tmpl_value_typed(TMPL_ARRAY, &observeds_type, x, 0, out);
}

static const struct tmpl_type declared_type = {declared_get, NULL, NULL, NULL, 0};

/* A binary's targets by name: p is the binary. */
static void targets_get(const struct tmpl_value *v, const char *name, size_t len,
                        struct tmpl_value *out)
{
    const struct recbinary *b = v->p;
    out->kind = TMPL_MISSING;
    for (size_t k = 0; k < b->ntargets; k++) {
        char tn[TARGET_NAME_MAX];
        target_format(&b->targets[k].t, tn, sizeof tn);
        if (IS(tn))
            tmpl_value_typed(TMPL_OBJECT, &sitedata_target_type, &b->targets[k], 0, out);
    }
}

static const struct tmpl_type targets_type = {targets_get, NULL, NULL, NULL, 0};

/* A binary's compression by codec: p is the binary. */
static void compression_get(const struct tmpl_value *v, const char *name, size_t len,
                            struct tmpl_value *out)
{
    const struct recbinary *b = v->p;
    out->kind = TMPL_MISSING;
    for (size_t k = 0; k < b->ncompression; k++)
        if (IS(b->compression[k].codec))
            tmpl_value_int(b->compression[k].entries, out);
}

static const struct tmpl_type compression_type = {compression_get, NULL, NULL, NULL, 0};

/* A binary's declared targets: p is the binary. */
static void bdeclared_get(const struct tmpl_value *v, const char *name, size_t len,
                          struct tmpl_value *out)
{
    const struct recbinary *b = v->p;
    out->kind = TMPL_MISSING;
    if (IS("ptx"))
        tmpl_value_typed(TMPL_ARRAY, &sitedata_targets_type, &b->declared_ptx, 0, out);
    else if (IS("sass"))
        tmpl_value_typed(TMPL_ARRAY, &sitedata_targets_type, &b->declared_sass, 0, out);
}

static const struct tmpl_type bdeclared_type = {bdeclared_get, NULL, NULL, NULL, 0};

/* One entry of a binary's target list: p is the binary, at the target.
 * The target's own fields, and how its modules compare with the binary's
 * (missing counts compare as 0, as they did in JSON). */
static void entry_get(const struct tmpl_value *v, const char *name, size_t len,
                      struct tmpl_value *out)
{
    const struct recbinary *b = v->p;
    const struct recbinary_target *t = &b->targets[v->at];
    out->kind = TMPL_MISSING;
    if (IS("all_modules")) {
        tmpl_value_bool((t->modules < 0 ? 0 : t->modules) == (b->modules < 0 ? 0 : b->modules),
                        out);
    } else if (IS("modules_total")) {
        sitedata_count(b->modules, out);
    } else {
        struct tmpl_value tv;
        tmpl_value_typed(TMPL_OBJECT, &sitedata_target_type, t, 0, &tv);
        sitedata_target_type.get(&tv, name, len, out);
    }
}

static const struct tmpl_type entry_type = {entry_get, NULL, NULL, NULL, 0};

/* A binary's targets in target order: p is the page row, at the binary. */
static size_t entries_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_release_row *)v->p)->row->binaries.v[v->at].ntargets;
}

static void entries_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    tmpl_value_typed(TMPL_OBJECT, &entry_type, &x->row->binaries.v[v->at], x->order[v->at][i], out);
}

static const struct tmpl_type entries_type = {NULL, entries_len, entries_at, NULL, 0};

/* One binary: p is the page row, at the binary. */
static void binary_get(const struct tmpl_value *v, const char *name, size_t len,
                       struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct recbinary *b = &x->row->binaries.v[v->at];
    out->kind = TMPL_MISSING;
    if (IS("path"))
        tmpl_value_str(b->path, out);
    else if (IS("format") && b->format)
        tmpl_value_str(b->format, out);
    else if (IS("modules"))
        sitedata_count(b->modules, out);
    else if (IS("sass"))
        tmpl_value_typed(TMPL_ARRAY, &sitedata_targets_type, &b->sass, 0, out);
    else if (IS("ptx"))
        tmpl_value_typed(TMPL_ARRAY, &sitedata_targets_type, &b->ptx, 0, out);
    else if (IS("gfx") && b->gfx.n)
        tmpl_value_typed(TMPL_ARRAY, &sitedata_targets_type, &b->gfx, 0, out);
    else if (IS("targets"))
        tmpl_value_typed(TMPL_OBJECT, &targets_type, b, 0, out);
    else if (IS("compression"))
        tmpl_value_typed(TMPL_OBJECT, &compression_type, b, 0, out);
    else if (IS("declared") && b->declared)
        tmpl_value_typed(TMPL_OBJECT, &bdeclared_type, b, 0, out);
    else if (IS("target_list"))
        tmpl_value_typed(TMPL_ARRAY, &entries_type, x, v->at, out);
    else if (IS("table_id"))
        tmpl_value_str(x->table_ids[v->at], out);
}

static const struct tmpl_type binary_type = {binary_get, NULL, NULL, NULL, 0};

static size_t binaries_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_release_row *)v->p)->row->binaries.n;
}

static void binaries_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &binary_type, v->p, i, out);
}

static const struct tmpl_type binaries_type = {NULL, binaries_len, binaries_at, NULL, 0};

/* A line of a row's wheel table: p is the page row, at the wheel.  Text
 * that is not UTF-8 is null (the page leaves it out). */
static void utf8(const char *s, struct tmpl_value *out)
{
    tmpl_value_str(s && strbuf_utf8_valid(s) ? s : NULL, out);
}

static void wheel_get(const struct tmpl_value *v, const char *name, size_t len,
                      struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct record_wheel *w = &x->row->wheels[v->at];
    out->kind = TMPL_MISSING;
    if (IS("filename"))
        utf8(w->filename, out);
    else if (IS("href"))
        tmpl_value_str(x->hrefs[v->at], out);
    else if (IS("sha256"))
        utf8(w->sha256, out);
    else if (IS("scanned"))
        tmpl_value_bool(w->scanned, out);
    else if (IS("scanned_at"))
        utf8(w->scanned_at, out);
    else if (IS("page"))
        tmpl_value_str(x->pages[v->at], out);
    else if (IS("yanked") || IS("yanked_reason")) {
        const char *reason;
        int yanked = sitedata_wheel_yanked(w, &reason);
        if (IS("yanked"))
            tmpl_value_bool(yanked, out);
        else
            utf8(yanked ? reason : NULL, out);
    }
}

static const struct tmpl_type wheel_type = {wheel_get, NULL, NULL, NULL, 0};

static size_t wheels_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_release_row *)v->p)->row->nwheels;
}

static void wheels_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &wheel_type, v->p, i, out);
}

static const struct tmpl_type wheels_type = {NULL, wheels_len, wheels_at, NULL, 0};

/* One row of the page: p is the page row. */
static void row_get(const struct tmpl_value *v, const char *name, size_t len,
                    struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    out->kind = TMPL_MISSING;
    if (IS("project"))
        tmpl_value_str(r->project, out);
    else if (IS("version"))
        tmpl_value_str(r->version, out);
    else if (IS("release"))
        tmpl_value_str(r->release, out);
    else if (IS("variant"))
        tmpl_value_str(r->variant, out);
    else if (IS("platform"))
        tmpl_value_str(r->platform, out);
    else if (IS("platform_name"))
        tmpl_value_str(sitedata_platform_name(r->platform), out);
    else if (IS("status"))
        tmpl_value_str(dbview_status_name(r->status), out);
    else if (IS("index_url"))
        tmpl_value_str(r->index_url, out);
    else if (IS("index_href") && x->index_href)
        tmpl_value_str(x->index_href, out);
    else if (IS("cuda"))
        tmpl_value_str(r->cuda.n ? x->cuda : NULL, out);
    else if (IS("min_driver")) {
        if (r->cuda.n)
            tmpl_value_typed(TMPL_OBJECT, &min_driver_type, x, 0, out);
        else
            out->kind = TMPL_NULL;
    } else if (IS("rocm"))
        tmpl_value_str(tables_variant_rocm(r->variant, NULL) ? r->variant + 4 : NULL, out);
    else if (IS("sass"))
        tlist(r->sass, r->nsass, out);
    else if (IS("ptx"))
        tlist(r->ptx, r->nptx, out);
    else if (IS("gfx"))
        tlist(r->gfx, r->ngfx, out);
    else if (IS("ptx_isa"))
        tmpl_value_typed(TMPL_OBJECT, &isa_type, &r->code, 0, out);
    else if (IS("modules"))
        tmpl_value_int((long long)r->code.modules, out);
    else if (IS("module_sets"))
        tmpl_value_typed(TMPL_ARRAY, &sets_type, &r->code, 0, out);
    else if (IS("declared")) {
        if (r->declared)
            tmpl_value_typed(TMPL_OBJECT, &declared_type, x, 0, out);
        else
            out->kind = TMPL_NULL;
    } else if (IS("differences"))
        tmpl_value_typed(TMPL_ARRAY, &diffs_type, r, 0, out);
    else if (IS("has_differences"))
        tmpl_value_bool(r->ndifferences > 0, out);
    else if (IS("scanned_at"))
        tmpl_value_str(r->scanned_at, out);
    else if (IS("wheelarch_version"))
        tmpl_value_str(r->wheelarch_version, out);
    else if (IS("binaries"))
        tmpl_value_typed(TMPL_ARRAY, &binaries_type, x, 0, out);
    else if (IS("has_wheels"))
        tmpl_value_bool(r->nwheels > 0, out);
    else if (IS("section_id"))
        tmpl_value_str(x->section_id, out);
    else if (IS("wheels_id"))
        tmpl_value_str(x->wheels_id, out);
    else if (IS("wheels"))
        tmpl_value_typed(TMPL_ARRAY, &wheels_type, x, 0, out);
    else if (IS("inferred_page") && x->inferred_page)
        tmpl_value_str(x->inferred_page, out);
}

static const struct tmpl_type row_type = {row_get, NULL, NULL, NULL, 0};

static size_t rows_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_release *)v->p)->n;
}

static void rows_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &row_type, &((const struct sitedata_release *)v->p)->rows[i], 0,
                     out);
}

static const struct tmpl_type rows_type = {NULL, rows_len, rows_at, NULL, 0};

/* The page: p is the sitedata_release. */
static void page_get(const struct tmpl_value *v, const char *name, size_t len,
                     struct tmpl_value *out)
{
    const struct sitedata_release *p = v->p;
    out->kind = TMPL_MISSING;
    if (IS("project"))
        tmpl_value_str(p->project, out);
    else if (IS("version"))
        tmpl_value_str(p->version, out);
    else if (IS("release"))
        tmpl_value_str(p->release, out);
    else if (IS("path"))
        tmpl_value_str(p->path, out);
    else if (IS("rows"))
        tmpl_value_typed(TMPL_ARRAY, &rows_type, p, 0, out);
}

static const struct tmpl_type page_type = {page_get, NULL, NULL, NULL, 0};

void sitedata_release_value(const struct sitedata_release *p, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &page_type, p, 0, out);
}
