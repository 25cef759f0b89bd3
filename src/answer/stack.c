/*
 * stack: every crawled project's answer on one GPU, and whether they go
 * together (see stack.h).
 */
#include "stack.h"

#include <stdlib.h>
#include <string.h>

#include "answer_json.h"
#include "xalloc.h"
#include "tables_releases.h"
#include "tables_variants.h"
#include "wheelmeta.h"
#include "dotver.h"

static int cmp_name(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int tx = strcmp(x, "torch") == 0, ty = strcmp(y, "torch") == 0;
    if (tx != ty)
        return ty - tx; /* torch first */
    return strcmp(x, y);
}

const char **stack_projects(const struct dbview *v, int with_declared, size_t *n)
{
    const char **names = xcalloc(v->nrows + 1, sizeof *names);
    size_t k = 0;
    for (size_t i = 0; i < v->nrows; i++) {
        const struct dbview_row *r = &v->rows[i];
        if ((!with_declared && r->status == VIEW_DECLARED) || tables_gpu_library(v->t, r->project))
            continue;
        size_t j = 0;
        while (j < k && strcmp(names[j], r->project) != 0)
            j++;
        if (j == k)
            names[k++] = r->project;
    }
    if (k > 1)
        qsort(names, k, sizeof *names, cmp_name);
    *n = k;
    return names;
}

/* Length of the part of an index URL that names its family of indexes
 * ("https://download.pytorch.org/whl/" of ".../whl/cu128/"). */
static size_t family_len(const char *url)
{
    size_t n = strlen(url);
    while (n > 0 && url[n - 1] == '/')
        n--;
    while (n > 0 && url[n - 1] != '/')
        n--;
    return n;
}

/* The row of variant id in res, with native code, or NULL. */
static const struct answer_row *native_variant(const struct answer_result *res, const char *id)
{
    const struct answer_row *x = answer_row_of(res, id);
    return x && x->v.res.verdict == COMPAT_NATIVE ? x : NULL;
}

/* The variant in which both torch's release and the companion's have
 * native code, the newest CUDA among such; NULL when none. */
static const struct answer_row *common_variant(const struct answer_result *torch,
                                               const struct answer_result *comp)
{
    const struct answer_row *best = NULL;
    struct dotver best_cuda = {0};
    for (size_t i = 0; i < comp->nrows; i++) {
        const struct answer_row *x = &comp->rows[i];
        const char *id = x->row->variant;
        if (!native_variant(comp, id) || !native_variant(torch, id))
            continue;
        struct dotver cuda = {0};
        if (tables_variant_cuda(id, &cuda) < 0)
            continue; /* the family's CUDA variants only */
        if (!best || dotver_cmp(&cuda, &best_cuda) > 0) {
            best = x;
            best_cuda = cuda;
        }
    }
    return best;
}

/* The torch version that the build res answers with pins in its
 * Requires-Dist ("torch==2.9.0" of torchvision 0.24.0), or NULL. */
static char *pinned_torch(const struct dbview *v, const struct query_order *order,
                          const struct answer_result *res, const char *platform)
{
    const struct answer_install *a = answer_runs(res);
    if (!a || !platform)
        return NULL;
    const char *proj = res->project, *ver = a->row->version, *ix = a->row->variant;
    char *pin = NULL;
    /* with the query order, only the project's rows on the platform */
    size_t n = v->nrows;
    const size_t *rows = order ? query_order_rows(order, proj, platform, &n) : NULL;
    for (size_t i = 0; i < n && !pin; i++) {
        const struct dbview_row *r = &v->rows[rows ? rows[i] : i];
        if (!r->requires || strcmp(r->project, proj) != 0 || strcmp(r->version, ver) != 0 ||
            strcmp(r->variant, ix) != 0 || strcmp(r->platform, platform) != 0)
            continue;
        const char *at_req = r->requires;
        char *req;
        while (wheelmeta_next_requirement(&at_req, &req)) {
            char *name = NULL, *p = NULL;
            if (!pin && wheelmeta_marker_applies(req, platform) &&
                wheelmeta_requirement(req, &name, &p) == 0 && strcmp(name, "torch") == 0 && p) {
                pin = p;
                p = NULL;
            }
            free(name);
            free(p);
            free(req);
        }
    }
    return pin;
}

/* Install torch (torch_pin) and the companion (its release's pin) from
 * variant row `common`. */
static void set_together(const struct tables *tb, struct stack_entry *e,
                         const struct answer_row *common, const char *torch_pin, const char *proj,
                         const char *comp_pin)
{
    struct stack_together *t = &e->together;
    e->has_together = 1;
    t->index = common->row->variant;
    t->index_url = xstrdup(common->index_url);
    t->torch_pin = xstrdup(torch_pin);
    t->pin = xstrdup(comp_pin);
    const struct installcmd_req reqs[] = {{"torch", torch_pin, NULL}, {proj, comp_pin, NULL}};
    installcmd_make(&t->commands.install, tb, reqs, 2, t->index_url, 0);
}

/* Checks companion e against torch's answer; sets its note and, where a
 * variant suits both, together. */
static void check_pair(const struct dbview *v, const struct query_options *o,
                       const struct answer_result *torch, struct stack_entry *e)
{
    const struct answer_result *res = e->res;
    const struct answer_install *ta = answer_runs(torch), *ca = answer_runs(res);
    if (!ta || !ca)
        return;
    const char *tix = ta->row->variant, *cix = ca->row->variant;
    const char *turl = ta->index_url, *curl = ca->index_url;
    const char *proj = res->project, *cver = ca->row->version;
    size_t fl = family_len(turl);
    int same_family = family_len(curl) == fl && strncmp(turl, curl, fl) == 0;
    /* The torch the companion was built for, when it pins one. */
    char *pin = pinned_torch(v, o->order, res, o->platform);
    char *pin_release = pin ? dotver_release(pin) : NULL;
    const char *trel = torch->version;
    struct answer_result *pinned = NULL;
    if (pin && strcmp(pin_release, trel) != 0) {
        struct query_options q = *o;
        q.project = "torch";
        q.version = pin;
        struct wa_error err;
        pinned = query_answer(v, &q, &err); /* NULL: that torch is not in the data */
    }
    const struct answer_result *tq = pinned ? pinned : torch;
    const char *tver = tq->version;
    char *note = NULL;
    if (!same_family) {
        /* another family's variants are not torch's; only the pin matters */
        if (pin && strcmp(pin_release, trel) != 0)
            note = xasprintf("%s %s requires torch %s, not torch %s: installing it replaces that "
                             "torch with its own",
                             proj, cver, pin, trel);
    } else if (strcmp(tix, cix) != 0 || pinned) {
        const struct answer_row *common = common_variant(tq, res);
        /* the answers' own pins where they are of the releases compared */
        const struct answer_install *tqa = answer_runs(tq);
        const char *crel = res->version;
        char *tpin = pin                                           ? xstrdup(pin)
                     : tqa && strcmp(tqa->row->release, tver) == 0 ? xstrdup(tqa->pin)
                                                                   : xasprintf("%s.*", tver);
        char *cpin =
            strcmp(ca->row->release, crel) == 0 ? xstrdup(ca->pin) : xasprintf("%s.*", crel);
        if (common) {
            const char *id = common->row->variant;
            note = pinned ? xasprintf("%s %s requires torch %s; both have native code for this "
                                      "GPU in %s: install them together from that index",
                                      proj, cver, pin, id)
                          : xasprintf("%s %s's best build here is %s and torch %s's is %s; built "
                                      "against different CUDA versions they do not work "
                                      "together. Both have native code for this GPU in %s: "
                                      "install them together from that index",
                                      proj, cver, cix, tver, tix, id);
            set_together(v->t, e, common, tpin, proj, cpin);
        } else {
            note = xasprintf("%s %s's best build here is %s%s%s; no variant of both it and torch "
                             "%s has native code for this GPU (built against different CUDA "
                             "versions, two variants do not work together): build one of them "
                             "from source, or use an older release of %s",
                             proj, cver, cix, pinned ? ", and it requires torch " : "",
                             pinned ? pin : "", tver, proj);
        }
        free(tpin);
        free(cpin);
    }
    e->note = note;
    answer_free(pinned);
    free(pin);
    free(pin_release);
}

struct stack_result *stack_answer(const struct dbview *v, const struct query_options *o)
{
    size_t n;
    const char **names = stack_projects(v, 0, &n);
    struct stack_result *out = stack_answer_projects(v, o, names, n);
    free(names);
    return out;
}

struct stack_result *stack_answer_projects(const struct dbview *v, const struct query_options *o,
                                           const char *const *names, size_t n)
{
    struct stack_result *out = xcalloc(1, sizeof *out);
    out->entries = xcalloc(n ? n : 1, sizeof *out->entries);
    const struct answer_result *torch = NULL;
    for (size_t k = 0; k < n; k++) {
        struct query_options q = *o;
        q.project = names[k];
        q.version = NULL;
        struct wa_error err;
        struct answer_result *res = query_answer(v, &q, &err);
        if (!res)
            continue; /* nothing for this platform */
        struct stack_entry *e = &out->entries[out->n++];
        e->res = res;
        if (k == 0 && strcmp(names[k], "torch") == 0)
            torch = res;
        else if (torch)
            check_pair(v, o, torch, e);
    }
    return out;
}

void stack_free(struct stack_result *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        struct stack_entry *e = &s->entries[i];
        answer_free(e->res);
        free(e->note);
        free(e->together.index_url);
        free(e->together.torch_pin);
        free(e->together.pin);
        answer_commands_free(&e->together.commands);
    }
    free(s->entries);
    free(s);
}

json_t *stack_together_json(const struct stack_entry *e)
{
    const struct stack_together *t = &e->together;
    json_t *x = json_object();
    json_object_set_new(x, "index", json_string(t->index));
    json_object_set_new(x, "index_url", json_string(t->index_url));
    json_t *vs = json_object();
    json_object_set_new(vs, "torch", json_string(t->torch_pin));
    json_object_set_new(vs, e->res->project, json_string(t->pin));
    json_object_set_new(x, "versions", vs);
    json_object_set_new(x, "commands", answer_commands_json(&t->commands));
    return x;
}

json_t *stack_json(const struct stack_result *s)
{
    json_t *all = json_array();
    for (size_t i = 0; i < s->n; i++) {
        const struct stack_entry *e = &s->entries[i];
        json_t *res = answer_json(e->res);
        if (e->note)
            json_object_set_new(res, "stack_note", json_string(e->note));
        if (e->has_together)
            json_object_set_new(res, "together", stack_together_json(e));
        json_array_append_new(all, res);
    }
    json_t *out = json_object();
    json_object_set_new(out, "stack", all);
    return out;
}

json_t *stack_run(const struct dbview *v, const struct query_options *o)
{
    struct stack_result *r = stack_answer(v, o);
    json_t *out = stack_json(r);
    stack_free(r);
    return out;
}

json_t *stack_run_projects(const struct dbview *v, const struct query_options *o,
                           const char *const *names, size_t n)
{
    struct stack_result *r = stack_answer_projects(v, o, names, n);
    json_t *out = stack_json(r);
    stack_free(r);
    return out;
}
