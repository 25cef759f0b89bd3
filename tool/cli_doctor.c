/*
 * cli_doctor: `wheelarch doctor`, the installed GPU code against this
 * machine (src/host/doctor.c), printed as text or JSON.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_machine.h"
#include "cli_python.h"
#include "compat.h"
#include "dbview.h"
#include "doctor.h"
#include "doctor_json.h"
#include "dotver.h"
#include "tables.h"
#include "xalloc.h"

/* Asks python for its site-packages folders (purelib, platlib); returns
 * how many were added to *dirs, or -1 (the error printed). */
static int python_sites(const char *python, char ***dirs, size_t *n)
{
    char buf[8192];
    struct cli_python_ask ask = {"doctor", "say where its site-packages are",
                                 "; give --site-packages DIR"};
    int st = cli_python_run(python,
                            "import json, sysconfig; p = sysconfig.get_paths(); "
                            "print(json.dumps([p['purelib'], p['platlib']]))",
                            buf, sizeof buf, &ask);
    if (st == -1)
        return -1; /* why is printed */
    json_t *j = st == 0 ? json_loads(buf, 0, NULL) : NULL;
    if (!json_is_array(j)) {
        cli_warn("doctor: %s: cannot ask it for its site-packages (is it a Python 3?); give "
                 "--python PATH or --site-packages DIR",
                 python);
        json_decref(j);
        return -1;
    }
    size_t i, added = 0;
    json_t *x;
    json_array_foreach(j, i, x)
    {
        const char *d = json_string_value(x);
        int dup = 0;
        for (size_t k = 0; d && k < *n; k++)
            dup |= strcmp((*dirs)[k], d) == 0;
        if (d && !dup) {
            *dirs = xrealloc(*dirs, (*n + 1) * sizeof **dirs);
            (*dirs)[(*n)++] = xstrdup(d);
            added++;
        }
    }
    json_decref(j);
    return (int)added;
}

static void print_verify(const struct doctor_dist *x)
{
    const struct verifyrun_counts *vf = x->verify;
    if (x->verify_failed) {
        printf("  the driver: %s\n", x->verify_failed);
        return;
    }
    if (!vf)
        return;
    printf("  the driver loaded %lld of %lld modules checked (of %lld): %lld native, %lld by PTX "
           "JIT only (%.2f s of JIT), %lld not at all; the rules say %lld native, %lld JIT, %lld "
           "none\n",
           vf->native + vf->jit, vf->checked, vf->modules, vf->native, vf->jit, vf->jit_seconds,
           vf->none, vf->static_native, vf->static_jit, vf->static_none);
    if (vf->disagreements)
        printf("  DISAGREEMENT: in %lld module%s the driver did otherwise than the rules say; "
               "first: %s\n",
               vf->disagreements, vf->disagreements == 1 ? "" : "s",
               vf->first_disagreement ? vf->first_disagreement : "(null)");
}

static void print_dist(const struct doctor_dist *x)
{
    printf("\n%s %s (%s): %s\n", x->name, x->version, x->variant, compat_verdict_name(x->verdict));
    for (size_t k = 0; k < x->nverdicts; k++)
        printf("  %s: %s: %s\n", x->verdicts[k].gpu, compat_verdict_label(x->verdicts[k].verdict),
               x->verdicts[k].reason);
    if (x->nlibraries) {
        printf("  with the GPU libraries it pins:");
        for (size_t k = 0; k < x->nlibraries; k++)
            printf("%s %s", k ? "," : "", x->libraries[k]);
        printf("\n");
    }
    const struct doctor_fix *fix = &x->fix;
    if (fix->driver)
        printf("  fix: update the NVIDIA driver to %s or newer: then this build runs as it is\n",
               fix->driver);
    if (fix->has_build && fix->commands.pip_line) {
        printf("  %s the %s build (%s):\n    %s\n    %s\n",
               fix->driver ? "or, with this driver," : "fix:", fix->index,
               compat_verdict_name(fix->verdict), fix->commands.pip_line,
               fix->commands.uv_line ? fix->commands.uv_line : "(null)");
        if (fix->commands.uv_from)
            printf("    (uv's --torch-backend needs uv %s or newer; with an older uv, put uv in "
                   "front of the pip line)\n",
                   fix->commands.uv_from);
    } else if (!fix->driver && x->verdict != COMPAT_NATIVE) {
        printf("  fix: wheelarch knows no build of it that runs better here; build it from "
               "source for this GPU\n");
    }
    print_verify(x);
}

static void print_doctor(const struct doctor_result *r, const struct machine *m)
{
    if (m->line)
        printf("%s\n", m->line);
    for (size_t i = 0; i < r->nsite_packages; i++)
        printf("environment: %s\n", r->site_packages[i]);
    printf("%zu distributions installed, %zu with GPU code\n", r->installed, r->ndists);
    for (size_t i = 0; i < r->nwithout_record; i++)
        printf("not checked: %s %s in %s has no readable RECORD, so its files are unknown "
               "(reinstall it)\n",
               r->without_record[i].name, r->without_record[i].version, r->without_record[i].site);
    for (size_t i = 0; i < r->nincomplete; i++) {
        const struct doctor_unchecked *u = &r->incomplete[i];
        printf("not fully checked: %s%s%s in %s: %s\n", u->name, u->version ? " " : "",
               u->version ? u->version : "", u->site, u->why);
    }
    for (size_t i = 0; i < r->ndists; i++)
        print_dist(&r->dists[i]);
    if (r->verified) {
        const struct verifyrun_device *d = &r->verify.device;
        if (r->verify.failed)
            printf("\n--verify FAILED: %s; counted as a failure (exit 1), not as a pass\n",
                   r->verify.failed);
        else if (d->available)
            printf("\nverified with the NVIDIA driver on %s (compute capability %s)\n", d->name,
                   d->compute_capability);
        else
            printf("\n--verify: %s; the verdicts above are the rules' alone\n", d->why);
    }
    int ex = r->exit;
    if (!r->ndists && ex == DOCTOR_EXIT_INCOMPLETE && !r->nwithout_record && !r->nincomplete) {
        printf("\nnothing to check: no installed distribution has GPU code (a CPU-only build of "
               "torch, or not the environment meant? --python PATH checks another's)\n");
        return;
    }
    if (r->verified && r->verify.failed) {
        printf("\nthe NVIDIA driver's check did not finish (see --verify FAILED above): not a "
               "pass, whatever the rules say\n");
        return;
    }
    printf("\n%s\n", ex == DOCTOR_EXIT_OK && r->nwithout_record
                         ? "everything checked runs natively; see above for what could not be "
                           "checked"
                     : ex == DOCTOR_EXIT_OK  ? "everything with GPU code runs natively"
                     : ex == DOCTOR_EXIT_JIT ? "something runs only through PTX JIT (slow first "
                                               "start)"
                     : ex == DOCTOR_EXIT_INCOMPLETE
                         ? "nothing checked will fail, but not everything could be checked (see "
                           "above)"
                     : ex == DOCTOR_EXIT_DISAGREE
                         ? "the NVIDIA driver disagrees with the compatibility rules (see "
                           "DISAGREEMENT above): trust the driver"
                         : "something will fail on this machine's GPUs");
}

/* After cli_run_step has parsed the options. */
static int doctor_step(const struct cli_command *cmd, const struct cli_args *a)
{
    struct tables t;
    struct dbview v;
    struct machine m;
    memset(&m, 0, sizeof m);
    memset(&t, 0, sizeof t);
    int have_tables = 0, have_view = 0, rc = WA_EXIT_USAGE;
    char **dirs = NULL;
    size_t ndirs = 0;
    const char **sites;
    size_t nsites = cli_get_list(cmd, a, "site-packages", &sites);
    const char *python = cli_get(cmd, a, "python");
    if (nsites && python) {
        rc = cli_usage_error(cmd, "give --python or --site-packages, not both");
        goto out;
    }
    for (size_t i = 0; i < nsites; i++) {
        dirs = xrealloc(dirs, (ndirs + 1) * sizeof *dirs);
        dirs[ndirs++] = xstrdup(sites[i]);
    }
    if (!nsites && python_sites(python ? python : "python3", &dirs, &ndirs) < 0) {
        rc = WA_EXIT_USAGE;
        goto out;
    }
    if ((rc = machine_load_tables(&t)) != 0)
        goto out;
    have_tables = 1;
    struct wa_error err;
    const char *driver;
    struct dotver dv;
    if ((rc = machine_from_args(cmd, a, &t, &m, &driver, &dv)) != 0)
        goto out;
    const char *platform = machine_platform(cmd, a);
    if (!platform) {
        rc = WA_EXIT_USAGE;
        goto out;
    }
    /* The environment's Python: fixes name only builds with a wheel for
     * it.  Asked of the interpreter, or read from the folder's path
     * (lib/python3.12/site-packages). */
    uint16_t pyv = 0;
    int pyft = 0, has_py = 0;
    if (!nsites) {
        has_py =
            cli_python_version(python ? python : "python3", "doctor", &pyv, &pyft, NULL, 0) == 0;
    } else {
        const char *at = strstr(dirs[0], "/python");
        char pys[16];
        if (at && sscanf(at + 7, "%15[0-9.t]", pys) == 1)
            has_py = tables_python_parse(pys, &pyv, &pyft) == 0;
    }
    for (size_t i = 0; i < m.n; i++) {
        m.gpus[i].o.has_driver = driver != NULL;
        m.gpus[i].o.driver = dv;
        m.gpus[i].o.driver_text = driver;
        m.gpus[i].o.platform = platform;
        m.gpus[i].o.has_python = has_py;
        m.gpus[i].o.python = pyv;
        m.gpus[i].o.python_free_threaded = pyft;
        m.gpus[i].o.python_source = "the environment's interpreter";
    }
    const char *cache = cli_get(cmd, a, "cache") ? cli_get(cmd, a, "cache") : "cache";
    if (dbview_build_for(cache, &t, NULL, platform, &v, &err) < 0) {
        cli_warn_at(cache, err.msg);
        rc = WA_EXIT_FAILURE;
        goto out;
    }
    have_view = 1;
    struct doctor_options o = {0};
    o.site_dirs = (const char *const *)dirs;
    o.nsite_dirs = ndirs;
    o.t = &t;
    o.v = &v;
    o.gpus = m.gpus;
    /* the ROCm that is installed, for the machine's variant properties */
    o.rocm = m.rocm;
    o.ngpus = m.n;
    o.platform = platform;
    o.verify = cli_get(cmd, a, "verify") != NULL;
    const char *vt = cli_get(cmd, a, "verify-timeout");
    if (vt) {
        double secs;
        if ((rc = cli_number(cmd, "verify-timeout", vt, 1, 86400, 1, &secs)) != 0)
            goto out;
        o.verify_timeout = (int)secs;
    }
    struct doctor_result r;
    if (doctor_run(&o, &r, &err) < 0) {
        cli_warn("doctor: %s", err.msg);
        rc = WA_EXIT_USAGE;
        goto out;
    }
    if (cli_get(cmd, a, "json")) {
        json_t *j = doctor_result_json(&r);
        if (m.detected)
            json_object_set(j, "detected", m.detected);
        char *s = json_dumps(j, JSON_COMPACT);
        printf("%s\n", s);
        free(s);
        json_decref(j);
    } else {
        print_doctor(&r, &m);
    }
    rc = r.exit;
    doctor_result_free(&r);
out:
    for (size_t i = 0; i < ndirs; i++)
        free(dirs[i]);
    free(dirs);
    if (have_view)
        dbview_free(&v);
    if (have_tables)
        tables_free(&t);
    machine_free(&m);
    return rc;
}

int cli_doctor(int argc, char **argv)
{
    return cli_run_step("doctor", argc, argv, doctor_step);
}
