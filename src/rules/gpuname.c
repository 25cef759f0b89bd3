/*
 * gpuname: the GPU resolver (see gpuname.h for the rules).
 */
#include "gpuname.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "target.h"

#define TOK_LEN 24
#define MAX_TOKS 24

enum tok_class { TOK_SIG = 0, TOK_SERIES, TOK_FORM };

struct toks {
    char s[MAX_TOKS][TOK_LEN]; /* significant, in order, repeats kept */
    size_t ns;
    char r[MAX_TOKS][TOK_LEN]; /* series words */
    size_t nr;
    char f[MAX_TOKS][TOK_LEN]; /* form words */
    size_t nf;
    size_t ignored; /* brand and noise tokens seen */
    int vendor;     /* 0 unknown, 1 NVIDIA ("nvidia", "geforce"), 2 AMD */
    size_t last;    /* index in s of the last significant token typed */
    int foreign;    /* an Intel, Apple, Qualcomm or Arm GPU */
    /* s[i] was written against s[i - 1] with nothing between ("h100",
     * "1080ti"): a name must have the two side by side, in that order */
    unsigned char glued[MAX_TOKS];
};

static int in_list(const char *const *list, const char *t)
{
    for (; *list; list++)
        if (strcmp(*list, t) == 0)
            return 1;
    return 0;
}

static const char *const brand_words[] = {"nvidia", "geforce", "amd", "instinct", "ati", NULL};
/* "radeon" and "ryzen" are series words: "AMD Radeon Pro 465" is no Ryzen */
static const char *const series_words[] = {"gtx",    "gt", "rtx",    "tesla", "quadro",
                                           "jetson", "rx", "radeon", "ryzen", NULL};
/* ... and the words of nvidia-smi's CSV header ("compute_cap"), which a
 * one-line input glues to the name when the output is pasted whole */
static const char *const noise_words[] = {"pcie",   "nvl",     "oam",  "nvgpu",  "graphics",
                                          "gpu",    "tm",      "with", "design", "hgx",
                                          "device", "compute", "cap",  NULL};
/* GPUs of vendors whose PyTorch builds are not CUDA or ROCm wheels */
static const char *const foreign_words[] = {"intel",    "arc",    "iris", "apple",
                                            "qualcomm", "adreno", "mali", NULL};
static const char *const form_words[] = {"laptop", "mobile", "notebook", "maxq", NULL};

static int all_digits(const char *t)
{
    if (!*t)
        return 0;
    for (; *t; t++)
        if (!isdigit((unsigned char)*t))
            return 0;
    return 1;
}

static int ieq_prefix(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (tolower((unsigned char)*s) != *prefix)
            return 0;
    return 1;
}

/* A copy of s without what tools wrap around a name: "GPU 0: " and
 * "(UUID: ...)" (nvidia-smi -L), "Device 0: " (deviceQuery), "Marketing
 * Name:", "Name:", "Product Name:", "Card series:" (rocminfo, rocm-smi,
 * nvidia-smi -q), "(TM)" and "(R)". */
static char *unwrap(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    static const char *const labels[] = {
        "marketing name", "product name", "card series", "card model", "card sku",
        "name",           "gpu",          "device",      NULL};
    const char *colon = strchr(s, ':');
    if (colon) {
        for (const char *const *l = labels; *l; l++) {
            size_t n = strlen(*l);
            if (!ieq_prefix(s, *l))
                continue;
            const char *p = s + n;
            while (*p == ' ' || isdigit((unsigned char)*p) || *p == '#')
                p++;
            if (p == colon) {
                s = colon + 1;
                break;
            }
        }
    }
    size_t n = strlen(s);
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        if (ieq_prefix(s + i, "(uuid")) {
            const char *close = strchr(s + i, ')');
            i = close ? (size_t)(close - s) + 1 : n;
            continue;
        }
        if (ieq_prefix(s + i, "(tm)")) {
            i += 4;
            continue;
        }
        if (ieq_prefix(s + i, "(r)")) {
            i += 3;
            continue;
        }
        out[k++] = s[i++];
    }
    out[k] = '\0';
    return out;
}

static void add_unique(char list[][TOK_LEN], size_t *n, const char *t)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(list[i], t) == 0)
            return;
    if (*n < MAX_TOKS)
        snprintf(list[(*n)++], TOK_LEN, "%s", t); /* t may be a short literal ("maxq") */
}

/* Splits a name into classified tokens. */
static void tokenize(const char *name, struct toks *k)
{
    memset(k, 0, sizeof *k);
    char *s = unwrap(name);
    if (!s)
        return;
    char raw[MAX_TOKS * 2][TOK_LEN];
    unsigned char touch[MAX_TOKS * 2]; /* raw[i] starts where raw[i - 1] ends */
    size_t nraw = 0;
    const char *p = s;
    while (*p && nraw < MAX_TOKS * 2) {
        const char *gap = p;
        while (*p && !isalnum((unsigned char)*p))
            p++;
        if (!*p)
            break;
        touch[nraw] = nraw > 0 && p == gap;
        int digit = isdigit((unsigned char)*p) != 0;
        size_t len = 0;
        while (*p && isalnum((unsigned char)*p) && (isdigit((unsigned char)*p) != 0) == digit) {
            if (len + 1 < TOK_LEN)
                raw[nraw][len++] = (char)tolower((unsigned char)*p);
            p++;
        }
        raw[nraw][len] = '\0';
        nraw++;
    }
    free(s);
    size_t kept_at = (size_t)-1; /* the raw index of the last token kept in s */
    for (size_t i = 0; i < nraw; i++) {
        const char *t = raw[i];
        const char *next = i + 1 < nraw ? raw[i + 1] : "";
        if (in_list(brand_words, t)) {
            k->ignored++;
            k->vendor = strcmp(t, "nvidia") == 0 || strcmp(t, "geforce") == 0 ? 1 : 2;
        } else if (in_list(foreign_words, t)) {
            k->ignored++;
            k->foreign = 1;
        } else if (in_list(noise_words, t)) {
            k->ignored++;
        } else if (all_digits(t) && (strcmp(next, "gb") == 0 || strcmp(next, "gib") == 0)) {
            k->ignored += 2; /* a memory size: "80GB" */
            i++;
        } else if (strcmp(t, "sxm") == 0 || strcmp(t, "hbm") == 0) {
            k->ignored++; /* a form factor or memory kind: "SXM4", "HBM3e" */
            /* "SXM4", but not the memory size after "SXM-": "A100-SXM-64GB" */
            const char *after = i + 2 < nraw ? raw[i + 2] : "";
            if (all_digits(next) && strcmp(after, "gb") != 0 && strcmp(after, "gib") != 0) {
                i++;
                if (i + 1 < nraw && strcmp(raw[i + 1], "e") == 0)
                    i++;
            }
        } else if (strcmp(t, "max") == 0 && strcmp(next, "q") == 0) {
            add_unique(k->f, &k->nf, "maxq");
            i++;
        } else if (in_list(form_words, t)) {
            add_unique(k->f, &k->nf, t);
        } else if (in_list(series_words, t)) {
            add_unique(k->r, &k->nr, t);
            if (strcmp(t, "radeon") == 0 || strcmp(t, "ryzen") == 0 || strcmp(t, "rx") == 0)
                k->vendor = 2;
        } else if (k->ns < MAX_TOKS) {
            /* kept with repeats: the Quadro M2000M is not the M2000 */
            memcpy(k->s[k->ns], t, TOK_LEN);
            k->glued[k->ns] = k->ns > 0 && touch[i] && kept_at + 1 == i;
            kept_at = i;
            k->last = k->ns++;
        }
    }
}

/* Damerau distance <= 1 between two tokens. */
static int one_edit(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > lb + 1 || lb > la + 1)
        return 0;
    size_t i = 0;
    while (i < la && i < lb && a[i] == b[i])
        i++;
    if (la == lb) {
        if (i == la)
            return 1;
        if (strcmp(a + i + 1, b + i + 1) == 0)
            return 1; /* substitution */
        return i + 1 < la && a[i] == b[i + 1] && a[i + 1] == b[i] &&
               strcmp(a + i + 2, b + i + 2) == 0; /* transposition */
    }
    return la > lb ? strcmp(a + i + 1, b + i) == 0 : strcmp(a + i, b + i + 1) == 0;
}

enum { M_NONE = -1, M_FUZZY = 0, M_PREFIX = 1, M_EQUAL = 2 };

static int token_match(const char *q, const char *n)
{
    if (strcmp(q, n) == 0)
        return M_EQUAL;
    int qd = all_digits(q), nd = all_digits(n);
    if (qd != nd)
        return M_NONE;
    if (strncmp(n, q, strlen(q)) == 0)
        return M_PREFIX;
    if (strlen(q) >= 3 && strlen(n) >= 3 && one_edit(q, n))
        return M_FUZZY;
    return M_NONE;
}

static int has(char list[][TOK_LEN], size_t n, const char *t)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], t) == 0)
            return 1;
    return 0;
}

static size_t count(char list[][TOK_LEN], size_t n, const char *t)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += strcmp(list[i], t) == 0;
    return k;
}

/* The same tokens, repeats counted. */
static int same_set(char a[][TOK_LEN], size_t na, char b[][TOK_LEN], size_t nb)
{
    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (count(a, na, a[i]) != count(b, nb, a[i]))
            return 0;
    return 1;
}

/* The tier of name tokens n for query tokens q, or -1; *matched counts
 * query tokens with any match (for suggestions). */
static int tier_of(struct toks *q, struct toks *n, size_t *matched)
{
    int worst = M_EQUAL;
    *matched = 0;
    for (size_t i = 0; i < q->ns; i++) {
        int best = M_NONE;
        for (size_t j = 0; j < n->ns && best < M_EQUAL; j++) {
            int m = token_match(q->s[i], n->s[j]);
            /* only the last token may be unfinished ("rtx 40"): "t4" is
             * not "4060 Ti" */
            if (m == M_PREFIX && i + 1 < q->ns && q->last != i)
                m = M_NONE;
            if (m > best)
                best = m;
        }
        if (best == M_NONE)
            worst = M_NONE;
        else
            (*matched)++;
        if (best < worst)
            worst = best;
    }
    if (worst == M_NONE)
        return -1;
    /* words typed as one ("h100") are side by side in the name, in that
     * order: "H100" is not the "V100-SXM3-32GB-H" */
    for (size_t i = 1; i < q->ns && worst > M_FUZZY; i++) {
        if (!q->glued[i])
            continue;
        int found = 0;
        for (size_t j = 1; j < n->ns && !found; j++) {
            int m = token_match(q->s[i], n->s[j]);
            found = token_match(q->s[i - 1], n->s[j - 1]) == M_EQUAL &&
                    (m == M_EQUAL || (m == M_PREFIX && q->last == i && i + 1 == q->ns));
        }
        if (!found)
            worst = M_FUZZY;
    }
    for (size_t i = 0; i < q->nr; i++)
        if (!has(n->r, n->nr, q->r[i]))
            worst = M_FUZZY; /* "gtx 1030": the GT 1030 is not a GTX, but meant */
    if (worst == M_FUZZY)
        return GPUNAME_FUZZY;
    /* series words typed and the name has another: "Quadro 6000" is the
     * Quadro 6000 (Fermi), and only a longer name of the Quadro RTX 6000 */
    int more_series = 0;
    for (size_t i = 0; q->nr && i < n->nr; i++)
        more_series |= !has(q->r, q->nr, n->r[i]);
    if (worst == M_PREFIX || more_series || !same_set(q->s, q->ns, n->s, n->ns))
        return GPUNAME_PREFIX;
    return same_set(q->f, q->nf, n->f, n->nf) ? GPUNAME_EXACT : GPUNAME_FORM;
}

/* Whether the name begins with the query's words, in order: "MI300" is the
 * start of "MI300X", but "610M" is not the start of "K610M". */
static int starts_with(const struct toks *q, const struct toks *n)
{
    if (n->ns < q->ns)
        return 0;
    for (size_t i = 0; i < q->ns; i++)
        if (strcmp(q->s[i], n->s[i]) != 0)
            return 0;
    return 1;
}

static size_t count_equal(struct toks *q, struct toks *n)
{
    size_t k = 0;
    for (size_t i = 0; i < q->ns; i++)
        k += has(n->s, n->ns, q->s[i]);
    return k;
}

int gpuname_parse_code(const char *s, int bare, uint16_t *cc)
{
    char buf[64];
    char *u = unwrap(s);
    if (!u)
        return -1;
    const char *p = u;
    while (isspace((unsigned char)*p))
        p++;
    size_t n = 0;
    while (p[n] && n + 1 < sizeof buf) {
        buf[n] = (char)tolower((unsigned char)p[n]);
        n++;
    }
    buf[n] = '\0';
    free(u);
    while (n && isspace((unsigned char)buf[n - 1]))
        buf[--n] = '\0';
    if (n == 0 || n >= sizeof buf - 1)
        return -1;
    int tmaj, tmin, used = 0;
    if (buf[0] == '(' && !strpbrk(buf, "+-") &&
        sscanf(buf, "(%d , %d )%n", &tmaj, &tmin, &used) == 2 && (size_t)used == n && tmaj >= 1 &&
        tmaj <= 99 && tmin >= 0 && tmin <= 9) {
        *cc = (uint16_t)(tmaj * 10 + tmin); /* torch.cuda.get_device_capability(): "(6, 1)" */
        return 0;
    }
    if (strncmp(buf, "gfx", 3) == 0) {
        struct target t;
        char *colon = strchr(buf, ':'); /* rocminfo's "gfx90a:sramecc+:xnack-" */
        if (colon)
            *colon = '\0';
        if (target_parse(buf, &t) == 0 && t.kind == TARGET_GFX && t.suffix != 'g' &&
            t.arch >= TABLES_AMD_MIN) {
            *cc = t.arch;
            return 0;
        }
        return -1;
    }
    const char *d = buf;
    if (strncmp(d, "sm", 2) == 0)
        d += 2;
    else if (strncmp(d, "compute", 7) == 0)
        d += 7;
    else if (!bare && !strchr(d, '.'))
        return -1;
    if (d != buf && *d == '_')
        d++;
    char *end;
    if (strchr(d, '.')) {
        if (d != buf)
            return -1;
        long major = strtol(d, &end, 10);
        if (end == d || *end != '.' || !isdigit((unsigned char)end[1]) || end[2] != '\0' ||
            major < 1 || major > 99)
            return -1;
        *cc = (uint16_t)(major * 10 + (end[1] - '0'));
        return 0;
    }
    if (!isdigit((unsigned char)*d))
        return -1;
    long v = strtol(d, &end, 10);
    size_t digits = (size_t)(end - d);
    if (digits < 2 || digits > 3 || v < 10)
        return -1;
    if (d != buf && (*end == 'a' || *end == 'f'))
        end++; /* sm_90a: the capability it runs on */
    if (*end)
        return -1;
    *cc = (uint16_t)v;
    return 0;
}

static int known_code(const struct tables *t, uint16_t cc)
{
    for (size_t i = 0; i < t->ngpus; i++)
        if (t->gpus[i].cc == cc)
            return 1;
    return 0;
}

struct cand {
    const struct gpu *gpu;
    int tier;
    size_t extra; /* name tokens the query did not name */
    size_t index; /* table order, the last tie-break */
    int extends;  /* the name begins with the query's words and has more */
    size_t equal; /* query tokens equal to a name token */
};

static int cmp_cand(const void *a, const void *b)
{
    const struct cand *x = a, *y = b;
    if (x->tier != y->tier)
        return x->tier - y->tier;
    if (x->equal != y->equal)
        return x->equal > y->equal ? -1 : 1;
    if (x->extra != y->extra)
        return x->extra < y->extra ? -1 : 1;
    size_t lx = strlen(x->gpu->name), ly = strlen(y->gpu->name);
    if (lx != ly)
        return lx < ly ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static void resolve_one(const struct tables *t, const char *query, struct gpuname_result *r);

/* "AMD Instinct MI60 / MI50", "AMD Radeon Vega 3 / 10 Graphics": one
 * answer when every part gives the same device code. */
static void resolve_alternatives(const struct tables *t, const char *query,
                                 struct gpuname_result *r)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", query);
    struct gpuname_result part;
    int first = 1;
    for (char *save = NULL, *p = strtok_r(buf, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
        resolve_one(t, p, &part);
        if (!part.decided || (!first && part.cc != r->cc)) {
            r->decided = 0;
            return;
        }
        if (first)
            *r = part;
        first = 0;
    }
}

static int header_field(const char *f)
{
    static const char *const words[] = {"name", "compute_cap", "driver_version", "pci.bus_id",
                                        "uuid", "index",       "memory.total",   NULL};
    while (isspace((unsigned char)*f))
        f++;
    for (const char *const *w = words; *w; w++) {
        size_t n = strlen(*w);
        if (strncasecmp(f, *w, n) == 0) {
            const char *e = f + n;
            while (isspace((unsigned char)*e))
                e++;
            if (!*e)
                return 1;
        }
    }
    return 0;
}

/* nvidia-smi --query-gpu=name,compute_cap --format=csv pasted whole: the
 * first line that is not the header, its fields apart; a compute
 * capability field decides, the name picks the GPU when it agrees. */
static int resolve_csv(const struct tables *t, const char *query, struct gpuname_result *r)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", query);
    char *line = NULL;
    for (char *save = NULL, *l = strtok_r(buf, "\r\n", &save); l;
         l = strtok_r(NULL, "\r\n", &save)) {
        char copy[512];
        snprintf(copy, sizeof copy, "%s", l);
        int header = 1, fields = 0;
        for (char *s2 = NULL, *f = strtok_r(copy, ",", &s2); f; f = strtok_r(NULL, ",", &s2)) {
            fields++;
            header &= header_field(f);
        }
        if (fields && !header) {
            line = l;
            break;
        }
    }
    if (!line)
        return -1;
    char name[512] = "", code[512] = "";
    uint16_t cc = 0;
    int have_cc = 0;
    for (char *save = NULL, *f = strtok_r(line, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
        uint16_t v;
        if (!have_cc && gpuname_parse_code(f, 0, &v) == 0) {
            cc = v;
            have_cc = 1;
            snprintf(code, sizeof code, "%s", f);
        } else if (!name[0] && !header_field(f)) {
            snprintf(name, sizeof name, "%s", f);
        }
    }
    struct gpuname_result byname;
    resolve_one(t, name, &byname);
    if (!have_cc) {
        *r = byname;
        return 0;
    }
    if (byname.decided && byname.cc == cc) {
        *r = byname;
        return 0;
    }
    resolve_one(t, code, r);
    return 0;
}

void gpuname_resolve(const struct tables *t, const char *query, struct gpuname_result *r)
{
    uint16_t cc;
    if (!query)
        query = ""; /* matches nothing, as an empty name does */
    if (strpbrk(query, ",\n") && gpuname_parse_code(query, 0, &cc) < 0 &&
        resolve_csv(t, query, r) == 0)
        return;
    resolve_one(t, query, r);
    if (!r->decided && strchr(query, '/')) {
        struct gpuname_result alt;
        resolve_alternatives(t, query, &alt);
        if (alt.decided)
            *r = alt;
    }
}

static void resolve_one(const struct tables *t, const char *query, struct gpuname_result *r)
{
    memset(r, 0, sizeof *r);
    uint16_t cc;
    /* a device code: "6.1", "sm_61", "gfx1100"; a bare "61" only when a
     * GPU has that capability (so "750" stays a name) */
    if (gpuname_parse_code(query, 0, &cc) == 0 ||
        (gpuname_parse_code(query, 1, &cc) == 0 && known_code(t, cc))) {
        r->kind = GPUNAME_CODE;
        r->decided = 1;
        r->cc = cc;
        for (size_t i = 0; i < t->ngpus; i++) {
            if (t->gpus[i].cc != cc)
                continue;
            if (r->n < GPUNAME_MAX)
                r->m[r->n++] = (struct gpuname_match){&t->gpus[i], GPUNAME_EXACT};
            r->total++;
        }
        r->nbest = r->n;
        return;
    }
    struct toks q;
    tokenize(query, &q);
    if (q.foreign) {
        r->kind = GPUNAME_FOREIGN;
        return;
    }
    if (q.ns == 0 && q.nr == 0) {
        /* only brand, noise or form words ("nvidia geforce"): no answer,
         * but every GPU of the vendor named (all when none) is listed, so
         * that a list filtered by the name never empties on them */
        r->kind = q.ignored || q.nf ? GPUNAME_VAGUE : GPUNAME_NONE;
        for (size_t i = 0; r->kind == GPUNAME_VAGUE && i < t->ngpus; i++) {
            if (q.vendor && (q.vendor == 2) != (t->gpus[i].amd != 0))
                continue;
            if (r->n < GPUNAME_MAX)
                r->m[r->n++] = (struct gpuname_match){&t->gpus[i], GPUNAME_PREFIX};
            r->total++;
        }
        return;
    }
    struct cand *c = malloc((t->ngpus + 1) * sizeof *c);
    if (!c)
        return;
    size_t nc = 0;
    /* suggestions: the most query tokens matched, then fewest extra */
    struct cand near[GPUNAME_SUGGEST];
    size_t nnear = 0, near_score[GPUNAME_SUGGEST] = {0};
    for (size_t i = 0; i < t->ngpus; i++) {
        if (q.vendor && (q.vendor == 2) != (t->gpus[i].amd != 0))
            continue; /* "AMD Radeon 840M" is not the GeForce 840M */
        struct toks n;
        tokenize(t->gpus[i].name, &n);
        size_t matched;
        int tier = tier_of(&q, &n, &matched);
        size_t extra = n.ns > matched ? n.ns - matched : 0;
        size_t equal = count_equal(&q, &n);
        if (tier >= 0 && tier != GPUNAME_FUZZY) {
            /* extends: the name begins with the query's words and has more */
            c[nc++] = (struct cand){
                &t->gpus[i], tier, extra, i, tier == GPUNAME_PREFIX && starts_with(&q, &n), equal};
            continue;
        }
        if (matched == 0)
            continue;
        /* a typo or a wrong series word: only ever a suggestion */
        struct cand x = {&t->gpus[i], tier < 0, extra, i, 0, equal};
        size_t k = nnear;
        while (k > 0 && (matched > near_score[k - 1] ||
                         (matched == near_score[k - 1] && cmp_cand(&x, &near[k - 1]) < 0)))
            k--;
        if (k >= GPUNAME_SUGGEST)
            continue;
        size_t last = nnear < GPUNAME_SUGGEST ? nnear : GPUNAME_SUGGEST - 1;
        for (size_t j = last; j > k; j--) {
            near[j] = near[j - 1];
            near_score[j] = near_score[j - 1];
        }
        near[k] = x;
        near_score[k] = matched;
        if (nnear < GPUNAME_SUGGEST)
            nnear++;
    }
    if (nc == 0) {
        r->kind = GPUNAME_NONE;
        for (size_t i = 0; i < nnear; i++)
            r->suggest[r->nsuggest++] = near[i].gpu;
        free(c);
        return;
    }
    qsort(c, nc, sizeof *c, cmp_cand);
    if (c[0].tier <= GPUNAME_FORM) {
        /* with a whole name matched, an unfinished word is not what was
         * meant: "Tesla T4" is not the K40t */
        size_t k = 0;
        for (size_t i = 0; i < nc; i++)
            if (c[i].tier != GPUNAME_PREFIX || c[i].extends)
                c[k++] = c[i];
        nc = k;
    }
    r->kind = GPUNAME_NAME;
    r->total = nc;
    for (size_t i = 0; i < nc && r->n < GPUNAME_MAX; i++)
        r->m[r->n++] = (struct gpuname_match){c[i].gpu, c[i].tier};
    int best = c[0].tier;
    /* a typo is never an answer, only a suggestion */
    r->decided = best != GPUNAME_FUZZY;
    for (size_t i = 0; i < nc && c[i].tier == best; i++) {
        r->nbest++;
        if (c[i].gpu->cc != c[0].gpu->cc)
            r->decided = 0;
    }
    /* A prefix match decides only when every best GPU has all the query's
     * words ("mi300" is the MI300X or MI300A); an unfinished word ("vega 6"
     * for the Vega 64) is not an answer. */
    if (r->decided && best == GPUNAME_PREFIX)
        for (size_t i = 0; i < r->nbest; i++)
            if (!c[i].extends)
                r->decided = 0;
    if (q.ns == 0) {
        /* only series words ("quadro", "AMD Radeon Graphics"): listed, no answer */
        r->kind = GPUNAME_VAGUE;
        r->decided = 0;
    }
    if (r->decided && c[0].gpu->nother) {
        r->decided = 0; /* "GT 730": sold with several chips */
        r->several_chips = 1;
    }
    if (r->decided) {
        r->cc = c[0].gpu->cc;
        r->gpu = c[0].gpu;
        r->form_differs = best == GPUNAME_FORM;
    }
    free(c);
}
