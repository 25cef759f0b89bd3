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
static void min_driver_linux(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct minor_compat *mc = ((const struct sitedata_release_row *)v->p)->mc;
    if (mc && mc->min_driver_text[TABLES_LINUX])
        tmpl_value_str(mc->min_driver_text[TABLES_LINUX], out);
}

static void min_driver_windows(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct minor_compat *mc = ((const struct sitedata_release_row *)v->p)->mc;
    if (mc && mc->min_driver_text[TABLES_WINDOWS])
        tmpl_value_str(mc->min_driver_text[TABLES_WINDOWS], out);
}

static const struct tmpl_field min_driver_fields[] = {
    TMPL_GET("linux", min_driver_linux),
    TMPL_GET("windows", min_driver_windows),
};

static const struct tmpl_type min_driver_type = TMPL_FIELDS(min_driver_fields);

/* ptx_isa: p is the row's code; {compute_90: "8.8"}.  A map keyed by the
 * data, not a schema: the one kind of type with no field table, as are a
 * binary's targets and compression below and a stack's versions. */
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
static void set_modules(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct compat_code_set *s = &((const struct compat_code *)v->p)->sets[v->at];
    tmpl_value_int((long long)s->modules, out);
}

static void set_targets(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct compat_code_set *s = &((const struct compat_code *)v->p)->sets[v->at];
    tlist(s->targets, s->n, out);
}

static const struct tmpl_field set_fields[] = {
    TMPL_GET("modules", set_modules),
    TMPL_GET("targets", set_targets),
};

static const struct tmpl_type set_type = TMPL_FIELDS(set_fields);

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
static void citation_url(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct dbview_citation *c = v->p;
    tmpl_value_str(c->url, out); /* NULL: null */
}

static const struct tmpl_field citation_fields[] = {
    TMPL_STR("text", struct dbview_citation, text),
    TMPL_GET("url", citation_url),
};

static const struct tmpl_type citation_type = TMPL_FIELDS(citation_fields);

/* The published get_arch_list() outputs of the wheels a declared row
 * covers: p is the tables, at the observation. */
static void observed_wheel(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct observed *o = &((const struct tables *)v->p)->observed[v->at];
    tmpl_value_strf(out, "%s+%s", o->version, o->variant);
}

static void observed_printed(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct observed *o = &((const struct tables *)v->p)->observed[v->at];
    tmpl_value_str(o->printed, out);
}

static void observed_url(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct observed *o = &((const struct tables *)v->p)->observed[v->at];
    tmpl_value_str(o->url, out);
}

static void observed_agrees(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct observed *o = &((const struct tables *)v->p)->observed[v->at];
    tmpl_value_bool(o->agrees, out);
}

static void observed_reason(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct observed *o = &((const struct tables *)v->p)->observed[v->at];
    tmpl_value_str(o->reason, out);
}

static const struct tmpl_field observed_fields[] = {
    TMPL_GET("wheel", observed_wheel),   TMPL_GET("printed", observed_printed),
    TMPL_GET("url", observed_url),       TMPL_GET("agrees", observed_agrees),
    TMPL_GET("reason", observed_reason),
};

static const struct tmpl_type observed_type = TMPL_FIELDS(observed_fields);

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
static void declared_arch_list(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct declared *dc = x->row->declared;
    tmpl_value_str(dc->arch_list, out);
}

static void declared_sass(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct declared *dc = x->row->declared;
    tlist(dc->sass, dc->nsass, out);
}

static void declared_ptx(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct declared *dc = x->row->declared;
    tlist(dc->ptx, dc->nptx, out);
}

static void declared_gfx(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct declared *dc = x->row->declared;
    tlist(dc->gfx, dc->ngfx, out);
}

static void declared_source(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct declared *dc = x->row->declared;
    tmpl_value_str(dc->source, out);
}

static void declared_citation(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    if (x->has_citation)
        tmpl_value_typed(TMPL_OBJECT, &citation_type, &x->citation, 0, out);
    else
        out->kind = TMPL_NULL;
}

static void declared_confidence(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct declared *dc = x->row->declared;
    tmpl_value_str(dc->confidence, out);
}

static void declared_observed(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    tmpl_value_typed(TMPL_ARRAY, &observeds_type, x, 0, out);
}

static const struct tmpl_field declared_fields[] = {
    TMPL_GET("arch_list", declared_arch_list),
    TMPL_GET("sass", declared_sass),
    TMPL_GET("ptx", declared_ptx),
    TMPL_GET("gfx", declared_gfx),
    TMPL_GET("source", declared_source),
    TMPL_GET("citation", declared_citation),
    TMPL_GET("confidence", declared_confidence),
    TMPL_GET("observed", declared_observed),
};

static const struct tmpl_type declared_type = TMPL_FIELDS(declared_fields);

/* A binary's targets by name (a map, as ptx_isa): p is the binary. */
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

/* A binary's compression by codec (a map, as ptx_isa): p is the binary. */
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
static void bdeclared_ptx(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct recbinary *b = v->p;
    tmpl_value_typed(TMPL_ARRAY, &sitedata_targets_type, &b->declared_ptx, 0, out);
}

static void bdeclared_sass(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct recbinary *b = v->p;
    tmpl_value_typed(TMPL_ARRAY, &sitedata_targets_type, &b->declared_sass, 0, out);
}

static const struct tmpl_field bdeclared_fields[] = {
    TMPL_GET("ptx", bdeclared_ptx),
    TMPL_GET("sass", bdeclared_sass),
};

static const struct tmpl_type bdeclared_type = TMPL_FIELDS(bdeclared_fields);

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
        tmpl_value_field(&tv, name, out); /* the rest are the target's */
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
static void binary_path(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct recbinary *b = &x->row->binaries.v[v->at];
    tmpl_value_str(b->path, out);
}

static void binary_format(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct recbinary *b = &x->row->binaries.v[v->at];
    if (b->format)
        tmpl_value_str(b->format, out);
}

static void binary_modules(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct recbinary *b = &x->row->binaries.v[v->at];
    sitedata_count(b->modules, out);
}

static void binary_sass(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct recbinary *b = &x->row->binaries.v[v->at];
    tmpl_value_typed(TMPL_ARRAY, &sitedata_targets_type, &b->sass, 0, out);
}

static void binary_ptx(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct recbinary *b = &x->row->binaries.v[v->at];
    tmpl_value_typed(TMPL_ARRAY, &sitedata_targets_type, &b->ptx, 0, out);
}

static void binary_gfx(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct recbinary *b = &x->row->binaries.v[v->at];
    if (b->gfx.n)
        tmpl_value_typed(TMPL_ARRAY, &sitedata_targets_type, &b->gfx, 0, out);
}

static void binary_targets(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct recbinary *b = &x->row->binaries.v[v->at];
    tmpl_value_typed(TMPL_OBJECT, &targets_type, b, 0, out);
}

static void binary_compression(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct recbinary *b = &x->row->binaries.v[v->at];
    tmpl_value_typed(TMPL_OBJECT, &compression_type, b, 0, out);
}

static void binary_declared(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct recbinary *b = &x->row->binaries.v[v->at];
    if (b->declared)
        tmpl_value_typed(TMPL_OBJECT, &bdeclared_type, b, 0, out);
}

static void binary_target_list(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    tmpl_value_typed(TMPL_ARRAY, &entries_type, x, v->at, out);
}

static void binary_table_id(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    tmpl_value_str(x->table_ids[v->at], out);
}

static const struct tmpl_field binary_fields[] = {
    TMPL_GET("path", binary_path),         TMPL_GET("format", binary_format),
    TMPL_GET("modules", binary_modules),   TMPL_GET("sass", binary_sass),
    TMPL_GET("ptx", binary_ptx),           TMPL_GET("gfx", binary_gfx),
    TMPL_GET("targets", binary_targets),   TMPL_GET("compression", binary_compression),
    TMPL_GET("declared", binary_declared), TMPL_GET("target_list", binary_target_list),
    TMPL_GET("table_id", binary_table_id),
};

static const struct tmpl_type binary_type = TMPL_FIELDS(binary_fields);

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

static void wheel_filename(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct record_wheel *w = &x->row->wheels[v->at];
    utf8(w->filename, out);
}

static void wheel_href(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    tmpl_value_str(x->hrefs[v->at], out);
}

static void wheel_sha256(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct record_wheel *w = &x->row->wheels[v->at];
    utf8(w->sha256, out);
}

static void wheel_scanned(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct record_wheel *w = &x->row->wheels[v->at];
    tmpl_value_bool(w->scanned, out);
}

static void wheel_scanned_at(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct record_wheel *w = &x->row->wheels[v->at];
    utf8(w->scanned_at, out);
}

static void wheel_page(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    tmpl_value_str(x->pages[v->at], out);
}

/* Whether the wheel is yanked, and its reason (NULL when none). */
static int yanked_of(const struct tmpl_value *v, const char **reason)
{
    const struct sitedata_release_row *x = v->p;
    return sitedata_wheel_yanked(&x->row->wheels[v->at], reason);
}

static void wheel_yanked(const struct tmpl_value *v, struct tmpl_value *out)
{
    const char *reason;
    tmpl_value_bool(yanked_of(v, &reason), out);
}

static void wheel_yanked_reason(const struct tmpl_value *v, struct tmpl_value *out)
{
    const char *reason;
    int yanked = yanked_of(v, &reason);
    utf8(yanked ? reason : NULL, out);
}

static const struct tmpl_field wheel_fields[] = {
    TMPL_GET("filename", wheel_filename),     TMPL_GET("href", wheel_href),
    TMPL_GET("sha256", wheel_sha256),         TMPL_GET("scanned", wheel_scanned),
    TMPL_GET("scanned_at", wheel_scanned_at), TMPL_GET("page", wheel_page),
    TMPL_GET("yanked", wheel_yanked),         TMPL_GET("yanked_reason", wheel_yanked_reason),
};

static const struct tmpl_type wheel_type = TMPL_FIELDS(wheel_fields);

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
static void row_project(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_str(r->project, out);
}

static void row_version(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_str(r->version, out);
}

static void row_release(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_str(r->release, out);
}

static void row_variant(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_str(r->variant, out);
}

static void row_platform(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_str(r->platform, out);
}

static void row_platform_name(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_str(sitedata_platform_name(r->platform), out);
}

static void row_status(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_str(dbview_status_name(r->status), out);
}

static void row_index_url(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_str(r->index_url, out);
}

static void row_index_href(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    if (x->index_href)
        tmpl_value_str(x->index_href, out);
}

static void row_cuda(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_str(r->cuda.n ? x->cuda : NULL, out);
}

static void row_min_driver(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    if (r->cuda.n)
        tmpl_value_typed(TMPL_OBJECT, &min_driver_type, x, 0, out);
    else
        out->kind = TMPL_NULL;
}

static void row_rocm(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_str(tables_variant_rocm(r->variant, NULL) ? r->variant + 4 : NULL, out);
}

static void row_sass(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tlist(r->sass, r->nsass, out);
}

static void row_ptx(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tlist(r->ptx, r->nptx, out);
}

static void row_gfx(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tlist(r->gfx, r->ngfx, out);
}

static void row_ptx_isa(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_typed(TMPL_OBJECT, &isa_type, &r->code, 0, out);
}

static void row_modules(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_int((long long)r->code.modules, out);
}

static void row_module_sets(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_typed(TMPL_ARRAY, &sets_type, &r->code, 0, out);
}

static void row_declared(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    if (r->declared)
        tmpl_value_typed(TMPL_OBJECT, &declared_type, x, 0, out);
    else
        out->kind = TMPL_NULL;
}

static void row_differences(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_typed(TMPL_ARRAY, &diffs_type, r, 0, out);
}

static void row_has_differences(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_bool(r->ndifferences > 0, out);
}

static void row_scanned_at(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_str(r->scanned_at, out);
}

static void row_wheelarch_version(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_str(r->wheelarch_version, out);
}

static void row_binaries(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    tmpl_value_typed(TMPL_ARRAY, &binaries_type, x, 0, out);
}

static void row_has_wheels(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    const struct dbview_row *r = x->row;
    tmpl_value_bool(r->nwheels > 0, out);
}

static void row_wheels(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    tmpl_value_typed(TMPL_ARRAY, &wheels_type, x, 0, out);
}

static void row_inferred_page(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release_row *x = v->p;
    if (x->inferred_page)
        tmpl_value_str(x->inferred_page, out);
}

static const struct tmpl_field row_fields[] = {
    TMPL_GET("project", row_project),
    TMPL_GET("version", row_version),
    TMPL_GET("release", row_release),
    TMPL_GET("variant", row_variant),
    TMPL_GET("platform", row_platform),
    TMPL_GET("platform_name", row_platform_name),
    TMPL_GET("status", row_status),
    TMPL_GET("index_url", row_index_url),
    TMPL_GET("index_href", row_index_href),
    TMPL_GET("cuda", row_cuda),
    TMPL_GET("min_driver", row_min_driver),
    TMPL_GET("rocm", row_rocm),
    TMPL_GET("sass", row_sass),
    TMPL_GET("ptx", row_ptx),
    TMPL_GET("gfx", row_gfx),
    TMPL_GET("ptx_isa", row_ptx_isa),
    TMPL_GET("modules", row_modules),
    TMPL_GET("module_sets", row_module_sets),
    TMPL_GET("declared", row_declared),
    TMPL_GET("differences", row_differences),
    TMPL_GET("has_differences", row_has_differences),
    TMPL_GET("scanned_at", row_scanned_at),
    TMPL_GET("wheelarch_version", row_wheelarch_version),
    TMPL_GET("binaries", row_binaries),
    TMPL_GET("has_wheels", row_has_wheels),
    TMPL_STR("section_id", struct sitedata_release_row, section_id),
    TMPL_STR("wheels_id", struct sitedata_release_row, wheels_id),
    TMPL_GET("wheels", row_wheels),
    TMPL_GET("inferred_page", row_inferred_page),
};

static const struct tmpl_type row_type = TMPL_FIELDS(row_fields);

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
static void page_rows(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_release *p = v->p;
    tmpl_value_typed(TMPL_ARRAY, &rows_type, p, 0, out);
}

static const struct tmpl_field page_fields[] = {
    TMPL_STR("project", struct sitedata_release, project),
    TMPL_STR("version", struct sitedata_release, version),
    TMPL_STR("release", struct sitedata_release, release),
    TMPL_STR("path", struct sitedata_release, path),
    TMPL_GET("rows", page_rows),
};

static const struct tmpl_type page_type = TMPL_FIELDS(page_fields);

void sitedata_release_value(const struct sitedata_release *p, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &page_type, p, 0, out);
}
