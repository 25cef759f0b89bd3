/*
 * cli_build: `wheelarch build` — render the database into a static site.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "datatable.h"
#include "cli.h"
#include "dbview.h"
#include "lockfile.h"
#include "paths.h"
#include "site.h"
#include "strbuf.h"
#include "strmap.h"
#include "xalloc.h"
/* WHEELARCH_TIMING=1: how long each phase of the build took and the memory
 * resident after it, on stderr (bench/build.sh reads these lines). */
static void print_phase(void *ud, const char *name)
{
    struct timespec *last = ud, now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long rss = 0; /* pages resident now, from /proc/self/statm (Linux) */
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%*s %ld", &rss) != 1)
            rss = 0;
        fclose(f);
    }
    if (name && last->tv_sec)
        fprintf(stderr, "wheelarch: build phase %-10s %.3f s, resident %ld MB\n", name,
                (double)(now.tv_sec - last->tv_sec) + (double)(now.tv_nsec - last->tv_nsec) / 1e9,
                rss * (sysconf(_SC_PAGESIZE) / 1024) / 1024);
    *last = now;
}

/* WHEELARCH_TEMPLATE_NAMES=FILE: every (template, name) the build's
 * templates looked up, and whether some page's data had it, written to
 * FILE as "template<TAB>name<TAB>1|0" lines, sorted (tests hold every
 * {{name}} of the templates to the data: tests/site/test_site.py). */
struct names_seen {
    pthread_mutex_t mu;
    struct strmap *index; /* "template\tname" -> place in keys */
    char **keys;
    int *found;
    size_t n, cap, capf;
};

static void note_name(void *ud, const char *tmpl, const char *name, int found)
{
    struct names_seen *s = ud;
    struct strbuf k = STRBUF_INIT;
    strbuf_set_joined(&k, '\t', tmpl, name, (const char *)NULL);
    pthread_mutex_lock(&s->mu);
    size_t at;
    if (!strmap_get(s->index, strbuf_str(&k), &at)) {
        at = s->n++;
        s->keys = xgrow(s->keys, &s->cap, s->n, sizeof *s->keys);
        s->found = xgrow(s->found, &s->capf, s->n, sizeof *s->found);
        s->keys[at] = strbuf_detach(&k, NULL);
        s->found[at] = 0;
        strmap_put(s->index, s->keys[at], at);
    }
    s->found[at] |= found;
    pthread_mutex_unlock(&s->mu);
    strbuf_free(&k);
}

static int by_key(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names_write(struct names_seen *s, const char *path)
{
    char **lines = xmalloc((s->n + 1) * sizeof *lines);
    for (size_t i = 0; i < s->n; i++)
        lines[i] = xasprintf("%s\t%d", s->keys[i], s->found[i]);
    qsort(lines, s->n, sizeof *lines, by_key);
    FILE *f = fopen(path, "w");
    for (size_t i = 0; i < s->n; i++) {
        if (f)
            fprintf(f, "%s\n", lines[i]);
        free(lines[i]);
    }
    if (!f || fclose(f) != 0)
        cli_warn("WHEELARCH_TEMPLATE_NAMES: cannot write %s", path);
    free(lines);
    for (size_t i = 0; i < s->n; i++)
        free(s->keys[i]);
    free(s->keys);
    free(s->found);
    strmap_free(s->index);
    pthread_mutex_destroy(&s->mu);
}

int cli_build_step(const struct cli_command *cmd, const struct cli_args *a)
{
    const char *base = cli_get(cmd, a, "base-url");
    if (base && strncmp(base, "https://", 8) != 0 && strncmp(base, "http://", 7) != 0)
        return cli_usage_error(cmd, "--base-url wants an http or https URL");
    struct site_options o = {0};
    o.nightlies = SITE_NIGHTLIES;
    const char *nightlies = cli_get(cmd, a, "nightlies");
    if (nightlies && strcmp(nightlies, "all") == 0) {
        o.nightlies = -1;
    } else if (nightlies) {
        double n;
        if (cli_number(cmd, "nightlies", nightlies, 0, 1000000, 1, &n) != 0)
            return WA_EXIT_USAGE; /* "all" is the other value */
        o.nightlies = (int)n;
    }
    o.cache_dir = cli_get(cmd, a, "cache") ? cli_get(cmd, a, "cache") : "cache";
    o.out_dir = cli_get(cmd, a, "out") ? cli_get(cmd, a, "out") : "site";
    o.base_url = base;
    o.simple_json = cli_get_opt(cmd, a, "simple-json") != 0;
    o.templates_dir = paths_templates_dir();
    o.data_dir = paths_data_dir();
    char today[16];
    const char *day = cli_get(cmd, a, "today");
    if (day && !datatable_is_date(day))
        return cli_usage_error(cmd, "--today wants a date written YYYY-MM-DD");
    if (!day)
        day = cli_today(today, 1);
    o.today = day;
    struct timespec last = {0};
    if (getenv("WHEELARCH_TIMING")) {
        o.on_phase = print_phase;
        o.phase_ud = &last;
    }
    int usage = cli_check_out_dir(cmd, o.cache_dir, o.out_dir);
    if (usage)
        return usage;
    /* One build of a folder at a time: two would share DIR.tmp and each
     * one's cleanup would delete the other's tree. */
    struct lockfile *lock;
    struct wa_error err;
    if (lockfile_acquire(o.out_dir, !cli_get_opt(cmd, a, "no-wait"), cli_print_waiting, NULL, &lock,
                         &err) < 0) {
        cli_warn("%s", err.msg);
        return err.code == WA_ERR_BUSY    ? CLI_STEP_BUSY
               : err.code == WA_ERR_USAGE ? WA_EXIT_USAGE
                                          : WA_EXIT_FAILURE;
    }
    const char *names_file = getenv("WHEELARCH_TEMPLATE_NAMES");
    struct names_seen names = {.mu = PTHREAD_MUTEX_INITIALIZER};
    if (names_file && names_file[0]) {
        names.index = strmap_new();
        o.on_lookup = note_name;
        o.lookup_ud = &names;
    }
    struct site_stats st;
    int built = site_build(&o, &st, &err);
    lockfile_release(lock);
    if (names.index)
        names_write(&names, names_file);
    if (built < 0) {
        site_stats_free(&st);
        cli_warn("%s", err.msg);
        /* an output folder that is not wheelarch's: refused, untouched */
        return built == WA_ERR_USAGE ? WA_EXIT_USAGE : WA_EXIT_FAILURE;
    }
    /* One line per record left out, naming its file (quoted by dbview),
     * up to the quota and then a count. */
    struct cli_quota q = {0, 0};
    for (size_t i = 0; i < st.nskipped; i++)
        cli_warn_quota(&q, "%s: %s%s", st.skipped[i].file, st.skipped[i].reason,
                       /* a page left out (two records wanting one path) vs a record */
                       strncmp(st.skipped[i].file, o.out_dir, strlen(o.out_dir)) == 0
                           ? ""
                           : "; record skipped");
    cli_quota_end(&q, "left out");
    if (!cli_get(cmd, a, "quiet"))
        cli_warn("%s: %zu pages from %zu records; %zu files: %zu written, %zu "
                 "unchanged, %zu removed%s",
                 o.out_dir, st.pages, st.records, st.out.files, st.out.written, st.out.unchanged,
                 st.out.removed, st.out.swapped ? "" : " (nothing changed)");
    if (st.freshness[0])
        cli_warn("warning: %s", st.freshness);
    int skipped = st.nskipped > 0;
    site_stats_free(&st);
    return skipped ? WA_EXIT_PARTIAL : WA_EXIT_OK;
}

int cli_build(int argc, char **argv)
{
    return cli_run_step("build", argc, argv, cli_build_step);
}
