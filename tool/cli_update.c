/*
 * cli_update: `wheelarch update` — the main job: crawl, then build.
 *
 * The site is built whatever the crawl managed: from the records already
 * in the database and the declared rows, when an index is unreachable.
 * Exit status: 0 when both went well; 3 when the crawl was incomplete (an
 * index unreachable, a wheel failed) or records were unreadable but the
 * site was built; 7 when no index answered in more runs in a row than
 * --outages-allowed (default 2; the site is still built); 2 for bad
 * arguments or configuration (nothing done); 1 when the build failed (the
 * previous site is left as it was).  The runs in a row with no answer are
 * counted in DIR/outages (DIR: the database folder), removed by the first
 * run an index answers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fsutil.h"
#include "xalloc.h"

/* The outage count: runs in a row in which no index answered, kept in
 * the database folder; the new count (the file written atomically), or 0
 * after a run that reached an index (the file removed). */
static long count_outage(const char *cache, int outage)
{
    char *path = fsutil_join(cache, "outages");
    long n = 0;
    if (outage) {
        char *text = NULL;
        size_t len = 0;
        struct wa_error err;
        if (fsutil_read(path, 64, &text, &len, NULL, &err) == 0 && text) {
            char *end;
            n = strtol(text, &end, 10);
            if (n < 0 || n > 1000000)
                n = 0;
        }
        free(text);
        n++;
        char buf[32];
        int k = snprintf(buf, sizeof buf, "%ld\n", n);
        if (fsutil_write_atomic(path, buf, (size_t)k, 0, &err) < 0)
            cli_warn("%s", err.msg);
    } else {
        remove(path);
    }
    free(path);
    return n;
}

static int update_step(const struct cli_command *cmd, const struct cli_args *a)
{
    const char *base = cli_get(cmd, a, "base-url");
    if (base && strncmp(base, "https://", 8) != 0 && strncmp(base, "http://", 7) != 0)
        return cli_usage_error(cmd, "--base-url wants an http or https URL");
    /* Checked before the crawl, so a bad --out touches nothing. */
    int usage =
        cli_check_out_dir(cmd, cli_get(cmd, a, "cache") ? cli_get(cmd, a, "cache") : "cache",
                          cli_get(cmd, a, "out") ? cli_get(cmd, a, "out") : "site");
    if (usage)
        return usage;
    long allowed = 2;
    const char *oa = cli_get(cmd, a, "outages-allowed");
    if (oa) {
        char *end;
        allowed = strtol(oa, &end, 10);
        if (!*oa || *end || allowed < 0 || allowed > 10000)
            return cli_usage_error(cmd, "--outages-allowed wants a number of runs, 0 to 10000");
    }
    int crawled = cli_crawl_step(cmd, a);
    if (crawled == WA_EXIT_USAGE || crawled == CLI_STEP_BUSY)
        return crawled;
    const char *cache = cli_get(cmd, a, "cache") ? cli_get(cmd, a, "cache") : "cache";
    int outage = crawled == CLI_STEP_OUTAGE;
    long outages = count_outage(cache, outage);
    if (outage) {
        crawled = WA_EXIT_FAILURE;
        cli_warn("no index answered: %ld run%s in a row (exit 7 after %ld; --outages-allowed)",
                 outages, outages == 1 ? "" : "s", allowed);
    }
    if (crawled != WA_EXIT_OK)
        cli_warn("the crawl was incomplete; building the site from what the database holds");
    int built = cli_build_step(cmd, a);
    if (built == WA_EXIT_USAGE || built == WA_EXIT_FAILURE || built == CLI_STEP_BUSY)
        return built;
    if (outage && outages > allowed)
        return WA_EXIT_OUTAGE;
    return crawled != WA_EXIT_OK || built != WA_EXIT_OK ? WA_EXIT_PARTIAL : WA_EXIT_OK;
}

int cli_update(int argc, char **argv)
{
    return cli_run_step("update", argc, argv, update_step);
}
