/* hostgpu's parsers of what the machine says: gfx_target_version, the
 * driver's /proc file, nvidia-smi's CSV, WHEELARCH_GPUS. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "doctor.h"
#include "hostgpu.h"

static void gfx_names(void)
{
    static const struct {
        unsigned long v;
        const char *want;
    } ok[] = {{90010, "gfx90a"}, {110000, "gfx1100"}, {90402, "gfx942"}, {100300, "gfx1030"},
              {80003, "gfx803"}, {120001, "gfx1201"}, {90012, "gfx90c"}};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        char buf[16];
        OK(hostgpu_gfx_name(ok[i].v, buf, sizeof buf) == 0 && strcmp(buf, ok[i].want) == 0,
           "gfx_target_version %lu is %s", ok[i].v, ok[i].want);
    }
    char buf[16];
    OK(hostgpu_gfx_name(0, buf, sizeof buf) < 0, "0 is a CPU node");
    OK(hostgpu_gfx_name(90016, buf, sizeof buf) < 0, "stepping 16 is out of range");
    OK(hostgpu_gfx_name(51600, buf, sizeof buf) < 0, "major 5 is no GPU of the KFD");
}

static void proc_driver(void)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.86.15  Fri Jan 17 01:12:39 UTC "
         "2025\n",
         "570.86.15"},
        {"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  575.51.03  Release Build  "
         "(dvs-builder@U16)  Tue Apr 22 2025\nGCC version: 12.2.0\n",
         "575.51.03"},
        {"NVRM version: NVIDIA UNIX aarch64 Kernel Module  535.104.05  Sat Aug 19 2023\n",
         "535.104.05"},
        {"NVRM version: NVIDIA UNIX x86_64 Kernel Module\n570.86.15\n", NULL},
        {"no driver here\n", NULL},
        {"", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *d = hostgpu_proc_driver(cases[i].text);
        OK(cases[i].want ? d && strcmp(d, cases[i].want) == 0 : d == NULL, "proc case %zu: %s", i,
           d ? d : "(none)");
        free(d);
    }
}

static void smi_lines(void)
{
    struct hostgpu g;
    char *drv = NULL;
    OK(hostgpu_smi_line("NVIDIA GeForce GTX 1080 Ti, 6.1, 570.86.15\n", &g, &drv) == 0,
       "an nvidia-smi line");
    OK(g.name && strcmp(g.name, "NVIDIA GeForce GTX 1080 Ti") == 0 && strcmp(g.code, "6.1") == 0 &&
           drv && strcmp(drv, "570.86.15") == 0,
       "name, compute capability and driver");
    free(g.name);
    free(drv);
    static const char *const bad[] = {
        "NVIDIA A100, [N/A], 470.82.01", /* an old driver prints no compute_cap */
        "NVIDIA A100, 8.0",
        "garbage",
        ", 8.0, 570.86.15",
        "NVIDIA A100, 8.0, x",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        drv = NULL;
        OK(hostgpu_smi_line(bad[i], &g, &drv) < 0 && drv == NULL, "refused: %s", bad[i]);
    }
}

static void overrides(void)
{
    struct hostgpu_info in;
    memset(&in, 0, sizeof in);
    struct wa_error err = {0};
    OK(hostgpu_override(&in, "GTX 1080 Ti, 6.1 ,gfx90a", "WHEELARCH_GPUS", &err) == 0, "a list");
    INT_EQ(in.ngpus, 3, "three entries");
    if (in.ngpus == 3)
        OK(strcmp(in.gpus[0].name, "GTX 1080 Ti") == 0 && strcmp(in.gpus[1].name, "6.1") == 0 &&
               in.gpus[2].vendor == HOSTGPU_AMD,
           "kept as written, trimmed; gfx is AMD");
    OK(hostgpu_override(&in, "6.1,", "WHEELARCH_GPUS", &err) == WA_ERR_USAGE &&
           strstr(err.msg, "WHEELARCH_GPUS"),
       "a trailing comma is an empty entry: %s", err.msg);
    hostgpu_free(&in);
}

static void record_paths(void)
{
    static const char *const cases[][2] = {
        {"torch/lib/libtorch_cuda.so,sha256=abc,123\n", "torch/lib/libtorch_cuda.so"},
        {"\"odd,name.so\",sha256=abc,1", "odd,name.so"},
        {"\"say \"\"hi\"\".so\",,", "say \"hi\".so"},
        {"\"unclosed.so,,", NULL},
        {"\"\"o,s./x.so,,", NULL}, /* an empty quoted field, then bytes */
        {"\"a.so\"x,,", NULL},     /* bytes after the closing quote */
        {",sha256=x,1", NULL},
        {"", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *p = doctor_record_path(cases[i][0]);
        OK(cases[i][1] ? p && strcmp(p, cases[i][1]) == 0 : p == NULL, "RECORD line %zu: %s", i,
           p ? p : "(none)");
        free(p);
    }
}

int main(void)
{
    record_paths();
    gfx_names();
    proc_driver();
    smi_lines();
    overrides();
    return harness_done();
}
