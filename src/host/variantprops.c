/*
 * variantprops: a build's GPU code as PEP 825 properties (variantprops.h).
 */
#include "variantprops.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostvariants.h"
#include "target.h"
#include "xalloc.h"

struct list {
    char **s;
    size_t n, cap;
};

static void push(struct list *l, char *s)
{
    l->s = xgrow(l->s, &l->cap, l->n + 1, sizeof *l->s);
    l->s[l->n++] = s;
}

int variantprops_token(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_' || *s == '.'))
            return 0;
    return 1;
}

json_t *variantprops_of_row(const struct dbview_row *r, const struct tables *t, json_t **specific)
{
    json_t *props = json_object();
    struct list sm = {0}, sp = {0}, gfx = {0};
    char name[TARGET_NAME_MAX];
    for (size_t i = 0; i < r->nsass; i++) {
        if (r->sass[i].suffix) {
            target_format(&r->sass[i], name, sizeof name);
            push(&sp, xstrdup(name));
        } else {
            push(&sm, xasprintf("%u_real", (unsigned)r->sass[i].arch));
        }
    }
    for (size_t i = 0; i < r->nptx; i++) {
        if (r->ptx[i].suffix) {
            target_format(&r->ptx[i], name, sizeof name);
            push(&sp, xstrdup(name));
        } else {
            push(&sm, xasprintf("%u_virtual", (unsigned)r->ptx[i].arch));
        }
    }
    if (sm.n) {
        json_t *nv = json_object();
        json_object_set_new(nv, "sm_arch", hostvariants_values(sm.s, sm.n));
        if (r->cuda.n >= 1) {
            size_t vl = strlen(r->variant);
            char *b = vl && r->variant[vl - 1] == 'x'
                          ? xasprintf("%ld", r->cuda.f[0])
                          : xasprintf("%ld.%ld", r->cuda.f[0], r->cuda.n > 1 ? r->cuda.f[1] : 0L);
            json_object_set_new(nv, "cuda_version_lower_bound", json_pack("[s]", b));
            free(b);
        }
        json_object_set_new(props, "nvidia", nv);
    } else {
        free(sm.s);
    }
    for (size_t i = 0; i < r->ngfx; i++) {
        struct target g = r->gfx[i];
        g.xnack = g.sramecc = TARGET_FEAT_ANY;
        if (g.suffix == 'g') { /* a generic target: the processors it covers */
            for (size_t k = 0; k < t->namd; k++) {
                const struct amd_processor *p = &t->amd[k];
                if (p->generic || p->covered_by != g.arch)
                    continue;
                struct target c = {0};
                c.kind = g.kind;
                c.arch = p->arch;
                target_format(&c, name, sizeof name);
                push(&gfx, xstrdup(name));
            }
            continue;
        }
        target_format(&g, name, sizeof name);
        if (variantprops_token(name))
            push(&gfx, xstrdup(name));
    }
    if (gfx.n) {
        json_t *amd = json_object();
        json_object_set_new(amd, "gfx_arch", hostvariants_values(gfx.s, gfx.n));
        if (strncmp(r->variant, "rocm", 4) == 0) {
            int maj = 0, min = 0;
            if (sscanf(r->variant + 4, "%d.%d", &maj, &min) == 2) {
                char *rv = xasprintf("%d.%d", maj, min);
                json_object_set_new(amd, "rocm_version", json_pack("[s]", rv));
                free(rv);
            }
        }
        json_object_set_new(props, "amd", amd);
    } else {
        free(gfx.s);
    }
    *specific = hostvariants_values(sp.s, sp.n);
    return props;
}

int variantprops_selects(json_t *machine, json_t *build)
{
    const char *ns, *feat;
    json_t *feats, *vals;
    json_object_foreach(build, ns, feats)
    {
        json_t *have = json_object_get(machine, ns);
        json_object_foreach(feats, feat, vals)
        {
            json_t *mv = json_object_get(have, feat);
            int shared = 0;
            size_t i, j;
            json_t *a, *b;
            json_array_foreach(vals, i, a)
            {
                json_array_foreach(mv, j, b) shared |= json_equal(a, b);
            }
            if (!shared)
                return 0;
        }
    }
    return 1;
}
