/*
 * explain: paste the error, get the answer.  Reads the text (operands or
 * standard input) with explain_parse, says what it read and what each
 * message means, judges the installed build against the arch list a
 * warning prints, then answers as `query` does for the GPU and driver the
 * text names (docs/explain.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "cli_machine.h"
#include "compat.h"
#include "explain.h"
#include "gpuname.h"
#include "strbuf.h"
#include "tables.h"
#include "target.h"
/* What each message means, in one sentence a person can act on. */
static const struct {
    unsigned bit;
    const char *means;
} meanings[] = {
    {EXPLAIN_NOT_COMPATIBLE,
     "torch's own check: the installed build has no SASS for this GPU's major version (the list "
     "it prints is what it has)"},
    {EXPLAIN_TOO_OLD,
     "torch's own check: the GPU's compute capability is below the lowest the installed build "
     "was compiled for"},
    {EXPLAIN_CC_TABLE,
     "torch's own check (2.11 on): the installed build's code does not cover this GPU; the list "
     "is the capabilities it was built for"},
    {EXPLAIN_NO_KERNEL,
     "a kernel was launched that has no code for this GPU: the installed build (or a library it "
     "loads) was not compiled for its compute capability"},
    {EXPLAIN_PTX_TOOLCHAIN,
     "the only code for this GPU is PTX newer than the driver can compile: update the NVIDIA "
     "driver, or install a build with SASS for the GPU"},
    {EXPLAIN_DRIVER_INSUFFICIENT,
     "the installed build's CUDA needs a newer NVIDIA driver than the one loaded: update the "
     "driver, or install a build of an older CUDA"},
    {EXPLAIN_NO_CUDA,
     "the installed torch is a CPU-only build (plain pip install torch on Windows, or the cpu "
     "index): install a CUDA build for the GPU (the answer below names its index; without a GPU in "
     "the text, paste nvidia-smi's output too)"},
    {EXPLAIN_INVALID_DEVICE_FUNCTION,
     "a kernel has no code object for this GPU's processor (ROCm), or no code for it at all "
     "(CUDA)"},
    {EXPLAIN_HSA_OVERRIDE,
     "HSA_OVERRIDE_GFX_VERSION makes ROCm load code built for another processor: it works only "
     "when that processor's code happens to run on yours, and is unsupported"},
};

static char *read_all_stdin(size_t *n)
{
    struct strbuf b = STRBUF_INIT;
    char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, stdin)) > 0 && b.len < (8u << 20))
        strbuf_add(&b, buf, k);
    return strbuf_detach(&b, n);
}

/* The installed build the warning describes, judged for the GPU. */
static int judge_installed(const struct tables *t, const struct explain_facts *f,
                           struct compat_result *res)
{
    if (!f->narch || !f->cc || f->cc >= TABLES_AMD_MIN)
        return 0;
    struct target tg[EXPLAIN_ARCH_MAX];
    size_t n = 0;
    for (size_t i = 0; i < f->narch; i++)
        if (target_parse(f->arch[i], &tg[n]) == 0)
            n++;
    if (!n)
        return 0;
    struct compat_code code = {0};
    compat_code_add_set(&code, tg, n, 1);
    struct compat_query q = {0};
    q.cc = f->cc;
    q.os = TABLES_LINUX;
    struct dotver cuda = {0};
    const char *plus = strchr(f->torch, '+');
    if (plus)
        tables_variant_cuda(plus + 1, &cuda);
    compat_judge(t, &q, &code, &cuda, res);
    compat_code_free(&code);
    return 1;
}

int cli_explain(int argc, char **argv)
{
    const struct cli_command *cmd = cli_find_command("explain");
    struct cli_args a;
    if (cli_parse(cmd, argc, argv, &a) != 0)
        return WA_EXIT_USAGE;
    if (a.help) {
        cli_print_help(stdout, cmd);
        cli_args_free(&a);
        return WA_EXIT_OK;
    }
    size_t n = 0;
    char *text;
    if (a.nrest == 0 || (a.nrest == 1 && strcmp(a.rest[0], "-") == 0)) {
        text = read_all_stdin(&n);
    } else {
        struct strbuf b = STRBUF_INIT;
        for (int i = 0; i < a.nrest; i++)
            strbuf_addf(&b, "%s%s", i ? " " : "", a.rest[i]);
        text = strbuf_detach(&b, &n);
    }
    struct explain_facts f;
    explain_parse(text, n, &f);
    free(text);
    int rc = WA_EXIT_USAGE;
    struct tables t;
    memset(&t, 0, sizeof t);
    if (machine_load_tables(&t) != 0)
        goto out;
    /* the GPU: its name where the table holds it, else the device code */
    const struct gpu *gpu = NULL;
    if (f.gpu_name[0]) {
        struct gpuname_result r;
        gpuname_resolve(&t, f.csv_line[0] ? f.csv_line : f.gpu_name, &r);
        if (r.decided && r.gpu && (!f.cc || r.cc == f.cc))
            gpu = r.gpu;
        else if (r.decided && !f.cc)
            f.cc = r.cc;
    }
    if (gpu && !f.cc)
        f.cc = gpu->cc;
    int as_json = cli_get(cmd, &a, "json") != NULL;
    if (!f.messages && !f.cc) {
        rc = cli_usage_error(cmd, "the text holds no message wheelarch knows and names no GPU: "
                                  "paste the error with torch's warning, or add the output of "
                                  "nvidia-smi --query-gpu=name,compute_cap --format=csv");
        goto out;
    }
    char ccs[16] = "";
    if (f.cc)
        compat_cc_string(f.cc, ccs, sizeof ccs);
    struct compat_result inst;
    int judged = judge_installed(&t, &f, &inst);
    if (as_json) {
        json_t *msgs = json_array();
        for (unsigned b = 1; b <= EXPLAIN_NVIDIA_SMI; b <<= 1)
            if (f.messages & b)
                json_array_append_new(msgs, json_string(explain_message_name(b)));
        json_t *arch = json_array();
        for (size_t i = 0; i < f.narch; i++)
            json_array_append_new(arch, json_string(f.arch[i]));
        json_t *o =
            json_pack("{s:o,s:s?,s:s?,s:s?,s:o,s:s?,s:s?,s:s?}", "messages", msgs, "gpu",
                      f.gpu_name[0] ? f.gpu_name : NULL, "table_gpu", gpu ? gpu->name : NULL,
                      "device", ccs[0] ? ccs : NULL, "installed_arch_list", arch, "installed_torch",
                      f.torch[0] ? f.torch : NULL, "driver", f.driver[0] ? f.driver : NULL,
                      "driver_cuda", f.cuda[0] ? f.cuda : NULL);
        json_object_set_new(o, "installed_verdict",
                            judged ? json_pack("{s:s,s:s}", "verdict",
                                               compat_verdict_name(inst.verdict), "reason",
                                               inst.reason)
                                   : json_null());
        char *s = json_dumps(o, JSON_COMPACT);
        printf("%s\n", s ? s : "{}");
        free(s);
        json_decref(o);
    } else {
        printf("read from the text:\n");
        if (f.gpu_name[0] || f.cc)
            printf("  GPU: %s%s%s%s%s\n", f.gpu_name[0] ? f.gpu_name : "",
                   f.gpu_name[0] && ccs[0] ? " (" : "",
                   ccs[0] ? (f.cc >= TABLES_AMD_MIN ? "" : "compute capability ") : "",
                   ccs[0] ? ccs : "", f.gpu_name[0] && ccs[0] ? ")" : "");
        if (f.driver[0])
            printf("  NVIDIA driver %s%s%s%s\n", f.driver, f.cuda[0] ? " (up to CUDA " : "", f.cuda,
                   f.cuda[0] ? ")" : "");
        if (f.torch[0])
            printf("  installed torch %s\n", f.torch);
        if (f.narch) {
            printf("  the installed build has:");
            for (size_t i = 0; i < f.narch; i++)
                printf(" %s", f.arch[i]);
            printf("\n");
        }
        for (size_t i = 0; i < sizeof meanings / sizeof *meanings; i++)
            if (f.messages & meanings[i].bit)
                printf("what it means: %s\n", meanings[i].means);
        if (f.min_cc) {
            char m[16];
            compat_cc_string(f.min_cc, m, sizeof m);
            printf("  (the build's lowest compute capability is %s)\n", m);
        }
        if (judged)
            printf("the installed build on this GPU: %s: %s\n", compat_verdict_label(inst.verdict),
                   inst.reason);
        if (!f.cc) {
            printf("\nthe text does not name the GPU: run nvidia-smi --query-gpu=name,compute_cap "
                   "--format=csv (AMD: rocminfo | grep gfx) and paste its output too\n");
            rc = WA_EXIT_FAILURE;
            goto out;
        }
        printf("\n");
    }
    if (!f.cc) {
        rc = WA_EXIT_FAILURE;
        goto out;
    }
    fflush(stdout);
    /* the answer: query for this GPU and driver, with the options given */
    const char *qargv[16];
    int qn = 0;
    qargv[qn++] = "query";
    if (gpu) {
        qargv[qn++] = "--gpu";
        qargv[qn++] = gpu->name;
    } else {
        qargv[qn++] = "--cc";
        qargv[qn++] = ccs;
    }
    const char *drv = cli_get(cmd, &a, "driver") ? cli_get(cmd, &a, "driver") : f.driver;
    if (drv && drv[0]) {
        qargv[qn++] = "--driver";
        qargv[qn++] = drv;
    }
    /* the Python of the machine the text came from is not this one's */
    if (!cli_get(cmd, &a, "python")) {
        qargv[qn++] = "--python";
        qargv[qn++] = "any";
    }
    static const char *const pass[] = {"python", "platform", "cache", NULL};
    for (const char *const *p = pass; *p; p++)
        if (cli_get(cmd, &a, *p)) {
            static char flag[3][16];
            size_t k = (size_t)(p - pass);
            snprintf(flag[k], sizeof flag[k], "--%s", *p);
            qargv[qn++] = flag[k];
            qargv[qn++] = cli_get(cmd, &a, *p);
        }
    if (as_json)
        qargv[qn++] = "--json";
    qargv[qn] = NULL;
    rc = cli_query(qn, (char **)qargv);
out:
    tables_free(&t);
    cli_args_free(&a);
    return rc;
}
