/*
 * cli_update: `wheelarch update` — the main job: crawl, then build.
 *
 * The site is built whatever the crawl managed: from the records already
 * in the database and the declared rows, when an index is unreachable.
 * Exit status: 0 when both went well; 3 when the crawl was incomplete (an
 * index unreachable, a wheel failed) or records were unreadable but the
 * site was built; 6 when no index answered, in up to --outages-allowed runs
 * in a row (default 2: a hiccup), 7 in more runs in a row than that (an
 * outage; the site is still built in both); 2 for bad arguments or
 * configuration (nothing done); 1 when the build failed (the previous site
 * is left as it was).  The crawl step counts the runs in a row with no
 * answer in DIR/outages (DIR: the database folder).  --json prints one
 * summary line at the end: the crawl's counts, the build's exit status and
 * the update's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

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
    json_t *summary = NULL;
    int want_json = cli_get(cmd, a, "json") != NULL;
    int crawled = cli_crawl_run(cmd, a, 0, want_json ? &summary : NULL);
    if (crawled == WA_EXIT_USAGE || crawled == CLI_STEP_BUSY) {
        if (summary) { /* busy: the one line says so */
            json_t *o = json_object_get(summary, "summary");
            json_object_set_new(o, "command", json_string("update"));
            json_object_set_new(o, "crawl_exit", json_integer(WA_EXIT_FAILURE));
            json_object_set_new(o, "build_exit", json_null());
            cli_print_summary(summary);
        }
        json_decref(summary);
        return crawled;
    }
    if (crawled != WA_EXIT_OK)
        cli_warn("the crawl was incomplete; building the site from what the database holds");
    int built = cli_build_step(cmd, a);
    int rc;
    if (built == WA_EXIT_USAGE || built == WA_EXIT_FAILURE || built == CLI_STEP_BUSY)
        rc = built;
    else if (crawled == WA_EXIT_OUTAGE || crawled == WA_EXIT_UNREACHED)
        rc = crawled;
    else
        rc = crawled != WA_EXIT_OK || built != WA_EXIT_OK ? WA_EXIT_PARTIAL : WA_EXIT_OK;
    if (summary) {
        json_t *o = json_object_get(summary, "summary");
        json_object_set_new(o, "command", json_string("update"));
        json_object_set_new(o, "crawl_exit", json_integer(crawled));
        json_object_set_new(o, "build_exit",
                            json_integer(built == CLI_STEP_BUSY ? WA_EXIT_FAILURE : built));
        json_object_set_new(o, "exit", json_integer(rc == CLI_STEP_BUSY ? WA_EXIT_FAILURE : rc));
        json_object_set_new(o, "status", json_string(cli_status_word(rc)));
        cli_print_summary(summary);
        json_decref(summary);
    }
    return rc;
}

int cli_update(int argc, char **argv)
{
    return cli_run_step("update", argc, argv, update_step);
}
