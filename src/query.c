/*
 * query: verdicts per variant and a recommendation.
 */
#include "query.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "compat.h"
#include "xalloc.h"

json_t *query_differences(const struct dbview *v, const char *project, const char *version,
                          const char *platform)
{
    json_t *out = json_array();
    for (size_t i = 0; i < v->nrows; i++) {
        const struct view_row *r = &v->rows[i];
        if (strcmp(r->project, project) != 0 || json_array_size(r->differences) == 0)
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
        json_object_set(x, "differences", r->differences);
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

/* Whether a row is for the GPU's vendor: ROCm variants for AMD GPUs, the
 * others (CUDA, cpu) for NVIDIA ones. */
static int row_fits(const struct view_row *r, uint16_t cc)
{
    int rocm = tables_variant_rocm(r->variant, NULL);
    return cc >= TABLES_AMD_MIN ? rocm : !rocm;
}

/* Rows of one release: per variant the best row (newest version, then the
 * better status). */
static size_t pick_rows(const struct dbview *v, const struct query_options *o, const char *release,
                        const char *exact, const struct view_row **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < v->nrows; i++) {
        const struct view_row *r = &v->rows[i];
        if (strcmp(r->project, o->project) != 0 || strcmp(r->platform, o->platform) != 0 ||
            strcmp(r->release, release) != 0 || !row_fits(r, o->cc))
            continue;
        if (exact && r->status != VIEW_DECLARED && strcmp(r->version, exact) != 0)
            continue;
        size_t k;
        for (k = 0; k < n; k++)
            if (strcmp(out[k]->variant, r->variant) == 0)
                break;
        if (k < n) {
            int c = dotver_cmp_str(r->version, out[k]->version);
            if (c > 0 || (c == 0 && r->status < out[k]->status))
                out[k] = r;
            continue;
        }
        if (n < max)
            out[n++] = r;
    }
    return n;
}

/* The requirement to install: the exact version asked for, else the
 * row's full version, else its release with a wildcard. */
static char *spec(const struct query_options *o, const struct view_row *r)
{
    struct dotver d;
    if (o->version && dotver_parse(o->version, &d) == 0 && d.n >= 3 &&
        strcmp(r->release, o->version) != 0)
        return xasprintf("%s==%s", o->project, o->version);
    dotver_parse(r->version, &d);
    if (d.n >= 3)
        return xasprintf("%s==%s", o->project, r->version);
    return xasprintf("%s==%s.*", o->project, r->version);
}

static char *index_url_no_slash(const char *u)
{
    size_t n = strlen(u);
    while (n > 0 && u[n - 1] == '/')
        n--;
    return xstrndup(u, n);
}

static json_t *recommend(const struct query_options *o, const struct view_row *r, int verdict,
                         const char *reason)
{
    json_t *rec = json_object();
    char *s = spec(o, r), *u = index_url_no_slash(r->index_url);
    json_object_set_new(rec, "index", json_string(r->variant));
    json_object_set_new(rec, "index_url", json_string(u));
    json_object_set_new(rec, "version", json_string(r->version));
    json_object_set_new(rec, "verdict", json_string(compat_verdict_name(verdict)));
    json_object_set_new(rec, "reason", json_string(reason));
    json_t *cmds = json_object();
    char *pip = xasprintf("pip install %s --index-url %s", s, u);
    char *uv = xasprintf("uv pip install %s --index-url %s", s, u);
    json_object_set_new(cmds, "pip", json_string(pip));
    json_object_set_new(cmds, "uv", json_string(uv));
    json_object_set_new(rec, "commands", cmds);
    free(pip);
    free(uv);
    free(s);
    free(u);
    return rec;
}

/* How well a variant fits a driver: 0 when its CUDA is within what the
 * driver supports natively (or no driver was given), 1 when it relies on
 * minor-version compatibility (runs, with a reduced feature set). */
static int driver_tier(const struct view_row *r, const struct toolkit *driver_cuda)
{
    if (!driver_cuda || !r->cuda.n)
        return 0;
    struct dotver mm = driver_cuda->cuda;
    mm.n = 2;
    return dotver_cmp(&r->cuda, &mm) > 0;
}

/* The best variant among judged rows: native first, then PTX JIT; then
 * variants the driver supports natively, the newest CUDA among them; then
 * those that need minor-version compatibility, the oldest CUDA (the least
 * ahead of the driver).  Returns the index or -1. */
static int best_of(const struct view_row **rows, const struct compat_result *res, size_t n,
                   const struct toolkit *driver_cuda)
{
    int best = -1;
    for (size_t i = 0; i < n; i++) {
        int v = res[i].verdict;
        if (v != COMPAT_NATIVE && v != COMPAT_PTX_JIT)
            continue;
        if (best < 0) {
            best = (int)i;
            continue;
        }
        int tb = driver_tier(rows[best], driver_cuda), ti = driver_tier(rows[i], driver_cuda);
        int c = dotver_cmp(&rows[i]->cuda, &rows[best]->cuda);
        struct dotver ri, rb;
        if (c == 0 && tables_variant_rocm(rows[i]->variant, &ri) &&
            tables_variant_rocm(rows[best]->variant, &rb))
            c = dotver_cmp(&ri, &rb); /* the newest ROCm */
        if (v < res[best].verdict ||
            (v == res[best].verdict && (ti < tb || (ti == tb && (ti == 0 ? c > 0 : c < 0)))))
            best = (int)i;
    }
    return best;
}

static void judge_rows(const struct dbview *v, const struct query_options *o,
                       const struct view_row **rows, size_t n, struct compat_result *res)
{
    struct compat_query q = {o->cc, o->has_driver, o->driver,
                             strncmp(o->platform, "windows", 7) == 0 ? TABLES_WINDOWS
                                                                     : TABLES_LINUX};
    for (size_t i = 0; i < n; i++)
        compat_judge(v->t, &q, &rows[i]->code, &rows[i]->cuda, &res[i]);
}

static int cmp_release_desc(const void *a, const void *b)
{
    return dotver_cmp_str(*(char *const *)b, *(char *const *)a);
}

json_t *query_run(const struct dbview *v, const struct query_options *o, struct wa_error *err)
{
    /* Releases of the project on the platform, newest first. */
    char **releases = NULL;
    size_t nrel = 0, project_rows = 0;
    for (size_t i = 0; i < v->nrows; i++) {
        const struct view_row *r = &v->rows[i];
        if (strcmp(r->project, o->project) != 0)
            continue;
        project_rows++;
        if (strcmp(r->platform, o->platform) != 0 || !row_fits(r, o->cc))
            continue;
        size_t k;
        for (k = 0; k < nrel; k++)
            if (strcmp(releases[k], r->release) == 0)
                break;
        if (k == nrel) {
            releases = xrealloc(releases, (nrel + 1) * sizeof *releases);
            releases[nrel++] = r->release;
        }
    }
    if (project_rows == 0) {
        free(releases);
        wa_error_set(err, WA_ERR_USAGE, "no data about project %s (crawl it first)", o->project);
        return NULL;
    }
    if (nrel == 0) {
        free(releases);
        wa_error_set(err, WA_ERR_USAGE, "no %s%s wheels for %s in the data%s", o->project,
                     o->cc >= TABLES_AMD_MIN ? " ROCm" : "", o->platform,
                     o->cc >= TABLES_AMD_MIN ? " (PyTorch builds ROCm wheels for Linux x86_64 only)"
                                             : "");
        return NULL;
    }
    qsort(releases, nrel, sizeof *releases, cmp_release_desc);
    char *release = o->version ? dotver_major_minor(o->version) : xstrdup(releases[0]);
    const char *exact = NULL;
    struct dotver ov;
    if (o->version && dotver_parse(o->version, &ov) == 0 && ov.n >= 3)
        exact = o->version;

    const struct view_row *rows[64];
    size_t n = pick_rows(v, o, release, exact, rows, 64);
    if (n == 0) {
        wa_error_set(err, WA_ERR_USAGE, "no %s %s for %s in the data (releases: %s ... %s)",
                     o->project, o->version ? o->version : release, o->platform, releases[nrel - 1],
                     releases[0]);
        free(release);
        free(releases);
        return NULL;
    }
    struct compat_result res[64];
    judge_rows(v, o, rows, n, res);

    json_t *out = json_object();
    json_t *g = json_object();
    char ccs[16];
    compat_cc_string(o->cc, ccs, sizeof ccs);
    int amd = o->cc >= TABLES_AMD_MIN;
    json_object_set_new(g, "name", o->gpu ? json_string(o->gpu->name) : json_null());
    json_object_set_new(g, "vendor", json_string(amd ? "amd" : "nvidia"));
    json_object_set_new(g, "compute_capability", amd ? json_null() : json_string(ccs));
    if (amd) {
        struct target dev;
        char devs[TARGET_NAME_MAX];
        tables_amd_device(v->t, o->cc, &dev);
        target_format(&dev, devs, sizeof devs);
        json_object_set_new(g, "gfx", json_string(ccs));
        json_object_set_new(g, "gfx_target", json_string(devs)); /* with its feature modes */
    } else {
        json_object_set_new(g, "gfx", json_null());
        json_object_set_new(g, "gfx_target", json_null());
    }
    json_object_set_new(g, "device", json_string(ccs)); /* "8.6" or "gfx1100" */
    json_object_set_new(g, "architecture",
                        o->gpu ? json_string(o->gpu->architecture) : json_null());
    json_object_set_new(g, "tegra", json_boolean(o->gpu ? o->gpu->tegra : tables_is_tegra(o->cc)));
    json_object_set_new(out, "gpu", g);
    if (o->has_driver) {
        json_t *d = json_object();
        int os = strncmp(o->platform, "windows", 7) == 0 ? TABLES_WINDOWS : TABLES_LINUX;
        const struct toolkit *k = tables_driver_cuda(v->t, &o->driver, os);
        json_object_set_new(d, "version", json_string(o->driver_text));
        if (k) {
            char cuda[16];
            snprintf(cuda, sizeof cuda, "%ld.%ld", k->cuda.f[0], k->cuda.f[1]);
            json_object_set_new(d, "cuda", json_string(cuda));
        } else {
            json_object_set_new(d, "cuda", json_null());
        }
        json_object_set_new(out, "driver", d);
    } else {
        json_object_set_new(out, "driver", json_null());
    }
    json_object_set_new(out, "project", json_string(o->project));
    json_object_set_new(out, "version", json_string(exact ? exact : release));
    json_object_set_new(out, "platform", json_string(o->platform));
    json_t *variants = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *x = json_object();
        json_object_set_new(x, "variant", json_string(rows[i]->variant));
        json_object_set_new(x, "version", json_string(rows[i]->version));
        char *u = index_url_no_slash(rows[i]->index_url);
        json_object_set_new(x, "index_url", json_string(u));
        free(u);
        json_object_set_new(x, "status", json_string(dbview_status_name(rows[i]->status)));
        if (rows[i]->cuda.n) {
            char cuda[16];
            snprintf(cuda, sizeof cuda, "%ld.%ld", rows[i]->cuda.f[0], rows[i]->cuda.f[1]);
            json_object_set_new(x, "cuda", json_string(cuda));
        } else {
            json_object_set_new(x, "cuda", json_null());
        }
        json_object_set_new(x, "min_driver",
                            res[i].min_driver[0] ? json_string(res[i].min_driver) : json_null());
        json_object_set_new(x, "verdict", json_string(compat_verdict_name(res[i].verdict)));
        json_object_set_new(x, "label", json_string(compat_verdict_label(res[i].verdict)));
        json_object_set_new(x, "reason", json_string(res[i].reason));
        if (res[i].has_via) {
            char name[TARGET_NAME_MAX];
            target_format(&res[i].via, name, sizeof name);
            json_object_set_new(x, "via", json_string(name));
        } else {
            json_object_set_new(x, "via", json_null());
        }
        json_object_set_new(x, "modules", json_integer((json_int_t)res[i].modules));
        json_object_set(x, "differences", rows[i]->differences);
        json_array_append_new(variants, x);
    }
    json_object_set_new(out, "variants", variants);

    const struct toolkit *dcuda =
        o->has_driver ? tables_driver_cuda(v->t, &o->driver,
                                           strncmp(o->platform, "windows", 7) == 0 ? TABLES_WINDOWS
                                                                                   : TABLES_LINUX)
                      : NULL;
    int best = best_of(rows, res, n, dcuda);
    json_t *notes = json_array();
    if (best >= 0) {
        const char *why;
        if (res[best].verdict != COMPAT_NATIVE)
            why = "no variant has native code; this one's PTX is compiled at first start";
        else if (dcuda && driver_tier(rows[best], dcuda))
            why = "native code for this GPU; its CUDA is newer than the driver's and runs through "
                  "CUDA minor-version compatibility (update the driver to use a newer variant "
                  "fully)";
        else if (amd)
            why = "native code for this GPU, the newest ROCm among such variants";
        else if (dcuda)
            why = "native code for this GPU, the newest CUDA this driver supports";
        else
            why = "native code for this GPU, the newest CUDA among such variants";
        json_object_set_new(out, "recommendation",
                            recommend(o, rows[best], res[best].verdict, why));
        json_object_set_new(out, "fallback", json_null());
    } else {
        json_object_set_new(out, "recommendation", json_null());
        json_t *fb = json_null();
        /* The newest other release that works. */
        for (size_t k = 0; k < nrel && json_is_null(fb); k++) {
            if (dotver_cmp_str(releases[k], release) == 0)
                continue;
            const struct view_row *r2[64];
            struct compat_result c2[64];
            size_t m = pick_rows(v, o, releases[k], NULL, r2, 64);
            judge_rows(v, o, r2, m, c2);
            int b = best_of(r2, c2, m, dcuda);
            if (b >= 0) {
                char *why =
                    xasprintf("%s %s has no variant for this GPU; %s %s is the newest "
                              "release that has one",
                              o->project, exact ? exact : release, o->project, r2[b]->version);
                fb = recommend(o, r2[b], c2[b].verdict, why);
                free(why);
            }
        }
        json_object_set_new(out, "fallback", fb);
        if (json_is_null(fb))
            json_array_append_new(notes, json_string("no release in the data runs on this GPU"));
    }
    if (amd)
        json_array_append_new(
            notes, json_string("ROCm wheels are Linux x86_64 only and need the amdgpu kernel "
                               "driver of a matching ROCm release; AMD code objects have no "
                               "JIT, so only exact processor (or generic target) matches run"));
    if (!amd && ((o->gpu && o->gpu->tegra) || tables_is_tegra(o->cc)))
        json_array_append_new(
            notes, json_string("Jetson (Tegra) GPUs run only code built for exactly their compute "
                               "capability, and PyPI/download.pytorch.org aarch64 wheels are "
                               "SBSA builds that do not apply to Jetson (L4T); NVIDIA publishes "
                               "its own Jetson wheels"));
    for (size_t i = 0; i < n; i++)
        if (rows[i]->status == VIEW_DECLARED) {
            json_array_append_new(notes, json_string("rows marked declared come from PyTorch's "
                                                     "published build configuration, not from "
                                                     "reading the wheels"));
            break;
        }
    json_object_set_new(out, "notes", notes);
    free(release);
    free(releases);
    return out;
}
