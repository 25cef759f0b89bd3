/*
 * cli_query: `wheelarch query` — which variant of a release runs on a GPU.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dbview.h"
#include "jetson.h"
#include "compat.h"
#include "multigpu.h"
#include "cli_machine.h"
#include "cli_python.h"
#include "query.h"
#include "schedule.h"
#include "stack.h"
#include "tables.h"
#include "vendorindex.h"
#include "wheelname.h"
/* An install's two lines, each as it pastes, and what uv's form needs. */
static void print_installcmd(const struct installcmd *c, const char *indent)
{
    if (!c->pip_line)
        return;
    printf("%s%s\n%s%s\n", indent, c->pip_line, indent, c->uv_line);
    if (c->uv_from)
        printf("%s(uv's --torch-backend needs uv %s or newer; with an older uv, put uv in front of "
               "the pip line)\n",
               indent, c->uv_from);
}

/* NVIDIA's builds for a Jetson, newest JetPack first: the one the
 * Jetson's JetPack takes is the one to use. */
static void print_jetson_builds(const struct answer_guidance *g)
{
    if (g->njetson == 0)
        return;
    printf("NVIDIA's PyTorch for this Jetson, by JetPack release (cat /etc/nv_tegra_release shows "
           "the L4T release; apt show nvidia-jetpack the JetPack):\n");
    for (size_t i = 0; i < g->njetson; i++) {
        const struct jetson_build *b = g->jetson[i];
        printf("  JetPack %s (L4T %s, CUDA %s, Python %s): %s%s\n", b->jetpack, b->l4t, b->cuda,
               b->python, b->torch[0] ? "torch " : "no PyTorch build from NVIDIA yet",
               b->torch_text);
        if (g->jetson_commands[i].pip_line)
            printf("    %s\n", g->jetson_commands[i].pip_line);
        else
            printf("    %s\n", b->where);
    }
}

static void print_install_commands(const struct answer_install *rec)
{
    print_installcmd(&rec->commands.install, "  ");
    if (rec->commands.with_companions.pip_line) {
        const char *tv = rec->torchvision, *ta = rec->torchaudio;
        printf("  with %s%s%s%s%s:\n    %s\n", tv ? "torchvision " : "", tv ? tv : "",
               tv && ta ? " and " : "", ta ? "torchaudio " : "", ta ? ta : "",
               rec->commands.with_companions.pip_line);
        if (rec->companion_note && *rec->companion_note)
            printf("    (%s)\n", rec->companion_note);
    }
    if (rec->companions_omitted)
        printf("  (%s)\n", rec->companions_omitted);
    printf("  source: %s", dbview_row_provenance(rec->row));
    if (rec->res.min_driver[0])
        printf("; needs NVIDIA driver %s or newer", rec->res.min_driver);
    if (rec->res.full_driver[0])
        printf(" (%s or newer recommended: below it, CUDA minor-version compatibility)",
               rec->res.full_driver);
    printf("\n");
}

static void print_text(const struct answer_result *o)
{
    if (o->has_python) {
        char pys[16];
        tables_python_format(o->python, 0, pys, sizeof pys);
        const char *src = o->python_source;
        printf("for Python %s%s%s%s%s\n", pys, o->python_free_threaded ? " (free-threaded)" : "",
               src ? " (" : "", src ? src : "", src ? ")" : "");
    }
    char what[96];
    if (o->amd)
        snprintf(what, sizeof what, "%s", o->gfx_target);
    else
        snprintf(what, sizeof what, "compute capability %s", o->device);
    if (o->gpu_name)
        printf("%s: %s (%s)", o->gpu_name, what, o->architecture ? o->architecture : "?");
    else
        printf("%s", what);
    if (o->has_driver) {
        printf("; driver %s", o->driver_text);
        if (o->driver_cuda[0])
            printf(" (up to CUDA %s)", o->driver_cuda);
    }
    printf("\n");
    if (o->last_branch[0])
        printf("NVIDIA's drivers for this GPU end at %s (CUDA %s)%s\n", o->last_branch,
               o->last_branch_cuda,
               o->driver_beyond_branch ? ": this driver is of a later branch, which does not "
                                         "run it"
                                       : ": no answer below needs a later driver");
    printf("%s %s on %s:\n", o->project, o->version, o->platform);
    int code_here = 0;
    int width = 8; /* the variant column: "rocm10.0.0" is wider than "cu128" */
    for (size_t i = 0; i < o->nrows; i++)
        if ((int)strlen(o->rows[i].row->variant) > width)
            width = (int)strlen(o->rows[i].row->variant);
    for (size_t i = 0; i < o->nrows; i++) {
        const struct answer_row *x = &o->rows[i];
        const char *conf = dbview_row_confidence(x->row);
        char label[48];
        printf("  %-*s %-15s %s  [%s%s%s%s%s%s]\n", width, x->row->variant,
               answer_row_label(o, x, label, sizeof label), x->v.res.reason,
               dbview_status_name(x->row->status), conf ? ", " : "", conf ? conf : "",
               x->row->vendor ? ", on " : "", x->row->vendor ? x->row->vendor->vendor : "",
               x->row->vendor ? "'s index" : "");
        json_t *diffs = dbview_row_differences(x->row);
        size_t k;
        json_t *diff;
        json_array_foreach(diffs, k, diff)
            printf("          differs from the declared list: %s\n", json_string_value(diff));
        json_decref(diffs);
        code_here |= x->v.code == COMPAT_NATIVE || x->v.code == COMPAT_PTX_JIT;
    }
    if (o->guidance.kind) {
        printf("%s\n", o->guidance.text);
        if (o->guidance.url)
            printf("  %s\n", o->guidance.url);
        print_jetson_builds(&o->guidance);
    }
    const struct answer_install *rec = NULL;
    if (!o->applies) {
        rec = NULL;
    } else if (!o->recommendation) {
        /* what blocks: the GPU's code, or only the Python or the driver */
        printf("no variant of this release runs %s\n",
               code_here ? "as things are (one has code for this GPU: see what blocks it above)"
                         : "on this GPU");
        rec = o->fallback;
        if (rec)
            printf("%s\n", rec->reason);
    } else {
        rec = o->recommendation;
        printf("recommended: %s (%s)\n", rec->row->variant, rec->reason);
    }
    if (rec)
        print_install_commands(rec);
    if (o->nby_driver > 1) {
        printf("by driver:\n");
        for (size_t i = 0; i < o->nby_driver; i++)
            printf("  driver >= %-10s %s\n", o->by_driver[i].floor,
                   o->by_driver[i].commands.install.pip_line
                       ? o->by_driver[i].commands.install.pip_line
                       : "");
    }
    if (o->pypi.present) {
        /* "a cu130 build", "a CPU-only build"; none: PyPI has no wheel */
        const char *b = o->pypi.build;
        if (strcmp(b, "none") == 0)
            printf("plain `pip install %s` (PyPI, %s): %s\n", o->project, o->pypi.release,
                   o->pypi.reason);
        else
            printf("plain `pip install %s` (PyPI, %s %s build): %s\n", o->project, o->pypi.release,
                   strcmp(b, "cpu") == 0 ? "CPU-only" : b,
                   o->pypi.runs ? "runs on this GPU" : o->pypi.reason);
    }
    if (o->nlast_native) {
        printf("newest release with native code, per variant:");
        for (size_t i = 0; i < o->nlast_native; i++)
            printf(" %s %s", o->last_native[i].row->variant, o->last_native[i].pin);
        printf("\n");
    }
    const struct answer_install *wc = o->newest_with_code, *runs = answer_runs(o);
    if (wc && (!runs || strcmp(wc->pin, runs->pin) != 0))
        printf("newest release with code for this GPU, whatever the driver: %s %s (%s)\n",
               o->project, wc->pin, wc->row->variant);
    if (o->nchange) {
        printf("what to change, cheapest first:\n");
        for (size_t i = 0; i < o->nchange; i++)
            printf("  - %s\n", o->change[i].text);
    }
    if (o->self_build.present) {
        printf("build it yourself:\n");
        for (size_t i = 0; i < o->self_build.nsteps; i++)
            printf("  - %s\n", o->self_build.steps[i]);
    }
    if (o->source_build.present) {
        printf("no official build has code for this GPU:\n");
        for (size_t i = 0; i < o->source_build.nsteps; i++)
            printf("  - %s\n", o->source_build.steps[i]);
    }
    for (size_t i = 0; i < o->nnotes; i++)
        printf("note: %s\n", o->notes[i]);
}

/* The answer for several GPUs (multigpu.h). */
static void print_machine(const struct multigpu_result *m)
{
    const struct answer_result *r0 = m->res[0];
    printf("%s %s on %s, for every GPU of this machine:\n", r0->project, r0->version, r0->platform);
    for (size_t g = 0; g < m->n; g++) {
        const struct answer_install *own = m->res[g]->recommendation;
        printf("  %s: %s\n", m->gpus[g].label ? m->gpus[g].label : "?",
               own ? own->row->variant : "no variant of this release");
    }
    if (m->recommendation) {
        printf("recommended: %s (%s)\n", m->recommendation->row->variant, m->reason);
        print_installcmd(&m->recommendation->commands.install, "  ");
        return;
    }
    printf("%s\n", m->reason);
    if (m->fallback) {
        printf("%s\n", m->fallback->reason);
        print_installcmd(&m->fallback->commands.install, "  ");
    }
    int any = 0;
    for (size_t g = 0; g < m->n; g++)
        any |= m->res[g]->nchange > 0;
    if (!any)
        return;
    printf("what to change, per GPU:\n");
    for (size_t g = 0; g < m->n; g++)
        for (size_t k = 0; k < m->res[g]->nchange; k++) {
            const char *text = m->res[g]->change[k].text;
            int seen = 0; /* said for an earlier GPU: named there */
            for (size_t h = 0; h < g && !seen; h++)
                for (size_t j = 0; j < m->res[h]->nchange && !seen; j++)
                    seen = strcmp(m->res[h]->change[j].text, text) == 0;
            if (seen)
                continue;
            printf("  -");
            for (size_t h = g; h < m->n; h++)
                for (size_t j = 0; j < m->res[h]->nchange; j++)
                    if (strcmp(m->res[h]->change[j].text, text) == 0) {
                        printf("%s %s", h == g ? "" : ",", m->gpus[h].label);
                        break;
                    }
            printf(": %s\n", text);
        }
}

/* --stack: every crawled project's answer (stack_answer), each followed by
 * its note when it does not go with torch's. */
static int query_stack(const struct dbview *v, struct query_options *o, int as_json)
{
    struct stack_result *st = stack_answer(v, o);
    if (as_json) {
        json_t *out = stack_json(st);
        char *s = json_dumps(out, JSON_COMPACT);
        printf("%s\n", s);
        free(s);
        json_decref(out);
    } else {
        for (size_t i = 0; i < st->n; i++) {
            const struct stack_entry *e = &st->entries[i];
            print_text(e->res);
            if (e->note)
                printf("note: %s\n", e->note);
            if (e->has_together)
                print_installcmd(&e->together.commands.install, "  ");
            printf("\n");
        }
        if (st->n == 0)
            printf("no crawled project in the database for this platform\n");
    }
    int rc = st->n ? WA_EXIT_OK : WA_EXIT_FAILURE;
    stack_free(st);
    return rc;
}

/* The exit status of an answer, for scripts (docs/robustness.md, the
 * README): 0 when the release asked about has a build that runs natively
 * with the driver and Python given; 4 when its build runs, but not
 * natively (only through PTX JIT, or with kernels missing); 1 when none of
 * its builds runs as things are (the answer names what does: an older
 * release, a newer driver, a source build or other wheels). */
static int query_exit(const struct answer_install *rec)
{
    if (!rec)
        return WA_EXIT_FAILURE;
    return rec->res.verdict == COMPAT_NATIVE ? WA_EXIT_OK : QUERY_EXIT_NOT_NATIVE;
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
        if (!strchr(driver, '.'))
            cli_warn("note: driver %s is read as any %s driver (the newest of that branch); "
                     "give the full version (nvidia-smi shows it) if yours is an early one",
                     driver, driver);
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
    char pyhow[600], pysrc[700];
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
        } else if (cli_python_version(interp, "query", &o.python, &o.python_free_threaded, pyhow,
                                      sizeof pyhow) < 0) {
            if (pyarg) {
                rc = WA_EXIT_USAGE; /* why is printed */
                goto out;
            }
            o.python_source = NULL; /* no python3: any Python */
            goto no_python;
        } else {
            if (pyarg)
                snprintf(pysrc, sizeof pysrc, "%s", pyhow);
            else
                snprintf(pysrc, sizeof pysrc, "%s; --python X.Y for another", pyhow);
            o.python_source = pysrc;
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
    if (!o.platform) {
        free(norm);
        rc = WA_EXIT_USAGE;
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
    struct cli_quota q = {0, 0};
    for (size_t i = 0; i < v.nskipped; i++)
        cli_warn_quota(&q, "%s: %s; record skipped", v.skipped[i].file, v.skipped[i].reason);
    cli_quota_end(&q, "left out");
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
    struct answer_result *res = NULL;
    struct multigpu_result *machine = NULL;
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
        machine = multigpu_answer(&v, m.gpus, m.n, &err);
    } else {
        res = query_answer(&v, &o, &err);
    }
    if (!res && !machine) {
        free(norm);
        cli_warn("%s", err.msg);
        rc = err.code == WA_ERR_USAGE ? WA_EXIT_USAGE : WA_EXIT_FAILURE;
        goto out;
    }
    /* a release due and absent from the data is said with every answer */
    char today[16];
    struct freshness fresh;
    /* said where the answer is about torch's newest release: no --version */
    if (strcmp(o.project, "torch") == 0 && !o.version)
        schedule_freshness(&t, cli_today(today, 0), dbview_newest_version(&v, "torch"), &fresh);
    else
        schedule_freshness(&t, NULL, dbview_newest_version(&v, "torch"), &fresh);
    if (as_json) {
        json_t *j = machine ? multigpu_json(machine) : answer_json(res);
        if (m.detected)
            json_object_set(j, "detected", m.detected);
        json_object_set_new(j, "data_through",
                            fresh.through[0] ? json_string(fresh.through) : json_null());
        json_object_set_new(
            j, "overdue",
            fresh.overdue ? json_pack("{s:s, s:s, s:s, s:s}", "project", fresh.overdue->project,
                                      "release", fresh.overdue->release, "scheduled",
                                      fresh.overdue->planned, "note", fresh.sentence)
                          : json_null());
        char *s = json_dumps(j, JSON_COMPACT);
        printf("%s\n", s);
        free(s);
        json_decref(j);
    } else {
        if (m.line)
            printf("%s\n", m.line);
        if (machine)
            print_machine(machine);
        else
            print_text(res);
        if (fresh.overdue)
            printf("note: %s\n", fresh.sentence);
    }
    rc = query_exit(machine ? machine->recommendation : res->recommendation);
    answer_free(res); /* it borrowed norm */
    multigpu_free(machine);
    free(norm);
out:
    if (have_view)
        dbview_free(&v);
    if (have_tables)
        tables_free(&t);
    machine_free(&m);
    cli_args_free(&a);
    return rc;
}
