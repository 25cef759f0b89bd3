/*
 * Property tests of the stack check (stack.h): torch and its companions on
 * one GPU, over every kind of GPU in the data, three platforms and a
 * spread of drivers, on the records of tests/fixtures/site-db.  Each
 * invariant is a sentence a person acts on:
 *   - torch comes first;
 *   - two builds of one family of indexes from different variants (built
 *     against different CUDA versions) are never left unsaid: a note;
 *   - "install them together from that index" names a variant in which
 *     both have native code for the GPU, the newest CUDA among such, with
 *     a command that installs both pins from that index;
 *   - no note without a reason: nothing is said when both come from one
 *     index and the companion asks for no other torch.
 *
 * The records: tests/fixtures/site-db (real crawl records of torch and
 * torchvision), and tests/fixtures/stack-companions.jsonl: two of them
 * cloned as xformers 0.0.33 (variant, index and URL made to agree) from
 * cu126 and cu130 (code for sm_75 ... sm_120) and cu132 (sm_100 and newer
 * only), so that a companion's best build and torch's differ, and on most
 * GPUs two variants suit both: "the newest CUDA among such" is decided
 * (a stack that took the oldest fails here).
 *
 * usage: test_stack DATA_DIR SITE_DB COMPANIONS_JSONL WORK_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "dbmerge.h"
#include "dbview.h"
#include "dotver.h"
#include "fsutil.h"
#include "fixturedb.h"
#include "harness.h"
#include "invariants.h"
#include "query.h"
#include "stack.h"
#include "tables.h"

static struct tables T;
static struct dbview V;

enum {
    S_TORCH_FIRST,      /* torch is the first entry */
    S_MISMATCH_SAID,    /* one family, two variants: a note */
    S_TOGETHER_NATIVE,  /* the shared variant has native code for both */
    S_TOGETHER_NEWEST,  /* ... and is the newest CUDA among such */
    S_TOGETHER_COMMAND, /* its command installs both pins from that index */
    S_NOTE_HAS_REASON,  /* a note only where the two differ or a pin asks */
    S_COUNT
};
static const char *const names[S_COUNT] = {
    "torch comes first",
    "a companion from another variant of torch's family of indexes is said not to go with it",
    "'install them together' names a variant with native code for both",
    "... the newest CUDA among such variants",
    "... with one command that installs both pins from that index",
    "a note only where the builds differ or the companion pins another torch",
};
static long fails[S_COUNT], checks[S_COUNT];
static struct invariants inv = {names, checks, fails, S_COUNT};

static void check(int i, int ok, const char *what)
{
    invariants_check(&inv, i, ok, what);
}

static int native(const struct answer_result *a, const char *variant)
{
    const struct answer_row *r = answer_row_of(a, variant);
    return r && r->v.res.verdict == COMPAT_NATIVE;
}

/* Whether two index URLs are of one family (".../whl/" of ".../whl/cu128"). */
static int same_family(const char *a, const char *b)
{
    const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
    return sa && sb && sa - a == sb - b && strncmp(a, b, (size_t)(sa - a)) == 0;
}

static void one_stack(const struct query_options *o, const char *const *projects, size_t np,
                      const char *label)
{
    struct stack_result *s = stack_answer_projects(&V, o, projects, np);
    char what[512];
    int has_torch = 0;
    for (size_t i = 0; i < s->n; i++)
        has_torch |= strcmp(s->entries[i].res->project, "torch") == 0;
    if (has_torch) {
        snprintf(what, sizeof what, "%s: first is %s", label, s->entries[0].res->project);
        check(S_TORCH_FIRST, strcmp(s->entries[0].res->project, "torch") == 0, what);
    }
    const struct answer_result *torch = has_torch ? s->entries[0].res : NULL;
    const struct answer_install *ta = torch ? answer_runs(torch) : NULL;
    for (size_t i = 1; torch && i < s->n; i++) {
        const struct stack_entry *e = &s->entries[i];
        const struct answer_install *ca = answer_runs(e->res);
        snprintf(what, sizeof what, "%s: %s %s (%s) with torch %s (%s): note \"%.200s\"", label,
                 e->res->project, e->res->version, ca ? ca->row->variant : "-", torch->version,
                 ta ? ta->row->variant : "-", e->note ? e->note : "");
        int family = ta && ca && same_family(ta->index_url, ca->index_url);
        if (family && strcmp(ta->row->variant, ca->row->variant) != 0)
            check(S_MISMATCH_SAID, e->note != NULL, what);
        if (e->note)
            check(S_NOTE_HAS_REASON,
                  ta && ca &&
                      (strcmp(ta->row->variant, ca->row->variant) != 0 ||
                       strstr(e->note, "requires torch") != NULL),
                  what);
        if (!e->has_together)
            continue;
        const struct stack_together *t = &e->together;
        /* with the torch the companion pins when it is another release;
         * then torch's own answer does not show that torch's rows */
        char *pin_release = dotver_release(t->torch_pin);
        int own_torch = strcmp(pin_release, torch->version) == 0 ||
                        (strlen(t->torch_pin) > 2 &&
                         strncmp(t->torch_pin, torch->version, strlen(torch->version)) == 0);
        free(pin_release);
        check(S_TOGETHER_NATIVE,
              native(e->res, t->index) && (!own_torch || native(torch, t->index)), what);
        if (own_torch) {
            struct dotver best, c;
            tables_variant_cuda(t->index, &best);
            int newest = 1;
            for (size_t k = 0; k < e->res->nrows; k++) {
                const char *id = e->res->rows[k].row->variant;
                if (native(e->res, id) && native(torch, id) && tables_variant_cuda(id, &c) == 0 &&
                    dotver_cmp(&c, &best) > 0)
                    newest = 0;
            }
            check(S_TOGETHER_NEWEST, newest, what);
        }
        /* pip install torch==P PROJ==Q --index-url URL, as its argv */
        char want_torch[96], want_comp[160];
        snprintf(want_torch, sizeof want_torch, "torch==%s", t->torch_pin);
        snprintf(want_comp, sizeof want_comp, "%s==%s", e->res->project, t->pin);
        char *const *argv = NULL;
        size_t argc = 0;
        const struct shellcmd *pip = &t->commands.install.pip;
        if (shellcmd_steps(pip) == 1)
            shellcmd_step(pip, 0, &argv, &argc);
        size_t ul = strlen(t->index_url), il = strlen(t->index);
        check(S_TOGETHER_COMMAND,
              t->commands.install.pip_line && argc == 6 && strcmp(argv[0], "pip") == 0 &&
                  strcmp(argv[1], "install") == 0 && strcmp(argv[2], want_torch) == 0 &&
                  strcmp(argv[3], want_comp) == 0 && strcmp(argv[4], "--index-url") == 0 &&
                  strcmp(argv[5], t->index_url) == 0 && ul >= il &&
                  strcmp(t->index_url + ul - il, t->index) == 0 && e->note &&
                  strstr(e->note, t->index),
              what);
    }
    stack_free(s);
}

int main(int argc, char **argv)
{
    struct wa_error err;
    if (argc < 5) {
        fprintf(stderr, "usage: test_stack DATA_DIR SITE_DB COMPANIONS_JSONL WORK_DIR\n");
        return 2;
    }
    if (tables_load(argv[1], &T, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    char *cache = fixturedb_make(argv[4], (const char *const[]){argv[2], argv[3]}, 2);
    if (!cache)
        return 2;
    if (dbview_build(cache, &T, 0, &V, &err) < 0) {
        fprintf(stderr, "view: %s\n", err.msg);
        return 2;
    }
    struct query_order *order = query_order_new(&V);
    size_t np;
    const char **projects = stack_projects(&V, 0, &np);
    OK(np >= 3, "torch, torchvision and xformers (%zu projects)", np);
    static const char *const drivers[] = {NULL, "535.104.05", "570.26", "580.65.06"};
    static const char *const platforms[] = {"linux-x86_64", "linux-aarch64", "windows-x86_64",
                                            "windows-arm64"};
    size_t asked = 0;
    for (size_t g = 0; g < T.ngpus; g++) {
        const struct gpu *gp = &T.gpus[g];
        if (invariants_gpu_seen(&T, g))
            continue;
        for (size_t p = 0; p < sizeof platforms / sizeof platforms[0]; p++)
            for (size_t d = 0; d < sizeof drivers / sizeof *drivers; d++) {
                if (gp->amd && d > 0)
                    break;
                struct query_options o;
                memset(&o, 0, sizeof o);
                o.gpu = gp;
                o.cc = gp->cc;
                o.arm_host = gp->arm_host;
                o.project = "torch";
                o.platform = platforms[p];
                o.order = order;
                if (drivers[d]) {
                    dotver_parse(drivers[d], &o.driver);
                    o.has_driver = 1;
                    o.driver_text = drivers[d];
                }
                char label[256];
                snprintf(label, sizeof label, "%s on %s, driver %s", gp->name, platforms[p],
                         drivers[d] ? drivers[d] : "none");
                one_stack(&o, projects, np, label);
                asked++;
            }
    }
    printf("%zu stacks asked of %zu projects\n", asked, np);
    invariants_done(&inv);
    free(projects);
    query_order_free(order);
    dbview_free(&V);
    tables_free(&T);
    free(cache);
    return harness_done();
}
