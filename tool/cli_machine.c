/*
 * cli_machine: which GPUs a command answers for: --cc, --gpu (repeatable),
 * WHEELARCH_GPUS, or this machine's (hostgpu), then --gpu-index; and the
 * driver (--driver elsewhere, WHEELARCH_DRIVER, or detected).  Shared by
 * query and doctor.  The environment is read here, never in the core.
 */
#include "cli_machine.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "datatable.h"
#include "gpuname.h"
#include "hostgpu.h"
#include "paths.h"
#include "query.h"
#include "strbuf.h"
#include "target.h"
#include "xalloc.h"

/* --gpu: the resolver's answer into o, or one clear error (what matched,
 * or "did you mean") and -1. */
static int resolve_gpu(const struct cli_command *cmd, const struct tables *t, const char *name,
                       struct query_options *o)
{
    struct gpuname_result r;
    gpuname_resolve(t, name, &r);
    char cc[16];
    if (r.decided) {
        o->gpu = r.gpu; /* NULL for a device code: --gpu 8.6 is --cc 8.6 */
        o->cc = r.cc;
        if (r.form_differs)
            cli_warn("note: '%s' is answered as %s: the table has no row of that name for "
                     "this form (laptop or desktop), and both share a compute capability",
                     name, r.gpu->name);
        /* other GPUs the words also fit, of another device code ("titan x") */
        struct strbuf also = STRBUF_INIT;
        size_t shown = 0;
        for (size_t i = r.nbest; i < r.n && shown < 3; i++) {
            if (r.m[i].gpu->cc == r.cc)
                continue;
            compat_cc_string(r.m[i].gpu->cc, cc, sizeof cc);
            strbuf_addf(&also, "%s%s (%s)", shown ? ", " : "", r.m[i].gpu->name, cc);
            shown++;
        }
        if (shown)
            cli_warn("note: answering for %s; '%s' also fits %s: give the full name for another",
                     r.gpu ? r.gpu->name : name, name, also.buf);
        strbuf_free(&also);
        return 0;
    }
    if (r.several_chips) {
        const struct gpu *g = r.m[0].gpu;
        struct strbuf b = STRBUF_INIT;
        compat_cc_string(g->cc, cc, sizeof cc);
        strbuf_adds(&b, cc);
        for (size_t i = 0; i < g->nother; i++) {
            compat_cc_string(g->other_cc[i], cc, sizeof cc);
            strbuf_addf(&b, "%s%s", i + 1 == g->nother ? " or " : ", ", cc);
        }
        cli_usage_error(cmd,
                        "%s was sold with chips of compute capability %s: pass yours with --cc "
                        "X.Y (python -c \"import torch; print(torch.cuda.get_device_capability())"
                        "\" prints it, or nvidia-smi --query-gpu=compute_cap with driver 510 or "
                        "newer)",
                        g->name, b.buf);
        strbuf_free(&b);
        return -1;
    }
    if (r.kind == GPUNAME_NAME) {
        int one_code = 1; /* an unfinished name ("108"): every GPU it may start alike */
        for (size_t i = 1; i < r.n; i++)
            one_code &= r.m[i].gpu->cc == r.m[0].gpu->cc;
        compat_cc_string(r.m[0].gpu->cc, cc, sizeof cc);
        if (one_code)
            cli_warn("'%s' is not a whole GPU name; %s %s %s (%s--cc %s gives the answer), or "
                     "give %s:",
                     name, r.n == 1 ? "the GPU it may start has" : "the GPUs it may start all have",
                     r.m[0].gpu->amd ? "processor" : "compute capability", cc,
                     r.n == 1 ? "" : "the same for each: ", cc,
                     r.n == 1 ? "its name" : "one of them");
        else
            cli_warn("'%s' fits several GPUs of different architectures; give one of them:", name);
        for (size_t i = 0; i < r.n && i < 12; i++) {
            compat_cc_string(r.m[i].gpu->cc, cc, sizeof cc);
            fprintf(stderr, "  %s (%s)\n", r.m[i].gpu->name, cc);
        }
        if (r.total > 12)
            fprintf(stderr, "  ... %zu more\n", r.total - 12);
        return -1;
    }
    if (r.kind == GPUNAME_FOREIGN) {
        cli_usage_error(cmd,
                        "'%s' is not an NVIDIA or AMD GPU: no CUDA or ROCm wheel runs on it "
                        "(PyTorch's Intel GPU builds are the xpu index; Apple GPUs use MPS in "
                        "the plain PyPI wheel)",
                        name);
        return -1;
    }
    if (r.kind == GPUNAME_VAGUE) {
        cli_usage_error(cmd,
                        "'%s' does not name one GPU%s: give its model (nvidia-smi "
                        "--query-gpu=name), or its device code (--cc 8.6, --cc gfx1100; "
                        "rocminfo | grep gfx)",
                        name, r.total > 1 ? " (it fits several)" : "");
        return -1;
    }
    struct strbuf b = STRBUF_INIT;
    for (size_t i = 0; i < r.nsuggest; i++) {
        compat_cc_string(r.suggest[i]->cc, cc, sizeof cc);
        strbuf_addf(&b, "%s%s (%s)", i ? ", " : "; did you mean ", r.suggest[i]->name, cc);
    }
    cli_usage_error(cmd, "no GPU in the table matches '%s'%s%s (or give --cc X.Y)", name,
                    b.len ? b.buf : "", b.len ? "?" : "");
    strbuf_free(&b);
    return -1;
}

/* ---- which GPUs: given, or this machine's -------------------------------- */

void machine_free(struct machine *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->labels[i]);
    free(m->labels);
    free(m->gpus);
    json_decref(m->detected);
    free(m->driver);
    free(m->driver_how);
    free(m->rocm);
    free(m->line);
    memset(m, 0, sizeof *m);
}

struct raw_gpu {
    char *name;      /* as written or detected, or NULL */
    char code[64];   /* "6.1", "gfx90a:sramecc+:xnack-", or "" */
    const char *via; /* NULL when given on the command line */
    int xnack;       /* enum target_feature: the AMD GPU's mode when known, else ANY */
};

/* Resolves one GPU into query options and a label; 0, or an exit status
 * (the error printed). */
static int resolve_raw(const struct cli_command *cmd, const struct tables *t,
                       const struct raw_gpu *g, struct query_options *o, char **label)
{
    memset(o, 0, sizeof *o);
    if (g->code[0]) {
        if (gpuname_parse_code(g->code, 1, &o->cc) < 0)
            return cli_usage_error(cmd,
                                   "\"%s\" is not a compute capability such as 8.6 or an AMD "
                                   "processor such as gfx1100",
                                   g->code);
        if (g->name) { /* the table's row of that name, when it agrees */
            struct gpuname_result r;
            gpuname_resolve(t, g->name, &r);
            if (r.decided && r.gpu && r.cc == o->cc)
                o->gpu = r.gpu;
        }
    } else if (resolve_gpu(cmd, t, g->name, o) < 0) {
        return WA_EXIT_USAGE;
    }
    if (o->gpu)
        o->arm_host = o->gpu->arm_host;
    o->xnack = g->xnack;
    if (o->cc >= TABLES_AMD_MIN && !tables_amd_processor(t, o->cc, 0)) {
        char name[16];
        compat_cc_string(o->cc, name, sizeof name);
        return cli_usage_error(cmd,
                               "unknown AMD processor '%s' (not in data/amdgpu_targets.csv; e.g. "
                               "gfx90a, gfx942, gfx1100)",
                               name);
    }
    char cc[16];
    compat_cc_string(o->cc, cc, sizeof cc);
    const char *name = o->gpu ? o->gpu->name : g->name;
    if (g->via && g->name && g->code[0])
        name = g->name; /* what the machine calls it */
    if (name && strcmp(name, cc) != 0)
        *label = xasprintf("%s (%s)", name, cc);
    else
        *label = o->cc >= TABLES_AMD_MIN ? xstrdup(cc) : xasprintf("compute capability %s", cc);
    return 0;
}

/* Fills m from --cc, the --gpu list, WHEELARCH_GPUS or detection, then
 * --gpu-index.  Returns 0 or an exit status (the error printed). */
int choose_gpus(const struct cli_command *cmd, const struct cli_args *a, const struct tables *t,
                const char **names, size_t nnames, const char *ccs, struct machine *m)
{
    struct raw_gpu *raw = NULL;
    size_t nraw = 0;
    struct hostgpu_info info;
    memset(&info, 0, sizeof info);
    int rc = 0, detected = 0;
    const char *env_gpus = getenv("WHEELARCH_GPUS");
    const char *env_driver = getenv("WHEELARCH_DRIVER");
    if (ccs) {
        raw = xcalloc(1, sizeof *raw);
        raw[0].name = NULL;
        snprintf(raw[0].code, sizeof raw[0].code, "%s", ccs);
        if (!*ccs || strlen(ccs) >= sizeof raw[0].code)
            raw[0].code[0] = '?'; /* refused by resolve_raw, never taken for a name */
        nraw = 1;
    } else if (nnames) {
        raw = xcalloc(nnames, sizeof *raw);
        for (size_t i = 0; i < nnames; i++)
            raw[i].name = xstrdup(names[i]);
        nraw = nnames;
    } else {
        detected = 1;
        struct wa_error err;
        /* ROCm's switch for xnack, for detected and named AMD GPUs alike */
        const char *xn = getenv("HSA_XNACK");
        int xnack = xn && *xn ? strcmp(xn, "1") == 0 : -1;
        if (env_gpus && *env_gpus) {
            if (hostgpu_override(&info, env_gpus, "WHEELARCH_GPUS", &err) < 0) {
                rc = cli_usage_error(cmd, "%s", err.msg);
                goto done;
            }
            for (size_t i = 0; i < info.ngpus; i++)
                if (info.gpus[i].xnack < 0)
                    info.gpus[i].xnack = xnack; /* NVIDIA GPUs: never read */
        } else {
            struct hostgpu_options ho = {0};
            ho.sysroot = getenv("WHEELARCH_SYSROOT");
            ho.nvml_library = getenv("WHEELARCH_NVML");
            ho.nvidia_smi = getenv("WHEELARCH_NVIDIA_SMI");
            ho.xnack = xnack;
            hostgpu_detect(&ho, &info);
        }
        raw = xcalloc(info.ngpus ? info.ngpus : 1, sizeof *raw);
        for (size_t i = 0; i < info.ngpus; i++) {
            const struct hostgpu *g = &info.gpus[i];
            uint16_t code;
            raw[i].via = g->via;
            raw[i].xnack = g->xnack == 1   ? TARGET_FEAT_ON
                           : g->xnack == 0 ? TARGET_FEAT_OFF
                                           : TARGET_FEAT_ANY;
            if (g->code[0]) {
                raw[i].name = xstrdup(g->name);
                snprintf(raw[i].code, sizeof raw[i].code, "%s", g->code);
            } else if (gpuname_parse_code(g->name, 1, &code) == 0) {
                snprintf(raw[i].code, sizeof raw[i].code, "%s", g->name); /* "6.1", "gfx90a" */
            } else {
                raw[i].name = xstrdup(g->name);
            }
        }
        nraw = info.ngpus;
        if (nraw == 0) {
            struct strbuf why = STRBUF_INIT;
            for (size_t i = 0; i < info.nnotes; i++)
                strbuf_addf(&why, "%s%s", i ? "; " : "", info.notes[i]);
            cli_warn("query: no GPU found on this machine (%s): give --gpu NAME or --cc X.Y, or "
                     "set WHEELARCH_GPUS (e.g. WHEELARCH_GPUS=6.1,12.0)",
                     why.buf ? why.buf : "no NVIDIA driver, no AMD KFD topology");
            strbuf_free(&why);
            rc = WA_EXIT_USAGE;
            goto done;
        }
        if (env_driver && *env_driver) {
            m->driver = xstrdup(env_driver);
            m->driver_how = xstrdup("WHEELARCH_DRIVER");
        } else if (info.driver) {
            m->driver = xstrdup(info.driver);
            m->driver_how = xasprintf("via %s", info.driver_via ? info.driver_via : "?");
        }
    }
    const char *gi = cli_get(cmd, a, "gpu-index");
    size_t first = 0, count = nraw;
    if (gi) {
        char *end;
        long k = strtol(gi, &end, 10);
        if (!*gi || strspn(gi, "0123456789") != strlen(gi) || *end || k < 0 || (size_t)k >= nraw) {
            rc = cli_usage_error(cmd, "--gpu-index wants 0 to %zu: %zu GPU%s %s", nraw - 1, nraw,
                                 nraw == 1 ? "" : "s", detected ? "found" : "given");
            goto done;
        }
        first = (size_t)k;
        count = 1;
    }
    m->gpus = xcalloc(count, sizeof *m->gpus);
    m->labels = xcalloc(count, sizeof *m->labels);
    for (size_t i = first; i < first + count; i++) {
        struct query_options o;
        char *label = NULL;
        if ((rc = resolve_raw(cmd, t, &raw[i], &o, &label)) != 0)
            goto done;
        size_t k = 0;
        while (k < m->n && !(m->gpus[k].o.cc == o.cc && m->gpus[k].o.arm_host == o.arm_host))
            k++;
        if (k < m->n) {
            m->gpus[k].count++;
            free(label);
            continue;
        }
        m->gpus[m->n].o = o;
        m->gpus[m->n].count = 1;
        m->labels[m->n] = label;
        m->gpus[m->n].label = label;
        m->n++;
    }
    if (detected) {
        struct strbuf line = STRBUF_INIT;
        strbuf_adds(&line, "detected: ");
        for (size_t k = 0; k < m->n; k++)
            strbuf_addf(&line, "%s%zu \xc3\x97 %s", k ? ", " : "", m->gpus[k].count, m->labels[k]);
        strbuf_addf(&line, " via %s", raw[first].via ? raw[first].via : "?");
        if (gi)
            strbuf_addf(&line, " (--gpu-index %s of %zu)", gi, nraw);
        if (m->driver)
            strbuf_addf(&line, ", driver %s%s%s%s", m->driver,
                        info.driver_cuda && !(env_driver && *env_driver) ? " (CUDA " : "",
                        info.driver_cuda && !(env_driver && *env_driver) ? info.driver_cuda : "",
                        info.driver_cuda && !(env_driver && *env_driver) ? ")" : "");
        if (m->driver_how && strcmp(m->driver_how, "WHEELARCH_DRIVER") == 0)
            strbuf_adds(&line, " (WHEELARCH_DRIVER)");
        if (info.rocm)
            strbuf_addf(&line, ", ROCm %s", info.rocm);
        m->line = strbuf_detach(&line, NULL);
        json_t *d = json_object();
        json_t *gl = json_array();
        for (size_t i = 0; i < nraw; i++) {
            json_t *g = json_object();
            json_object_set_new(g, "name", raw[i].name ? json_string(raw[i].name) : json_null());
            json_object_set_new(g, "code", raw[i].code[0] ? json_string(raw[i].code) : json_null());
            json_object_set_new(g, "via", json_string(raw[i].via ? raw[i].via : ""));
            json_array_append_new(gl, g);
        }
        json_object_set_new(d, "gpus", gl);
        json_object_set_new(d, "driver", m->driver ? json_string(m->driver) : json_null());
        json_object_set_new(d, "driver_cuda",
                            info.driver_cuda ? json_string(info.driver_cuda) : json_null());
        json_object_set_new(d, "rocm", info.rocm ? json_string(info.rocm) : json_null());
        m->rocm = info.rocm ? xstrdup(info.rocm) : NULL;
        json_object_set_new(d, "line", json_string(m->line));
        m->detected = d;
    }
done:
    for (size_t i = 0; i < nraw; i++)
        free(raw[i].name);
    free(raw);
    hostgpu_free(&info);
    return rc;
}

int machine_driver_parse(const char *s, struct dotver *dv)
{
    int parts = 1;
    memset(dv, 0, sizeof *dv);
    if (!s || !isdigit((unsigned char)*s))
        return -1;
    size_t run = 0; /* digits of the current part */
    for (const char *p = s; *p; p++) {
        if (*p == '.') {
            if (!isdigit((unsigned char)p[1]))
                return -1;
            parts++;
            run = 0;
        } else if (!isdigit((unsigned char)*p) || ++run > 5) {
            return -1;
        }
    }
    /* NVIDIA's drivers so far run from 100 to 5xx: a major version of four
     * digits or more is a typo, not a driver. */
    if (parts > 4 || dotver_parse(s, dv) != 0 || dv->f[0] < 100 || dv->f[0] > 999) {
        memset(dv, 0, sizeof *dv);
        return -1;
    }
    if (parts == 1) { /* a branch: its newest driver */
        dv->n = 3;
        dv->f[1] = dv->f[2] = 99999;
    }
    return 0;
}

int machine_load_tables(struct tables *t)
{
    struct wa_error err;
    if (tables_load(paths_data_dir(), t, &err) < 0) {
        cli_warn("%s", err.msg);
        return WA_EXIT_FAILURE;
    }
    return 0;
}

const char *machine_platform(const struct cli_command *cmd, const struct cli_args *a)
{
    const char *p = cli_get(cmd, a, "platform");
    if (!p)
        return query_this_platform();
    const char *known = datatable_platform(p);
    if (known)
        return known;
    char q[100];
    cli_usage_error(cmd,
                    "--platform %s is not one of linux-x86_64, linux-aarch64, windows-x86_64, "
                    "windows-arm64",
                    wa_quote(q, sizeof q, p, 60));
    return NULL;
}

int machine_from_args(const struct cli_command *cmd, const struct cli_args *a,
                      const struct tables *t, struct machine *m, const char **driver,
                      struct dotver *dv)
{
    const char **names;
    size_t nnames = cli_get_list(cmd, a, "gpu", &names);
    const char *ccs = cli_get(cmd, a, "cc");
    if (nnames && ccs)
        return cli_usage_error(cmd, "give --gpu NAME (repeatable) or --cc X.Y, not both");
    int rc = choose_gpus(cmd, a, t, names, nnames, ccs, m);
    if (rc != 0)
        return rc;
    *driver = cli_get(cmd, a, "driver") ? cli_get(cmd, a, "driver") : m->driver;
    memset(dv, 0, sizeof *dv);
    if (*driver && machine_driver_parse(*driver, dv) < 0) {
        char q[100];
        return cli_usage_error(cmd, "driver %s is not a driver version such as 570.86.15",
                               wa_quote(q, sizeof q, *driver, 60));
    }
    return 0;
}
