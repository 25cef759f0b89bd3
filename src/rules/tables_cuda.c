/*
 * tables_cuda: CUDA toolkits and the drivers they need, minor-version
 * compatibility, PTX ISA versions, family-specific targets, and which
 * toolkits compile for which GPU.
 */
#include "tables_cuda.h"
#include "tables_load.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "csvfile.h"
#include "datatable.h"
#include "xalloc.h"

static void parse_driver(const char *s, struct dotver *v, char **text)
{
    if (dotver_parse(s, v) < 0)
        v->n = 0;
    *text = v->n ? xstrdup(s) : NULL;
    if (*text) {
        /* keep just the version ("580 (13.0 GA ...)" -> "580") */
        size_t n = strspn(*text, "0123456789.");
        (*text)[n] = '\0';
    }
}

int tablesi_load_toolkits(const char *dir, struct tables *t, struct wa_error *err)
{
    struct csvfile c;
    static const char *const cols[] = {"cuda_toolkit_release",     "cuda_version",
                                       "linux_x86_64_min_driver",  "windows_x86_64_min_driver",
                                       "windows_arm64_min_driver", NULL};
    int idx[5];
    int rc = datatable_load(dir, "cuda_toolkit_driver_versions.csv", &c, err);
    if (rc < 0)
        return rc;
    if ((rc = datatable_need_cols(&c, "cuda_toolkit_driver_versions.csv", cols, idx, err)) < 0)
        goto out;
    t->toolkits = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->toolkits);
    for (size_t r = 0; r < c.nrows; r++) {
        struct toolkit *k = &t->toolkits[t->ntoolkits];
        if (dotver_parse(c.rows[r][idx[1]], &k->cuda) < 0)
            continue;
        k->release = xstrdup(c.rows[r][idx[0]]);
        parse_driver(c.rows[r][idx[2]], &k->min_driver[TABLES_LINUX],
                     &k->min_driver_text[TABLES_LINUX]);
        parse_driver(c.rows[r][idx[3]], &k->min_driver[TABLES_WINDOWS],
                     &k->min_driver_text[TABLES_WINDOWS]);
        /* N/A on Windows on Arm: no driver there runs that toolkit's code */
        parse_driver(c.rows[r][idx[4]], &k->min_driver[TABLES_WINDOWS_ARM],
                     &k->min_driver_text[TABLES_WINDOWS_ARM]);
        if (k->min_driver[TABLES_WINDOWS].n == 0 && k->min_driver[TABLES_LINUX].n > 0) {
            /* "N/A" from 13.0: drivers of the same branch are meant. */
            k->min_driver[TABLES_WINDOWS].n = 1;
            k->min_driver[TABLES_WINDOWS].f[0] = k->min_driver[TABLES_LINUX].f[0];
            k->min_driver_text[TABLES_WINDOWS] = xasprintf("%ld", k->min_driver[TABLES_LINUX].f[0]);
        }
        t->ntoolkits++;
    }
    /* each major.minor's first toolkit, for tables_toolkit */
    t->minor_toolkits = xcalloc(t->ntoolkits ? t->ntoolkits : 1, sizeof *t->minor_toolkits);
    for (size_t i = 0; i < t->ntoolkits; i++) {
        const struct toolkit *k = &t->toolkits[i];
        if (k->cuda.n < 2)
            continue;
        size_t m = 0;
        while (m < t->nminor_toolkits && (t->minor_toolkits[m].major != k->cuda.f[0] ||
                                          t->minor_toolkits[m].minor != k->cuda.f[1]))
            m++;
        if (m == t->nminor_toolkits)
            t->minor_toolkits[t->nminor_toolkits++] =
                (struct tables_minor_toolkit){k->cuda.f[0], k->cuda.f[1], k};
        else if (dotver_cmp(&k->cuda, &t->minor_toolkits[m].first->cuda) < 0)
            t->minor_toolkits[m].first = k;
    }
out:
    csvfile_free(&c);
    return rc;
}

int tablesi_load_compat(const char *dir, struct tables *t, struct wa_error *err)
{
    struct csvfile c;
    static const char *const cols[] = {"cuda_major", "linux_min_driver", "windows_min_driver",
                                       "windows_arm64_min_driver", NULL};
    int idx[4];
    int rc = datatable_load(dir, "cuda_minor_version_compat.csv", &c, err);
    if (rc < 0)
        return rc;
    if ((rc = datatable_need_cols(&c, "cuda_minor_version_compat.csv", cols, idx, err)) < 0)
        goto out;
    t->compat = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->compat);
    for (size_t r = 0; r < c.nrows; r++) {
        struct minor_compat *m = &t->compat[t->ncompat];
        m->cuda_major = atoi(c.rows[r][idx[0]]);
        parse_driver(c.rows[r][idx[1]], &m->min_driver[0], &m->min_driver_text[0]);
        parse_driver(c.rows[r][idx[2]], &m->min_driver[1], &m->min_driver_text[1]);
        parse_driver(c.rows[r][idx[3]], &m->min_driver[2], &m->min_driver_text[2]);
        t->ncompat++;
    }
out:
    csvfile_free(&c);
    return rc;
}

int tablesi_load_isas(const char *dir, struct tables *t, struct wa_error *err)
{
    struct csvfile c;
    static const char *const cols[] = {"cuda_version", "ptx_isa_version", NULL};
    int idx[2];
    int rc = datatable_load(dir, "ptx_isa_versions.csv", &c, err);
    if (rc < 0)
        return rc;
    if ((rc = datatable_need_cols(&c, "ptx_isa_versions.csv", cols, idx, err)) < 0)
        goto out;
    t->isas = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->isas);
    for (size_t r = 0; r < c.nrows; r++) {
        struct ptx_isa *p = &t->isas[t->nisas];
        if (dotver_parse(c.rows[r][idx[0]], &p->cuda) < 0 ||
            dotver_parse(c.rows[r][idx[1]], &p->isa) < 0)
            continue;
        p->public_release = strstr(c.rows[r][idx[0]], "not public") == NULL;
        t->nisas++;
    }
out:
    csvfile_free(&c);
    return rc;
}

static size_t parse_cc_list(const char *s, uint16_t *out, size_t max)
{
    size_t n = 0;
    while (*s && n < max) {
        while (*s && !isdigit((unsigned char)*s))
            s++;
        if (!*s)
            break;
        uint16_t cc;
        if (tablesi_parse_cc(s, &cc) == 0)
            out[n++] = cc;
        while (*s && *s != ';')
            s++;
    }
    return n;
}

int tablesi_load_families(const char *dir, struct tables *t, struct wa_error *err)
{
    struct csvfile c;
    static const char *const cols[] = {"target", "compatible_cc_cuda_12.9_13.0_docs",
                                       "compatible_cc_latest_guide_table28", NULL};
    int idx[3];
    int rc = datatable_load(dir, "family_specific_targets.csv", &c, err);
    if (rc < 0)
        return rc;
    if ((rc = datatable_need_cols(&c, "family_specific_targets.csv", cols, idx, err)) < 0)
        goto out;
    t->families = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->families);
    for (size_t r = 0; r < c.nrows; r++) {
        struct family *f = &t->families[t->nfamilies];
        const char *name = c.rows[r][idx[0]];
        const char *u = strchr(name, '_');
        if (!u)
            continue;
        f->target = (uint16_t)atoi(u + 1);
        /* The newest guide's column, else the 12.9/13.0 one. */
        f->n = parse_cc_list(c.rows[r][idx[2]], f->members, 8);
        if (f->n == 0)
            f->n = parse_cc_list(c.rows[r][idx[1]], f->members, 8);
        if (f->target && f->n)
            t->nfamilies++;
    }
out:
    csvfile_free(&c);
    return rc;
}

/* The newest toolkit that compiles SASS for each compute capability
 * (data/cuda_arch_support.csv); absent: every current toolkit does. */
int tablesi_load_arch_support(const char *dir, struct tables *t, struct wa_error *err)
{
    static const char file[] = "cuda_arch_support.csv";
    struct csvfile c;
    static const char *const cols[] = {"compute_capability",
                                       "first_toolkit",
                                       "last_toolkit",
                                       "last_driver_branch",
                                       "last_driver_cuda",
                                       "dropped_in_branch",
                                       NULL};
    int idx[6];
    int rc = datatable_open(dir, file, cols, idx, &c, err);
    if (rc < 0)
        return rc;
    t->arch_support = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->arch_support);
    for (size_t r = 0; r < c.nrows; r++) {
        struct arch_support *a = &t->arch_support[t->narch_support];
        if (tablesi_parse_cc(c.rows[r][idx[0]], &a->cc) < 0) {
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: \"%s\" is not a compute capability",
                              file, r + 2, c.rows[r][idx[0]]);
            break;
        }
        dotver_parse(c.rows[r][idx[1]], &a->first_toolkit); /* "" leaves n == 0 */
        a->last_toolkit = c.rows[r][idx[2]][0] ? xstrdup(c.rows[r][idx[2]]) : NULL;
        /* the GPU's last driver branch: all three, or none */
        const char *lb = c.rows[r][idx[3]], *lc = c.rows[r][idx[4]], *dr = c.rows[r][idx[5]];
        if (lb[0] || lc[0] || dr[0]) {
            char *end1, *end2;
            a->last_branch = strtol(lb, &end1, 10);
            a->dropped_in = strtol(dr, &end2, 10);
            if (!lb[0] || *end1 || !dr[0] || *end2 || a->last_branch < 100 ||
                a->dropped_in <= a->last_branch || dotver_parse(lc, &a->last_branch_cuda) < 0 ||
                a->last_branch_cuda.n != 2) {
                rc = wa_error_set(err, WA_ERR_FORMAT,
                                  "%s line %zu: last_driver_branch \"%s\", last_driver_cuda "
                                  "\"%s\" and dropped_in_branch \"%s\" must be a branch, its "
                                  "CUDA (X.Y) and a later branch",
                                  file, r + 2, lb, lc, dr);
                free(a->last_toolkit);
                break;
            }
        }
        t->narch_support++;
    }
    csvfile_free(&c);
    return rc;
}

const struct toolkit *tables_first_toolkit(const struct tables *t, uint16_t cc)
{
    for (size_t i = 0; i < t->narch_support; i++)
        if (t->arch_support[i].cc == cc && t->arch_support[i].first_toolkit.n)
            return tables_toolkit(t, &t->arch_support[i].first_toolkit);
    return NULL;
}

const struct arch_support *tables_driver_branch_end(const struct tables *t, uint16_t cc)
{
    for (size_t i = 0; i < t->narch_support; i++)
        if (t->arch_support[i].cc == cc && t->arch_support[i].last_branch)
            return &t->arch_support[i];
    return NULL;
}

int tables_driver_beyond(const struct arch_support *a, const struct dotver *driver)
{
    return a && driver && driver->n && driver->f[0] >= a->dropped_in;
}

const char *tables_last_toolkit(const struct tables *t, uint16_t cc)
{
    for (size_t i = 0; i < t->narch_support; i++)
        if (t->arch_support[i].cc == cc)
            return t->arch_support[i].last_toolkit;
    return NULL;
}

size_t tables_family(const struct tables *t, uint16_t target, uint16_t *out, size_t max)
{
    for (size_t i = 0; i < t->nfamilies; i++)
        if (t->families[i].target == target) {
            size_t n = t->families[i].n < max ? t->families[i].n : max;
            memcpy(out, t->families[i].members, n * sizeof *out);
            return n;
        }
    if (max == 0)
        return 0;
    out[0] = target;
    return 1;
}

const struct minor_compat *tables_minor_compat(const struct tables *t, int cuda_major)
{
    for (size_t i = 0; i < t->ncompat; i++)
        if (t->compat[i].cuda_major == cuda_major)
            return &t->compat[i];
    return NULL;
}

const struct toolkit *tables_driver_cuda(const struct tables *t, const struct dotver *driver,
                                         int os)
{
    const struct toolkit *best = NULL;
    for (size_t i = 0; i < t->ntoolkits; i++) {
        const struct toolkit *k = &t->toolkits[i];
        if (k->min_driver[os].n == 0 || dotver_cmp(&k->min_driver[os], driver) > 0)
            continue;
        if (!best || dotver_cmp(&k->cuda, &best->cuda) > 0)
            best = k;
    }
    return best;
}

static int same_minor(const struct dotver *a, const struct dotver *b)
{
    return a->n >= 2 && b->n >= 2 && a->f[0] == b->f[0] && a->f[1] == b->f[1];
}

const struct ptx_isa *tables_isa_of_cuda(const struct tables *t, const struct dotver *cuda)
{
    for (size_t i = 0; i < t->nisas; i++)
        if (same_minor(&t->isas[i].cuda, cuda))
            return &t->isas[i];
    return NULL;
}

const struct ptx_isa *tables_cuda_of_isa(const struct tables *t, const struct dotver *isa)
{
    const struct ptx_isa *best = NULL;
    for (size_t i = 0; i < t->nisas; i++) {
        const struct ptx_isa *p = &t->isas[i];
        if (!p->public_release || dotver_cmp(&p->isa, isa) < 0)
            continue;
        if (!best || dotver_cmp(&p->cuda, &best->cuda) < 0)
            best = p;
    }
    return best;
}

const struct toolkit *tables_toolkit(const struct tables *t, const struct dotver *cuda)
{
    /* the first toolkit of cuda's major.minor, looked up in the index
     * made at load (a scan of every toolkit was most of a query's time
     * spent in the tables) */
    if (cuda->n < 2)
        return NULL;
    for (size_t m = 0; m < t->nminor_toolkits; m++)
        if (t->minor_toolkits[m].major == cuda->f[0] && t->minor_toolkits[m].minor == cuda->f[1])
            return t->minor_toolkits[m].first;
    return NULL;
}
