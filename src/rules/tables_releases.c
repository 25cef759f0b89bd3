/*
 * tables_releases: PyTorch's declared arch lists, its releases and their
 * variants, the Pythons each release has wheels for, torch's companions and
 * the GPU libraries wheels pin; and the lookups by release.
 */
#include "tables_releases.h"
#include "tables_load.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "csvfile.h"
#include "datatable.h"
#include "strmap.h"
#include "tables_variants.h"
#include "pyversion.h"
#include "vendorindex.h"
#include "xalloc.h"

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
            if (tablesi_parse_cc(tok, &cc) == 0) {
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
int tablesi_load_declared(const char *dir, struct tables *t, struct wa_error *err)
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
int tablesi_load_releases(const char *dir, struct tables *t, struct wa_error *err)
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

void tablesi_build_indexes(struct tables *t)
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
    /* the index is made by tables_load with the rows: none, no rows */
    if (!t->release_index || dotver_release_buf(version, rel, sizeof rel) < 0 ||
        !release_key(key, sizeof key, project, rel, platform))
        return NULL;
    for (size_t i = index_first(t->release_index, key); i != SIZE_MAX; i = t->release_next[i])
        if (release_better(&t->releases[i], version, best))
            best = &t->releases[i];
    return best;
}

int tables_release_has(const struct release_info *r, const char *variant)
{
    for (size_t i = 0; i < r->nvariants; i++)
        if (strcmp(r->variants[i], variant) == 0)
            return 1;
    return 0;
}

/* data/gpu_libraries.csv: the GPU library wheels that requirements name. */
int tablesi_load_gpu_libraries(const char *dir, struct tables *t, struct wa_error *err)
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
    return pyversion_parse(s, version, free_threaded);
}

void tables_python_format(uint16_t version, int free_threaded, char *buf, size_t n)
{
    pyversion_format(version, free_threaded, buf, n);
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
int tablesi_load_pythons(const char *dir, struct tables *t, struct wa_error *err)
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
    /* the index is made by tables_load with the rows: none, no rows */
    if (!t->python_index || !python_key(key, sizeof key, project, platform, version))
        return 0;
    for (size_t i = index_first(t->python_index, key); i != SIZE_MAX; i = t->python_next[i]) {
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

/* A vendor's build of version that names its own Pythons, or NULL. */
static const struct vendor_build *vendor_pythons(const struct tables *t, const char *project,
                                                 const char *version, const char *platform,
                                                 const char *variant)
{
    char rel[32];
    if (!variant || dotver_release_buf(version, rel, sizeof rel) < 0)
        return NULL;
    const struct vendor_build *b = vendorindex_find(t, project, rel, platform, variant);
    return b && b->npythons ? b : NULL;
}

int tables_python_has(const struct tables *t, const char *project, const char *version,
                      const char *platform, const char *variant, int whole_release, uint16_t py,
                      int free_threaded)
{
    const struct vendor_build *b = vendor_pythons(t, project, version, platform, variant);
    if (b) {
        for (size_t j = 0; j < b->npythons; j++)
            if (b->pythons[j] == py && b->pythons_ft[j] == free_threaded)
                return 1;
        return 0;
    }
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
                              const char *platform, const char *variant, int whole_release,
                              int free_threaded, uint16_t *out, size_t max)
{
    const struct vendor_build *b = vendor_pythons(t, project, version, platform, variant);
    if (b) { /* ascending, as the file gives them */
        size_t m = 0;
        for (size_t j = 0; j < b->npythons && m < max; j++)
            if (b->pythons_ft[j] == free_threaded)
                out[m++] = b->pythons[j];
        return m;
    }
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
int tablesi_load_companions(const char *dir, struct tables *t, struct wa_error *err)
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

/* data/pytorch_companion_platforms.csv: a companion's first version with
 * GPU wheels on a platform. */
int tablesi_load_companion_platforms(const char *dir, struct tables *t, struct wa_error *err)
{
    static const char file[] = "pytorch_companion_platforms.csv";
    struct csvfile c;
    static const char *const cols[] = {"project",    "platform", "first_version", "notes", "source",
                                       "checked_on", NULL};
    int idx[6];
    int rc = datatable_open(dir, file, cols, idx, &c, err);
    if (rc < 0)
        return rc;
    t->companion_platforms = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->companion_platforms);
    for (size_t r = 0; r < c.nrows && rc == 0; r++) {
        char *const *row = c.rows[r];
        struct dotver v;
        if (!row[idx[0]][0] || !row[idx[1]][0] || dotver_parse(row[idx[2]], &v) < 0 ||
            !datatable_is_date(row[idx[5]])) {
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s line %zu: want a project, a platform, a first version and a "
                              "checked_on date",
                              file, r + 2);
            break;
        }
        struct companion_platform *x = &t->companion_platforms[t->ncompanion_platforms++];
        x->project = xstrdup(row[idx[0]]);
        x->platform = xstrdup(row[idx[1]]);
        x->first_version = xstrdup(row[idx[2]]);
        x->notes = xstrdup(row[idx[3]]);
        x->source = xstrdup(row[idx[4]]);
    }
    csvfile_free(&c);
    return rc;
}

int tables_companion_has(const struct tables *t, const char *project, const char *version,
                         const char *platform, const char *variant, const char **why)
{
    *why = NULL;
    /* the release table, where it lists the companion on this platform */
    const struct release_info *ri = tables_release_at(t, project, version, platform);
    if (ri && ri->covered) {
        if (tables_release_has(ri, variant) || strcmp(variant, "cpu") == 0)
            return 1;
        /* the table does not list the domain libraries' ROCm wheels: a
         * ROCm variant it does not name is not known to be missing */
        int lists_rocm = 0;
        for (size_t i = 0; i < ri->nvariants; i++)
            lists_rocm |= tables_variant_rocm(ri->variants[i], NULL);
        if (tables_variant_rocm(variant, NULL) && !lists_rocm)
            return 1;
        *why = "the data lists no wheel of it for this index on this platform";
        return 0;
    }
    for (size_t i = 0; i < t->ncompanion_platforms; i++) {
        const struct companion_platform *x = &t->companion_platforms[i];
        if (strcmp(x->project, project) == 0 && strcmp(x->platform, platform) == 0 &&
            dotver_cmp_str(version, x->first_version) < 0) {
            *why = x->notes;
            return 0;
        }
    }
    return 1;
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
