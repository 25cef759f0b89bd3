/*
 * variant: which GPU build of a project a wheel is (see variant.h).
 */
#include "variant.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dotver.h"
#include "xalloc.h"

int variant_token(const char *s, size_t n)
{
    if ((n == 3 && memcmp(s, "cpu", 3) == 0) || (n == 3 && memcmp(s, "xpu", 3) == 0))
        return 1;
    if (n >= 4 && memcmp(s, "cu", 2) == 0) {
        size_t d = 0;
        while (2 + d < n && isdigit((unsigned char)s[2 + d]))
            d++;
        if (2 + d == n) /* cu92, cu128; no CUDA 1.x, so "cu12" is no variant */
            return (d == 2 && s[2] != '1') || d == 3;
        return d == 2 && 2 + d + 1 == n && s[n - 1] == 'x'; /* cu12x */
    }
    if (n > 4 && memcmp(s, "rocm", 4) == 0) { /* rocm6.4, rocm6.2.4 */
        if (!isdigit((unsigned char)s[4]) || s[n - 1] == '.')
            return 0;
        int fields = 1;
        for (size_t i = 4; i < n; i++) {
            if (s[i] == '.' && s[i - 1] != '.')
                fields++;
            else if (!isdigit((unsigned char)s[i]))
                return 0;
        }
        return fields == 2 || fields == 3;
    }
    return 0;
}

/* Whether project matches a rule's name, which may hold one '*'. */
static int name_matches(const char *pattern, const char *project)
{
    const char *star = strchr(pattern, '*');
    if (!star)
        return strcmp(pattern, project) == 0;
    size_t pre = (size_t)(star - pattern), post = strlen(star + 1), n = strlen(project);
    return n > pre + post && strncmp(project, pattern, pre) == 0 &&
           strcmp(project + n - post, star + 1) == 0;
}

const struct variant_rule *variant_rule_of(const struct tables *t, const char *project,
                                           const char *version)
{
    if (!t)
        return NULL;
    struct dotver v;
    int have = version && dotver_parse(version, &v) == 0;
    for (size_t i = 0; i < t->nvariant_rules; i++) {
        const struct variant_rule *r = &t->variant_rules[i];
        if (!name_matches(r->project, project))
            continue;
        if (r->min_version.n && (!have || dotver_cmp(&v, &r->min_version) < 0))
            continue;
        return r;
    }
    return NULL;
}

/* The ROCm version a label segment starts with: "rocm6.4", "rocm7.10.0"
 * and the nightlies' "rocm7.10.0a20251015" (cut where the version ends);
 * its length in *n, or 0. */
static size_t rocm_prefix(const char *s)
{
    if (strncmp(s, "rocm", 4) != 0 || !isdigit((unsigned char)s[4]))
        return 0;
    size_t n = 4;
    while (isdigit((unsigned char)s[n]) || (s[n] == '.' && isdigit((unsigned char)s[n + 1])))
        n++;
    return variant_token(s, n) ? n : 0;
}

/* The variant one label names from s on: a variant segment ("cu128",
 * "cpu"), a ROCm version (rocm_prefix), a dotted CUDA version ("cu12.8",
 * "cu12.8torch2.10", "cu.12.8.torch.2.11" -> cu128); with major, a CUDA
 * major or a 3-digit version glued to what follows ("cu12torch2.8" ->
 * cu12x, "cu128torch2.7" -> cu128). */
static char *from_segment(const char *s, int major)
{
    size_t n = strcspn(s, ".");
    size_t r = rocm_prefix(s);
    if (r)
        return xstrndup(s, r);
    if (variant_token(s, n))
        return xstrndup(s, n);
    if (strncmp(s, "cu", 2) != 0)
        return NULL;
    /* the CUDA version as digits, a dot and one digit; as its own segments
     * after "cu."; then the label's end, a dot or a letter */
    const char *p = s + 2 + (s[2] == '.');
    size_t d = strspn(p, "0123456789");
    size_t m = d && p[d] == '.' ? strspn(p + d + 1, "0123456789") : 0;
    char after = m ? p[d + 1 + m] : p[d];
    if ((d == 1 || d == 2) && m == 1 &&
        (after == '\0' || after == '.' || isalpha((unsigned char)after)))
        return xasprintf("cu%.*s%c", (int)d, p, p[d + 1]);
    if (major && d == 2 && !m && (after == '\0' || after == '.' || isalpha((unsigned char)after)))
        return xasprintf("cu%.2sx", p);
    if (major && p == s + 2 && d == 3)
        return xstrndup(s, 5);
    return NULL;
}

/* The variant a local label names: its first segment (from_segment);
 * PyG's "pt28cu128" (torch's digits, then the CUDA version); else a later
 * segment that is a variant or a ROCm version, as vLLM's nightlies put it
 * after the commit ("gd9105ea80.cu129") and ROCm's triton
 * ("git4cff872c.rocm10.0.0"). */
static char *from_label(const char *local, int major)
{
    if (!local || !*local)
        return NULL;
    char *v = from_segment(local, major);
    if (v)
        return v;
    if (local[0] == 'p' && local[1] == 't' && isdigit((unsigned char)local[2])) {
        const char *cu = local + 2 + strspn(local + 2, "0123456789");
        size_t n = strcspn(cu, ".");
        if (strncmp(cu, "cu", 2) == 0 && variant_token(cu, n))
            return xstrndup(cu, n);
    }
    for (const char *p = strchr(local, '.'); p; p = strchr(p + 1, '.')) {
        size_t n = strcspn(p + 1, ".");
        size_t r = rocm_prefix(p + 1);
        if (r)
            return xstrndup(p + 1, r);
        if (variant_token(p + 1, n) && strncmp(p + 1, "rocm", 4) != 0)
            return xstrndup(p + 1, n);
    }
    return NULL;
}

/* The variant the folder of a URL names ("/whl/cu129/x.whl"), or NULL. */
static char *from_url(const char *url)
{
    if (!url)
        return NULL;
    size_t end = strcspn(url, "?#");
    while (end > 0 && url[end - 1] != '/')
        end--;
    if (end == 0)
        return NULL;
    size_t dend = end - 1, dstart = dend;
    while (dstart > 0 && url[dstart - 1] != '/')
        dstart--;
    return variant_token(url + dstart, dend - dstart) ? xstrndup(url + dstart, dend - dstart)
                                                      : NULL;
}

/* What PyPI's plain install of this release gets, from the release table:
 * a variant id, or NULL when the table does not know or says none. */
static char *from_release(const struct tables *t, const struct wheel_name *wn)
{
    char *release = dotver_release(wn->public_version);
    const struct release_info *ri =
        release ? tables_release(t, wn->normalized, release, wheelname_platform_id(wn->platform))
                : NULL;
    free(release);
    if (!ri || !ri->pypi_default || !variant_token(ri->pypi_default, strlen(ri->pypi_default)))
        return NULL;
    return xstrdup(ri->pypi_default);
}

char *variant_decide(const struct tables *t, const struct wheel_name *wn, const char *url,
                     const char *index_id, const char **how)
{
    const struct variant_rule *rule = variant_rule_of(t, wn->normalized, wn->public_version);
    int kind = rule ? rule->kind : -1;
    char *v;
    if (kind == VARIANT_RULE_NAME) {
        *how = "name";
        return xstrdup(rule->variant);
    }
    if ((v = from_label(wn->local, kind == VARIANT_RULE_LABEL_MAJOR))) {
        *how = "label";
        return v;
    }
    if ((v = from_url(url))) {
        *how = "url";
        return v;
    }
    if (index_id && variant_token(index_id, strlen(index_id))) {
        *how = "index";
        return xstrdup(index_id);
    }
    if (kind == VARIANT_RULE_RELEASE && (v = from_release(t, wn))) {
        *how = "release";
        return v;
    }
    if (kind == VARIANT_RULE_FIXED) {
        *how = "rule";
        return xstrdup(rule->variant);
    }
    if (kind == VARIANT_RULE_VERSION) {
        struct dotver d;
        if (dotver_parse(wn->public_version, &d) == 0 && d.f[0] >= 10 && d.f[0] <= 99) {
            *how = "rule";
            return xasprintf("cu%ldx", d.f[0]);
        }
    }
    *how = "index";
    return xstrdup(index_id && *index_id ? index_id : "unknown");
}

static const char *const hows[][2] = {
    {"name", "the project's name"},
    {"label", "its local version label"},
    {"url", "the folder of its URL"},
    {"index", "the index that lists it"},
    {"release", "what PyPI's plain install of the release gets (the release table)"},
    {"rule", "the project's rule (data/variant_rules.csv)"},
};

int variant_how_valid(const char *how)
{
    return how && *variant_how_words(how);
}

const char *variant_how_words(const char *how)
{
    for (size_t i = 0; how && i < sizeof hows / sizeof hows[0]; i++)
        if (strcmp(hows[i][0], how) == 0)
            return hows[i][1];
    return "";
}
