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
