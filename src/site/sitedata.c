/*
 * sitedata: feed documents and page data, computed once: the order in
 * which the page builders (sitedata_gpus, _home, _releases, _feeds) run.
 * What they share is sitedata_shared's and sitedata_text's.
 */
#include "sitedata.h"
#include "sitedata_state.h"

#include <stdlib.h>
#include <string.h>

#include "feed_answer.h"
#include "query_order.h"
#include "strmap.h"
#include "version.h"
#include "xalloc.h"
#include "sitedata_feeds.h"
#include "sitedata_home.h"
#include "sitedata_simple.h"
#include "sitedata_types.h"

/* ---- entry point ----------------------------------------------------------- */

void sitedata_begin(const struct dbview *v, const struct tables *t, const char *base_url,
                    struct sitedata *d)
{
    memset(d, 0, sizeof *d);
    d->v = v;
    d->t = t;
    d->base_url = xstrdup(base_url ? base_url : "");
    size_t bl = strlen(d->base_url);
    while (bl > 0 && d->base_url[bl - 1] == '/')
        d->base_url[--bl] = '\0';
    d->meta = feed_meta_new(v, t);
    grid_build(&d->grid, v, t);
    d->query_order = query_order_new(v);
    sitedata_build_newest(d);
}

void sitedata_build_feeds(struct sitedata *d)
{
    sitedata_build_csv(d);
    d->variants = sitedata_build_variants(d);
    sitedata_build_simple(d);
}

void sitedata_build_pages(struct sitedata *d)
{
    sitedata_build_gpus(d);
    sitedata_build_home(d);
    sitedata_build_matrix_page(d);
    sitedata_build_changes(d);
}

int sitedata_build(const struct dbview *v, const struct tables *t, const char *base_url,
                   struct sitedata *d, struct wa_error *err)
{
    (void)err;
    sitedata_begin(v, t, base_url, d);
    sitedata_build_feeds(d);
    sitedata_build_pages(d);
    return 0;
}

void sitedata_free(struct sitedata *d)
{
    for (size_t i = 0; d->simple_picks && i < d->grid.nccs; i++)
        free(d->simple_picks[i].v);
    free(d->simple_picks);
    free(d->simple_rows);
    query_order_free(d->query_order);
    strmap_free(d->newest);
    free(d->newest_of);
    grid_free(&d->grid);
    free(d->base_url);
    json_decref(d->meta);
    json_decref(d->variants);
    strbuf_free(&d->csv);
    sitedata_home_free(d->home);
    sitedata_matrix_free(d);
    sitedata_gpus_free(d);
    for (size_t i = 0; i < d->nchanges; i++) {
        struct sitedata_change *e = &d->changes[i];
        for (size_t k = 0; k < e->nitems; k++) {
            free(e->items[k].added);
            free(e->items[k].dropped);
        }
        free(e->items);
        free(e->id);
        free(e->anchor);
    }
    free(d->changes);
    free(d->simple.projects);
    free(d->simple.archs);
    memset(d, 0, sizeof *d);
}
