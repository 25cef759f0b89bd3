/*
 * query: verdicts per variant and a recommendation.
 */
#include "query.h"
#include "query_state.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "compat.h"
#include "vendorindex.h"
#include "verdict.h"
#include "xalloc.h"

json_t *query_differences(const struct dbview *v, const char *project, const char *version,
                          const char *platform)
{
    json_t *out = json_array();
    for (size_t i = 0; i < v->nrows; i++) {
        const struct dbview_row *r = &v->rows[i];
        if (strcmp(r->project, project) != 0 || r->ndifferences == 0)
            continue;
        if (platform && strcmp(r->platform, platform) != 0)
            continue;
        if (version && strcmp(r->version, version) != 0 && strcmp(r->release, version) != 0)
            continue;
        json_t *x = json_object();
        json_object_set_new(x, "project", json_string(r->project));
        json_object_set_new(x, "version", json_string(r->version));
        json_object_set_new(x, "variant", json_string(r->variant));
        json_object_set_new(x, "platform", json_string(r->platform));
        json_object_set_new(x, "status", json_string(dbview_status_name(r->status)));
        json_object_set_new(x, "declared", json_string(r->declared ? r->declared->arch_list : ""));
        json_object_set_new(x, "differences", dbview_row_differences(r));
        json_array_append_new(out, x);
    }
    return out;
}

const char *query_this_platform(void)
{
    struct utsname u;
    if (uname(&u) != 0)
        return "linux-x86_64";
    if (strcmp(u.machine, "aarch64") == 0 || strcmp(u.machine, "arm64") == 0)
        return "linux-aarch64";
    return "linux-x86_64";
}

int query_applies(uint16_t cc, int tegra, int arm_host, const char *platform)
{
    const char *only = tables_host_platform(arm_host);
    if (only && strcmp(platform, only) != 0)
        return 0;
    if (!tegra)
        return 1;
    return query_tegra_sbsa(cc) && strcmp(platform, "linux-aarch64") == 0;
}

static void add_note(struct answer_result *out, const char *s)
{
    if (out->nnotes < ANSWER_NOTES_MAX)
        out->notes[out->nnotes++] = s;
}

/* Why another release than the one asked about, in the order they block:
 * the asked one has no code for the GPU, or no wheel for this Python, or
 * not with this driver (never a claim that it is the last with code while
 * a newer one has some).  New string. */
static char *why_fallback(const struct qctx *c, size_t rk, const char *exact, const char *release,
                          const struct choice *a)
{
    const struct query_options *o = c->o;
    struct choice t;
    const char *blocked;
    char pyb[96];
    const struct toolkit *dc =
        o->has_driver ? tables_driver_cuda(c->v->t, &o->driver, c->os) : NULL;
    if (!qi_decide_release(c, rk, exact, 0, NULL, NULL, 0, &t)) {
        blocked = "has no variant for this GPU";
    } else if (c->py && !qi_decide_release(c, rk, exact, 0, NULL, NULL, 1, &t)) {
        char pys[16];
        tables_python_format(o->python, o->python_free_threaded, pys, sizeof pys);
        int drv_too = o->has_driver && !qi_decide_release(c, rk, exact, 1, &o->driver, dc, 0, &t);
        snprintf(pyb, sizeof pyb, "has no wheel for Python %s%s", pys,
                 drv_too ? " (and needs a newer driver than this one)" : "");
        blocked = pyb;
    } else {
        blocked = "does not run with this driver";
    }
    const char *cond = o->has_driver && o->has_python ? " with this driver and Python"
                       : o->has_driver                ? " with this driver"
                       : o->has_python                ? " with this Python"
                                                      : "";
    if (strcmp(c->rows[a->row]->release, c->releases[rk < c->nrel ? rk : 0]) == 0)
        /* another patch of the asked release */
        return xasprintf("%s %s (its newest patch, as the rows above show) %s; %s %s, another "
                         "patch of it, runs%s",
                         o->project, exact ? exact : release, blocked, o->project, a->pin, cond);
    return xasprintf("%s %s %s; %s %s is the newest release that runs%s", o->project,
                     exact ? exact : release, blocked, o->project, c->rows[a->row]->version,
                     o->has_driver && o->has_python ? " with this driver and Python"
                     : o->has_driver                ? " with this driver"
                     : o->has_python                ? " with this Python"
                                                    : "");
}

/* Where ROCm builds come from beyond PyTorch's Linux x86_64 ones, from
 * the vendor table: " and windows-x86_64 (AMD's own index)", or "". */
static void rocm_elsewhere(const struct tables *t, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; t && i < t->nvendor; i++) {
        const struct vendor_build *b = &t->vendor[i];
        if (strncmp(b->variant, "rocm", 4) != 0 || strcmp(b->platform, "linux-x86_64") == 0 ||
            strstr(buf, b->platform))
            continue;
        int w = snprintf(buf + k, n - k, " and %s (%s's own index)", b->platform, b->vendor);
        if (w < 0 || (size_t)w >= n - k) {
            buf[k] = '\0';
            break;
        }
        k += (size_t)w;
    }
}

struct answer_result *query_answer(const struct dbview *v, const struct query_options *o,
                                   struct wa_error *err)
{
    size_t project_rows = 0;
    for (size_t i = 0; i < v->nrows && !project_rows; i++)
        if (strcmp(v->rows[i].project, o->project) == 0)
            project_rows++;
    if (project_rows == 0 && v->elsewhere == 0) {
        wa_error_set(err, WA_ERR_USAGE, "no data about project %s (crawl it first)", o->project);
        return NULL;
    }
    struct qctx c;
    qi_qctx_init(&c, v, o);
    if (c.nrel == 0) {
        qi_qctx_free(&c);
        char also[160];
        rocm_elsewhere(v->t, also, sizeof also);
        if (o->cc >= TABLES_AMD_MIN)
            wa_error_set(
                err, WA_ERR_USAGE,
                "no %s ROCm wheels for %s in the data (ROCm builds are for linux-x86_64%s)",
                o->project, o->platform, also);
        else
            wa_error_set(err, WA_ERR_USAGE, "no %s wheels for %s in the data", o->project,
                         o->platform);
        return NULL;
    }
    char *release = o->version ? dotver_release(o->version) : xstrdup(c.releases[0]);
    const char *exact = NULL;
    struct dotver ov;
    if (o->version && dotver_parse(o->version, &ov) == 0 && ov.n >= 3)
        exact = o->version;
    size_t rk = qi_release_index(&c, release);
    size_t idx[64];
    size_t n = rk < c.nrel ? qi_pick(&c, rk, exact, idx, 64) : 0;
    if (n == 0) {
        wa_error_set(err, WA_ERR_USAGE, "no %s %s for %s in the data (releases: %s ... %s)",
                     o->project, o->version ? o->version : release, o->platform,
                     c.releases[c.nrel - 1], c.releases[0]);
        free(release);
        qi_qctx_free(&c);
        return NULL;
    }
    struct answer_result *out = xcalloc(1, sizeof *out);
    int amd = c.amd;
    int tegra = !amd && ((o->gpu && o->gpu->tegra) || tables_is_tegra(o->cc));
    int arm_host = o->arm_host ? o->arm_host : o->gpu ? o->gpu->arm_host : 0;
    int applies = query_applies(o->cc, tegra, arm_host, o->platform);

    out->gpu_name = o->gpu ? o->gpu->name : NULL;
    out->architecture = o->gpu ? o->gpu->architecture : NULL;
    out->amd = amd;
    out->tegra = tegra;
    out->cc = o->cc;
    compat_cc_string(o->cc, out->device, sizeof out->device);
    if (amd) {
        struct target dev;
        tables_amd_device(v->t, o->cc, &dev);
        if (o->xnack != TARGET_FEAT_ANY && dev.xnack != TARGET_FEAT_ANY)
            dev.xnack = (uint8_t)o->xnack;
        target_format(&dev, out->gfx_target, sizeof out->gfx_target);
    }
    const struct arch_support *end = amd ? NULL : tables_driver_branch_end(v->t, o->cc);
    if (end) {
        snprintf(out->last_branch, sizeof out->last_branch, "R%ld", end->last_branch);
        snprintf(out->last_branch_cuda, sizeof out->last_branch_cuda, "%ld.%ld",
                 end->last_branch_cuda.f[0], end->last_branch_cuda.f[1]);
        out->driver_beyond_branch = o->has_driver && tables_driver_beyond(end, &o->driver);
    }
    out->has_driver = o->has_driver;
    if (o->has_driver) {
        out->driver_text = o->driver_text;
        const struct toolkit *k = tables_driver_cuda(v->t, &o->driver, c.os);
        if (k)
            snprintf(out->driver_cuda, sizeof out->driver_cuda, "%ld.%ld", k->cuda.f[0],
                     k->cuda.f[1]);
    }
    out->has_python = o->has_python;
    out->python = o->python;
    out->python_free_threaded = o->python_free_threaded;
    out->python_source = o->python_source;
    out->project = o->project;
    out->platform = o->platform;
    out->version = xstrdup(exact ? exact : release);
    out->applies = applies;
    out->rows = xcalloc(n, sizeof *out->rows);
    out->nrows = n;
    for (size_t i = 0; i < n; i++) {
        const struct dbview_row *r = c.rows[idx[i]];
        struct answer_row *x = &out->rows[i];
        struct compat_result res;
        if (o->has_driver)
            qi_judge_one(&c, r, 1, &o->driver, &res);
        else
            res = *c.plain[idx[i]];
        x->row = r;
        x->index_url = qi_index_url_no_slash(r->index_url);
        if (r->cuda.n)
            tables_variant_cuda_text(r->variant, x->cuda, sizeof x->cuda);
        /* platform, code, Python and driver apart, the headline the first
         * that blocks (verdict.h) */
        verdict_judge(&res, applies, c.py ? c.py[idx[i]] : -1, &x->v);
        qi_fill_pythons(&c, r, qi_declared_whole(r), &x->pythons);
    }

    struct choice code = {.row = -1};
    if (applies) {
        struct choice a;
        qi_answer_for(&c, rk, exact, o->has_driver, &o->driver, &a);
        qi_newest_with_code(&c, &code);
        /* no release with code has a wheel for the Python asked (once: the
         * change steps and the self-build steps both say it) */
        int py_blocks = code.row >= 0 && qi_python_blocks(&c, rk, exact);
        if (a.row >= 0 && !a.fallback) {
            out->recommendation =
                qi_new_install(&c, &a, qi_why_chosen(&c, &a, o->has_driver ? &o->driver : NULL));
        } else if (a.row >= 0) {
            char *why = why_fallback(&c, rk, exact, release, &a);
            out->fallback = qi_new_install(&c, &a, why);
            free(why);
        } else {
            add_note(out, code.row < 0 ? "no release in the data runs on this GPU"
                          : o->has_driver && o->has_python
                              ? "no release in the data runs with this driver and Python; see "
                                "what to change"
                          : o->has_driver ? "no release in the data runs with this driver; see "
                                            "what to change"
                                          : "no release in the data has a wheel for this Python; "
                                            "see what to change");
        }
        if (code.row >= 0)
            out->newest_with_code = qi_new_install(&c, &code,
                                                   "the newest release with code for this GPU, "
                                                   "whatever the driver");
        if (!(a.row >= 0 && !a.fallback))
            qi_change_steps(&c, rk, exact, &a, &code, py_blocks, out);
        /* AMD: one line (no NVIDIA driver decides), so that the tables
         * per Python answer for it as for NVIDIA */
        qi_by_driver(&c, rk, exact, 0, &out->by_driver, &out->nby_driver);
        qi_python_tables(&c, rk, exact, out);
        qi_last_native(&c, out);
        if (code.row < 0)
            qi_source_build(&c, &out->source_build);
        else
            qi_self_build(&c, &code, py_blocks, &out->self_build);
    }
    qi_pypi_answer(&c, rk, exact, applies, &out->pypi);
    qi_guidance(&c, tegra, applies ? 0 : arm_host, &out->guidance);
    if (out->driver_beyond_branch)
        add_note(out, "the driver given is of a branch after this GPU's last one (last_branch): "
                      "NVIDIA's later drivers do not run this GPU");
    if (amd)
        add_note(out, strcmp(o->platform, "linux-x86_64") == 0
                          ? "ROCm wheels need the amdgpu kernel driver of a matching ROCm release; "
                            "AMD code objects have no JIT, so only exact processor (or generic "
                            "target) matches run"
                          : "PyTorch's own ROCm wheels are Linux x86_64 only, so every ROCm row "
                            "here is a vendor's; they need AMD's driver of a matching ROCm "
                            "release, and AMD code objects have no JIT, so only exact processor "
                            "(or generic target) matches run");
    int declared = 0, vendors = 0;
    const struct vendor_build *vendor = NULL;
    for (size_t i = 0; i < n; i++) {
        const struct dbview_row *r = c.rows[idx[i]];
        declared += r->status == VIEW_DECLARED;
        if (r->vendor && r->status == VIEW_DECLARED)
            vendors++;
        if (r->vendor && !vendor)
            vendor = r->vendor;
    }
    if (declared && vendors == declared) /* the vendor's own words, from the tables */
        add_note(out, declared == (int)n ? vendor->declared_all : vendor->declared_some);
    else if (declared)
        add_note(out, declared == (int)n ? "every row here is declared: taken from PyTorch's "
                                           "published build configuration, not read from the "
                                           "wheels"
                                         : "rows marked declared come from PyTorch's published "
                                           "build configuration, not from reading the wheels");
    if (vendor) /* the tables' sentence: it outlives the answer */
        add_note(out, vendor->line);
    free(release);
    qi_qctx_free(&c);
    return out;
}

json_t *query_run(const struct dbview *v, const struct query_options *o, struct wa_error *err)
{
    struct answer_result *a = query_answer(v, o, err);
    if (!a)
        return NULL;
    json_t *j = answer_json(a);
    answer_free(a);
    return j;
}
