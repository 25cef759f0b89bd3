/*
 * sitedata_gpus: what the GPU pages, the device pages and their feed
 * files share: one device per compute capability (and system) with its
 * answers, stacks, history and grids.
 */
#include "sitedata_gpus.h"
#include "sitedata_state.h"

#include <stdlib.h>
#include <string.h>

#include "jetson.h"
#include "query.h"
#include "stack.h"
#include "strmap.h"
#include "relgrid.h"
#include "xalloc.h"
#include "sitedata_text.h"
#include "sitedata_types.h"

/* ---- GPUs ---------------------------------------------------------------- */

static int gpu_cmp(const void *a, const void *b)
{
    const struct gpu *x = *(const struct gpu *const *)a, *y = *(const struct gpu *const *)b;
    return strcmp(x->slug, y->slug);
}

static int same_answer(const struct sitedata_run *u, const struct compat_result *res, int status,
                       const char *confidence, const char *provenance)
{
    if (!u->confidence != !confidence || (confidence && strcmp(u->confidence, confidence)) ||
        strcmp(u->provenance, provenance))
        return 0;
    return u->status == status && u->res->verdict == res->verdict &&
           strcmp(u->res->reason, res->reason) == 0 &&
           strcmp(u->res->min_driver, res->min_driver) == 0;
}

static int run_cmp(const void *a, const void *b)
{
    const struct sitedata_run *x = a, *y = b;
    int c = strcmp(x->project, y->project);
    if (!c) /* the newest CUDA (ROCm) first: the builds people install today */
        c = tables_variant_cmp(y->variant, x->variant);
    if (!c)
        c = strcmp(x->platform, y->platform);
    return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* The history of every project on one device, in a compact table: per
 * (project, variant, platform), the runs of releases (newest patch of
 * each) with the same verdict, reason, driver floor and source.  A
 * verdict that changes from one release to the next starts a new line,
 * so nothing is lost; a page with hundreds of releases stays a few dozen
 * lines.  Into dev's runs and groups; declared_only is set when every row
 * is declared. */
static void gpu_history(struct sitedata *d, struct sitedata_device *dev, int tegra)
{
    const struct dbview *v = d->v;
    uint16_t cc = dev->cc;
    struct sitedata_run *runs = NULL;
    size_t nruns = 0, cap = 0;
    struct strmap *last = strmap_new(); /* group -> its newest run so far + 1 */
    struct strbuf key = STRBUF_INIT;
    int any = 0, all_declared = 1;
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        if (!sitedata_is_newest(d, r) || !grid_row_fits(row, cc) ||
            !query_applies(cc, tegra, dev->arm_host, row->platform))
            continue;
        const struct compat_result *res = grid_get(&d->grid, cc, r);
        any = 1;
        if (row->status != VIEW_DECLARED)
            all_declared = 0;
        strbuf_set_joined(&key, 1, row->project, row->variant, row->platform, (char *)NULL);
        size_t at;
        /* rows come newest version first within a project, so the group's
         * latest run ends at the release just before this one */
        const char *conf = dbview_row_confidence(row), *prov = dbview_row_provenance(row);
        if (strmap_get(last, key.buf, &at) &&
            same_answer(&runs[at - 1], res, row->status, conf, prov)) {
            runs[at - 1].oldest = r;
            runs[at - 1].count++;
            continue;
        }
        runs = xgrow(runs, &cap, nruns + 1, sizeof *runs);
        runs[nruns] = (struct sitedata_run){.project = row->project,
                                            .variant = row->variant,
                                            .platform = row->platform,
                                            .newest = r,
                                            .oldest = r,
                                            .count = 1,
                                            .res = res,
                                            .status = row->status,
                                            .confidence = conf,
                                            .provenance = prov,
                                            .seq = nruns};
        strmap_put(last, key.buf, ++nruns);
    }
    strbuf_free(&key);
    strmap_free(last);
    if (nruns > 1)
        qsort(runs, nruns, sizeof *runs, run_cmp);
    struct strmap *ids = strmap_new();
    for (size_t i = 0; i < nruns; i++) {
        struct sitedata_run *u = &runs[i];
        const struct dbview_row *newest = &v->rows[u->newest], *oldest = &v->rows[u->oldest];
        u->newest_release = newest->release;
        u->newest_page = sitedata_release_path(newest->project, newest->version);
        if (u->count > 1) {
            u->oldest_release = oldest->release;
            u->oldest_page = sitedata_release_path(oldest->project, oldest->version);
        }
        struct sitedata_history_group *g = dev->ngroups ? &dev->groups[dev->ngroups - 1] : NULL;
        if (!g || strcmp(g->project, u->project) != 0) {
            dev->groups = xrealloc(dev->groups, (dev->ngroups + 1) * sizeof *dev->groups);
            g = &dev->groups[dev->ngroups++];
            g->project = u->project;
            g->anchor = sitedata_page_id(ids, "history-", u->project);
            g->runs = u;
            g->n = 0;
        }
        g->n++;
    }
    strmap_free(ids);
    dev->runs = runs;
    dev->nruns = nruns;
    dev->declared_only = any && all_declared;
}

/* What the GPU pages share, made by sitedata_build_gpus; each page's data
 * is made from it when the page is rendered (sitedata_gpu_page_make), so
 * the hundreds of pages never sit in memory at once. */
struct sitedata_gpu_state {
    const struct gpu **pages; /* one per page (a name's first table row), by slug */
    size_t *di;               /* each page's device: its slot in devs */
    size_t npages;
    struct sitedata_device *devs; /* per grid device and kind: SLOTS * (nccs + 1) */
    size_t ndevs;
    /* the Python switch's choices: every Python 3 some torch release has
     * wheels for, oldest first (made once: the same on every page) */
    char pythons[64][8];
    struct query_python qpythons[64]; /* the same, parsed: each has a driver table */
    size_t npythons;
};

/* "3.10" before "3.9" is wrong: Python versions by number, a
 * free-threaded build after its regular one (qsort of char[8] rows). */
static int python_cmp_text(const void *a, const void *b)
{
    uint16_t x, y;
    int fx = 0, fy = 0;
    const char *sa = a, *sb = b;
    if (tables_python_parse(sa, &x, &fx) < 0 || tables_python_parse(sb, &y, &fy) < 0)
        return strcmp(sa, sb);
    return x != y ? (x < y ? -1 : 1) : fx - fy;
}

/* Every Python 3 some release has wheels for, into gs->pythons. */
static void list_pythons(const struct tables *t, struct sitedata_gpu_state *gs)
{
    const char *keys[64];
    size_t nk = 0;
    for (size_t k = 0; k < t->npythons; k++)
        for (int ft = 0; ft < 2; ft++) {
            const struct python_support *ps = &t->pythons[k];
            for (size_t j = 0; j < (ft ? ps->nfree_threaded : ps->nversions); j++) {
                char b[16];
                tables_python_format(ft ? ps->free_threaded[j] : ps->versions[j], ft, b, sizeof b);
                size_t m = 0;
                while (m < nk && strcmp(keys[m], b) != 0)
                    m++;
                if (m < nk || nk == 64 || b[0] != '3' || strlen(b) >= 8)
                    continue;                              /* known, full, Python 2 */
                memcpy(gs->pythons[nk], b, strlen(b) + 1); /* under 8 bytes */
                keys[nk] = gs->pythons[nk];
                nk++;
            }
        }
    qsort(gs->pythons, nk, sizeof gs->pythons[0], python_cmp_text);
    gs->npythons = nk;
    for (size_t k = 0; k < nk; k++)
        tables_python_parse(gs->pythons[k], &gs->qpythons[k].python,
                            &gs->qpythons[k].free_threaded);
}

/* A device code's GPUs answer alike but for their system: the slots of
 * one code in devs are its GPUs of every kind of system (the first, the
 * code's own, has the device page), then the ones sold only in Arm
 * (Grace) systems, then those sold only in Windows on Arm PCs (RTX
 * Spark), then Tegra parts of DRIVE and IGX systems, which do
 * not run JetPack (jetson_takes_jetpack). */
enum { SLOT_CODE, SLOT_ARM_HOST, SLOT_WOA_HOST, SLOT_NOT_JETPACK, SLOTS };

static size_t slot_of(const struct gpu *g)
{
    if (g->arm_host == TABLES_HOST_WINDOWS_ARM)
        return SLOT_WOA_HOST;
    if (g->arm_host)
        return SLOT_ARM_HOST;
    return g->tegra && !jetson_takes_jetpack(g) ? SLOT_NOT_JETPACK : SLOT_CODE;
}

/* The answers, the stack, the history and the grids of g's device, into dev (its first GPU), for
 * the system of slot. */
static void make_device(struct sitedata *d, struct sitedata_gpu_state *gs,
                        struct sitedata_device *dev, const struct gpu *g, size_t slot,
                        const char *const *names, size_t nnames, int companions)
{
    int arm_host = slot == SLOT_ARM_HOST   ? TABLES_HOST_LINUX_ARM
                   : slot == SLOT_WOA_HOST ? TABLES_HOST_WINDOWS_ARM
                                           : TABLES_HOST_ANY;
    dev->cc = g->cc;
    dev->arm_host = arm_host;
    dev->host = slot == SLOT_ARM_HOST      ? "arm"
                : slot == SLOT_WOA_HOST    ? "woa"
                : slot == SLOT_NOT_JETPACK ? "drive"
                                           : NULL;
    dev->made = 1;
    for (int p = 0; p < SITEDATA_NPLATFORMS; p++) {
        const char *plat = sitedata_platforms[p];
        struct answer_result *r = sitedata_answer_for(d, g->cc, arm_host, slot == SLOT_NOT_JETPACK,
                                                      plat, gs->qpythons, gs->npythons);
        dev->res[p] = r;
        if (r && r->applies && r->nby_driver > 0)
            dev->has_drivers = 1; /* the driver box reads the device's file */
        if (!companions)          /* none but torch: no stack to compute */
            continue;
        struct stack_result *st = sitedata_stack_of(d, names, nnames, g->cc, arm_host, plat);
        dev->stack[p] = st;
        dev->shown[p] = xcalloc(st->n ? st->n : 1, sizeof *dev->shown[p]);
        for (size_t i = 0; i < st->n; i++) {
            const struct answer_result *sr = st->entries[i].res;
            if (strcmp(sr->project, "torch") != 0 && sr->applies)
                dev->shown[p][dev->nshown[p]++] = &st->entries[i];
        }
    }
    gpu_history(d, dev, g->tegra);
    compat_cc_string(g->cc, dev->id, sizeof dev->id);
    /* per platform that applies, the grid a GPU page shows first */
    for (int p = 0; p < SITEDATA_NPLATFORMS; p++) {
        const struct answer_result *r = dev->res[p];
        if (!r || !r->applies)
            continue;
        const struct answer_install *a = answer_runs(r);
        relgrid_make(&d->grid, g->cc, sitedata_platforms[p], RELGRID_PAGE_RELEASES,
                     a ? a->row : NULL, &dev->pgrid[p]);
    }
}

void sitedata_build_gpus(struct sitedata *d)
{
    const struct tables *t = d->t;
    struct sitedata_gpu_state *gs = xcalloc(1, sizeof *gs);
    d->gpu_state = gs;
    const struct gpu **sorted = xmalloc((t->ngpus ? t->ngpus : 1) * sizeof *sorted);
    for (size_t i = 0; i < t->ngpus; i++)
        sorted[i] = &t->gpus[i];
    if (t->ngpus > 1)
        qsort(sorted, t->ngpus, sizeof *sorted, gpu_cmp);
    list_pythons(t, gs);
    gs->ndevs = SLOTS * (d->grid.nccs + 1);
    gs->devs = xcalloc(gs->ndevs, sizeof *gs->devs);
    gs->pages = xcalloc(t->ngpus + 1, sizeof *gs->pages);
    gs->di = xcalloc(t->ngpus + 1, sizeof *gs->di);

    /* the crawled projects, listed once for every device's stack */
    size_t nnames;
    const char **names = stack_projects(d->v, 0, &nnames);
    int companions = 0;
    for (size_t k = 0; k < nnames; k++)
        companions |= strcmp(names[k], "torch") != 0;

    const char *last_slug = "";
    for (size_t i = 0; i < t->ngpus; i++) {
        const struct gpu *g = sorted[i];
        if (strcmp(g->slug, last_slug) == 0)
            continue; /* two table rows with one name: keep the first */
        last_slug = g->slug;
        size_t di = 0;
        while (di < d->grid.nccs && d->grid.ccs[di] != g->cc)
            di++;
        size_t slot = slot_of(g);
        di = di * SLOTS + slot;
        struct sitedata_device *dev = &gs->devs[di];
        if (!dev->made)
            make_device(d, gs, dev, g, slot, names, nnames, companions);
        dev->gpus = xrealloc(dev->gpus, (dev->ngpus + 1) * sizeof *dev->gpus);
        dev->gpus[dev->ngpus++] = g;
        gs->pages[gs->npages] = g;
        gs->di[gs->npages] = di;
        gs->npages++;
    }
    /* A device page and file per device code, with the answers `query
     * --cc` gives: an Arm-host GPU's code (GB10's 12.1) gets its code's
     * device where no other GPU made it, listing the Arm-host GPUs; its
     * Linux aarch64 answer is theirs (test_truth holds GH200 to it). */
    for (size_t k = 0; k < gs->ndevs; k++) {
        struct sitedata_device *own = &gs->devs[k], *dev = &gs->devs[k - k % SLOTS];
        if (k % SLOTS == SLOT_CODE || !own->made || dev->made)
            continue;
        make_device(d, gs, dev, own->gpus[0], SLOT_CODE, names, nnames, companions);
        dev->gpus = xmalloc(own->ngpus * sizeof *dev->gpus);
        memcpy(dev->gpus, own->gpus, own->ngpus * sizeof *dev->gpus);
        dev->ngpus = own->ngpus;
    }
    for (size_t k = 0; k < gs->ndevs; k++)
        gs->devs[k].has_page = k % SLOTS == SLOT_CODE && gs->devs[k].made;
    free(sorted);
    free(names);
}

size_t sitedata_gpu_count(const struct sitedata *d)
{
    return d->gpu_state ? d->gpu_state->npages : 0;
}

const struct sitedata_device *sitedata_gpu_device(const struct sitedata *d, size_t i)
{
    return &d->gpu_state->devs[d->gpu_state->di[i]];
}

const struct gpu *sitedata_gpu_of_page(const struct sitedata *d, size_t i)
{
    return d->gpu_state->pages[i];
}

size_t sitedata_device_count(const struct sitedata *d)
{
    return d->gpu_state ? d->gpu_state->ndevs : 0;
}

const struct sitedata_device *sitedata_device_at(const struct sitedata *d, size_t k)
{
    const struct sitedata_device *dev = &d->gpu_state->devs[k];
    return dev->has_page ? dev : NULL;
}

const struct sitedata_device *sitedata_device_page_of(const struct sitedata *d,
                                                      const struct sitedata_device *dev)
{
    size_t k = (size_t)(dev - d->gpu_state->devs);
    return &d->gpu_state->devs[k - k % SLOTS]; /* an Arm host's or DRIVE's: its code's */
}

char *sitedata_device_file(const struct sitedata *d, const struct sitedata_device *dev)
{
    return sitedata_device_feed_path(sitedata_device_page_of(d, dev)->id);
}

size_t sitedata_gpu_npythons(const struct sitedata *d)
{
    return d->gpu_state->npythons;
}

const char *sitedata_gpu_python(const struct sitedata *d, size_t k)
{
    return d->gpu_state->pythons[k];
}

static void device_free(struct sitedata_device *dev)
{
    for (int p = 0; p < SITEDATA_NPLATFORMS; p++) {
        answer_free(dev->res[p]);
        stack_free(dev->stack[p]);
        free(dev->shown[p]);
    }
    for (size_t i = 0; i < dev->nruns; i++) {
        free(dev->runs[i].newest_page);
        free(dev->runs[i].oldest_page);
    }
    free(dev->runs);
    for (size_t i = 0; i < dev->ngroups; i++)
        free(dev->groups[i].anchor);
    free(dev->groups);
    for (int p = 0; p < SITEDATA_NPLATFORMS; p++) {
        relgrid_free(&dev->pgrid[p]);
    }
    free(dev->gpus);
}

void sitedata_gpus_free(struct sitedata *d)
{
    struct sitedata_gpu_state *gs = d->gpu_state;
    if (!gs)
        return;
    for (size_t i = 0; i < gs->ndevs; i++)
        device_free(&gs->devs[i]);
    free(gs->devs);
    free(gs->pages);
    free(gs->di);
    free(gs);
    d->gpu_state = NULL;
}
