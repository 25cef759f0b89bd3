/*
 * dbview_code: a row's GPU code: read from a record's targets and PTX
 * ISAs, or made from PyTorch's declared arch list; and how the two differ.
 */
#include "dbview_code.h"
#include "dbview_state.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "recordcheck.h"
#include "strbuf.h"
#include "xalloc.h"

/* A PTX target's ISA as a binary of the record gives it, and where. */
struct isa_at {
    struct target ptx;
    struct dotver isa;
    size_t at;
};

/* Appends t to the array arr of *n targets (room for *cap).  Duplicates
 * are dropped each time the array fills (sorted, then deduplicated) and by
 * the caller's final target_sort_unique: O(n log n) over all the names a
 * record lists, where a search per name was quadratic in the distinct
 * targets, and the array stays within about twice their number. */
static void add_target(struct target **arr, size_t *n, size_t *cap, const struct target *t)
{
    if (*n == *cap) {
        *n = target_sort_unique(*arr, *n);
        if (*n >= *cap / 2)
            *arr = xgrow(*arr, cap, 2 * *n + 16, sizeof **arr);
    }
    (*arr)[(*n)++] = *t;
}

/* By target, then the highest ISA first, then the first place. */
static int isa_at_cmp(const void *a, const void *b)
{
    const struct isa_at *x = a, *y = b;
    int c = target_cmp(&x->ptx, &y->ptx);
    if (!c)
        c = dotver_cmp(&y->isa, &x->isa);
    if (!c)
        c = x->at < y->at ? -1 : x->at > y->at;
    return c;
}

static int isa_place_cmp(const void *a, const void *b)
{
    const struct isa_at *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* Gives c each PTX target's highest ISA, in the order the targets first
 * appear, as one compat_code_set_isa per name would; but sorted and
 * deduplicated first, since compat_code_set_isa searches the targets so far
 * (quadratic over many names).  Reorders v. */
static void set_isas(struct compat_code *c, struct isa_at *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, isa_at_cmp);
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (w && target_cmp(&v[w - 1].ptx, &v[i].ptx) == 0) {
            if (v[i].at < v[w - 1].at)
                v[w - 1].at = v[i].at; /* its first place, with the highest ISA */
            continue;
        }
        v[w++] = v[i];
    }
    if (w > 1)
        qsort(v, w, sizeof *v, isa_place_cmp);
    if (c->nisas) { /* merge with what c holds */
        for (size_t i = 0; i < w; i++)
            compat_code_set_isa(c, &v[i].ptx, &v[i].isa);
        return;
    }
    c->isas = xrealloc(c->isas, (w ? w : 1) * sizeof *c->isas);
    for (size_t i = 0; i < w; i++) {
        c->isas[i].ptx = v[i].ptx;
        c->isas[i].isa = v[i].isa;
    }
    c->nisas = w;
}

/* The next token of *p up to a character of `stops` (or the end), copied
 * into buf (cut to n - 1 bytes); returns its length, 0 at the end. */
static size_t token(const char **p, const char *stops, char *buf, size_t n)
{
    size_t len = strcspn(*p, stops);
    size_t k = len < n - 1 ? len : n - 1;
    memcpy(buf, *p, k);
    buf[k] = '\0';
    *p += len;
    return len;
}

/* Gives r the GPU code of a record's code column (recbinaries_code's format):
 * the module sets, the target unions and the PTX ISAs.  The column comes
 * from the database: anything that does not parse is left out. */
void dbview_row_apply_code(struct dbview_row *r, const char *code)
{
    size_t capsass = r->nsass, capptx = r->nptx, capgfx = r->ngfx;
    struct isa_at *isas = NULL;
    size_t nisas = 0, capisas = 0;
    const char *p = code ? code : "";
    char tok[64];
    while (*p && *p != '|') {
        /* one set: "MODULES TARGET..." up to ';' or '|' */
        struct target t[RECORDCHECK_TARGETS_MAX];
        size_t n = 0;
        token(&p, " ;|", tok, sizeof tok);
        long mods = strtol(tok, NULL, 10);
        while (*p == ' ') {
            p++;
            if (token(&p, " ;|", tok, sizeof tok) && n < RECORDCHECK_TARGETS_MAX &&
                target_parse(tok, &t[n]) == 0)
                n++;
        }
        compat_code_add_set(&r->code, t, n, mods > 0 ? (size_t)mods : 1);
        for (size_t j = 0; j < n; j++)
            if (t[j].kind == TARGET_SASS)
                add_target(&r->sass, &r->nsass, &capsass, &t[j]);
            else if (t[j].kind == TARGET_PTX)
                add_target(&r->ptx, &r->nptx, &capptx, &t[j]);
            else if (t[j].kind == TARGET_GFX)
                add_target(&r->gfx, &r->ngfx, &capgfx, &t[j]);
        if (*p == ';')
            p++;
    }
    if (*p == '|')
        p++;
    while (*p) {
        /* "TARGET=ISA", separated by spaces */
        char is[32];
        token(&p, " =", tok, sizeof tok);
        is[0] = '\0';
        if (*p == '=') {
            p++;
            token(&p, " ", is, sizeof is);
        }
        struct target t;
        struct dotver isa;
        if (is[0] && target_parse(tok, &t) == 0 && t.kind == TARGET_PTX &&
            dotver_parse(is, &isa) == 0) {
            isas = xgrow(isas, &capisas, nisas + 1, sizeof *isas);
            isas[nisas].ptx = t;
            isas[nisas].isa = isa;
            isas[nisas].at = nisas;
            nisas++;
        }
        while (*p == ' ')
            p++;
    }
    r->nsass = target_sort_unique(r->sass, r->nsass);
    r->nptx = target_sort_unique(r->ptx, r->nptx);
    r->ngfx = target_sort_unique(r->gfx, r->ngfx);
    set_isas(&r->code, isas, nisas);
    free(isas);
}

/* The project's own binaries (recbinary_is_own) of a wheel's, copied:
 * what a row keeps for its release page. */
void dbvi_own_binaries(const struct recbinaries *all, struct recbinaries *out)
{
    out->v = xmalloc((all->n ? all->n : 1) * sizeof *out->v);
    out->n = 0;
    for (size_t i = 0; i < all->n; i++)
        if (recbinary_is_own(&all->v[i]))
            recbinary_copy(&all->v[i], &out->v[out->n++]);
}

void dbvi_code_from_declared(struct dbview_row *r, const struct tables *t, const struct declared *d)
{
    struct target all[72];
    size_t n = 0;
    for (size_t i = 0; i < d->nsass; i++)
        all[n++] = d->sass[i];
    for (size_t i = 0; i < d->nptx && n < 72; i++)
        all[n++] = d->ptx[i];
    for (size_t i = 0; i < d->ngfx && n < 72; i++)
        all[n++] = d->gfx[i];
    compat_code_add_set(&r->code, all, n, 1);
    r->gfx = xmalloc((d->ngfx ? d->ngfx : 1) * sizeof *r->gfx);
    if (d->ngfx)
        memcpy(r->gfx, d->gfx, d->ngfx * sizeof *r->gfx);
    r->ngfx = d->ngfx;
    r->sass = xmalloc((d->nsass ? d->nsass : 1) * sizeof *r->sass);
    if (d->nsass)
        memcpy(r->sass, d->sass, d->nsass * sizeof *r->sass);
    r->nsass = d->nsass;
    r->ptx = xmalloc((d->nptx ? d->nptx : 1) * sizeof *r->ptx);
    if (d->nptx)
        memcpy(r->ptx, d->ptx, d->nptx * sizeof *r->ptx);
    r->nptx = d->nptx;
    /* Declared PTX carries the ISA of the variant's toolkit. */
    const struct ptx_isa *isa = r->cuda.n ? tables_isa_of_cuda(t, &r->cuda) : NULL;
    for (size_t i = 0; isa && i < d->nptx; i++)
        compat_code_set_isa(&r->code, &d->ptx[i], &isa->isa);
}

/* "project|release|variant|platform" into buf (cut short past n bytes:
 * the parts come from validated rows and tables, far shorter). */
const char *dbvi_decl_key(char *buf, size_t n, const char *project, const char *release,
                          const char *variant, const char *platform)
{
    const char *parts[4] = {project, release, variant, platform};
    size_t o = 0;
    for (int i = 0; i < 4; i++) {
        size_t l = strlen(parts[i]), room = n - o - (size_t)(4 - i); /* separators left */
        if (l > room)
            l = room;
        memcpy(buf + o, parts[i], l);
        o += l;
        buf[o++] = i < 3 ? '|' : '\0';
    }
    return buf;
}

static int contains(const struct target *t, size_t n, const struct target *x)
{
    for (size_t i = 0; i < n; i++)
        if (target_cmp(&t[i], x) == 0)
            return 1;
    return 0;
}

/* For each target of have (sorted and unique), the modules of the row's
 * code that hold it: one pass over the module sets, each sorted and
 * deduplicated, with a binary search per name (a search of every set per
 * target was quadratic).  Caller frees. */
static size_t *modules_with(const struct compat_code *c, const struct target *have, size_t nhave)
{
    size_t *m = xcalloc(nhave + 1, sizeof *m);
    struct target *t = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < c->nsets && nhave; i++) {
        size_t n = c->sets[i].n;
        t = xgrow(t, &cap, n + 1, sizeof *t);
        if (n)
            memcpy(t, c->sets[i].targets, n * sizeof *t);
        n = target_sort_unique(t, n);
        for (size_t k = 0; k < n; k++) {
            const struct target *x = bsearch(&t[k], have, nhave, sizeof *have, target_cmp_void);
            if (x)
                m[x - have] += c->sets[i].modules;
        }
    }
    free(t);
    return m;
}

static void add_difference(struct dbview_row *r, const char *s)
{
    r->differences = xrealloc(r->differences, (r->ndifferences + 1) * sizeof *r->differences);
    r->differences[r->ndifferences++] = xstrdup(s);
}

void dbvi_differences(struct dbview_row *r)
{
    const struct declared *d = r->declared;
    if (!d || r->status == VIEW_DECLARED)
        return;
    struct strbuf b = STRBUF_INIT;
    for (int kind = TARGET_SASS; kind <= TARGET_GFX; kind++) {
        if (kind == TARGET_LTO)
            continue;
        const struct target *have = kind == TARGET_SASS  ? r->sass
                                    : kind == TARGET_PTX ? r->ptx
                                                         : r->gfx;
        size_t nhave = kind == TARGET_SASS ? r->nsass : kind == TARGET_PTX ? r->nptx : r->ngfx;
        const struct target *want = kind == TARGET_SASS  ? d->sass
                                    : kind == TARGET_PTX ? d->ptx
                                                         : d->gfx;
        size_t nwant = kind == TARGET_SASS ? d->nsass : kind == TARGET_PTX ? d->nptx : d->ngfx;
        size_t *mods = modules_with(&r->code, have, nhave);
        for (size_t i = 0; i < nhave; i++)
            if (!contains(want, nwant, &have[i])) {
                char name[TARGET_NAME_MAX];
                target_format(&have[i], name, sizeof name);
                strbuf_reset(&b);
                strbuf_addf(&b, "%s (in %zu of %zu modules) is not in the declared list", name,
                            mods[i], r->code.modules);
                add_difference(r, strbuf_str(&b));
            }
        free(mods);
        for (size_t i = 0; i < nwant; i++)
            if (!contains(have, nhave, &want[i])) {
                char name[TARGET_NAME_MAX];
                target_format(&want[i], name, sizeof name);
                strbuf_reset(&b);
                strbuf_addf(&b, "declared %s%s is not in the binaries", name,
                            kind == TARGET_PTX ? " (+PTX)" : "");
                add_difference(r, strbuf_str(&b));
            }
    }
    strbuf_free(&b);
}
