/*
 * query_steps: the parts of an answer beside the recommendation: the
 * answer at each driver floor, per Python, plain pip, the last release
 * with native code, a source build, guidance, and what to change.
 */
#include "query_state.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "compat.h"
#include "jetson.h"
#include "strbuf.h"
#include "verdict.h"
#include "xalloc.h"

struct floor {
    struct dotver d;
    const char *text; /* as the table writes it: "525.60.13" */
};

/* Per variant, the newest version whose code runs natively on the GPU:
 * what to pin when a release drops it. */
struct native_row {
    size_t i;            /* index into c->rows */
    const char *variant; /* its variant, the sort key */
};

static int cmp_floor_desc(const void *a, const void *b)
{
    return dotver_cmp(&((const struct floor *)b)->d, &((const struct floor *)a)->d);
}

static void add_floor(struct floor *t, size_t *n, size_t max, const struct dotver *d,
                      const char *text)
{
    if (!d || !d->n || !text || *n >= max)
        return;
    for (size_t i = 0; i < *n; i++)
        if (dotver_cmp(&t[i].d, d) == 0)
            return;
    t[*n].d = *d;
    t[*n].text = text;
    (*n)++;
}

/* "driver >= X -> this answer": the answer at every driver floor the rows
 * involve (minor-version floors, each variant's own toolkit driver, the
 * driver of each PTX ISA), newest floor first, equal neighbours merged.
 * The same decision as `query --driver X`, tabulated. */
void qi_by_driver(const struct qctx *c, size_t rk, const char *exact, int light,
                  struct answer_install **rows, size_t *nrows)
{
    struct floor floors[128];
    size_t nf = 0;
    const struct tables *t = c->v->t;
    for (size_t i = 0; i < c->n; i++) {
        const struct dbview_row *r = c->rows[i];
        /* rows of one class (one CUDA version and code) give the same
         * floors: its first row stands for them */
        if (!r->cuda.n || c->first[c->cls[i]] != i)
            continue;
        const struct minor_compat *mc = tables_minor_compat(t, (int)r->cuda.f[0]);
        if (mc)
            add_floor(floors, &nf, 128, &mc->min_driver[c->os], mc->min_driver_text[c->os]);
        const struct toolkit *k = tables_toolkit(t, &r->cuda);
        if (k)
            add_floor(floors, &nf, 128, &k->min_driver[c->os], k->min_driver_text[c->os]);
        for (size_t p = 0; p < r->code.nisas; p++) {
            const struct ptx_isa *pi = tables_cuda_of_isa(t, &r->code.isas[p].isa);
            const struct toolkit *pk = pi ? tables_toolkit(t, &pi->cuda) : NULL;
            if (pk)
                add_floor(floors, &nf, 128, &pk->min_driver[c->os], pk->min_driver_text[c->os]);
        }
    }
    const struct toolkit *gf = tables_first_toolkit(t, c->o->cc);
    if (gf)
        add_floor(floors, &nf, 128, &gf->min_driver[c->os], gf->min_driver_text[c->os]);
    if (c->o->cc >= TABLES_AMD_MIN) { /* no NVIDIA driver: one line, for any */
        static const struct dotver any = {.n = 1};
        add_floor(floors, &nf, 128, &any, "");
    }
    /* no floor of a driver the GPU cannot run (after its last branch) */
    const struct arch_support *end = c->amd ? NULL : tables_driver_branch_end(t, c->o->cc);
    size_t kept = 0;
    for (size_t i = 0; i < nf; i++)
        if (!tables_driver_beyond(end, &floors[i].d))
            floors[kept++] = floors[i];
    nf = kept;
    qsort(floors, nf, sizeof *floors, cmp_floor_desc);
    struct answer_install *out = xcalloc(nf ? nf : 1, sizeof *out);
    size_t nout = 0;
    long last_row = -2;
    size_t from = 0; /* the floors go down: so does the release that runs */
    for (size_t i = 0; i < nf; i++) {
        struct choice a;
        qi_answer_from(c, rk, exact, 1, &floors[i].d, 1, from, &a);
        if (a.row >= 0 && a.fallback)
            from = qi_release_index(c, c->rows[a.row]->release);
        struct answer_install *prev = nout ? &out[nout - 1] : NULL;
        if (a.row == last_row && prev && strcmp(a.pin, prev->pin) == 0) {
            /* the same answer for an older driver: lower the floor */
            snprintf(prev->floor, sizeof prev->floor, "%s", floors[i].text);
            continue;
        }
        if (a.row < 0)
            break; /* below this floor nothing runs */
        struct answer_install *x = &out[nout++];
        if (light) { /* the variant, pin, extra, index and verdict only */
            x->row = c->rows[a.row];
            x->index_url = qi_index_url_no_slash(x->row->index_url);
            snprintf(x->pin, sizeof x->pin, "%s", a.pin);
            answer_gpu_extra(x->row, &a.res, x->extra, sizeof x->extra);
            x->res = a.res;
            x->fallback = a.fallback;
            x->tier = a.tier;
        } else {
            qi_fill_install(c, &a, qi_why_chosen(c, &a, &floors[i].d), x);
        }
        snprintf(x->floor, sizeof x->floor, "%s", floors[i].text);
        last_row = a.row;
    }
    *rows = out;
    *nrows = nout;
}

/* The driver table again for each Python of o->table_pythons: the rows'
 * wheels judged for that Python in place of the one asked about; each row
 * with its variant, pin, index and verdict only (no reason, commands or
 * Python versions). */
void qi_python_tables(struct qctx *c, size_t rk, const char *exact, struct answer_result *out)
{
    const struct query_options *o = c->o;
    size_t np = o->ntable_pythons;
    if (!np)
        return;
    signed char *saved = c->py;
    signed char *all = xmalloc((c->n ? c->n : 1) * np); /* row i, Python k: all[i * np + k] */
    signed char *py = xmalloc(c->n ? c->n : 1);
    for (size_t i = 0; i < c->n; i++)
        qi_row_pythons(c, c->rows[i], o->table_pythons, np, &all[i * np]);
    out->py_tables = xcalloc(np, sizeof *out->py_tables);
    for (size_t k = 0; k < np; k++) {
        struct answer_py_table *t = &out->py_tables[out->npy_tables++];
        t->python = o->table_pythons[k].python;
        t->free_threaded = o->table_pythons[k].free_threaded;
        /* the same rows as an earlier Python's, or every row (nothing
         * says a row lacks a wheel for it): the same table, not made again */
        const struct answer_install *same = NULL;
        size_t nsame = 0;
        int every = 1, none = 1;
        for (size_t i = 0; i < c->n && (every || none); i++) {
            every &= all[i * np + k] != 0;
            none &= all[i * np + k] == 0;
        }
        if (none && c->n) { /* no row has a wheel for it: an empty table */
            t->rows = xcalloc(1, sizeof *t->rows);
            continue;
        }
        if (every) {
            same = out->by_driver;
            nsame = out->nby_driver;
        }
        for (size_t j = 0; j < k && !same; j++) {
            size_t i = 0;
            while (i < c->n && (all[i * np + k] != 0) == (all[i * np + j] != 0))
                i++;
            if (i == c->n) {
                same = out->py_tables[j].rows;
                nsame = out->py_tables[j].nrows;
            }
        }
        if (same || every) {
            t->rows = xcalloc(nsame ? nsame : 1, sizeof *t->rows);
            for (size_t i = 0; i < nsame; i++)
                answer_install_copy(&t->rows[i], &same[i]);
            t->nrows = nsame;
            continue;
        }
        for (size_t i = 0; i < c->n; i++)
            py[i] = all[i * np + k];
        c->py = py;
        qi_set_rel_py(c);
        qi_by_driver(c, rk, exact, 1, &t->rows, &t->nrows);
    }
    c->py = saved;
    if (saved)
        qi_set_rel_py(c);
    free(py);
    free(all);
}

/* What plain `pip install <project>` from PyPI gets on this platform for
 * release k, and whether it runs. */
void qi_pypi_answer(const struct qctx *c, size_t k, const char *exact, int applies,
                    struct answer_pypi *p)
{
    memset(p, 0, sizeof *p);
    p->python_wheel = -1;
    const struct release_info *ri =
        tables_release(c->v->t, c->o->project, c->releases[k], c->o->platform);
    if (!ri || !ri->pypi_default[0])
        return;
    p->present = 1;
    p->release = c->releases[k];
    p->build = ri->pypi_default;
    p->confidence = ri->pypi_confidence;
    char pin[72];
    snprintf(pin, sizeof pin, "%s.*", c->releases[k]);
    const struct installcmd_req req = {c->o->project, pin, NULL};
    installcmd_make(&p->command, c->v->t, &req, 1, NULL, 0);
    const char *why = "";
    p->verdict = COMPAT_UNSUPPORTED;
    int no_wheel = 0; /* it runs, but has no wheel for the Python asked about */
    if (!applies)
        why = "PyPI's wheels are not built for this GPU's system";
    else if (strcmp(ri->pypi_default, "cpu") == 0)
        why = "PyPI's wheel for this platform is a CPU-only build";
    else if (strcmp(ri->pypi_default, "none") == 0)
        why = "PyPI has no wheel of this release for this platform";
    else if (c->amd)
        why = "PyPI's wheel is a CUDA build; ROCm builds come only from download.pytorch.org";
    else {
        size_t idx[64];
        size_t n = qi_pick(c, k, exact, idx, 64);
        for (size_t i = 0; i < n; i++)
            if (strcmp(c->rows[idx[i]]->variant, ri->pypi_default) == 0) {
                /* judged like any row: with the driver, when one is given
                 * (an H100 with 535 does not run PyPI's cu130 build) */
                const struct compat_result *res =
                    c->o->has_driver ? qi_judge_driver(c, idx[i], &c->o->driver) : c->plain[idx[i]];
                p->row = c->rows[idx[i]];
                p->verdict = res->verdict;
                why = res->reason;
                no_wheel = c->py && c->py[idx[i]] == 0;
                /* the build's own driver floor, so a reader with another
                 * driver can judge it again (the site's driver box) */
                snprintf(p->min_driver, sizeof p->min_driver, "%s", res->min_driver);
                /* and its Pythons, so a reader with another Python can */
                qi_fill_pythons(c, p->row, qi_pin_whole(pin), &p->pythons);
            }
        if (!p->row) {
            why = "the arch list of that build is not in the data";
            p->unknown = 1;
        }
    }
    int code_runs = p->row && (p->verdict == COMPAT_NATIVE || p->verdict == COMPAT_PTX_JIT);
    if (code_runs && no_wheel) {
        char py[16];
        tables_python_format(c->o->python, c->o->python_free_threaded, py, sizeof py);
        p->reason =
            xasprintf("%s %s has no wheel for Python %s", c->o->project, c->releases[k], py);
    } else {
        p->reason = xstrdup(why);
    }
    p->runs = code_runs && !no_wheel;
    p->python_wheel = !c->py || !p->row ? -1 : !no_wheel;
}

static int native_row_cmp(const void *a, const void *b)
{
    return tables_variant_cmp(((const struct native_row *)a)->variant,
                              ((const struct native_row *)b)->variant);
}

void qi_last_native(const struct qctx *c, struct answer_result *out)
{
    struct native_row seen[256];
    size_t nseen = 0;
    for (size_t i = 0; i < c->n && nseen < 256; i++) {
        if (c->plain[i]->verdict != COMPAT_NATIVE)
            continue;
        size_t k;
        for (k = 0; k < nseen; k++)
            if (strcmp(seen[k].variant, c->rows[i]->variant) == 0)
                break;
        if (k == nseen) /* rows are newest release first: the first one found wins */
            seen[nseen++] = (struct native_row){i, c->rows[i]->variant};
    }
    qsort(seen, nseen, sizeof *seen, native_row_cmp); /* cu118 < cu126 < rocm6.4 */
    out->last_native = xcalloc(nseen ? nseen : 1, sizeof *out->last_native);
    for (size_t k = 0; k < nseen; k++) {
        struct choice a;
        memset(&a, 0, sizeof a);
        a.row = (long)seen[k].i;
        qi_set_pin(c, NULL, &a);
        out->last_native[k].row = c->rows[seen[k].i];
        snprintf(out->last_native[k].pin, sizeof out->last_native[k].pin, "%s", a.pin);
    }
    out->nlast_native = nseen;
}

/* Where to go when no official build of any release has code for the GPU:
 * a source build, and a check of whatever wheel one finds. */
void qi_source_build(const struct qctx *c, struct answer_source_build *x)
{
    x->present = 1;
    compat_cc_string(c->o->cc, x->arch_list, sizeof x->arch_list);
    const char *ccs = x->arch_list;
    if (c->amd) {
        x->steps[x->nsteps++] =
            xasprintf("Build %s from source with ROCm and PYTORCH_ROCM_ARCH=%s, if your ROCm "
                      "release still supports this processor",
                      c->o->project, ccs);
    } else {
        const char *lt = tables_last_toolkit(c->v->t, c->o->cc);
        x->steps[x->nsteps++] =
            lt ? xasprintf("Build %s from source with CUDA %s or older (the newest toolkit "
                           "that still compiles for compute capability %s) and "
                           "TORCH_CUDA_ARCH_LIST=\"%s\"",
                           c->o->project, lt, ccs, ccs)
               : xasprintf("Build %s from source with TORCH_CUDA_ARCH_LIST=\"%s\"", c->o->project,
                           ccs);
        x->last_toolkit = lt;
    }
    x->steps[x->nsteps++] = xstrdup("Before installing a self-built or community wheel, check "
                                    "that it has code for this GPU: wheelarch scan <wheel file "
                                    "or URL>");
}

int qi_python_blocks(const struct qctx *c, size_t rk, const char *exact)
{
    if (!c->py)
        return 0;
    struct choice t;
    qi_answer_for_py(c, rk, exact, 0, NULL, 1, &t);
    return t.row < 0;
}

void qi_self_build(const struct qctx *c, const struct choice *code, int python_blocks,
                   struct answer_source_build *x)
{
    memset(x, 0, sizeof *x);
    if (code->row < 0 || c->nrel == 0)
        return; /* no code at all: the way forward (qi_source_build) says it */
    const struct dbview_row *last = c->rows[code->row];
    int dropped = strcmp(last->release, c->releases[0]) != 0;
    if (!dropped && !python_blocks)
        return;
    x->present = 1;
    compat_cc_string(c->o->cc, x->arch_list, sizeof x->arch_list);
    const char *ccs = x->arch_list, *project = c->o->project;
    char why[160];
    if (python_blocks) {
        char pys[16];
        tables_python_format(c->o->python, c->o->python_free_threaded, pys, sizeof pys);
        snprintf(why, sizeof why, "for Python %s", pys);
    } else {
        snprintf(why, sizeof why, "for a newer Python or release than its official builds");
    }
    if (c->amd) {
        x->steps[x->nsteps++] = xasprintf(
            "Build %s from source %s with ROCm and PYTORCH_ROCM_ARCH=%s, with a ROCm release that "
            "still supports this processor (%s %s from %s is the newest official build with code "
            "for it)",
            project, why, ccs, project, code->pin, last->variant);
    } else {
        const char *lt = tables_last_toolkit(c->v->t, c->o->cc);
        const struct arch_support *end = tables_driver_branch_end(c->v->t, c->o->cc);
        struct strbuf b = STRBUF_INIT;
        strbuf_addf(&b, "Build %s from source %s", project, why);
        if (lt)
            strbuf_addf(&b,
                        " with CUDA %s or older (the newest toolkit that still compiles for "
                        "compute capability %s)",
                        lt, ccs);
        strbuf_addf(&b, " and TORCH_CUDA_ARCH_LIST=\"%s\"", ccs);
        /* the newest release officially built with such a toolkit: the
         * newest a source build is known to support it */
        struct dotver ltd;
        const char *built = NULL;
        if (lt && dotver_parse(lt, &ltd) == 0)
            for (size_t i = 0; i < c->n; i++) {
                const struct dbview_row *r = c->rows[i];
                if (r->cuda.n && dotver_cmp(&r->cuda, &ltd) <= 0 &&
                    (!built || dotver_cmp_str(r->release, built) > 0))
                    built = r->release;
            }
        if (built)
            strbuf_addf(&b, " (%s %s is the newest release PyTorch built with CUDA %s)", project,
                        built, lt);
        if (end) {
            strbuf_addf(&b, "; run it with an R%ld driver, this GPU's last branch (CUDA %ld.%ld)",
                        end->last_branch, end->last_branch_cuda.f[0], end->last_branch_cuda.f[1]);
            struct dotver ltv;
            if (lt && dotver_parse(lt, &ltv) == 0 && ltv.n >= 2 &&
                ltv.f[0] == end->last_branch_cuda.f[0] && ltv.f[1] > end->last_branch_cuda.f[1])
                strbuf_addf(&b,
                            ", on which a CUDA %s build runs through minor-version "
                            "compatibility",
                            lt);
        }
        strbuf_addf(&b, ". %s %s from the %s index is the newest official build with code for it",
                    project, code->pin, last->variant);
        x->steps[x->nsteps++] = xstrdup(strbuf_str(&b));
        strbuf_free(&b);
        x->last_toolkit = lt;
    }
    x->steps[x->nsteps++] = xstrdup("Community builds for older GPUs are unofficial, and "
                                    "wheelarch has checked none: before installing one, check "
                                    "that it has code for this GPU with wheelarch scan <wheel "
                                    "file or URL>");
}

void qi_guidance(const struct qctx *c, int tegra, int arm_only, struct answer_guidance *g)
{
    memset(g, 0, sizeof *g);
    if (arm_only == TABLES_HOST_WINDOWS_ARM && !tegra) {
        g->kind = "arm-host";
        g->label = "Windows on Arm";
        g->text = "This GPU comes only in Windows on Arm PCs (NVIDIA RTX Spark): only the "
                  "windows-arm64 wheels NVIDIA publishes apply to it";
        return;
    }
    if (arm_only && !tegra) {
        g->kind = "arm-host";
        g->label = "Arm system";
        g->text = "This GPU comes only in Arm systems (NVIDIA Grace): only the Linux aarch64 "
                  "wheels apply to it";
        return;
    }
    if (!tegra)
        return;
    g->kind = "jetson";
    g->label = "Jetson";
    if (query_tegra_sbsa(c->o->cc)) {
        g->text = strcmp(c->o->platform, "linux-aarch64") == 0
                      ? "Jetson Thor runs JetPack 7, an SBSA system: download.pytorch.org's "
                        "linux-aarch64 wheels apply, judged below"
                      : "Jetson Thor is an integrated GPU in an Arm system: only linux-aarch64 "
                        "wheels apply to it";
        return;
    }
    if (c->o->gpu ? !jetson_takes_jetpack(c->o->gpu) : c->o->not_jetpack) {
        g->kind = "tegra";
        g->label = "DRIVE or IGX";
        g->text = "This is the integrated (Tegra) GPU of an NVIDIA DRIVE or IGX system. The "
                  "aarch64 wheels on PyPI and download.pytorch.org are SBSA builds for Arm "
                  "servers and do not run on its DRIVE OS or IGX OS; x86_64 and Windows wheels "
                  "do not apply, and NVIDIA's PyTorch for Jetson is built for JetPack, not for "
                  "these systems. Use the PyTorch NVIDIA provides for that system's software "
                  "release, and check it with wheelarch scan before installing";
        return;
    }
    g->text = "This is a Jetson (Tegra) GPU. The aarch64 wheels on PyPI and "
              "download.pytorch.org are SBSA builds for Arm servers and do not run on "
              "Jetson's L4T/JetPack; x86_64 and Windows wheels do not apply. Install NVIDIA's "
              "PyTorch for Jetson, built for your JetPack release, and check it with "
              "wheelarch scan before installing";
    g->url = "https://docs.nvidia.com/deeplearning/frameworks/"
             "install-pytorch-jetson-platform/index.html";
    const struct tables *t = c->v->t;
    for (size_t i = 0; i < t->njetson && g->njetson < ANSWER_JETSON_MAX; i++)
        if (jetson_runs_on(&t->jetson[i], c->o->cc)) {
            const struct jetson_build *b = &t->jetson[i];
            if (b->index_url[0]) {
                const struct installcmd_req req = {"torch", NULL, NULL};
                installcmd_make(&g->jetson_commands[g->njetson], t, &req, 1, b->index_url, 0);
            }
            g->jetson[g->njetson++] = b;
        }
}

/* The newest release (and within it the newest patch) whose code runs on
 * the GPU on this platform, whatever the driver: what an update of the
 * driver can reach.  0 when no release in the data has code for it. */
int qi_newest_with_code(const struct qctx *c, struct choice *a)
{
    memset(a, 0, sizeof *a);
    a->row = -1;
    for (size_t k = 0; k < c->nrel; k++) {
        const char *vers[32];
        size_t nv = qi_release_versions(c, k, vers, 32);
        for (size_t j = 0; j < nv; j++)
            if (qi_decide_release(c, k, vers[j], 0, NULL, NULL, 0, a)) {
                qi_set_pin(c, j ? vers[j] : NULL, a);
                return 1;
            }
    }
    return 0;
}

/* The lowest driver with which release k (versions fitting exact) runs,
 * into out; 0 when none is known (its rows need no driver this one lacks,
 * or have no code). */
static int driver_for_release(const struct qctx *c, size_t k, const char *exact, char *out,
                              size_t n)
{
    size_t idx[64];
    size_t m = qi_pick(c, k, exact, idx, 64);
    struct dotver best = {0};
    int have = 0;
    for (size_t i = 0; i < m; i++) {
        int code = c->plain[idx[i]]->code;
        if ((code != COMPAT_NATIVE && code != COMPAT_PTX_JIT) || (c->py && c->py[idx[i]] == 0))
            continue;
        const struct compat_result *r = qi_judge_driver(c, idx[i], &c->o->driver);
        struct dotver d;
        if (!r->driver_blocks || !r->needed_driver[0] || dotver_parse(r->needed_driver, &d) < 0)
            continue;
        if (!have || dotver_cmp(&d, &best) < 0) {
            best = d;
            snprintf(out, n, "%s", r->needed_driver);
            have = 1;
        }
    }
    return have;
}

static struct answer_change *new_change(struct answer_result *out, int kind)
{
    out->change = xrealloc(out->change, (out->nchange + 1) * sizeof *out->change);
    struct answer_change *x = &out->change[out->nchange++];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    return x;
}

/* Another Python: when a newer release than the one that runs as things
 * are (or the asked one) would run, but has no wheel for this Python;
 * names the versions it has wheels for and how to get one.  Tried with
 * the driver given, then with a driver update as well. */
static void python_step(const struct qctx *c, size_t rk, const char *exact,
                        const struct choice *runs, struct answer_result *out)
{
    struct choice np;
    const struct query_options *o = c->o;
    int with_driver = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && !o->has_driver)
            break;
        qi_answer_for_py(c, rk, exact, pass == 0 && o->has_driver, &o->driver, 0, &np);
        if (np.row < 0 || c->py[np.row] != 0)
            continue;
        if (runs->row >= 0 && !(runs->fallback && !np.fallback) &&
            dotver_cmp_str(c->rows[np.row]->release, c->rows[runs->row]->release) <= 0)
            continue;
        with_driver = pass == 1;
        goto found;
    }
    return;
found:;
    const struct dbview_row *r = c->rows[np.row];
    uint16_t vs[32];
    size_t n = tables_python_versions(c->v->t, r->project, r->version, r->platform, r->variant,
                                      qi_pin_whole(np.pin), o->python_free_threaded, vs, 32);
    if (!n) /* free-threaded builds none: a regular one */
        n = tables_python_versions(c->v->t, r->project, r->version, r->platform, r->variant,
                                   qi_pin_whole(np.pin), 0, vs, 32);
    if (!n)
        return;
    /* the supported version nearest to the one in use */
    uint16_t pick = o->python < vs[0] ? vs[0] : vs[n - 1];
    for (size_t i = 0; i < n; i++)
        if (vs[i] == o->python)
            pick = vs[i];
    struct answer_change *x = new_change(out, ANSWER_CHANGE_PYTHON);
    struct strbuf list = STRBUF_INIT;
    int ft = o->python_free_threaded &&
             tables_python_has(c->v->t, r->project, r->version, r->platform, r->variant,
                               qi_pin_whole(np.pin), pick, 1) == 1;
    for (size_t i = 0; i < n; i++) {
        qi_pythons_add(&x->pythons, vs[i], ft);
        strbuf_addf(&list, "%s%s", i ? ", " : "", x->pythons.v[x->pythons.n - 1]);
    }
    char mine[16];
    tables_python_format(o->python, o->python_free_threaded, mine, sizeof mine);
    tables_python_format(pick, ft, x->python, sizeof x->python);
    const char *want = x->python;
    char drv[64] = "";
    if (with_driver && np.res.min_driver[0]) {
        snprintf(drv, sizeof drv, " and an NVIDIA driver %s or newer", np.res.min_driver);
        snprintf(x->min_driver, sizeof x->min_driver, "%s", np.res.min_driver);
    }
    /* how to get one: uv makes environments of Python 3.7 and later
     * (free-threaded ones too); conda of regular builds */
    char how[160];
    if (ft)
        snprintf(how, sizeof how, "`uv venv --python %s`", want);
    else if (pick < 307)
        snprintf(how, sizeof how, "`conda create -n %s python=%s`", o->project, want);
    else
        snprintf(how, sizeof how, "`uv venv --python %s` or `conda create -n %s python=%s`", want,
                 o->project, want);
    x->text = xasprintf("use another Python%s: %s %s has wheels for Python %s, not %s (get one "
                        "with %s)",
                        drv, o->project, np.pin, list.buf ? list.buf : "", mine, how);
    x->release = r->release;
    snprintf(x->pin, sizeof x->pin, "%s", np.pin);
    strbuf_free(&list);
}

/* What to change, in order of cost (the first entry is the cheapest that
 * helps): a driver update (naming what it unlocks), another release that
 * runs as things are, a source build only when no official build of any
 * release has code.  Nothing when the asked release runs as it is. */
void qi_change_steps(const struct qctx *c, size_t rk, const char *exact, const struct choice *runs,
                     const struct choice *code, int python_blocks, struct answer_result *out)
{
    const char *project = c->o->project;
    char drv[32];
    /* A driver update: for the asked release when its code runs here, else
     * for the newest release that has code. */
    if (c->o->has_driver && code->row >= 0) {
        size_t k = rk;
        const char *ex = exact;
        if (!driver_for_release(c, k, ex, drv, sizeof drv)) {
            k = qi_release_index(c, c->rows[code->row]->release);
            ex = NULL;
        }
        if (k < c->nrel && driver_for_release(c, k, ex, drv, sizeof drv) &&
            (runs->row < 0 || dotver_cmp_str(c->releases[k], c->rows[runs->row]->release) > 0)) {
            struct answer_change *x = new_change(out, ANSWER_CHANGE_DRIVER);
            x->text = xasprintf("update the NVIDIA driver to %s or newer: %s %s then runs "
                                "on this GPU",
                                drv, project, k == rk && ex ? ex : c->releases[k]);
            snprintf(x->min_driver, sizeof x->min_driver, "%s", drv);
            x->release = c->releases[k];
        }
    }
    if (c->py)
        python_step(c, rk, exact, runs, out);
    if (runs->row >= 0 && runs->fallback) {
        const struct dbview_row *r = c->rows[runs->row];
        char *u = qi_index_url_no_slash(r->index_url);
        struct answer_change *x = new_change(out, ANSWER_CHANGE_RELEASE);
        char extra[64];
        answer_gpu_extra(r, &runs->res, extra, sizeof extra);
        answer_commands_make(&x->commands, c->v->t, project, runs->pin, extra, u);
        const char *line = x->commands.install.pip_line;
        x->text = line ? xasprintf("use a release that runs as things are: %s %s from the %s "
                                   "index (%s)",
                                   project, runs->pin, r->variant, line)
                       : xasprintf("use a release that runs as things are: %s %s from the %s "
                                   "index",
                                   project, runs->pin, r->variant);
        x->release = r->release;
        snprintf(x->pin, sizeof x->pin, "%s", runs->pin);
        x->index = r->variant;
        free(u);
    }
    if (code->row >= 0 && runs->row < 0 && python_blocks) {
        /* no official build with code has a wheel for this Python */
        char pys[16];
        tables_python_format(c->o->python, c->o->python_free_threaded, pys, sizeof pys);
        struct answer_change *x = new_change(out, ANSWER_CHANGE_SOURCE);
        x->text = xasprintf("or build %s from source for Python %s (see below)", project, pys);
    }
    if (code->row < 0) {
        char ccs[16];
        compat_cc_string(c->o->cc, ccs, sizeof ccs);
        struct answer_change *x = new_change(out, ANSWER_CHANGE_SOURCE);
        x->text = xasprintf("no official %s build of any release has code for %s: build it "
                            "from source (see below)",
                            project, ccs);
    }
}
