/*
 * hostvariants: the PEP 825 properties this machine supports
 * (hostvariants.h).
 */
#include "hostvariants.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "target.h"
#include "xalloc.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Appends s (taken) to the list. */
static void add(char ***l, size_t *n, char *s)
{
    *l = xrealloc(*l, (*n + 1) * sizeof **l);
    (*l)[(*n)++] = s;
}

json_t *hostvariants_values(char **values, size_t n)
{
    if (n > 1)
        qsort(values, n, sizeof *values, cmp_str);
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        if (i == 0 || strcmp(values[i], values[i - 1]) != 0)
            json_array_append_new(a, json_string(values[i]));
    for (size_t i = 0; i < n; i++)
        free(values[i]);
    free(values);
    return a;
}

json_t *hostvariants_properties(const struct tables *t, const uint16_t *ccs, size_t n,
                                const struct dotver *driver, int os, const char *rocm)
{
    json_t *out = json_object();
    size_t nn = 0, na = 0;
    for (size_t i = 0; i < n; i++)
        if (ccs[i] >= TABLES_AMD_MIN)
            na++;
        else
            nn++;
    if (nn) {
        char **sm = NULL;
        size_t nsm = 0;
        /* candidate architectures: every compute capability of the GPU table */
        for (size_t g = 0; g < t->ngpus; g++) {
            uint16_t arch = t->gpus[g].cc;
            if (arch >= TABLES_AMD_MIN)
                continue;
            struct target s = {0}, p = {0};
            s.kind = TARGET_SASS;
            s.arch = arch;
            p.kind = TARGET_PTX;
            p.arch = arch;
            int real = 1, virt = 1;
            for (size_t i = 0; i < n; i++) {
                if (ccs[i] >= TABLES_AMD_MIN)
                    continue;
                real &= compat_sass_runs(t, &s, ccs[i]);
                virt &= compat_ptx_jits(t, &p, ccs[i]);
            }
            if (real)
                add(&sm, &nsm, xasprintf("%u_real", (unsigned)arch));
            if (virt)
                add(&sm, &nsm, xasprintf("%u_virtual", (unsigned)arch));
        }
        json_t *nv = json_object();
        json_object_set_new(nv, "sm_arch", hostvariants_values(sm, nsm));
        const struct toolkit *top = driver && driver->n ? tables_driver_cuda(t, driver, os) : NULL;
        if (top) {
            char **cv = NULL;
            size_t ncv = 0;
            for (size_t k = 0; k < t->ntoolkits; k++) {
                const struct dotver *c = &t->toolkits[k].cuda;
                struct dotver mm = {0};
                mm.n = 2;
                mm.f[0] = c->f[0];
                mm.f[1] = c->n > 1 ? c->f[1] : 0;
                struct dotver topmm = {0};
                topmm.n = 2;
                topmm.f[0] = top->cuda.f[0];
                topmm.f[1] = top->cuda.n > 1 ? top->cuda.f[1] : 0;
                if (c->f[0] < 11 || dotver_cmp(&mm, &topmm) > 0)
                    continue;
                add(&cv, &ncv, xasprintf("%ld.%ld", mm.f[0], mm.f[1]));
                add(&cv, &ncv, xasprintf("%ld", mm.f[0]));
            }
            json_object_set_new(nv, "cuda_version_lower_bound", hostvariants_values(cv, ncv));
        }
        json_object_set_new(out, "nvidia", nv);
    }
    if (na) {
        json_t *amd = json_object();
        uint16_t first = 0;
        int same = 1;
        for (size_t i = 0; i < n; i++)
            if (ccs[i] >= TABLES_AMD_MIN) {
                same &= !first || ccs[i] == first;
                if (!first)
                    first = ccs[i];
            }
        if (same) {
            char name[16];
            compat_cc_string(first, name, sizeof name);
            json_object_set_new(amd, "gfx_arch", json_pack("[s]", name));
        }
        int maj, min;
        if (rocm && sscanf(rocm, "%d.%d", &maj, &min) == 2) {
            char *rv = xasprintf("%d.%d", maj, min);
            json_object_set_new(amd, "rocm_version", json_pack("[s]", rv));
            free(rv);
        }
        json_object_set_new(out, "amd", amd);
    }
    return out;
}

/* Preference of two values of one feature (qsort: the preferred first):
 * sm_arch's _real values before _virtual, each the newest architecture
 * first; cuda_version_lower_bound's newest version first, a major ("12")
 * right after its last minor ("12.0"), as NVIDIA's provider orders them;
 * other features' values as they are (lexically). */
static int preferred(const char *feature, const char *a, const char *b)
{
    if (strcmp(feature, "sm_arch") == 0) {
        int va = strstr(a, "_virtual") != NULL, vb = strstr(b, "_virtual") != NULL;
        if (va != vb)
            return va - vb;
        long x = strtol(a, NULL, 10), y = strtol(b, NULL, 10);
        return x == y ? strcmp(a, b) : x > y ? -1 : 1;
    }
    if (strcmp(feature, "cuda_version_lower_bound") == 0) {
        char *ea, *eb;
        long ma = strtol(a, &ea, 10), mb = strtol(b, &eb, 10);
        if (ma != mb)
            return ma > mb ? -1 : 1;
        /* within a major: minors newest first, the bare major last */
        long na = *ea == '.' ? strtol(ea + 1, NULL, 10) : -1;
        long nb = *eb == '.' ? strtol(eb + 1, NULL, 10) : -1;
        return na == nb ? 0 : na > nb ? -1 : 1;
    }
    return strcmp(a, b);
}

static int by_preference(const void *a, const void *b, void *feature)
{
    return preferred(feature, json_string_value(*(json_t *const *)a),
                     json_string_value(*(json_t *const *)b));
}

json_t *hostvariants_ordered(json_t *props)
{
    json_t *out = json_object();
    const char *ns, *feature;
    json_t *feats, *vals;
    json_object_foreach(props, ns, feats)
    {
        json_t *o = json_object();
        json_object_foreach(feats, feature, vals)
        {
            size_t n = json_array_size(vals);
            json_t **v = xcalloc(n ? n : 1, sizeof *v);
            for (size_t i = 0; i < n; i++)
                v[i] = json_array_get(vals, i);
            qsort_r(v, n, sizeof *v, by_preference, (void *)feature);
            json_t *a = json_array();
            for (size_t i = 0; i < n; i++)
                json_array_append(a, v[i]);
            free(v);
            json_object_set_new(o, feature, a);
        }
        json_object_set_new(out, ns, o);
    }
    return out;
}

json_t *hostvariants_static_lists(json_t *props)
{
    json_t *ordered = hostvariants_ordered(props), *out = json_object();
    const char *ns;
    json_t *feats;
    json_object_foreach(ordered, ns, feats)
        json_object_set_new(out, ns, json_pack("{s:O}", "static-properties", feats));
    json_decref(ordered);
    return out;
}
