/*
 * Property tests of the answer engine: invariants that must hold for every
 * GPU in the data (NVIDIA and AMD), drivers from 450 to 595 and none,
 * every torch release and every platform, with and without a Python.
 * Each invariant is a sentence a person acts on; the expected side is
 * computed from the data with compat_judge and the tables directly, never
 * from query's own answer.
 *
 * usage: test_answers DATA_DIR [--quick] [--jobs N]
 *   --quick: the sample (see quick_single);
 *   --jobs N: N processes, each asking a share of the GPUs and pairs (the
 *   grid is an hour of one core's work under Valgrind, a minute plain: it
 *   uses every core); default: the online CPUs, at most 8.  The counts of
 *   every process are added before any invariant is judged, so an
 *   invariant one share never meets still counts as checked by another.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compat.h"
#include "dbview.h"
#include "dotver.h"
#include "harness.h"
#include "invariants.h"
#include "multigpu.h"
#include "query.h"
#include "tables.h"

static struct tables T;
static struct dbview V;

enum {
    I_DRIVER_WHERE_NO_CODE, /* "driver too old" only where the code would run */
    I_HEADLINE_ORDER,       /* blocked_by: platform, code, Python, driver in order */
    I_REC_DRIVER,           /* a recommendation never needs a newer driver than given */
    I_REC_RUNS,             /* the recommended row runs as things are */
    I_PYPI_DRIVER,          /* plain pip is judged with its driver floor */
    I_NEWEST_CODE,          /* newest_with_code is what the data says */
    I_NO_FALSE_LAST,        /* no source build while an official build has code */
    I_DRIVER_SAYS,          /* a driver-limited answer says the driver limits it */
    I_PYTHON_CMD,           /* no command for a Python the release has no wheel for */
    I_CHANGE_DRIVER,        /* a driver step's release really needs no more than it */
    I_MACHINE_RUNS,         /* several GPUs: the machine's answer runs on every one */
    I_MACHINE_FALLBACK,     /* several GPUs: the newest older release that runs on all */
    I_MACHINE_SAYS,         /* several GPUs: a GPU the driver keeps out is said to be */
    I_BRANCH_CAP,           /* no driver beyond the GPU's last branch, unless said so */
    I_WAY_FORWARD,          /* no build for the Python: two ways forward, the page's too */
    I_COUNT
};
static const char *const names[I_COUNT] = {
    "no 'driver too old' where the code would not run",
    "the headline is the first constraint that blocks (platform, code, Python, driver)",
    "a recommendation never needs a newer driver than the one given",
    "the recommended row runs with the driver and Python given",
    "plain pip install is judged with its driver floor",
    "the newest release with code is what the data says",
    "no source build while an official build of some release has code",
    "an answer limited by the driver says so and names a driver step",
    "no command is printed for a Python the release has no wheel for",
    "a driver step names a driver with which that release runs",
    "several GPUs: the machine's answer runs on every GPU (driver and Python included)",
    "several GPUs: without one, the fallback is the newest older release that runs on all",
    "several GPUs: a GPU that only the driver keeps out is said to be, with its step",
    "no driver required, recommended or listed is of a branch after the GPU's last, unless "
    "the sentence names that limit",
    "no official build with code for this Python: at least two ways forward, and the page "
    "(any Python) carries the self-build ones",
};
static long fails[I_COUNT], checks[I_COUNT];
static struct invariants inv = {names, checks, fails, I_COUNT};

static void check(int i, int ok, const char *what)
{
    invariants_check(&inv, i, ok, what);
}

/* Whether a driver (NULL: none) is at least floor ("" or NULL: no floor). */
static int driver_at_least(const struct dotver *driver, const char *floor)
{
    struct dotver f;
    if (!driver || !floor || !*floor || dotver_parse(floor, &f) < 0)
        return 1;
    return dotver_cmp(driver, &f) >= 0;
}

static int runs(const char *verdict)
{
    return verdict && (strcmp(verdict, "native") == 0 || strcmp(verdict, "ptx-jit") == 0);
}

/* The newest release of torch on platform whose code runs on the GPU,
 * whatever the driver, from the view's rows and compat_judge: NULL when
 * none.  Pre-releases are left out (query answers them only when asked). */
static const char *newest_with_code_of(uint16_t cc, const char *platform)
{
    const char *best = NULL;
    struct compat_query q;
    memset(&q, 0, sizeof q);
    q.cc = cc;
    q.os = tables_platform_os(platform);
    for (size_t i = 0; i < V.nrows; i++) {
        const struct dbview_row *r = &V.rows[i];
        struct dotver rv;
        if (strcmp(r->project, "torch") != 0 || strcmp(r->platform, platform) != 0 ||
            (cc >= TABLES_AMD_MIN) != tables_variant_rocm(r->variant, NULL) ||
            dotver_parse(r->version, &rv) < 0 || rv.pre)
            continue;
        struct compat_result res;
        compat_judge(&T, &q, &r->code, &r->cuda, &res);
        if (runs(compat_verdict_name(res.code)) && (!best || dotver_cmp_str(r->release, best) > 0))
            best = r->release;
    }
    return best;
}

/* newest_with_code_of, remembered per device and platform (it depends
 * on nothing else, and is asked for each of thousands of questions). */
static const char *newest_with_code(uint16_t cc, const char *platform)
{
    static struct {
        uint16_t cc;
        const char *platform; /* one of main's platform strings */
        const char *best;
    } memo[1024];
    static size_t nmemo;
    for (size_t i = 0; i < nmemo; i++)
        if (memo[i].cc == cc && strcmp(memo[i].platform, platform) == 0)
            return memo[i].best;
    const char *best = newest_with_code_of(cc, platform);
    if (nmemo < sizeof memo / sizeof *memo) {
        memo[nmemo].cc = cc;
        memo[nmemo].platform = platform;
        memo[nmemo++].best = best;
    }
    return best;
}

/* The version a pin names ("2.8.*" -> "2.8", whole release) */
static int pin_version(const char *pin, char *out, size_t n)
{
    size_t len = strlen(pin);
    int whole = len >= 2 && strcmp(pin + len - 2, ".*") == 0;
    snprintf(out, n, "%.*s", (int)(whole ? len - 2 : len), pin);
    return whole;
}

static void check_python_cmd(const struct query_options *o, const char *pin, const char *where)
{
    if (!o->has_python)
        return;
    char ver[64], what[256];
    int whole = pin_version(pin, ver, sizeof ver);
    int has = tables_python_has(&T, o->project, ver, o->platform, NULL, whole, o->python,
                                o->python_free_threaded);
    snprintf(what, sizeof what, "%s: %s %s for Python %u.%u on %s", where, o->project, pin,
             o->python / 100u, o->python % 100u, o->platform);
    check(I_PYTHON_CMD, has != 0, what);
}

/* The driver an install needs as the answer states it: in the driver
 * table its floor, else its own minimum ("" for none). */
static const char *install_driver(const struct answer_install *i)
{
    return i->floor[0] ? i->floor : i->res.min_driver;
}

/* Whether a driver text is of a branch after the GPU's last (the answer's
 * last_branch, "R470"): a driver it cannot run. */
static int beyond_last(const struct answer_result *a, const char *driver)
{
    struct dotver d;
    if (!a->last_branch[0] || !driver || !driver[0] || dotver_parse(driver, &d) < 0)
        return 0;
    const struct arch_support *end = tables_driver_branch_end(&T, a->cc);
    return tables_driver_beyond(end, &d);
}

/* Every driver an answer requires, recommends or lists is one the GPU can
 * run, or its sentence names the branch limit. */
static void check_branch_cap(const struct answer_result *a, const char *label)
{
    char what[1024];
    if (!a->last_branch[0])
        return;
    const struct answer_install *ins[] = {a->recommendation, a->fallback, a->newest_with_code};
    for (size_t i = 0; i < 3; i++) {
        if (!ins[i])
            continue;
        snprintf(what, sizeof what, "%s %s: %s %s needs %s (recommended %s), last branch %s", label,
                 a->version, ins[i]->row->variant, ins[i]->pin, install_driver(ins[i]),
                 ins[i]->res.full_driver, a->last_branch);
        check(I_BRANCH_CAP,
              !beyond_last(a, install_driver(ins[i])) && !beyond_last(a, ins[i]->res.full_driver),
              what);
    }
    for (size_t i = 0; i < a->nby_driver; i++) {
        snprintf(what, sizeof what, "%s %s: driver table row %s, last branch %s", label, a->version,
                 a->by_driver[i].floor, a->last_branch);
        check(I_BRANCH_CAP, !beyond_last(a, a->by_driver[i].floor), what);
    }
    for (size_t p = 0; p < a->npy_tables; p++)
        for (size_t i = 0; i < a->py_tables[p].nrows; i++) {
            snprintf(what, sizeof what, "%s %s: driver table row %s for a Python, last branch %s",
                     label, a->version, a->py_tables[p].rows[i].floor, a->last_branch);
            check(I_BRANCH_CAP, !beyond_last(a, a->py_tables[p].rows[i].floor), what);
        }
    for (size_t i = 0; i < a->nchange; i++) {
        snprintf(what, sizeof what, "%s %s: change step needs driver %s, last branch %s", label,
                 a->version, a->change[i].min_driver, a->last_branch);
        check(I_BRANCH_CAP, !beyond_last(a, a->change[i].min_driver), what);
    }
    for (size_t i = 0; i < a->nrows; i++) {
        const struct answer_row *x = &a->rows[i];
        int runs_code = x->v.code == COMPAT_NATIVE || x->v.code == COMPAT_PTX_JIT ||
                        x->v.code == COMPAT_PARTIAL;
        snprintf(what, sizeof what, "%s %s: row %s code %s needs %s/%s, reason \"%s\"", label,
                 a->version, x->row->variant, compat_verdict_name(x->v.code), x->v.res.min_driver,
                 x->v.res.needed_driver, x->v.res.reason);
        if (runs_code)
            check(I_BRANCH_CAP,
                  !beyond_last(a, x->v.res.needed_driver) && !beyond_last(a, x->v.res.full_driver),
                  what);
        else if (x->v.res.beyond_branch)
            check(I_BRANCH_CAP, strstr(x->v.res.reason, a->last_branch) != NULL, what);
    }
    if (a->pypi.present && a->pypi.runs) {
        snprintf(what, sizeof what, "%s %s: plain pip said to run, needing %s", label, a->version,
                 a->pypi.min_driver);
        check(I_BRANCH_CAP, !beyond_last(a, a->pypi.min_driver), what);
    }
}

/* The invariants on one answer, read from the typed answer (answer.h);
 * the JSON written from it is query.golden's and query.e2e's to check. */
static void one(const struct query_options *o, const struct dotver *driver, const char *label)
{
    struct wa_error err;
    struct answer_result *a = query_answer(&V, o, &err);
    if (!a)
        return; /* no such release on this platform */
    char what[512];
    int applies = a->applies;
    for (size_t i = 0; i < a->nrows; i++) {
        const struct answer_row *x = &a->rows[i];
        const char *v = compat_verdict_name(x->v.res.verdict),
                   *code = compat_verdict_name(x->v.code),
                   *blocked = verdict_block_name(x->v.blocked_by);
        snprintf(what, sizeof what, "%s %s: %s is %s, code %s, blocked by %s", label, a->version,
                 x->row->variant, v, code, blocked ? blocked : "nothing");
        if (strcmp(v, "driver-too-old") == 0)
            check(I_DRIVER_WHERE_NO_CODE, runs(code), what);
        const char *want = !applies                           ? "platform"
                           : !runs(code)                      ? "code"
                           : x->v.python == 0                 ? "python"
                           : strcmp(v, "driver-too-old") == 0 ? "driver"
                                                              : NULL;
        check(I_HEADLINE_ORDER, want ? blocked && strcmp(blocked, want) == 0 : !blocked, what);
    }
    const struct answer_install *rec = a->recommendation, *fb = a->fallback;
    const struct answer_install *ans = rec ? rec : fb;
    if (ans) {
        snprintf(what, sizeof what, "%s %s: recommends %s %s needing driver %s", label, a->version,
                 ans->row->variant, ans->pin, install_driver(ans)[0] ? install_driver(ans) : "-");
        check(I_REC_DRIVER, driver_at_least(driver, install_driver(ans)), what);
        check(I_REC_RUNS, runs(compat_verdict_name(ans->res.verdict)), what);
        check_python_cmd(o, ans->pin, label);
    }
    if (rec) {
        /* the recommended variant's own row says it runs */
        const struct answer_row *x = answer_row_of(a, rec->row->variant);
        if (x)
            check(I_REC_RUNS, x->v.runs, what);
    }
    for (size_t i = 0; i < a->nby_driver; i++)
        check_python_cmd(o, a->by_driver[i].pin, "by driver");
    /* plain pip: with a driver, runs only where the PyPI build's row runs
     * with that driver */
    if (a->pypi.present && a->pypi.runs) {
        const struct answer_row *x = answer_row_of(a, a->pypi.build);
        int row_runs = x && x->v.runs && driver_at_least(driver, x->v.res.min_driver);
        snprintf(what, sizeof what, "%s %s: plain pip (%s) said to run", label, a->version,
                 a->pypi.build);
        check(I_PYPI_DRIVER, row_runs, what);
    }
    /* the newest release with code, whatever the driver */
    const char *want = applies ? newest_with_code(o->cc, o->platform) : NULL;
    const struct answer_install *wc = a->newest_with_code;
    snprintf(what, sizeof what, "%s: newest with code %s, the data says %s", label,
             wc ? wc->row->release : "none", want ? want : "none");
    check(I_NEWEST_CODE, want ? wc && strcmp(wc->row->release, want) == 0 : !wc, what);
    snprintf(what, sizeof what, "%s: a source build offered while %s has code", label,
             want ? want : "none");
    check(I_NO_FALSE_LAST, !(want && a->source_build.present), what);
    /* limited by the driver: the asked release has running code without
     * the driver (and a wheel for the Python), yet none is recommended */
    if (driver && applies && !rec) {
        int code_here = 0, driver_blocks = 0;
        for (size_t i = 0; i < a->nrows; i++) {
            const struct answer_row *x = &a->rows[i];
            code_here |= runs(compat_verdict_name(x->v.code)) && x->v.python != 0;
            driver_blocks |= x->v.driver_blocks && x->v.python != 0;
        }
        if (code_here && driver_blocks) {
            int says = fb && fb->reason && strstr(fb->reason, "driver");
            int step = 0;
            for (size_t i = 0; i < a->nchange; i++)
                step |= a->change[i].kind == ANSWER_CHANGE_DRIVER;
            snprintf(what, sizeof what, "%s %s: driver-limited, reason \"%s\", driver step %d",
                     label, a->version, fb && fb->reason ? fb->reason : "-", step);
            check(I_DRIVER_SAYS, (says || !fb) && step, what);
        }
    }
    /* a driver step: the release it names runs with that driver */
    for (size_t i = 0; i < a->nchange; i++) {
        const struct answer_change *x = &a->change[i];
        if (x->kind != ANSWER_CHANGE_DRIVER)
            continue;
        struct query_options o2 = *o;
        o2.version = x->release;
        if (dotver_parse(x->min_driver, &o2.driver) < 0)
            continue;
        o2.has_driver = 1;
        o2.driver_text = x->min_driver;
        struct answer_result *a2 = query_answer(&V, &o2, &err);
        snprintf(what, sizeof what, "%s: driver step %s for %s", label, x->min_driver, x->release);
        check(I_CHANGE_DRIVER, a2 && a2->recommendation, what);
        answer_free(a2);
    }
    check_branch_cap(a, label);
    /* no build with code for the Python (whatever the driver): ways forward */
    if (o->has_python && a->applies && a->newest_with_code && !answer_runs(a) && !o->has_driver) {
        size_t ways = 0;
        for (size_t i = 0; i < a->nchange; i++)
            ways += a->change[i].kind == ANSWER_CHANGE_PYTHON ||
                    a->change[i].kind == ANSWER_CHANGE_SOURCE ||
                    a->change[i].kind == ANSWER_CHANGE_RELEASE;
        snprintf(what, sizeof what, "%s %s: %zu ways forward, self-build %d", label, a->version,
                 ways, a->self_build.present);
        check(I_WAY_FORWARD, ways >= 2 && a->self_build.present, what);
        /* Python 3.12 where the release asked about has wheels for it (every
         * current release on PyTorch's own platforms; not NVIDIA's Windows
         * on Arm, 3.13 only): then the GPU is what the builds dropped, and
         * its page shows the self-build steps for any Python */
        if (!o->version && o->python == 312 && !o->python_free_threaded &&
            tables_python_has(&T, o->project, a->version, o->platform, NULL, 1, 312, 0) == 1) {
            struct query_options any = *o;
            any.has_python = 0;
            struct answer_result *pa = query_answer(&V, &any, &err);
            snprintf(what, sizeof what, "%s: the page (any Python) has no self-build block", label);
            check(I_WAY_FORWARD, pa && pa->self_build.present, what);
            answer_free(pa);
        }
    }
    answer_free(a);
}

/* Whether variant `variant` of each GPU's own answer for release runs on
 * that GPU (each GPU's answer alone: the single-GPU engine the invariants
 * above check). */
static int runs_on_all(struct multigpu_gpu *g, size_t n, const char *release, const char *variant)
{
    for (size_t i = 0; i < n; i++) {
        struct query_options o = g[i].o;
        o.version = release;
        struct wa_error err;
        struct answer_result *a = query_answer(&V, &o, &err);
        const struct answer_row *r = a ? answer_row_of(a, variant) : NULL;
        int ok = r && r->v.runs;
        answer_free(a);
        if (!ok)
            return 0;
    }
    return 1;
}

/* The newest release older than `asked` with a variant that runs on
 * every GPU, from each GPU's own rows; NULL when none. */
static const char *newest_common(struct multigpu_gpu *g, size_t n, const char *asked,
                                 const char *const *releases, size_t nrel)
{
    for (size_t k = 0; k < nrel; k++) {
        if (dotver_cmp_str(releases[k], asked) >= 0)
            continue;
        struct query_options o = g[0].o;
        o.version = releases[k];
        struct wa_error err;
        struct answer_result *a = query_answer(&V, &o, &err);
        int found = 0;
        for (size_t i = 0; a && i < a->nrows && !found; i++)
            found = a->rows[i].v.runs && runs_on_all(g, n, releases[k], a->rows[i].row->variant);
        answer_free(a);
        if (found)
            return releases[k];
    }
    return NULL;
}

/* Two GPUs on one machine, judged together (multigpu.h). */
static void machine(struct multigpu_gpu *g, size_t n, const char *const *releases, size_t nrel,
                    const char *label)
{
    struct wa_error err;
    struct multigpu_result *m = multigpu_answer(&V, g, n, &err);
    if (!m)
        return;
    char what[1024];
    const struct answer_result *r0 = m->res[0];
    if (m->recommendation || m->fallback) {
        const struct answer_install *a = m->recommendation ? m->recommendation : m->fallback;
        snprintf(what, sizeof what, "%.300s %s: the machine's %s %s %s", label, r0->version,
                 m->recommendation ? "recommendation" : "fallback", a->row->variant, a->pin);
        check(I_MACHINE_RUNS, runs_on_all(g, n, a->row->release, a->row->variant), what);
    }
    if (!m->recommendation) {
        const char *want = newest_common(g, n, r0->version, releases, nrel);
        snprintf(what, sizeof what, "%.300s %s: fallback %s, the data says %s", label, r0->version,
                 m->fallback ? m->fallback->row->release : "none", want ? want : "none");
        check(I_MACHINE_FALLBACK,
              want ? m->fallback && strcmp(m->fallback->row->release, want) == 0 : !m->fallback,
              what);
        /* a GPU whose code for this release runs, but not with this
         * driver: the reason says so and its driver step is there */
        for (size_t i = 0; i < n; i++) {
            const struct answer_result *a = m->res[i];
            if (a->recommendation || !a->nchange || a->change[0].kind != ANSWER_CHANGE_DRIVER ||
                strcmp(a->change[0].release, a->version) != 0)
                continue;
            snprintf(what, sizeof what, "%.300s %s: %.100s driver-limited, reason \"%.400s\"",
                     label, r0->version, g[i].label, m->reason);
            check(I_MACHINE_SAYS, strstr(m->reason, "none with this driver") != NULL, what);
        }
    }
    multigpu_free(m);
}

/* --quick, the sample run under the sanitizers (ten times slower): a
 * twentieth of the single-GPU questions (8,544 of 168,096) and a tenth of the
 * pairs (367 of 4,160), chosen so that they reach every line and branch of
 * the engine (src/answer, src/rules) that the whole grid reaches.  tests/unit/answers-coverage.sh
 * measures that with gcov; rerun it when the engine or the data grows a new path.  Single GPUs:
 * every GPU class, platform and Python; the drivers none, 495, 535, 560,
 * 580 and 595; the newest release and every fourteenth. */
static int quick_single(size_t k, size_t d)
{
    return (k == 0 || k % 14 == 1) && (d % 3 == 0 || d == 12 || d == 14);
}

/* Pairs: the newest release with no driver and with 570 (one Python per
 * platform); older releases (every tenth from the sixth) with the drivers
 * of 470 to 570 on both platforms, where a GPU's answer is not the
 * machine's; the oldest release on Windows, which has no build of it. */
static int quick_pair(size_t k, size_t nrel, size_t step, size_t p, size_t d, size_t y)
{
    if (k == 0)
        return (d == 0 || d == 3) && y == p && !(step == 5 && d == 0);
    return step == 1 && y == 0 &&
           ((k % 10 == 6 && d >= 1 && d <= 3) || (k == nrel && d == 0 && p == 1));
}

/* What a worker process found: its counts, added by the parent. */
struct totals {
    long checks[I_COUNT], fails[I_COUNT];
    int passed, failed;
    size_t asked, pairs;
};

static int write_all(int fd, const void *p, size_t n)
{
    const char *b = p;
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        b += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *p, size_t n)
{
    char *b = p;
    while (n) {
        ssize_t r = read(fd, b, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        b += r;
        n -= (size_t)r;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct wa_error err;
    if (argc < 2 || tables_load(argv[1], &T, &err) < 0) {
        fprintf(stderr, "usage: test_answers DATA_DIR [--quick]: %s\n", argc < 2 ? "" : err.msg);
        return 2;
    }
    int quick = 0;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    for (int a = 2; a < argc; a++) {
        if (strcmp(argv[a], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[a], "--jobs") == 0 && a + 1 < argc)
            jobs = strtol(argv[++a], NULL, 10);
        else {
            fprintf(stderr, "test_answers: unknown argument %s\n", argv[a]);
            return 2;
        }
    }
    if (jobs < 1)
        jobs = 1;
    if (jobs > 8)
        jobs = 8;
    if (dbview_build(NULL, &T, DBVIEW_CODE_ONLY, &V, &err) < 0) {
        fprintf(stderr, "view: %s\n", err.msg);
        return 2;
    }
    struct query_order *order = query_order_new(&V);
    static const char *const drivers[] = {NULL,        "450.80.02", "470.256.02", "495.29.05",
                                          "510.47.03", "525.60.13", "535.104.05", "545.23.06",
                                          "550.54.14", "560.28.03", "570.26",     "575.51.03",
                                          "580.65.06", "590.48.01", "595.45.04"};
    static const char *const platforms[] = {"linux-x86_64", "linux-aarch64", "windows-x86_64",
                                            "windows-arm64"};
    static const char *const pythons[] = {NULL, "3.8", "3.12", "3.14t"};
    /* torch's releases, newest first, from the view */
    const char *releases[256];
    size_t nrel = 0;
    for (size_t i = 0; i < V.nrows && nrel < 256; i++) {
        const struct dbview_row *r = &V.rows[i];
        size_t k = 0;
        while (k < nrel && strcmp(releases[k], r->release) != 0)
            k++;
        if (k == nrel && strcmp(r->project, "torch") == 0)
            releases[nrel++] = r->release;
    }
    /* GPUs alike for every question (capability, Tegra, Arm-only, mode)
     * are asked once; each stands for the others */
    /* the workers: this process is share 0, each child one more */
    struct share_pipe {
        pid_t pid;
        int fd;
    } kids[8];
    size_t share = 0, nkids = 0;
    fflush(stdout);
    fflush(stderr);
    for (long j = 1; j < jobs; j++) {
        int fds[2];
        if (pipe(fds) < 0) {
            perror("pipe");
            break;
        }
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            close(fds[0]);
            close(fds[1]);
            break;
        }
        if (pid == 0) {
            for (size_t k = 0; k < nkids; k++)
                close(kids[k].fd);
            close(fds[0]);
            share = (size_t)j;
            nkids = 0;
            kids[0].fd = fds[1]; /* where this child's totals go */
            break;
        }
        close(fds[1]);
        kids[nkids].pid = pid;
        kids[nkids++].fd = fds[0];
    }
    int child = share > 0;
    size_t nshares = (size_t)jobs;
    size_t asked = 0, gpus = 0, kinds = 0;
    for (size_t g = 0; g < T.ngpus; g++) {
        const struct gpu *gp = &T.gpus[g];
        gpus++;
        if (invariants_gpu_seen(&T, g) || kinds++ % nshares != share)
            continue;
        for (size_t p = 0; p < sizeof platforms / sizeof platforms[0]; p++)
            for (size_t d = 0; d < sizeof drivers / sizeof *drivers; d++) {
                if (gp->amd && d > 0)
                    break; /* AMD: no NVIDIA driver */
                for (size_t y = 0; y < sizeof pythons / sizeof *pythons; y++)
                    for (size_t k = 0; k <= nrel; k++) {
                        if (quick && !quick_single(k, d))
                            continue;
                        struct query_options o;
                        memset(&o, 0, sizeof o);
                        o.gpu = gp;
                        o.cc = gp->cc;
                        o.arm_host = gp->arm_host;
                        o.project = "torch";
                        o.platform = platforms[p];
                        o.order = order;
                        o.version = k ? releases[k - 1] : NULL;
                        struct dotver dv;
                        if (drivers[d]) {
                            dotver_parse(drivers[d], &dv);
                            o.has_driver = 1;
                            o.driver = dv;
                            o.driver_text = drivers[d];
                        }
                        if (pythons[y]) {
                            tables_python_parse(pythons[y], &o.python, &o.python_free_threaded);
                            o.has_python = 1;
                        }
                        char label[256];
                        snprintf(label, sizeof label, "%s on %s, driver %s, Python %s", gp->name,
                                 platforms[p], drivers[d] ? drivers[d] : "none",
                                 pythons[y] ? pythons[y] : "any");
                        one(&o, drivers[d] ? &dv : NULL, label);
                        asked++;
                    }
            }
    }
    /* Several GPUs: pairs of NVIDIA devices of different capabilities
     * (each with its next and its fifth-next), a spread of drivers and
     * releases, on Linux x86_64 and Windows. */
    uint16_t ccs[64];
    const struct gpu *cgpu[64];
    size_t nccs = 0;
    for (size_t g = 0; g < T.ngpus && nccs < 64; g++) {
        const struct gpu *gp = &T.gpus[g];
        size_t h = 0;
        while (h < nccs && ccs[h] != gp->cc)
            h++;
        if (h == nccs && !gp->amd && !gp->tegra && !gp->arm_host) {
            ccs[nccs] = gp->cc;
            cgpu[nccs++] = gp;
        }
    }
    static const char *const mdrivers[] = {NULL, "470.256.02", "535.104.05", "570.26", "580.65.06"};
    static const char *const mplatforms[] = {"linux-x86_64", "windows-x86_64"};
    size_t pairs = 0;
    for (size_t i = 0; i < nccs; i++)
        for (size_t step = 1; step <= 5; step += 4) {
            if (i + step >= nccs || (i * 2 + step / 4) % nshares != share)
                continue;
            for (size_t p = 0; p < 2; p++)
                for (size_t d = 0; d < sizeof mdrivers / sizeof *mdrivers; d++)
                    for (size_t y = 0; y < 2; y++)
                        for (size_t k = 0; k <= nrel; k++) {
                            if (quick ? !quick_pair(k, nrel, step, p, d, y) : k > 0 && k % 5 != 1)
                                continue;
                            struct multigpu_gpu mg[2];
                            memset(mg, 0, sizeof mg);
                            char labels[2][128];
                            for (size_t j = 0; j < 2; j++) {
                                const struct gpu *gp = cgpu[j ? i + step : i];
                                struct query_options *o = &mg[j].o;
                                o->gpu = gp;
                                o->cc = gp->cc;
                                o->project = "torch";
                                o->platform = mplatforms[p];
                                o->order = order;
                                o->version = k ? releases[k - 1] : NULL;
                                if (mdrivers[d]) {
                                    dotver_parse(mdrivers[d], &o->driver);
                                    o->has_driver = 1;
                                    o->driver_text = mdrivers[d];
                                }
                                if (y) {
                                    tables_python_parse("3.12", &o->python,
                                                        &o->python_free_threaded);
                                    o->has_python = 1;
                                }
                                snprintf(labels[j], sizeof labels[j], "%s", gp->name);
                                mg[j].label = labels[j];
                                mg[j].count = 1;
                            }
                            char label[512];
                            snprintf(label, sizeof label, "%s + %s on %s, driver %s, Python %s",
                                     labels[0], labels[1], mplatforms[p],
                                     mdrivers[d] ? mdrivers[d] : "none", y ? "3.12" : "any");
                            machine(mg, 2, releases, nrel, label);
                            pairs++;
                        }
        }
    /* a child sends its totals and ends; the parent adds them all */
    struct totals t = {0};
    memcpy(t.checks, checks, sizeof checks);
    memcpy(t.fails, fails, sizeof fails);
    t.passed = harness_passed;
    t.failed = harness_failed;
    t.asked = asked;
    t.pairs = pairs;
    if (child) {
        int rc = write_all(kids[0].fd, &t, sizeof t) == 0 ? 0 : 1;
        close(kids[0].fd);
        query_order_free(order);
        dbview_free(&V);
        tables_free(&T);
        return rc;
    }
    for (size_t k = 0; k < nkids; k++) {
        struct totals c;
        int got = read_all(kids[k].fd, &c, sizeof c) == 0;
        close(kids[k].fd);
        int status = 0;
        waitpid(kids[k].pid, &status, 0);
        OK(got && WIFEXITED(status) && WEXITSTATUS(status) == 0,
           "share %zu of the questions ran to its end (exit status %d)", k + 1,
           WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        if (!got)
            continue;
        for (int i = 0; i < I_COUNT; i++) {
            checks[i] += c.checks[i];
            fails[i] += c.fails[i];
        }
        harness_passed += c.passed;
        harness_failed += c.failed;
        asked += c.asked;
        pairs += c.pairs;
    }
    printf("%zu questions for %zu GPUs, %zu releases; %zu for pairs of GPUs (%zu processes)\n",
           asked, gpus, nrel, pairs, nkids + 1);
    invariants_done(&inv);
    query_order_free(order);
    dbview_free(&V);
    tables_free(&T);
    return harness_done();
}
