/*
 * observed: published get_arch_list() outputs beside the declared lists.
 */
#include "observed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datatable.h"
#include "csvfile.h"
#include "dotver.h"
#include "strbuf.h"
#include "vendorindex.h"
#include "xalloc.h"

static const char FILE_NAME[] = "observed_arch_lists.csv";

/* The confidence ladder, lowest first. */
static const char *const LADDER[] = {"low", "medium-low", "medium", "medium-high", "high"};
#define NLADDER (sizeof LADDER / sizeof LADDER[0])

static int rung(const char *c)
{
    for (size_t i = 0; i < NLADDER; i++)
        if (strcmp(LADDER[i], c) == 0)
            return (int)i;
    return -1;
}

/* "sm_75 sm_80 compute_120" (or with commas, quotes and brackets, as
 * Python prints a list) into the observation's target sets; -1 naming
 * the first token that is no target. */
static int add_target(struct target *set, size_t *n, size_t max, const struct target *x)
{
    for (size_t i = 0; i < *n; i++)
        if (target_cmp(&set[i], x) == 0)
            return 0; /* printed twice */
    if (*n >= max)
        return -1;
    set[(*n)++] = *x;
    return 0;
}

static int parse_printed(struct observed *o, char *bad, size_t nbad)
{
    const char *p = o->printed;
    static const char sep[] = " ,;[]'\"\t";
    while (*p) {
        p += strspn(p, sep);
        size_t len = strcspn(p, sep);
        if (!len)
            break;
        char tok[TARGET_NAME_MAX];
        struct target x;
        if (len >= sizeof tok ||
            (memcpy(tok, p, len), tok[len] = '\0', target_parse(tok, &x)) < 0) {
            snprintf(bad, nbad, "\"%.*s\" in printed is not a GPU target",
                     (int)(len > 40 ? 40 : len), p);
            return -1;
        }
        int full = x.kind == TARGET_SASS  ? add_target(o->sass, &o->nsass, 32, &x)
                   : x.kind == TARGET_PTX ? add_target(o->ptx, &o->nptx, 8, &x)
                   : x.kind == TARGET_GFX ? add_target(o->gfx, &o->ngfx, 32, &x)
                                          : 0;
        if (full < 0) {
            snprintf(bad, nbad, "printed has more %s targets than fit (%d)",
                     x.kind == TARGET_PTX   ? "PTX"
                     : x.kind == TARGET_GFX ? "gfx"
                                            : "SASS",
                     x.kind == TARGET_PTX ? 8 : 32);
            return -1;
        }
        p += len;
    }
    o->nsass = target_sort_unique(o->sass, o->nsass);
    o->nptx = target_sort_unique(o->ptx, o->nptx);
    o->ngfx = target_sort_unique(o->gfx, o->ngfx);
    if (o->nsass + o->nptx + o->ngfx == 0) {
        snprintf(bad, nbad, "printed lists no target");
        return -1;
    }
    return 0;
}

/* "2.13.0": three numbers, digits only, no leading zero. */
static int plain_version(const char *s)
{
    for (int part = 0; part < 3; part++) {
        size_t n = strspn(s, "0123456789");
        if (n == 0 || (n > 1 && s[0] == '0'))
            return 0;
        s += n;
        if (part < 2 && *s++ != '.')
            return 0;
    }
    return *s == '\0';
}

/* The page's address without a fragment, query or trailing slash: two
 * comments of one thread are one page. */
static size_t page_len(const char *url)
{
    size_t n = strcspn(url, "#?");
    while (n > 8 && url[n - 1] == '/')
        n--;
    return n;
}

static int same_page(const char *a, const char *b)
{
    size_t n = page_len(a);
    return n == page_len(b) && strncmp(a, b, n) == 0;
}

/* Whether the declared row already cites the page (its address, or its
 * "owner/repo#N" or "owner/repo/pull/N" form) as a reason. */
static int cited(const struct declared *d, const char *url)
{
    char page[512], shortform[256];
    size_t n = page_len(url);
    if (n >= sizeof page)
        return 0;
    memcpy(page, url, n);
    page[n] = '\0';
    if (strstr(d->source, page) || strstr(d->evidence, page))
        return 1;
    /* https://github.com/owner/repo/(issues|pull)/N -> owner/repo#N */
    const char *gh = strncmp(page, "https://github.com/", 19) == 0 ? page + 19 : NULL;
    const char *kind = gh ? strstr(gh, "/issues/") : NULL;
    if (gh && !kind)
        kind = strstr(gh, "/pull/");
    if (!kind)
        return 0;
    const char *num = strchr(kind + 1, '/') + 1;
    snprintf(shortform, sizeof shortform, "%.*s#%s", (int)(kind - gh), gh, num);
    return strstr(d->source, shortform) || strstr(d->evidence, shortform);
}

const struct declared *observed_declared_for(const struct tables *t, const char *project,
                                             const char *version, const char *variant,
                                             const char *platform)
{
    char *release = dotver_release(version);
    const struct declared *best = NULL;
    for (size_t i = 0; release && i < t->ndeclared; i++) {
        const struct declared *d = &t->declared[i];
        if (strcmp(d->project, project) || strcmp(d->release, release) ||
            strcmp(d->variant, variant) || strcmp(d->platform, platform))
            continue;
        if (dotver_cmp_str(d->version, version) > 0 && strchr(d->version + strlen(d->release), '.'))
            continue; /* a later patch's row ("2.13.1" for 2.13.0) */
        if (!best || dotver_cmp_str(d->version, best->version) > 0)
            best = d;
    }
    free(release);
    return best;
}

static int same_set(const struct target *a, size_t na, const struct target *b, size_t nb)
{
    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (target_cmp(&a[i], &b[i]))
            return 0;
    return 1;
}

static int agrees(const struct observed *o, const struct declared *d)
{
    /* the declared gfx list keeps the file's order: compare a sorted copy */
    struct target gfx[32];
    size_t ngfx = d->ngfx;
    memcpy(gfx, d->gfx, ngfx * sizeof *gfx);
    ngfx = target_sort_unique(gfx, ngfx);
    return same_set(o->sass, o->nsass, d->sass, d->nsass) &&
           same_set(o->ptx, o->nptx, d->ptx, d->nptx) && same_set(o->gfx, o->ngfx, gfx, ngfx);
}

/* "2.13.0+cu130" */
static void wheel_name(const struct observed *o, char *buf, size_t n)
{
    snprintf(buf, n, "%s+%s", o->version, o->variant);
}

/* The reason the declared row gives for a disagreement with o: the
 * evidence's words after "differs from observed <wheel>: ", to the next
 * "; " (at least ten characters of it), else NULL.  Caller frees. */
static char *explained(const struct observed *o, const struct declared *d)
{
    char want[160], w[96];
    wheel_name(o, w, sizeof w);
    snprintf(want, sizeof want, "differs from observed %s: ", w);
    const char *at = strstr(d->evidence, want);
    if (!at)
        return NULL;
    at += strlen(want);
    const char *end = strstr(at, "; ");
    size_t n = end ? (size_t)(end - at) : strlen(at);
    return n >= 10 ? xstrndup(at, n) : NULL;
}

/* "declared (PyTorch's build configuration, high confidence; ...)": the
 * vendor's, where the build is a vendor's own (vendorindex.h). */
static void set_provenance(const struct tables *t, struct declared *d)
{
    struct strbuf b = STRBUF_INIT;
    const struct vendor_build *v =
        vendorindex_find(t, d->project, d->release, d->platform, d->variant);
    strbuf_addf(&b, "declared (%s's build configuration", v ? v->vendor : "PyTorch");
    if (d->confidence[0])
        strbuf_addf(&b, ", %s confidence", d->confidence);
    if (d->seen)
        strbuf_addf(&b, "; seen in a published get_arch_list() of %s", d->seen);
    strbuf_addc(&b, ')');
    free(d->provenance);
    d->provenance = strbuf_detach(&b, NULL);
}

/* Counts the distinct pages that agree with each declared row and raises
 * its confidence by as many steps, naming the newest agreeing wheel. */
static void link(struct tables *t)
{
    for (size_t i = 0; i < t->nobserved; i++) {
        struct observed *o = &t->observed[i];
        o->declared = observed_declared_for(t, o->project, o->version, o->variant, o->platform);
        if (!o->declared)
            continue;
        o->agrees = agrees(o, o->declared);
        free(o->reason);
        o->reason = o->agrees ? NULL : explained(o, o->declared);
        o->explained = o->reason != NULL;
    }
    for (size_t k = 0; k < t->ndeclared; k++) {
        struct declared *d = &t->declared[k];
        const struct observed *newest = NULL;
        size_t pages = 0;
        int contradicted = 0;
        for (size_t i = 0; i < t->nobserved; i++) {
            const struct observed *o = &t->observed[i];
            if (o->declared != d)
                continue;
            if (!o->agrees) {
                contradicted = 1;
                continue;
            }
            if (!newest || dotver_cmp_str(o->version, newest->version) > 0)
                newest = o;
            if (o->inferred[0] || cited(d, o->url))
                continue;  /* seen, but no new weight */
            int again = 0; /* the same page seen twice counts once */
            for (size_t j = 0; j < i && !again; j++)
                again = t->observed[j].declared == d && t->observed[j].agrees &&
                        !t->observed[j].inferred[0] && same_page(t->observed[j].url, o->url);
            pages += !again;
        }
        d->nseen = contradicted ? 0 : pages;
        if (newest && !contradicted) {
            char w[96];
            wheel_name(newest, w, sizeof w);
            free(d->seen);
            d->seen = xstrdup(w);
            int r = rung(d->confidence);
            if (r >= 0 && pages) {
                size_t up = (size_t)r + pages;
                free(d->confidence);
                d->confidence = xstrdup(LADDER[up < NLADDER ? up : NLADDER - 1]);
            }
        }
        set_provenance(t, d);
    }
}

int observed_load(const char *dir, struct tables *t, struct wa_error *err)
{
    static const char *const cols[] = {"project", "version", "variant",  "platform", "printed",
                                       "url",     "notes",   "inferred", NULL};
    int idx[8];
    struct csvfile c;
    int rc = datatable_open_optional(dir, FILE_NAME, cols, idx, &c, err);
    if (rc < 0)
        return rc;
    int exists = rc == 0; /* absent: no observations; every row still gets its provenance */
    rc = 0;
    if (exists) {
        t->observed = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->observed);
        for (size_t r = 0; r < c.nrows && rc == 0; r++) {
            char *const *row = c.rows[r];
            const char *url = row[idx[5]], *inf = row[idx[7]];
            char bad[96] = "";
            struct observed *o = &t->observed[t->nobserved];
            *o = (struct observed){0};
            o->printed = row[idx[4]];
            if (strcmp(row[idx[0]], "torch") && strcmp(row[idx[0]], "torchvision") &&
                strcmp(row[idx[0]], "torchaudio"))
                rc = wa_error_set(
                    err, WA_ERR_FORMAT,
                    "%s line %zu: project \"%s\" is not torch, torchvision or torchaudio",
                    FILE_NAME, r + 2, row[idx[0]]);
            else if (!plain_version(row[idx[1]]))
                rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: version \"%s\" is not X.Y.Z",
                                  FILE_NAME, r + 2, row[idx[1]]);
            else if (!datatable_platform(row[idx[3]]))
                rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: unknown platform \"%s\"",
                                  FILE_NAME, r + 2, row[idx[3]]);
            else if (strncmp(url, "https://", 8) && strncmp(url, "http://", 7))
                rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: url \"%s\" is not http(s)",
                                  FILE_NAME, r + 2, url);
            else if (strcmp(inf, "") && strcmp(inf, "version") && strcmp(inf, "platform") &&
                     strcmp(inf, "version;platform"))
                rc = wa_error_set(err, WA_ERR_FORMAT,
                                  "%s line %zu: inferred \"%s\" is not version, platform or "
                                  "version;platform",
                                  FILE_NAME, r + 2, inf);
            else if (parse_printed(o, bad, sizeof bad) < 0)
                rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: %s", FILE_NAME, r + 2, bad);
            if (rc < 0)
                break;
            o->project = xstrdup(row[idx[0]]);
            o->version = xstrdup(row[idx[1]]);
            o->variant = xstrdup(row[idx[2]]);
            o->platform = xstrdup(row[idx[3]]);
            o->printed = xstrdup(row[idx[4]]);
            o->url = xstrdup(url);
            o->notes = xstrdup(row[idx[6]]);
            o->inferred = xstrdup(inf);
            t->nobserved++;
        }
        csvfile_free(&c);
    }
    if (rc == 0)
        link(t);
    return rc;
}

void observed_free(struct observed *o, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(o[i].project);
        free(o[i].version);
        free(o[i].variant);
        free(o[i].platform);
        free(o[i].printed);
        free(o[i].url);
        free(o[i].notes);
        free(o[i].inferred);
        free(o[i].reason);
    }
    free(o);
}

static void add_targets(struct strbuf *b, const struct target *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char name[TARGET_NAME_MAX];
        target_format(&x[i], name, sizeof name);
        strbuf_addf(b, "%s%s", b->len && b->buf[b->len - 1] != ' ' ? " " : "", name);
    }
}

/* The targets of a that b lacks, " "-separated, into b. */
static void add_missing(struct strbuf *out, const struct target *a, size_t na,
                        const struct target *b, size_t nb)
{
    for (size_t i = 0; i < na; i++) {
        int found = 0;
        for (size_t j = 0; j < nb && !found; j++)
            found = target_cmp(&a[i], &b[j]) == 0;
        if (!found)
            add_targets(out, &a[i], 1);
    }
}

void observed_describe(const struct observed *o, char *buf, size_t n)
{
    char w[96];
    wheel_name(o, w, sizeof w);
    struct strbuf b = STRBUF_INIT;
    strbuf_addf(&b, "%s %s (%s): ", o->project, w, o->platform);
    const struct declared *d = o->declared;
    if (!d) {
        strbuf_addf(&b, "no declared row for this wheel (printed %s; %s)", o->printed, o->url);
    } else {
        strbuf_addf(&b, "declared %s (%s), printed %s", d->arch_list, d->version, o->printed);
        if (!o->agrees) {
            struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
            add_missing(&x, d->sass, d->nsass, o->sass, o->nsass);
            add_missing(&x, d->ptx, d->nptx, o->ptx, o->nptx);
            add_missing(&x, d->gfx, d->ngfx, o->gfx, o->ngfx);
            add_missing(&y, o->sass, o->nsass, d->sass, d->nsass);
            add_missing(&y, o->ptx, o->nptx, d->ptx, d->nptx);
            add_missing(&y, o->gfx, o->ngfx, d->gfx, d->ngfx);
            if (x.len)
                strbuf_addf(&b, "; declared, not printed: %s", x.buf);
            if (y.len)
                strbuf_addf(&b, "; printed, not declared: %s", y.buf);
            strbuf_free(&x);
            strbuf_free(&y);
        }
        strbuf_addf(&b, " (%s)", o->url);
    }
    snprintf(buf, n, "%s", b.len ? b.buf : "");
    strbuf_free(&b);
}

size_t observed_check(const struct tables *t, size_t *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nobserved; i++) {
        const struct observed *o = &t->observed[i];
        if (o->declared && (o->agrees || o->explained))
            continue;
        if (n < max)
            out[n] = i;
        n++;
    }
    return n;
}
