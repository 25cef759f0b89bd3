/*
 * compat: the rules of docs/compat.md (NVIDIA and AMD).
 */
#include "compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xalloc.h"

void compat_code_add_set(struct compat_code *c, const struct target *t, size_t n, size_t modules)
{
    c->sets = xrealloc(c->sets, (c->nsets + 1) * sizeof *c->sets);
    struct compat_code_set *s = &c->sets[c->nsets++];
    s->targets = xmalloc((n ? n : 1) * sizeof *t);
    if (n)
        memcpy(s->targets, t, n * sizeof *t);
    s->n = n;
    s->modules = modules;
    s->origin = NULL;
    c->modules += modules;
}

void compat_code_add_library(struct compat_code *c, const struct compat_code *lib,
                             const char *origin)
{
    for (size_t i = 0; i < lib->nsets; i++) {
        compat_code_add_set(c, lib->sets[i].targets, lib->sets[i].n, lib->sets[i].modules);
        c->sets[c->nsets - 1].origin = xstrdup(origin);
    }
    for (size_t i = 0; i < lib->nisas; i++)
        compat_code_set_isa(c, &lib->isas[i].ptx, &lib->isas[i].isa);
}

void compat_code_set_isa(struct compat_code *c, const struct target *ptx, const struct dotver *isa)
{
    for (size_t i = 0; i < c->nisas; i++)
        if (target_cmp(&c->isas[i].ptx, ptx) == 0) {
            if (dotver_cmp(isa, &c->isas[i].isa) > 0)
                c->isas[i].isa = *isa;
            return;
        }
    c->isas = xrealloc(c->isas, (c->nisas + 1) * sizeof *c->isas);
    c->isas[c->nisas].ptx = *ptx;
    c->isas[c->nisas].isa = *isa;
    c->nisas++;
}

void compat_code_free(struct compat_code *c)
{
    for (size_t i = 0; i < c->nsets; i++) {
        free(c->sets[i].targets);
        free(c->sets[i].origin);
    }
    free(c->sets);
    free(c->isas);
    memset(c, 0, sizeof *c);
}

static int isa_same(const struct compat_code_isa *a, const struct compat_code_isa *b)
{
    return target_cmp(&a->ptx, &b->ptx) == 0 && dotver_same(&a->isa, &b->isa);
}

int compat_code_same(const struct compat_code *a, const struct compat_code *b)
{
    if (a->nsets != b->nsets || a->modules != b->modules || a->nisas != b->nisas)
        return 0;
    for (size_t i = 0; i < a->nsets; i++) {
        const struct compat_code_set *x = &a->sets[i], *y = &b->sets[i];
        if (x->n != y->n || x->modules != y->modules || !x->origin != !y->origin ||
            (x->origin && strcmp(x->origin, y->origin) != 0))
            return 0;
        for (size_t k = 0; k < x->n; k++)
            if (target_cmp(&x->targets[k], &y->targets[k]) != 0)
                return 0;
    }
    for (size_t i = 0; i < a->nisas; i++)
        if (!isa_same(&a->isas[i], &b->isas[i]))
            return 0;
    return 1;
}

/* FNV-1a over one value at a time: the structs' padding never counts. */
static uint64_t mix(uint64_t h, uint64_t x)
{
    for (int i = 0; i < 8; i++, x >>= 8)
        h = (h ^ (x & 0xff)) * 1099511628211ULL;
    return h;
}

uint64_t compat_code_hash(uint64_t h, const struct compat_code *c)
{
    h = mix(h ^ 14695981039346656037ULL, c->nsets);
    h = mix(h, c->modules);
    for (size_t i = 0; i < c->nsets; i++) {
        const struct compat_code_set *s = &c->sets[i];
        h = mix(mix(h, s->n), s->modules);
        for (size_t k = 0; k < s->n; k++) {
            const struct target *t = &s->targets[k];
            h = mix(h, (uint64_t)t->kind | (uint64_t)(unsigned char)t->suffix << 8 |
                           (uint64_t)t->arch << 16 | (uint64_t)t->sramecc << 32 |
                           (uint64_t)t->xnack << 40);
        }
        for (const char *o = s->origin; o && *o; o++)
            h = mix(h, (unsigned char)*o);
    }
    for (size_t i = 0; i < c->nisas; i++) {
        h = dotver_hash(mix(h, c->isas[i].ptx.arch), &c->isas[i].isa);
    }
    return h;
}

const char *compat_verdict_name(int v)
{
    static const char *const n[] = {"native", "ptx-jit", "partial", "driver-too-old",
                                    "unsupported"};
    return v >= 0 && v < COMPAT_VERDICTS ? n[v] : "unknown";
}

const char *compat_verdict_label(int v)
{
    static const char *const n[] = {"native", "PTX JIT", "partial", "driver too old", "no"};
    return v >= 0 && v < COMPAT_VERDICTS ? n[v] : "unknown";
}

void compat_cc_string(uint16_t cc, char *buf, size_t n)
{
    if (cc >= TABLES_AMD_MIN) {
        snprintf(buf, n, "gfx%x", (unsigned)cc);
    } else if (n >= 6 && cc < 1000) { /* "12.1", the common case, without printf */
        char *p = buf;
        if (cc / 10 >= 10)
            *p++ = (char)('0' + cc / 100 % 10);
        *p++ = (char)('0' + cc / 10 % 10);
        *p++ = '.';
        *p++ = (char)('0' + cc % 10);
        *p = '\0';
    } else {
        snprintf(buf, n, "%u.%u", cc / 10, cc % 10);
    }
}

/* ---- AMD ------------------------------------------------------------------ */

static int feature_fits(uint8_t code, uint8_t device)
{
    /* Code built for either mode runs in both; code built for one mode
     * runs only on a device in that mode. */
    return code == TARGET_FEAT_ANY || code == device;
}

int compat_gfx_runs(const struct tables *t, const struct target *code, const struct target *device)
{
    if (code->kind != TARGET_GFX)
        return 0;
    if (code->suffix == 'g') {
        const struct amd_processor *p = tables_amd_processor(t, device->arch, 0);
        if (!p || p->covered_by != code->arch)
            return 0;
    } else if (code->arch != device->arch) {
        return 0;
    }
    return feature_fits(code->xnack, device->xnack) && feature_fits(code->sramecc, device->sramecc);
}

/* HSA_OVERRIDE_GFX_VERSION lets consumer RDNA parts load the code of a
 * sibling processor: a common, unsupported workaround worth naming. */
static uint16_t override_sibling(uint16_t arch)
{
    if (arch >= 0x1031 && arch <= 0x1036)
        return 0x1030;
    if (arch >= 0x1101 && arch <= 0x1103)
        return 0x1100;
    return 0;
}

static void judge_amd(const struct tables *t, const struct compat_query *q,
                      const struct compat_code *code, struct compat_result *r)
{
    struct target dev;
    tables_amd_device(t, q->cc, &dev);
    if (q->xnack != TARGET_FEAT_ANY && dev.xnack != TARGET_FEAT_ANY)
        dev.xnack = (uint8_t)q->xnack; /* a processor that can switch it, switched */
    char devs[TARGET_NAME_MAX];
    target_format(&dev, devs, sizeof devs);
    r->modules = code->modules;
    if (code->modules == 0 || code->nsets == 0) {
        r->verdict = COMPAT_UNSUPPORTED;
        wa_strlcpy(r->reason, "no GPU code", sizeof r->reason);
        return;
    }
    struct target best = {0};
    int have = 0, sibling = 0;
    uint16_t sib = override_sibling(dev.arch);
    for (size_t i = 0; i < code->nsets; i++) {
        const struct compat_code_set *s = &code->sets[i];
        int runs = 0;
        for (size_t k = 0; k < s->n; k++) {
            if (compat_gfx_runs(t, &s->targets[k], &dev)) {
                runs = 1;
                if (!have || target_cmp(&s->targets[k], &best) > 0)
                    best = s->targets[k];
                have = 1;
            }
            if (sib && s->targets[k].kind == TARGET_GFX && s->targets[k].arch == sib &&
                !s->targets[k].suffix)
                sibling = 1;
        }
        if (runs)
            r->native_modules += s->modules;
        else
            r->none_modules += s->modules;
    }
    struct strbuf b = STRBUF_INIT;
    char via[TARGET_NAME_MAX] = "";
    if (have) {
        r->via = best;
        r->has_via = 1;
        target_format(&best, via, sizeof via);
    }
    if (r->none_modules == 0) {
        r->verdict = COMPAT_NATIVE;
        if (best.suffix == 'g')
            strbuf_addf(&b,
                        "%s covers %s (a generic target: needs a ROCm runtime that loads code "
                        "object v6)",
                        via, devs);
        else
            strbuf_addf(&b, "%s runs on %s", via, devs);
    } else if (r->native_modules > 0) {
        r->verdict = COMPAT_PARTIAL;
        strbuf_addf(&b, "%zu of %zu modules have no code for %s", r->none_modules, r->modules,
                    devs);
    } else {
        r->verdict = COMPAT_UNSUPPORTED;
        strbuf_addf(&b, "no code for %s:", devs);
        size_t shown = 0;
        const struct compat_code_set *s = &code->sets[0];
        for (size_t k = 0; k < s->n && shown < 24; k++)
            if (s->targets[k].kind == TARGET_GFX) {
                char name[TARGET_NAME_MAX];
                target_format(&s->targets[k], name, sizeof name);
                strbuf_addf(&b, " %s", name);
                shown++;
            }
        if (!shown)
            strbuf_adds(&b, " none");
        if (sibling) {
            char sibs[16];
            snprintf(sibs, sizeof sibs, "gfx%x", (unsigned)sib);
            strbuf_addf(&b,
                        " (unofficially, HSA_OVERRIDE_GFX_VERSION=%u.%u.0 makes the runtime load "
                        "its %s code)",
                        (unsigned)((sib >> 12) * 10 + ((sib >> 8) & 0xf)),
                        (unsigned)((sib >> 4) & 0xf), sibs);
        }
    }
    wa_strlcpy(r->reason, strbuf_str(&b), sizeof r->reason);
    strbuf_free(&b);
}

static int in_family(const struct tables *t, uint16_t target, uint16_t cc)
{
    uint16_t m[16];
    size_t n = tables_family(t, target, m, 16);
    for (size_t i = 0; i < n; i++)
        if (m[i] == cc)
            return 1;
    return 0;
}

int compat_sass_runs(const struct tables *t, const struct target *code, uint16_t cc)
{
    if (code->suffix == 'a')
        return cc == code->arch; /* R4 */
    if (code->suffix == 'f')
        return in_family(t, code->arch, cc); /* R5 */
    if (tables_is_tegra(code->arch) || tables_is_tegra(cc))
        return cc == code->arch;                                     /* R2 */
    return cc / 10 == code->arch / 10 && cc % 10 >= code->arch % 10; /* R1 */
}

int compat_ptx_jits(const struct tables *t, const struct target *code, uint16_t cc)
{
    if (code->suffix == 'a')
        return cc == code->arch;
    if (code->suffix == 'f')
        return in_family(t, code->arch, cc);
    return cc >= code->arch; /* R3 */
}

static const struct dotver *isa_of(const struct compat_code *c, const struct target *ptx)
{
    for (size_t i = 0; i < c->nisas; i++)
        if (target_cmp(&c->isas[i].ptx, ptx) == 0)
            return &c->isas[i].isa;
    return NULL;
}

static void fmt_target(const struct target *t, char *buf, size_t n)
{
    target_format(t, buf, n);
}

static void list_targets(struct strbuf *b, const struct target *t, size_t n, int kind)
{
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        if (t[i].kind != kind)
            continue;
        char name[TARGET_NAME_MAX];
        fmt_target(&t[i], name, sizeof name);
        strbuf_addf(b, "%s%s", first ? "" : " ", name);
        first = 0;
    }
    if (first)
        strbuf_adds(b, "none");
}

/* Why a set of targets has nothing for cc. */
static void why_not(const struct tables *t, const struct compat_code_set *s, uint16_t cc,
                    struct strbuf *b)
{
    char ccs[16];
    compat_cc_string(cc, ccs, sizeof ccs);
    int same_major = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->targets[i].kind == TARGET_SASS && s->targets[i].arch / 10 == cc / 10)
            same_major = 1;
    strbuf_adds(b, "SASS ");
    list_targets(b, s->targets, s->n, TARGET_SASS);
    if (tables_is_tegra(cc))
        strbuf_addf(b, " (a Tegra GPU runs only SASS built for exactly %s)", ccs);
    else if (same_major)
        strbuf_addf(b, " (none for a minor <= %u, or only a/f code for other GPUs)", cc % 10);
    else
        strbuf_addf(b, " (none for %u.x)", cc / 10);
    strbuf_adds(b, "; PTX ");
    list_targets(b, s->targets, s->n, TARGET_PTX);
    int has_ptx = 0;
    for (size_t i = 0; i < s->n; i++)
        has_ptx |= s->targets[i].kind == TARGET_PTX;
    if (has_ptx)
        strbuf_addf(b, " (needs a GPU of at least its compute capability)");
    (void)t;
}

/* Whether any target of a module set runs on cc (SASS, or PTX it JITs). */
static int set_runs(const struct tables *t, const struct compat_code_set *s, uint16_t cc)
{
    for (size_t k = 0; k < s->n; k++) {
        const struct target *x = &s->targets[k];
        if ((x->kind == TARGET_SASS && compat_sass_runs(t, x, cc)) ||
            (x->kind == TARGET_PTX && compat_ptx_jits(t, x, cc)))
            return 1;
    }
    return 0;
}

/* Why a partial wheel is partial: the libraries it requires that have no
 * code for the GPU first ("cuDNN 9.10.2.21 has no code for 7.0"), else how
 * many of its own modules have none. */
static void partial_reason(const struct tables *t, const struct compat_query *q,
                           const struct compat_code *code, const struct compat_result *r,
                           const char *via, const char *ccs, struct strbuf *b)
{
    size_t own_none = 0, named = 0;
    for (size_t i = 0; i < code->nsets; i++) {
        const struct compat_code_set *s = &code->sets[i];
        if (set_runs(t, s, q->cc))
            continue;
        if (!s->origin) {
            own_none += s->modules;
            continue;
        }
        int dup = 0;
        for (size_t j = 0; j < i; j++)
            dup |= code->sets[j].origin && !strcmp(code->sets[j].origin, s->origin) &&
                   !set_runs(t, &code->sets[j], q->cc);
        if (dup)
            continue;
        strbuf_addf(b, "%s%s", named ? ", " : "", s->origin);
        named++;
    }
    if (named) {
        strbuf_addf(b, " %s no code for %s", named == 1 ? "has" : "have", ccs);
        if (own_none)
            strbuf_addf(b, ", nor do %zu of the wheel's own modules", own_none);
        if (r->has_via)
            strbuf_addf(b, "; %s covers the rest", via);
        return;
    }
    strbuf_addf(b, "%zu of %zu modules have no code for %s", r->none_modules, r->modules, ccs);
    for (size_t i = 0; i < code->nsets; i++) {
        const struct compat_code_set *s = &code->sets[i];
        if (!set_runs(t, s, q->cc)) {
            strbuf_addf(b, " (%zu module%s with ", s->modules, s->modules == 1 ? "" : "s");
            list_targets(b, s->targets, s->n, TARGET_SASS);
            strbuf_addc(b, ')');
            break;
        }
    }
    if (r->has_via)
        strbuf_addf(b, "; %s covers the others", via);
}

/* The driver q gives against code that would run: it must know the GPU
 * (the driver of the first toolkit that did), reach the floor of the
 * wheel's CUDA, and know needed_isa (the PTX ISA the PTX-only modules
 * need; NULL: none).  Sets r->driver_blocks, r->driver_reason and
 * r->needed_driver (the lowest driver that would do, "" if unknown). */
static void judge_driver_of(const struct tables *t, const struct compat_query *q,
                            const struct toolkit *gpu_first, const struct dotver *floor,
                            const struct dotver *cuda, const struct dotver *needed_isa,
                            const char *ccs, struct compat_result *r)
{
    if (gpu_first && gpu_first->min_driver[q->os].n &&
        dotver_cmp(&q->driver, &gpu_first->min_driver[q->os]) < 0) {
        r->driver_blocks = 1;
        snprintf(r->driver_reason, sizeof r->driver_reason,
                 "this driver predates compute capability %s (first supported by CUDA %ld.%ld, "
                 "driver %s or newer)",
                 ccs, gpu_first->cuda.f[0], gpu_first->cuda.f[1],
                 gpu_first->min_driver_text[q->os]);
    } else if (floor && floor->n && dotver_cmp(&q->driver, floor) < 0) {
        r->driver_blocks = 1;
        snprintf(r->driver_reason, sizeof r->driver_reason,
                 "built with CUDA %ld.%ld, which needs driver %s or newer", cuda->f[0], cuda->f[1],
                 r->min_driver);
    } else if (needed_isa) {
        const struct toolkit *driver_cuda = tables_driver_cuda(t, &q->driver, q->os);
        const struct ptx_isa *driver_isa =
            driver_cuda ? tables_isa_of_cuda(t, &driver_cuda->cuda) : NULL;
        if (driver_isa && dotver_cmp(needed_isa, &driver_isa->isa) > 0) {
            const struct ptx_isa *p = tables_cuda_of_isa(t, needed_isa);
            const struct toolkit *k = p ? tables_toolkit(t, &p->cuda) : NULL;
            r->driver_blocks = 1;
            int n = snprintf(r->driver_reason, sizeof r->driver_reason,
                             "only PTX of ISA %ld.%ld covers %s, and this driver (CUDA %ld.%ld) "
                             "cannot compile it",
                             needed_isa->f[0], needed_isa->n > 1 ? needed_isa->f[1] : 0, ccs,
                             driver_cuda->cuda.f[0], driver_cuda->cuda.f[1]);
            if (k && k->min_driver_text[q->os] && n > 0 && (size_t)n < sizeof r->driver_reason)
                snprintf(r->driver_reason + n, sizeof r->driver_reason - (size_t)n,
                         "; needs driver %s or newer", k->min_driver_text[q->os]);
            if (k && k->min_driver_text[q->os])
                wa_strlcpy(r->needed_driver, k->min_driver_text[q->os], sizeof r->needed_driver);
        }
    }
    if (r->driver_blocks && !r->needed_driver[0])
        wa_strlcpy(r->needed_driver, r->min_driver, sizeof r->needed_driver);
}

void compat_judge(const struct tables *t, const struct compat_query *q,
                  const struct compat_code *code, const struct dotver *cuda,
                  struct compat_result *r)
{
    memset(r, 0, sizeof *r);
    if (q->cc >= TABLES_AMD_MIN) {
        judge_amd(t, q, code, r); /* no driver in the verdict: the code is all */
        r->code = r->verdict;
        wa_strlcpy(r->code_reason, r->reason, sizeof r->code_reason);
        return;
    }
    /* With the libraries it requires: the wheel's own code decides first
     * (a library's kernels do not make a wheel run that has none). */
    size_t nown = 0;
    while (nown < code->nsets && !code->sets[nown].origin)
        nown++;
    if (nown < code->nsets) {
        struct compat_code mine = *code;
        mine.nsets = nown;
        mine.modules = 0;
        for (size_t i = 0; i < nown; i++)
            mine.modules += code->sets[i].modules;
        compat_judge(t, q, &mine, cuda, r);
        if (r->code == COMPAT_UNSUPPORTED || nown == 0)
            return;
        memset(r, 0, sizeof *r);
    }
    char ccs[16];
    compat_cc_string(q->cc, ccs, sizeof ccs);
    /* The driver floor, one rule over both tables: the lower of the
     * major's minor-version-compatibility floor (Table 2; CUDA 11 on) and
     * the toolkit's own driver (Table 3).  Before 11 there is no
     * compatibility floor; a CUDA 11.0 build loads on 11.0's own driver
     * (450.51.06) although 11.x's compatibility floor is 450.80.02, and a
     * 12.8 build on any 12.x driver from 525.60.13. */
    const struct minor_compat *mc =
        cuda && cuda->n ? tables_minor_compat(t, (int)cuda->f[0]) : NULL;
    const struct toolkit *own = cuda && cuda->n ? tables_toolkit(t, cuda) : NULL;
    const struct dotver *floor = NULL;
    if (mc && mc->min_driver_text[q->os]) {
        wa_strlcpy(r->min_driver, mc->min_driver_text[q->os], sizeof r->min_driver);
        floor = &mc->min_driver[q->os];
    }
    if (own && own->min_driver_text[q->os] && own->min_driver[q->os].n &&
        (!floor || dotver_cmp(&own->min_driver[q->os], floor) < 0)) {
        wa_strlcpy(r->min_driver, own->min_driver_text[q->os], sizeof r->min_driver);
        floor = &own->min_driver[q->os];
    }
    /* ... and the GPU's own: the driver of the first toolkit that knew it. */
    const struct toolkit *gpu_first = tables_first_toolkit(t, q->cc);
    if (cuda && cuda->n && gpu_first && gpu_first->min_driver[q->os].n &&
        gpu_first->min_driver_text[q->os] &&
        (!floor || dotver_cmp(&gpu_first->min_driver[q->os], floor) > 0))
        wa_strlcpy(r->min_driver, gpu_first->min_driver_text[q->os], sizeof r->min_driver);
    if (mc) {
        const struct toolkit *k = tables_toolkit(t, cuda);
        struct dotver md;
        if (k && k->min_driver_text[q->os] && k->min_driver[q->os].n && r->min_driver[0] &&
            dotver_parse(r->min_driver, &md) == 0 && dotver_cmp(&k->min_driver[q->os], &md) > 0)
            wa_strlcpy(r->full_driver, k->min_driver_text[q->os], sizeof r->full_driver);
    }
    r->modules = code->modules;
    if (code->modules == 0 || code->nsets == 0) {
        r->verdict = r->code = COMPAT_UNSUPPORTED;
        wa_strlcpy(r->reason, "no GPU code", sizeof r->reason);
        return;
    }
    /* The code first, as if the driver were new enough: which modules have
     * SASS for the GPU, which only PTX it can compile, which nothing; and
     * the PTX ISA the PTX-only modules need (each its lowest: the wheel
     * needs the highest of those). */
    struct target best_sass = {0}, best_ptx = {0};
    int have_sass = 0, have_ptx = 0;
    const struct dotver *needed_isa = NULL;
    for (size_t i = 0; i < code->nsets; i++) {
        const struct compat_code_set *s = &code->sets[i];
        int native = 0, ptx = 0;
        const struct dotver *set_isa = NULL; /* the lowest ISA of its PTX that JITs */
        int isa_unknown = 0;
        for (size_t k = 0; k < s->n; k++) {
            const struct target *x = &s->targets[k];
            if (x->kind == TARGET_SASS && compat_sass_runs(t, x, q->cc)) {
                native = 1;
                if (!have_sass || target_cmp(x, &best_sass) > 0)
                    best_sass = *x;
                have_sass = 1;
            } else if (x->kind == TARGET_PTX && compat_ptx_jits(t, x, q->cc)) {
                const struct dotver *isa = isa_of(code, x);
                if (!isa)
                    isa_unknown = 1;
                else if (!set_isa || dotver_cmp(isa, set_isa) < 0)
                    set_isa = isa;
                ptx = 1;
                if (!have_ptx || target_cmp(x, &best_ptx) > 0)
                    best_ptx = *x;
                have_ptx = 1;
            }
        }
        if (native) {
            r->native_modules += s->modules;
        } else if (ptx) {
            r->ptx_modules += s->modules;
            if (set_isa && !isa_unknown && (!needed_isa || dotver_cmp(set_isa, needed_isa) > 0))
                needed_isa = set_isa;
        } else {
            r->none_modules += s->modules;
        }
    }
    if (have_sass) {
        r->via = best_sass;
        r->has_via = 1;
    } else if (have_ptx) {
        r->via = best_ptx;
        r->has_via = 1;
    }
    char via[TARGET_NAME_MAX] = "";
    if (r->has_via)
        fmt_target(&r->via, via, sizeof via);
    r->code = r->native_modules + r->ptx_modules == 0 ? COMPAT_UNSUPPORTED
              : r->none_modules                       ? COMPAT_PARTIAL
              : r->ptx_modules                        ? COMPAT_PTX_JIT
                                                      : COMPAT_NATIVE;
    struct strbuf b = STRBUF_INIT;
    if (r->code == COMPAT_UNSUPPORTED) {
        /* No driver makes this run: the driver is not judged at all. */
        r->verdict = COMPAT_UNSUPPORTED;
        strbuf_addf(&b, "no code for %s: ", ccs);
        why_not(t, &code->sets[0], q->cc, &b);
        wa_strlcpy(r->reason, strbuf_str(&b), sizeof r->reason);
        strbuf_free(&b);
        return;
    }
    /* NVIDIA's drivers for the GPU may end at a branch (R470 for Kepler,
     * R580 for Maxwell to Volta): code needing a later one never runs on
     * it, and no later driver is ever asked of it. */
    const struct arch_support *end = tables_driver_branch_end(t, q->cc);
    if (end) {
        snprintf(r->branch_limit, sizeof r->branch_limit, "R%ld", end->last_branch);
        struct dotver need = {0}, d;
        if (r->min_driver[0] && dotver_parse(r->min_driver, &d) == 0)
            need = d;
        const char *need_text = r->min_driver;
        if (r->ptx_modules && needed_isa) {
            const struct ptx_isa *p = tables_cuda_of_isa(t, needed_isa);
            const struct toolkit *k = p ? tables_toolkit(t, &p->cuda) : NULL;
            if (k && k->min_driver_text[q->os] && k->min_driver[q->os].n &&
                dotver_cmp(&k->min_driver[q->os], &need) > 0) {
                need = k->min_driver[q->os];
                need_text = k->min_driver_text[q->os];
            }
        }
        if (tables_driver_beyond(end, &need)) {
            r->beyond_branch = 1;
            r->verdict = r->code = COMPAT_UNSUPPORTED;
            strbuf_addf(&b,
                        "%s%s would run on %s, but this build needs driver %s or newer, and "
                        "NVIDIA's drivers for compute capability %s end at %s (CUDA %ld.%ld)",
                        r->ptx_modules && !r->native_modules ? "PTX " : "", via, ccs, need_text,
                        ccs, r->branch_limit, end->last_branch_cuda.f[0],
                        end->last_branch_cuda.f[1]);
            wa_strlcpy(r->reason, strbuf_str(&b), sizeof r->reason);
            wa_strlcpy(r->code_reason, r->reason, sizeof r->code_reason);
            strbuf_free(&b);
            r->full_driver[0] = '\0';
            return;
        }
        struct dotver full;
        if (r->full_driver[0] && dotver_parse(r->full_driver, &full) == 0 &&
            tables_driver_beyond(end, &full))
            r->full_driver[0] = '\0';
    }
    /* Then the driver, only for code that would run: it must know the GPU,
     * reach the wheel's CUDA floor, and (for PTX-only modules) know the
     * PTX ISA. */
    if (q->has_driver)
        judge_driver_of(t, q, gpu_first, floor, cuda, r->ptx_modules ? needed_isa : NULL, ccs, r);
    if (r->code == COMPAT_NATIVE) {
        strbuf_addf(&b, "%s runs on %s", via, ccs);
        if (r->via.arch != q->cc)
            strbuf_addf(&b, " (same major, lower minor)");
    } else if (r->code == COMPAT_PTX_JIT) {
        if (r->native_modules)
            strbuf_addf(&b,
                        "%zu of %zu modules have no SASS for %s and compile their PTX at "
                        "first start",
                        r->ptx_modules, r->modules, ccs);
        else
            strbuf_addf(&b, "only PTX %s covers %s: compiled by the driver at first start", via,
                        ccs);
        const struct dotver *isa = have_ptx ? isa_of(code, &best_ptx) : NULL;
        if (isa) {
            const struct ptx_isa *p = tables_cuda_of_isa(t, isa);
            const struct toolkit *k = p ? tables_toolkit(t, &p->cuda) : NULL;
            strbuf_addf(&b, " (PTX ISA %ld.%ld", isa->f[0], isa->n > 1 ? isa->f[1] : 0);
            if (k && k->min_driver_text[q->os])
                strbuf_addf(&b, " needs driver %s or newer", k->min_driver_text[q->os]);
            strbuf_addc(&b, ')');
        }
    } else {
        partial_reason(t, q, code, r, via, ccs, &b);
    }
    wa_strlcpy(r->code_reason, strbuf_str(&b), sizeof r->code_reason);
    strbuf_free(&b);
    /* The headline: the first that blocks, code before driver ("driver
     * too old" only where the code would run). */
    r->verdict = r->code == COMPAT_PARTIAL ? COMPAT_PARTIAL
                 : r->driver_blocks        ? COMPAT_DRIVER_TOO_OLD
                                           : r->code;
    wa_strlcpy(r->reason, r->verdict == COMPAT_DRIVER_TOO_OLD ? r->driver_reason : r->code_reason,
               sizeof r->reason);
}
