/*
 * cli_update: `wheelarch update` — the main job: crawl, then build.
 *
 * The site is built whatever the crawl managed: from the records already
 * in the database and the declared rows, when an index is unreachable.
 * Exit status: 0 when both went well; 3 when the crawl was incomplete (an
 * index unreachable, a wheel failed) or records were unreadable but the
 * site was built; 2 for bad arguments or configuration (nothing done);
 * 1 when the build failed (the previous site is left as it was).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

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
    int crawled = cli_crawl_step(cmd, a);
    if (crawled == WA_EXIT_USAGE || crawled == CLI_STEP_BUSY)
        return crawled;
    if (crawled != WA_EXIT_OK)
        cli_warn("the crawl was incomplete; building the site from what the database holds");
    int built = cli_build_step(cmd, a);
    if (built == WA_EXIT_USAGE || built == WA_EXIT_FAILURE || built == CLI_STEP_BUSY)
        return built;
    return crawled != WA_EXIT_OK || built != WA_EXIT_OK ? WA_EXIT_PARTIAL : WA_EXIT_OK;
}

int cli_update(int argc, char **argv)
{
    return cli_run_step("update", argc, argv, update_step);
}
