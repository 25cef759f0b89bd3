/*
 * sitedata_gpu_page: a GPU page's data, typed.  The templates read the
 * GPU, its device's answers (struct answer_result, one per platform: their
 * parts are sitedata_answer's) and its history through tmpl_types; no
 * JSON tree is built but the driver box's script.  The GPU's names are
 * gpus.json's; a name is missing exactly where the JSON left the key out,
 * and null where it had null, so lookups fall through the template's
 * context stack as they did when the page was JSON.
 */
#include "sitedata_gpu_page.h"
#include "sitedata_state.h"

#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "jetson.h"
#include "strbuf.h"
#include "tmpl.h"
#include "sitedata_gpus.h"
#include "sitedata_grid.h"
#include "sitedata_text.h"
#include "sitedata_types.h"
/* ---- making the page ---------------------------------------------------------- */

/* An answer's Python versions in words: "3.10 to 3.15 (free-threaded:
 * 3.13t, 3.14t)", or NULL when the data does not say. */
static char *python_text(const struct answer_pythons *pv)
{
    struct strbuf b = STRBUF_INIT, ft = STRBUF_INIT;
    const char *first = NULL, *last = NULL;
    size_t n = 0;
    for (size_t i = 0; i < pv->n; i++) {
        const char *s = pv->v[i];
        if (s[0] && s[strlen(s) - 1] == 't') {
            strbuf_addf(&ft, "%s%s", ft.len ? ", " : "", s);
            continue;
        }
        if (!first)
            first = s;
        last = s;
        n++;
    }
    if (!first) {
        strbuf_free(&b);
        strbuf_free(&ft);
        return NULL;
    }
    if (n == 1)
        strbuf_addf(&b, "%s", first);
    else
        strbuf_addf(&b, "%s to %s", first, last);
    if (ft.len)
        strbuf_addf(&b, " (free-threaded: %s)", ft.buf);
    strbuf_free(&ft);
    return b.buf;
}

/* A GPU page's one-line answer, for search results and link previews:
 * the answer on the first platform that applies (Linux x86_64, or Linux
 * aarch64 for Jetson Thor). */
static char *page_description(const struct gpu *g, const struct sitedata_device *dev)
{
    char cc[16];
    compat_cc_string(g->cc, cc, sizeof cc);
    struct strbuf b = STRBUF_INIT;
    strbuf_addf(&b, "%s (%s%s)", g->name, g->amd ? "" : "compute capability ", cc);
    static const char *const names[] = {"Linux x86_64", "Linux aarch64", "Windows"};
    const struct answer_result *r = NULL;
    const char *pname = NULL;
    for (int p = 0; p < SITEDATA_NPLATFORMS && !r; p++)
        if (dev->res[p] && dev->res[p]->applies) {
            r = dev->res[p];
            pname = names[p];
        }
    if (!r) {
        strbuf_adds(&b, ": the download.pytorch.org and PyPI wheels do not run on it; use NVIDIA's "
                        "PyTorch for Jetson.");
    } else if (r->recommendation) {
        const struct answer_install *rec = r->recommendation;
        strbuf_addf(&b, ": torch %s runs %s from the %s index on %s", r->version,
                    rec->res.verdict == COMPAT_NATIVE ? "natively" : "through PTX JIT",
                    rec->row->variant, pname);
        if (r->pypi.present && !r->pypi.runs)
            strbuf_adds(&b, "; plain pip install torch does not");
        strbuf_adds(&b, ".");
    } else if (r->fallback) {
        strbuf_addf(&b,
                    ": torch %s has no build for it on %s; the newest that runs is torch %s "
                    "from the %s index.",
                    r->version, pname, r->fallback->pin, r->fallback->row->variant);
    } else {
        strbuf_addf(&b,
                    ": no PyTorch release in the data runs on it on %s; the page says what to do.",
                    pname);
    }
    return strbuf_detach(&b, NULL);
}

void sitedata_gpu_page_make(const struct sitedata *d, size_t i, struct sitedata_gpu_page *p)
{
    memset(p, 0, sizeof *p);
    const struct gpu *g = sitedata_gpu_of_page(d, i);
    const struct sitedata_device *dev = sitedata_gpu_device(d, i);
    p->d = d;
    p->g = g;
    p->dev = dev;
    compat_cc_string(g->cc, p->device, sizeof p->device);
    if (g->amd)
        target_format(&g->gfx, p->gfx_target, sizeof p->gfx_target);
    p->page = sitedata_gpu_path(g->slug);
    if (g->nother) {
        struct strbuf o = STRBUF_INIT;
        for (size_t k = 0; k < g->nother; k++) {
            char occ[16];
            compat_cc_string(g->other_cc[k], occ, sizeof occ);
            strbuf_addf(&o, "%s%s", k == 0 ? "" : k + 1 == g->nother ? " and " : ", ", occ);
        }
        p->other_text = strbuf_detach(&o, NULL);
    }
    p->description = page_description(g, dev);
    for (int k = 0; k < SITEDATA_NPLATFORMS; k++) {
        const struct answer_result *r = dev->res[k];
        if (!r)
            continue;
        /* an answer pinned to a patch (torch==1.3.0) that the timeline's
         * newest-patch columns do not show */
        const struct answer_install *a = answer_runs(r);
        const char *pin = a ? a->pin : NULL;
        if (!p->patch_pin && pin && strchr(pin, '.') && strchr(strchr(pin, '.') + 1, '.') &&
            !strchr(pin, '*'))
            p->patch_pin = pin;
        /* the guidance of the last platform that applies, else the first
         * one's that has any */
        if (r->guidance.kind && (!p->guidance || r->applies))
            p->guidance = &r->guidance;
        struct sitedata_gpu_platform *x = &p->plats[p->nplats++];
        x->dev = dev;
        x->p = k;
        x->platform = sitedata_platforms[k];
        x->res = r;
        if (r->recommendation)
            x->python_text[0] = python_text(&r->recommendation->pythons);
        if (r->fallback)
            x->python_text[1] = python_text(&r->fallback->pythons);
    }
    p->driver_box = !g->amd && dev->has_drivers;
}

void sitedata_gpu_page_free(struct sitedata_gpu_page *p)
{
    for (size_t k = 0; k < p->nplats; k++) {
        free(p->plats[k].python_text[0]);
        free(p->plats[k].python_text[1]);
    }
    free(p->page);
    free(p->other_text);
    free(p->description);
    memset(p, 0, sizeof *p);
}

/* ---- the types the templates read ---------------------------------------------- */

#define IS(want) sitedata_name_is(name, len, want)

/* Where a grid shows fewer releases than there are: p is the grid. */
static void cut_get(const struct tmpl_value *v, const char *name, size_t len,
                    struct tmpl_value *out)
{
    const struct relgrid *g = v->p;
    out->kind = TMPL_MISSING;
    if (IS("shown"))
        tmpl_value_int((long long)g->nrel, out);
    else if (IS("total"))
        tmpl_value_int((long long)g->total, out);
}

static const struct tmpl_type cut_type = {cut_get, NULL, NULL, NULL, 0};

/* One platform's answer: p is the page's platform.  Its answer's own
 * parts are sitedata_answer's. */
static void platform_get(const struct tmpl_value *v, const char *name, size_t len,
                         struct tmpl_value *out)
{
    const struct sitedata_gpu_platform *x = v->p;
    const struct answer_result *r = x->res;
    out->kind = TMPL_MISSING;
    if (sitedata_answer_part(x, name, len, out))
        return;
    if (IS("release"))
        tmpl_value_str(r->version, out);
    else if (IS("applies"))
        tmpl_value_bool(r->applies, out);
    else if (IS("has_drivers"))
        tmpl_value_bool(r->nby_driver > 1, out);
    else if (IS("has_last_native"))
        tmpl_value_bool(r->nlast_native > 0, out);
    else if (IS("platform"))
        tmpl_value_str(x->platform, out);
    else if (IS("platform_name"))
        tmpl_value_str(sitedata_platform_name(x->platform), out);
    else if (IS("has_stack"))
        tmpl_value_bool(x->dev->nshown[x->p] > 0, out);
    else if (IS("grid") && x->dev->pgrid[x->p].nrel)
        sitedata_grid_value(&x->dev->pgrid[x->p], out);
    else if (IS("grid_cut") && x->dev->pgrid[x->p].nrel < x->dev->pgrid[x->p].total)
        sitedata_object(&cut_type, &x->dev->pgrid[x->p], 0, out);
}

static const struct tmpl_type platform_type = {platform_get, NULL, NULL, NULL, 0};

static size_t platforms_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_gpu_page *)v->p)->nplats;
}

static void platforms_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    sitedata_object(&platform_type, &((const struct sitedata_gpu_page *)v->p)->plats[i], 0, out);
}

static const struct tmpl_type platforms_type = {NULL, platforms_len, platforms_at, NULL, 0};

/* The Python switch's choices: p is the page. */
static size_t choices_len(const struct tmpl_value *v)
{
    return sitedata_gpu_npythons(((const struct sitedata_gpu_page *)v->p)->d);
}

static void choices_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_str(sitedata_gpu_python(((const struct sitedata_gpu_page *)v->p)->d, i), out);
}

static const struct tmpl_type choices_type = {NULL, choices_len, choices_at, NULL, 0};

/* NVIDIA's builds for a Jetson, as its answer lists them (query's
 * guidance, answer.h): p is the page, at the build's place in that list. */
static void jetson_get(const struct tmpl_value *v, const char *name, size_t len,
                       struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct jetson_build *b = p->guidance->jetson[v->at];
    out->kind = TMPL_MISSING;
    if (IS("jetpack"))
        tmpl_value_str(b->jetpack, out);
    else if (IS("l4t"))
        tmpl_value_str(b->l4t, out);
    else if (IS("cuda"))
        tmpl_value_str(b->cuda, out);
    else if (IS("python"))
        tmpl_value_str(b->python, out);
    else if (IS("torch"))
        tmpl_value_str(b->torch_text, out);
    else if (IS("command") && p->guidance->jetson_commands[v->at].pip_line)
        tmpl_value_str(p->guidance->jetson_commands[v->at].pip_line, out);
    else if (IS("where"))
        tmpl_value_str(b->where, out);
}

static const struct tmpl_type jetson_type = {jetson_get, NULL, NULL, NULL, 0};

static size_t jetsons_len(const struct tmpl_value *v)
{
    const struct sitedata_gpu_page *p = v->p;
    return p->guidance ? p->guidance->njetson : 0;
}

static void jetsons_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    sitedata_object(&jetson_type, v->p, i, out);
}

static const struct tmpl_type jetsons_type = {NULL, jetsons_len, jetsons_at, NULL, 0};

/* The other chips sold under the name: p is the GPU. */
static size_t others_len(const struct tmpl_value *v)
{
    return ((const struct gpu *)v->p)->nother;
}

static void others_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    char s[16];
    compat_cc_string(((const struct gpu *)v->p)->other_cc[i], s, sizeof s);
    tmpl_value_strf(out, "%s", s);
}

static const struct tmpl_type others_type = {NULL, others_len, others_at, NULL, 0};

/* The page: p is the sitedata_gpu_page.  The GPU's own fields are
 * gpus.json's (gpu_summary). */
static void page_get(const struct tmpl_value *v, const char *name, size_t len,
                     struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct gpu *g = p->g;
    const struct sitedata_device *dev = p->dev;
    out->kind = TMPL_MISSING;
    if (IS("name"))
        tmpl_value_str(g->name, out);
    else if (IS("slug"))
        tmpl_value_str(g->slug, out);
    else if (IS("vendor"))
        tmpl_value_str(g->amd ? "amd" : "nvidia", out);
    else if (IS("device"))
        tmpl_value_str(p->device, out);
    else if (IS("compute_capability"))
        tmpl_value_str(g->amd ? NULL : p->device, out);
    else if (IS("gfx"))
        tmpl_value_str(g->amd ? p->device : NULL, out);
    else if (IS("gfx_target"))
        tmpl_value_str(g->amd ? p->gfx_target : NULL, out);
    else if (IS("gfx_modes") && g->amd)
        tmpl_value_bool(strchr(p->gfx_target, ':') != NULL, out);
    else if (IS("rocm_support") && g->amd)
        tmpl_value_str(g->rocm_support, out);
    else if (IS("other_devices"))
        sitedata_array(&others_type, g, 0, out);
    else if (IS("other_text") && p->other_text)
        tmpl_value_str(p->other_text, out);
    else if ((IS("last_branch") || IS("last_branch_cuda")) && !g->amd) {
        /* NVIDIA's last driver branch for it: "R470", "11.4" */
        const struct arch_support *end = tables_driver_branch_end(p->d->t, g->cc);
        if (end && IS("last_branch"))
            tmpl_value_strf(out, "R%ld", end->last_branch);
        else if (end)
            tmpl_value_strf(out, "%ld.%ld", end->last_branch_cuda.f[0], end->last_branch_cuda.f[1]);
    } else if (IS("arm_host"))
        tmpl_value_bool(g->arm_host, out);
    else if (IS("architecture"))
        tmpl_value_str(g->architecture, out);
    else if (IS("segment"))
        tmpl_value_str(g->segment, out);
    else if (IS("tegra"))
        tmpl_value_bool(g->tegra, out);
    else if (IS("page"))
        tmpl_value_str(p->page, out);
    else if (IS("description"))
        tmpl_value_str(p->description, out);
    else if (IS("patch_pin") && p->patch_pin)
        tmpl_value_str(p->patch_pin, out);
    else if (IS("guidance") && p->guidance)
        sitedata_guidance_value(p->guidance, out);
    else if (IS("device_page")) {
        char *dp = sitedata_device_path(sitedata_device_page_of(p->d, dev)->id);
        tmpl_value_strf(out, "%s", dp); /* a few bytes: fits the value's buffer */
        free(dp);
    } else if (IS("all_declared"))
        tmpl_value_bool(dev->declared_only, out);
    else if (IS("jetson_builds"))
        sitedata_array(&jetsons_type, p, 0, out);
    else if (IS("jetson_answer")) {
        /* the newest JetPack's build: the page's answer */
        if (p->guidance && p->guidance->njetson)
            sitedata_object(&jetson_type, p, 0, out);
    } else if (IS("has_jetson_builds"))
        tmpl_value_bool(jetsons_len(&(struct tmpl_value){.p = p}) > 0, out);
    else if (IS("device_file")) {
        char *f = sitedata_device_file(p->d, dev);
        tmpl_value_strf(out, "%s", f);
        free(f);
    } else if (IS("has_grid")) {
        int any = 0;
        for (int k = 0; k < SITEDATA_NPLATFORMS; k++)
            any |= dev->pgrid[k].nrel > 0;
        tmpl_value_bool(any, out);
    } else if (IS("driver_box"))
        tmpl_value_bool(p->driver_box, out);
    else if (IS("has_answers")) { /* a platform with an answer: the Python box has work */
        int any = 0;
        for (size_t k = 0; k < p->nplats; k++)
            any |= p->plats[k].res->applies;
        tmpl_value_bool(any, out);
    } else if (IS("python_choices"))
        sitedata_array(&choices_type, p, 0, out);
    else if (IS("recommendation_list"))
        sitedata_array(&platforms_type, p, 0, out);
}

static const struct tmpl_type page_type = {page_get, NULL, NULL, NULL, 0};

void sitedata_gpu_page_value(const struct sitedata_gpu_page *p, struct tmpl_value *out)
{
    sitedata_object(&page_type, p, 0, out);
}

/* ---- the history ------------------------------------------------------------------ */

/* A run's end (newest, oldest): p is the run, at 0 for its newest release,
 * 1 for its oldest. */
static void end_get(const struct tmpl_value *v, const char *name, size_t len,
                    struct tmpl_value *out)
{
    const struct sitedata_run *u = v->p;
    out->kind = TMPL_MISSING;
    if (IS("release"))
        tmpl_value_str(v->at ? u->oldest_release : u->newest_release, out);
    else if (IS("page"))
        tmpl_value_str(v->at ? u->oldest_page : u->newest_page, out);
}

static const struct tmpl_type end_type = {end_get, NULL, NULL, NULL, 0};

/* A line of the history: p is the run. */
static void run_get(const struct tmpl_value *v, const char *name, size_t len,
                    struct tmpl_value *out)
{
    const struct sitedata_run *u = v->p;
    out->kind = TMPL_MISSING;
    if (IS("variant"))
        tmpl_value_str(u->variant, out);
    else if (IS("platform"))
        tmpl_value_str(u->platform, out);
    else if (IS("platform_name"))
        tmpl_value_str(sitedata_platform_name(u->platform), out);
    else if (IS("newest"))
        sitedata_object(&end_type, u, 0, out);
    else if (IS("oldest") && u->count > 1)
        sitedata_object(&end_type, u, 1, out);
    else if (IS("count"))
        tmpl_value_int((long long)u->count, out);
    else if (IS("verdict"))
        tmpl_value_str(compat_verdict_name(u->res->verdict), out);
    else if (IS("label"))
        tmpl_value_str(compat_verdict_label(u->res->verdict), out);
    else if (IS("symbol"))
        tmpl_value_str(grid_verdict_symbol(u->res->verdict), out);
    else if (IS("reason"))
        tmpl_value_str(u->res->reason, out);
    else if (IS("status"))
        tmpl_value_str(dbview_status_name(u->status), out);
    else if (IS("confidence"))
        tmpl_value_str(u->confidence, out);
    else if (IS("provenance"))
        tmpl_value_str(u->provenance, out);
    else if (IS("min_driver"))
        sitedata_or_null(u->res->min_driver, out);
}

static const struct tmpl_type run_type = {run_get, NULL, NULL, NULL, 0};

/* A project's runs: p is the group. */
static size_t runs_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_history_group *)v->p)->n;
}

static void runs_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    sitedata_object(&run_type, &((const struct sitedata_history_group *)v->p)->runs[i], 0, out);
}

static const struct tmpl_type runs_type = {NULL, runs_len, runs_at, NULL, 0};

static void group_get(const struct tmpl_value *v, const char *name, size_t len,
                      struct tmpl_value *out)
{
    const struct sitedata_device *dev = v->p;
    const struct sitedata_history_group *g = &dev->groups[v->at];
    out->kind = TMPL_MISSING;
    if (IS("project"))
        tmpl_value_str(g->project, out);
    else if (IS("anchor"))
        tmpl_value_str(g->anchor, out);
    else if (IS("rows"))
        sitedata_array(&runs_type, g, 0, out);
}

static const struct tmpl_type group_type = {group_get, NULL, NULL, NULL, 0};

static size_t groups_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_device *)v->p)->ngroups;
}

static void groups_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    sitedata_object(&group_type, v->p, i, out);
}

static const struct tmpl_type groups_type = {NULL, groups_len, groups_at, NULL, 0};

void sitedata_device_history_releases(const struct sitedata_device *dev, struct tmpl_value *out)
{
    sitedata_array(&groups_type, dev, 0, out);
}
