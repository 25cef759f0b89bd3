/*
 * sitedata_home: the home page.
 */
#include "sitedata_home.h"
#include "sitedata_state.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "tmpl.h"
#include "xalloc.h"
#include "sitedata_gpus.h"
#include "sitedata_text.h"
#include "sitedata_types.h"

/* ---- the home page ------------------------------------------------------- */

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

/* The home list's status of a GPU at a glance, from its Linux x86_64
 * answer (r, may be NULL): the newest release with native code, in text
 * and symbol. */
static void glance(const struct answer_result *r, struct sitedata_home_gpu *x)
{
    const char *cls = "x", *text = "\xe2\x9c\x97 none";
    char buf[64];
    if (r && r->guidance.kind && !r->applies) {
        cls = "t";
        text = strcmp(r->guidance.kind, "tegra") == 0 ? "DRIVE/IGX builds" : "Jetson wheels";
    } else if (r && r->recommendation) {
        int native = r->recommendation->res.verdict == COMPAT_NATIVE;
        snprintf(buf, sizeof buf, "%s %s", native ? "\xe2\x9c\x93" : "\xe2\x89\x88", r->version);
        cls = native ? "n" : "j";
        text = buf;
    } else if (r && r->fallback) {
        snprintf(buf, sizeof buf, "\xe2\x9c\x93 %s", r->fallback->row->release);
        cls = "o";
        text = buf;
    }
    snprintf(x->glance, sizeof x->glance, "%s", text);
    x->glance_class = cls;
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
static long device_order(const char *s)
{
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
    const struct sitedata_home_gpu *x = a, *y = b;
    long dx = device_order(x->device), dy = device_order(y->device);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    return -natural_cmp(x->g->name, y->g->name);
}

/* The three newest torch releases with their Linux x86_64 variants. */
static void newest_releases(const struct dbview *v, struct sitedata_home *h)
{
    const char *last = NULL;
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        if (strcmp(row->project, "torch") != 0 || (last && strcmp(last, row->release) == 0))
            continue;
        if (h->nreleases == 3)
            break;
        last = row->release;
        struct sitedata_home_release *x = &h->releases[h->nreleases++];
        x->row = row;
        x->page = sitedata_release_path(row->project, row->version);
        for (size_t k = r; k < v->nrows; k++) {
            const struct dbview_row *o = &v->rows[k];
            if (strcmp(o->project, "torch") != 0 || strcmp(o->release, row->release) != 0)
                break;
            if (strcmp(o->platform, "linux-x86_64") != 0)
                continue;
            x->variants = xrealloc(x->variants, (x->n + 1) * sizeof *x->variants);
            x->ranges = xrealloc(x->ranges, (x->n + 1) * sizeof *x->ranges);
            char range[256] = "";
            const struct target *code = o->ngfx ? o->gfx : o->sass;
            size_t ncode = o->ngfx ? o->ngfx : o->nsass;
            if (ncode) {
                char a[TARGET_NAME_MAX], b[TARGET_NAME_MAX];
                target_format(&code[0], a, sizeof a);
                target_format(&code[ncode - 1], b, sizeof b);
                snprintf(range, sizeof range, "%s \xe2\x80\xa6 %s", a, b);
            }
            x->variants[x->n] = o;
            x->ranges[x->n++] = xstrdup(range);
        }
    }
}

void sitedata_build_home(struct sitedata *d)
{
    struct sitedata_home *h = xcalloc(1, sizeof *h);
    d->home = h;
    h->d = d;
    /* GPUs grouped by segment, in table order within each. */
    static const char *const order[] = {"geforce",  "workstation", "datacenter",
                                        "jetson",   "radeon",      "radeon-pro",
                                        "instinct", "apu",         "other"};
    size_t npages = sitedata_gpu_count(d);
    h->gpu_count = npages;
    for (size_t s = 0; s < sizeof order / sizeof order[0]; s++) {
        struct sitedata_home_gpu *gl = xcalloc(npages + 1, sizeof *gl);
        size_t n = 0;
        for (size_t i = 0; i < npages; i++) {
            const struct gpu *g = sitedata_gpu_of_page(d, i);
            if (strcmp(g->segment, order[s]) != 0)
                continue;
            struct sitedata_home_gpu *x = &gl[n++];
            x->g = g;
            x->dev = sitedata_gpu_device(d, i);
            compat_cc_string(g->cc, x->device, sizeof x->device);
        }
        if (n == 0) {
            free(gl);
            continue;
        }
        qsort(gl, n, sizeof *gl, home_order);
        for (size_t i = 0; i < n; i++) {
            struct sitedata_home_gpu *x = &gl[i];
            const struct gpu *g = x->g;
            x->page = sitedata_gpu_path(g->slug);
            /* other chips sold under this name, for the filter */
            struct strbuf o = STRBUF_INIT;
            for (size_t k = 0; k < g->nother; k++) {
                char occ[16];
                compat_cc_string(g->other_cc[k], occ, sizeof occ);
                strbuf_addf(&o, "%s%s", k ? " " : "", occ);
            }
            x->other = o.len ? strbuf_detach(&o, NULL) : NULL;
            strbuf_free(&o);
            /* an Arm-hosted GPU's status is its system's platform's, and
             * its answers its own */
            const char *only = tables_host_platform(g->arm_host);
            int p = 0;
            while (only && p < SITEDATA_NPLATFORMS - 1 && strcmp(sitedata_platforms[p], only) != 0)
                p++;
            glance(x->dev->res[p], x);
            if (only) {
                size_t l = strlen(x->glance);
                snprintf(x->glance + l, sizeof x->glance - l, "%s",
                         g->arm_host == TABLES_HOST_WINDOWS_ARM ? " on Windows on Arm" : " on Arm");
            }
        }
        h->segments = xrealloc(h->segments, (h->nsegments + 1) * sizeof *h->segments);
        h->segments[h->nsegments++] =
            (struct sitedata_home_segment){order[s], segment_title(order[s]), gl, n};
    }
    newest_releases(d->v, h);
}

void sitedata_home_free(struct sitedata_home *h)
{
    if (!h)
        return;
    for (size_t s = 0; s < h->nsegments; s++) {
        for (size_t i = 0; i < h->segments[s].n; i++) {
            free(h->segments[s].gpus[i].page);
            free(h->segments[s].gpus[i].other);
        }
        free(h->segments[s].gpus);
    }
    free(h->segments);
    for (size_t r = 0; r < h->nreleases; r++) {
        for (size_t k = 0; k < h->releases[r].n; k++)
            free(h->releases[r].ranges[k]);
        free(h->releases[r].ranges);
        free(h->releases[r].variants);
        free(h->releases[r].page);
    }
    free(h);
}

/* ---- the types the template reads ---------------------------------------------- */

/* A GPU of the list: p is the struct sitedata_home_gpu. */
static void gpu_name(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_home_gpu *x = v->p;
    tmpl_value_str(x->g->name, out);
}

static void gpu_other(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_home_gpu *x = v->p;
    if (x->other)
        tmpl_value_str(x->other, out);
}

static void gpu_host(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_home_gpu *x = v->p;
    if (x->dev->host)
        tmpl_value_str(x->dev->host, out);
}

static const struct tmpl_field gpu_fields[] = {
    TMPL_GET("name", gpu_name),
    TMPL_STR("page", struct sitedata_home_gpu, page),
    TMPL_CHARS("cc", struct sitedata_home_gpu, device),
    TMPL_GET("other", gpu_other),
    TMPL_CHARS("glance", struct sitedata_home_gpu, glance),
    TMPL_STR("glance_class", struct sitedata_home_gpu, glance_class),
    TMPL_GET("host", gpu_host),
};

static const struct tmpl_type gpu_type = TMPL_FIELDS(gpu_fields);

static size_t gpus_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_home_segment *)v->p)->n;
}

static void gpus_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &gpu_type, &((const struct sitedata_home_segment *)v->p)->gpus[i],
                     0, out);
}

static const struct tmpl_type gpus_type = {NULL, gpus_len, gpus_at, NULL, 0};

static void segment_gpus(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_home_segment *s = v->p;
    tmpl_value_typed(TMPL_ARRAY, &gpus_type, s, 0, out);
}

static const struct tmpl_field segment_fields[] = {
    TMPL_STR("id", struct sitedata_home_segment, id),
    TMPL_STR("title", struct sitedata_home_segment, title),
    TMPL_SIZE("count", struct sitedata_home_segment, n),
    TMPL_GET("gpus", segment_gpus),
};

static const struct tmpl_type segment_type = TMPL_FIELDS(segment_fields);

static size_t segments_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_home *)v->p)->nsegments;
}

static void segments_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &segment_type, &((const struct sitedata_home *)v->p)->segments[i],
                     0, out);
}

static const struct tmpl_type segments_type = {NULL, segments_len, segments_at, NULL, 0};

/* A variant of a newest release: p is the release, at the variant. */
static void variant_variant(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_home_release *r = v->p;
    tmpl_value_str(r->variants[v->at]->variant, out);
}

static void variant_range(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_home_release *r = v->p;
    tmpl_value_str(r->ranges[v->at], out);
}

static void variant_status(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_home_release *r = v->p;
    tmpl_value_str(dbview_status_name(r->variants[v->at]->status), out);
}

static const struct tmpl_field variant_fields[] = {
    TMPL_GET("variant", variant_variant),
    TMPL_GET("range", variant_range),
    TMPL_GET("status", variant_status),
};

static const struct tmpl_type variant_type = TMPL_FIELDS(variant_fields);

static size_t variants_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_home_release *)v->p)->n;
}

static void variants_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &variant_type, v->p, i, out);
}

static const struct tmpl_type variants_type = {NULL, variants_len, variants_at, NULL, 0};

static void release_release(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_home_release *r = v->p;
    tmpl_value_str(r->row->release, out);
}

static void release_version(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_home_release *r = v->p;
    tmpl_value_str(r->row->version, out);
}

static void release_variants(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_home_release *r = v->p;
    tmpl_value_typed(TMPL_ARRAY, &variants_type, r, 0, out);
}

static const struct tmpl_field release_fields[] = {
    TMPL_GET("release", release_release),
    TMPL_GET("version", release_version),
    TMPL_STR("page", struct sitedata_home_release, page),
    TMPL_GET("variants", release_variants),
};

static const struct tmpl_type release_type = TMPL_FIELDS(release_fields);

static size_t releases_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_home *)v->p)->nreleases;
}

static void releases_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &release_type, &((const struct sitedata_home *)v->p)->releases[i],
                     0, out);
}

static const struct tmpl_type releases_type = {NULL, releases_len, releases_at, NULL, 0};

/* The Python box's choices, as on the GPU pages: p is the site's data. */
static size_t choices_len(const struct tmpl_value *v)
{
    return sitedata_gpu_npythons(v->p);
}

static void choices_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_str(sitedata_gpu_python(v->p, i), out);
}

static const struct tmpl_type choices_type = {NULL, choices_len, choices_at, NULL, 0};

static void home_segments(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_home *h = v->p;
    tmpl_value_typed(TMPL_ARRAY, &segments_type, h, 0, out);
}

static void home_releases(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_home *h = v->p;
    tmpl_value_typed(TMPL_ARRAY, &releases_type, h, 0, out);
}

static void home_newest(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_home *h = v->p;
    if (h->nreleases)
        tmpl_value_str(h->releases[0].row->release, out);
}

static void home_python_choices(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_home *h = v->p;
    tmpl_value_typed(TMPL_ARRAY, &choices_type, h->d, 0, out);
}

static const struct tmpl_field home_fields[] = {
    TMPL_GET("segments", home_segments),
    TMPL_GET("releases", home_releases),
    TMPL_GET("newest", home_newest),
    TMPL_SIZE("gpu_count", struct sitedata_home, gpu_count),
    TMPL_GET("python_choices", home_python_choices),
};

static const struct tmpl_type home_type = TMPL_FIELDS(home_fields);

void sitedata_home_value(const struct sitedata_home *h, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &home_type, h, 0, out);
}
