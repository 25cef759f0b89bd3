/*
 * cli_query: `wheelarch query` — which variant of a release runs on a GPU.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dbview.h"
#include "paths.h"
#include "compat.h"
#include "gpuname.h"
#include "hostgpu.h"
#include "multigpu.h"
#include "query.h"
#include "stack.h"
#include "strbuf.h"
#include "tables.h"
#include "target.h"
#include "wheelname.h"
#include "xalloc.h"

static void print_text(json_t *o)
{
    json_t *g = json_object_get(o, "gpu");
    const char *name = json_string_value(json_object_get(g, "name"));
    const char *cc = json_string_value(json_object_get(g, "compute_capability"));
    const char *dev = json_string_value(json_object_get(g, "gfx_target"));
    const char *arch = json_string_value(json_object_get(g, "architecture"));
    char what[96];
    if (dev)
        snprintf(what, sizeof what, "%s", dev);
    else
        snprintf(what, sizeof what, "compute capability %s", cc ? cc : "?");
    if (name)
        printf("%s: %s (%s)", name, what, arch ? arch : "?");
    else
        printf("%s", what);
    json_t *d = json_object_get(o, "driver");
    if (json_is_object(d)) {
        const char *cuda = json_string_value(json_object_get(d, "cuda"));
        printf("; driver %s", json_string_value(json_object_get(d, "version")));
        if (cuda)
            printf(" (up to CUDA %s)", cuda);
    }
    printf("\n%s %s on %s:\n", json_string_value(json_object_get(o, "project")),
           json_string_value(json_object_get(o, "version")),
           json_string_value(json_object_get(o, "platform")));
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(o, "variants"), i, x)
    {
        const char *conf = json_string_value(json_object_get(x, "confidence"));
        printf("  %-8s %-15s %s  [%s%s%s]\n", json_string_value(json_object_get(x, "variant")),
               json_string_value(json_object_get(x, "label")),
               json_string_value(json_object_get(x, "reason")),
               json_string_value(json_object_get(x, "status")), conf ? ", " : "", conf ? conf : "");
        size_t k;
        json_t *diff;
        json_array_foreach(json_object_get(x, "differences"), k, diff)
            printf("          differs from the declared list: %s\n", json_string_value(diff));
    }
    json_t *guid = json_object_get(o, "guidance");
    if (json_is_object(guid)) {
        printf("%s\n", json_string_value(json_object_get(guid, "text")));
        if (json_is_string(json_object_get(guid, "url")))
            printf("  %s\n", json_string_value(json_object_get(guid, "url")));
    }
    json_t *rec = json_object_get(o, "recommendation");
    if (!json_is_true(json_object_get(o, "applies"))) {
        rec = NULL;
    } else if (json_is_null(rec)) {
        printf("no variant of this release runs on this GPU\n");
        rec = json_object_get(o, "fallback");
        if (json_is_object(rec))
            printf("%s\n", json_string_value(json_object_get(rec, "reason")));
    } else {
        printf("recommended: %s (%s)\n", json_string_value(json_object_get(rec, "index")),
               json_string_value(json_object_get(rec, "reason")));
    }
    if (json_is_object(rec)) {
        json_t *c = json_object_get(rec, "commands");
        printf("  %s\n  %s\n", json_string_value(json_object_get(c, "pip")),
               json_string_value(json_object_get(c, "uv")));
        printf("  source: %s", json_string_value(json_object_get(rec, "provenance")));
        if (json_is_string(json_object_get(rec, "min_driver")))
            printf("; needs NVIDIA driver %s or newer",
                   json_string_value(json_object_get(rec, "min_driver")));
        if (json_is_string(json_object_get(rec, "full_driver")))
            printf(" (%s or newer recommended: below it, CUDA minor-version compatibility)",
                   json_string_value(json_object_get(rec, "full_driver")));
        printf("\n");
    }
    json_t *bd = json_object_get(o, "by_driver");
    if (json_array_size(bd) > 1) {
        printf("by driver:\n");
        json_array_foreach(bd, i, x)
            printf("  driver >= %-10s %s\n", json_string_value(json_object_get(x, "min_driver")),
                   json_string_value(json_object_get(json_object_get(x, "commands"), "pip")));
    }
    json_t *py = json_object_get(o, "pypi");
    if (json_is_object(py))
        printf("plain `pip install %s` (PyPI, %s %s build): %s\n",
               json_string_value(json_object_get(o, "project")),
               json_string_value(json_object_get(py, "release")),
               json_string_value(json_object_get(py, "build")),
               json_is_true(json_object_get(py, "runs"))
                   ? "runs on this GPU"
                   : json_string_value(json_object_get(py, "reason")));
    json_t *ln = json_object_get(o, "last_native");
    if (json_array_size(ln)) {
        printf("newest release with native code, per variant:");
        json_array_foreach(ln, i, x)
            printf(" %s %s", json_string_value(json_object_get(x, "variant")),
                   json_string_value(json_object_get(x, "pin")));
        printf("\n");
    }
    json_t *wf = json_object_get(o, "way_forward");
    if (json_is_object(wf)) {
        printf("what to do:\n");
        json_array_foreach(json_object_get(wf, "steps"), i, x)
            printf("  - %s\n", json_string_value(x));
    }
    json_array_foreach(json_object_get(o, "notes"), i, x)
        printf("note: %s\n", json_string_value(x));
}

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

/* The answer for several GPUs (multigpu.h). */
static void print_machine(json_t *o)
{
    printf("%s %s on %s, for every GPU of this machine:\n",
           json_string_value(json_object_get(o, "project")),
           json_string_value(json_object_get(o, "version")),
           json_string_value(json_object_get(o, "platform")));
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(o, "gpus"), i, g)
    {
        json_t *own = json_object_get(json_object_get(g, "result"), "recommendation");
        printf("  %s: %s\n", json_string_value(json_object_get(g, "label")),
               json_is_object(own) ? json_string_value(json_object_get(own, "index"))
                                   : "no variant of this release");
    }
    json_t *rec = json_object_get(o, "recommendation");
    if (json_is_object(rec)) {
        printf("recommended: %s (%s)\n", json_string_value(json_object_get(rec, "index")),
               json_string_value(json_object_get(o, "reason")));
        json_t *cmds = json_object_get(rec, "commands");
        printf("  %s\n  %s\n", json_string_value(json_object_get(cmds, "pip")),
               json_string_value(json_object_get(cmds, "uv")));
    } else {
        printf("%s\n", json_string_value(json_object_get(o, "reason")));
    }
}

/* --stack: every crawled project's answer (stack_run), each followed by
 * its note when it does not go with torch's. */
static int query_stack(const struct dbview *v, struct query_options *o, int as_json)
{
    json_t *out = stack_run(v, o);
    json_t *all = json_object_get(out, "stack");
    if (as_json) {
        char *s = json_dumps(out, JSON_COMPACT);
        printf("%s\n", s);
        free(s);
    } else {
        size_t i;
        json_t *res;
        json_array_foreach(all, i, res)
        {
            print_text(res);
            const char *note = json_string_value(json_object_get(res, "stack_note"));
            if (note)
                printf("note: %s\n", note);
            json_t *t = json_object_get(res, "together");
            if (json_is_object(t)) {
                json_t *cmds = json_object_get(t, "commands");
                printf("  %s\n  %s\n", json_string_value(json_object_get(cmds, "pip")),
                       json_string_value(json_object_get(cmds, "uv")));
            }
            printf("\n");
        }
        if (json_array_size(all) == 0)
            printf("no crawled project in the database for this platform\n");
    }
    int rc = json_array_size(all) ? WA_EXIT_OK : WA_EXIT_FAILURE;
    json_decref(out);
    return rc;
}

/* ---- which GPUs: given, or this machine's -------------------------------- */

/* The GPUs a query answers for: distinct devices with their counts, and
 * what was detected (NULL when the GPU was given). */
struct machine {
    struct multigpu_gpu *gpus;
    size_t n;
    char **labels;
    json_t *detected;
    char *driver;     /* detected or WHEELARCH_DRIVER, or NULL */
    char *driver_how; /* "via NVML" ... */
    char *line;       /* "detected: 2 × ... via NVML, driver 570.86.15" */
};

static void machine_free(struct machine *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->labels[i]);
    free(m->labels);
    free(m->gpus);
    json_decref(m->detected);
    free(m->driver);
    free(m->driver_how);
    free(m->line);
    memset(m, 0, sizeof *m);
}

struct raw_gpu {
    char *name;      /* as written or detected, or NULL */
    char code[16];   /* "6.1", "gfx90a", or "" */
    const char *via; /* NULL when given on the command line */
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
static int choose_gpus(const struct cli_command *cmd, const struct cli_args *a,
                       const struct tables *t, const char **names, size_t nnames, const char *ccs,
                       struct machine *m)
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
        if (strlen(ccs) >= sizeof raw[0].code)
            raw[0].code[0] = '?';
        nraw = 1;
    } else if (nnames) {
        raw = xcalloc(nnames, sizeof *raw);
        for (size_t i = 0; i < nnames; i++)
            raw[i].name = xstrdup(names[i]);
        nraw = nnames;
    } else {
        detected = 1;
        struct wa_error err;
        if (env_gpus && *env_gpus) {
            if (hostgpu_override(&info, env_gpus, "WHEELARCH_GPUS", &err) < 0) {
                rc = cli_usage_error(cmd, "%s", err.msg);
                goto done;
            }
        } else {
            struct hostgpu_options ho = {0};
            ho.sysroot = getenv("WHEELARCH_SYSROOT");
            ho.nvml_library = getenv("WHEELARCH_NVML");
            ho.nvidia_smi = getenv("WHEELARCH_NVIDIA_SMI");
            const char *xn = getenv("HSA_XNACK");
            ho.xnack = xn && *xn ? strcmp(xn, "1") == 0 : -1;
            hostgpu_detect(&ho, &info);
        }
        raw = xcalloc(info.ngpus ? info.ngpus : 1, sizeof *raw);
        for (size_t i = 0; i < info.ngpus; i++) {
            const struct hostgpu *g = &info.gpus[i];
            uint16_t code;
            raw[i].via = g->via;
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
        if (*end || k < 0 || (size_t)k >= nraw) {
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

int cli_query(int argc, char **argv)
{
    const struct cli_command *cmd = cli_find_command("query");
    struct cli_args a;
    struct tables t;
    struct dbview v;
    struct machine m;
    memset(&m, 0, sizeof m);
    int have_tables = 0, have_view = 0;
    int rc = WA_EXIT_USAGE;
    memset(&t, 0, sizeof t);
    if (cli_parse(cmd, argc, argv, &a) != 0)
        goto out;
    if (a.help) {
        cli_print_help(stdout, cmd);
        rc = WA_EXIT_OK;
        goto out;
    }
    if (a.nrest > 0) {
        rc = cli_usage_error(cmd, "unexpected argument '%s'", a.rest[0]);
        goto out;
    }
    const char **gpu_names;
    size_t ngpu_names = cli_get_list(cmd, &a, "gpu", &gpu_names);
    const char *ccs = cli_get(cmd, &a, "cc");
    int diffs = cli_get(cmd, &a, "differences") != NULL;
    if (diffs ? (ngpu_names || ccs) : (ngpu_names && ccs)) {
        rc = cli_usage_error(cmd, diffs ? "--differences takes no GPU"
                                        : "give --gpu NAME (repeatable) or --cc X.Y, not both");
        goto out;
    }
    struct wa_error err;
    if (tables_load(paths_data_dir(), &t, &err) < 0) {
        cli_warn("%s", err.msg);
        rc = WA_EXIT_FAILURE;
        goto out;
    }
    have_tables = 1;
    struct query_options o = {0};
    if (!diffs) {
        rc = choose_gpus(cmd, &a, &t, gpu_names, ngpu_names, ccs, &m);
        if (rc != 0)
            goto out;
        o = m.gpus[0].o;
    }
    const char *driver = cli_get(cmd, &a, "driver");
    if (driver) {
        if (dotver_parse(driver, &o.driver) < 0 || o.driver.f[0] < 100) {
            rc = cli_usage_error(cmd, "--driver wants a driver version such as 570.86.15");
            goto out;
        }
        o.has_driver = 1;
        o.driver_text = driver;
    } else if (m.driver) {
        if (dotver_parse(m.driver, &o.driver) < 0 || o.driver.f[0] < 100) {
            rc = cli_usage_error(cmd, "driver %s (%s) is not a driver version such as 570.86.15",
                                 m.driver, m.driver_how);
            goto out;
        }
        o.has_driver = 1;
        o.driver_text = m.driver;
    }
    if (m.n > 1 && cli_get(cmd, &a, "stack")) {
        rc = cli_usage_error(cmd, "%s; --stack answers for one GPU: add --gpu-index N",
                             m.line ? m.line : "several GPUs");
        goto out;
    }
    const char *project = cli_get(cmd, &a, "project");
    int stack = cli_get(cmd, &a, "stack") != NULL;
    if (stack && (project || cli_get(cmd, &a, "version") || diffs)) {
        rc = cli_usage_error(cmd, "--stack answers for every project's newest release: it takes "
                                  "no --project, --version or --differences");
        goto out;
    }
    char *norm = wheelname_normalize(project ? project : "torch");
    o.project = norm;
    o.version = cli_get(cmd, &a, "version");
    o.platform =
        cli_get(cmd, &a, "platform") ? cli_get(cmd, &a, "platform") : query_this_platform();
    static const char *const platforms[] = {"linux-x86_64", "linux-aarch64", "windows-x86_64",
                                            NULL};
    int pok = 0;
    for (const char *const *p = platforms; *p; p++)
        pok |= strcmp(*p, o.platform) == 0;
    if (!pok) {
        free(norm);
        rc = cli_usage_error(cmd,
                             "--platform is one of linux-x86_64, linux-aarch64, windows-x86_64");
        goto out;
    }
    const char *cache = cli_get(cmd, &a, "cache") ? cli_get(cmd, &a, "cache") : "cache";
    /* Without --differences the question is about one project on one
     * platform: only those rows' code is decoded. */
    int built = diffs ? dbview_build(cache, &t, DBVIEW_CODE_ONLY, &v, &err)
                      : dbview_build_for(cache, &t, stack ? NULL : norm, o.platform, &v, &err);
    if (built < 0) {
        free(norm);
        cli_warn("%s: %s", cache, err.msg);
        rc = WA_EXIT_FAILURE;
        goto out;
    }
    have_view = 1;
    for (size_t i = 0; i < v.nskipped; i++)
        cli_warn("%s: %s; record skipped", v.skipped[i].file, v.skipped[i].reason);
    if (diffs) {
        json_t *d = query_differences(&v, norm, o.version, cli_get(cmd, &a, "platform"));
        free(norm);
        if (cli_get(cmd, &a, "json")) {
            char *s = json_dumps(d, JSON_COMPACT);
            printf("%s\n", s);
            free(s);
        } else {
            size_t i, k;
            json_t *x, *y;
            if (json_array_size(d) == 0)
                printf("no differences between the binaries read and the declared arch lists\n");
            json_array_foreach(d, i, x)
            {
                printf("%s %s %s %s [%s] declared %s:\n",
                       json_string_value(json_object_get(x, "project")),
                       json_string_value(json_object_get(x, "version")),
                       json_string_value(json_object_get(x, "variant")),
                       json_string_value(json_object_get(x, "platform")),
                       json_string_value(json_object_get(x, "status")),
                       json_string_value(json_object_get(x, "declared")));
                json_array_foreach(json_object_get(x, "differences"), k, y)
                    printf("  %s\n", json_string_value(y));
            }
        }
        json_decref(d);
        rc = WA_EXIT_OK;
        goto out;
    }
    if (stack) {
        free(norm);
        if (m.line && !cli_get(cmd, &a, "json"))
            printf("%s\n", m.line);
        rc = query_stack(&v, &o, cli_get(cmd, &a, "json") != NULL);
        goto out;
    }
    int as_json = cli_get(cmd, &a, "json") != NULL;
    json_t *res;
    if (m.n > 1) {
        /* every GPU asked the same question */
        for (size_t i = 0; i < m.n; i++) {
            struct query_options *g = &m.gpus[i].o;
            g->has_driver = o.has_driver;
            g->driver = o.driver;
            g->driver_text = o.driver_text;
            g->project = o.project;
            g->version = o.version;
            g->platform = o.platform;
        }
        res = multigpu_run(&v, m.gpus, m.n, &err);
    } else {
        res = query_run(&v, &o, &err);
    }
    free(norm);
    if (!res) {
        cli_warn("%s", err.msg);
        rc = err.code == WA_ERR_USAGE ? WA_EXIT_USAGE : WA_EXIT_FAILURE;
        goto out;
    }
    if (m.detected)
        json_object_set(res, "detected", m.detected);
    if (as_json) {
        char *s = json_dumps(res, JSON_COMPACT);
        printf("%s\n", s);
        free(s);
    } else {
        if (m.line)
            printf("%s\n", m.line);
        if (m.n > 1)
            print_machine(res);
        else
            print_text(res);
    }
    json_decref(res);
    rc = WA_EXIT_OK;
out:
    if (have_view)
        dbview_free(&v);
    if (have_tables)
        tables_free(&t);
    machine_free(&m);
    cli_args_free(&a);
    return rc;
}
