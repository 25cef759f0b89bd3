/*
 * Unit tests: pepvariants, the PEP 825 files measured from the wheels, as
 * invariants over every file the fixture database gives:
 *
 * - one file per (project, version) with builds read, named
 *   <project as in wheel names>-<version>-variants.json, in order, once;
 * - every build read (never a declared list) is under exactly one label
 *   of its file, with its platform: the variant's id when all its
 *   platforms carry the same code, else one label per platform; a CPU
 *   build is the "null" variant with no properties;
 * - a label's sm_arch is exactly the build's SASS targets as "XY_real"
 *   and PTX targets as "XY_virtual"; arch-specific (a, f) targets are not
 *   properties but listed apart; its CUDA bound is the variant's CUDA
 *   version; gfx_arch and rocm_version likewise for ROCm builds;
 * - every value list is sorted and lists each value once, and the
 *   namespaces of default-priorities are those the file uses.
 *
 * usage: test_pepvariants DATA_DIR SITE_DB WORK_DIR
 */
#include <stdlib.h>
#include <string.h>

#include "dbview.h"
#include "fixturedb.h"
#include "harness.h"
#include "jsonlist.h"
#include "pepvariants.h"
#include "strmap.h"
#include "tables.h"

static struct tables T;
static struct dbview V;
static size_t files, labels, builds;
static char last_file[512];

/* The build of project/version/variant/platform read from wheels, or NULL. */
static const struct dbview_row *read_row(const char *project, const char *version,
                                         const char *variant, const char *platform)
{
    for (size_t i = 0; i < V.nrows; i++) {
        const struct dbview_row *r = &V.rows[i];
        if (r->status != VIEW_DECLARED && !strcmp(r->project, project) &&
            !strcmp(r->version, version) && !strcmp(r->variant, variant) &&
            !strcmp(r->platform, platform))
            return r;
    }
    return NULL;
}

/* The properties a build must have, checked against the label's. */
static void check_props(const struct dbview_row *r, json_t *props, json_t *specific,
                        const char *what)
{
    json_t *sm = json_object_get(json_object_get(props, "nvidia"), "sm_arch");
    size_t want_sm = 0, want_specific = 0;
    char v[64], name[TARGET_NAME_MAX];
    for (size_t i = 0; i < r->nsass + r->nptx; i++) {
        const struct target *x = i < r->nsass ? &r->sass[i] : &r->ptx[i - r->nsass];
        if (x->suffix) {
            target_format(x, name, sizeof name);
            OK(jsonlist_has(specific, name) && !jsonlist_has(sm, name),
               "%s: %s listed apart, not a property", what, name);
            want_specific++;
            continue;
        }
        snprintf(v, sizeof v, "%u_%s", (unsigned)x->arch, i < r->nsass ? "real" : "virtual");
        OK(jsonlist_has(sm, v), "%s: sm_arch has %s", what, v);
        want_sm++;
    }
    /* each target once: the list is no longer than the targets (sorted
     * and unique, checked below) */
    OK(json_array_size(sm) <= want_sm && json_array_size(specific) <= want_specific,
       "%s: nothing in sm_arch or sm_arch_specific but the build's targets", what);
    OK(!sm || jsonlist_sorted_unique(sm), "%s: sm_arch sorted, each once", what);
    OK(jsonlist_sorted_unique(specific), "%s: sm_arch_specific sorted, each once", what);
    json_t *cv = json_object_get(json_object_get(props, "nvidia"), "cuda_version_lower_bound");
    if (sm && r->cuda.n) {
        char want[32];
        size_t vl = strlen(r->variant);
        if (vl && r->variant[vl - 1] == 'x') /* cu12x: any CUDA 12 */
            snprintf(want, sizeof want, "%ld", r->cuda.f[0]);
        else
            snprintf(want, sizeof want, "%ld.%ld", r->cuda.f[0], r->cuda.n > 1 ? r->cuda.f[1] : 0);
        OK(json_array_size(cv) == 1 && jsonlist_has(cv, want), "%s: CUDA bound %s", what, want);
    } else {
        OK(!cv, "%s: no CUDA bound without SASS or PTX and a CUDA variant", what);
    }
    json_t *gfx = json_object_get(json_object_get(props, "amd"), "gfx_arch");
    OK((gfx != NULL) == (r->ngfx > 0) || !r->ngfx, "%s: gfx_arch for a build with AMD code", what);
    OK(!gfx || jsonlist_sorted_unique(gfx), "%s: gfx_arch sorted, each once", what);
    json_t *rocm = json_object_get(json_object_get(props, "amd"), "rocm_version");
    if (gfx && strncmp(r->variant, "rocm", 4) == 0) {
        char want[32];
        int maj = 0, min = 0;
        if (sscanf(r->variant + 4, "%d.%d", &maj, &min) == 2) {
            snprintf(want, sizeof want, "%d.%d", maj, min);
            OK(json_array_size(rocm) == 1 && jsonlist_has(rocm, want), "%s: ROCm version %s", what,
               want);
        }
    } else {
        OK(!rocm, "%s: a ROCm version only for a ROCm build with AMD code", what);
    }
}

static size_t draft_labels; /* labels of the 0.2.0 documents, over all files */

/* The 0.2.0 document says what the 0.1.1 one does: the same properties
 * under labels of at most 16 characters, one per 0.1.1 label, and a
 * provider per namespace with requires and plugin-api (exactly one of
 * requires and static-properties, as the draft says). */
static void check_draft(const char *file, json_t *doc, json_t *draft)
{
    OK(strcmp(json_string_value(json_object_get(draft, "$schema")), PEPVARIANTS_DRAFT_SCHEMA) == 0,
       "%s: the draft's schema", file);
    json_t *ns = json_object_get(json_object_get(doc, "default-priorities"), "namespace");
    OK(json_equal(ns, json_object_get(json_object_get(draft, "default-priorities"), "namespace")),
       "%s: the same namespaces", file);
    json_t *prov = json_object_get(draft, "providers");
    OK(json_object_size(prov) == json_array_size(ns), "%s: a provider per namespace", file);
    size_t i;
    json_t *n;
    json_array_foreach(ns, i, n)
    {
        json_t *p = json_object_get(prov, json_string_value(n));
        OK(json_array_size(json_object_get(p, "requires")) == 1 &&
               json_is_string(json_object_get(p, "plugin-api")) &&
               !json_object_get(p, "static-properties"),
           "%s: provider %s: requires and plugin-api, no static list", file, json_string_value(n));
    }
    json_t *v1 = json_object_get(doc, "variants"), *v2 = json_object_get(draft, "variants");
    OK(json_object_size(v1) == json_object_size(v2), "%s: a draft label per label", file);
    const char *label;
    json_t *props;
    json_object_foreach(v2, label, props)
    {
        draft_labels++;
        OK(strlen(label) <= PEPVARIANTS_DRAFT_LABEL_MAX, "%s: draft label %s fits 16", file, label);
        /* the same properties as some 0.1.1 label's */
        int found = 0;
        const char *l1;
        json_t *p1;
        json_object_foreach(v1, l1, p1) found |= json_equal(p1, props);
        OK(found, "%s: draft label %s has a 0.1.1 label's properties", file, label);
    }
}

static int one_file(void *ud, const char *file, json_t *doc, json_t *draft)
{
    check_draft(file, doc, draft);
    json_t *docs = ud; /* file -> its variants, for the index's labels */
    files++;
    json_object_set(docs, file, json_object_get(doc, "variants"));
    OK(strcmp(last_file, file) < 0 || files == 1, "files in order, each once (%s after %s)", file,
       last_file);
    snprintf(last_file, sizeof last_file, "%s", file);
    OK(strcmp(json_string_value(json_object_get(doc, "$schema")), PEPVARIANTS_SCHEMA) == 0,
       "%s: the PEP 825 schema", file);
    json_t *ns = json_object_get(json_object_get(doc, "default-priorities"), "namespace");
    json_t *variants = json_object_get(doc, "variants");
    int nvidia = 0, amd = 0;
    const char *label;
    json_t *props;
    json_object_foreach(variants, label, props)
    {
        nvidia |= json_object_get(props, "nvidia") != NULL;
        amd |= json_object_get(props, "amd") != NULL;
    }
    OK(json_array_size(ns) >= 1 && (!nvidia || jsonlist_has(ns, "nvidia")) &&
           (!amd || jsonlist_has(ns, "amd")) &&
           (!amd || !nvidia || strcmp(json_string_value(json_array_get(ns, 0)), "nvidia") == 0),
       "%s: default-priorities names the namespaces used, nvidia first", file);
    return 0;
}

int main(int argc, char **argv)
{
    struct wa_error err;
    if (argc < 4 || tables_load(argv[1], &T, &err) < 0) {
        fprintf(stderr, "usage: test_pepvariants DATA_DIR SITE_DB WORK_DIR\n");
        return 2;
    }
    char *cache = fixturedb_make(argv[3], (const char *const[]){argv[2]}, 1);
    if (!cache || dbview_build(cache, &T, 0, &V, &err) < 0) {
        fprintf(stderr, "view: %s\n", cache ? err.msg : "no database");
        return 2;
    }
    json_t *index = NULL, *docs = json_object();
    OK(pepvariants_each(&V, &T, one_file, docs, &index) == 0, "every file made");
    /* Each build read, under exactly one label of its file. */
    struct strmap *placed = strmap_new(); /* project|version|variant|platform */
    size_t i;
    json_t *entry;
    json_array_foreach(index, i, entry)
    {
        const char *project = json_string_value(json_object_get(entry, "project"));
        const char *version = json_string_value(json_object_get(entry, "version"));
        json_t *variants = json_object_get(docs, json_string_value(json_object_get(entry, "file")));
        OK(json_object_size(variants) == json_object_size(json_object_get(entry, "labels")),
           "%s %s: the index lists every label of the file", project, version);
        const char *label;
        json_t *l;
        json_object_foreach(json_object_get(entry, "labels"), label, l)
        {
            labels++;
            const char *variant = json_string_value(json_object_get(l, "variant"));
            json_t *plats = json_object_get(l, "platforms");
            int cpu = strcmp(variant, "cpu") == 0;
            OK(cpu ? strcmp(label, "null") == 0
                   : strcmp(label, variant) == 0 ||
                         (strncmp(label, variant, strlen(variant)) == 0 &&
                          label[strlen(variant)] == '.' && json_array_size(plats) == 1),
               "%s %s: label %s is the variant's id, or the id and its one platform", project,
               version, label);
            /* one label per platform only where the variant's platforms
             * differ: then the file has no label of the variant alone */
            if (!cpu && strcmp(label, variant) != 0)
                OK(!json_object_get(variants, variant),
                   "%s %s: %s has per-platform labels and no shared one", project, version,
                   variant);
            size_t k;
            json_t *p;
            json_array_foreach(plats, k, p)
            {
                const char *platform = json_string_value(p);
                char key[512], what[600];
                snprintf(key, sizeof key, "%s|%s|%s|%s", project, version, variant, platform);
                snprintf(what, sizeof what, "%s %s %s on %s (label %s)", project, version, variant,
                         platform, label);
                OK(!strmap_get(placed, key, NULL), "%s: under one label only", what);
                strmap_put(placed, key, 0);
                builds++;
                const struct dbview_row *r = read_row(project, version, variant, platform);
                OK(r != NULL, "%s: a build read from wheels, not a declared list", what);
                if (cpu)
                    OK(json_object_size(json_object_get(variants, "null")) == 0,
                       "%s: the CPU build has no properties", what);
                if (!r || cpu)
                    continue;
                json_t *props = json_object_get(variants, label);
                OK(json_is_object(props), "%s: the label is in the file", what);
                check_props(r, props, json_object_get(l, "sm_arch_specific"), what);
            }
        }
    }
    /* every build read with code (or a CPU build) is in some file */
    for (size_t r = 0; r < V.nrows; r++) {
        const struct dbview_row *row = &V.rows[r];
        if (row->status == VIEW_DECLARED)
            continue;
        char key[512];
        snprintf(key, sizeof key, "%s|%s|%s|%s", row->project, row->version, row->variant,
                 row->platform);
        int code = row->nsass || row->nptx || row->ngfx || strcmp(row->variant, "cpu") == 0;
        OK(!code || strmap_get(placed, key, NULL), "the build %s is in its file", key);
    }
    OK(files > 0 && builds > 0, "files made (%zu files, %zu labels, %zu builds)", files, labels,
       builds);
    OK(draft_labels == labels, "a draft label per label (%zu, %zu)", draft_labels, labels);
    /* the formats say which specification each folder follows, and how final it is */
    json_t *formats = pepvariants_formats();
    json_t *f = json_object_get(formats, "formats");
    OK(json_array_size(f) == 2 &&
           strcmp(json_string_value(json_object_get(json_array_get(f, 0), "schema")),
                  PEPVARIANTS_SCHEMA) == 0 &&
           strncmp(json_string_value(json_object_get(json_array_get(f, 1), "status")), "draft",
                   5) == 0,
       "formats.json: 0.1.1 and the 0.2.0 draft, the draft said to be one");
    json_decref(formats);
    printf("%zu files, %zu labels, %zu builds\n", files, labels, builds);
    strmap_free(placed);
    json_decref(index);
    json_decref(docs);
    dbview_free(&V);
    tables_free(&T);
    free(cache);
    return harness_done();
}
