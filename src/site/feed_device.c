/*
 * feed_device: a device's feed file (api/v1/gpu/<id>.json): its GPUs, and
 * per platform its answer, the driver tables per Python with their
 * commands, the rest of the stack, the release grid and NVIDIA's last
 * driver branch, from the device page's data (feed_device.h).
 */
#include "feed_device.h"

#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "answer_json.h"
#include "feed_answer.h"
#include "stack.h"
#include "sitedata_state.h"

/* r as JSON: {"releases": [newest first], "variants": [...], "verdicts":
 * {release: {variant: "native" | "ptx-jit" | "partial" | "unsupported"}}}
 * (a variant absent: the release has no such wheel). */
static json_t *grid_json(const struct relgrid *r)
{
    json_t *o = json_object(), *rels = json_array(), *vars = json_array(), *cells = json_object();
    for (size_t y = 0; y < r->nvar; y++)
        json_array_append_new(vars, json_string(r->var[y]));
    for (size_t x = 0; x < r->nrel; x++) {
        json_array_append_new(rels, json_string(r->rel[x]));
        json_t *row = json_object();
        for (size_t y = 0; y < r->nvar; y++) {
            int c = r->cell[x * r->nvar + y];
            if (c >= 0)
                json_object_set_new(row, r->var[y], json_string(compat_verdict_name(c)));
        }
        json_object_set_new(cells, r->rel[x], row);
    }
    json_object_set_new(o, "releases", rels);
    json_object_set_new(o, "variants", vars);
    json_object_set_new(o, "verdicts", cells);
    return o;
}

/* The other packages a GPU page shows for a platform, as its feed file
 * carries them: each project's newest release that runs, its index, pin,
 * verdict and commands, the note when it does not go with torch, and the
 * command installing both from one index. */
static json_t *stack_feed_json(const struct sitedata_device *dev, int k)
{
    json_t *out = json_array();
    for (size_t i = 0; i < dev->nshown[k]; i++) {
        const struct stack_entry *e = dev->shown[k][i];
        const struct answer_install *in = answer_runs(e->res);
        json_t *x = json_object();
        json_object_set_new(x, "project", json_string(e->res->project));
        json_object_set_new(x, "release", in ? json_string(in->row->release) : json_null());
        json_object_set_new(x, "index", in ? json_string(in->row->variant) : json_null());
        json_object_set_new(x, "pin", in ? json_string(in->pin) : json_null());
        json_object_set_new(x, "verdict",
                            in ? json_string(compat_verdict_name(in->res.verdict)) : json_null());
        json_object_set_new(x, "commands", in ? answer_commands_json(&in->commands) : json_null());
        json_object_set_new(x, "note", e->note ? json_string(e->note) : json_null());
        json_object_set_new(x, "together", e->has_together ? stack_together_json(e) : json_null());
        json_array_append_new(out, x);
    }
    return out;
}

json_t *feed_device_json(const struct sitedata_device_page *p)
{
    const struct sitedata_device *dev = p->dev;
    json_t *o = json_object();
    json_object_set_new(o, "meta", feed_meta_copy(p->d));
    json_object_set_new(o, "device", json_string(dev->id));
    json_object_set_new(o, "vendor", json_string(p->amd ? "amd" : "nvidia"));
    json_object_set_new(o, "page", json_string(p->path));
    json_t *gpus = json_array();
    for (size_t i = 0; i < dev->ngpus; i++) {
        json_t *g = json_object();
        json_object_set_new(g, "name", json_string(dev->gpus[i]->name));
        json_object_set_new(g, "slug", json_string(dev->gpus[i]->slug));
        json_array_append_new(gpus, g);
    }
    json_object_set_new(o, "gpus", gpus);
    json_t *plats = json_object();
    for (int k = 0; k < SITEDATA_NPLATFORMS; k++) {
        const char *plat = sitedata_platforms[k];
        const struct answer_result *r = dev->res[k];
        json_t *x = json_object();
        json_object_set_new(x, "answer", feed_answer_json(r));
        json_object_set_new(x, "by_driver_python",
                            r && r->applies && r->nby_driver ? feed_py_tables_json(r)
                                                             : json_null());
        json_object_set_new(x, "commands",
                            r && r->applies && r->nby_driver ? feed_py_commands_json(p->d->t, r)
                                                             : json_null());
        json_object_set_new(
            x, "stack", r && r->applies && dev->nshown[k] ? stack_feed_json(dev, k) : json_null());
        json_object_set_new(x, "grid", r && r->applies ? grid_json(&p->grid[k]) : json_null());
        /* NVIDIA's last driver branch for the GPU: a driver typed of a
         * later branch is said not to run it */
        const struct arch_support *end =
            r && !p->amd ? tables_driver_branch_end(p->d->t, r->cc) : NULL;
        if (end) {
            json_t *b = json_object();
            json_object_set_new(b, "branch", json_string(r->last_branch));
            json_object_set_new(b, "cuda", json_string(r->last_branch_cuda));
            json_object_set_new(b, "dropped_in", json_integer(end->dropped_in));
            json_object_set_new(x, "last_driver_branch", b);
        } else {
            json_object_set_new(x, "last_driver_branch", json_null());
        }
        json_object_set_new(plats, plat, x);
    }
    json_object_set_new(o, "platforms", plats);
    return o;
}
