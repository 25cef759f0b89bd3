/*
 * main: the wheelarch command line.  Dispatches to one command; see
 * cli_table.c for the commands and their options.
 */
#include <cmark-gfm.h>
#include <curl/curl.h>
#include <jansson.h>
#include <lz4.h>
#include <openssl/crypto.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "cli.h"
#include "db.h"
#include "sitedata.h"
#include "version.h"

static void print_version(void)
{
    printf("wheelarch %s (feed api-version %s)\n", WHEELARCH_VERSION, SITE_API_VERSION);
    printf("libraries: %s, sqlite %s, jansson %s, cmark-gfm %s, zstd %s, lz4 %s, %s, isa-l\n",
           curl_version(), sqlite3_libversion(), jansson_version_str(), cmark_version_string(),
           ZSTD_versionString(), LZ4_versionString(), OpenSSL_version(OPENSSL_VERSION));
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error(NULL, "no command given");
    const char *name = argv[1];
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0 || strcmp(name, "version") == 0) {
        print_version();
        return WA_EXIT_OK;
    }
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        cli_print_help(stdout, NULL);
        return WA_EXIT_OK;
    }
    if (strcmp(name, "help") == 0) {
        if (argc > 2 && strcmp(argv[2], "--markdown") == 0) {
            cli_print_markdown(stdout);
            return WA_EXIT_OK;
        }
        if (argc > 2 && strcmp(argv[2], "--man") == 0) {
            cli_print_man(stdout, WHEELARCH_VERSION);
            return WA_EXIT_OK;
        }
        const struct cli_command *c = argc > 2 ? cli_find_command(argv[2]) : NULL;
        if (argc > 2 && !c)
            return cli_usage_error(NULL, "unknown command '%s'", argv[2]);
        cli_print_help(stdout, c);
        return WA_EXIT_OK;
    }
    /* what the core takes from the environment, passed in once */
    db_set_temp_root(getenv("TMPDIR"));
    const struct cli_command *cmd = cli_find_command(name);
    if (!cmd)
        return cli_usage_error(NULL, "unknown command '%s'", name);
    return cmd->run(argc - 1, argv + 1);
}
