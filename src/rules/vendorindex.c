/*
 * vendorindex: the builds vendors publish on their own indexes.
 */
#include "vendorindex.h"

#include <stdlib.h>
#include <string.h>

#include "csvfile.h"
#include "datatable.h"
#include "dotver.h"
#include "indexurl.h"
#include "pyversion.h"
#include "xalloc.h"

static const char FILE_NAME[] = "vendor_indexes.csv";

/* "2.14.0", "2.11.0.2": three or four numbers, nothing else. */
static int version_ok(const char *s)
{
    int dots = 0;
    if (!*s)
        return 0;
    for (const char *p = s; *p; p++) {
        if (*p == '.') {
            if (p == s || p[1] == '.' || !p[1])
                return 0;
            dots++;
        } else if (*p < '0' || *p > '9') {
            return 0;
        }
    }
    return dots == 2 || dots == 3;
}

/* A character of a lowercase name: letters, digits, '.', '-', '_'. */
static int name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
}

/* An install extra's pattern: a lowercase extra name holding "{gfx}" once
 * ("device-{gfx}"), or "" for none. */
static int extra_ok(const char *s)
{
    const char *at = strstr(s, "{gfx}");
    if (!*s)
        return 1;
    if (!at || strstr(at + 1, "{gfx}"))
        return 0;
    for (const char *p = s; *p; p++) {
        if (p == at)
            p += 4;
        else if (!name_char(*p))
            return 0;
    }
    return 1;
}

/* A lowercase name (project, variant). */
static int name_ok(const char *s)
{
    if (!*s)
        return 0;
    for (const char *p = s; *p; p++)
        if (!name_char(*p))
            return 0;
    return 1;
}

static char *with_slash(const char *url)
{
    size_t n = strlen(url);
    return n && url[n - 1] == '/' ? xstrdup(url) : xasprintf("%s/", url);
}

struct pylist {
    uint16_t v[16];
    uint8_t ft[16];
    size_t n;
};

/* "3.10;3.11;3.13t" (or "") into l: ascending, each once.  0 or -1. */
static int python_list(const char *s, struct pylist *l)
{
    memset(l, 0, sizeof *l);
    while (*s) {
        char one[16];
        size_t k = strcspn(s, ";");
        uint16_t v;
        int ft;
        if (!k || k >= sizeof one || l->n == 16)
            return -1;
        memcpy(one, s, k);
        one[k] = '\0';
        if (pyversion_parse(one, &v, &ft) < 0)
            return -1;
        if (l->n && (l->v[l->n - 1] > v || (l->v[l->n - 1] == v && l->ft[l->n - 1] >= ft)))
            return -1;
        l->v[l->n] = v;
        l->ft[l->n++] = (uint8_t)ft;
        s += k + (s[k] == ';');
    }
    return 0;
}

int vendorindex_load(const char *dir, struct tables *t, struct wa_error *err)
{
    static const char *const cols[] = {
        "project",         "version", "platform", "variant",    "index_url",
        "vendor",          "install", "status",   "gpu_extra",  "gpu_package",
        "python_versions", "note",    "source",   "checked_on", NULL};
    int idx[14];
    struct csvfile c;
    int rc = datatable_open_optional(dir, FILE_NAME, cols, idx, &c, err);
    if (rc != 0)
        return rc < 0 ? rc : 0;
    t->vendor = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->vendor);
    for (size_t r = 0; r < c.nrows && rc == 0; r++) {
        char *const *row = c.rows[r];
        const char *project = row[idx[0]], *version = row[idx[1]], *platform = row[idx[2]],
                   *variant = row[idx[3]], *url = row[idx[4]], *vendor = row[idx[5]],
                   *install = row[idx[6]], *status = row[idx[7]], *gpu_extra = row[idx[8]],
                   *gpu_package = row[idx[9]], *pythons = row[idx[10]], *note = row[idx[11]];
        size_t line = r + 2;
        struct pylist pylist;
        char *rel = version_ok(version) ? dotver_release(version) : NULL;
        if (!name_ok(project))
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s line %zu: project \"%s\" is not a lowercase project name",
                              FILE_NAME, line, project);
        else if (!rel)
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s line %zu: version \"%s\" is not X.Y.Z or X.Y.Z.W", FILE_NAME,
                              line, version);
        else if (!datatable_platform(platform))
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s line %zu: platform \"%s\" is not linux-x86_64, linux-aarch64, "
                              "windows-x86_64 or windows-arm64",
                              FILE_NAME, line, platform);
        else if (!name_ok(variant))
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: variant \"%s\" is not a label",
                              FILE_NAME, line, variant);
        else if (!indexurl_valid(url))
            rc =
                wa_error_set(err, WA_ERR_FORMAT,
                             "%s line %zu: index_url \"%s\" is not an index URL (docs/commands.md)",
                             FILE_NAME, line, url);
        else if (!*vendor || !*note)
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: vendor and note must be given",
                              FILE_NAME, line);
        else if (strcmp(install, "extra") != 0 && strcmp(install, "only") != 0)
            rc =
                wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: install \"%s\" is not extra or only",
                             FILE_NAME, line, install);
        else if (strcmp(status, "preview") != 0 && strcmp(status, "stable") != 0)
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s line %zu: status \"%s\" is not preview or stable", FILE_NAME,
                              line, status);
        else if (!extra_ok(gpu_extra))
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s line %zu: gpu_extra \"%s\" is not an extra name holding {gfx} "
                              "once",
                              FILE_NAME, line, gpu_extra);
        else if (python_list(pythons, &pylist) < 0)
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s line %zu: python_versions \"%s\" is not a list of up to 16 "
                              "ascending Pythons (3.12;3.13;3.13t)",
                              FILE_NAME, line, pythons);
        else if (!extra_ok(gpu_package) || (*gpu_package && !*gpu_extra))
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s line %zu: gpu_package \"%s\" is not a project name holding {gfx} "
                              "once, beside a gpu_extra",
                              FILE_NAME, line, gpu_package);
        else if (!datatable_is_date(row[idx[13]]))
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: checked_on \"%s\" is not a date",
                              FILE_NAME, line, row[idx[13]]);
        else if (vendorindex_find(t, project, rel, platform, variant))
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: %s %s %s on %s is listed twice",
                              FILE_NAME, line, project, rel, variant, platform);
        if (rc < 0) {
            free(rel);
            break;
        }
        struct vendor_build *b = &t->vendor[t->nvendor++];
        b->project = xstrdup(project);
        b->version = xstrdup(version);
        b->release = rel;
        b->platform = xstrdup(platform);
        b->variant = xstrdup(variant);
        b->index_url = with_slash(url);
        b->vendor = xstrdup(vendor);
        b->extra = strcmp(install, "extra") == 0;
        b->preview = strcmp(status, "preview") == 0;
        b->note = xstrdup(note);
        b->line = b->preview ? xasprintf("a preview: %s", note) : xstrdup(note);
        b->declared_all = xasprintf("every row here is declared: taken from %s's published build "
                                    "configuration, not read from the wheels",
                                    vendor);
        b->declared_some = xasprintf("rows marked declared come from %s's published build "
                                     "configuration, not from reading the wheels",
                                     vendor);
        b->gpu_extra = *gpu_extra ? xstrdup(gpu_extra) : NULL;
        b->gpu_package = *gpu_package ? xstrdup(gpu_package) : NULL;
        memcpy(b->pythons, pylist.v, sizeof b->pythons);
        memcpy(b->pythons_ft, pylist.ft, sizeof b->pythons_ft);
        b->npythons = pylist.n;
        b->source = xstrdup(row[idx[12]]);
    }
    csvfile_free(&c);
    return rc;
}

void vendorindex_free(struct vendor_build *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(b[i].project);
        free(b[i].version);
        free(b[i].release);
        free(b[i].platform);
        free(b[i].variant);
        free(b[i].index_url);
        free(b[i].vendor);
        free(b[i].note);
        free(b[i].line);
        free(b[i].declared_all);
        free(b[i].declared_some);
        free(b[i].gpu_extra);
        free(b[i].gpu_package);
        free(b[i].source);
    }
    free(b);
}

const struct vendor_build *vendorindex_find(const struct tables *t, const char *project,
                                            const char *release, const char *platform,
                                            const char *variant)
{
    if (!t || !project || !release || !platform || !variant)
        return NULL;
    for (size_t i = 0; i < t->nvendor; i++) {
        const struct vendor_build *b = &t->vendor[i];
        if (strcmp(b->project, project) == 0 && strcmp(b->release, release) == 0 &&
            strcmp(b->platform, platform) == 0 && strcmp(b->variant, variant) == 0)
            return b;
    }
    return NULL;
}

char *vendorindex_extra(const struct vendor_build *b, const char *gfx)
{
    if (!b || !b->gpu_extra || !gfx || !*gfx)
        return NULL;
    const char *at = strstr(b->gpu_extra, "{gfx}");
    return xasprintf("%.*s%s%s", (int)(at - b->gpu_extra), b->gpu_extra, gfx, at + 5);
}

/* Whether name is pattern (one "{gfx}") with a gfx target's name in its
 * place: letters, digits, '-' after "gfx". */
static int fits_pattern(const char *pattern, const char *name)
{
    const char *at = strstr(pattern, "{gfx}");
    size_t pre = (size_t)(at - pattern), post = strlen(at + 5), n = strlen(name);
    if (n < pre + post + 4 || strncmp(name, pattern, pre) != 0 ||
        strcmp(name + n - post, at + 5) != 0 || strncmp(name + pre, "gfx", 3) != 0)
        return 0;
    for (size_t i = pre + 3; i < n - post; i++)
        if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') ||
              name[i] == '-'))
            return 0;
    return 1;
}

const struct vendor_build *vendorindex_gpu_package(const struct tables *t, const char *owner,
                                                   const char *name)
{
    for (size_t i = 0; t && name && i < t->nvendor; i++) {
        const struct vendor_build *b = &t->vendor[i];
        if (b->gpu_package && (!owner || strcmp(b->project, owner) == 0) &&
            fits_pattern(b->gpu_package, name))
            return b;
    }
    return NULL;
}

int vendorindex_at_url(const struct vendor_build *b, const char *url)
{
    size_t n = strlen(url);
    if (n && url[n - 1] == '/')
        n--;
    size_t m = strlen(b->index_url) - 1; /* without its '/' */
    return m == n && strncmp(b->index_url, url, n) == 0;
}

const struct vendor_build *vendorindex_of_url(const struct tables *t, const char *project,
                                              const char *url)
{
    if (!t || !url)
        return NULL;
    for (size_t i = 0; i < t->nvendor; i++) {
        const struct vendor_build *b = &t->vendor[i];
        if (vendorindex_at_url(b, url) && (!project || strcmp(b->project, project) == 0))
            return b;
    }
    return NULL;
}
