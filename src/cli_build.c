/*
 * cli_build: `wheelarch build` — render the database into a static site.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "paths.h"
#include "site.h"

int cli_build_step(const struct cli_command *cmd, const struct cli_args *a)
{
    const char *base = cli_get(cmd, a, "base-url");
    if (base && strncmp(base, "https://", 8) != 0 && strncmp(base, "http://", 7) != 0)
        return cli_usage_error(cmd, "--base-url wants an http or https URL");
    struct site_options o = {0};
    o.cache_dir = cli_get(cmd, a, "cache") ? cli_get(cmd, a, "cache") : "cache";
    o.out_dir = cli_get(cmd, a, "out") ? cli_get(cmd, a, "out") : "site";
    o.base_url = base;
    o.templates_dir = paths_templates_dir();
    o.data_dir = paths_data_dir();
    struct site_stats st;
    struct wa_error err;
    if (site_build(&o, &st, &err) < 0) {
        cli_warn("%s", err.msg);
        return WA_EXIT_FAILURE;
    }
    if (st.bad_records)
        cli_warn("%s: %zu unreadable records skipped", o.cache_dir, st.bad_records);
    if (!cli_get(cmd, a, "quiet"))
        fprintf(stderr,
                "wheelarch: %s: %zu pages from %zu records; %zu files: %zu written, %zu "
                "unchanged, %zu removed%s\n",
                o.out_dir, st.pages, st.records, st.out.files, st.out.written, st.out.unchanged,
                st.out.removed, st.out.swapped ? "" : " (nothing changed)");
    return st.bad_records ? WA_EXIT_PARTIAL : WA_EXIT_OK;
}

int cli_build(int argc, char **argv)
{
    return cli_run_step("build", argc, argv, cli_build_step);
}
