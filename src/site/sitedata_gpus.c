/*
 * sitedata_gpus: the GPU pages and gpus.json.
 */
#include "sitedata_impl.h"

#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "strmap.h"
#include "timeline.h"
#include "xalloc.h"

/* ---- GPUs ---------------------------------------------------------------- */

/* JSON for a <script type="application/json"> element: "<" escaped so the
 * text can never close the element. */
char *sitedata_script_json(json_t *v)
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
    json_object_set_new(o, "device", sitedata_cc_json(g->cc));
    json_object_set_new(o, "compute_capability", g->amd ? json_null() : sitedata_cc_json(g->cc));
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
        json_array_append_new(others, sitedata_cc_json(g->other_cc[i]));
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
        if ((long)r !=
                sitedata_newest_row(d, row->project, row->release, row->variant, row->platform) ||
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
            char *page = sitedata_release_path(row->project, row->version);
            json_object_set_new(cur, "page", json_string(page));
            free(page);
            char *raw = xasprintf("%s-%s", row->project, row->release);
            sitedata_set_page_id(cur, "anchor", ids, "cap-", raw);
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
        json_object_set_new(x, "platform_name", json_string(sitedata_platform_name(row->platform)));
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

void sitedata_build_gpus(struct sitedata *d)
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
    json_object_set_new(d->gpus, "meta", sitedata_meta_copy(d));
    json_t *list = json_array();
    d->gpu_pages = json_array();
    const char *last_slug = "";
    for (size_t i = 0; i < t->ngpus; i++) {
        const struct gpu *g = sorted[i];
        if (strcmp(g->slug, last_slug) == 0)
            continue; /* two table rows with one name: keep the first */
        last_slug = g->slug;
        json_t *recs = sitedata_recs_for(d, cache, &ncache, g->cc, g->arm_host);
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
        for (int p = 0; p < SITEDATA_NPLATFORMS && !json_object_get(page, "patch_pin"); p++) {
            json_t *a = sitedata_answer_of(json_object_get(recs, sitedata_platforms[p]));
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
        for (int p = 0; p < SITEDATA_NPLATFORMS; p++) {
            json_t *r = json_object_get(recs, sitedata_platforms[p]);
            if (!json_is_object(r))
                continue;
            json_t *x = json_deep_copy(r);
            json_object_set_new(x, "platform", json_string(sitedata_platforms[p]));
            json_object_set_new(x, "platform_name",
                                json_string(sitedata_platform_name(sitedata_platforms[p])));
            json_object_set_new(
                x, "has_last_native",
                json_boolean(json_array_size(json_object_get(x, "last_native")) > 0));
            json_object_set_new(x, "has_drivers",
                                json_boolean(json_array_size(json_object_get(x, "by_driver")) > 1));
            json_t *py = json_object_get(x, "pypi");
            if (json_is_object(py))
                json_object_set_new(py, "has_answer", json_boolean(sitedata_answer_of(x) != NULL));
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
                json_object_set(drivers, sitedata_platforms[p], json_object_get(x, "by_driver"));
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
        char *dj = sitedata_script_json(drivers);
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
