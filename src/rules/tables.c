/*
 * tables: the CSV files in data/.
 */
#include "tables.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "csvfile.h"
#include "datatable.h"
#include "fsutil.h"
#include "observed.h"
#include "schedule.h"
#include "strbuf.h"
#include "strmap.h"
#include "xalloc.h"

static const uint16_t tegra_ccs[] = {32, 53, 62, 72, 87, 101, 110};

int tables_is_tegra(uint16_t cc)
{
    for (size_t i = 0; i < sizeof tegra_ccs / sizeof tegra_ccs[0]; i++)
        if (tegra_ccs[i] == cc)
            return 1;
    return 0;
}

static int parse_cc(const char *s, uint16_t *cc)
{
    struct dotver v;
    if (dotver_parse(s, &v) < 0 || v.n < 2 || v.f[0] > 99 || v.f[1] > 9)
        return -1;
    *cc = (uint16_t)(v.f[0] * 10 + v.f[1]);
    return 0;
}

static char *slugify(const char *s)
{
    struct strbuf b = STRBUF_INIT;
    int dash = 0;
    for (; *s; s++) {
        if (isalnum((unsigned char)*s)) {
            if (dash && b.len)
                strbuf_addc(&b, '-');
            dash = 0;
            strbuf_addc(&b, (char)tolower((unsigned char)*s));
        } else {
            dash = 1;
        }
    }
    return strbuf_detach(&b, NULL);
}

static int load_gpus(const char *dir, struct tables *t, struct wa_error *err)
{
    struct csvfile c;
    static const char *const cols[] = {"name", "compute_capability", "architecture", "segment",
                                       NULL};
    int idx[4];
    int rc = datatable_load(dir, "gpus.csv", &c, err);
    if (rc < 0)
        return rc;
    if ((rc = datatable_need_cols(&c, "gpus.csv", cols, idx, err)) < 0)
        goto out;
    int other_col = csvfile_col(&c, "other_cc"), host_col = csvfile_col(&c, "host");
    t->gpus = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->gpus);
    for (size_t r = 0; r < c.nrows; r++) {
        struct gpu *g = &t->gpus[t->ngpus];
        if (parse_cc(c.rows[r][idx[1]], &g->cc) < 0) {
            rc = wa_error_set(err, WA_ERR_FORMAT, "gpus.csv: row %zu: bad compute capability '%s'",
                              r + 2, c.rows[r][idx[1]]);
            goto out;
        }
        g->name = xstrdup(c.rows[r][idx[0]]);
        g->slug = slugify(g->name);
        g->architecture = xstrdup(c.rows[r][idx[2]]);
        g->segment = xstrdup(c.rows[r][idx[3]]);
        g->tegra = strcmp(g->segment, "jetson") == 0 || tables_is_tegra(g->cc);
        /* optional: the capabilities of other chips sold under this name */
        const char *other = other_col >= 0 ? c.rows[r][other_col] : "";
        while (*other && g->nother < TABLES_OTHER_CC_MAX) {
            char one[16];
            size_t n = strcspn(other, ";");
            snprintf(one, sizeof one, "%.*s", (int)(n < 15 ? n : 15), other);
            if (parse_cc(one, &g->other_cc[g->nother]) < 0) {
                rc = wa_error_set(err, WA_ERR_FORMAT,
                                  "gpus.csv: row %zu: bad other_cc '%s' (want X.Y;X.Y)", r + 2,
                                  c.rows[r][other_col]);
                goto out;
            }
            g->nother++;
            other += n + (other[n] == ';');
        }
        /* optional: "aarch64" for GPUs that only come in Arm systems */
        const char *host = host_col >= 0 ? c.rows[r][host_col] : "";
        if (*host && strcmp(host, "aarch64") != 0) {
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "gpus.csv: row %zu: bad host '%s' (want empty or aarch64)", r + 2,
                              host);
            goto out;
        }
        g->arm_host = *host != '\0';
        t->ngpus++;
    }
out:
    csvfile_free(&c);
    return rc;
}

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

static int load_toolkits(const char *dir, struct tables *t, struct wa_error *err)
{
    struct csvfile c;
    static const char *const cols[] = {"cuda_toolkit_release", "cuda_version",
                                       "linux_x86_64_min_driver", "windows_x86_64_min_driver",
                                       NULL};
    int idx[4];
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
        if (k->min_driver[TABLES_WINDOWS].n == 0 && k->min_driver[TABLES_LINUX].n > 0) {
            /* "N/A" from 13.0: drivers of the same branch are meant. */
            k->min_driver[TABLES_WINDOWS].n = 1;
            k->min_driver[TABLES_WINDOWS].f[0] = k->min_driver[TABLES_LINUX].f[0];
            k->min_driver_text[TABLES_WINDOWS] = xasprintf("%ld", k->min_driver[TABLES_LINUX].f[0]);
        }
        t->ntoolkits++;
    }
out:
    csvfile_free(&c);
    return rc;
}

static int load_compat(const char *dir, struct tables *t, struct wa_error *err)
{
    struct csvfile c;
    static const char *const cols[] = {"cuda_major", "linux_min_driver", "windows_min_driver",
                                       NULL};
    int idx[3];
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
        t->ncompat++;
    }
out:
    csvfile_free(&c);
    return rc;
}

static int load_isas(const char *dir, struct tables *t, struct wa_error *err)
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
        if (parse_cc(s, &cc) == 0)
            out[n++] = cc;
        while (*s && *s != ';')
            s++;
    }
    return n;
}

static int load_families(const char *dir, struct tables *t, struct wa_error *err)
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

void tables_parse_arch_list(const char *list, struct target *sass, size_t *nsass, size_t maxs,
                            struct target *ptx, size_t *nptx, size_t maxp)
{
    *nsass = *nptx = 0;
    const char *s = list;
    while (*s) {
        size_t len = strcspn(s, "; ");
        char tok[32];
        if (len > 0 && len < sizeof tok) {
            memcpy(tok, s, len);
            tok[len] = '\0';
            uint16_t cc;
            if (parse_cc(tok, &cc) == 0) {
                const char *p = tok;
                while (*p && (isdigit((unsigned char)*p) || *p == '.'))
                    p++;
                char sfx = (*p == 'a' || *p == 'f') ? *p : 0;
                struct target t = {TARGET_SASS, sfx, cc, 0, 0};
                if (*nsass < maxs)
                    sass[(*nsass)++] = t;
                if (strstr(tok, "+PTX") && *nptx < maxp) {
                    t.kind = TARGET_PTX;
                    ptx[(*nptx)++] = t;
                }
            }
        }
        s += len;
        while (*s == ';' || *s == ' ')
            s++;
    }
    *nsass = target_sort_unique(sass, *nsass);
    *nptx = target_sort_unique(ptx, *nptx);
}

/* Keeps the newest checked-on date of the declared data. */
static int note_checked(struct tables *t, const char *file, size_t line, const char *date,
                        struct wa_error *err)
{
    if (!datatable_is_date(date))
        return wa_error_set(err, WA_ERR_FORMAT,
                            "%s line %zu: checked_on \"%s\" is not a date "
                            "(YYYY-MM-DD)",
                            file, line, date);
    if (!t->checked_on[0] || strcmp(date, t->checked_on) > 0)
        snprintf(t->checked_on, sizeof t->checked_on, "%s", date);
    return 0;
}

static void parse_gfx_list(struct declared *d)
{
    /* "gfx900;gfx906;gfx90a:xnack-" */
    const char *p = d->arch_list;
    while (*p && d->ngfx < 32) {
        size_t len = strcspn(p, ";, ");
        char tok[TARGET_NAME_MAX];
        if (len && len < sizeof tok) {
            memcpy(tok, p, len);
            tok[len] = '\0';
            struct target x;
            if (target_parse(tok, &x) == 0 && x.kind == TARGET_GFX)
                d->gfx[d->ngfx++] = x;
        }
        p += len;
        while (*p == ';' || *p == ',' || *p == ' ')
            p++;
    }
}

/* PyTorch's declared arch lists, CUDA (TORCH_CUDA_ARCH_LIST) and ROCm
 * (PYTORCH_ROCM_ARCH), of torch and the libraries built with it. */
static int load_declared(const char *dir, struct tables *t, struct wa_error *err)
{
    static const char file[] = "pytorch_arch_lists.csv";
    struct csvfile c;
    static const char *const cols[] = {"project",    "release",    "variant", "platform",
                                       "arch_list",  "confidence", "source",  "evidence",
                                       "checked_on", NULL};
    int idx[9];
    int rc = datatable_open(dir, file, cols, idx, &c, err);
    if (rc < 0)
        return rc;
    t->declared = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->declared);
    for (size_t r = 0; r < c.nrows && rc == 0; r++) {
        char *const *row = c.rows[r];
        struct dotver rel;
        if (dotver_parse(row[idx[1]], &rel) < 0 || rel.n < 2 || rel.n > 3) {
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: release \"%s\" is not X.Y or X.Y.Z",
                              file, r + 2, row[idx[1]]);
            break;
        }
        if ((rc = note_checked(t, file, r + 2, row[idx[8]], err)) < 0)
            break;
        struct declared *d = &t->declared[t->ndeclared++];
        d->project = xstrdup(row[idx[0]]);
        d->version = xstrdup(row[idx[1]]);
        d->release = dotver_release(d->version);
        d->variant = xstrdup(row[idx[2]]);
        d->platform = xstrdup(row[idx[3]]);
        d->arch_list = xstrdup(row[idx[4]]);
        d->confidence = xstrdup(row[idx[5]]);
        d->confidence_written = xstrdup(row[idx[5]]);
        d->source = xstrdup(row[idx[6]]);
        d->evidence = xstrdup(row[idx[7]]);
        d->checked_on = xstrdup(row[idx[8]]);
        if (tables_variant_rocm(d->variant, NULL))
            parse_gfx_list(d);
        else
            tables_parse_arch_list(d->arch_list, d->sass, &d->nsass, 32, d->ptx, &d->nptx, 8);
    }
    csvfile_free(&c);
    return rc;
}

/* Which GPU variants each release publishes per platform, PyPI's default
 * build and the release date. */
static int load_releases(const char *dir, struct tables *t, struct wa_error *err)
{
    static const char file[] = "pytorch_releases.csv";
    struct csvfile c;
    static const char *const cols[] = {"project",
                                       "release",
                                       "torch_release",
                                       "platform",
                                       "variants",
                                       "pypi_default",
                                       "pypi_confidence",
                                       "release_date",
                                       "source",
                                       "checked_on",
                                       NULL};
    int idx[10];
    int rc = datatable_open(dir, file, cols, idx, &c, err);
    if (rc < 0)
        return rc;
    t->releases = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->releases);
    for (size_t r = 0; r < c.nrows && rc == 0; r++) {
        char *const *row = c.rows[r];
        if ((rc = note_checked(t, file, r + 2, row[idx[9]], err)) < 0)
            break;
        if (row[idx[7]][0] && !datatable_is_date(row[idx[7]])) {
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: release_date \"%s\" is not a date",
                              file, r + 2, row[idx[7]]);
            break;
        }
        struct release_info *ri = &t->releases[t->nreleases++];
        ri->project = xstrdup(row[idx[0]]);
        ri->version = xstrdup(row[idx[1]]);
        ri->release = dotver_release(ri->version);
        ri->torch_release = xstrdup(row[idx[2]]);
        ri->platform = xstrdup(row[idx[3]]);
        ri->pypi_default = xstrdup(row[idx[5]]);
        ri->pypi_confidence = xstrdup(row[idx[6]]);
        ri->release_date = xstrdup(row[idx[7]]);
        ri->source = xstrdup(row[idx[8]]);
        ri->checked_on = xstrdup(row[idx[9]]);
        /* "?" (or a "?" anywhere): which variants exist is not known */
        const char *v = row[idx[4]];
        ri->covered = strchr(v, '?') == NULL;
        while (ri->covered && *v) {
            size_t len = strcspn(v, ";");
            if (len) {
                ri->variants = xrealloc(ri->variants, (ri->nvariants + 1) * sizeof *ri->variants);
                ri->variants[ri->nvariants++] = xstrndup(v, len);
            }
            v += len;
            while (*v == ';')
                v++;
        }
    }
    csvfile_free(&c);
    return rc;
}

const struct release_info *tables_release(const struct tables *t, const char *project,
                                          const char *release, const char *platform)
{
    const struct release_info *best = NULL;
    for (size_t i = 0; i < t->nreleases; i++) {
        const struct release_info *r = &t->releases[i];
        if (strcmp(r->project, project) == 0 && strcmp(r->release, release) == 0 &&
            strcmp(r->platform, platform) == 0 &&
            (!best || dotver_cmp_str(r->version, best->version) > 0))
            best = r;
    }
    return best;
}

/* Chains rows under their keys: index[key] is the first row of a key,
 * next[i] the row after row i of the same key (SIZE_MAX: none). */
static void index_add(struct strmap *index, size_t *next, const char *key, size_t i)
{
    size_t first;
    next[i] = SIZE_MAX;
    if (!strmap_get(index, key, &first)) {
        strmap_put(index, key, i);
        return;
    }
    while (next[first] != SIZE_MAX)
        first = next[first];
    next[first] = i;
}

/* The first row of key in index, SIZE_MAX when none. */
static size_t index_first(const struct strmap *index, const char *key)
{
    size_t i;
    return strmap_get(index, key, &i) ? i : SIZE_MAX;
}

/* Appends the strings of parts, each after a '|', to buf (n bytes):
 * 0, or -1 when they do not fit. */
static int join_key(char *buf, size_t n, const char *const *parts, size_t nparts)
{
    size_t at = 0;
    for (size_t i = 0; i < nparts; i++) {
        size_t l = strlen(parts[i]);
        if (at + l + 2 > n)
            return -1;
        if (i)
            buf[at++] = '|';
        memcpy(buf + at, parts[i], l);
        at += l;
    }
    buf[at] = '\0';
    return 0;
}

/* "project|release|platform", the key of release_index (the rows of a
 * release on a platform); 0 when it does not fit buf. */
static int release_key(char *buf, size_t n, const char *project, const char *release,
                       const char *platform)
{
    const char *parts[] = {project, release, platform};
    return join_key(buf, n, parts, 3) == 0;
}

/* "project|platform|major.minor" of version for python_index. */
static int python_key(char *buf, size_t n, const char *project, const char *platform,
                      const char *version)
{
    char mm[64];
    struct dotver v;
    if (dotver_parse(version, &v) < 0 || dotver_format_fields(&v, 2, mm, sizeof mm) < 0)
        return 0;
    const char *parts[] = {project, platform, mm};
    return join_key(buf, n, parts, 3) == 0;
}

static void build_indexes(struct tables *t)
{
    char key[512];
    t->release_index = strmap_new();
    t->release_next = xcalloc(t->nreleases ? t->nreleases : 1, sizeof *t->release_next);
    for (size_t i = 0; i < t->nreleases; i++) {
        const struct release_info *r = &t->releases[i];
        t->release_next[i] = SIZE_MAX;
        if (release_key(key, sizeof key, r->project, r->release, r->platform))
            index_add(t->release_index, t->release_next, key, i);
    }
    t->python_index = strmap_new();
    t->python_next = xcalloc(t->npythons ? t->npythons : 1, sizeof *t->python_next);
    for (size_t i = 0; i < t->npythons; i++) {
        const struct python_support *p = &t->pythons[i];
        t->python_next[i] = SIZE_MAX;
        if (python_key(key, sizeof key, p->project, p->platform, p->release))
            index_add(t->python_index, t->python_next, key, i);
    }
}

/* Whether row r of a release lookup stands for version (its release's
 * row, or a patch row at or below version), and is better than best. */
static int release_better(const struct release_info *r, const char *version,
                          const struct release_info *best)
{
    if (strcmp(r->version, r->release) && dotver_cmp_str(r->version, version) > 0)
        return 0; /* a later patch's row */
    return !best || dotver_cmp_str(r->version, best->version) > 0;
}

const struct release_info *tables_release_at(const struct tables *t, const char *project,
                                             const char *version, const char *platform)
{
    const struct release_info *best = NULL;
    char key[512], rel[96];
    if (t->release_index && dotver_release_buf(version, rel, sizeof rel) == 0) {
        if (release_key(key, sizeof key, project, rel, platform))
            for (size_t i = index_first(t->release_index, key); i != SIZE_MAX;
                 i = t->release_next[i])
                if (release_better(&t->releases[i], version, best))
                    best = &t->releases[i];
        return best;
    }
    char *release = dotver_release(version);
    for (size_t i = 0; release && i < t->nreleases; i++) {
        const struct release_info *r = &t->releases[i];
        if (strcmp(r->project, project) || strcmp(r->release, release) ||
            strcmp(r->platform, platform))
            continue;
        if (release_better(r, version, best))
            best = r;
    }
    free(release);
    return best;
}

int tables_release_has(const struct release_info *r, const char *variant)
{
    for (size_t i = 0; i < r->nvariants; i++)
        if (strcmp(r->variants[i], variant) == 0)
            return 1;
    return 0;
}

/* The newest toolkit that compiles SASS for each compute capability
 * (data/cuda_arch_support.csv); absent: every current toolkit does. */
static int load_arch_support(const char *dir, struct tables *t, struct wa_error *err)
{
    static const char file[] = "cuda_arch_support.csv";
    struct csvfile c;
    static const char *const cols[] = {"compute_capability", "first_toolkit", "last_toolkit", NULL};
    int idx[3];
    int rc = datatable_open(dir, file, cols, idx, &c, err);
    if (rc < 0)
        return rc;
    t->arch_support = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->arch_support);
    for (size_t r = 0; r < c.nrows; r++) {
        struct arch_support *a = &t->arch_support[t->narch_support];
        if (parse_cc(c.rows[r][idx[0]], &a->cc) < 0) {
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: \"%s\" is not a compute capability",
                              file, r + 2, c.rows[r][idx[0]]);
            break;
        }
        dotver_parse(c.rows[r][idx[1]], &a->first_toolkit); /* "" leaves n == 0 */
        a->last_toolkit = c.rows[r][idx[2]][0] ? xstrdup(c.rows[r][idx[2]]) : NULL;
        t->narch_support++;
    }
    csvfile_free(&c);
    return rc;
}

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

/* data/gpu_libraries.csv: the GPU library wheels that requirements name. */
static int load_gpu_libraries(const char *dir, struct tables *t, struct wa_error *err)
{
    static const char file[] = "gpu_libraries.csv";
    struct csvfile c;
    static const char *const cols[] = {"project", "library", "source", NULL};
    int idx[3];
    int rc = datatable_open(dir, file, cols, idx, &c, err);
    if (rc < 0)
        return rc;
    t->gpu_libraries = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->gpu_libraries);
    for (size_t r = 0; r < c.nrows; r++) {
        const char *project = c.rows[r][idx[0]], *library = c.rows[r][idx[1]];
        size_t n = strlen(project);
        if (!n || strspn(project, "abcdefghijklmnopqrstuvwxyz0123456789-.*") != n ||
            (strchr(project, '*') && strchr(project, '*') != project + n - 1) || !*library) {
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s line %zu: \"%s\" is not a normalised project name (a '*' "
                              "only at its end) with a library name",
                              file, r + 2, project);
            break;
        }
        struct gpu_library *g = &t->gpu_libraries[t->ngpu_libraries++];
        g->project = xstrdup(project);
        g->library = xstrdup(library);
        g->source = xstrdup(c.rows[r][idx[2]]);
    }
    csvfile_free(&c);
    return rc;
}

int tables_python_parse(const char *s, uint16_t *version, int *free_threaded)
{
    const char *p = s;
    if (!p || (*p != '2' && *p != '3') || p[1] != '.' || !isdigit((unsigned char)p[2]))
        return -1;
    unsigned minor = (unsigned)(p[2] - '0');
    p += 3;
    if (isdigit((unsigned char)*p)) {
        if (p[-1] == '0')
            return -1; /* "3.01" */
        minor = minor * 10 + (unsigned)(*p++ - '0');
    }
    int ft = 0;
    if (*p == 't') {
        ft = 1;
        p++;
    }
    if (*p)
        return -1;
    *version = (uint16_t)((s[0] - '0') * 100 + minor);
    *free_threaded = ft;
    return 0;
}

void tables_python_format(uint16_t version, int free_threaded, char *buf, size_t n)
{
    snprintf(buf, n, "%u.%u%s", version / 100u, version % 100u, free_threaded ? "t" : "");
}

/* Parses "3.9;3.10;3.13t" into out (no 't' allowed unless ft), or "" /
 * "none"; -1 on anything else. */
static int parse_python_list(const char *s, int ft, uint16_t *out, size_t max, size_t *n)
{
    *n = 0;
    if (!*s || strcmp(s, "none") == 0)
        return 0;
    while (*s) {
        char one[16];
        size_t len = strcspn(s, ";");
        if (!len || len >= sizeof one || *n == max)
            return -1;
        memcpy(one, s, len);
        one[len] = '\0';
        uint16_t v;
        int t;
        if (tables_python_parse(one, &v, &t) < 0 || t != ft)
            return -1;
        if (*n && v <= out[*n - 1])
            return -1; /* ascending, once each */
        out[(*n)++] = v;
        s += len;
        if (*s == ';' && !*++s)
            return -1;
    }
    return 0;
}

/* data/pytorch_python_versions.csv: each release's CPython wheels. */
static int load_pythons(const char *dir, struct tables *t, struct wa_error *err)
{
    static const char file[] = "pytorch_python_versions.csv";
    struct csvfile c;
    static const char *const cols[] = {"project",         "release",       "platform",
                                       "python_versions", "free_threaded", "confidence",
                                       "source",          "checked_on",    NULL};
    int idx[8];
    int rc = datatable_open(dir, file, cols, idx, &c, err);
    if (rc < 0)
        return rc;
    t->pythons = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->pythons);
    for (size_t r = 0; r < c.nrows && rc == 0; r++) {
        char *const *row = c.rows[r];
        struct python_support *p = &t->pythons[t->npythons];
        struct dotver rel;
        if (!*row[idx[0]] || dotver_parse(row[idx[1]], &rel) < 0 || !*row[idx[2]] ||
            !datatable_is_date(row[idx[7]]) ||
            parse_python_list(row[idx[3]], 0, p->versions, 24, &p->nversions) < 0 ||
            parse_python_list(row[idx[4]], 1, p->free_threaded, 24, &p->nfree_threaded) < 0) {
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s line %zu: want a project, a release, a platform, Python "
                              "versions such as 3.9;3.10 (or none), free-threaded ones such as "
                              "3.13t and a checked_on date",
                              file, r + 2);
            break;
        }
        p->project = xstrdup(row[idx[0]]);
        p->release = xstrdup(row[idx[1]]);
        p->platform = xstrdup(row[idx[2]]);
        p->confidence = xstrdup(row[idx[5]]);
        p->source = xstrdup(row[idx[6]]);
        t->npythons++;
    }
    csvfile_free(&c);
    return rc;
}

/* The rows that answer for version: with whole_release every row of its
 * release, else the one with the highest release not above version.
 * Returns how many were written to out. */
static size_t python_rows(const struct tables *t, const char *project, const char *version,
                          const char *platform, int whole_release,
                          const struct python_support **out, size_t max)
{
    struct dotver v;
    if (!t || !project || !version || !platform || dotver_parse(version, &v) < 0)
        return 0;
    size_t n = 0;
    const struct python_support *best = NULL;
    struct dotver bestv = {0};
    char key[512];
    size_t i = 0, chained = 0;
    if (t->python_index) {
        if (!python_key(key, sizeof key, project, platform, version))
            return 0;
        i = index_first(t->python_index, key);
        chained = 1;
    }
    for (; chained ? i != SIZE_MAX : i < t->npythons; i = chained ? t->python_next[i] : i + 1) {
        const struct python_support *p = &t->pythons[i];
        struct dotver pv;
        if (strcmp(p->project, project) != 0 || strcmp(p->platform, platform) != 0 ||
            dotver_parse(p->release, &pv) < 0 || pv.f[0] != v.f[0] ||
            (pv.n > 1 ? pv.f[1] : 0) != (v.n > 1 ? v.f[1] : 0))
            continue;
        if (whole_release) {
            if (n < max)
                out[n++] = p;
        } else if (dotver_cmp(&pv, &v) <= 0 && (!best || dotver_cmp(&pv, &bestv) > 0)) {
            best = p;
            bestv = pv;
        }
    }
    if (!whole_release && best && max)
        out[n++] = best;
    return n;
}

int tables_python_has(const struct tables *t, const char *project, const char *version,
                      const char *platform, int whole_release, uint16_t py, int free_threaded)
{
    const struct python_support *rows[16];
    size_t n = python_rows(t, project, version, platform, whole_release, rows, 16);
    if (!n)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const uint16_t *vs = free_threaded ? rows[i]->free_threaded : rows[i]->versions;
        size_t nv = free_threaded ? rows[i]->nfree_threaded : rows[i]->nversions;
        for (size_t j = 0; j < nv; j++)
            if (vs[j] == py)
                return 1;
    }
    return 0;
}

size_t tables_python_versions(const struct tables *t, const char *project, const char *version,
                              const char *platform, int whole_release, int free_threaded,
                              uint16_t *out, size_t max)
{
    const struct python_support *rows[16];
    size_t n = python_rows(t, project, version, platform, whole_release, rows, 16), m = 0;
    for (size_t i = 0; i < n; i++) {
        const uint16_t *vs = free_threaded ? rows[i]->free_threaded : rows[i]->versions;
        size_t nv = free_threaded ? rows[i]->nfree_threaded : rows[i]->nversions;
        for (size_t j = 0; j < nv; j++) {
            size_t k = 0;
            while (k < m && out[k] < vs[j])
                k++;
            if ((k < m && out[k] == vs[j]) || m == max)
                continue;
            memmove(out + k + 1, out + k, (m - k) * sizeof *out);
            out[k] = vs[j];
            m++;
        }
    }
    return m;
}

/* data/pytorch_companions.csv: torchvision and torchaudio per torch. */
static int load_companions(const char *dir, struct tables *t, struct wa_error *err)
{
    static const char file[] = "pytorch_companions.csv";
    struct csvfile c;
    static const char *const cols[] = {"torch",  "torchvision", "torchaudio", "notes",
                                       "source", "checked_on",  NULL};
    int idx[6];
    int rc = datatable_open(dir, file, cols, idx, &c, err);
    if (rc < 0)
        return rc;
    t->companions = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->companions);
    for (size_t r = 0; r < c.nrows && rc == 0; r++) {
        char *const *row = c.rows[r];
        struct dotver a, b, d;
        if (dotver_parse(row[idx[0]], &a) < 0 || dotver_parse(row[idx[1]], &b) < 0 ||
            (row[idx[2]][0] && dotver_parse(row[idx[2]], &d) < 0) ||
            !datatable_is_date(row[idx[5]])) {
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s line %zu: want a torch version, a torchvision version, a "
                              "torchaudio version (or nothing) and a checked_on date",
                              file, r + 2);
            break;
        }
        struct companion *x = &t->companions[t->ncompanions++];
        x->torch = xstrdup(row[idx[0]]);
        x->torchvision = xstrdup(row[idx[1]]);
        x->torchaudio = row[idx[2]][0] ? xstrdup(row[idx[2]]) : NULL;
        x->notes = xstrdup(row[idx[3]]);
        x->source = xstrdup(row[idx[4]]);
    }
    csvfile_free(&c);
    return rc;
}

const struct companion *tables_companion(const struct tables *t, const char *torch)
{
    for (size_t i = 0; t && torch && i < t->ncompanions; i++)
        if (dotver_cmp_str(t->companions[i].torch, torch) == 0)
            return &t->companions[i];
    return NULL;
}

const char *tables_gpu_library(const struct tables *t, const char *project)
{
    for (size_t i = 0; t && project && i < t->ngpu_libraries; i++) {
        const char *p = t->gpu_libraries[i].project;
        size_t n = strlen(p);
        if (n && p[n - 1] == '*' ? strncmp(project, p, n - 1) == 0 && project[n - 1]
                                 : strcmp(project, p) == 0)
            return t->gpu_libraries[i].library;
    }
    return NULL;
}

const struct toolkit *tables_first_toolkit(const struct tables *t, uint16_t cc)
{
    for (size_t i = 0; i < t->narch_support; i++)
        if (t->arch_support[i].cc == cc && t->arch_support[i].first_toolkit.n)
            return tables_toolkit(t, &t->arch_support[i].first_toolkit);
    return NULL;
}

const char *tables_last_toolkit(const struct tables *t, uint16_t cc)
{
    for (size_t i = 0; i < t->narch_support; i++)
        if (t->arch_support[i].cc == cc)
            return t->arch_support[i].last_toolkit;
    return NULL;
}

/* ---- AMD ------------------------------------------------------------------ */

static uint8_t feature_default(const char *s)
{
    return strcmp(s, "on") == 0    ? TARGET_FEAT_ON
           : strcmp(s, "off") == 0 ? TARGET_FEAT_OFF
                                   : TARGET_FEAT_ANY;
}

static int load_amd_targets(const char *dir, struct tables *t, struct wa_error *err)
{
    struct csvfile c;
    static const char *const cols[] = {"gfx", "family", "xnack", "sramecc", "generic", NULL};
    int idx[5];
    int rc = datatable_load(dir, "amdgpu_targets.csv", &c, err);
    if (rc < 0)
        return rc;
    if ((rc = datatable_need_cols(&c, "amdgpu_targets.csv", cols, idx, err)) < 0)
        goto out;
    t->amd = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->amd);
    for (size_t r = 0; r < c.nrows; r++) {
        struct target x;
        if (target_parse(c.rows[r][idx[0]], &x) < 0 || x.kind != TARGET_GFX) {
            rc = wa_error_set(err, WA_ERR_FORMAT, "amdgpu_targets.csv: row %zu: bad processor '%s'",
                              r + 2, c.rows[r][idx[0]]);
            goto out;
        }
        struct amd_processor *p = &t->amd[t->namd++];
        p->arch = x.arch;
        p->generic = x.suffix == 'g';
        p->xnack = strcmp(c.rows[r][idx[2]], "yes") == 0;
        p->sramecc = strcmp(c.rows[r][idx[3]], "yes") == 0;
        p->family = xstrdup(c.rows[r][idx[1]]);
        const char *gen = c.rows[r][idx[4]];
        struct target g;
        if (!p->generic && gen[0] && target_parse(gen, &g) == 0 && g.suffix == 'g')
            p->covered_by = g.arch;
    }
out:
    csvfile_free(&c);
    return rc;
}

static int load_amd_gpus(const char *dir, struct tables *t, struct wa_error *err)
{
    struct csvfile c;
    static const char *const cols[] = {
        "name",         "gfx", "architecture", "segment", "xnack_default", "sramecc_default",
        "rocm_support", NULL};
    int idx[7];
    int rc = datatable_load(dir, "amd_gpus.csv", &c, err);
    if (rc < 0)
        return rc;
    if ((rc = datatable_need_cols(&c, "amd_gpus.csv", cols, idx, err)) < 0)
        goto out;
    t->gpus = xrealloc(t->gpus, (t->ngpus + c.nrows + 1) * sizeof *t->gpus);
    for (size_t r = 0; r < c.nrows; r++) {
        struct gpu *g = &t->gpus[t->ngpus];
        memset(g, 0, sizeof *g);
        if (target_parse(c.rows[r][idx[1]], &g->gfx) < 0 || g->gfx.kind != TARGET_GFX ||
            g->gfx.suffix || g->gfx.arch < TABLES_AMD_MIN) {
            rc = wa_error_set(err, WA_ERR_FORMAT, "amd_gpus.csv: row %zu: bad processor '%s'",
                              r + 2, c.rows[r][idx[1]]);
            goto out;
        }
        g->gfx.xnack = feature_default(c.rows[r][idx[4]]);
        g->gfx.sramecc = feature_default(c.rows[r][idx[5]]);
        g->amd = 1;
        g->cc = g->gfx.arch;
        g->name = xstrdup(c.rows[r][idx[0]]);
        g->slug = slugify(g->name);
        g->architecture = xstrdup(c.rows[r][idx[2]]);
        g->segment = xstrdup(c.rows[r][idx[3]]);
        g->rocm_support = xstrdup(c.rows[r][idx[6]]);
        t->ngpus++;
    }
out:
    csvfile_free(&c);
    return rc;
}

const struct amd_processor *tables_amd_processor(const struct tables *t, uint16_t arch, int generic)
{
    for (size_t i = 0; i < t->namd; i++)
        if (t->amd[i].arch == arch && t->amd[i].generic == (generic != 0))
            return &t->amd[i];
    return NULL;
}

int tables_amd_device(const struct tables *t, uint16_t cc, struct target *device)
{
    if (cc < TABLES_AMD_MIN)
        return -1;
    for (size_t i = 0; i < t->ngpus; i++)
        if (t->gpus[i].amd && t->gpus[i].cc == cc) {
            *device = t->gpus[i].gfx;
            return 0;
        }
    memset(device, 0, sizeof *device);
    device->kind = TARGET_GFX;
    device->arch = cc;
    const struct amd_processor *p = tables_amd_processor(t, cc, 0);
    if (p && p->xnack)
        device->xnack = TARGET_FEAT_OFF;
    if (p && p->sramecc)
        device->sramecc = TARGET_FEAT_ON;
    return 0;
}

int tables_platform_os(const char *platform)
{
    return strncmp(platform, "windows", 7) == 0 ? TABLES_WINDOWS : TABLES_LINUX;
}

int tables_variant_rocm(const char *variant, struct dotver *rocm)
{
    if (strncmp(variant, "rocm", 4) != 0 || variant[4] < '0' || variant[4] > '9')
        return 0;
    if (rocm && dotver_parse(variant + 4, rocm) < 0)
        rocm->n = 0;
    return 1;
}

/* 0 for cpu and the like, 1 for CUDA, 2 for ROCm, with its version. */
static int variant_rank(const char *variant, struct dotver *v)
{
    if (tables_variant_cuda(variant, v) == 0)
        return 1;
    if (tables_variant_rocm(variant, v) && v->n)
        return 2;
    return 0;
}

int tables_variant_cmp(const char *a, const char *b)
{
    struct dotver x, y;
    int rx = variant_rank(a, &x), ry = variant_rank(b, &y);
    if (rx != ry)
        return rx - ry;
    int c = rx ? dotver_cmp(&x, &y) : 0;
    return c ? c : strcmp(a, b);
}

int tables_load(const char *dir, struct tables *t, struct wa_error *err)
{
    memset(t, 0, sizeof *t);
    if (!dir)
        return wa_error_set(err, WA_ERR_IO, "data folder not found (set WHEELARCH_DATA_DIR)");
    int rc = load_gpus(dir, t, err);
    if (rc == 0)
        rc = load_toolkits(dir, t, err);
    if (rc == 0)
        rc = load_compat(dir, t, err);
    if (rc == 0)
        rc = load_isas(dir, t, err);
    if (rc == 0)
        rc = load_families(dir, t, err);
    if (rc == 0)
        rc = load_declared(dir, t, err);
    if (rc == 0)
        rc = load_releases(dir, t, err);
    if (rc == 0)
        rc = load_amd_targets(dir, t, err);
    if (rc == 0)
        rc = load_amd_gpus(dir, t, err);
    if (rc == 0)
        rc = load_arch_support(dir, t, err);
    if (rc == 0)
        rc = load_variant_rules(dir, t, err);
    if (rc == 0)
        rc = load_gpu_libraries(dir, t, err);
    if (rc == 0)
        rc = load_pythons(dir, t, err);
    if (rc == 0)
        rc = load_companions(dir, t, err);
    if (rc == 0)
        rc = observed_load(dir, t, err);
    if (rc == 0)
        rc = schedule_load(dir, t, err);
    if (rc == 0)
        build_indexes(t);
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
        free(t->toolkits[i].min_driver_text[0]);
        free(t->toolkits[i].min_driver_text[1]);
    }
    free(t->toolkits);
    for (size_t i = 0; i < t->ncompat; i++) {
        free(t->compat[i].min_driver_text[0]);
        free(t->compat[i].min_driver_text[1]);
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
    free(t->releases);
    memset(t, 0, sizeof *t);
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

/* ---- drivers and toolkits ---------------------------------------------- */

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
    const struct toolkit *best = NULL;
    for (size_t i = 0; i < t->ntoolkits; i++) {
        const struct toolkit *k = &t->toolkits[i];
        if (!same_minor(&k->cuda, cuda))
            continue;
        if (!best || dotver_cmp(&k->cuda, &best->cuda) < 0)
            best = k;
    }
    return best;
}

void tables_variant_cuda_text(const char *variant, char *buf, size_t n)
{
    struct dotver c;
    if (n == 0)
        return;
    buf[0] = '\0';
    if (tables_variant_cuda(variant, &c) < 0)
        return;
    if (variant[strlen(variant) - 1] == 'x')
        snprintf(buf, n, "%ld.x", c.f[0]);
    else
        snprintf(buf, n, "%ld.%ld", c.f[0], c.f[1]);
}

int tables_variant_cuda(const char *variant, struct dotver *cuda)
{
    memset(cuda, 0, sizeof *cuda);
    if (!variant || strncmp(variant, "cu", 2) != 0 || !isdigit((unsigned char)variant[2]))
        return -1;
    const char *d = variant + 2;
    size_t n = strspn(d, "0123456789");
    long v = strtol(d, NULL, 10);
    if (n == 2 && d[2] == 'x' && d[3] == '\0') { /* "12x": any 12.x, judged as 12.0 */
        cuda->n = 2;
        cuda->f[0] = v;
        cuda->f[1] = 0;
        return 0;
    }
    if (n < 2 || n > 3 || d[n] != '\0')
        return -1;
    cuda->n = 2; /* "128" -> 12.8, "92" -> 9.2 */
    cuda->f[0] = v / 10;
    cuda->f[1] = v % 10;
    return 0;
}
