/*
 * stack: every crawled project's answer on one GPU, and whether they go
 * together (see stack.h).
 */
#include "stack.h"

#include <stdlib.h>
#include <string.h>

#include "jsontext.h"
#include "xalloc.h"
#include "strbuf.h"
#include "tables.h"
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

static const char *str_at(const json_t *o, const char *k1, const char *k2)
{
    const json_t *x = json_object_get(o, k1);
    return json_string_value(k2 ? json_object_get(x, k2) : x);
}

/* The answer a result installs: its recommendation, else its fallback. */
static const json_t *answer_of(const json_t *res)
{
    const json_t *a = json_object_get(res, "recommendation");
    return json_is_object(a) ? a : json_object_get(res, "fallback");
}

/* The entry of `variants` for variant id, with native code, or NULL. */
static const json_t *native_variant(const json_t *res, const char *id)
{
    size_t i;
    const json_t *x;
    json_array_foreach(json_object_get(res, "variants"), i, x)
    {
        const char *vid = json_string_value(json_object_get(x, "variant"));
        const char *verdict = json_string_value(json_object_get(x, "verdict"));
        if (vid && verdict && strcmp(vid, id) == 0 && strcmp(verdict, "native") == 0)
            return x;
    }
    return NULL;
}

/* The variant in which both torch's release and the companion's have
 * native code, the newest CUDA among such; NULL when none. */
static const json_t *common_variant(const json_t *torch, const json_t *comp)
{
    const json_t *best = NULL;
    struct dotver best_cuda = {0};
    size_t i;
    const json_t *x;
    json_array_foreach(json_object_get(comp, "variants"), i, x)
    {
        const char *id = json_string_value(json_object_get(x, "variant"));
        if (!id || !native_variant(comp, id) || !native_variant(torch, id))
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
                          const json_t *res, const char *platform)
{
    const json_t *a = answer_of(res);
    const char *proj = str_at(res, "project", NULL), *ver = str_at(a, "version", NULL);
    const char *ix = str_at(a, "index", NULL);
    if (!proj || !ver || !ix || !platform)
        return NULL;
    char *pin = NULL;
    /* with the query order, only the project's rows on the platform */
    size_t n = v->nrows;
    const size_t *rows = order ? query_order_rows(order, proj, platform, &n) : NULL;
    for (size_t i = 0; i < n && !pin; i++) {
        const struct dbview_row *r = &v->rows[rows ? rows[i] : i];
        if (!r->requires || strcmp(r->project, proj) != 0 || strcmp(r->version, ver) != 0 ||
            strcmp(r->variant, ix) != 0 || strcmp(r->platform, platform) != 0)
            continue;
        json_t *list = jsontext_loads(r->requires, 0, NULL);
        size_t k;
        json_t *q;
        json_array_foreach(list, k, q)
        {
            const char *req = json_string_value(q);
            char *name = NULL, *p = NULL;
            if (!pin && req && wheelmeta_marker_applies(req, platform) &&
                wheelmeta_requirement(req, &name, &p) == 0 && strcmp(name, "torch") == 0 && p) {
                pin = p;
                p = NULL;
            }
            free(name);
            free(p);
        }
        json_decref(list);
    }
    return pin;
}

/* Sets res's stack_note and together: install torch (torch_pin) and the
 * companion (its release's pin) from variant `common` (an entry of
 * `variants`). */
static void set_together(json_t *res, const json_t *common, const char *torch_pin, const char *proj,
                         const char *comp_pin)
{
    const char *id = json_string_value(json_object_get(common, "variant"));
    const char *url = json_string_value(json_object_get(common, "index_url"));
    json_t *t = json_object();
    json_object_set_new(t, "index", json_string(id ? id : ""));
    json_object_set_new(t, "index_url", json_string(url ? url : ""));
    json_t *vs = json_object();
    json_object_set_new(vs, "torch", json_string(torch_pin));
    json_object_set_new(vs, proj, json_string(comp_pin));
    json_object_set_new(t, "versions", vs);
    json_t *cmds = json_object();
    char *pip = xasprintf("pip install torch==%s %s==%s --index-url %s", torch_pin, proj, comp_pin,
                          url ? url : "");
    json_object_set_new(cmds, "pip", json_string(pip));
    char *uv = xasprintf("uv %s", pip);
    json_object_set_new(cmds, "uv", json_string(uv));
    json_object_set_new(t, "commands", cmds);
    json_object_set_new(res, "together", t);
    free(pip);
    free(uv);
}

/* Checks companion res against torch's answer; adds stack_note and, where
 * a variant suits both, together. */
static void check_pair(const struct dbview *v, const struct query_options *o, const json_t *torch,
                       json_t *res)
{
    const json_t *ta = answer_of(torch), *ca = answer_of(res);
    const char *tix = str_at(ta, "index", NULL), *cix = str_at(ca, "index", NULL);
    const char *turl = str_at(ta, "index_url", NULL), *curl = str_at(ca, "index_url", NULL);
    const char *proj = str_at(res, "project", NULL), *cver = str_at(ca, "version", NULL);
    if (!tix || !cix || !turl || !curl || !proj || !cver)
        return;
    size_t fl = family_len(turl);
    int same_family = family_len(curl) == fl && strncmp(turl, curl, fl) == 0;
    /* The torch the companion was built for, when it pins one. */
    char *pin = pinned_torch(v, o->order, res, o->platform);
    char *pin_release = pin ? dotver_release(pin) : NULL;
    const char *trel = str_at(torch, "version", NULL);
    json_t *pinned = NULL;
    if (pin && trel && strcmp(pin_release, trel) != 0) {
        struct query_options q = *o;
        q.project = "torch";
        q.version = pin;
        struct wa_error err;
        pinned = query_run(v, &q, &err); /* NULL: that torch is not in the data */
    }
    const json_t *tq = pinned ? pinned : torch;
    const char *tver = str_at(tq, "version", NULL);
    char *note = NULL;
    if (!same_family) {
        /* another family's variants are not torch's; only the pin matters */
        if (pin && trel && strcmp(pin_release, trel) != 0)
            note = xasprintf("%s %s requires torch %s, not torch %s: installing it replaces that "
                             "torch with its own",
                             proj, cver, pin, trel);
    } else if (strcmp(tix, cix) != 0 || pinned) {
        const json_t *common = common_variant(tq, res);
        /* the answers' own pins where they are of the releases compared */
        const json_t *tqa = answer_of(tq);
        const char *tqa_rel = str_at(tqa, "release", NULL), *ca_rel = str_at(ca, "release", NULL);
        const char *crel = str_at(res, "version", NULL);
        char *tpin = pin ? xstrdup(pin)
                     : tqa_rel && tver && strcmp(tqa_rel, tver) == 0
                         ? xstrdup(str_at(tqa, "pin", NULL))
                         : xasprintf("%s.*", tver ? tver : trel);
        char *cpin = ca_rel && crel && strcmp(ca_rel, crel) == 0 ? xstrdup(str_at(ca, "pin", NULL))
                                                                 : xasprintf("%s.*", crel);
        if (common) {
            const char *id = json_string_value(json_object_get(common, "variant"));
            note = pinned ? xasprintf("%s %s requires torch %s; both have native code for this "
                                      "GPU in %s: install them together from that index",
                                      proj, cver, pin, id)
                          : xasprintf("%s %s's best build here is %s and torch %s's is %s; built "
                                      "against different CUDA versions they do not work "
                                      "together. Both have native code for this GPU in %s: "
                                      "install them together from that index",
                                      proj, cver, cix, tver, tix, id);
            set_together(res, common, tpin, proj, cpin);
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
    if (note)
        json_object_set_new(res, "stack_note", json_string(note));
    free(note);
    json_decref(pinned);
    free(pin);
    free(pin_release);
}

json_t *stack_run(const struct dbview *v, const struct query_options *o)
{
    size_t n;
    const char **names = stack_projects(v, 0, &n);
    json_t *out = stack_run_projects(v, o, names, n);
    free(names);
    return out;
}

json_t *stack_run_projects(const struct dbview *v, const struct query_options *o,
                           const char *const *names, size_t n)
{
    json_t *all = json_array();
    const json_t *torch = NULL;
    for (size_t k = 0; k < n; k++) {
        struct query_options q = *o;
        q.project = names[k];
        q.version = NULL;
        struct wa_error err;
        json_t *res = query_run(v, &q, &err);
        if (!res)
            continue; /* nothing for this platform */
        if (k == 0 && strcmp(names[k], "torch") == 0)
            torch = res;
        else if (torch)
            check_pair(v, o, torch, res);
        json_array_append_new(all, res);
    }
    json_t *out = json_object();
    json_object_set_new(out, "stack", all);
    return out;
}
