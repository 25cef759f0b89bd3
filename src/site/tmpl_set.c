/*
 * tmpl_set: templates loaded by name through a loader, each once, their
 * partials linked; the limits a set renders with.
 */
#include "tmpl_set.h"
#include "tmpl_compile.h"
#include "tmpl_state.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strmap.h"
#include "xalloc.h"

#define GONE SIZE_MAX /* strmap value of a name dropped after a failed load */

struct entry {
    char *name;
    struct tmpl *t;
};

struct tmpl_set {
    tmpl_loader loader;
    void *ud;
    struct entry *e;
    size_t n, cap;
    struct strmap *map; /* name -> index in e, or GONE */
    size_t max_output;
    unsigned long max_steps;
    tmpl_lookup_fn trace;
    void *trace_ud;
};

void tmpl_set_trace(struct tmpl_set *s, tmpl_lookup_fn fn, void *ud)
{
    s->trace = fn;
    s->trace_ud = ud;
}

void tmpli_set_trace_of(const struct tmpl_set *s, const struct tmpl *t, struct tmpli_trace *out)
{
    out->fn = s ? s->trace : NULL;
    out->ud = s ? s->trace_ud : NULL;
    out->top_name = "";
    for (size_t i = 0; out->fn && i < s->n; i++)
        if (s->e[i].t == t)
            out->top_name = s->e[i].name;
}

void tmpli_set_budget(const struct tmpl_set *s, size_t *max_output, unsigned long *max_steps)
{
    *max_output = s ? s->max_output : TMPL_DEFAULT_MAX_OUTPUT;
    *max_steps = s ? s->max_steps : TMPL_DEFAULT_MAX_STEPS;
}

struct tmpl_set *tmpl_set_new(tmpl_loader loader, void *ud)
{
    struct tmpl_set *s = xcalloc(1, sizeof *s);
    s->loader = loader;
    s->ud = ud;
    s->map = strmap_new();
    s->max_output = TMPL_DEFAULT_MAX_OUTPUT;
    s->max_steps = TMPL_DEFAULT_MAX_STEPS;
    return s;
}

void tmpl_set_free(struct tmpl_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->e[i].name);
        tmpl_free(s->e[i].t);
    }
    free(s->e);
    strmap_free(s->map);
    free(s);
}

void tmpl_set_limits(struct tmpl_set *s, size_t max_output, unsigned long max_steps)
{
    s->max_output = max_output ? max_output : TMPL_DEFAULT_MAX_OUTPUT;
    s->max_steps = max_steps ? max_steps : TMPL_DEFAULT_MAX_STEPS;
}

static int cached(const struct tmpl_set *s, const char *name, size_t *idx)
{
    return strmap_get(s->map, name, idx) && *idx != GONE;
}

/* Loads and compiles one template and appends it to the set (unlinked). */
static int load_one(struct tmpl_set *s, const char *name, const struct ref *ref,
                    struct wa_error *err)
{
    char *text = NULL;
    size_t len = 0;
    int rc = s->loader ? s->loader(s->ud, name, &text, &len) : WA_ERR_USAGE;
    if (rc != 0) {
        free(text);
        rc = rc < 0 ? rc : WA_ERR_IO;
        if (!ref)
            return wa_error_set(err, rc, "cannot load template '%s'", name);
        if (ref->from)
            return wa_error_set(err, rc,
                                "partial '%s': line %u column %u: cannot load partial '%s'",
                                ref->from, ref->line, ref->col, name);
        return wa_error_set(err, rc, "line %u column %u: cannot load partial '%s'", ref->line,
                            ref->col, name);
    }
    struct tmpl *t;
    rc = tmpl_compile(text, len, &t, err);
    free(text);
    if (rc != 0) {
        if (ref) {
            char prefix[NAME_SHOWN + 16];
            snprintf(prefix, sizeof prefix, "partial '%.*s'", tmpli_shown(strlen(name)), name);
            wa_error_prefix(err, prefix);
        }
        return rc;
    }
    s->e = xgrow(s->e, &s->cap, s->n + 1, sizeof *s->e);
    s->e[s->n].name = xstrdup(name);
    s->e[s->n].t = t;
    strmap_put(s->map, name, s->n);
    s->n++;
    return 0;
}

/* tmpl_set_get; ref is the partial tag asking, or NULL.  New templates are
 * linked breadth-first through a worklist (the tail of s->e), so a long
 * chain of partials costs no recursion; a cycle finds itself cached. */
int tmpli_set_get(struct tmpl_set *s, const char *name, const struct ref *ref,
                  const struct tmpl **out, struct wa_error *err)
{
    size_t idx, first = s->n;
    *out = NULL;
    if (cached(s, name, &idx)) {
        *out = s->e[idx].t;
        return 0;
    }
    int rc = load_one(s, name, ref, err);
    if (rc != 0)
        return rc;
    for (size_t i = first; i < s->n; i++) {
        struct tmpl *t = s->e[i].t;
        for (size_t k = 0; k < t->n; k++) {
            struct node *nd = &t->nodes[k];
            if (nd->type != N_PARTIAL)
                continue;
            const char *pname = t->pool.buf + nd->name;
            if (!cached(s, pname, &idx)) {
                struct ref r = {nd->line, nd->col, i == first && !ref ? NULL : s->e[i].name};
                rc = load_one(s, pname, &r, err);
                if (rc != 0)
                    goto fail;
                idx = s->n - 1;
            }
            nd->partial = s->e[idx].t;
        }
    }
    *out = s->e[first].t;
    return 0;
fail:
    while (s->n > first) {
        s->n--;
        strmap_put(s->map, s->e[s->n].name, GONE);
        free(s->e[s->n].name);
        tmpl_free(s->e[s->n].t);
    }
    return rc;
}

int tmpl_set_get(struct tmpl_set *s, const char *name, const struct tmpl **out,
                 struct wa_error *err)
{
    return tmpli_set_get(s, name, NULL, out, err);
}
