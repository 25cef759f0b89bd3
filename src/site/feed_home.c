/*
 * feed_home: assets/answers.js, the home page's filter's answers: per
 * device code and system, each platform's answer in short (the same
 * answer its GPU page shows) and where its device file is, and the
 * commands they name, each once (feed_home.h).
 */
#include "feed_home.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "grid.h"
#include "installcmd.h"
#include "strmap.h"
#include "xalloc.h"
#include "sitedata_gpus.h"
#include "sitedata_home.h"
#include "sitedata_state.h"
#include "sitedata_types.h"

/* The commands answers.js holds, each once: [[pip, uv], ...] (many
 * devices share one), and where each line pair is in it. */
struct filter_commands {
    json_t *lines;
    struct strmap *at; /* pip line -> its place */
};

/* The place of an install's commands in c, or -1 when it has none. */
static json_int_t filter_command(struct filter_commands *c, const struct installcmd *cmd)
{
    if (!cmd->pip_line)
        return -1;
    size_t k;
    if (strmap_get(c->at, cmd->pip_line, &k))
        return (json_int_t)k;
    k = json_array_size(c->lines);
    json_array_append_new(c->lines, json_pack("[ss]", cmd->pip_line, cmd->uv_line));
    strmap_put(c->at, cmd->pip_line, k);
    return (json_int_t)k;
}

/* The instant answer of the home page's filter for one GPU on one
 * platform: the recommendation (or fallback) in short, its driver table
 * and the PyPI line, from the same answer the GPU page shows.  JSON: it
 * goes to assets/answers.js, its commands by their place in cmds. */
static json_t *filter_answer(const struct answer_result *r, struct filter_commands *cmds)
{
    json_t *c = json_object();
    const struct answer_install *use = answer_runs(r);
    json_object_set_new(c, "release", json_string(r->version));
    if (use) {
        const struct dbview_row *row = use->row;
        json_object_set_new(c, "index", json_string(row->variant));
        json_object_set_new(c, "version", json_string(row->version));
        json_object_set_new(c, "pin", json_string(use->pin));
        json_object_set_new(c, "verdict", json_string(compat_verdict_name(use->res.verdict)));
        json_object_set_new(c, "label", json_string(compat_verdict_label(use->res.verdict)));
        json_object_set_new(c, "symbol", json_string(grid_verdict_symbol(use->res.verdict)));
        json_object_set_new(c, "provenance", json_string(dbview_row_provenance(row)));
        /* the driver the GPU page's headline names: from where the driver
         * table gives this build */
        const char *floor = sitedata_table_driver(r, use);
        if (!floor)
            floor = answer_install_min_driver(use);
        if (floor[0])
            json_object_set_new(c, "min_driver", json_string(floor));
        if (!use->floor[0] && use->res.full_driver[0])
            json_object_set_new(c, "full_driver", json_string(use->res.full_driver));
        json_object_set_new(c, "cmd", json_integer(filter_command(cmds, &use->commands.install)));
        if (use != r->recommendation)
            json_object_set_new(c, "fallback", json_true());
    }
    if (r->nby_driver > 1) {
        json_t *bd = json_array();
        for (size_t k = 0; k < r->nby_driver; k++) {
            const struct answer_install *e = &r->by_driver[k];
            const char *floor = answer_install_min_driver(e);
            json_array_append_new(bd, json_pack("{s:o,s:s,s:s,s:I}", "min_driver",
                                                floor[0] ? json_string(floor) : json_null(),
                                                "index", e->row->variant, "pin", e->pin, "cmd",
                                                filter_command(cmds, &e->commands.install)));
        }
        json_object_set_new(c, "by_driver", bd);
    }
    if (r->pypi.present) {
        json_object_set_new(c, r->pypi.runs ? "pypi_yes" : "pypi_no", json_string(r->pypi.build));
        /* what a typed driver and Python judge it again by */
        if (r->pypi.runs && r->pypi.min_driver[0])
            json_object_set_new(c, "pypi_min_driver", json_string(r->pypi.min_driver));
        json_object_set_new(c, "pypi_release", json_string(r->pypi.release));
    }
    if (r->guidance.kind && !r->applies)
        json_object_set_new(c, "guidance", json_string(r->guidance.text));
    return c;
}

char *feed_home_answers_js(const struct sitedata *d)
{
    const struct sitedata_home *h = d->home;
    json_t *answers = json_object();
    struct filter_commands cmds = {json_array(), strmap_new()};
    for (size_t s = 0; s < h->nsegments; s++)
        for (size_t i = 0; i < h->segments[s].n; i++) {
            const struct sitedata_home_gpu *x = &h->segments[s].gpus[i];
            /* the filter's answers per device code and system: Arm-only
             * GPUs' and DRIVE or IGX ones' are their own (sitedata_gpus.c) */
            const char *host = x->dev->host;
            char *cc = xasprintf("%s%s%s", x->device, host ? "/" : "", host ? host : "");
            if (!json_object_get(answers, cc)) {
                json_t *per = json_object();
                /* the device's feed file: its driver and Python tables,
                 * which the filter loads once a driver or Python is set */
                char *src = sitedata_device_file(d, x->dev);
                json_object_set_new(per, "src", json_string(src));
                free(src);
                for (size_t p = 0; p < SITEDATA_NPLATFORMS; p++)
                    if (x->dev->res[p])
                        json_object_set_new(per, sitedata_platforms[p],
                                            filter_answer(x->dev->res[p], &cmds));
                json_object_set_new(answers, cc, per);
            }
            free(cc);
        }
    /* assets/answers.js, loaded by the filter when it is first used */
    char *aj = sitedata_script_json(answers);
    json_t *fixed = json_pack("{s:o,s:s}", "lines", cmds.lines, "uninstall",
                              installcmd_fixed_line(INSTALLCMD_UNINSTALL_TORCH));
    char *cj = sitedata_script_json(fixed);
    char *js = xasprintf("/* generated by wheelarch build: the filter's answers per device "
                         "code and platform (api/v1/gpus.json in short), and the commands "
                         "they name by place, each [pip, uv] as wheelarch writes them */\n"
                         "window.wheelarchAnswers = %s;\n"
                         "window.wheelarchCommands = %s;\n",
                         aj, cj);
    free(aj);
    free(cj);
    json_decref(answers);
    json_decref(fixed);
    strmap_free(cmds.at);
    return js;
}
