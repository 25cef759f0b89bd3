/*
 * sitedata_feeds: the feed documents (matrix.json, matrix.csv, index-table.json, variants.json) and
 * the simple indexes.
 */
#include "sitedata_impl.h"

#include <stdlib.h>
#include <string.h>

#include "jsontext.h"
#include "strmap.h"
#include "wheelname.h"
#include "xalloc.h"

/* ---- feed documents ----------------------------------------------------- */

/* A row's wheels as matrix.json documents them: file name, URL, sha256 and
 * whether it was scanned or inferred; the rest of each wheel's record (its
 * size, scan date, source key ...) is on its release page, and would be
 * most of the document at 100,000 wheels. */
static json_t *slim_wheels(const struct dbview_row *row)
{
    json_t *out = json_array();
    for (size_t i = 0; i < row->nwheels; i++) {
        const struct record_wheel *w = &row->wheels[i];
        json_t *x = json_object();
        json_object_set_new(x, "filename", json_string(w->filename));
        json_object_set_new(x, "url", json_string(w->url));
        json_object_set_new(x, "sha256", w->sha256 ? json_string(w->sha256) : json_null());
        json_object_set_new(x, "status", json_string(w->scanned ? "scanned" : "inferred"));
        json_array_append_new(out, x);
    }
    return out;
}

/* Appends v as compact JSON with sorted keys, as put_json writes it. */
static void add_json(struct strbuf *out, json_t *v)
{
    if (jsontext_append(out, v, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY) < 0)
        strbuf_adds(out, "null");
}

/* Appends the row's slim_wheels as json_dumps would write them, without
 * the tree (100,000 wheels are most of matrix.json); a wheel with a field
 * that is not UTF-8 goes through jansson, which leaves that field out. */
static void add_wheels(struct strbuf *out, const struct dbview_row *row)
{
    strbuf_addc(out, '[');
    for (size_t i = 0; i < row->nwheels; i++) {
        const struct record_wheel *w = &row->wheels[i];
        if (i)
            strbuf_addc(out, ',');
        size_t mark = out->len;
        strbuf_adds(out, "{\"filename\":");
        int rc = strbuf_add_json(out, w->filename);
        strbuf_adds(out, ",\"sha256\":");
        if (rc == 0 && w->sha256)
            rc = strbuf_add_json(out, w->sha256);
        else
            strbuf_adds(out, "null");
        strbuf_adds(out, w->scanned ? ",\"status\":\"scanned\",\"url\":"
                                    : ",\"status\":\"inferred\",\"url\":");
        if (rc == 0)
            rc = strbuf_add_json(out, w->url);
        strbuf_addc(out, '}');
        if (rc < 0) {
            out->len = mark;
            out->buf[mark] = '\0';
            struct dbview_row one = *row;
            one.wheels = (struct record_wheel *)w;
            one.nwheels = 1;
            json_t *x = slim_wheels(&one);
            add_json(out, json_array_get(x, 0));
            json_decref(x);
        }
    }
    strbuf_addc(out, ']');
}

/* Appends row object o (keys sorted, none after "wheels") with the row's
 * wheels as its last key. */
static void add_row_with_wheels(struct strbuf *out, json_t *o, const struct dbview_row *row)
{
    size_t mark = out->len;
    add_json(out, o);
    if (out->len - mark < 2 || out->buf[out->len - 1] != '}')
        return; /* not an object: cannot happen */
    out->buf[--out->len] = '\0';
    strbuf_adds(out, out->len - mark > 1 ? ",\"wheels\":" : "\"wheels\":");
    add_wheels(out, row);
    strbuf_addc(out, '}');
}

/* A column of matrix.json's cells: a grid device and its name. */
struct cell_col {
    size_t c;
    char name[16];
};

static int cell_col_cmp(const void *a, const void *b)
{
    return strcmp(((const struct cell_col *)a)->name, ((const struct cell_col *)b)->name);
}

void sitedata_matrix_json(const struct sitedata *d, struct strbuf *out)
{
    const struct dbview *v = d->v;
    /* The document's keys in sorted order (architectures, meta, rows), each
     * row made, written and freed in turn: the whole matrix is never a
     * tree in memory. */
    /* Room for the whole document at once, a generous guess (pages never
     * written to cost no memory): grown by doubling, tens of MB would be
     * copied about twice over. */
    size_t room = 1 << 16;
    for (size_t r = 0; r < v->nrows; r++)
        room += 2048 + v->rows[r].nwheels * 400;
    strbuf_grow(out, room);
    json_t *archs = json_array();
    for (size_t c = 0; c < d->grid.nccs; c++)
        json_array_append_new(archs, sitedata_cc_json(d->grid.ccs[c]));
    strbuf_adds(out, "{\"architectures\":");
    add_json(out, archs);
    json_decref(archs);
    strbuf_adds(out, ",\"meta\":");
    add_json(out, d->meta);
    strbuf_adds(out, ",\"rows\":[");
    json_t *name_of[COMPAT_VERDICTS]; /* shared by every cell that says it */
    for (int k = 0; k < COMPAT_VERDICTS; k++)
        name_of[k] = json_string(compat_verdict_name(k));
    /* A row's "cells" ({cc: verdict}) written straight, its keys in the
     * order jansson sorts them (strcmp of the names); "cells" sorts before
     * every other key of a row, so it goes first. */
    struct cell_col *cols = xcalloc(d->grid.nccs + 1, sizeof *cols);
    for (size_t c = 0; c < d->grid.nccs; c++) {
        cols[c].c = c;
        compat_cc_string(d->grid.ccs[c], cols[c].name, sizeof cols[c].name);
    }
    if (d->grid.nccs > 1)
        qsort(cols, d->grid.nccs, sizeof *cols, cell_col_cmp);
    struct strbuf rest = STRBUF_INIT;
    for (size_t r = 0; r < v->nrows; r++) {
        json_t *o = dbview_row_json(v, &v->rows[r]);
        if (r)
            strbuf_addc(out, ',');
        /* "wheels" sorts after every key a row has, so it goes last */
        const char *key;
        json_t *val;
        int after = 0, before_cells = 0;
        json_object_foreach(o, key, val)
        {
            after |= strcmp(key, "wheels") >= 0;
            before_cells |= strcmp(key, "cells") <= 0;
        }
        if (after || before_cells) { /* not a row's usual keys: through the tree */
            json_t *cells = json_object();
            for (size_t c = 0; c < d->grid.nccs; c++) {
                int verdict = grid_at(&d->grid, cols[c].c, r)->verdict;
                if (grid_row_fits(&v->rows[r], d->grid.ccs[cols[c].c]) && verdict >= 0 &&
                    verdict < COMPAT_VERDICTS)
                    json_object_set(cells, cols[c].name, name_of[verdict]);
            }
            json_object_set_new(o, "cells", cells);
            json_object_set_new(o, "wheels", slim_wheels(&v->rows[r]));
            add_json(out, o);
            json_decref(o);
            continue;
        }
        strbuf_adds(out, "{\"cells\":{");
        int first = 1;
        for (size_t c = 0; c < d->grid.nccs; c++) {
            if (!grid_row_fits(&v->rows[r], d->grid.ccs[cols[c].c]))
                continue; /* the other vendor's GPUs */
            int verdict = grid_at(&d->grid, cols[c].c, r)->verdict;
            if (verdict < 0 || verdict >= COMPAT_VERDICTS)
                continue;
            strbuf_adds(out, first ? "\"" : ",\"");
            strbuf_adds(out, cols[c].name);
            strbuf_adds(out, "\":\"");
            strbuf_adds(out, compat_verdict_name(verdict));
            strbuf_addc(out, '"');
            first = 0;
        }
        strbuf_addc(out, '}');
        /* then the row's other keys, and its wheels last */
        strbuf_reset(&rest);
        add_row_with_wheels(&rest, o, &v->rows[r]);
        if (rest.len > 2) {
            strbuf_addc(out, ',');
            strbuf_add(out, rest.buf + 1, rest.len - 1); /* without its '{' */
        } else {
            strbuf_addc(out, '}');
        }
        json_decref(o);
    }
    strbuf_free(&rest);
    free(cols);
    for (int k = 0; k < COMPAT_VERDICTS; k++)
        json_decref(name_of[k]);
    strbuf_adds(out, "]}\n");
}

/* One CSV field (RFC 4180): quoted, with quotes doubled, when it holds a
 * comma, a quote or a line break. */
static void csv_field(struct strbuf *b, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        strbuf_adds(b, s);
        return;
    }
    strbuf_addc(b, '"');
    for (; *s; s++) {
        if (*s == '"')
            strbuf_addc(b, '"');
        strbuf_addc(b, *s);
    }
    strbuf_addc(b, '"');
}

void sitedata_build_csv(struct sitedata *d)
{
    const struct dbview *v = d->v;
    struct strbuf *b = &d->csv;
    strbuf_adds(b, "project,version,release,variant,platform,status,cuda,rocm,min_driver_linux,"
                   "min_driver_windows,sass,ptx,gfx");
    for (size_t c = 0; c < d->grid.nccs; c++) {
        char cc[16];
        compat_cc_string(d->grid.ccs[c], cc, sizeof cc);
        strbuf_addf(b, d->grid.ccs[c] >= TABLES_AMD_MIN ? ",%s" : ",cc_%s", cc);
    }
    strbuf_addc(b, '\n');
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        const struct minor_compat *mc =
            row->cuda.n ? tables_minor_compat(d->t, (int)row->cuda.f[0]) : NULL;
        const char *fields[] = {row->project, row->version,  row->release,
                                row->variant, row->platform, dbview_status_name(row->status)};
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
            csv_field(b, fields[f]);
            strbuf_addc(b, ',');
        }
        if (row->cuda.n) {
            char cuda[16];
            tables_variant_cuda_text(row->variant, cuda, sizeof cuda);
            strbuf_adds(b, cuda);
        }
        char rocm[16];
        sitedata_rocm_of(row, rocm, sizeof rocm);
        strbuf_addc(b, ',');
        csv_field(b, rocm);
        strbuf_addc(b, ',');
        csv_field(b, mc && mc->min_driver_text[0] ? mc->min_driver_text[0] : "");
        strbuf_addc(b, ',');
        csv_field(b, mc && mc->min_driver_text[1] ? mc->min_driver_text[1] : "");
        strbuf_addc(b, ',');
        for (int kind = 0; kind < 3; kind++) {
            const struct target *t = kind == 2 ? row->gfx : kind ? row->ptx : row->sass;
            size_t n = kind == 2 ? row->ngfx : kind ? row->nptx : row->nsass;
            for (size_t i = 0; i < n; i++) {
                char name[TARGET_NAME_MAX];
                target_format(&t[i], name, sizeof name);
                strbuf_addf(b, "%s%s", i ? ";" : "", name);
            }
            if (kind < 2)
                strbuf_addc(b, ',');
        }
        /* Cells of the other vendor's GPUs stay empty. */
        for (size_t c = 0; c < d->grid.nccs; c++)
            strbuf_addf(b, ",%s",
                        grid_row_fits(row, d->grid.ccs[c])
                            ? compat_verdict_name(grid_at(&d->grid, c, r)->verdict)
                            : "");
        strbuf_addc(b, '\n');
    }
}

static json_t *targets_of(const struct target *t, size_t n, int variant_style)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        char name[TARGET_NAME_MAX];
        if (variant_style) /* WheelNext: "90_real", "120_virtual", "90a_real" */
            snprintf(name, sizeof name, "%u%s_%s", t[i].arch,
                     t[i].suffix == 'a'   ? "a"
                     : t[i].suffix == 'f' ? "f"
                                          : "",
                     t[i].kind == TARGET_PTX ? "virtual" : "real");
        else
            target_format(&t[i], name, sizeof name);
        json_array_append_new(a, json_string(name));
    }
    return a;
}

static json_t *obj_path(json_t *root, const char *const *keys, size_t n)
{
    json_t *o = root;
    for (size_t i = 0; i < n; i++) {
        json_t *next = json_object_get(o, keys[i]);
        if (!next) {
            next = json_object();
            json_object_set_new(o, keys[i], next);
        }
        o = next;
    }
    return o;
}

json_t *sitedata_build_index_table(struct sitedata *d)
{
    const struct dbview *v = d->v;
    json_t *doc = json_object();
    json_object_set_new(doc, "meta", sitedata_meta_copy(d));
    json_t *indexes = json_object();
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        json_t *ix = json_object_get(indexes, row->variant);
        if (!ix) {
            ix = json_object();
            json_object_set_new(indexes, row->variant, ix);
            char *u = xstrdup(row->index_url);
            size_t ul = strlen(u);
            if (ul && u[ul - 1] == '/')
                u[ul - 1] = '\0';
            json_object_set_new(ix, "url", json_string(u));
            free(u);
            if (row->cuda.n) {
                char cuda[16];
                tables_variant_cuda_text(row->variant, cuda, sizeof cuda);
                json_object_set_new(ix, "cuda", json_string(cuda));
                const struct minor_compat *mc = tables_minor_compat(d->t, (int)row->cuda.f[0]);
                json_t *md = json_object();
                if (mc && mc->min_driver_text[0])
                    json_object_set_new(md, "linux", json_string(mc->min_driver_text[0]));
                if (mc && mc->min_driver_text[1])
                    json_object_set_new(md, "windows", json_string(mc->min_driver_text[1]));
                json_object_set_new(ix, "min_driver", md);
            } else {
                json_object_set_new(ix, "cuda", json_null());
                json_object_set_new(ix, "min_driver", json_null());
            }
            char rocm[16];
            sitedata_rocm_of(row, rocm, sizeof rocm);
            json_object_set_new(ix, "rocm", rocm[0] ? json_string(rocm) : json_null());
            json_object_set_new(ix, "platforms", json_object());
        }
        const char *keys[] = {"platforms", row->platform, row->project};
        json_t *versions = obj_path(ix, keys, 3);
        json_t *e = json_object();
        json_object_set_new(e, "sass", targets_of(row->sass, row->nsass, 0));
        json_object_set_new(e, "ptx", targets_of(row->ptx, row->nptx, 0));
        json_object_set_new(e, "gfx", targets_of(row->gfx, row->ngfx, 0));
        json_object_set_new(e, "ptx_isa", dbview_isa_json(&row->code));
        json_object_set_new(e, "status", json_string(dbview_status_name(row->status)));
        json_object_set_new(versions, row->version, e);
    }
    json_object_set_new(doc, "indexes", indexes);
    return doc;
}

/* A wheel-variant entry: {VENDOR: {ARCH_KEY: arch, BOUND_KEY: [bound]},
 * "properties": ["VENDOR :: ARCH_KEY :: x", ..., "VENDOR :: BOUND_KEY ::
 * bound"]}.  Takes arch. */
static json_t *variant_entry(const char *vendor, const char *arch_key, json_t *arch,
                             const char *bound_key, const char *bound)
{
    json_t *props = json_array();
    size_t i;
    json_t *x;
    json_array_foreach(arch, i, x)
    {
        char *p = xasprintf("%s :: %s :: %s", vendor, arch_key, json_string_value(x));
        json_array_append_new(props, json_string(p));
        free(p);
    }
    char *p = xasprintf("%s :: %s :: %s", vendor, bound_key, bound);
    json_array_append_new(props, json_string(p));
    free(p);
    json_t *v = json_object(), *b = json_array();
    json_array_append_new(b, json_string(bound));
    json_object_set_new(v, bound_key, b);
    json_object_set_new(v, arch_key, arch);
    json_t *entry = json_object();
    json_object_set_new(entry, vendor, v);
    json_object_set_new(entry, "properties", props);
    return entry;
}

json_t *sitedata_build_variants(struct sitedata *d)
{
    const struct dbview *v = d->v;
    json_t *doc = json_object();
    json_object_set_new(doc, "meta", sitedata_meta_copy(d));
    json_t *projects = json_object();
    struct strmap *seen = strmap_new(); /* bound and targets -> parts */
    json_t **parts = NULL;
    size_t nparts = 0, capparts = 0;
    struct strbuf key = STRBUF_INIT;
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        char rocm[16];
        sitedata_rocm_of(row, rocm, sizeof rocm);
        char cuda[16] = "";
        if (row->cuda.n)
            tables_variant_cuda_text(row->variant, cuda, sizeof cuda);
        else if (!rocm[0])
            continue; /* cpu: no GPU properties */
        const char *keys[] = {row->project, row->version, row->platform};
        json_t *pl = obj_path(projects, keys, 3);
        /* Rows with the same targets and bound share their entry's parts
         * (thousands of rows, a few dozen distinct answers; jsontext then
         * writes a shared part once and copies it). */
        strbuf_reset(&key);
        strbuf_adds(&key, rocm[0] ? "amd " : "nvidia ");
        strbuf_adds(&key, rocm[0] ? rocm : cuda);
        const struct target *tl[2] = {rocm[0] ? row->gfx : row->sass, rocm[0] ? NULL : row->ptx};
        size_t tn[2] = {rocm[0] ? row->ngfx : row->nsass, rocm[0] ? 0 : row->nptx};
        for (int l = 0; l < 2; l++)
            for (size_t i = 0; i < tn[l]; i++) {
                char name[TARGET_NAME_MAX];
                target_format(&tl[l][i], name, sizeof name);
                strbuf_addc(&key, ' ');
                strbuf_adds(&key, name);
            }
        size_t at;
        json_t *entry;
        if (strmap_get(seen, key.buf, &at)) {
            entry = json_copy(parts[at]); /* the shared vendor object and properties */
        } else {
            if (rocm[0]) {
                /* AMD: `amd :: gfx_arch` (wheelarch's names; no provider plugin
                 * defines them yet). */
                entry = variant_entry("amd", "gfx_arch", targets_of(row->gfx, row->ngfx, 0),
                                      "rocm_version_lower_bound", rocm);
            } else {
                struct target *all = xmalloc((row->nsass + row->nptx + 1) * sizeof *all);
                if (row->nsass)
                    memcpy(all, row->sass, row->nsass * sizeof *all);
                if (row->nptx)
                    memcpy(all + row->nsass, row->ptx, row->nptx * sizeof *all);
                entry =
                    variant_entry("nvidia", "sm_arch", targets_of(all, row->nsass + row->nptx, 1),
                                  "cuda_version_lower_bound", cuda);
                free(all);
            }
            parts = xgrow(parts, &capparts, nparts + 1, sizeof *parts);
            parts[nparts] = json_copy(entry);
            strmap_put(seen, key.buf, nparts++);
        }
        json_object_set_new(entry, "status", json_string(dbview_status_name(row->status)));
        json_object_set_new(pl, row->variant, entry);
    }
    json_object_set_new(doc, "variants", projects);
    for (size_t i = 0; i < nparts; i++)
        json_decref(parts[i]);
    free(parts);
    strmap_free(seen);
    strbuf_free(&key);
    return doc;
}

/* ---- simple indexes ------------------------------------------------------ */

/* The simple-index links of one row's wheels, one per wheel in order (null
 * for a wheel whose URL is not http(s)). */
static json_t *row_links(const struct dbview_row *row)
{
    json_t *links = json_array();
    for (size_t i = 0; i < row->nwheels; i++) {
        const struct record_wheel *w = &row->wheels[i];
        char *url = sitedata_href(w->url);
        if (!url) {
            json_array_append_new(links, json_null()); /* not an http(s) URL: no link */
            continue;
        }
        /* recordcheck refuses a URL with a fragment; were one to get
         * through, it is cut, so a link never has two '#'. */
        url[strcspn(url, "#")] = '\0';
        json_t *l = json_object();
        json_object_set_new(l, "filename", json_string(w->filename));
        char *href = w->sha256 ? xasprintf("%s#sha256=%s", url, w->sha256) : xstrdup(url);
        json_object_set_new(l, "href", json_string(href));
        json_object_set_new(l, "url", json_string(url));
        free(href);
        free(url);
        json_object_set_new(l, "sha256", w->sha256 ? json_string(w->sha256) : json_null());
        json_object_set_new(l, "requires_python",
                            w->requires_python ? json_string(w->requires_python) : json_null());
        /* PEP 691: the reason, or true; PEP 592's data-yanked: the reason,
         * empty for a wheel yanked without one */
        json_t *y = record_wheel_yanked_json(w);
        if (json_is_string(y) || json_is_true(y))
            json_object_set_new(l, "data_yanked",
                                json_string(json_is_string(y) ? json_string_value(y) : ""));
        json_object_set_new(l, "is_yanked", json_boolean(json_is_string(y) || json_is_true(y)));
        json_object_set_new(l, "yanked", y);
        json_object_set_new(l, "upload_time",
                            w->upload_time ? json_string(w->upload_time) : json_null());
        json_array_append_new(links, l);
    }
    return links;
}

static int cmp_cstr(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A link's wheel tags ("cp312-cp312-manylinux_2_28_x86_64"): what an
 * installer chooses between once the version is fixed; caller frees. */
static char *link_tag(const char *filename)
{
    struct wheel_name w;
    if (wheelname_parse(filename, &w, NULL) < 0)
        return xstrdup(filename);
    char *tag = xasprintf("%s-%s-%s", w.python, w.abi, w.platform);
    wheelname_free(&w);
    return tag;
}

#define NO_TAG UINT32_MAX

struct candidate {
    size_t row;
    const struct dbview_row *vrow;
};

/* The preferred build first: the newest CUDA (or ROCm), as `query` picks
 * when it knows no driver; then by platform. */
static int candidate_cmp(const void *a, const void *b)
{
    const struct candidate *x = a, *y = b;
    int c = tables_variant_cmp(y->vrow->variant, x->vrow->variant);
    return c ? c : strcmp(x->vrow->platform, y->vrow->platform);
}

/* The simple indexes list what an installer can use: for each version of
 * a project and each wheel tag (python, ABI, platform), the wheel of the
 * preferred variant among those with native code for the architecture; a
 * variant that runs but would never be chosen is left out.  {"projects":
 * [...], "rows": [{project}], "archs": [{arch, cc}]}; d->simple_picks says
 * which wheels of which rows each architecture's pages list, in order, and
 * sitedata_simple_links makes a row's links when they are written. */
void sitedata_build_simple(struct sitedata *d)
{
    const struct dbview *v = d->v;
    d->simple = json_object();
    json_t *rows = json_array(), *archs = json_array();
    size_t *index = xcalloc(v->nrows + 1, sizeof *index); /* view row -> simple row + 1 */
    /* per simple row, per wheel: its tag as a number (the same number for
     * the same tag), NO_TAG for a wheel without a link */
    uint32_t **tags = xcalloc(v->nrows + 1, sizeof *tags);
    size_t *ntags = xcalloc(v->nrows + 1, sizeof *ntags);
    struct strmap *tag_ids = strmap_new();
    size_t nids = 0;
    d->simple_rows = xcalloc(v->nrows + 1, sizeof *d->simple_rows);
    const char **names = xcalloc(v->nrows + 1, sizeof *names);
    size_t nnames = 0;
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        if (row->status == VIEW_DECLARED || row->nwheels == 0)
            continue;
        json_t *x = json_object();
        json_object_set_new(x, "project", json_string(row->project));
        size_t at = json_array_size(rows);
        d->simple_rows[at] = r;
        tags[at] = xcalloc(row->nwheels + 1, sizeof **tags);
        ntags[at] = row->nwheels;
        for (size_t k = 0; k < row->nwheels; k++) {
            tags[at][k] = NO_TAG;
            if (!sitedata_is_http(row->wheels[k].url))
                continue; /* no link (sitedata_href's NULL) */
            char *tag = link_tag(row->wheels[k].filename);
            size_t id;
            if (!strmap_get(tag_ids, tag, &id)) {
                id = nids++;
                strmap_put(tag_ids, tag, id);
            }
            tags[at][k] = (uint32_t)id;
            free(tag);
        }
        json_array_append_new(rows, x);
        index[r] = at + 1;
        size_t k;
        for (k = 0; k < nnames; k++)
            if (strcmp(names[k], row->project) == 0)
                break;
        if (k == nnames)
            names[nnames++] = row->project;
    }
    if (nnames > 1)
        qsort(names, nnames, sizeof *names, cmp_cstr);
    json_t *pl = json_array();
    for (size_t k = 0; k < nnames; k++)
        json_array_append_new(pl, json_string(names[k]));
    d->simple_picks = xcalloc(d->grid.nccs + 1, sizeof *d->simple_picks);
    struct candidate *cand = xcalloc(v->nrows + 1, sizeof *cand);
    /* the tags a (project, version) has listed: seen[id] == its number */
    size_t *seen = xcalloc(nids + 1, sizeof *seen), group = 0;
    for (size_t c = 0; c < d->grid.nccs; c++) {
        uint16_t cc = d->grid.ccs[c];
        char arch[16];
        sitedata_arch_dir(cc, arch, sizeof arch);
        json_t *a = json_object();
        json_object_set_new(a, "arch", json_string(arch));
        json_object_set_new(a, "cc", sitedata_cc_json(cc));
        json_array_append_new(archs, a);
        struct sitedata_picks *pk = &d->simple_picks[c];
        size_t cap = 0;
        /* one (project, version) at a time: its rows are consecutive */
        for (size_t r = 0; r < v->nrows;) {
            size_t end = r + 1;
            while (end < v->nrows && strcmp(v->rows[end].project, v->rows[r].project) == 0 &&
                   strcmp(v->rows[end].version, v->rows[r].version) == 0)
                end++;
            size_t n = 0;
            group++;
            for (size_t q = r; q < end; q++)
                if (index[q] && grid_at(&d->grid, c, q)->verdict == COMPAT_NATIVE)
                    cand[n++] = (struct candidate){q, &v->rows[q]};
            if (n > 1)
                qsort(cand, n, sizeof *cand, candidate_cmp);
            /* Wheels that are not yanked first: pip passes over a yanked
             * file unless pinned to it, so a yanked wheel of the preferred
             * variant must not hide another variant's good one; a yanked
             * wheel is listed only for a tag nothing else has (PEP 592). */
            for (int pass = 0; pass < 2; pass++)
                for (size_t i = 0; i < n; i++) {
                    size_t sr = index[cand[i].row] - 1;
                    const struct dbview_row *vr = cand[i].vrow;
                    for (size_t k = 0; k < ntags[sr]; k++) {
                        uint32_t id = tags[sr][k];
                        if (id == NO_TAG || vr->wheels[k].yanked != pass || seen[id] == group)
                            continue; /* a preferred variant has a wheel for it */
                        seen[id] = group;
                        pk->v = xgrow(pk->v, &cap, pk->n + 1, sizeof *pk->v);
                        pk->v[pk->n++] = (struct sitedata_pick){(uint32_t)sr, (uint32_t)k};
                    }
                }
            r = end;
        }
    }
    free(seen);
    strmap_free(tag_ids);
    free(cand);
    for (size_t i = 0; i < json_array_size(rows); i++)
        free(tags[i]);
    free(tags);
    free(ntags);
    json_object_set_new(d->simple, "projects", pl);
    json_object_set_new(d->simple, "rows", rows);
    json_object_set_new(d->simple, "archs", archs);
    free(index);
    free(names);
}

json_t *sitedata_simple_links(const struct sitedata *d, size_t i)
{
    return row_links(&d->v->rows[d->simple_rows[i]]);
}

size_t sitedata_simple_nlinks(const struct sitedata *d, size_t i)
{
    return d->v->rows[d->simple_rows[i]].nwheels;
}

char *sitedata_simple_link_html(const struct sitedata *d, size_t i, size_t k)
{
    const struct record_wheel *w = &d->v->rows[d->simple_rows[i]].wheels[k];
    char *url = sitedata_wheel_href(w);
    if (!url)
        return NULL;               /* not an http(s) URL: no link */
    url[strcspn(url, "#")] = '\0'; /* as row_links */
    struct strbuf b = STRBUF_INIT;
    strbuf_adds(&b, "<a href=\"");
    if (!w->sha256 || strbuf_utf8_valid(w->sha256)) {
        sitedata_html_text(&b, url);
        if (w->sha256) {
            strbuf_adds(&b, "#sha256=");
            sitedata_html_text(&b, w->sha256);
        }
    }
    strbuf_addc(&b, '"');
    if (w->requires_python && strbuf_utf8_valid(w->requires_python)) {
        strbuf_adds(&b, " data-requires-python=\"");
        sitedata_html_text(&b, w->requires_python);
        strbuf_addc(&b, '"');
    }
    const char *reason;
    if (sitedata_wheel_yanked(w, &reason)) {
        strbuf_adds(&b, " data-yanked=\""); /* PEP 592: the reason, empty without one */
        sitedata_html_text(&b, reason);
        strbuf_addc(&b, '"');
    }
    strbuf_addc(&b, '>');
    sitedata_html_text(&b, w->filename);
    strbuf_adds(&b, "</a><br>\n");
    free(url);
    return strbuf_detach(&b, NULL);
}
