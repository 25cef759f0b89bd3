/*
 * Unit tests: the shipped tables and the compatibility rules, table-driven.
 * Expected answers are written from docs/compat.md by hand, never
 * computed by the code under test.
 *
 * usage: test_compat DATA_DIR
 */
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "gpuname.h"
#include "harness.h"
#include "tables.h"
#include "variant.h"
#include "wheelname.h"

static struct tables T;

static uint16_t cc_of(const char *s)
{
    struct dotver v;
    dotver_parse(s, &v);
    return (uint16_t)(v.f[0] * 10 + v.f[1]);
}

static void rule(const char *target, const char *cc, int want)
{
    struct target t;
    OK(target_parse(target, &t) == 0, "parse %s", target);
    int got = t.kind == TARGET_SASS ? compat_sass_runs(&T, &t, cc_of(cc))
                                    : compat_ptx_jits(&T, &t, cc_of(cc));
    OK(got == want, "%s on %s: got %d, want %d", target, cc, got, want);
}

static void test_rules(void)
{
    /* R1: same major, minor not lower. */
    rule("sm_60", "6.1", 1);
    rule("sm_61", "6.0", 0);
    rule("sm_70", "7.5", 1);
    rule("sm_75", "7.0", 0);
    rule("sm_80", "8.6", 1);
    rule("sm_80", "8.9", 1);
    rule("sm_86", "8.0", 0);
    rule("sm_86", "8.9", 1);
    rule("sm_90", "10.0", 0);
    rule("sm_100", "10.3", 1);
    rule("sm_120", "12.1", 1);
    rule("sm_121", "12.0", 0);
    rule("sm_75", "8.0", 0);
    /* R2: Tegra parts run only their own SASS. */
    rule("sm_80", "8.7", 0);
    rule("sm_86", "8.7", 0);
    rule("sm_87", "8.7", 1);
    rule("sm_87", "8.9", 0);
    rule("sm_50", "5.3", 0);
    rule("sm_53", "5.3", 1);
    rule("sm_53", "5.5", 0);
    rule("sm_70", "7.2", 0);
    rule("sm_72", "7.5", 0);
    rule("sm_60", "6.2", 0);
    rule("sm_101", "11.0", 0);
    rule("sm_110", "11.0", 1);
    /* R4: "a" targets run on exactly their CC. */
    rule("sm_90a", "9.0", 1);
    rule("sm_90a", "10.0", 0);
    rule("sm_100a", "10.0", 1);
    rule("sm_100a", "10.3", 0);
    rule("sm_120a", "12.1", 0);
    rule("sm_121a", "12.1", 1);
    /* R5: "f" targets run on their family (newest guide's table). */
    rule("sm_100f", "10.0", 1);
    rule("sm_100f", "10.3", 1);
    rule("sm_100f", "11.0", 0);
    rule("sm_100f", "12.0", 0);
    rule("sm_103f", "10.0", 0);
    rule("sm_103f", "10.3", 1);
    rule("sm_120f", "12.0", 1);
    rule("sm_120f", "12.1", 1);
    rule("sm_121f", "12.0", 0);
    rule("sm_110f", "11.0", 1);
    /* R3: PTX compiles for any CC at or above its own, across majors. */
    rule("compute_90", "12.0", 1);
    rule("compute_90", "9.0", 1);
    rule("compute_90", "8.9", 0);
    rule("compute_50", "6.1", 1);
    rule("compute_120", "6.1", 0);
    rule("compute_120", "12.1", 1);
    rule("compute_90a", "9.0", 1);
    rule("compute_90a", "10.0", 0);
    rule("compute_100f", "10.3", 1);
    rule("compute_100f", "12.0", 0);
}

struct vcase {
    const char *gpu;     /* compute capability */
    const char *sets[3]; /* module sets: space-separated targets */
    size_t modules[3];
    const char *isa;     /* ISA of every PTX target, or NULL */
    const char *variant; /* for the CUDA version */
    const char *driver;  /* NULL: none given */
    int os;
    int want;
};

static void add_set(struct compat_code *c, const char *list, size_t modules)
{
    struct target t[32];
    size_t n = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok(buf, " "); tok && n < 32; tok = strtok(NULL, " "))
        if (target_parse(tok, &t[n]) == 0)
            n++;
    compat_code_add_set(c, t, n, modules);
}

static void verdict_case(const struct vcase *vc)
{
    struct compat_code code = {0};
    for (int i = 0; i < 3 && vc->sets[i]; i++)
        add_set(&code, vc->sets[i], vc->modules[i] ? vc->modules[i] : 1);
    if (vc->isa) {
        struct dotver isa;
        dotver_parse(vc->isa, &isa);
        for (size_t i = 0; i < code.nsets; i++)
            for (size_t k = 0; k < code.sets[i].n; k++)
                if (code.sets[i].targets[k].kind == TARGET_PTX)
                    compat_code_set_isa(&code, &code.sets[i].targets[k], &isa);
    }
    struct compat_query q = {cc_of(vc->gpu), vc->driver != NULL, {0}, vc->os, 0};
    if (vc->driver)
        dotver_parse(vc->driver, &q.driver);
    struct dotver cuda;
    tables_variant_cuda(vc->variant, &cuda);
    struct compat_result r;
    compat_judge(&T, &q, &code, &cuda, &r);
    OK(r.verdict == vc->want, "GPU %s, %s [%s | %s], driver %s: got %s (%s), want %s", vc->gpu,
       vc->variant, vc->sets[0], vc->sets[1] ? vc->sets[1] : "", vc->driver ? vc->driver : "-",
       compat_verdict_name(r.verdict), r.reason, compat_verdict_name(vc->want));
    compat_code_free(&code);
}

/* PyTorch 2.8's declared Linux lists (data/pytorch_arch_lists.csv). */
#define CU126 "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"
#define CU128 "sm_70 sm_75 sm_80 sm_86 sm_90 sm_100 sm_120"
#define CU130 "sm_75 sm_80 sm_86 sm_90 sm_100 sm_120 compute_120"

static void test_verdicts(void)
{
    enum {
        N = COMPAT_NATIVE,
        J = COMPAT_PTX_JIT,
        P = COMPAT_PARTIAL,
        D = COMPAT_DRIVER_TOO_OLD,
        U = COMPAT_UNSUPPORTED
    };
    static const struct vcase cases[] = {
        /* GTX 1080 Ti, 6.1 */
        {"6.1", {CU126}, {1}, NULL, "cu126", "470.82.01", 0, D},
        {"6.1", {CU126}, {1}, NULL, "cu126", "535.104.05", 0, N},
        {"6.1", {CU126}, {1}, NULL, "cu126", "550.54.14", 0, N},
        {"6.1", {CU126}, {1}, NULL, "cu126", "570.86.15", 0, N},
        {"6.1", {CU126}, {1}, NULL, "cu126", "580.65.06", 0, N},
        {"6.1", {CU128}, {1}, NULL, "cu128", "570.86.15", 0, U},
        {"6.1", {CU128}, {1}, NULL, "cu128", NULL, 0, U},
        /* no code for 6.x: no driver makes it run, so the driver is not
         * what blocks (it was "driver too old") */
        {"6.1", {CU130}, {1}, "9.0", "cu130", "570.86.15", 0, U},
        {"6.1", {CU130}, {1}, "9.0", "cu130", "580.65.06", 0, U},
        {"6.1",
         {"sm_37 sm_50 sm_60 sm_70 sm_75 sm_80 sm_86"},
         {1},
         NULL,
         "cu118",
         "470.82.01",
         0,
         N},
        /* T4, 7.5 */
        {"7.5", {CU126}, {1}, NULL, "cu126", "535.104.05", 0, N},
        {"7.5", {CU130}, {1}, "9.0", "cu130", "580.65.06", 0, N},
        {"7.5", {CU130}, {1}, "9.0", "cu130", "550.54.14", 0, D},
        /* A100, 8.0 */
        {"8.0",
         {"sm_37 sm_50 sm_60 sm_70 sm_75 sm_80 sm_86"},
         {1},
         NULL,
         "cu118",
         "470.82.01",
         0,
         N},
        {"8.0", {CU128}, {1}, NULL, "cu128", "535.104.05", 0, N},
        /* RTX 4090, 8.9: sm_86 runs */
        {"8.9", {CU126}, {1}, NULL, "cu126", "550.54.14", 0, N},
        {"8.9", {"sm_75 sm_80 compute_80"}, {1}, "7.8", "cu118", NULL, 0, N},
        /* H100, 9.0 */
        {"9.0", {CU126}, {1}, NULL, "cu126", "535.104.05", 0, N},
        {"9.0", {CU130}, {1}, "9.0", "cu130", "535.104.05", 0, D},
        {"9.0", {"sm_80 sm_90a"}, {1}, NULL, "cu126", NULL, 0, N},
        {"9.0", {"sm_80 sm_86", "sm_80 sm_86 sm_90a"}, {1, 1}, NULL, "cu126", NULL, 0, P},
        {"9.0", {"sm_90", "compute_80"}, {340, 3}, "8.4", "cu124", "550.54.14", 0, J},
        /* B200, 10.0 */
        {"10.0", {CU126}, {1}, NULL, "cu126", "570.86.15", 0, U},
        /* a driver older than the first toolkit for 10.0 (12.8: 570.26) does not know it */
        {"10.0", {"sm_80 compute_90"}, {1}, "8.4", "cu124", "550.54.14", 0, D},
        {"10.0", {"sm_80 compute_90"}, {1}, "8.4", "cu124", "570.86.15", 0, J},
        {"10.0", {"sm_80 compute_90"}, {1}, "8.4", "cu124", "535.104.05", 0, D},
        {"10.0", {"sm_80 compute_90"}, {1}, "8.4", "cu124", NULL, 0, J},
        {"10.0", {CU128}, {1}, NULL, "cu128", "570.86.15", 0, N},
        {"10.0", {"sm_100f"}, {1}, NULL, "cu129", "575.51.03", 0, N},
        {"10.0", {"sm_103a compute_90a"}, {1}, "8.8", "cu129", NULL, 0, U},
        /* RTX 5090, 12.0 */
        {"12.0", {CU126}, {1}, NULL, "cu126", "575.51.03", 0, U},
        {"12.0", {CU128}, {1}, NULL, "cu128", "575.51.03", 0, N},
        {"12.0", {CU128}, {1}, NULL, "cu128", "550.54.14", 0, D},
        {"12.0", {CU128}, {1}, NULL, "cu128", "570.26", 0, N},
        {"12.0", {CU130}, {1}, "9.0", "cu130", "575.51.03", 0, D},
        {"12.0", {CU130}, {1}, "9.0", "cu130", "580.65.06", 0, N},
        {"12.0", {"sm_90 compute_90"}, {1}, "8.4", "cu124", "570.86.15", 0, J},
        /* GB10, 12.1 */
        {"12.1", {"sm_120"}, {1}, NULL, "cu128", "580.65.06", 0, N},
        {"12.1", {"sm_120a"}, {1}, NULL, "cu128", "580.65.06", 0, U},
        {"12.1", {"sm_120f"}, {1}, NULL, "cu129", "580.65.06", 0, N},
        {"12.1", {"sm_86 compute_120"}, {1}, "8.7", "cu128", "580.65.06", 0, J},
        {"12.1", {"sm_86 compute_120"}, {1}, "8.7", "cu128", "550.54.14", 0, D},
        /* Jetson Orin 8.7 and Jetson Nano 5.3 */
        {"8.7", {"sm_80 sm_86 sm_90"}, {1}, NULL, "cu126", "540.4.0", 0, U},
        {"8.7", {"sm_87"}, {1}, NULL, "cu126", NULL, 0, N},
        {"8.7", {"sm_80 compute_80"}, {1}, "8.5", "cu126", NULL, 0, J},
        {"5.3", {"sm_50 sm_60"}, {1}, NULL, "cu118", NULL, 0, U},
        {"5.3", {"sm_53"}, {1}, NULL, "cu118", NULL, 0, N},
        /* Windows floors */
        {"6.1", {CU126}, {1}, NULL, "cu126", "527.56", 1, D},
        {"6.1", {CU126}, {1}, NULL, "cu126", "528.33", 1, N},
        /* No GPU code at all */
        {"8.6", {""}, {1}, NULL, "cpu", NULL, 0, U},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        verdict_case(&cases[i]);
}

static void test_tables(void)
{
    OK(T.ngpus >= 250, "gpus (%zu)", T.ngpus);
    OK(T.ndeclared >= 90, "declared rows (%zu)", T.ndeclared);
    /* names: tests/unit/test_gpuname.c */
    const struct gpu *g;
    struct gpuname_result res;
    gpuname_resolve(&T, "jetson orin nano", &res);
    g = res.gpu;
    OK(res.decided && g && g->cc == 87 && g->tegra, "jetson orin nano is a Tegra 8.7");

    struct dotver d, cuda;
    dotver_parse("570.86.15", &d);
    const struct toolkit *k = tables_driver_cuda(&T, &d, TABLES_LINUX);
    OK(k && k->cuda.f[0] == 12 && k->cuda.f[1] == 8, "driver 570.86.15 -> CUDA 12.8");
    dotver_parse("535.54.03", &d);
    k = tables_driver_cuda(&T, &d, TABLES_LINUX);
    OK(k && k->cuda.f[0] == 12 && k->cuda.f[1] == 2, "driver 535.54.03 -> CUDA 12.2");
    dotver_parse("580.65.06", &d);
    k = tables_driver_cuda(&T, &d, TABLES_LINUX);
    OK(k && k->cuda.f[0] == 13 && k->cuda.f[1] == 0, "driver 580.65.06 -> CUDA 13.0");
    /* the autumn 2026 branches: R610 is CUDA 13.3, R615 13.4 (a branch
     * minimum: any 615.xx), and a later branch the newest known */
    static const struct {
        const char *driver;
        int major, minor;
    } branches[] = {{"595.45.04", 13, 2}, {"610.43.02", 13, 3}, {"610.20", 13, 2},
                    {"615.00", 13, 4},    {"615.43.02", 13, 4}, {"620.10", 13, 4}};
    for (size_t i = 0; i < sizeof branches / sizeof branches[0]; i++) {
        dotver_parse(branches[i].driver, &d);
        k = tables_driver_cuda(&T, &d, TABLES_LINUX);
        OK(k && k->cuda.f[0] == branches[i].major && k->cuda.f[1] == branches[i].minor,
           "driver %s -> CUDA %d.%d (got %ld.%ld)", branches[i].driver, branches[i].major,
           branches[i].minor, k ? k->cuda.f[0] : -1L, k ? k->cuda.f[1] : -1L);
    }
    dotver_parse("13.4", &cuda);
    const struct ptx_isa *p = tables_isa_of_cuda(&T, &cuda);
    OK(p && p->isa.f[0] == 9 && p->isa.f[1] == 4, "CUDA 13.4 emits PTX ISA 9.4");
    dotver_parse("9.3", &d);
    p = tables_cuda_of_isa(&T, &d);
    OK(p && p->cuda.f[0] == 13 && p->cuda.f[1] == 3, "ISA 9.3 -> toolkit 13.3");
    dotver_parse("12.6", &cuda);
    p = tables_isa_of_cuda(&T, &cuda);
    OK(p && p->isa.f[0] == 8 && p->isa.f[1] == 5, "CUDA 12.6 emits PTX ISA 8.5");
    dotver_parse("8.6", &d);
    p = tables_cuda_of_isa(&T, &d);
    OK(p && p->cuda.f[1] == 8, "ISA 8.6 -> first public toolkit 12.8");
    const struct minor_compat *mc = tables_minor_compat(&T, 12);
    OK(mc && strcmp(mc->min_driver_text[TABLES_LINUX], "525.60.13") == 0, "12.x floor");
    OK(tables_variant_cuda("cu128", &cuda) == 0 && cuda.f[0] == 12 && cuda.f[1] == 8, "cu128");
    OK(tables_variant_cuda("cu92", &cuda) == 0 && cuda.f[0] == 9 && cuda.f[1] == 2, "cu92");
    OK(tables_variant_cuda("cpu", &cuda) < 0, "cpu has no CUDA");
    OK(tables_variant_cmp("cpu", "cu118") < 0 && tables_variant_cmp("cu92", "cu118") < 0 &&
           tables_variant_cmp("cu130", "rocm5.7") < 0 &&
           tables_variant_cmp("rocm7.2", "rocm7.14") < 0 &&
           tables_variant_cmp("rocm6.2", "rocm6.2.4") < 0 &&
           tables_variant_cmp("cu128", "cu128") == 0,
       "variant order: cpu, CUDA by version, ROCm by version");
    struct target s[8], x[8];
    size_t ns, nx;
    tables_parse_arch_list("9.0;5.0;12.0+PTX;9.0a", s, &ns, 8, x, &nx, 8);
    OK(ns == 4 && s[0].arch == 50 && s[2].suffix == 'a' && nx == 1 && x[0].arch == 120,
       "arch list with +PTX and a suffix");
    OK(dotver_cmp_str("2.10.0", "2.9.1") > 0, "2.10 > 2.9");
    OK(dotver_cmp_str("2.8.0rc1", "2.8.0") < 0, "rc before release");
    OK(dotver_cmp_str("570.86.15", "570.9") > 0, "field-wise driver comparison");
    OK(dotver_cmp_str("2.12.0.dev20261120", "2.12.0.dev20261119") > 0,
       "nightlies: the newer date is newer");
    OK(dotver_cmp_str("2.12.0.dev20261120+cu130", "2.12.0.dev20261120") == 0,
       "a local label does not order");
    OK(dotver_cmp_str("2.8.0rc2", "2.8.0rc10") < 0, "rc numbers compare as numbers");
    OK(dotver_cmp_str("2.8.0.dev20250101", "2.8.0a1") < 0 &&
           dotver_cmp_str("2.8.0a1", "2.8.0b1") < 0 && dotver_cmp_str("2.8.0b1", "2.8.0rc1") < 0,
       "dev < a < b < rc (PEP 440)");
    OK(dotver_cmp_str("2.9.0.rc1", "2.9.0rc1") == 0 && dotver_cmp_str("2.9.0_rc1", "2.9.0") < 0 &&
           dotver_cmp_str("2.9.0c1", "2.9.0rc1") == 0 &&
           dotver_cmp_str("2.9.0alpha3", "2.9.0a3") == 0 &&
           dotver_cmp_str("2.9.0-beta.2", "2.9.0b2") == 0 &&
           dotver_cmp_str("2.9.0pre1", "2.9.0rc1") == 0,
       "PEP 440's other spellings of pre-releases");
    OK(dotver_cmp_str("2.8.0+cu128", "2.8.0") == 0 && dotver_cmp_str("570.86.15", "570.86.15") == 0,
       "a local label or a driver version is no pre-release");
}

/* AMD: A1 exact processor, A2 generic targets, A3 xnack/sramecc modes. */
static void amd_runs(const char *code, const char *device, int want)
{
    struct target c, d;
    int ok = target_parse(code, &c) == 0 && target_parse(device, &d) == 0;
    OK(ok, "parse %s %s", code, device);
    INT_EQ(compat_gfx_runs(&T, &c, &d), want, code);
}

static void amd_verdict(const char *gpu, const char *sets0, const char *sets1, int want)
{
    struct gpuname_result res;
    gpuname_resolve(&T, gpu, &res);
    const struct gpu *g = res.gpu;
    int found = res.decided && g && g->amd;
    OK(found, "find %s", gpu);
    if (!found)
        return;
    struct compat_code code = {0};
    add_set(&code, sets0, 3);
    if (sets1)
        add_set(&code, sets1, 1);
    struct compat_query q = {g->cc, 0, {0}, TABLES_LINUX, 0};
    struct dotver none = {0};
    struct compat_result r;
    compat_judge(&T, &q, &code, &none, &r);
    OK(r.verdict == want, "%s [%s | %s]: got %s (%s), want %s", gpu, sets0, sets1 ? sets1 : "",
       compat_verdict_name(r.verdict), r.reason, compat_verdict_name(want));
    compat_code_free(&code);
}

static void test_amd(void)
{
    amd_runs("gfx1100", "gfx1100", 1);
    amd_runs("gfx1100", "gfx1101", 0); /* no sibling rule */
    amd_runs("gfx1030", "gfx1031", 0);
    amd_runs("gfx11-generic", "gfx1101", 1);
    amd_runs("gfx11-generic", "gfx1151", 1);
    amd_runs("gfx11-generic", "gfx1201", 0);
    amd_runs("gfx9-generic", "gfx906", 1);
    amd_runs("gfx9-generic", "gfx90a", 0); /* gfx90a is in no generic target */
    amd_runs("gfx10-3-generic", "gfx1032", 1);
    amd_runs("gfx90a", "gfx90a:xnack-", 1); /* any runs in both modes */
    amd_runs("gfx90a:xnack-", "gfx90a:xnack-", 1);
    amd_runs("gfx90a:xnack+", "gfx90a:xnack-", 0); /* built for xnack on, device has it off */
    amd_runs("gfx90a:xnack-", "gfx90a:xnack+", 0);
    amd_runs("gfx942:sramecc+", "gfx942:sramecc+:xnack-", 1);
    amd_runs("gfx942:sramecc-", "gfx942:sramecc+:xnack-", 0);
    amd_runs("sm_90", "gfx942", 0);

    enum { N = COMPAT_NATIVE, P = COMPAT_PARTIAL, X = COMPAT_UNSUPPORTED };
    amd_verdict("RX 7900 XTX", "gfx90a gfx1030 gfx1100", NULL, N);
    amd_verdict("RX 7900 XTX", "gfx90a gfx1030 gfx1100", "gfx90a gfx1030", P);
    amd_verdict("RX 7800 XT", "gfx90a gfx1030 gfx1100", NULL, X); /* gfx1101 */
    amd_verdict("RX 7800 XT", "gfx11-generic", NULL, N);
    amd_verdict("RX 6700 XT", "gfx1030 gfx1100", NULL, X); /* gfx1031 */
    amd_verdict("MI250X", "gfx90a:xnack+", NULL, X);       /* XNACK is off by default */
    amd_verdict("MI250X", "gfx90a:xnack-", NULL, N);
    amd_verdict("MI300X", "gfx942", NULL, N);
    amd_verdict("MI300X", "sm_90 compute_90", NULL, X);
    /* The device code names the processor. */
    char buf[16];
    compat_cc_string(0x1100, buf, sizeof buf);
    STR_EQ(buf, "gfx1100", "device code string");
    compat_cc_string(86, buf, sizeof buf);
    STR_EQ(buf, "8.6", "cc string");
    struct target dev;
    INT_EQ(tables_amd_device(&T, 0x942, &dev), 0, "gfx942 device");
    char name[TARGET_NAME_MAX];
    target_format(&dev, name, sizeof name);
    STR_EQ(name, "gfx942:sramecc+:xnack-", "gfx942 default modes");
    OK(tables_amd_device(&T, 86, &dev) < 0, "86 is not an AMD device code");
    OK(tables_variant_rocm("rocm6.4", NULL) && !tables_variant_rocm("cu126", NULL) &&
           !tables_variant_rocm("rocm", NULL),
       "ROCm variants");
    /* A declared ROCm row exists and names gfx targets. */
    int found = 0;
    for (size_t i = 0; i < T.ndeclared; i++)
        if (strcmp(T.declared[i].variant, "rocm6.4") == 0 &&
            strcmp(T.declared[i].release, "2.8") == 0)
            found = T.declared[i].ngfx > 5;
    OK(found, "declared ROCm 6.4 list for torch 2.8");
}

/* Each project's variant rule, from the shipped table. */
static void test_variants(void)
{
    static const struct {
        const char *filename, *url, *index, *variant, *how;
    } cases[] = {
        {"cupy_cuda12x-13.6.0-cp312-cp312-manylinux2014_x86_64.whl", NULL, "simple", "cu12x",
         "name"},
        {"cupy_cuda13x-14.0.0-cp312-cp312-manylinux2014_x86_64.whl", NULL, "simple", "cu13x",
         "name"},
        {"jax_cuda12_pjrt-0.7.2-py3-none-manylinux_2_27_x86_64.whl", NULL, "pypi", "cu12x", "name"},
        {"nvidia_cudnn_cu12-9.10.2.21-py3-none-manylinux_2_27_x86_64.whl", NULL, "simple", "cu12x",
         "name"},
        {"nvidia_nccl_cu13-2.28.3-py3-none-manylinux_2_18_x86_64.whl", NULL, "simple", "cu13x",
         "name"},
        /* CUDA 13's unsuffixed toolkit wheels: the version's major */
        {"nvidia_cublas-13.0.0.19-py3-none-manylinux_2_27_x86_64.whl", NULL, "simple", "cu13x",
         "rule"},
        {"flash_attn-2.8.3+cu12torch2.8cxx11abiTRUE-cp312-cp312-linux_x86_64.whl", NULL, "releases",
         "cu12x", "label"},
        {"flash_attn-2.8.3+cu128torch2.8-cp312-cp312-linux_x86_64.whl", NULL, "releases", "cu128",
         "label"},
        {"onnxruntime_gpu-1.22.0-cp312-cp312-manylinux_2_27_x86_64.whl", NULL, "simple", "cu12x",
         "rule"},
        {"onnxruntime_gpu-1.18.1-cp311-cp311-manylinux_2_27_x86_64.whl", NULL, "simple", "cu11x",
         "rule"},
        /* PyPI's torch: no label, the release table's default for the platform */
        {"torch-2.8.0-cp312-cp312-manylinux_2_28_x86_64.whl",
         "https://files.pythonhosted.org/packages/aa/bb/"
         "torch-2.8.0-cp312-cp312-manylinux_2_28_x86_64.whl",
         "simple", "cu128", "release"},
        {"torch-2.7.1-cp312-cp312-manylinux_2_28_x86_64.whl", NULL, "simple", "cu126", "release"},
        /* ... but a label, a folder or a variant index comes first */
        {"torch-2.8.0+cu126-cp312-cp312-manylinux_2_28_x86_64.whl", NULL, "simple", "cu126",
         "label"},
        {"torch-2.8.0-cp312-cp312-manylinux_2_28_aarch64.whl", NULL, "cu129", "cu129", "index"},
        /* the table says PyPI's aarch64 torch 2.8 is a CPU build */
        {"torch-2.8.0-cp312-cp312-manylinux_2_28_aarch64.whl", NULL, "simple", "cpu", "release"},
        {"llama_cpp_python-0.3.16-cp312-cp312-linux_x86_64.whl",
         "https://github.com/abetlen/llama-cpp-python/releases/download/v0.3.16-cu124/"
         "llama_cpp_python-0.3.16-cp312-cp312-linux_x86_64.whl",
         "cu124", "cu124", "index"},
        /* vLLM on PyPI: CUDA 12 builds without a label; its GitHub
         * releases' other CUDA builds carry one */
        {"vllm-0.11.0-cp38-abi3-manylinux1_x86_64.whl", NULL, "pypi", "cu12x", "rule"},
        {"vllm-0.6.1.post1+cu118-cp310-cp310-manylinux1_x86_64.whl", NULL, "releases", "cu118",
         "label"},
        /* a dotted CUDA version in the label, torch's release after it */
        {"sgl_kernel-0.3.9+cu12.8.torch2.8-cp39-abi3-manylinux2014_x86_64.whl", NULL, "releases",
         "cu128", "label"},
        /* the CUDA version dotted and glued to torch's (nunchaku-ai/nunchaku
         * v1.2.1 release assets; setup.py: +cu{torch.version.cuda}torch{x.y}) */
        {"nunchaku-1.2.1+cu12.8torch2.10-cp312-cp312-linux_x86_64.whl", NULL, "releases", "cu128",
         "label"},
        {"nunchaku-1.2.1+cu13.0torch2.10-cp311-cp311-win_amd64.whl", NULL, "releases", "cu130",
         "label"},
        /* the same with torch's patch and the ABI (Astral's sageattn3 builds) */
        {"sageattn3-2.2.0+cu12.8torch2.10.0cxx11abiTRUE-cp312-cp312-linux_x86_64.whl", NULL,
         "cu128", "cu128", "label"},
        /* every number its own segment: the form issue 48 names; no real
         * file name of it was found (see docs/data-update.md) */
        {"flash_attn-2.8.3+cu.12.8.torch.2.11-cp312-cp312-linux_x86_64.whl", NULL, "releases",
         "cu128", "label"},
        {"flash_attn-2.8.3+cu.13.torch.2.11-cp312-cp312-linux_x86_64.whl", NULL, "releases",
         "cu13x", "label"},
        /* the CUDA major only, Dao-AILab's form, for the projects built that way */
        {"causal_conv1d-1.5.0.post8+cu12torch2.5cxx11abiFALSE-cp312-cp312-linux_x86_64.whl", NULL,
         "releases", "cu12x", "label"},
        {"mamba_ssm-2.2.4+cu12torch2.6cxx11abiTRUE-cp312-cp312-linux_x86_64.whl", NULL, "releases",
         "cu12x", "label"},
        {"flash_attn-2.8.3+cu13torch2.11cxx11abiTRUE-cp312-cp312-linux_x86_64.whl", NULL,
         "releases", "cu13x", "label"},
        /* three digits glued to torch's (mjun0812's prebuilt wheels, flashinfer) */
        {"flash_attn-2.8.3+cu130torch2.11-cp313-cp313-manylinux_2_34_aarch64.whl", NULL, "releases",
         "cu130", "label"},
        {"flash_attn_3-3.0.0+cu128torch2.11gite2743ab-cp39-abi3-linux_x86_64.whl", NULL, "releases",
         "cu128", "label"},
        {"flashinfer_python-0.2.6.post1+cu128torch2.7-cp39-abi3-linux_x86_64.whl", NULL, "simple",
         "cu128", "label"},
        {"sageattention-2.1.1+cu128torch2.7.0-cp310-cp310-win_amd64.whl", NULL, "releases", "cu128",
         "label"},
        /* ... which without the project's rule says nothing of the minor */
        {"some_kernels-1.0+cu128torch2.7-cp312-cp312-linux_x86_64.whl", NULL, "simple", "simple",
         "index"},
        /* PyG: torch's digits first (data.pyg.org/whl/torch-2.8.0+cu128.html
         * pins torch_scatter==2.1.2+pt28cu128) */
        {"torch_scatter-2.1.2+pt28cu128-cp311-cp311-linux_x86_64.whl", NULL, "simple", "cu128",
         "label"},
        /* vLLM's nightlies put the CUDA label after the commit */
        {"vllm-0.28.1rc1.dev472+gd9105ea80.cu129-cp38-abi3-manylinux_2_28_x86_64.whl", NULL,
         "simple", "cu129", "label"},
        /* ROCm: AMD's nightlies (rocm.nightlies.amd.com/v2/gfx110X-dgpu/), its
         * whl-next (stable.repo.amd.com/rocm/whl-next/), and triton there */
        {"torch-2.10.0a0+rocm7.10.0a20251015-cp312-cp312-linux_x86_64.whl", NULL, "simple",
         "rocm7.10.0", "label"},
        {"torch-2.13.0+rocm10.0.0-cp312-cp312-win_amd64.whl", NULL, "simple", "rocm10.0.0",
         "label"},
        {"triton-3.8.0+git4cff872c.rocm10.0.0-cp313-cp313-linux_x86_64.whl", NULL, "simple",
         "rocm10.0.0", "label"},
        /* whl-next's device packages: one GPU target's kernel archives each */
        {"amd_torch_device_gfx1151-2.13.0+rocm10.0.0-cp313-cp313-linux_x86_64.whl", NULL,
         "amd_whl_next", "rocm10.0.0", "label"},
        {"amd_torch_device_gfx1100-2.13.0+rocm10.0.0-cp312-cp312-win_amd64.whl", NULL,
         "amd_whl_next", "rocm10.0.0", "label"},
        /* NVIDIA's Windows on Arm builds on its own index, whose id is not
         * the variant (pypi.nvidia.com/nvtorch_oot/: stable, and its nightly) */
        {"torch-2.14.0+cu134-cp313-cp313-win_arm64.whl", NULL, "nvtorch_oot", "cu134", "label"},
        {"torch-2.15.0.dev20260904+cu134-cp313-cp313-win_arm64.whl", NULL, "nvtorch_oot_nightly",
         "cu134", "label"},
        /* no rule, nothing says: the index's id */
        {"bitsandbytes-0.47.0-py3-none-manylinux_2_24_x86_64.whl", NULL, "simple", "simple",
         "index"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct wheel_name wn;
        struct wa_error e;
        int parsed = wheelname_parse(cases[i].filename, &wn, &e) == 0;
        OK(parsed, "parse %s", cases[i].filename);
        if (!parsed)
            continue;
        const char *how = NULL;
        char *v = variant_decide(&T, &wn, cases[i].url, cases[i].index, &how);
        char what[200];
        snprintf(what, sizeof what, "variant of %s", cases[i].filename);
        STR_EQ(v, cases[i].variant, what);
        snprintf(what, sizeof what, "how, for %s", cases[i].filename);
        STR_EQ(how, cases[i].how, what);
        OK(variant_how_valid(how) && *variant_how_words(how), "how has words: %s", how);
        free(v);
        wheelname_free(&wn);
    }
    STR_EQ(tables_gpu_library(&T, "nvidia-cudnn-cu12"), "cuDNN", "cuDNN's wheel");
    STR_EQ(tables_gpu_library(&T, "nvidia-cublas"), "cuBLAS", "CUDA 13's cuBLAS wheel");
    OK(tables_gpu_library(&T, "nvidia-cuda-runtime-cu12") == NULL, "the runtime has no kernels");
    OK(tables_gpu_library(&T, "nvidia-cudnn-cu") == NULL, "a '*' stands for at least one byte");
    OK(tables_gpu_library(&T, "torch") == NULL, "torch is no library wheel");
    /* A wheel's own code and a library it pins. */
    {
        struct target own[1], lib[2];
        target_parse("sm_120a", &own[0]);
        target_parse("sm_80", &lib[0]);
        target_parse("sm_86", &lib[1]);
        struct compat_code c = {0}, l = {0};
        compat_code_add_set(&c, own, 1, 1);
        compat_code_add_set(&l, lib, 2, 4);
        compat_code_add_library(&c, &l, "cuDNN 9.10.2.21");
        struct compat_query q = {0};
        struct compat_result r;
        struct dotver cu128;
        dotver_parse("12.8", &cu128);
        q.cc = 120;
        compat_judge(&T, &q, &c, &cu128, &r);
        INT_EQ(r.verdict, COMPAT_PARTIAL, "12.0: the wheel runs, its cuDNN does not");
        OK(strstr(r.reason, "cuDNN 9.10.2.21 has no code for 12.0") != NULL, "names it: %s",
           r.reason);
        q.cc = 86;
        compat_judge(&T, &q, &c, &cu128, &r);
        INT_EQ(r.verdict, COMPAT_UNSUPPORTED, "8.6: the wheel's own code decides");
        OK(strstr(r.reason, "cuDNN") == NULL, "and the reason is the wheel's: %s", r.reason);
        compat_code_free(&c);
        compat_code_free(&l);
    }
    struct dotver cu;
    OK(tables_variant_cuda("cu12x", &cu) == 0 && cu.f[0] == 12 && cu.f[1] == 0,
       "cu12x is judged as CUDA 12.0 (minor-version compatibility)");
    OK(tables_variant_cmp("cu12x", "cu13x") < 0 && tables_variant_cmp("cu12x", "cu118") > 0,
       "cu12x orders between cu118 and cu13x");
}

/* The identity the site's grid uses to judge each distinct code once. */
static void test_code_identity(void)
{
    struct compat_code a = {0}, b = {0}, c = {0}, d = {0}, lib = {0};
    add_set(&a, "sm_80 sm_90 compute_90", 3);
    add_set(&a, "sm_80", 1);
    add_set(&b, "sm_80 sm_90 compute_90", 3);
    add_set(&b, "sm_80", 1);
    OK(compat_code_same(&a, &b), "the same sets are the same code");
    OK(compat_code_hash(0, &a) == compat_code_hash(0, &b), "the same code hashes alike");
    OK(compat_code_hash(0, &a) != compat_code_hash(1, &a), "the seed counts");
    add_set(&c, "sm_80", 1);
    add_set(&c, "sm_80 sm_90 compute_90", 3);
    OK(!compat_code_same(&a, &c), "the order of the sets counts (verdicts name the first)");
    add_set(&d, "sm_80 sm_90 compute_90", 3);
    add_set(&d, "sm_80", 2);
    OK(!compat_code_same(&a, &d), "module counts count");
    struct target ptx;
    struct dotver isa;
    target_parse("compute_90", &ptx);
    dotver_parse("8.8", &isa);
    compat_code_set_isa(&b, &ptx, &isa);
    OK(!compat_code_same(&a, &b), "a PTX ISA counts");
    compat_code_set_isa(&a, &ptx, &isa);
    OK(compat_code_same(&a, &b) && compat_code_hash(0, &a) == compat_code_hash(0, &b),
       "the same ISA: the same code again");
    add_set(&lib, "sm_80", 1);
    compat_code_add_library(&a, &lib, "cuDNN 9.1");
    compat_code_add_library(&b, &lib, "cuDNN 9.2");
    OK(!compat_code_same(&a, &b), "a library's origin counts (verdicts name it)");
    compat_code_free(&a);
    compat_code_free(&b);
    compat_code_free(&c);
    compat_code_free(&d);
    compat_code_free(&lib);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_compat DATA_DIR\n");
        return 2;
    }
    struct wa_error err;
    if (tables_load(argv[1], &T, &err) < 0) {
        fprintf(stderr, "cannot load tables: %s\n", err.msg);
        return 1;
    }
    test_tables();
    test_rules();
    test_verdicts();
    test_amd();
    test_variants();
    test_code_identity();
    tables_free(&T);
    return harness_done();
}
