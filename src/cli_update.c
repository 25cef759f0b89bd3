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

int cli_update(int argc, char **argv)
{
    const struct cli_command *cmd = cli_find_command("update");
    struct cli_args a;
    int rc = WA_EXIT_USAGE;
    if (cli_parse(cmd, argc, argv, &a) != 0)
        return rc;
    if (a.help) {
        cli_print_help(stdout, cmd);
        rc = WA_EXIT_OK;
        goto out;
    }
    if (a.nrest > 0) {
        rc = cli_usage_error(cmd, "unexpected argument '%s'", a.rest[0]);
        goto out;
    }
    const char *base = cli_get(cmd, &a, "base-url");
    if (base && strncmp(base, "https://", 8) != 0 && strncmp(base, "http://", 7) != 0) {
        rc = cli_usage_error(cmd, "--base-url wants an http or https URL");
        goto out;
    }
    int crawled = cli_crawl_step(cmd, &a);
    if (crawled == WA_EXIT_USAGE) {
        rc = crawled;
        goto out;
    }
    if (crawled != WA_EXIT_OK)
        cli_warn("the crawl was incomplete; building the site from what the database holds");
    int built = cli_build_step(cmd, &a);
    if (built == WA_EXIT_USAGE || built == WA_EXIT_FAILURE)
        rc = built;
    else if (crawled != WA_EXIT_OK || built != WA_EXIT_OK)
        rc = WA_EXIT_PARTIAL;
    else
        rc = WA_EXIT_OK;
out:
    cli_args_free(&a);
    return rc;
}
