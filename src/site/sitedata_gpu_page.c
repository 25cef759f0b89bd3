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
#include "vendorindex.h"
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
    static const char *const names[SITEDATA_NPLATFORMS] = {"Linux x86_64", "Linux aarch64",
                                                           "Windows", "Windows on Arm"};
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

/* Where a grid shows fewer releases than there are: p is the grid. */
static const struct tmpl_field cut_fields[] = {
    TMPL_SIZE("shown", struct relgrid, nrel),
    TMPL_SIZE("total", struct relgrid, total),
};

static const struct tmpl_type cut_type = TMPL_FIELDS(cut_fields);

/* One platform's answer: p is the page's platform.  Its answer's own
 * parts (recommendation ... stack) are sitedata_answer's getters. */
static const struct sitedata_gpu_platform *platform_of(const struct tmpl_value *v)
{
    return v->p;
}

static void platform_release(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(platform_of(v)->res->version, out);
}

static void platform_applies(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_bool(platform_of(v)->res->applies, out);
}

static void platform_has_drivers(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_bool(platform_of(v)->res->nby_driver > 1, out);
}

static void platform_has_last_native(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_bool(platform_of(v)->res->nlast_native > 0, out);
}

static void platform_platform_name(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(sitedata_platform_name(platform_of(v)->platform), out);
}

static void platform_has_stack(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_platform *x = platform_of(v);
    tmpl_value_bool(x->dev->nshown[x->p] > 0, out);
}

static void platform_grid(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_platform *x = platform_of(v);
    if (x->dev->pgrid[x->p].nrel)
        sitedata_grid_value(&x->dev->pgrid[x->p], out);
}

static void platform_grid_cut(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_platform *x = platform_of(v);
    const struct relgrid *g = &x->dev->pgrid[x->p];
    if (g->nrel < g->total)
        sitedata_object(&cut_type, g, 0, out);
}

static const struct tmpl_field platform_fields[] = {
    TMPL_GET("recommendation", sitedata_answer_recommendation),
    TMPL_GET("fallback", sitedata_answer_fallback),
    TMPL_GET("newest_with_code", sitedata_answer_newest_with_code),
    TMPL_GET("by_driver", sitedata_answer_by_driver),
    TMPL_GET("pypi", sitedata_answer_pypi),
    TMPL_GET("last_native", sitedata_answer_last_native),
    TMPL_GET("way_forward", sitedata_answer_way_forward),
    TMPL_GET("self_build", sitedata_answer_self_build),
    TMPL_GET("guidance", sitedata_answer_guidance),
    TMPL_GET("stack", sitedata_answer_stack),
    TMPL_GET("release", platform_release),
    TMPL_GET("applies", platform_applies),
    TMPL_GET("has_drivers", platform_has_drivers),
    TMPL_GET("has_last_native", platform_has_last_native),
    TMPL_STR("platform", struct sitedata_gpu_platform, platform),
    TMPL_GET("platform_name", platform_platform_name),
    TMPL_GET("has_stack", platform_has_stack),
    TMPL_GET("grid", platform_grid),
    TMPL_GET("grid_cut", platform_grid_cut),
};

static const struct tmpl_type platform_type = TMPL_FIELDS(platform_fields);

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
static void jetson_jetpack(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct jetson_build *b = p->guidance->jetson[v->at];
    tmpl_value_str(b->jetpack, out);
}

static void jetson_l4t(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct jetson_build *b = p->guidance->jetson[v->at];
    tmpl_value_str(b->l4t, out);
}

static void jetson_cuda(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct jetson_build *b = p->guidance->jetson[v->at];
    tmpl_value_str(b->cuda, out);
}

static void jetson_python(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct jetson_build *b = p->guidance->jetson[v->at];
    tmpl_value_str(b->python, out);
}

static void jetson_torch(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct jetson_build *b = p->guidance->jetson[v->at];
    tmpl_value_str(b->torch_text[0] ? b->torch_text : "none from NVIDIA yet", out);
}

static void jetson_has_torch(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    tmpl_value_bool(p->guidance->jetson[v->at]->torch[0] != '\0', out);
}

static void jetson_command(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    if (p->guidance->jetson_commands[v->at].pip_line)
        tmpl_value_str(p->guidance->jetson_commands[v->at].pip_line, out);
}

static void jetson_where(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct jetson_build *b = p->guidance->jetson[v->at];
    tmpl_value_str(b->where, out);
}

static const struct tmpl_field jetson_fields[] = {
    TMPL_GET("jetpack", jetson_jetpack), TMPL_GET("l4t", jetson_l4t),
    TMPL_GET("cuda", jetson_cuda),       TMPL_GET("python", jetson_python),
    TMPL_GET("torch", jetson_torch),     TMPL_GET("has_torch", jetson_has_torch),
    TMPL_GET("command", jetson_command), TMPL_GET("where", jetson_where),
};

static const struct tmpl_type jetson_type = TMPL_FIELDS(jetson_fields);

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
static void page_name(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct gpu *g = p->g;
    tmpl_value_str(g->name, out);
}

static void page_slug(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct gpu *g = p->g;
    tmpl_value_str(g->slug, out);
}

static void page_vendor(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct gpu *g = p->g;
    tmpl_value_str(g->amd ? "amd" : "nvidia", out);
}

static void page_compute_capability(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct gpu *g = p->g;
    tmpl_value_str(g->amd ? NULL : p->device, out);
}

static void page_gfx(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct gpu *g = p->g;
    tmpl_value_str(g->amd ? p->device : NULL, out);
}

static void page_gfx_target(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct gpu *g = p->g;
    tmpl_value_str(g->amd ? p->gfx_target : NULL, out);
}

static void page_gfx_modes(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct gpu *g = p->g;
    if (g->amd)
        tmpl_value_bool(strchr(p->gfx_target, ':') != NULL, out);
}

static void page_rocm_support(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct gpu *g = p->g;
    if (g->amd)
        tmpl_value_str(g->rocm_support, out);
}

static void page_other_devices(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct gpu *g = p->g;
    sitedata_array(&others_type, g, 0, out);
}

static void page_other_text(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    if (p->other_text)
        tmpl_value_str(p->other_text, out);
}

/* NVIDIA's last driver branch for it ("R470") and that branch's CUDA
 * ("11.4"); none for AMD's. */
static const struct arch_support *last_branch(const struct sitedata_gpu_page *p)
{
    return p->g->amd ? NULL : tables_driver_branch_end(p->d->t, p->g->cc);
}

static void page_last_branch(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct arch_support *end = last_branch(v->p);
    if (end)
        tmpl_value_strf(out, "R%ld", end->last_branch);
}

static void page_last_branch_cuda(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct arch_support *end = last_branch(v->p);
    if (end)
        tmpl_value_strf(out, "%ld.%ld", end->last_branch_cuda.f[0], end->last_branch_cuda.f[1]);
}

static void page_arm_host(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct gpu *g = p->g;
    tmpl_value_bool(g->arm_host, out);
}

static void page_architecture(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct gpu *g = p->g;
    tmpl_value_str(g->architecture, out);
}

static void page_segment(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct gpu *g = p->g;
    tmpl_value_str(g->segment, out);
}

static void page_tegra(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct gpu *g = p->g;
    tmpl_value_bool(g->tegra, out);
}

static void page_patch_pin(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    if (p->patch_pin)
        tmpl_value_str(p->patch_pin, out);
}

static void page_guidance(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    if (p->guidance)
        sitedata_guidance_value(p->guidance, out);
}

static void page_device_page(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct sitedata_device *dev = p->dev;
    char *dp = sitedata_device_path(sitedata_device_page_of(p->d, dev)->id);
    tmpl_value_strf(out, "%s", dp); /* a few bytes: fits the value's buffer */
    free(dp);
}

static void page_all_declared(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct sitedata_device *dev = p->dev;
    tmpl_value_bool(dev->declared_only, out);
}

/* Whose build configuration the page's declared answers come from:
 * "PyTorch's", "NVIDIA's" (a vendor's own builds, vendorindex.h), or both. */
static void page_declared_from(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct sitedata_device *dev = p->dev;
    int pytorch = 0;
    const char *vendor = NULL;
    for (int k = 0; k < SITEDATA_NPLATFORMS; k++) {
        const struct answer_result *r = dev->res[k];
        if (!r || !r->applies)
            continue;
        const struct answer_install *a = answer_runs(r);
        if (!a)
            a = r->newest_with_code;
        if (a && a->row->vendor)
            vendor = a->row->vendor->vendor;
        else if (a)
            pytorch = 1;
    }
    if (vendor && pytorch)
        tmpl_value_strf(out, "PyTorch's and %s's", vendor);
    else
        tmpl_value_strf(out, "%s's", vendor ? vendor : "PyTorch");
}

static void page_jetson_builds(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    sitedata_array(&jetsons_type, p, 0, out);
}

/* The newest JetPack NVIDIA built torch for (the page's answer), or -1. */
static long jetson_answer_at(const struct sitedata_gpu_page *p)
{
    for (size_t i = 0; p->guidance && i < p->guidance->njetson; i++)
        if (p->guidance->jetson[i]->torch[0])
            return (long)i;
    return -1;
}

static void page_jetson_answer(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    long at = jetson_answer_at(p);
    if (at >= 0)
        sitedata_object(&jetson_type, p, (size_t)at, out);
}

/* A newer JetPack than the answer's, which NVIDIA has built no torch for
 * yet: said beside the answer, so that a Jetson on it is not sent to a
 * build of another JetPack unawares. */
static void page_jetson_newer_unbuilt(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    long at = jetson_answer_at(p);
    if (at > 0 && !p->guidance->jetson[0]->torch[0])
        sitedata_object(&jetson_type, p, 0, out);
}

/* The JetPack of the answer, for the sentence about a newer one. */
static void page_jetson_answer_jetpack(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    long at = jetson_answer_at(p);
    if (at >= 0)
        tmpl_value_str(p->guidance->jetson[at]->jetpack, out);
}

static void page_has_jetson_builds(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    tmpl_value_bool(jetsons_len(&(struct tmpl_value){.p = p}) > 0, out);
}

static void page_device_file(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct sitedata_device *dev = p->dev;
    char *f = sitedata_device_file(p->d, dev);
    tmpl_value_strf(out, "%s", f);
    free(f);
}

static void page_has_grid(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    const struct sitedata_device *dev = p->dev;
    int any = 0;
    for (int k = 0; k < SITEDATA_NPLATFORMS; k++)
        any |= dev->pgrid[k].nrel > 0;
    tmpl_value_bool(any, out);
}

static void page_has_answers(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    /* a platform with an answer: the Python box has work */
    int any = 0;
    for (size_t k = 0; k < p->nplats; k++)
        any |= p->plats[k].res->applies;
    tmpl_value_bool(any, out);
}

static void page_python_choices(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    sitedata_array(&choices_type, p, 0, out);
}

static void page_recommendation_list(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_page *p = v->p;
    sitedata_array(&platforms_type, p, 0, out);
}

static const struct tmpl_field page_fields[] = {
    TMPL_GET("name", page_name),
    TMPL_GET("slug", page_slug),
    TMPL_GET("vendor", page_vendor),
    TMPL_CHARS("device", struct sitedata_gpu_page, device),
    TMPL_GET("compute_capability", page_compute_capability),
    TMPL_GET("gfx", page_gfx),
    TMPL_GET("gfx_target", page_gfx_target),
    TMPL_GET("gfx_modes", page_gfx_modes),
    TMPL_GET("rocm_support", page_rocm_support),
    TMPL_GET("other_devices", page_other_devices),
    TMPL_GET("other_text", page_other_text),
    TMPL_GET("last_branch", page_last_branch),
    TMPL_GET("last_branch_cuda", page_last_branch_cuda),
    TMPL_GET("arm_host", page_arm_host),
    TMPL_GET("architecture", page_architecture),
    TMPL_GET("segment", page_segment),
    TMPL_GET("tegra", page_tegra),
    TMPL_STR("page", struct sitedata_gpu_page, page),
    TMPL_STR("description", struct sitedata_gpu_page, description),
    TMPL_GET("patch_pin", page_patch_pin),
    TMPL_GET("guidance", page_guidance),
    TMPL_GET("device_page", page_device_page),
    TMPL_GET("all_declared", page_all_declared),
    TMPL_GET("declared_from", page_declared_from),
    TMPL_GET("jetson_builds", page_jetson_builds),
    TMPL_GET("jetson_answer", page_jetson_answer),
    TMPL_GET("jetson_newer_unbuilt", page_jetson_newer_unbuilt),
    TMPL_GET("jetson_answer_jetpack", page_jetson_answer_jetpack),
    TMPL_GET("has_jetson_builds", page_has_jetson_builds),
    TMPL_GET("device_file", page_device_file),
    TMPL_GET("has_grid", page_has_grid),
    TMPL_BOOL("driver_box", struct sitedata_gpu_page, driver_box),
    TMPL_GET("has_answers", page_has_answers),
    TMPL_GET("python_choices", page_python_choices),
    TMPL_GET("recommendation_list", page_recommendation_list),
};

static const struct tmpl_type page_type = TMPL_FIELDS(page_fields);

void sitedata_gpu_page_value(const struct sitedata_gpu_page *p, struct tmpl_value *out)
{
    sitedata_object(&page_type, p, 0, out);
}

/* ---- the history ------------------------------------------------------------------ */

/* A run's end (newest, oldest): p is the run, at 0 for its newest release,
 * 1 for its oldest. */
static void end_release(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_run *u = v->p;
    tmpl_value_str(v->at ? u->oldest_release : u->newest_release, out);
}

static void end_page(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_run *u = v->p;
    tmpl_value_str(v->at ? u->oldest_page : u->newest_page, out);
}

static const struct tmpl_field end_fields[] = {
    TMPL_GET("release", end_release),
    TMPL_GET("page", end_page),
};

static const struct tmpl_type end_type = TMPL_FIELDS(end_fields);

/* A line of the history: p is the run. */
static void run_platform_name(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_run *u = v->p;
    tmpl_value_str(sitedata_platform_name(u->platform), out);
}

static void run_newest(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_run *u = v->p;
    sitedata_object(&end_type, u, 0, out);
}

static void run_oldest(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_run *u = v->p;
    if (u->count > 1)
        sitedata_object(&end_type, u, 1, out);
}

static void run_verdict(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_run *u = v->p;
    tmpl_value_str(compat_verdict_name(u->res->verdict), out);
}

static void run_label(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_run *u = v->p;
    tmpl_value_str(compat_verdict_label(u->res->verdict), out);
}

static void run_symbol(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_run *u = v->p;
    tmpl_value_str(grid_verdict_symbol(u->res->verdict), out);
}

static void run_reason(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_run *u = v->p;
    tmpl_value_str(u->res->reason, out);
}

static void run_status(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_run *u = v->p;
    tmpl_value_str(dbview_status_name(u->status), out);
}

static void run_min_driver(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_run *u = v->p;
    sitedata_or_null(u->res->min_driver, out);
}

static const struct tmpl_field run_fields[] = {
    TMPL_STR("variant", struct sitedata_run, variant),
    TMPL_STR("platform", struct sitedata_run, platform),
    TMPL_GET("platform_name", run_platform_name),
    TMPL_GET("newest", run_newest),
    TMPL_GET("oldest", run_oldest),
    TMPL_SIZE("count", struct sitedata_run, count),
    TMPL_GET("verdict", run_verdict),
    TMPL_GET("label", run_label),
    TMPL_GET("symbol", run_symbol),
    TMPL_GET("reason", run_reason),
    TMPL_GET("status", run_status),
    TMPL_STR("confidence", struct sitedata_run, confidence),
    TMPL_STR("provenance", struct sitedata_run, provenance),
    TMPL_GET("min_driver", run_min_driver),
};

static const struct tmpl_type run_type = TMPL_FIELDS(run_fields);

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

static void group_project(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_device *dev = v->p;
    const struct sitedata_history_group *g = &dev->groups[v->at];
    tmpl_value_str(g->project, out);
}

static void group_anchor(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_device *dev = v->p;
    const struct sitedata_history_group *g = &dev->groups[v->at];
    tmpl_value_str(g->anchor, out);
}

static void group_rows(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_device *dev = v->p;
    const struct sitedata_history_group *g = &dev->groups[v->at];
    sitedata_array(&runs_type, g, 0, out);
}

static const struct tmpl_field group_fields[] = {
    TMPL_GET("project", group_project),
    TMPL_GET("anchor", group_anchor),
    TMPL_GET("rows", group_rows),
};

static const struct tmpl_type group_type = TMPL_FIELDS(group_fields);

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
