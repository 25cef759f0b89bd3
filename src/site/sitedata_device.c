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

uint16_t sitedata_device_cc(const struct sitedata_device *dev)
{
    return dev->cc;
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
static void gpu_name(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_device_page *p = v->p;
    const struct gpu *g = p->dev->gpus[v->at];
    tmpl_value_str(g->name, out);
}

static void gpu_page(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_device_page *p = v->p;
    tmpl_value_str(p->gpu_pages[v->at], out);
}

static const struct tmpl_field gpu_fields[] = {
    TMPL_GET("name", gpu_name),
    TMPL_GET("page", gpu_page),
};

static const struct tmpl_type gpu_type = TMPL_FIELDS(gpu_fields);

static size_t gpus_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_device_page *)v->p)->dev->ngpus;
}

static void gpus_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    sitedata_object(&gpu_type, v->p, i, out);
}

static const struct tmpl_type gpus_type = {NULL, gpus_len, gpus_at, NULL, 0};

static void page_id(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_device_page *p = v->p;
    const struct sitedata_device *dev = p->dev;
    tmpl_value_str(dev->id, out);
}

static void page_architecture(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_device_page *p = v->p;
    const struct sitedata_device *dev = p->dev;
    tmpl_value_str(dev->ngpus ? dev->gpus[0]->architecture : NULL, out);
}

static void page_gpus(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_device_page *p = v->p;
    sitedata_array(&gpus_type, p, 0, out);
}

static void page_grids(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_device_page *p = v->p;
    sitedata_array(&plats_type, p, 0, out);
}

static void page_has_releases(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_device_page *p = v->p;
    const struct sitedata_device *dev = p->dev;
    tmpl_value_bool(dev->nruns > 0, out);
}

static void page_releases(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_device_page *p = v->p;
    const struct sitedata_device *dev = p->dev;
    sitedata_device_history_releases(dev, out);
}

static void page_all_declared(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_device_page *p = v->p;
    const struct sitedata_device *dev = p->dev;
    tmpl_value_bool(dev->declared_only, out);
}

static const struct tmpl_field page_fields[] = {
    TMPL_STR("title", struct sitedata_device_page, title),
    TMPL_GET("id", page_id),
    TMPL_BOOL("amd", struct sitedata_device_page, amd),
    TMPL_GET("architecture", page_architecture),
    TMPL_GET("gpus", page_gpus),
    TMPL_GET("grids", page_grids),
    TMPL_GET("has_releases", page_has_releases),
    TMPL_GET("releases", page_releases),
    TMPL_GET("all_declared", page_all_declared),
};

static const struct tmpl_type page_type = TMPL_FIELDS(page_fields);

void sitedata_device_page_value(const struct sitedata_device_page *p, struct tmpl_value *out)
{
    sitedata_object(&page_type, p, 0, out);
}
