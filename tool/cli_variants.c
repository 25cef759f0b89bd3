/*
 * cli_variants: `wheelarch variants`, the PEP 825 properties this machine
 * supports (src/host/hostvariants.c), as a variant provider prints them.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_machine.h"
#include "dotver.h"
#include "hostvariants.h"
#include "tables.h"
#include "xalloc.h"

/* After cli_run_step has parsed the options. */
static int variants_step(const struct cli_command *cmd, const struct cli_args *a)
{
    struct tables t;
    struct machine m;
    memset(&m, 0, sizeof m);
    memset(&t, 0, sizeof t);
    int have_tables = 0, rc = WA_EXIT_USAGE;
    if ((rc = machine_load_tables(&t)) != 0)
        goto out;
    have_tables = 1;
    const char *driver;
    struct dotver dv;
    if ((rc = machine_from_args(cmd, a, &t, &m, &driver, &dv)) != 0)
        goto out;
    const char *platform = machine_platform(cmd, a);
    if (!platform) {
        rc = WA_EXIT_USAGE;
        goto out;
    }
    uint16_t *codes = xcalloc(m.n ? m.n : 1, sizeof *codes);
    for (size_t i = 0; i < m.n; i++)
        codes[i] = m.gpus[i].o.cc;
    const char *rocm = m.rocm;
    json_t *props =
        hostvariants_properties(&t, codes, m.n, &dv, tables_platform_os(platform), rocm);
    free(codes);
    if (cli_get(cmd, a, "static")) {
        /* the draft's static lists, most preferred first, as JSON */
        json_t *lists = hostvariants_static_lists(props);
        char *s = json_dumps(lists, JSON_COMPACT | JSON_SORT_KEYS | JSON_PRESERVE_ORDER);
        printf("%s\n", s);
        free(s);
        json_decref(lists);
    } else if (cli_get(cmd, a, "json")) {
        char *s = json_dumps(props, JSON_COMPACT | JSON_SORT_KEYS);
        printf("%s\n", s);
        free(s);
    } else {
        if (m.line)
            fprintf(stderr, "%s\n", m.line);
        const char *ns, *feat;
        json_t *fs, *vals;
        json_object_foreach(props, ns, fs)
        {
            json_object_foreach(fs, feat, vals)
            {
                size_t i;
                json_t *v;
                json_array_foreach(vals, i, v)
                    printf("%s :: %s :: %s\n", ns, feat, json_string_value(v));
            }
        }
    }
    json_decref(props);
    rc = WA_EXIT_OK;
out:
    if (have_tables)
        tables_free(&t);
    machine_free(&m);
    return rc;
}

int cli_variants(int argc, char **argv)
{
    return cli_run_step("variants", argc, argv, variants_step);
}
