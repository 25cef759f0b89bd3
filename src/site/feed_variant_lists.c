/*
 * feed_variant_lists: a device's static compatibility lists, per driver
 * (feed_variant_lists.h).
 */
#include "feed_variant_lists.h"

#include <stdlib.h>
#include <string.h>

#include "hostvariants.h"
#include "xalloc.h"

char *feed_variant_lists_path(const char *id)
{
    return xasprintf("api/v1/variants/static/%s.json", id);
}

/* Whether toolkit k is the first row of its CUDA minor with a Linux
 * driver (Table 3 lists GA and updates; the GA's driver is the minor's
 * minimum), and so the one to give an entry. */
static int minor_first(const struct tables *t, size_t k)
{
    const struct toolkit *a = &t->toolkits[k];
    if (!a->min_driver[TABLES_LINUX].n)
        return 0;
    for (size_t i = 0; i < t->ntoolkits; i++) {
        const struct toolkit *b = &t->toolkits[i];
        if (i == k || !b->min_driver[TABLES_LINUX].n || b->cuda.f[0] != a->cuda.f[0] ||
            (b->cuda.n > 1 ? b->cuda.f[1] : 0) != (a->cuda.n > 1 ? a->cuda.f[1] : 0))
            continue;
        int c = dotver_cmp(&b->min_driver[TABLES_LINUX], &a->min_driver[TABLES_LINUX]);
        if (c < 0 || (c == 0 && i < k))
            return 0;
    }
    return 1;
}

static int newest_first(const void *x, const void *y, void *ctx)
{
    const struct tables *t = ctx;
    return -dotver_cmp(&t->toolkits[*(const size_t *)x].cuda,
                       &t->toolkits[*(const size_t *)y].cuda);
}

json_t *feed_variant_lists_json(const struct tables *t, uint16_t cc, const char *id)
{
    json_t *o = json_object();
    json_object_set_new(o, "device", json_string(id));
    json_object_set_new(o, "format",
                        json_string("static compatibility lists: providers.{namespace}."
                                    "static-properties as the draft of PEP 850 (Wheel Variants: "
                                    "Providers) has them, each feature's values most preferred "
                                    "first; the properties are PEP 825's"));
    json_t *drivers = json_array();
    if (cc >= TABLES_AMD_MIN) {
        json_t *props = hostvariants_properties(t, &cc, 1, NULL, TABLES_LINUX, NULL);
        json_object_set_new(o, "providers", hostvariants_static_lists(props));
        json_object_set_new(o, "rocm_version",
                            json_string("the installed ROCm's X.Y (rocminfo), which no file can "
                                        "know: wheelarch variants reads it from the machine"));
        json_decref(props);
        json_object_set_new(o, "drivers", drivers);
        return o;
    }
    const struct toolkit *first = tables_first_toolkit(t, cc);
    const struct arch_support *end = tables_driver_branch_end(t, cc);
    size_t *ks = xcalloc(t->ntoolkits + 1, sizeof *ks), n = 0;
    for (size_t k = 0; k < t->ntoolkits; k++) {
        const struct toolkit *tk = &t->toolkits[k];
        if (!minor_first(t, k) || tk->cuda.f[0] < 11 ||
            (first && dotver_cmp(&tk->cuda, &first->cuda) < 0))
            continue;
        if (end && end->last_branch_cuda.n) {
            struct dotver mm = tk->cuda;
            mm.n = end->last_branch_cuda.n < mm.n ? end->last_branch_cuda.n : mm.n;
            if (dotver_cmp(&mm, &end->last_branch_cuda) > 0)
                continue; /* a driver the GPU cannot run */
        }
        ks[n++] = k;
    }
    qsort_r(ks, n, sizeof *ks, newest_first, (void *)t);
    for (size_t i = 0; i < n; i++) {
        const struct toolkit *tk = &t->toolkits[ks[i]];
        json_t *props =
            hostvariants_properties(t, &cc, 1, &tk->min_driver[TABLES_LINUX], TABLES_LINUX, NULL);
        char cuda[32];
        snprintf(cuda, sizeof cuda, "%ld.%ld", tk->cuda.f[0], tk->cuda.n > 1 ? tk->cuda.f[1] : 0L);
        json_array_append_new(drivers, json_pack("{s:s,s:s,s:o}", "cuda", cuda, "min_driver",
                                                 tk->min_driver_text[TABLES_LINUX], "providers",
                                                 hostvariants_static_lists(props)));
        json_decref(props);
    }
    free(ks);
    if (!n) {
        /* Fermi and older: no driver of theirs has a CUDA a wheel variant
         * names, so only the code lists, as for a machine whose driver is
         * not known */
        json_t *props = hostvariants_properties(t, &cc, 1, NULL, TABLES_LINUX, NULL);
        json_object_set_new(o, "providers", hostvariants_static_lists(props));
        json_decref(props);
        json_object_set_new(o, "note",
                            json_string("no driver for this GPU supports CUDA 11 or later, the "
                                        "oldest cuda_version_lower_bound a wheel variant names: "
                                        "no CUDA variant is for it"));
    }
    json_object_set_new(o, "drivers", drivers);
    return o;
}
