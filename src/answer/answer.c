/*
 * answer: the whole answer as a typed value (answer.h).
 */
#include "answer.h"

#include <stdlib.h>
#include <string.h>

#include "vendorindex.h"
#include "xalloc.h"

const struct answer_install *answer_runs(const struct answer_result *a)
{
    return a->recommendation ? a->recommendation : a->fallback;
}

const char *answer_install_min_driver(const struct answer_install *i)
{
    return i->floor[0] ? i->floor : i->res.min_driver;
}

const struct answer_row *answer_row_of(const struct answer_result *a, const char *variant)
{
    for (size_t i = 0; i < a->nrows; i++)
        if (strcmp(a->rows[i].row->variant, variant) == 0)
            return &a->rows[i];
    return NULL;
}

const char *answer_row_label(const struct answer_result *a, const struct answer_row *r, char *buf,
                             size_t n)
{
    return verdict_label(&r->v, a->python, a->python_free_threaded, buf, n);
}

void answer_commands_make(struct answer_commands *c, const struct tables *t, const char *project,
                          const char *pin, const char *extra, const char *index_url)
{
    memset(c, 0, sizeof *c);
    const struct installcmd_req req = {project, pin, extra && *extra ? extra : NULL};
    installcmd_make(&c->install, t, &req, 1, index_url, 0);
}

char *answer_vendor_extra(const struct vendor_build *b, const struct compat_result *res)
{
    char gfx[TARGET_NAME_MAX];
    if (!b || !b->gpu_extra || !res->has_via || res->via.kind != TARGET_GFX)
        return NULL;
    target_format(&res->via, gfx, sizeof gfx);
    return vendorindex_extra(b, gfx);
}

const char *answer_gpu_extra(const struct dbview_row *r, const struct compat_result *res, char *buf,
                             size_t n)
{
    buf[0] = '\0';
    char *own = r ? answer_vendor_extra(r->vendor, res) : NULL;
    const char *pick = own;
    if (own && r->nextras) {
        /* as crawled: of the extras with the target that runs, the one
         * named for it (device-gfx1101, though device-gfx1100 may bring
         * the same family pack), else the narrowest */
        const struct dbview_extra *best = NULL;
        int best_own = 0;
        for (size_t i = 0; i < r->nextras; i++) {
            const struct dbview_extra *e = &r->extras[i];
            int has = 0;
            for (size_t k = 0; k < e->ngfx && !has; k++)
                has = target_cmp(&e->gfx[k], &res->via) == 0;
            int is_own = strcmp(e->name, own) == 0;
            if (has && (!best || is_own > best_own ||
                        (is_own == best_own &&
                         (e->ngfx < best->ngfx ||
                          (e->ngfx == best->ngfx && strcmp(e->name, best->name) < 0))))) {
                best = e;
                best_own = is_own;
            }
        }
        pick = best ? best->name : NULL;
    }
    if (pick && strlen(pick) < n)
        snprintf(buf, n, "%s", pick);
    free(own);
    return buf;
}

void answer_commands_free(struct answer_commands *c)
{
    installcmd_free(&c->install);
    installcmd_free(&c->with_companions);
}

void answer_commands_copy(struct answer_commands *dst, const struct answer_commands *src)
{
    installcmd_copy(&dst->install, &src->install);
    installcmd_copy(&dst->with_companions, &src->with_companions);
}

void answer_install_free(struct answer_install *i)
{
    if (!i)
        return;
    free(i->index_url);
    free(i->reason);
    free(i->torchvision);
    free(i->torchaudio);
    free(i->companions_omitted);
    answer_commands_free(&i->commands);
}

static void install_delete(struct answer_install *i)
{
    answer_install_free(i);
    free(i);
}

void answer_free(struct answer_result *a)
{
    if (!a)
        return;
    free(a->version);
    for (size_t i = 0; i < a->nrows; i++)
        free(a->rows[i].index_url);
    free(a->rows);
    install_delete(a->recommendation);
    install_delete(a->fallback);
    install_delete(a->newest_with_code);
    for (size_t i = 0; i < a->nchange; i++) {
        free(a->change[i].text);
        answer_commands_free(&a->change[i].commands);
    }
    free(a->change);
    for (size_t i = 0; i < a->nby_driver; i++)
        answer_install_free(&a->by_driver[i]);
    free(a->by_driver);
    for (size_t k = 0; k < a->npy_tables; k++) {
        for (size_t i = 0; i < a->py_tables[k].nrows; i++)
            answer_install_free(&a->py_tables[k].rows[i]);
        free(a->py_tables[k].rows);
    }
    free(a->py_tables);
    installcmd_free(&a->pypi.command);
    free(a->pypi.reason);
    free(a->last_native);
    for (size_t i = 0; i < a->guidance.njetson; i++)
        installcmd_free(&a->guidance.jetson_commands[i]);
    for (size_t i = 0; i < a->source_build.nsteps; i++)
        free(a->source_build.steps[i]);
    for (size_t i = 0; i < a->self_build.nsteps; i++)
        free(a->self_build.steps[i]);
    free(a);
}

void answer_install_copy(struct answer_install *dst, const struct answer_install *src)
{
    *dst = *src;
    dst->index_url = xstrdup_or_null(src->index_url);
    dst->reason = xstrdup_or_null(src->reason);
    dst->torchvision = xstrdup_or_null(src->torchvision);
    dst->torchaudio = xstrdup_or_null(src->torchaudio);
    dst->companions_omitted = xstrdup_or_null(src->companions_omitted);
    answer_commands_copy(&dst->commands, &src->commands);
}
