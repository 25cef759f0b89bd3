/*
 * tables: the CSV files in data/: loaded in one go and freed (each table's
 * loader is in tables_<part>.c, tables_load.h says which), and the
 * variant names' order.
 */
#include "tables.h"
#include "tables_load.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "csvfile.h"
#include "datatable.h"
#include "observed.h"
#include "jetson.h"
#include "uvbackend.h"
#include "vendorindex.h"
#include "schedule.h"
#include "strmap.h"
#include "xalloc.h"

/* ---- variant rules --------------------------------------------------------- */

/* data/variant_rules.csv: which variant a project's wheel is (variant.h). */
static int load_variant_rules(const char *dir, struct tables *t, struct wa_error *err)
{
    static const char file[] = "variant_rules.csv";
    struct csvfile c;
    static const char *const cols[] = {"project", "rule", "variant", "min_version", "source", NULL};
    static const char *const kinds[] = {"name",  "label-major",   "release", "fixed",
                                        "index", "version-major", NULL};
    int idx[5];
    int rc = datatable_open(dir, file, cols, idx, &c, err);
    if (rc < 0)
        return rc;
    t->variant_rules = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->variant_rules);
    for (size_t r = 0; r < c.nrows && rc == 0; r++) {
        const char *project = c.rows[r][idx[0]], *kind = c.rows[r][idx[1]];
        const char *variant = c.rows[r][idx[2]], *floor = c.rows[r][idx[3]];
        struct variant_rule *v = &t->variant_rules[t->nvariant_rules];
        int k = 0;
        while (kinds[k] && strcmp(kinds[k], kind) != 0)
            k++;
        int needs_variant = k == VARIANT_RULE_NAME || k == VARIANT_RULE_FIXED;
        const char *star = strchr(project, '*');
        if (!*project ||
            strspn(project, "abcdefghijklmnopqrstuvwxyz0123456789-.*") != strlen(project) ||
            (star && strchr(star + 1, '*')))
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s line %zu: \"%s\" is not a normalised project name (one '*' "
                              "allowed)",
                              file, r + 2, project);
        else if (!kinds[k])
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s line %zu: rule \"%s\" is none of name, label-major, release, "
                              "fixed, index, version-major",
                              file, r + 2, kind);
        else if (needs_variant != (variant[0] != '\0'))
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: a %s rule %s a variant", file,
                              r + 2, kind, needs_variant ? "needs" : "takes no");
        else if (*floor && dotver_parse(floor, &v->min_version) < 0)
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: \"%s\" is not a version", file,
                              r + 2, floor);
        if (rc < 0)
            break;
        v->project = xstrdup(project);
        v->kind = k;
        v->variant = needs_variant ? xstrdup(variant) : NULL;
        v->source = xstrdup(c.rows[r][idx[4]]);
        t->nvariant_rules++;
    }
    csvfile_free(&c);
    return rc;
}

/* ---- AMD ------------------------------------------------------------------ */

int tables_platform_os(const char *platform)
{
    if (strcmp(platform, "windows-arm64") == 0)
        return TABLES_WINDOWS_ARM;
    return strncmp(platform, "windows", 7) == 0 ? TABLES_WINDOWS : TABLES_LINUX;
}

const char *tables_host_platform(int host)
{
    return host == TABLES_HOST_LINUX_ARM     ? "linux-aarch64"
           : host == TABLES_HOST_WINDOWS_ARM ? "windows-arm64"
                                             : NULL;
}

int tables_load(const char *dir, struct tables *t, struct wa_error *err)
{
    memset(t, 0, sizeof *t);
    if (!dir)
        return wa_error_set(err, WA_ERR_IO, "data folder not found (set WHEELARCH_DATA_DIR)");
    int rc = tablesi_load_gpus(dir, t, err);
    if (rc == 0)
        rc = tablesi_load_toolkits(dir, t, err);
    if (rc == 0)
        rc = tablesi_load_compat(dir, t, err);
    if (rc == 0)
        rc = tablesi_load_isas(dir, t, err);
    if (rc == 0)
        rc = tablesi_load_families(dir, t, err);
    if (rc == 0)
        rc = tablesi_load_declared(dir, t, err);
    if (rc == 0)
        rc = tablesi_load_releases(dir, t, err);
    if (rc == 0)
        rc = tablesi_load_amd_targets(dir, t, err);
    if (rc == 0)
        rc = tablesi_load_amd_gpus(dir, t, err);
    if (rc == 0)
        rc = tablesi_load_arch_support(dir, t, err);
    if (rc == 0)
        rc = load_variant_rules(dir, t, err);
    if (rc == 0)
        rc = tablesi_load_gpu_libraries(dir, t, err);
    if (rc == 0)
        rc = tablesi_load_pythons(dir, t, err);
    if (rc == 0)
        rc = tablesi_load_companions(dir, t, err);
    if (rc == 0)
        rc = tablesi_load_companion_platforms(dir, t, err);
    if (rc == 0) /* before observed_load: a vendor's rows name it in their provenance */
        rc = vendorindex_load(dir, t, err);
    if (rc == 0)
        rc = observed_load(dir, t, err);
    if (rc == 0)
        rc = schedule_load(dir, t, err);
    if (rc == 0)
        rc = jetson_load(dir, t, err);
    if (rc == 0)
        rc = uvbackend_load(dir, t, err);
    if (rc == 0)
        tablesi_build_indexes(t);
    if (rc < 0)
        tables_free(t);
    return rc;
}

void tables_free(struct tables *t)
{
    strmap_free(t->release_index);
    strmap_free(t->python_index);
    free(t->release_next);
    free(t->python_next);
    for (size_t i = 0; i < t->ngpus; i++) {
        free(t->gpus[i].name);
        free(t->gpus[i].slug);
        free(t->gpus[i].architecture);
        free(t->gpus[i].segment);
        free(t->gpus[i].rocm_support);
    }
    free(t->gpus);
    for (size_t i = 0; i < t->namd; i++)
        free(t->amd[i].family);
    free(t->amd);
    for (size_t i = 0; i < t->ntoolkits; i++) {
        free(t->toolkits[i].release);
        for (int os = 0; os < TABLES_NOS; os++)
            free(t->toolkits[i].min_driver_text[os]);
    }
    free(t->toolkits);
    free(t->minor_toolkits);
    for (size_t i = 0; i < t->ncompat; i++) {
        for (int os = 0; os < TABLES_NOS; os++)
            free(t->compat[i].min_driver_text[os]);
    }
    free(t->compat);
    free(t->isas);
    free(t->families);
    for (size_t i = 0; i < t->ndeclared; i++) {
        struct declared *d = &t->declared[i];
        free(d->project);
        free(d->version);
        free(d->release);
        free(d->checked_on);
        free(d->variant);
        free(d->platform);
        free(d->arch_list);
        free(d->source);
        free(d->confidence);
        free(d->confidence_written);
        free(d->evidence);
        free(d->seen);
        free(d->provenance);
    }
    free(t->declared);
    observed_free(t->observed, t->nobserved);
    schedule_free(t->schedule, t->nschedule);
    jetson_free(t->jetson, t->njetson);
    uvbackend_free(t->uv, t->nuv);
    vendorindex_free(t->vendor, t->nvendor);
    for (size_t i = 0; i < t->nreleases; i++) {
        struct release_info *r = &t->releases[i];
        free(r->project);
        free(r->version);
        free(r->release);
        free(r->torch_release);
        free(r->platform);
        for (size_t k = 0; k < r->nvariants; k++)
            free(r->variants[k]);
        free(r->variants);
        free(r->pypi_default);
        free(r->pypi_confidence);
        free(r->release_date);
        free(r->source);
        free(r->checked_on);
    }
    for (size_t i = 0; i < t->narch_support; i++)
        free(t->arch_support[i].last_toolkit);
    free(t->arch_support);
    for (size_t i = 0; i < t->nvariant_rules; i++) {
        free(t->variant_rules[i].project);
        free(t->variant_rules[i].variant);
        free(t->variant_rules[i].source);
    }
    free(t->variant_rules);
    for (size_t i = 0; i < t->ngpu_libraries; i++) {
        free(t->gpu_libraries[i].project);
        free(t->gpu_libraries[i].library);
        free(t->gpu_libraries[i].source);
    }
    free(t->gpu_libraries);
    for (size_t i = 0; i < t->npythons; i++) {
        free(t->pythons[i].project);
        free(t->pythons[i].release);
        free(t->pythons[i].platform);
        free(t->pythons[i].confidence);
        free(t->pythons[i].source);
    }
    free(t->pythons);
    for (size_t i = 0; i < t->ncompanions; i++) {
        free(t->companions[i].torch);
        free(t->companions[i].torchvision);
        free(t->companions[i].torchaudio);
        free(t->companions[i].notes);
        free(t->companions[i].source);
    }
    free(t->companions);
    for (size_t i = 0; i < t->ncompanion_platforms; i++) {
        struct companion_platform *x = &t->companion_platforms[i];
        free(x->project);
        free(x->platform);
        free(x->first_version);
        free(x->notes);
        free(x->source);
    }
    free(t->companion_platforms);
    free(t->releases);
    memset(t, 0, sizeof *t);
}

/* ---- drivers and toolkits ---------------------------------------------- */
