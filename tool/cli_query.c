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
#include "cli_machine.h"
#include "cli_python.h"
#include "query.h"
#include "stack.h"
#include "strbuf.h"
#include "tables.h"
#include "target.h"
#include "wheelname.h"
#include "xalloc.h"

static void print_text(json_t *o)
{
    json_t *pyo = json_object_get(o, "python");
    if (json_is_object(pyo)) {
        const char *src = json_string_value(json_object_get(pyo, "source"));
        printf("for Python %s%s%s%s%s\n", json_string_value(json_object_get(pyo, "version")),
               json_is_true(json_object_get(pyo, "free_threaded")) ? " (free-threaded)" : "",
               src ? " (" : "", src ? src : "", src ? ")" : "");
    }
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
        /* what blocks: the GPU's code, or only the Python or the driver */
        int code_here = 0;
        json_array_foreach(json_object_get(o, "variants"), i, x)
        {
            const char *code = json_string_value(json_object_get(x, "code"));
            code_here |= code && (strcmp(code, "native") == 0 || strcmp(code, "ptx-jit") == 0);
        }
        printf("no variant of this release runs %s\n",
               code_here ? "as things are (one has code for this GPU: see what blocks it above)"
                         : "on this GPU");
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
        json_t *k = json_object_get(rec, "companions");
        if (json_is_object(k)) {
            const char *ta = json_string_value(json_object_get(k, "torchaudio"));
            const char *note = json_string_value(json_object_get(k, "note"));
            printf("  with torchvision %s%s%s: %s\n",
                   json_string_value(json_object_get(k, "torchvision")),
                   ta ? " and torchaudio " : "", ta ? ta : "",
                   json_string_value(json_object_get(c, "pip_with_companions")));
            if (note)
                printf("    (%s)\n", note);
        }
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
    json_t *wc = json_object_get(o, "newest_with_code");
    json_t *runs = json_object_get(o, "newest_that_runs");
    if (json_is_object(wc) &&
        (!json_is_object(runs) || strcmp(json_string_value(json_object_get(wc, "pin")),
                                         json_string_value(json_object_get(runs, "pin"))) != 0))
        printf("newest release with code for this GPU, whatever the driver: %s %s (%s)\n",
               json_string_value(json_object_get(o, "project")),
               json_string_value(json_object_get(wc, "pin")),
               json_string_value(json_object_get(wc, "index")));
    json_t *change = json_object_get(o, "change");
    if (json_array_size(change)) {
        printf("what to change, cheapest first:\n");
        json_array_foreach(change, i, x)
            printf("  - %s\n", json_string_value(json_object_get(x, "text")));
    }
    json_t *wf = json_object_get(o, "way_forward");
    if (json_is_object(wf)) {
        printf("no official build has code for this GPU:\n");
        json_array_foreach(json_object_get(wf, "steps"), i, x)
            printf("  - %s\n", json_string_value(x));
    }
    json_array_foreach(json_object_get(o, "notes"), i, x)
        printf("note: %s\n", json_string_value(x));
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
        const char *label = json_string_value(json_object_get(g, "label"));
        printf("  %s: %s\n", label ? label : "?",
               json_is_object(own) ? json_string_value(json_object_get(own, "index"))
                                   : "no variant of this release");
    }
    json_t *rec = json_object_get(o, "recommendation");
    const char *reason = json_string_value(json_object_get(o, "reason"));
    if (!reason)
        reason = "";
    if (json_is_object(rec)) {
        printf("recommended: %s (%s)\n", json_string_value(json_object_get(rec, "index")), reason);
        json_t *cmds = json_object_get(rec, "commands");
        printf("  %s\n  %s\n", json_string_value(json_object_get(cmds, "pip")),
               json_string_value(json_object_get(cmds, "uv")));
    } else {
        printf("%s\n", reason);
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
    if ((rc = machine_load_tables(&t)) != 0)
        goto out;
    have_tables = 1;
    struct wa_error err;
    struct query_options o = {0};
    if (!diffs) {
        rc = choose_gpus(cmd, &a, &t, gpu_names, ngpu_names, ccs, &m);
        if (rc != 0)
            goto out;
        o = m.gpus[0].o;
    }
    const char *driver = cli_get(cmd, &a, "driver");
    if (driver) {
        if (machine_driver_parse(driver, &o.driver) < 0) {
            char q[100];
            rc = cli_usage_error(cmd, "--driver %s is not a driver version such as 570.86.15",
                                 wa_quote(q, sizeof q, driver, 60));
            goto out;
        }
        o.has_driver = 1;
        o.driver_text = driver;
    } else if (m.driver) {
        if (machine_driver_parse(m.driver, &o.driver) < 0) {
            char q[100];
            rc = cli_usage_error(cmd, "driver %s (%s) is not a driver version such as 570.86.15",
                                 wa_quote(q, sizeof q, m.driver, 60), m.driver_how);
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
    /* The Python: given as a version or an interpreter, else python3 on
     * PATH (the answer says which); "any" drops the constraint. */
    const char *pyarg = cli_get(cmd, &a, "python");
    if (!pyarg || strcmp(pyarg, "any") != 0) {
        const char *interp = pyarg ? pyarg : "python3";
        if (pyarg && tables_python_parse(pyarg, &o.python, &o.python_free_threaded) == 0) {
            o.python_source = "given by --python";
        } else if (pyarg && !strchr(pyarg, '/')) {
            char q[100];
            rc = cli_usage_error(cmd,
                                 "--python %s is not a Python version such as 3.12 or 3.13t, a "
                                 "path to an interpreter, or any",
                                 wa_quote(q, sizeof q, pyarg, 60));
            goto out;
        } else if (cli_python_version(interp, "query", &o.python, &o.python_free_threaded) < 0) {
            if (pyarg) {
                rc = WA_EXIT_USAGE; /* why is printed */
                goto out;
            }
            o.python_source = NULL; /* no python3: any Python */
            goto no_python;
        } else {
            o.python_source = pyarg ? pyarg : "python3 on PATH; --python X.Y for another";
        }
        o.has_python = 1;
    }
no_python:;
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
    o.platform = machine_platform(cmd, &a);
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
        cli_warn_at(cache, err.msg);
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
            g->has_python = o.has_python;
            g->python = o.python;
            g->python_free_threaded = o.python_free_threaded;
            g->python_source = o.python_source;
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
