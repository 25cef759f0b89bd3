/*
 * sitedata: feed documents and page data, computed once.
 */
#include "sitedata.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "record.h"
#include "strmap.h"
#include "timeline.h"
#include "version.h"
#include "xalloc.h"

static const char *const platforms[] = {"linux-x86_64", "linux-aarch64", "windows-x86_64"};
#define NPLATFORMS 3

static const char *platform_name(const char *id)
{
    if (strcmp(id, "linux-x86_64") == 0)
        return "Linux x86_64";
    if (strcmp(id, "linux-aarch64") == 0)
        return "Linux aarch64";
    if (strcmp(id, "windows-x86_64") == 0)
        return "Windows x86_64";
    return id;
}

char *sitedata_segment(const char *s)
{
    /* Injective, so two values never share a page: [A-Za-z0-9.-] stands for
     * itself and every other byte is '_' and two lowercase hex digits, so
     * '_' only ever starts an escape.  A leading '.' is escaped too (no
     * ".", "..", or hidden file), and "" becomes a lone '_', which no other
     * value gives. */
    static const char hex[] = "0123456789abcdef";
    struct strbuf b = STRBUF_INIT;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        int keep = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                   (*p >= '0' && *p <= '9') || *p == '-' ||
                   (*p == '.' && p != (const unsigned char *)s);
        if (keep) {
            strbuf_addc(&b, (char)*p);
        } else {
            strbuf_addc(&b, '_');
            strbuf_addc(&b, hex[*p >> 4]);
            strbuf_addc(&b, hex[*p & 15]);
        }
    }
    if (b.len == 0)
        strbuf_addc(&b, '_');
    return strbuf_detach(&b, NULL);
}

char *sitedata_id(const char *s)
{
    struct strbuf b = STRBUF_INIT;
    int run = 0; /* in a run of other bytes */
    for (const char *p = s ? s : ""; *p; p++) {
        char c = *p;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '_' || c == '-') {
            strbuf_addc(&b, c);
            run = 0;
        } else if (!run) {
            strbuf_addc(&b, '-');
            run = 1;
        }
    }
    if (b.len == 0)
        strbuf_addc(&b, 'x');
    return strbuf_detach(&b, NULL);
}

/* An id not yet used on a page (used: the page's ids so far): prefix +
 * sitedata_id(raw), then "-2", "-3", ... while taken.  The same data in
 * the same order gives the same ids.  Caller frees. */
static char *page_id(struct strmap *used, const char *prefix, const char *raw)
{
    char *slug = sitedata_id(raw);
    char *id = xasprintf("%s%s", prefix, slug);
    for (unsigned n = 2; strmap_get(used, id, NULL); n++) {
        free(id);
        id = xasprintf("%s%s-%u", prefix, slug, n);
    }
    strmap_put(used, id, 0);
    free(slug);
    return id;
}

static void set_page_id(json_t *o, const char *key, struct strmap *used, const char *prefix,
                        const char *raw)
{
    char *id = page_id(used, prefix, raw);
    json_object_set_new(o, key, json_string(id));
    free(id);
}

char *sitedata_href(const char *url)
{
    if (!url || (strncmp(url, "https://", 8) != 0 && strncmp(url, "http://", 7) != 0))
        return NULL;
    static const char hex[] = "0123456789ABCDEF";
    struct strbuf b = STRBUF_INIT;
    for (const unsigned char *p = (const unsigned char *)url; *p; p++) {
        int pct_ok = *p == '%' && isxdigit(p[1]) && isxdigit(p[2]);
        if (*p <= 0x20 || *p >= 0x7f || strchr("\"<>\\^`{|}", *p) || (*p == '%' && !pct_ok)) {
            strbuf_addc(&b, '%');
            strbuf_addc(&b, hex[*p >> 4]);
            strbuf_addc(&b, hex[*p & 15]);
        } else {
            strbuf_addc(&b, (char)*p);
        }
    }
    return strbuf_detach(&b, NULL);
}

/* Sets key to the safe href of url, when url is an http(s) URL. */
static void set_href(json_t *o, const char *key, const char *url)
{
    char *h = sitedata_href(url);
    if (h)
        json_object_set_new(o, key, json_string(h));
    free(h);
}

static char *release_path(const char *project, const char *version)
{
    char *p = sitedata_segment(project), *v = sitedata_segment(version);
    char *out = xasprintf("release/%s/%s/", p, v);
    free(p);
    free(v);
    return out;
}

void sitedata_arch_dir(uint16_t cc, char *buf, size_t n)
{
    if (cc >= TABLES_AMD_MIN)
        snprintf(buf, n, "gfx%x", (unsigned)cc);
    else
        snprintf(buf, n, "sm_%u", cc);
}

/* The ROCm version of a row's variant as "6.4" ("6.2.4" for rocm6.2.4), or
 * "" when none. */
static void rocm_of(const struct dbview_row *row, char *buf, size_t n)
{
    buf[0] = '\0';
    if (tables_variant_rocm(row->variant, NULL))
        snprintf(buf, n, "%s", row->variant + 4);
}

static json_t *cc_json(uint16_t cc)
{
    char s[16];
    compat_cc_string(cc, s, sizeof s);
    return json_string(s);
}

/* ---- the newest version per (project, release, variant, platform) ------- */

static char *group_key(const char *project, const char *release, const char *variant,
                       const char *platform)
{
    return xasprintf("%s|%s|%s|%s", project, release, variant, platform);
}

static void build_newest(struct sitedata *d)
{
    const struct dbview *v = d->v;
    d->newest = strmap_new();
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        char *k = group_key(row->project, row->release, row->variant, row->platform);
        size_t best;
        if (!strmap_get(d->newest, k, &best)) {
            strmap_put(d->newest, k, r);
        } else {
            const struct dbview_row *b = &v->rows[best];
            int c = dotver_cmp_str(row->version, b->version);
            if (c > 0 || (c == 0 && row->status < b->status))
                strmap_put(d->newest, k, r);
        }
        free(k);
    }
}

/* The row of (project, release, variant, platform) with the newest version
 * (the better status among equals), or -1. */
static long newest_row(const struct sitedata *d, const char *project, const char *release,
                       const char *variant, const char *platform)
{
    char *k = group_key(project, release, variant, platform);
    size_t r;
    long out = strmap_get(d->newest, k, &r) ? (long)r : -1;
    free(k);
    return out;
}

/* ---- feed documents ----------------------------------------------------- */

static json_t *meta_copy(const struct sitedata *d)
{
    return json_deep_copy(d->meta);
}

static json_t *build_matrix(struct sitedata *d)
{
    const struct dbview *v = d->v;
    json_t *doc = json_object();
    json_object_set_new(doc, "meta", meta_copy(d));
    json_t *archs = json_array();
    for (size_t c = 0; c < d->grid.nccs; c++)
        json_array_append_new(archs, cc_json(d->grid.ccs[c]));
    json_object_set_new(doc, "architectures", archs);
    json_t *rows = json_array();
    for (size_t r = 0; r < v->nrows; r++) {
        json_t *o = dbview_row_json(v, &v->rows[r]);
        json_object_del(o, "binaries"); /* per-binary detail is on the release pages */
        json_t *cells = json_object();
        for (size_t c = 0; c < d->grid.nccs; c++) {
            if (!grid_row_fits(&v->rows[r], d->grid.ccs[c]))
                continue; /* the other vendor's GPUs */
            char cc[16];
            compat_cc_string(d->grid.ccs[c], cc, sizeof cc);
            json_object_set_new(
                cells, cc, json_string(compat_verdict_name(d->grid.res[c * v->nrows + r].verdict)));
        }
        json_object_set_new(o, "cells", cells);
        json_array_append_new(rows, o);
    }
    json_object_set_new(doc, "rows", rows);
    return doc;
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

static void build_csv(struct sitedata *d)
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
        if (row->cuda.n)
            strbuf_addf(b, "%ld.%ld", row->cuda.f[0], row->cuda.f[1]);
        char rocm[16];
        rocm_of(row, rocm, sizeof rocm);
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
                            ? compat_verdict_name(d->grid.res[c * v->nrows + r].verdict)
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

static json_t *build_index_table(struct sitedata *d)
{
    const struct dbview *v = d->v;
    json_t *doc = json_object();
    json_object_set_new(doc, "meta", meta_copy(d));
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
                snprintf(cuda, sizeof cuda, "%ld.%ld", row->cuda.f[0], row->cuda.f[1]);
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
            rocm_of(row, rocm, sizeof rocm);
            json_object_set_new(ix, "rocm", rocm[0] ? json_string(rocm) : json_null());
            json_object_set_new(ix, "platforms", json_object());
        }
        const char *keys[] = {"platforms", row->platform, row->project};
        json_t *versions = obj_path(ix, keys, 3);
        json_t *e = json_object();
        json_object_set_new(e, "sass", targets_of(row->sass, row->nsass, 0));
        json_object_set_new(e, "ptx", targets_of(row->ptx, row->nptx, 0));
        json_object_set_new(e, "gfx", targets_of(row->gfx, row->ngfx, 0));
        json_t *isa = json_object();
        for (size_t i = 0; i < row->code.nisas; i++) {
            char name[TARGET_NAME_MAX], iv[16];
            target_format(&row->code.isas[i].ptx, name, sizeof name);
            snprintf(iv, sizeof iv, "%ld.%ld", row->code.isas[i].isa.f[0],
                     row->code.isas[i].isa.n > 1 ? row->code.isas[i].isa.f[1] : 0);
            json_object_set_new(isa, name, json_string(iv));
        }
        json_object_set_new(e, "ptx_isa", isa);
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

static json_t *build_variants(struct sitedata *d)
{
    const struct dbview *v = d->v;
    json_t *doc = json_object();
    json_object_set_new(doc, "meta", meta_copy(d));
    json_t *projects = json_object();
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        char rocm[16];
        rocm_of(row, rocm, sizeof rocm);
        char cuda[16] = "";
        if (row->cuda.n)
            snprintf(cuda, sizeof cuda, "%ld.%ld", row->cuda.f[0], row->cuda.f[1]);
        else if (!rocm[0])
            continue; /* cpu: no GPU properties */
        const char *keys[] = {row->project, row->version, row->platform};
        json_t *pl = obj_path(projects, keys, 3);
        json_t *entry;
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
            entry = variant_entry("nvidia", "sm_arch", targets_of(all, row->nsass + row->nptx, 1),
                                  "cuda_version_lower_bound", cuda);
            free(all);
        }
        json_object_set_new(entry, "status", json_string(dbview_status_name(row->status)));
        json_object_set_new(pl, row->variant, entry);
    }
    json_object_set_new(doc, "variants", projects);
    return doc;
}

/* ---- recommendations per compute capability and platform ---------------- */

struct recs {
    uint16_t cc;
    int arm_host;
    json_t *by_platform; /* {"linux-x86_64": result or null} */
};

/* An answer (recommendation, fallback, driver-table row) as the feed and
 * the pages carry it: the source text stays in the full answer only. */
static json_t *slim_answer(json_t *a, int keep_source)
{
    if (!json_is_object(a))
        return json_null();
    json_t *x = json_deep_copy(a);
    if (!keep_source)
        json_object_del(x, "source");
    json_object_del(x, "scanned_at");
    int vi = 0;
    const char *vn = json_string_value(json_object_get(x, "verdict"));
    while (vn && vi < COMPAT_VERDICTS && strcmp(compat_verdict_name(vi), vn))
        vi++;
    if (vn && vi < COMPAT_VERDICTS)
        json_object_set_new(x, "symbol", json_string(grid_verdict_symbol(vi)));
    return x;
}

/* The answer of `wheelarch query` for a device on a platform: the one
 * decision the CLI, the pages and the feed share. */
/* The answer a platform's result gives: its recommendation, else the
 * fallback (an older release that runs), else NULL. */
static json_t *answer_of(json_t *r)
{
    json_t *rec = json_object_get(r, "recommendation");
    if (json_is_object(rec))
        return rec;
    json_t *fb = json_object_get(r, "fallback");
    return json_is_object(fb) ? fb : NULL;
}

static json_t *recommendation_for(struct sitedata *d, uint16_t cc, int arm_host,
                                  const char *platform)
{
    struct query_options o = {0};
    o.cc = cc;
    o.arm_host = arm_host;
    o.project = "torch";
    o.platform = platform;
    o.judged = grid_get(&d->grid, cc, 0); /* the grid's verdicts of this device */
    struct wa_error err;
    json_t *r = query_run(d->v, &o, &err);
    if (!r)
        return json_null();
    json_t *out = json_object();
    json_object_set(out, "release", json_object_get(r, "version"));
    json_object_set(out, "applies", json_object_get(r, "applies"));
    json_object_set_new(out, "recommendation",
                        slim_answer(json_object_get(r, "recommendation"), 1));
    json_object_set_new(out, "fallback", slim_answer(json_object_get(r, "fallback"), 1));
    json_t *bd = json_array();
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(r, "by_driver"), i, x)
    {
        json_t *e = slim_answer(x, 0);
        json_object_del(e, "reason");
        json_object_del(e, "checked_on");
        json_array_append_new(bd, e);
    }
    json_object_set_new(out, "by_driver", bd);
    json_t *py = json_object_get(r, "pypi");
    json_object_set_new(out, "pypi", json_is_object(py) ? slim_answer(py, 0) : json_null());
    json_t *ln = json_array();
    json_array_foreach(json_object_get(r, "last_native"), i, x)
    {
        json_t *e = slim_answer(x, 0);
        json_object_del(e, "checked_on");
        json_array_append_new(ln, e);
    }
    json_object_set_new(out, "last_native", ln);
    json_object_set(out, "way_forward", json_object_get(r, "way_forward"));
    json_object_set(out, "guidance", json_object_get(r, "guidance"));
    json_t *vs = json_object();
    json_array_foreach(json_object_get(r, "variants"), i, x) json_object_set(
        vs, json_string_value(json_object_get(x, "variant")), json_object_get(x, "verdict"));
    json_object_set_new(out, "variants", vs);
    json_decref(r);
    return out;
}

static json_t *recs_for(struct sitedata *d, struct recs *cache, size_t *ncache, uint16_t cc,
                        int arm_host)
{
    for (size_t i = 0; i < *ncache; i++)
        if (cache[i].cc == cc && cache[i].arm_host == arm_host)
            return cache[i].by_platform;
    json_t *o = json_object();
    for (int p = 0; p < NPLATFORMS; p++)
        json_object_set_new(o, platforms[p], recommendation_for(d, cc, arm_host, platforms[p]));
    cache[*ncache].cc = cc;
    cache[*ncache].arm_host = arm_host;
    cache[*ncache].by_platform = o;
    (*ncache)++;
    return o;
}

/* ---- GPUs ---------------------------------------------------------------- */

/* JSON for a <script type="application/json"> element: "<" escaped so the
 * text can never close the element. */
static char *script_json(json_t *v)
{
    char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
    struct strbuf b = STRBUF_INIT;
    for (const char *p = s; *p; p++) {
        if (*p == '<')
            strbuf_adds(&b, "\\u003c");
        else
            strbuf_addc(&b, *p);
    }
    free(s);
    return strbuf_detach(&b, NULL);
}

static int gpu_cmp(const void *a, const void *b)
{
    const struct gpu *x = *(const struct gpu *const *)a, *y = *(const struct gpu *const *)b;
    return strcmp(x->slug, y->slug);
}

static json_t *gpu_summary(const struct gpu *g)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(g->name));
    json_object_set_new(o, "slug", json_string(g->slug));
    json_object_set_new(o, "vendor", json_string(g->amd ? "amd" : "nvidia"));
    /* "device" is the key the rules use for it: "6.1" or "gfx1100". */
    json_object_set_new(o, "device", cc_json(g->cc));
    json_object_set_new(o, "compute_capability", g->amd ? json_null() : cc_json(g->cc));
    if (g->amd) {
        char name[TARGET_NAME_MAX];
        target_format(&g->gfx, name, sizeof name);
        json_object_set(o, "gfx", json_object_get(o, "device"));
        json_object_set_new(o, "gfx_target", json_string(name)); /* with its feature modes */
        json_object_set_new(o, "gfx_modes", json_boolean(strchr(name, ':') != NULL));
        json_object_set_new(o, "rocm_support", json_string(g->rocm_support));
    } else {
        json_object_set_new(o, "gfx", json_null());
        json_object_set_new(o, "gfx_target", json_null());
    }
    json_t *others = json_array();
    for (size_t i = 0; i < g->nother; i++)
        json_array_append_new(others, cc_json(g->other_cc[i]));
    json_object_set_new(o, "other_devices", others);
    json_object_set_new(o, "arm_host", json_boolean(g->arm_host));
    json_object_set_new(o, "architecture", json_string(g->architecture));
    json_object_set_new(o, "segment", json_string(g->segment));
    json_object_set_new(o, "tegra", json_boolean(g->tegra));
    char *seg = sitedata_segment(g->slug); /* the slug as is: [a-z0-9-] */
    char *page = xasprintf("gpu/%s/", seg);
    json_object_set_new(o, "page", json_string(page));
    free(page);
    free(seg);
    return o;
}

/* Per-release verdict rows of every project for one compute capability: the
 * newest version of each release (patch releases are on the release pages). */
static json_t *gpu_releases(struct sitedata *d, uint16_t cc, int tegra, int arm_host)
{
    const struct dbview *v = d->v;
    json_t *out = json_array();
    json_t *cur = NULL;
    const char *cur_project = NULL, *cur_version = NULL;
    struct strmap *ids = strmap_new();
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        if ((long)r != newest_row(d, row->project, row->release, row->variant, row->platform) ||
            !grid_row_fits(row, cc) || !query_applies(cc, tegra, arm_host, row->platform))
            continue;
        if (cur && strcmp(cur_project, row->project) == 0 &&
            strcmp(json_string_value(json_object_get(cur, "release")), row->release) == 0)
            goto add; /* another variant of the same release */
        if (!cur || strcmp(cur_project, row->project) != 0 ||
            strcmp(cur_version, row->version) != 0) {
            cur = json_object();
            json_object_set_new(cur, "project", json_string(row->project));
            json_object_set_new(cur, "version", json_string(row->version));
            json_object_set_new(cur, "release", json_string(row->release));
            char *page = release_path(row->project, row->version);
            json_object_set_new(cur, "page", json_string(page));
            free(page);
            char *raw = xasprintf("%s-%s", row->project, row->release);
            set_page_id(cur, "anchor", ids, "cap-", raw);
            free(raw);
            json_object_set_new(cur, "rows", json_array());
            json_array_append_new(out, cur);
            cur_project = row->project;
            cur_version = row->version;
        }
    add:;
        const struct compat_result *res = grid_get(&d->grid, cc, r);
        json_t *x = json_object();
        json_object_set_new(x, "variant", json_string(row->variant));
        json_object_set_new(x, "platform", json_string(row->platform));
        json_object_set_new(x, "platform_name", json_string(platform_name(row->platform)));
        json_object_set_new(x, "verdict", json_string(compat_verdict_name(res->verdict)));
        json_object_set_new(x, "label", json_string(compat_verdict_label(res->verdict)));
        json_object_set_new(x, "symbol", json_string(grid_verdict_symbol(res->verdict)));
        json_object_set_new(x, "reason", json_string(res->reason));
        json_object_set_new(x, "status", json_string(dbview_status_name(row->status)));
        const char *conf = dbview_row_confidence(row);
        json_object_set_new(x, "confidence", conf ? json_string(conf) : json_null());
        json_object_set_new(x, "provenance", json_string(dbview_provenance(row->status, conf)));
        json_object_set_new(x, "min_driver",
                            res->min_driver[0] ? json_string(res->min_driver) : json_null());
        json_object_set_new(x, "version", json_string(row->version));
        json_array_append_new(json_object_get(cur, "rows"), x);
    }
    strmap_free(ids);
    return out;
}

static char *page_description(const struct gpu *g, json_t *recs);

static void build_gpus(struct sitedata *d)
{
    const struct tables *t = d->t;
    const struct gpu **sorted = xmalloc((t->ngpus ? t->ngpus : 1) * sizeof *sorted);
    for (size_t i = 0; i < t->ngpus; i++)
        sorted[i] = &t->gpus[i];
    if (t->ngpus > 1)
        qsort(sorted, t->ngpus, sizeof *sorted, gpu_cmp);
    struct recs *cache = xcalloc(d->grid.nccs + t->ngpus + 1, sizeof *cache);
    size_t ncache = 0;
    json_t **releases_by_cc = xcalloc(2 * d->grid.nccs + 2, sizeof *releases_by_cc);
    char **svg_by_cc = xcalloc(2 * d->grid.nccs + 2, sizeof *svg_by_cc);

    d->gpus = json_object();
    json_object_set_new(d->gpus, "meta", meta_copy(d));
    json_t *list = json_array();
    d->gpu_pages = json_array();
    const char *last_slug = "";
    for (size_t i = 0; i < t->ngpus; i++) {
        const struct gpu *g = sorted[i];
        if (strcmp(g->slug, last_slug) == 0)
            continue; /* two table rows with one name: keep the first */
        last_slug = g->slug;
        json_t *recs = recs_for(d, cache, &ncache, g->cc, g->arm_host);
        json_t *s = gpu_summary(g);
        json_object_set(s, "recommendations", recs);
        json_array_append(list, s);

        size_t ci = 0;
        while (ci < d->grid.nccs && d->grid.ccs[ci] != g->cc)
            ci++;
        ci = ci * 2 + (g->arm_host != 0); /* Arm-only GPUs have rows of their own */
        if (!releases_by_cc[ci]) {
            releases_by_cc[ci] = gpu_releases(d, g->cc, g->tegra, g->arm_host);
            /* the timeline is Linux x86_64's: none where that does not apply */
            svg_by_cc[ci] = query_applies(g->cc, g->tegra, g->arm_host, "linux-x86_64")
                                ? timeline_svg(&d->grid, g->cc)
                                : xstrdup("");
        }
        json_t *page = json_deep_copy(s);
        json_decref(s);
        if (g->nother) {
            struct strbuf o = STRBUF_INIT;
            for (size_t k = 0; k < g->nother; k++) {
                char occ[16];
                compat_cc_string(g->other_cc[k], occ, sizeof occ);
                strbuf_addf(&o, "%s%s", k == 0 ? "" : k + 1 == g->nother ? " and " : ", ", occ);
            }
            json_object_set_new(page, "other_text", json_string(o.buf));
            strbuf_free(&o);
        }
        /* an answer pinned to a patch (torch==1.3.0) that the timeline's
         * newest-patch columns do not show */
        for (int p = 0; p < NPLATFORMS && !json_object_get(page, "patch_pin"); p++) {
            json_t *a = answer_of(json_object_get(recs, platforms[p]));
            const char *pin = json_string_value(json_object_get(a, "pin"));
            if (pin && strchr(pin, '.') && strchr(strchr(pin, '.') + 1, '.') && !strchr(pin, '*'))
                json_object_set_new(page, "patch_pin", json_string(pin));
        }
        char *desc = page_description(g, recs);
        json_object_set_new(page, "description", json_string(desc));
        free(desc);
        json_object_set(page, "releases", releases_by_cc[ci]);
        json_object_set_new(page, "svg", json_string(svg_by_cc[ci]));
        json_object_set_new(page, "has_timeline", json_boolean(svg_by_cc[ci][0] != 0));
        json_t *recl = json_array();
        json_t *drivers = json_object();
        int all_declared = 1, any_row = 0;
        for (int p = 0; p < NPLATFORMS; p++) {
            json_t *r = json_object_get(recs, platforms[p]);
            if (!json_is_object(r))
                continue;
            json_t *x = json_deep_copy(r);
            json_object_set_new(x, "platform", json_string(platforms[p]));
            json_object_set_new(x, "platform_name", json_string(platform_name(platforms[p])));
            json_object_set_new(
                x, "has_last_native",
                json_boolean(json_array_size(json_object_get(x, "last_native")) > 0));
            json_object_set_new(x, "has_drivers",
                                json_boolean(json_array_size(json_object_get(x, "by_driver")) > 1));
            json_t *py = json_object_get(x, "pypi");
            if (json_is_object(py))
                json_object_set_new(py, "has_answer", json_boolean(answer_of(x) != NULL));
            json_t *gd = json_object_get(x, "guidance");
            if (json_is_object(gd) &&
                (!json_object_get(page, "guidance") || json_is_true(json_object_get(x, "applies"))))
                json_object_set(page, "guidance", gd);
            if (json_is_object(py))
                json_object_set_new(
                    py, "is_cpu",
                    json_boolean(strcmp(json_string_value(json_object_get(py, "build")), "cpu") ==
                                 0));
            if (json_is_true(json_object_get(x, "applies")) &&
                json_array_size(json_object_get(x, "by_driver")) > 0)
                json_object_set(drivers, platforms[p], json_object_get(x, "by_driver"));
            json_array_append_new(recl, x);
        }
        {
            size_t ri;
            json_t *rel;
            json_array_foreach(releases_by_cc[ci], ri, rel)
            {
                size_t k;
                json_t *row;
                json_array_foreach(json_object_get(rel, "rows"), k, row)
                {
                    any_row = 1;
                    if (strcmp(json_string_value(json_object_get(row, "status")), "declared"))
                        all_declared = 0;
                }
            }
        }
        json_object_set_new(page, "all_declared", json_boolean(any_row && all_declared));
        char *dj = script_json(drivers);
        json_object_set_new(page, "drivers_json", json_string(dj));
        free(dj);
        json_object_set_new(page, "driver_box",
                            json_boolean(!g->amd && json_object_size(drivers) > 0));
        json_decref(drivers);
        json_object_set_new(page, "recommendation_list", recl);
        json_array_append_new(d->gpu_pages, page);
    }
    json_object_set_new(d->gpus, "gpus", list);
    for (size_t i = 0; i < ncache; i++)
        json_decref(cache[i].by_platform);
    for (size_t i = 0; i < 2 * d->grid.nccs + 2; i++) {
        json_decref(releases_by_cc[i]);
        free(svg_by_cc[i]);
    }
    free(releases_by_cc);
    free(svg_by_cc);
    free(cache);
    free(sorted);
}

/* A GPU page's one-line answer, for search results and link previews:
 * the answer on the first platform that applies (Linux x86_64, or Linux
 * aarch64 for Jetson Thor). */
static char *page_description(const struct gpu *g, json_t *recs)
{
    char cc[16];
    compat_cc_string(g->cc, cc, sizeof cc);
    struct strbuf b = STRBUF_INIT;
    strbuf_addf(&b, "%s (%s%s)", g->name, g->amd ? "" : "compute capability ", cc);
    static const char *const plats[][2] = {{"linux-x86_64", "Linux x86_64"},
                                           {"linux-aarch64", "Linux aarch64"},
                                           {"windows-x86_64", "Windows"}};
    json_t *r = NULL;
    const char *pname = NULL;
    for (size_t p = 0; p < 3 && !r; p++) {
        json_t *x = json_object_get(recs, plats[p][0]);
        if (json_is_object(x) && json_is_true(json_object_get(x, "applies"))) {
            r = x;
            pname = plats[p][1];
        }
    }
    json_t *rec = r ? json_object_get(r, "recommendation") : NULL;
    json_t *fb = r ? json_object_get(r, "fallback") : NULL;
    json_t *py = r ? json_object_get(r, "pypi") : NULL;
    if (!r) {
        strbuf_adds(&b, ": the download.pytorch.org and PyPI wheels do not run on it; use NVIDIA's "
                        "PyTorch for Jetson.");
    } else if (json_is_object(rec)) {
        strbuf_addf(&b, ": torch %s runs %s from the %s index on %s",
                    json_string_value(json_object_get(r, "release")),
                    strcmp(json_string_value(json_object_get(rec, "verdict")), "native") == 0
                        ? "natively"
                        : "through PTX JIT",
                    json_string_value(json_object_get(rec, "index")), pname);
        if (json_is_object(py) && json_is_false(json_object_get(py, "runs")))
            strbuf_adds(&b, "; plain pip install torch does not");
        strbuf_adds(&b, ".");
    } else if (json_is_object(fb)) {
        strbuf_addf(&b,
                    ": torch %s has no build for it on %s; the newest that runs is torch %s "
                    "from the %s index.",
                    json_string_value(json_object_get(r, "release")), pname,
                    json_string_value(json_object_get(fb, "pin")),
                    json_string_value(json_object_get(fb, "index")));
    } else {
        strbuf_addf(&b,
                    ": no PyTorch release in the data runs on it on %s; the page says what to do.",
                    pname);
    }
    return strbuf_detach(&b, NULL);
}

/* ---- home and matrix pages ---------------------------------------------- */

static const char *segment_title(const char *s)
{
    static const char *const map[][2] = {{"geforce", "GeForce"},
                                         {"workstation", "Workstation (Quadro, RTX A/Ada)"},
                                         {"datacenter", "Data center"},
                                         {"jetson", "Jetson"},
                                         {"radeon", "AMD Radeon"},
                                         {"radeon-pro", "AMD Radeon PRO"},
                                         {"instinct", "AMD Instinct"},
                                         {"apu", "AMD Ryzen APUs"},
                                         {"other", "Other"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i][0], s) == 0)
            return map[i][1];
    return s;
}

/* The instant answer of the home page's filter for one GPU on one
 * platform: the recommendation (or fallback) in short, its driver table
 * and the PyPI line, from the same answer the GPU page shows. */
static json_t *slim_home_answer(json_t *r)
{
    json_t *c = json_object();
    if (!json_is_object(r))
        return c;
    json_t *use = answer_of(r);
    json_object_set(c, "release", json_object_get(r, "release"));
    if (use) {
        static const char *const keys[] = {"index",      "version",    "pin",
                                           "verdict",    "label",      "symbol",
                                           "provenance", "min_driver", "full_driver"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (json_object_get(use, keys[k]) && !json_is_null(json_object_get(use, keys[k])))
                json_object_set(c, keys[k], json_object_get(use, keys[k]));
        json_object_set(c, "pip", json_object_get(json_object_get(use, "commands"), "pip"));
        if (use != json_object_get(r, "recommendation"))
            json_object_set_new(c, "fallback", json_true());
    }
    json_t *bd = json_array();
    size_t k;
    json_t *e;
    json_array_foreach(json_object_get(r, "by_driver"), k, e)
    {
        json_t *y = json_object();
        json_object_set(y, "min_driver", json_object_get(e, "min_driver"));
        json_object_set(y, "pip", json_object_get(json_object_get(e, "commands"), "pip"));
        json_array_append_new(bd, y);
    }
    if (json_array_size(bd) > 1)
        json_object_set_new(c, "by_driver", bd);
    else
        json_decref(bd);
    json_t *py = json_object_get(r, "pypi");
    if (json_is_object(py) && json_is_false(json_object_get(py, "runs")))
        json_object_set(c, "pypi_no", json_object_get(py, "build"));
    else if (json_is_object(py) && json_is_true(json_object_get(py, "runs")))
        json_object_set(c, "pypi_yes", json_object_get(py, "build"));
    json_t *gd = json_object_get(r, "guidance");
    if (json_is_object(gd) && !json_is_true(json_object_get(r, "applies")))
        json_object_set(c, "guidance", json_object_get(gd, "text"));
    return c;
}

/* The home list's status of a GPU at a glance, from its Linux x86_64
 * answer: the newest release with native code, in text and symbol. */
static void glance(json_t *r, json_t *x)
{
    const char *cls = "x", *text = "\xe2\x9c\x97 none";
    char buf[64];
    json_t *rec = json_object_get(r, "recommendation");
    json_t *fb = json_object_get(r, "fallback");
    json_t *gd = json_object_get(r, "guidance");
    if (json_is_object(gd) && !json_is_true(json_object_get(r, "applies"))) {
        cls = "t";
        text = "Jetson wheels";
    } else if (json_is_object(rec)) {
        int native = strcmp(json_string_value(json_object_get(rec, "verdict")), "native") == 0;
        snprintf(buf, sizeof buf, "%s %s", native ? "\xe2\x9c\x93" : "\xe2\x89\x88",
                 json_string_value(json_object_get(r, "release")));
        cls = native ? "n" : "j";
        text = buf;
    } else if (json_is_object(fb)) {
        snprintf(buf, sizeof buf, "\xe2\x9c\x93 %s",
                 json_string_value(json_object_get(fb, "release")));
        cls = "o";
        text = buf;
    }
    json_object_set_new(x, "glance", json_string(text));
    json_object_set_new(x, "glance_class", json_string(cls));
}

/* strcmp, but runs of digits compare as numbers ("RTX 980" < "RTX 1080"). */
static int natural_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            while (*a == '0')
                a++;
            while (*b == '0')
                b++;
            size_t na = strspn(a, "0123456789"), nb = strspn(b, "0123456789");
            if (na != nb)
                return na < nb ? -1 : 1;
            int c = strncmp(a, b, na);
            if (c)
                return c;
            a += na;
            b += nb;
        } else {
            if (*a != *b)
                return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
            a++;
            b++;
        }
    }
    return *a ? 1 : *b ? -1 : 0;
}

/* A device code for ordering: compute capability 12.0 -> 120; AMD
 * processors after all NVIDIA ones, by their hex digits. */
static long device_order(json_t *g)
{
    const char *s = json_string_value(json_object_get(g, "device"));
    if (!s)
        return 0;
    if (strncmp(s, "gfx", 3) == 0)
        return 100000 + strtol(s + 3, NULL, 16);
    char *end;
    long major = strtol(s, &end, 10);
    return major * 10 + (*end == '.' ? strtol(end + 1, NULL, 10) : 0);
}

/* Newest architecture first, then names in descending natural order (RTX
 * 5090 before 5080), so the GPUs people most often look for come first. */
static int home_order(const void *a, const void *b)
{
    json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    long dx = device_order(x), dy = device_order(y);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    return -natural_cmp(json_string_value(json_object_get(x, "name")),
                        json_string_value(json_object_get(y, "name")));
}

static void build_home(struct sitedata *d)
{
    d->home = json_object();
    static const char *const plats[] = {"linux-x86_64", "linux-aarch64", "windows-x86_64"};
    /* GPUs grouped by segment, in table order within each. */
    static const char *const order[] = {"geforce",  "workstation", "datacenter",
                                        "jetson",   "radeon",      "radeon-pro",
                                        "instinct", "apu",         "other"};
    json_t *segs = json_array();
    json_t *answers = json_object();
    for (size_t s = 0; s < sizeof order / sizeof order[0]; s++) {
        json_t *gl = json_array();
        json_t *all = json_object_get(d->gpus, "gpus");
        json_t **seg_gpus = xcalloc(json_array_size(all) + 1, sizeof *seg_gpus);
        size_t n = 0, i;
        json_t *g;
        json_array_foreach(all, i, g)
        {
            if (strcmp(json_string_value(json_object_get(g, "segment")), order[s]) == 0)
                seg_gpus[n++] = g;
        }
        qsort(seg_gpus, n, sizeof *seg_gpus, home_order);
        for (i = 0; i < n; i++) {
            g = seg_gpus[i];
            json_t *recs = json_object_get(g, "recommendations");
            json_t *x = json_object();
            json_object_set(x, "name", json_object_get(g, "name"));
            json_object_set(x, "page", json_object_get(g, "page"));
            json_object_set(x, "cc", json_object_get(g, "device"));
            /* other chips sold under this name, for the filter */
            struct strbuf o = STRBUF_INIT;
            size_t k;
            json_t *od;
            json_array_foreach(json_object_get(g, "other_devices"), k, od)
                strbuf_addf(&o, "%s%s", k ? " " : "", json_string_value(od));
            if (o.len)
                json_object_set_new(x, "other", json_string(o.buf));
            strbuf_free(&o);
            int arm = json_is_true(json_object_get(g, "arm_host"));
            glance(json_object_get(recs, arm ? "linux-aarch64" : "linux-x86_64"), x);
            if (arm) {
                /* its status is Linux aarch64's, and its answers its own */
                char *gt = xasprintf("%s on Arm", json_string_value(json_object_get(x, "glance")));
                json_object_set_new(x, "glance", json_string(gt));
                free(gt);
                json_object_set_new(x, "arm", json_true());
            }
            json_array_append_new(gl, x);
            char *cc = xasprintf("%s%s", json_string_value(json_object_get(g, "device")),
                                 arm ? "/arm" : "");
            if (!json_object_get(answers, cc)) {
                json_t *per = json_object();
                for (size_t p = 0; p < 3; p++) {
                    json_t *r = json_object_get(recs, plats[p]);
                    if (json_is_object(r))
                        json_object_set_new(per, plats[p], slim_home_answer(r));
                }
                json_object_set_new(answers, cc, per);
            }
            free(cc);
        }
        free(seg_gpus);
        if (json_array_size(gl) == 0) {
            json_decref(gl);
            continue;
        }
        json_t *seg = json_object();
        json_object_set_new(seg, "id", json_string(order[s]));
        json_object_set_new(seg, "title", json_string(segment_title(order[s])));
        json_object_set_new(seg, "gpus", gl);
        json_array_append_new(segs, seg);
    }
    json_object_set_new(d->home, "segments", segs);
    /* assets/answers.js, loaded by the filter when it is first used */
    char *aj = script_json(answers);
    d->answers_js = xasprintf("/* generated by wheelarch build: the filter's answers per device "
                              "code and platform (api/v1/gpus.json in short) */\n"
                              "window.wheelarchAnswers = %s;\n",
                              aj);
    free(aj);
    json_decref(answers);
    /* The newest three torch releases with their variants. */
    json_t *rels = json_array();
    const char *last = NULL;
    for (size_t r = 0; r < d->v->nrows && json_array_size(rels) < 4; r++) {
        const struct dbview_row *row = &d->v->rows[r];
        if (strcmp(row->project, "torch") != 0)
            continue;
        if (last && strcmp(last, row->release) == 0)
            continue;
        if (json_array_size(rels) == 3)
            break;
        last = row->release;
        json_t *x = json_object();
        json_object_set_new(x, "release", json_string(row->release));
        json_object_set_new(x, "version", json_string(row->version));
        char *page = release_path(row->project, row->version);
        json_object_set_new(x, "page", json_string(page));
        free(page);
        json_t *vars = json_array();
        for (size_t k = r; k < d->v->nrows; k++) {
            const struct dbview_row *o = &d->v->rows[k];
            if (strcmp(o->project, "torch") != 0 || strcmp(o->release, row->release) != 0)
                break;
            if (strcmp(o->platform, "linux-x86_64") != 0)
                continue;
            json_t *vv = json_object();
            json_object_set_new(vv, "variant", json_string(o->variant));
            char sass[256] = "";
            const struct target *code = o->ngfx ? o->gfx : o->sass;
            size_t ncode = o->ngfx ? o->ngfx : o->nsass;
            if (ncode) {
                char a[TARGET_NAME_MAX], b[TARGET_NAME_MAX];
                target_format(&code[0], a, sizeof a);
                target_format(&code[ncode - 1], b, sizeof b);
                snprintf(sass, sizeof sass, "%s \xe2\x80\xa6 %s", a, b);
            }
            json_object_set_new(vv, "range", json_string(sass));
            json_object_set_new(vv, "status", json_string(dbview_status_name(o->status)));
            json_array_append_new(vars, vv);
        }
        json_object_set_new(x, "variants", vars);
        json_array_append_new(rels, x);
    }
    json_object_set_new(d->home, "releases", rels);
    if (json_array_size(rels))
        json_object_set(d->home, "newest", json_object_get(json_array_get(rels, 0), "release"));
    json_object_set_new(
        d->home, "gpu_count",
        json_integer((json_int_t)json_array_size(json_object_get(d->gpus, "gpus"))));
}

/* One table per platform and vendor: CUDA (and cpu) rows against compute
 * capabilities, ROCm rows against gfx processors. */
static void build_matrix_page(struct sitedata *d)
{
    const struct dbview *v = d->v;
    d->matrix_page = json_object();
    json_t *pls = json_array();
    for (int p = 0; p < NPLATFORMS; p++) {
        for (int amd = 0; amd < 2; amd++) {
            json_t *pl = json_object();
            char *id = xasprintf("%s%s", platforms[p], amd ? "-rocm" : "");
            char *name = xasprintf("%s%s", platform_name(platforms[p]), amd ? ", AMD ROCm" : "");
            json_object_set_new(pl, "id", json_string(id));
            json_object_set_new(pl, "name", json_string(name));
            json_object_set_new(pl, "axis",
                                json_string(amd ? "AMD gfx processor" : "compute capability"));
            free(id);
            free(name);
            /* newest architectures first: on a phone they are the columns
             * in view, and at 1280 px Blackwell is not behind a scroll */
            json_t *cols = json_array();
            for (size_t c = d->grid.nccs; c-- > 0;) {
                if ((d->grid.ccs[c] >= TABLES_AMD_MIN) != amd)
                    continue;
                json_t *col = json_object();
                json_object_set_new(col, "cc", cc_json(d->grid.ccs[c]));
                json_array_append_new(cols, col);
            }
            json_object_set_new(pl, "columns", cols);
            json_t *rows = json_array();
            for (size_t r = 0; r < v->nrows; r++) {
                const struct dbview_row *row = &v->rows[r];
                if (strcmp(row->platform, platforms[p]) != 0 ||
                    tables_variant_rocm(row->variant, NULL) != amd)
                    continue;
                json_t *x = json_object();
                json_object_set_new(x, "project", json_string(row->project));
                json_object_set_new(x, "version", json_string(row->version));
                json_object_set_new(x, "variant", json_string(row->variant));
                json_object_set_new(x, "status", json_string(dbview_status_name(row->status)));
                const char *conf = dbview_row_confidence(row);
                json_object_set_new(x, "confidence", conf ? json_string(conf) : json_null());
                char *page = release_path(row->project, row->version);
                json_object_set_new(x, "page", json_string(page));
                free(page);
                json_t *cells = json_array();
                for (size_t c = d->grid.nccs; c-- > 0;) {
                    if ((d->grid.ccs[c] >= TABLES_AMD_MIN) != amd)
                        continue;
                    const struct compat_result *res = &d->grid.res[c * v->nrows + r];
                    json_t *cell = json_object();
                    char code[2] = {grid_verdict_code(res->verdict), 0};
                    json_object_set_new(cell, "code", json_string(code));
                    json_object_set_new(cell, "symbol",
                                        json_string(grid_verdict_symbol(res->verdict)));
                    json_object_set_new(cell, "label",
                                        json_string(compat_verdict_label(res->verdict)));
                    json_array_append_new(cells, cell);
                }
                json_object_set_new(x, "cells", cells);
                json_array_append_new(rows, x);
            }
            json_object_set_new(pl, "has_rows", json_boolean(json_array_size(rows) > 0));
            json_object_set_new(pl, "rows", rows);
            json_array_append_new(pls, pl);
        }
    }
    json_object_set_new(d->matrix_page, "platforms", pls);
}

/* ---- releases, changes -------------------------------------------------- */

/* A new array of shallow copies of the objects of a (the page adds keys
 * to them; what they share stays untouched). */
static json_t *shallow_items(json_t *a)
{
    json_t *out = json_array();
    size_t i;
    json_t *x;
    json_array_foreach(a, i, x) json_array_append_new(out, json_copy(x));
    return out;
}

/* A target-list item with its name parsed once, for by_target_name. */
struct named {
    struct target t;
    int ok; /* the name parsed */
    const char *name;
    size_t at; /* its place in the list */
};

/* target_name_cmp on parsed names (unparsable ones last, by string), then
 * the place in the list, so the order is total and deterministic. */
static int named_cmp(const void *a, const void *b)
{
    const struct named *x = a, *y = b;
    int c = x->ok && y->ok   ? target_cmp(&x->t, &y->t)
            : x->ok != y->ok ? (x->ok ? -1 : 1)
                             : strcmp(x->name, y->name);
    if (c)
        return c;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* The objects of tl (each with a "name") in architecture order: SASS,
 * then PTX, then gfx.  Records keep targets in key order, where "sm_100"
 * sorts before "sm_75".  Each name is parsed once and the list sorted
 * with qsort: O(n log n) (records cap the targets at
 * RECORDCHECK_TARGETS_MAX, but a sort per page must not be quadratic
 * anyway).  Takes tl; returns a new array. */
static json_t *by_target_name(json_t *tl)
{
    size_t n = json_array_size(tl), m = 0;
    struct named *k = xmalloc((n ? n : 1) * sizeof *k);
    for (size_t i = 0; i < n; i++) {
        const char *name = json_string_value(json_object_get(json_array_get(tl, i), "name"));
        if (!name)
            continue; /* a target without a name: dropped */
        k[m].ok = target_parse(name, &k[m].t) == 0;
        k[m].name = name;
        k[m].at = i;
        m++;
    }
    if (m > 1)
        qsort(k, m, sizeof *k, named_cmp);
    json_t *out = json_array();
    for (size_t i = 0; i < m; i++)
        json_array_append(out, json_array_get(tl, k[i].at));
    free(k);
    json_decref(tl);
    return out;
}

static void build_releases(struct sitedata *d)
{
    const struct dbview *v = d->v;
    d->release_pages = json_array();
    json_t *cur = NULL;
    struct strmap *ids = NULL; /* of the current page */
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        if (!cur || strcmp(json_string_value(json_object_get(cur, "project")), row->project) != 0 ||
            strcmp(json_string_value(json_object_get(cur, "version")), row->version) != 0) {
            strmap_free(ids);
            ids = strmap_new();
            cur = json_object();
            json_object_set_new(cur, "project", json_string(row->project));
            json_object_set_new(cur, "version", json_string(row->version));
            json_object_set_new(cur, "release", json_string(row->release));
            char *path = release_path(row->project, row->version);
            json_object_set_new(cur, "path", json_string(path));
            free(path);
            json_object_set_new(cur, "rows", json_array());
            json_array_append_new(d->release_pages, cur);
        }
        json_t *x = dbview_row_json(v, row);
        /* The row's binaries and wheels are shared with the view and the
         * feed documents; the page gets its own copies to annotate. */
        json_object_set_new(x, "binaries", shallow_items(row->binaries));
        json_object_set_new(x, "wheels", shallow_items(row->wheels));
        json_object_set_new(x, "platform_name", json_string(platform_name(row->platform)));
        set_href(x, "index_href", row->index_url);
        json_object_set_new(x, "has_differences",
                            json_boolean(json_array_size(row->differences) > 0));
        json_object_set_new(x, "has_wheels", json_boolean(json_array_size(row->wheels) > 0));
        /* Ids from the variant and platform, unique in the page; binaries
         * by their place (member paths are any bytes). */
        char *raw = xasprintf("%s-%s", row->variant, row->platform);
        set_page_id(x, "section_id", ids, "r-", raw);
        set_page_id(x, "wheels_id", ids, "w-", raw);
        /* Per binary, the targets as a list for the templates. */
        size_t i;
        json_t *b;
        json_array_foreach(json_object_get(x, "binaries"), i, b)
        {
            json_t *tl = json_array();
            const char *name;
            json_t *tv;
            json_object_foreach(json_object_get(b, "targets"), name, tv)
            {
                json_t *e = json_deep_copy(tv);
                json_object_set_new(e, "name", json_string(name));
                json_int_t m = json_integer_value(json_object_get(tv, "modules"));
                json_t *all = json_object_get(b, "modules");
                json_object_set_new(e, "all_modules", json_boolean(m == json_integer_value(all)));
                json_object_set(e, "modules_total", all);
                json_array_append_new(tl, e);
            }
            json_object_set_new(b, "target_list", by_target_name(tl));
            char *braw = xasprintf("%s-%zu", raw, i + 1);
            set_page_id(b, "table_id", ids, "b-", braw);
            free(braw);
        }
        free(raw);
        json_array_foreach(json_object_get(x, "wheels"), i, b)
        {
            /* Scanned wheels have a page; inferred ones link to the page of
             * the wheel they were inferred from. */
            const char *st = json_string_value(json_object_get(b, "status"));
            const char *key = st && strcmp(st, "scanned") == 0
                                  ? json_string_value(json_object_get(b, "key"))
                                  : json_string_value(json_object_get(b, "inferred_from"));
            if (key) {
                char *seg = sitedata_segment(key);
                char *p = xasprintf("wheel/%s.html", seg);
                free(seg);
                json_object_set_new(b, "page", json_string(p));
                free(p);
            }
            set_href(b, "href", json_string_value(json_object_get(b, "url")));
            json_object_set_new(b, "inferred", json_boolean(st && strcmp(st, "inferred") == 0));
            json_t *y = json_object_get(b, "yanked");
            json_object_set_new(b, "is_yanked", json_boolean(json_is_string(y) || json_is_true(y)));
        }
        json_array_append_new(json_object_get(cur, "rows"), x);
    }
    strmap_free(ids);
}

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

static void build_changes(struct sitedata *d)
{
    const struct dbview *v = d->v;
    d->changes = json_array();
    struct strmap *ids = strmap_new();
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
        set_page_id(entry, "anchor", ids, "c-", id);
        free(id);
        json_t *items = json_array();
        const char *date = NULL;
        char datebuf[11];
        for (size_t k = r; k < v->nrows; k++) {
            const struct dbview_row *x = &v->rows[k];
            if (strcmp(x->project, row->project) || strcmp(x->release, row->release))
                break;
            if ((long)k != newest_row(d, x->project, x->release, x->variant, x->platform))
                continue;
            /* the release's date: its first upload where crawled */
            size_t wi;
            json_t *w;
            json_array_foreach(x->wheels, wi, w)
            {
                const char *up = json_string_value(json_object_get(w, "upload_time"));
                if (up && strlen(up) >= 10 && (!date || strncmp(up, date, 10) < 0)) {
                    snprintf(datebuf, sizeof datebuf, "%.10s", up);
                    date = datebuf;
                }
            }
            json_t *it = json_object();
            json_object_set_new(it, "variant", json_string(x->variant));
            json_object_set_new(it, "platform", json_string(x->platform));
            json_object_set_new(it, "platform_name", json_string(platform_name(x->platform)));
            json_object_set_new(it, "status", json_string(dbview_status_name(x->status)));
            long pr = prev ? newest_row(d, x->project, prev, x->variant, x->platform) : -1;
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
        if (prev) {
            for (size_t k = 0; k < v->nrows; k++) {
                const struct dbview_row *p = &v->rows[k];
                if (strcmp(p->project, row->project) || strcmp(p->release, prev))
                    continue;
                if ((long)k != newest_row(d, p->project, prev, p->variant, p->platform))
                    continue;
                if (newest_row(d, p->project, row->release, p->variant, p->platform) >= 0)
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
                json_object_set_new(it, "platform_name", json_string(platform_name(p->platform)));
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
            for (int p = 0; p < NPLATFORMS && !date; p++) {
                const struct release_info *ri =
                    tables_release(d->t, row->project, row->release, platforms[p]);
                if (ri && ri->release_date[0])
                    date = ri->release_date;
            }
        }
        json_object_set_new(entry, "date", date ? json_string(date) : json_null());
        json_array_append_new(d->changes, entry);
    }
    strmap_free(ids);
}

/* ---- simple indexes ------------------------------------------------------ */

/* The simple-index links of one row's wheels (http(s) URLs only), built
 * once and shared by every architecture page that lists them. */
static json_t *row_links(const struct dbview_row *row)
{
    json_t *links = json_array();
    size_t i;
    json_t *w;
    json_array_foreach(row->wheels, i, w)
    {
        char *url = sitedata_href(json_string_value(json_object_get(w, "url")));
        if (!url)
            continue;
        /* recordcheck refuses a URL with a fragment; were one to get
         * through, it is cut, so a link never has two '#'. */
        url[strcspn(url, "#")] = '\0';
        json_t *l = json_object();
        json_object_set(l, "filename", json_object_get(w, "filename"));
        const char *sha = json_string_value(json_object_get(w, "sha256"));
        char *href = sha ? xasprintf("%s#sha256=%s", url, sha) : xstrdup(url);
        json_object_set_new(l, "href", json_string(href));
        json_object_set_new(l, "url", json_string(url));
        free(href);
        free(url);
        json_object_set(l, "sha256", json_object_get(w, "sha256"));
        json_object_set(l, "requires_python", json_object_get(w, "requires_python"));
        json_object_set(l, "yanked", json_object_get(w, "yanked"));
        json_object_set(l, "upload_time", json_object_get(w, "upload_time"));
        json_array_append_new(links, l);
    }
    return links;
}

static int cmp_cstr(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The simple indexes: each row's links once, and per architecture the rows
 * with native code for it ({"projects": [...], "rows": [{project, links}],
 * "archs": [{arch, cc, rows: [i, ...]}]}).  Pages concatenate rows, so a
 * link is formatted once however many architecture pages list it. */
static void build_simple(struct sitedata *d)
{
    const struct dbview *v = d->v;
    d->simple = json_object();
    json_t *rows = json_array(), *archs = json_array();
    size_t *index = xcalloc(v->nrows + 1, sizeof *index); /* view row -> simple row + 1 */
    const char **names = xcalloc(v->nrows + 1, sizeof *names);
    size_t nnames = 0;
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        if (row->status == VIEW_DECLARED || json_array_size(row->wheels) == 0)
            continue;
        json_t *x = json_object();
        json_object_set_new(x, "project", json_string(row->project));
        json_object_set_new(x, "links", row_links(row));
        json_array_append_new(rows, x);
        index[r] = json_array_size(rows);
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
    for (size_t c = 0; c < d->grid.nccs; c++) {
        uint16_t cc = d->grid.ccs[c];
        char arch[16];
        sitedata_arch_dir(cc, arch, sizeof arch);
        json_t *a = json_object();
        json_object_set_new(a, "arch", json_string(arch));
        json_object_set_new(a, "cc", cc_json(cc));
        json_t *ar = json_array();
        for (size_t r = 0; r < v->nrows; r++)
            if (index[r] && d->grid.res[c * v->nrows + r].verdict == COMPAT_NATIVE)
                json_array_append_new(ar, json_integer((json_int_t)(index[r] - 1)));
        json_object_set_new(a, "rows", ar);
        json_array_append_new(archs, a);
    }
    json_object_set_new(d->simple, "projects", pl);
    json_object_set_new(d->simple, "rows", rows);
    json_object_set_new(d->simple, "archs", archs);
    free(index);
    free(names);
}

/* ---- wheel pages --------------------------------------------------------- */

json_t *sitedata_wheel_page(const struct tables *t, const char *key, json_t *rec)
{
    (void)t;
    json_t *o = json_object();
    static const char *const keys[] = {"filename",
                                       "url",
                                       "sha256",
                                       "sha256_verified",
                                       "status",
                                       "inferred_from",
                                       "scanned_at",
                                       "upload_time",
                                       "size",
                                       "variant",
                                       "variant_source",
                                       "index",
                                       "index_url",
                                       "wheelarch_version",
                                       "requires_python",
                                       "yanked",
                                       "sass",
                                       "ptx",
                                       NULL};
    for (const char *const *k = keys; *k; k++)
        json_object_set(o, *k, json_object_get(rec, *k) ? json_object_get(rec, *k) : json_null());
    json_object_set_new(o, "key", json_string(key));
    set_href(o, "href", json_string_value(json_object_get(rec, "url")));
    json_t *w = json_object_get(rec, "wheel");
    json_object_set(o, "wheel", w);
    const char *project = json_string_value(json_object_get(w, "normalized_name"));
    const char *version = json_string_value(json_object_get(w, "public_version"));
    if (project && version) {
        char *p = release_path(project, version);
        json_object_set_new(o, "release_page", json_string(p));
        free(p);
    }
    const char *from = json_string_value(json_object_get(rec, "inferred_from"));
    if (from) {
        char *seg = sitedata_segment(from);
        char *p = xasprintf("wheel/%s.html", seg);
        free(seg);
        json_object_set_new(o, "inferred_page", json_string(p));
        free(p);
    }
    json_t *bins = json_array();
    size_t i;
    json_t *b;
    json_array_foreach(json_object_get(rec, "binaries"), i, b)
    {
        json_t *x = json_object();
        static const char *const bk[] = {
            "path", "format", "size", "modules",    "dlink_modules", "library_modules",
            "sass", "ptx",    "lto",  "arch_flags", "warnings",      "module_sets",
            NULL};
        for (const char *const *k = bk; *k; k++)
            if (json_object_get(b, *k))
                json_object_set(x, *k, json_object_get(b, *k));
        json_object_set_new(
            x, "bundled",
            json_boolean(record_is_bundled(json_string_value(json_object_get(b, "path"))
                                               ? json_string_value(json_object_get(b, "path"))
                                               : "")));
        json_t *tl = json_array();
        const char *name;
        json_t *tv;
        json_object_foreach(json_object_get(b, "targets"), name, tv)
        {
            json_t *e = json_deep_copy(tv);
            json_object_set_new(e, "name", json_string(name));
            json_array_append_new(tl, e);
        }
        json_object_set_new(x, "target_list", by_target_name(tl));
        json_t *comp = json_array();
        const char *codec;
        json_t *cnt;
        json_object_foreach(json_object_get(b, "compression"), codec, cnt)
        {
            json_t *e = json_object();
            json_object_set_new(e, "codec", json_string(codec));
            json_object_set(e, "entries", cnt);
            json_array_append_new(comp, e);
        }
        json_object_set_new(x, "compression_list", comp);
        /* Member paths are any bytes: the id is the binary's place. */
        char id[32];
        snprintf(id, sizeof id, "bin-%zu", i + 1);
        json_object_set_new(x, "table_id", json_string(id));
        json_array_append_new(bins, x);
    }
    json_object_set_new(o, "binaries", bins);
    json_object_set_new(o, "has_binaries", json_boolean(json_array_size(bins) > 0));
    json_object_set_new(o, "has_sass",
                        json_boolean(json_array_size(json_object_get(rec, "sass")) > 0));
    return o;
}

/* ---- entry point ----------------------------------------------------------- */

void sitedata_begin(const struct dbview *v, const struct tables *t, const char *base_url,
                    struct sitedata *d)
{
    memset(d, 0, sizeof *d);
    d->v = v;
    d->t = t;
    d->base_url = xstrdup(base_url ? base_url : "");
    size_t bl = strlen(d->base_url);
    while (bl > 0 && d->base_url[bl - 1] == '/')
        d->base_url[--bl] = '\0';
    d->meta = json_object();
    json_object_set_new(d->meta, "api-version", json_string(SITE_API_VERSION));
    /* The newest scan, else the day the declared data was last checked. */
    const char *asof = v->data_date ? v->data_date : (t->checked_on[0] ? t->checked_on : NULL);
    json_object_set_new(d->meta, "data-as-of", asof ? json_string(asof) : json_null());
    json_object_set_new(d->meta, "declared-checked-on",
                        t->checked_on[0] ? json_string(t->checked_on) : json_null());
    json_object_set_new(d->meta, "wheels-read", json_boolean(v->data_date != NULL));
    json_object_set_new(d->meta, "generator", json_string("wheelarch " WHEELARCH_VERSION));
    grid_build(&d->grid, v, t);
    build_newest(d);
}

void sitedata_build_feeds(struct sitedata *d)
{
    d->matrix = build_matrix(d);
    build_csv(d);
    d->index_table = build_index_table(d);
    d->variants = build_variants(d);
    build_simple(d);
}

void sitedata_build_pages(struct sitedata *d)
{
    build_gpus(d);
    build_home(d);
    build_matrix_page(d);
    build_releases(d);
    build_changes(d);
}

int sitedata_build(const struct dbview *v, const struct tables *t, const char *base_url,
                   struct sitedata *d, struct wa_error *err)
{
    (void)err;
    sitedata_begin(v, t, base_url, d);
    sitedata_build_feeds(d);
    sitedata_build_pages(d);
    return 0;
}

void sitedata_free(struct sitedata *d)
{
    strmap_free(d->newest);
    grid_free(&d->grid);
    free(d->base_url);
    json_decref(d->meta);
    json_decref(d->matrix);
    json_decref(d->gpus);
    json_decref(d->index_table);
    json_decref(d->variants);
    strbuf_free(&d->csv);
    json_decref(d->home);
    free(d->answers_js);
    json_decref(d->matrix_page);
    json_decref(d->gpu_pages);
    json_decref(d->release_pages);
    json_decref(d->changes);
    json_decref(d->simple);
    memset(d, 0, sizeof *d);
}
