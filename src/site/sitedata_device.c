/*
 * sitedata_device: a device's own page (device/<id>/: every release of
 * every variant on each platform, and the history with its reasons), for
 * the GPUs that share one device code; its feed file is feed_device's.
 */
#include "sitedata_device.h"
#include "sitedata_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "tmpl.h"
#include "xalloc.h"
#include "sitedata_gpu_page.h"
#include "sitedata_grid.h"
#include "sitedata_text.h"
#include "sitedata_types.h"

const char *sitedata_device_id(const struct sitedata_device *dev)
{
    return dev->id;
}

void sitedata_device_page_make(const struct sitedata *d, const struct sitedata_device *dev,
                               struct sitedata_device_page *p)
{
    memset(p, 0, sizeof *p);
    p->d = d;
    p->dev = dev;
    p->amd = dev->cc >= TABLES_AMD_MIN;
    p->path = sitedata_device_path(dev->id);
    p->title = p->amd ? xasprintf("AMD %s", dev->id) : xasprintf("Compute capability %s", dev->id);
    p->gpu_pages = xcalloc(dev->ngpus + 1, sizeof *p->gpu_pages);
    for (size_t i = 0; i < dev->ngpus; i++) {
        p->gpu_pages[i] = sitedata_gpu_path(dev->gpus[i]->slug);
    }
    for (int k = 0; k < SITEDATA_NPLATFORMS; k++) {
        const struct answer_result *r = dev->res[k];
        if (r && r->applies)
            relgrid_make(&d->grid, dev->cc, sitedata_platforms[k], 0, NULL, &p->grid[k]);
        if (!p->grid[k].nrel)
            continue;
        p->shown[p->nplat++] = &p->grid[k];
    }
}

void sitedata_device_page_free(struct sitedata_device_page *p)
{
    for (int k = 0; k < SITEDATA_NPLATFORMS; k++)
        relgrid_free(&p->grid[k]);
    for (size_t i = 0; i < p->dev->ngpus; i++)
        free(p->gpu_pages[i]);
    free(p->gpu_pages);
    free(p->path);
    free(p->title);
    memset(p, 0, sizeof *p);
}

#define IS(want) sitedata_name_is(name, len, want)

static size_t plats_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_device_page *)v->p)->nplat;
}

/* A platform's grid, as templates/relgrid.mustache reads it. */
static void plats_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    sitedata_grid_value(((const struct sitedata_device_page *)v->p)->shown[i], out);
}

static const struct tmpl_type plats_type = {NULL, plats_len, plats_at, NULL, 0};

/* One of the device's GPUs: p is the page, at the GPU's place. */
static void gpu_get(const struct tmpl_value *v, const char *name, size_t len,
                    struct tmpl_value *out)
{
    const struct sitedata_device_page *p = v->p;
    const struct gpu *g = p->dev->gpus[v->at];
    out->kind = TMPL_MISSING;
    if (IS("name"))
        tmpl_value_str(g->name, out);
    else if (IS("page"))
        tmpl_value_str(p->gpu_pages[v->at], out);
}

static const struct tmpl_type gpu_type = {gpu_get, NULL, NULL, NULL, 0};

static size_t gpus_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_device_page *)v->p)->dev->ngpus;
}

static void gpus_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    sitedata_object(&gpu_type, v->p, i, out);
}

static const struct tmpl_type gpus_type = {NULL, gpus_len, gpus_at, NULL, 0};

static void page_get(const struct tmpl_value *v, const char *name, size_t len,
                     struct tmpl_value *out)
{
    const struct sitedata_device_page *p = v->p;
    const struct sitedata_device *dev = p->dev;
    out->kind = TMPL_MISSING;
    if (IS("title"))
        tmpl_value_str(p->title, out);
    else if (IS("id"))
        tmpl_value_str(dev->id, out);
    else if (IS("amd"))
        tmpl_value_bool(p->amd, out);
    else if (IS("architecture"))
        tmpl_value_str(dev->ngpus ? dev->gpus[0]->architecture : NULL, out);
    else if (IS("gpus"))
        sitedata_array(&gpus_type, p, 0, out);
    else if (IS("grids"))
        sitedata_array(&plats_type, p, 0, out);
    else if (IS("has_releases"))
        tmpl_value_bool(dev->nruns > 0, out);
    else if (IS("releases"))
        sitedata_device_history_releases(dev, out);
    else if (IS("all_declared"))
        tmpl_value_bool(dev->declared_only, out);
}

static const struct tmpl_type page_type = {page_get, NULL, NULL, NULL, 0};

void sitedata_device_page_value(const struct sitedata_device_page *p, struct tmpl_value *out)
{
    sitedata_object(&page_type, p, 0, out);
}
