/*
 * sitedata_feeds: the feed documents (matrix.json, matrix.csv, index-table.json,
 * variants.json); the simple indexes' data is sitedata_simple's.
 */
#include "sitedata_feeds.h"
#include "sitedata_state.h"

#include <stdlib.h>
#include <string.h>

#include "feed_answer.h"
#include "jsontext.h"
#include "strmap.h"
#include "vendorindex.h"
#include "xalloc.h"
#include "sitedata_types.h"

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

/* The index's own fields, from its first row (url, cuda, min_driver, rocm). */
static json_t *index_header(const struct sitedata *d, const struct dbview_row *row)
{
    json_t *ix = json_object();
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
        json_object_set_new(ix, "min_driver", dbview_min_driver_json(d->t, &row->cuda));
    } else {
        json_object_set_new(ix, "cuda", json_null());
        json_object_set_new(ix, "min_driver", json_null());
    }
    char rocm[16];
    sitedata_rocm_of(row, rocm, sizeof rocm);
    json_object_set_new(ix, "rocm", rocm[0] ? json_string(rocm) : json_null());
    return ix;
}

/* A build's entry: its release and version, its day, its wheels and
 * their sizes, its targets and status. */
static json_t *index_entry(const struct sitedata *d, const struct dbview_row *row, int whole)
{
    json_t *e = json_object();
    json_object_set_new(e, "release", json_string(row->release));
    json_object_set_new(e, "version", whole ? json_null() : json_string(row->version));
    const struct release_info *ri =
        tables_release_at(d->t, row->project, row->version, row->platform);
    json_object_set_new(e, "released",
                        ri && ri->release_date && ri->release_date[0]
                            ? json_string(ri->release_date)
                            : json_null());
    json_t *wheels = json_array();
    for (size_t i = 0; i < row->nwheels; i++) {
        const struct record_wheel *w = &row->wheels[i];
        json_t *x = json_object();
        json_object_set_new(x, "filename", json_string(w->filename));
        json_object_set_new(x, "size", w->size >= 0 ? json_integer(w->size) : json_null());
        json_array_append_new(wheels, x);
    }
    json_object_set_new(e, "wheels", wheels);
    json_object_set_new(e, "sass", targets_of(row->sass, row->nsass, 0));
    json_object_set_new(e, "ptx", targets_of(row->ptx, row->nptx, 0));
    json_object_set_new(e, "gfx", targets_of(row->gfx, row->ngfx, 0));
    if (row->nextras) { /* which install extra brings which targets, as crawled */
        json_t *x = json_object();
        for (size_t i = 0; i < row->nextras; i++)
            json_object_set_new(x, row->extras[i].name,
                                targets_of(row->extras[i].gfx, row->extras[i].ngfx, 0));
        json_object_set_new(e, "extras", x);
    }
    json_object_set_new(e, "ptx_isa", dbview_isa_json(&row->code));
    json_object_set_new(e, "status", json_string(dbview_status_name(row->status)));
    /* a vendor's own build of this id (NVIDIA's Windows on Arm cu134): its
     * own index, which the index's url is not */
    if (row->vendor) {
        json_object_set_new(e, "index_url", json_string(row->vendor->index_url));
        json_object_set_new(e, "vendor", json_string(row->vendor->vendor));
        json_object_set_new(e, "preview", json_boolean(row->vendor->preview));
        json_object_set_new(e, "index_flag",
                            json_string(row->vendor->extra ? "--extra-index-url" : "--index-url"));
        json_object_set_new(e, "exact",
                            json_sprintf("%s+%s", row->vendor->version, row->vendor->variant));
        json_object_set_new(e, "gpu_extra",
                            row->vendor->gpu_extra ? json_string(row->vendor->gpu_extra)
                                                   : json_null());
    }
    return e;
}

/* A row's place in index-table.json: index -> platform -> project -> pin,
 * the pin being what pip pins: the version read ("2.8.0"), or for a
 * declared row, which stands for every patch of its release, the release
 * with a wildcard ("2.10.*"). */
struct it_key {
    const struct dbview_row *row;
    size_t at; /* the row's place in the view: the last of equal keys wins */
    char *pin;
    int whole;
};

/* The order of the keys alone: index, platform, project, pin. */
static int it_key_order(const struct it_key *x, const struct it_key *y)
{
    int c = strcmp(x->row->variant, y->row->variant);
    if (!c)
        c = strcmp(x->row->platform, y->row->platform);
    if (!c)
        c = strcmp(x->row->project, y->row->project);
    return c ? c : strcmp(x->pin, y->pin);
}

/* The keys' order, then the view's among equal keys. */
static int it_key_cmp(const void *a, const void *b)
{
    const struct it_key *x = a, *y = b;
    int c = it_key_order(x, y);
    return c ? c : x->at < y->at ? -1 : x->at > y->at;
}

/* A key as JSON (escaped as jansson escapes it), then a colon. */
static void it_name(struct strbuf *out, const char *key)
{
    json_t *k = json_string(key);
    jsontext_append(out, k, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(k);
    strbuf_addc(out, ':');
}

/* A value as sitei_put_json writes one (sorted keys, compact); takes v. */
static void it_value(struct strbuf *out, json_t *v)
{
    jsontext_append(out, v, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(v);
}

/* An index's key and its fields before its platforms (cuda,
 * min_driver), and the platforms' opening. */
static void index_open(struct strbuf *out, const char *variant, const json_t *head)
{
    it_name(out, variant);
    strbuf_adds(out, "{\"cuda\":");
    it_value(out, json_incref(json_object_get(head, "cuda")));
    strbuf_adds(out, ",\"min_driver\":");
    it_value(out, json_incref(json_object_get(head, "min_driver")));
    strbuf_adds(out, ",\"platforms\":{");
}

/* The end of an index's last pin map, project and platforms, its fields
 * after them (rocm, url) and its end; takes head. */
static void index_close(struct strbuf *out, json_t *head)
{
    strbuf_adds(out, "}}},\"rocm\":");
    it_value(out, json_incref(json_object_get(head, "rocm")));
    strbuf_adds(out, ",\"url\":");
    it_value(out, json_incref(json_object_get(head, "url")));
    strbuf_addc(out, '}');
    json_decref(head);
}

void sitedata_index_table_json(const struct sitedata *d, struct strbuf *out)
{
    const struct dbview *v = d->v;
    size_t n = v->nrows;
    struct it_key *k = xmalloc((n ? n : 1) * sizeof *k);
    /* an index's own fields come from the first row of its variant, one of
     * PyTorch's where it has any (a vendor's entries name their own URL) */
    struct strmap *first = strmap_new();
    for (size_t r = 0; r < n; r++) {
        const struct dbview_row *row = &v->rows[r];
        int whole = row->status == VIEW_DECLARED && strcmp(row->version, row->release) == 0;
        k[r] = (struct it_key){
            row, r, whole ? xasprintf("%s.*", row->release) : xstrdup(row->version), whole};
        size_t at;
        if (!strmap_get(first, row->variant, &at) || (v->rows[at].vendor && !row->vendor))
            strmap_put(first, row->variant, r);
    }
    qsort(k, n, sizeof *k, it_key_cmp);
    /* {"indexes":{VARIANT:{"cuda":..,"min_driver":..,"platforms":{PLATFORM:
     * {PROJECT:{PIN:entry,..}}},"rocm":..,"url":..}},"meta":..}, the keys in
     * the order JSON_SORT_KEYS gives, one entry in memory at a time; of
     * rows with one key the last in the view's order stands */
    strbuf_adds(out, "{\"indexes\":{");
    const struct it_key *prev = NULL;
    json_t *head = NULL; /* the open index's fields */
    for (size_t i = 0; i < n; i++) {
        if (i + 1 < n && it_key_order(&k[i], &k[i + 1]) == 0)
            continue;
        const struct dbview_row *row = k[i].row;
        int new_index = !prev || strcmp(prev->row->variant, row->variant) != 0;
        int new_platform = new_index || strcmp(prev->row->platform, row->platform) != 0;
        int new_project = new_platform || strcmp(prev->row->project, row->project) != 0;
        if (new_index) {
            if (head) {
                index_close(out, head);
                strbuf_addc(out, ',');
            }
            size_t at = 0;
            strmap_get(first, row->variant, &at);
            head = index_header(d, &v->rows[at]);
            index_open(out, row->variant, head);
        } else if (new_platform) {
            strbuf_adds(out, "}},");
        } else if (new_project) {
            strbuf_adds(out, "},");
        } else {
            strbuf_addc(out, ',');
        }
        if (new_platform) {
            it_name(out, row->platform);
            strbuf_addc(out, '{');
        }
        if (new_project) {
            it_name(out, row->project);
            strbuf_addc(out, '{');
        }
        it_name(out, k[i].pin);
        it_value(out, index_entry(d, row, k[i].whole));
        prev = &k[i];
    }
    if (head)
        index_close(out, head);
    strbuf_adds(out, "},\"meta\":");
    it_value(out, json_incref(d->meta));
    strbuf_adds(out, "}\n");
    strmap_free(first);
    for (size_t i = 0; i < n; i++)
        free(k[i].pin);
    free(k);
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
    json_object_set_new(doc, "meta", feed_meta_copy(d));
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
