/*
 * pepvariants: PEP 825 `{name}-{version}-variants.json` from the view
 * (pepvariants.h).
 */
#include "pepvariants.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostvariants.h"
#include "target.h"
#include "wheelname.h"
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

/* Whether s is a PEP 825 value or label: [a-z0-9_.]+. */
static int pep_token(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_' || *s == '.'))
            return 0;
    return 1;
}

/* The properties of one build, and its a/f targets apart (new references). */
static json_t *props_of(const struct dbview_row *r, const struct tables *t, json_t **specific)
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
        if (pep_token(name))
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

/* "torch", "fbgemm_gpu": a project's name as wheel file names spell it
 * (PEP 503-normalised, '-' as '_'). */
static char *file_name(const char *project)
{
    char *s = wheelname_normalize(project);
    for (char *p = s; *p; p++)
        if (*p == '-')
            *p = '_';
    return s;
}

static int safe_version(const char *v)
{
    if (!*v)
        return 0;
    for (; *v; v++)
        if (!isalnum((unsigned char)*v) && !strchr(".!+_", *v))
            return 0;
    return 1;
}

static int cmp_row(const void *a, const void *b, void *ctx)
{
    const struct dbview *v = ctx;
    const struct dbview_row *x = &v->rows[*(const size_t *)a];
    const struct dbview_row *y = &v->rows[*(const size_t *)b];
    int c = strcmp(x->project, y->project);
    if (!c)
        c = strcmp(x->version, y->version);
    if (!c)
        c = strcmp(x->variant, y->variant);
    if (!c)
        c = strcmp(x->platform, y->platform);
    return c;
}

/* The label of a platform ("linux-x86_64" -> "linux_x86_64"). */
static char *platform_label(const char *variant, const char *platform)
{
    char *s = xasprintf("%s.%s", variant, platform);
    for (char *p = s; *p; p++)
        if (*p == '-')
            *p = '_';
    return s;
}

int pepvariants_each(const struct dbview *v, const struct tables *t,
                     int (*fn)(void *ud, const char *file, json_t *doc), void *ud, json_t **index)
{
    size_t *idx = xcalloc(v->nrows + 1, sizeof *idx), n = 0;
    for (size_t i = 0; i < v->nrows; i++)
        if (v->rows[i].status != VIEW_DECLARED && pep_token(v->rows[i].variant) &&
            safe_version(v->rows[i].version))
            idx[n++] = i;
    qsort_r(idx, n, sizeof *idx, cmp_row, (void *)v);
    *index = json_array();
    int rc = 0;
    for (size_t g = 0; g < n && rc == 0;) {
        const struct dbview_row *first = &v->rows[idx[g]];
        size_t end = g;
        while (end < n && strcmp(v->rows[idx[end]].project, first->project) == 0 &&
               strcmp(v->rows[idx[end]].version, first->version) == 0)
            end++;
        json_t *variants = json_object(), *labels = json_object();
        int nvidia = 0, amd = 0;
        for (size_t a = g; a < end;) {
            const char *variant = v->rows[idx[a]].variant;
            size_t b = a;
            while (b < end && strcmp(v->rows[idx[b]].variant, variant) == 0)
                b++;
            /* each platform's properties; one label when all agree */
            size_t k = b - a;
            json_t **props = xcalloc(k, sizeof *props), **spec = xcalloc(k, sizeof *spec);
            int same = 1;
            for (size_t i = 0; i < k; i++) {
                props[i] = props_of(&v->rows[idx[a + i]], t, &spec[i]);
                same &= i == 0 || (json_equal(props[i], props[0]) && json_equal(spec[i], spec[0]));
            }
            for (size_t i = 0; i < (same ? 1 : k); i++) {
                const struct dbview_row *r = &v->rows[idx[a + i]];
                if (!json_object_size(props[i]) && strcmp(variant, "cpu") != 0)
                    continue; /* no code, and not the CPU build: nothing to say */
                char *label = strcmp(variant, "cpu") == 0 ? xstrdup("null")
                              : same                      ? xstrdup(variant)
                                                          : platform_label(variant, r->platform);
                nvidia |= json_object_get(props[i], "nvidia") != NULL;
                amd |= json_object_get(props[i], "amd") != NULL;
                if (strcmp(label, "null") == 0)
                    json_object_set_new(variants, label, json_object());
                else
                    json_object_set(variants, label, props[i]);
                json_t *plats = json_array();
                for (size_t p = (same ? 0 : i); p < (same ? k : i + 1); p++)
                    json_array_append_new(plats, json_string(v->rows[idx[a + p]].platform));
                json_object_set_new(labels, label,
                                    json_pack("{s:s,s:o,s:O}", "variant", variant, "platforms",
                                              plats, "sm_arch_specific", spec[i]));
                free(label);
            }
            for (size_t i = 0; i < k; i++) {
                json_decref(props[i]);
                json_decref(spec[i]);
            }
            free(props);
            free(spec);
            a = b;
        }
        if (json_object_size(variants)) {
            json_t *ns = json_array();
            if (nvidia)
                json_array_append_new(ns, json_string("nvidia"));
            if (amd)
                json_array_append_new(ns, json_string("amd"));
            if (!json_array_size(ns)) /* the CPU build alone */
                json_array_append_new(ns, json_string("nvidia"));
            json_t *doc = json_pack("{s:s,s:{s:o},s:O}", "$schema", PEPVARIANTS_SCHEMA,
                                    "default-priorities", "namespace", ns, "variants", variants);
            char *name = file_name(first->project);
            char *file = xasprintf("%s-%s-variants.json", name, first->version);
            json_array_append_new(*index, json_pack("{s:s,s:s,s:s,s:O}", "project", first->project,
                                                    "version", first->version, "file", file,
                                                    "labels", labels));
            rc = fn(ud, file, doc);
            json_decref(doc);
            free(file);
            free(name);
        }
        json_decref(variants);
        json_decref(labels);
        g = end;
    }
    free(idx);
    return rc;
}
