/*
 * sitedata_shared: what the page builders (sitedata_*.c) ask of the site
 * data they share: the newest version of each build, a device's answer and
 * its stack.
 */
#include "sitedata_state.h"

#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "stack.h"
#include "strmap.h"
#include "xalloc.h"
#include "sitedata_types.h"

/* ---- the newest version per (project, release, variant, platform) ------- */

/* project|release|variant|platform, into k (reset first) */
static void group_key(struct strbuf *k, const char *project, const char *release,
                      const char *variant, const char *platform)
{
    strbuf_set_joined(k, '|', project, release, variant, platform, (char *)NULL);
}

void sitedata_build_newest(struct sitedata *d)
{
    const struct dbview *v = d->v;
    struct strbuf k = STRBUF_INIT;
    d->newest = strmap_new(); /* a group's key -> its first row */
    d->newest_of = xmalloc((v->nrows ? v->nrows : 1) * sizeof *d->newest_of);
    size_t *first = xmalloc((v->nrows ? v->nrows : 1) * sizeof *first); /* per row */
    /* the newest so far is kept at the group's first row, then copied to
     * the others */
    for (size_t r = 0; r < v->nrows; r++) {
        const struct dbview_row *row = &v->rows[r];
        group_key(&k, row->project, row->release, row->variant, row->platform);
        if (!strmap_get(d->newest, k.buf, &first[r])) {
            strmap_put(d->newest, k.buf, r);
            first[r] = d->newest_of[r] = r;
            continue;
        }
        const struct dbview_row *b = &v->rows[d->newest_of[first[r]]];
        int c = dotver_cmp_str(row->version, b->version);
        if (c > 0 || (c == 0 && row->status < b->status))
            d->newest_of[first[r]] = r;
    }
    for (size_t r = 0; r < v->nrows; r++)
        d->newest_of[r] = d->newest_of[first[r]];
    free(first);
    strbuf_free(&k);
}

/* The row of (project, release, variant, platform) with the newest version
 * (the better status among equals), or -1. */
long sitedata_newest_row(const struct sitedata *d, const char *project, const char *release,
                         const char *variant, const char *platform)
{
    struct strbuf k = STRBUF_INIT;
    group_key(&k, project, release, variant, platform);
    size_t first;
    long out = strmap_get(d->newest, k.buf, &first) ? (long)d->newest_of[first] : -1;
    strbuf_free(&k);
    return out;
}

int sitedata_is_newest(const struct sitedata *d, size_t r)
{
    return d->newest_of[r] == r;
}

/* ---- answers per compute capability and platform ------------------------ */

/* The answer of `wheelarch query` for a device on a platform: the one
 * decision the CLI, the pages and the feed share. */
struct answer_result *sitedata_answer_for(struct sitedata *d, uint16_t cc, int arm_host,
                                          int not_jetpack, const char *platform,
                                          const struct query_python *pys, size_t npys)
{
    struct query_options o = {0};
    o.table_pythons = pys;
    o.ntable_pythons = npys;
    o.cc = cc;
    o.arm_host = arm_host;
    o.not_jetpack = not_jetpack;
    o.project = "torch";
    o.platform = platform;
    o.order = d->query_order;
    for (size_t c = 0; c < d->grid.nccs; c++)
        if (d->grid.ccs[c] == cc) { /* the grid's verdicts of this device */
            o.judged = d->grid.results;
            o.judged_index = &d->grid.cell[c * d->v->nrows];
        }
    struct wa_error err;
    return query_answer(d->v, &o, &err);
}

/* The rest of the stack for a device on a platform: every crawled
 * project (stack_run_projects of the names of stack_projects). */
struct stack_result *sitedata_stack_of(struct sitedata *d, const char *const *names, size_t n,
                                       uint16_t cc, int arm_host, const char *platform)
{
    struct query_options o = {0};
    o.cc = cc;
    o.arm_host = arm_host;
    o.platform = platform;
    o.order = d->query_order;
    for (size_t c = 0; c < d->grid.nccs; c++)
        if (d->grid.ccs[c] == cc) {
            o.judged = d->grid.results;
            o.judged_index = &d->grid.cell[c * d->v->nrows];
        }
    return stack_answer_projects(d->v, &o, names, n);
}
