/*
 * pepvariants: PEP 825 `{name}-{version}-variants.json` from the view
 * (pepvariants.h).
 */
#include "pepvariants.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "variantprops.h"
#include "wheelname.h"
#include "xalloc.h"

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

/* A label of schema 0.2.0, which takes at most 16 characters: the 0.1.1
 * label where it fits, else the variant and a short name of the platform
 * ("rocm10.0.0.lx"), which index.json maps back. */
static char *draft_label(const char *label, const char *variant, const char *platform)
{
    if (strlen(label) <= PEPVARIANTS_DRAFT_LABEL_MAX)
        return xstrdup(label);
    static const char *const codes[][2] = {{"linux-x86_64", "x86_64"},
                                           {"linux-aarch64", "aarch64"},
                                           {"windows-x86_64", "win"},
                                           {"windows-arm64", "winarm"}};
    static const char *const shortest[] = {"lx", "la", "wx", "wa"};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        if (strcmp(platform, codes[i][0]) != 0)
            continue;
        char *s = xasprintf("%s.%s", variant, codes[i][1]);
        if (strlen(s) <= PEPVARIANTS_DRAFT_LABEL_MAX)
            return s;
        free(s);
        return xasprintf("%s.%s", variant, shortest[i]);
    }
    return xasprintf("%.13s.%zu", variant, strlen(platform) % 10);
}

/* The 0.2.0 document: the same properties under the draft's labels, with
 * a provider per namespace. */
static json_t *draft_doc(json_t *ns, json_t *variants2)
{
    json_t *providers = json_object();
    size_t i;
    json_t *n;
    json_array_foreach(ns, i, n)
    {
        const char *name = json_string_value(n);
        int nv = strcmp(name, "nvidia") == 0;
        json_object_set_new(providers, name,
                            json_pack("{s:[s],s:s}", "requires",
                                      nv ? PEPVARIANTS_NVIDIA_PROVIDER : PEPVARIANTS_AMD_PROVIDER,
                                      "plugin-api",
                                      nv ? PEPVARIANTS_NVIDIA_PLUGIN : PEPVARIANTS_AMD_PLUGIN));
    }
    return json_pack("{s:s,s:{s:O},s:o,s:O}", "$schema", PEPVARIANTS_DRAFT_SCHEMA,
                     "default-priorities", "namespace", ns, "providers", providers, "variants",
                     variants2);
}

json_t *pepvariants_formats(void)
{
    return json_pack(
        "{s:[{s:s,s:s,s:s,s:s,s:s,s:s},{s:s,s:s,s:s,s:s,s:s,s:s,s:s}],s:{s:s,s:s,s:s}}", "formats",
        "folder", "api/v1/variants/", "schema", PEPVARIANTS_SCHEMA, "schema_version", "0.1.1",
        "specification", "PEP 825, Wheel Variants: Package Format", "status",
        "provisional: the format installers read today (uv's wheel-variants preview takes this "
        "$schema only)",
        "schema_source", "python/peps peps/pep-0825/variant-schema-0.1.1.json (2026-08-13)",
        "folder", "api/v1/variants/" PEPVARIANTS_DRAFT_DIR "/", "schema", PEPVARIANTS_DRAFT_SCHEMA,
        "schema_version", "0.2.0", "specification", "PEP 850, Wheel Variants: Providers", "status",
        "draft: its schema and rules may still change; no released installer reads it",
        "schema_source",
        "wheelnext/peps peps/pep-9999/variant-schema-0.2.0.json (the Providers draft, "
        "2026-03-12)",
        "differences",
        "a providers entry per namespace (requires and plugin-api of the wheelnext project's "
        "nvidia and amd provider plugins); labels of at most 16 characters (index.json maps each "
        "0.1.1 label to its draft_label)",
        "static_lists", "folder", "api/v1/variants/static/", "specification",
        "PEP 850 draft's static compatibility lists (providers.{namespace}.static-properties)",
        "what",
        "per device (a compute capability or AMD processor) and per driver (the newest CUDA "
        "it supports), the properties a machine with that GPU supports, each feature's values "
        "most preferred first: what wheelarch variants prints for such a machine");
}

int pepvariants_each(const struct dbview *v, const struct tables *t,
                     int (*fn)(void *ud, const char *file, json_t *doc, json_t *draft), void *ud,
                     json_t **index)
{
    size_t *idx = xcalloc(v->nrows + 1, sizeof *idx), n = 0;
    for (size_t i = 0; i < v->nrows; i++)
        if (v->rows[i].status != VIEW_DECLARED && variantprops_token(v->rows[i].variant) &&
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
        json_t *variants = json_object(), *variants2 = json_object(), *labels = json_object();
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
                props[i] = variantprops_of_row(&v->rows[idx[a + i]], t, &spec[i]);
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
                char *label2 = draft_label(label, variant, r->platform);
                if (strcmp(label, "null") == 0) {
                    json_object_set_new(variants, label, json_object());
                    json_object_set_new(variants2, label2, json_object());
                } else {
                    json_object_set(variants, label, props[i]);
                    json_object_set(variants2, label2, props[i]);
                }
                json_t *plats = json_array();
                for (size_t p = (same ? 0 : i); p < (same ? k : i + 1); p++)
                    json_array_append_new(plats, json_string(v->rows[idx[a + p]].platform));
                json_object_set_new(labels, label,
                                    json_pack("{s:s,s:o,s:O,s:s}", "variant", variant, "platforms",
                                              plats, "sm_arch_specific", spec[i], "draft_label",
                                              label2));
                free(label2);
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
            json_t *draft = draft_doc(ns, variants2);
            char *name = file_name(first->project);
            char *file = xasprintf("%s-%s-variants.json", name, first->version);
            char *draft_file = xasprintf("%s/%s", PEPVARIANTS_DRAFT_DIR, file);
            json_array_append_new(*index,
                                  json_pack("{s:s,s:s,s:s,s:s,s:O}", "project", first->project,
                                            "version", first->version, "file", file, "draft_file",
                                            draft_file, "labels", labels));
            rc = fn(ud, file, doc, draft);
            json_decref(doc);
            json_decref(draft);
            free(draft_file);
            free(file);
            free(name);
        }
        json_decref(variants);
        json_decref(variants2);
        json_decref(labels);
        g = end;
    }
    free(idx);
    return rc;
}
