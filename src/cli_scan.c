/*
 * cli_scan: `wheelarch scan [--json] INPUT...`
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "scan.h"
#include "scanreport.h"
#include "strbuf.h"

int cli_scan(int argc, char **argv)
{
    const struct cli_command *cmd = cli_find_command("scan");
    struct cli_args a;
    if (cli_parse(cmd, argc, argv, &a) != 0) {
        cli_args_free(&a);
        return WA_EXIT_USAGE;
    }
    if (a.help) {
        cli_print_help(stdout, cmd);
        cli_args_free(&a);
        return WA_EXIT_OK;
    }
    if (a.nrest == 0) {
        cli_args_free(&a);
        return cli_usage_error(cmd, "no INPUT given");
    }
    int json = cli_get(cmd, &a, "json") != NULL;
    int quiet = cli_get(cmd, &a, "quiet") != NULL;
    int failed = 0;
    for (int i = 0; i < a.nrest; i++) {
        struct scan_result *r = scan_file(a.rest[i]);
        if (r->failed) {
            failed++;
            cli_warn("%s: %s", a.rest[i], r->error.msg);
        }
        if (json) {
            json_t *o = scanreport_json(r);
            char *s = json_dumps(o, JSON_COMPACT);
            printf("%s\n", s);
            free(s);
            json_decref(o);
        } else if (!r->failed && !(quiet && !scan_result_has_gpu_code(r))) {
            struct strbuf sb = STRBUF_INIT;
            scanreport_text(r, &sb);
            fputs(strbuf_str(&sb), stdout);
            strbuf_free(&sb);
        }
        fflush(stdout);
        scan_result_free(r);
    }
    int n = a.nrest;
    cli_args_free(&a);
    if (failed == 0)
        return WA_EXIT_OK;
    return failed == n ? WA_EXIT_FAILURE : WA_EXIT_PARTIAL;
}
