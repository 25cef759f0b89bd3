/*
 * observed: published get_arch_list() outputs beside the declared lists.
 */
#include "observed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvfile.h"
#include "dotver.h"
#include "fsutil.h"
#include "strbuf.h"
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

static int known_platform(const char *p)
{
    static const char *const ok[] = {"linux-x86_64", "linux-aarch64", "windows-x86_64",
                                     "windows-arm64"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (strcmp(ok[i], p) == 0)
            return 1;
    return 0;
}

/* "sm_75 sm_80 compute_120" (or with commas, quotes and brackets, as
 * Python prints a list) into the observation's target sets; -1 naming
 * the first token that is no target. */
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
            snprintf(bad, nbad, "%.*s", (int)(len > 40 ? 40 : len), p);
            return -1;
        }
        if (x.kind == TARGET_SASS && o->nsass < 32)
            o->sass[o->nsass++] = x;
        else if (x.kind == TARGET_PTX && o->nptx < 8)
            o->ptx[o->nptx++] = x;
        else if (x.kind == TARGET_GFX && o->ngfx < 32)
            o->gfx[o->ngfx++] = x;
        p += len;
    }
    o->nsass = target_sort_unique(o->sass, o->nsass);
    o->nptx = target_sort_unique(o->ptx, o->nptx);
    o->ngfx = target_sort_unique(o->gfx, o->ngfx);
    return o->nsass + o->nptx + o->ngfx ? 0 : -1;
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

static int explained(const struct observed *o, const struct declared *d)
{
    char want[160], w[96];
    wheel_name(o, w, sizeof w);
    snprintf(want, sizeof want, "differs from observed %s", w);
    return strstr(d->evidence, want) != NULL;
}

static void set_provenance(struct declared *d)
{
    struct strbuf b = STRBUF_INIT;
    strbuf_adds(&b, "declared (PyTorch's build configuration");
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
        o->explained = !o->agrees && explained(o, o->declared);
    }
    for (size_t k = 0; k < t->ndeclared; k++) {
        struct declared *d = &t->declared[k];
        const struct observed *newest = NULL;
        size_t pages = 0;
        for (size_t i = 0; i < t->nobserved; i++) {
            const struct observed *o = &t->observed[i];
            if (o->declared != d || !o->agrees)
                continue;
            int again = 0; /* the same page seen twice counts once */
            for (size_t j = 0; j < i && !again; j++)
                again = t->observed[j].declared == d && t->observed[j].agrees &&
                        strcmp(t->observed[j].url, o->url) == 0;
            pages += !again;
            if (!newest || dotver_cmp_str(o->version, newest->version) > 0)
                newest = o;
        }
        d->nseen = pages;
        if (newest) {
            char w[96];
            wheel_name(newest, w, sizeof w);
            free(d->seen);
            d->seen = xstrdup(w);
            int r = rung(d->confidence);
            if (r >= 0) {
                size_t up = (size_t)r + pages;
                free(d->confidence);
                d->confidence = xstrdup(LADDER[up < NLADDER ? up : NLADDER - 1]);
            }
        }
        set_provenance(d);
    }
}

int observed_load(const char *dir, struct tables *t, struct wa_error *err)
{
    static const char *const cols[] = {"project", "version", "variant", "platform",
                                       "printed", "url",     "notes",   NULL};
    int idx[7];
    struct csvfile c;
    char *path = fsutil_join(dir, FILE_NAME);
    int exists = fsutil_exists(path);
    free(path);
    int rc = exists ? tables_open(dir, FILE_NAME, cols, idx, &c, err) : 0;
    if (rc < 0)
        return rc;
    if (exists) {
        t->observed = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->observed);
        for (size_t r = 0; r < c.nrows && rc == 0; r++) {
            char *const *row = c.rows[r];
            struct dotver v;
            const char *url = row[idx[5]];
            char bad[48] = "";
            struct observed *o = &t->observed[t->nobserved];
            *o = (struct observed){0};
            o->printed = row[idx[4]];
            if (dotver_parse(row[idx[1]], &v) < 0 || v.n != 3)
                rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: version \"%s\" is not X.Y.Z",
                                  FILE_NAME, r + 2, row[idx[1]]);
            else if (!known_platform(row[idx[3]]))
                rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: unknown platform \"%s\"",
                                  FILE_NAME, r + 2, row[idx[3]]);
            else if (strncmp(url, "https://", 8) && strncmp(url, "http://", 7))
                rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: url \"%s\" is not http(s)",
                                  FILE_NAME, r + 2, url);
            else if (parse_printed(o, bad, sizeof bad) < 0)
                rc = wa_error_set(err, WA_ERR_FORMAT,
                                  bad[0] ? "%s line %zu: \"%s\" in printed is not a GPU target"
                                         : "%s line %zu: printed lists no target%s",
                                  FILE_NAME, r + 2, bad);
            if (rc < 0)
                break;
            o->project = xstrdup(row[idx[0]]);
            o->version = xstrdup(row[idx[1]]);
            o->variant = xstrdup(row[idx[2]]);
            o->platform = xstrdup(row[idx[3]]);
            o->printed = xstrdup(row[idx[4]]);
            o->url = xstrdup(url);
            o->notes = xstrdup(row[idx[6]]);
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
