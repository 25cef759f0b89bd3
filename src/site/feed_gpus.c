/*
 * feed_gpus: api/v1/gpus.json: every GPU with its device, names and page,
 * and its device's answers per platform, as installers read them
 * (feed_gpus.h).
 */
#include "feed_gpus.h"

#include <stdlib.h>
#include <string.h>

#include "feed_answer.h"
#include "xalloc.h"
#include "sitedata_gpus.h"
#include "sitedata_state.h"
#include "sitedata_text.h"
#include "sitedata_types.h"

static json_t *gpu_summary(const struct gpu *g)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(g->name));
    json_object_set_new(o, "slug", json_string(g->slug));
    json_object_set_new(o, "vendor", json_string(g->amd ? "amd" : "nvidia"));
    /* "device" is the key the rules use for it: "6.1" or "gfx1100". */
    json_object_set_new(o, "device", sitedata_cc_json(g->cc));
    json_object_set_new(o, "compute_capability", g->amd ? json_null() : sitedata_cc_json(g->cc));
    if (g->amd) {
        char name[TARGET_NAME_MAX];
        target_format(&g->gfx, name, sizeof name);
        json_object_set(o, "gfx", json_object_get(o, "device"));
        json_object_set_new(o, "gfx_target", json_string(name)); /* with its feature modes */
        json_object_set_new(o, "gfx_modes", json_boolean(strchr(name, ':') != NULL));
        json_object_set_new(o, "rocm_support", json_string(g->rocm_support));
    } else {
        json_object_set_new(o, "gfx", json_null());
        json_object_set_new(o, "gfx_target", json_null());
    }
    json_t *others = json_array();
    for (size_t i = 0; i < g->nother; i++)
        json_array_append_new(others, sitedata_cc_json(g->other_cc[i]));
    json_object_set_new(o, "other_devices", others);
    json_object_set_new(o, "arm_host", json_boolean(g->arm_host));
    const char *only = tables_host_platform(g->arm_host);
    json_object_set_new(o, "host_platform", only ? json_string(only) : json_null());
    json_object_set_new(o, "architecture", json_string(g->architecture));
    json_object_set_new(o, "segment", json_string(g->segment));
    json_object_set_new(o, "tegra", json_boolean(g->tegra));
    char *page = sitedata_gpu_path(g->slug);
    json_object_set_new(o, "page", json_string(page));
    free(page);
    return o;
}

/* A device's answers: {"linux-x86_64": the feed's answer or null, ...}. */
static json_t *device_answers(const struct sitedata_device *dev)
{
    json_t *o = json_object();
    for (int p = 0; p < SITEDATA_NPLATFORMS; p++)
        json_object_set_new(o, sitedata_platforms[p], feed_answer_json(dev->res[p]));
    return o;
}

json_t *feed_gpus_json(const struct sitedata *d)
{
    json_t *doc = json_object();
    json_object_set_new(doc, "meta", feed_meta_copy(d));
    json_t *list = json_array();
    /* each device's answers made once, shared by its GPUs */
    size_t n = sitedata_gpu_count(d), ndevs = 0;
    const struct sitedata_device **devs = xcalloc(n + 1, sizeof *devs);
    json_t **answers = xcalloc(n + 1, sizeof *answers);
    for (size_t i = 0; i < n; i++) {
        const struct sitedata_device *dev = sitedata_gpu_device(d, i);
        size_t k = 0;
        while (k < ndevs && devs[k] != dev)
            k++;
        if (k == ndevs) {
            devs[ndevs] = dev;
            answers[ndevs++] = device_answers(dev);
        }
        json_t *s = gpu_summary(sitedata_gpu_of_page(d, i));
        json_object_set(s, "recommendations", answers[k]);
        json_array_append_new(list, s);
    }
    for (size_t k = 0; k < ndevs; k++)
        json_decref(answers[k]);
    free(answers);
    free(devs);
    json_object_set_new(doc, "gpus", list);
    return doc;
}
