/*
 * cli_scan: `wheelarch scan [--json] INPUT...`
 */
#include <jansson.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "http.h"
#include "scan.h"
#include "wheelfetch.h"
#include "scanreport.h"
#include "strbuf.h"

static int is_url(const char *s)
{
    return strncmp(s, "http://", 7) == 0 || strncmp(s, "https://", 8) == 0;
}

/* A wheel URL: read by range where the server allows it. */
static struct scan_result *scan_url(const char *url, const struct http_options *ho)
{
    struct scan_result *r = scan_result_new(url);
    size_t end = strcspn(url, "?#");
    size_t start = end;
    while (start > 0 && url[start - 1] != '/')
        start--;
    char name[1024];
    snprintf(name, sizeof name, "%.*s", (int)(end - start), url + start);
    scan_result_set_name(r, name);
    struct http_client *c = http_client_new(ho);
    http_client_on_retry(c, cli_print_retry, NULL);
    struct wheelfetch_stats st;
    struct wa_error err;
    wheelfetch_scan(c, url, NULL, r, &st, NULL, NULL, &err);
    http_client_free(c);
    return r;
}

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
    struct http_options ho;
    http_options_default(&ho);
    ho.proxied = http_proxy_from_env(environ); /* libcurl reads the same variables */
    const char *timeout = cli_get(cmd, &a, "timeout");
    if (timeout) {
        double t;
        if (cli_number(cmd, "timeout", timeout, 0.001, 3600, 0, &t) != 0) {
            cli_args_free(&a);
            return WA_EXIT_USAGE;
        }
        ho.stall_timeout_ms = ho.connect_timeout_ms = (long)(t * 1000);
    }
    int failed = 0;
    for (int i = 0; i < a.nrest; i++) {
        struct scan_result *r = is_url(a.rest[i]) ? scan_url(a.rest[i], &ho) : scan_file(a.rest[i]);
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
