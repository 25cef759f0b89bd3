/*
 * target: parse, format and order GPU target names.
 */
#include "target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "strbuf.h"

static const char *const kind_prefix[] = {"sm_", "compute_", "lto_"};

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* ":sramecc+", ":xnack-" ... in any order, each at most once. */
static int parse_features(const char *p, struct target *t)
{
    while (*p == ':') {
        p++;
        uint8_t *f;
        size_t len;
        if (strncmp(p, "sramecc", 7) == 0) {
            f = &t->sramecc;
            len = 7;
        } else if (strncmp(p, "xnack", 5) == 0) {
            f = &t->xnack;
            len = 5;
        } else {
            return WA_ERR_FORMAT;
        }
        if (*f != TARGET_FEAT_ANY || (p[len] != '+' && p[len] != '-'))
            return WA_ERR_FORMAT;
        *f = p[len] == '+' ? TARGET_FEAT_ON : TARGET_FEAT_OFF;
        p += len + 1;
    }
    return *p == '\0' ? 0 : WA_ERR_FORMAT;
}

/* gfx90a, gfx1100, gfx9-generic, gfx10-3-generic, with features. */
static int parse_gfx(const char *s, struct target *t)
{
    const char *p = s + 3;
    memset(t, 0, sizeof *t);
    t->kind = TARGET_GFX;
    unsigned v = 0;
    size_t n = 0;
    if (*p < '0' || *p > '9')
        return WA_ERR_FORMAT;
    const char *end = strstr(p, "-generic");
    if (end && (end[8] == '\0' || end[8] == ':')) {
        /* MAJOR[-MINOR]-generic, MAJOR decimal 9..12, MINOR one digit */
        while (p < end && *p >= '0' && *p <= '9' && n < 2) {
            v = (v << 4) | (unsigned)(*p - '0');
            p++;
            n++;
        }
        unsigned minor = 0;
        if (p < end && *p == '-' && p + 2 == end && p[1] >= '0' && p[1] <= '9') {
            minor = (unsigned)(p[1] - '0');
            p += 2;
        }
        if (p != end || n == 0 || v == 0)
            return WA_ERR_FORMAT;
        t->arch = (uint16_t)((v << 8) | (minor << 4));
        t->suffix = 'g';
        return parse_features(end + 8, t);
    }
    while (hexval(*p) >= 0 && n < 4) {
        v = (v << 4) | (unsigned)hexval(*p);
        p++;
        n++;
    }
    if (n < 3 || hexval(*p) >= 0)
        return WA_ERR_FORMAT;
    t->arch = (uint16_t)v;
    return parse_features(p, t);
}

int target_parse(const char *s, struct target *t)
{
    if (strncmp(s, "gfx", 3) == 0)
        return parse_gfx(s, t);
    for (unsigned k = 0; k < sizeof kind_prefix / sizeof kind_prefix[0]; k++) {
        size_t plen = strlen(kind_prefix[k]);
        if (strncmp(s, kind_prefix[k], plen) != 0)
            continue;
        const char *p = s + plen;
        unsigned long v = 0;
        size_t digits = 0;
        while (*p >= '0' && *p <= '9' && digits < 5) {
            v = v * 10 + (unsigned long)(*p - '0');
            p++;
            digits++;
        }
        if (digits == 0 || v == 0 || v > 65535)
            return WA_ERR_FORMAT;
        char sfx = 0;
        if (*p == 'a' || *p == 'f')
            sfx = *p++;
        if (*p != '\0')
            return WA_ERR_FORMAT;
        memset(t, 0, sizeof *t);
        t->kind = (uint8_t)k;
        t->arch = (uint16_t)v;
        t->suffix = sfx;
        return 0;
    }
    return WA_ERR_FORMAT;
}

static void format_gfx(const struct target *t, char *buf, size_t n)
{
    char digits[8];
    snprintf(digits, sizeof digits, "%x", (unsigned)t->arch);
    char name[24];
    if (t->suffix == 'g') {
        size_t len = strlen(digits);
        char major[8];
        snprintf(major, sizeof major, "%.*s", (int)(len > 2 ? len - 2 : 0), digits);
        char minor = len >= 2 ? digits[len - 2] : '0';
        if (minor != '0')
            snprintf(name, sizeof name, "gfx%s-%c-generic", major, minor);
        else
            snprintf(name, sizeof name, "gfx%s-generic", major);
    } else {
        snprintf(name, sizeof name, "gfx%s", digits);
    }
    static const char sign[] = {0, '-', '+'};
    char sr[12] = "", xn[10] = "";
    if (t->sramecc == TARGET_FEAT_OFF || t->sramecc == TARGET_FEAT_ON)
        snprintf(sr, sizeof sr, ":sramecc%c", sign[t->sramecc]);
    if (t->xnack == TARGET_FEAT_OFF || t->xnack == TARGET_FEAT_ON)
        snprintf(xn, sizeof xn, ":xnack%c", sign[t->xnack]);
    snprintf(buf, n, "%s%s%s", name, sr, xn);
}

void target_format(const struct target *t, char *buf, size_t n)
{
    if (t->kind == TARGET_GFX) {
        format_gfx(t, buf, n);
        return;
    }
    /* prefix, arch in decimal, suffix: as snprintf would write it (cut to
     * n - 1 bytes), without printf (sites and checks format thousands) */
    const char *prefix = t->kind < 3 ? kind_prefix[t->kind] : "unknown_";
    char tmp[40];
    size_t len = strlen(prefix);
    memcpy(tmp, prefix, len);
    len += strbuf_decimal((unsigned)t->arch, tmp + len);
    if (t->suffix)
        tmp[len++] = t->suffix;
    if (n == 0)
        return;
    if (len >= n)
        len = n - 1;
    memcpy(buf, tmp, len);
    buf[len] = '\0';
}

int target_cmp(const struct target *a, const struct target *b)
{
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->arch != b->arch)
        return a->arch < b->arch ? -1 : 1;
    if (a->suffix != b->suffix)
        return (unsigned char)a->suffix < (unsigned char)b->suffix ? -1 : 1;
    if (a->sramecc != b->sramecc)
        return a->sramecc < b->sramecc ? -1 : 1;
    if (a->xnack != b->xnack)
        return a->xnack < b->xnack ? -1 : 1;
    return 0;
}

int target_cmp_void(const void *a, const void *b)
{
    return target_cmp(a, b);
}

int target_name_cmp(const char *a, const char *b)
{
    struct target ta, tb;
    int oka = target_parse(a, &ta) == 0;
    int okb = target_parse(b, &tb) == 0;
    if (oka && okb)
        return target_cmp(&ta, &tb);
    if (oka != okb)
        return oka ? -1 : 1;
    return strcmp(a, b);
}

size_t target_sort_unique(struct target *t, size_t n)
{
    if (n < 2)
        return n;
    qsort(t, n, sizeof *t, target_cmp_void);
    size_t w = 1;
    for (size_t i = 1; i < n; i++)
        if (target_cmp(&t[i], &t[w - 1]) != 0)
            t[w++] = t[i];
    return w;
}

/* Parses the name at s (up to a delimiter) into t; returns its length or 0. */
static size_t name_at(const char *s, struct target *t)
{
    char buf[TARGET_NAME_MAX + 1];
    size_t n = 0;
    while (s[n] && s[n] != ',' && s[n] != ';' && s[n] != ' ' && s[n] != ']' && s[n] != '"' &&
           n < TARGET_NAME_MAX) {
        buf[n] = s[n];
        n++;
    }
    buf[n] = '\0';
    return n && target_parse(buf, t) == 0 ? n : 0;
}

size_t target_parse_gencode(const char *flags, struct target *out, size_t max)
{
    size_t n = 0;
    for (const char *p = flags; *p && n < max; p++) {
        struct target t;
        if (strncmp(p, "code=", 5) == 0) {
            p += 5;
            int list = *p == '[' || *p == '"';
            if (list)
                p++;
            for (;;) {
                size_t len = name_at(p, &t);
                if (len && n < max)
                    out[n++] = t;
                p += len;
                if (!list || *p != ',')
                    break;
                p++;
            }
            if (!*p)
                break;
        } else if (strncmp(p, "-arch=", 6) == 0 || strncmp(p, "-arch ", 6) == 0 ||
                   strncmp(p, "-arch;", 6) == 0) {
            /* Shorthand: -arch=sm_XY means code=sm_XY,compute_XY. */
            size_t len = name_at(p + 6, &t);
            if (len && t.kind == TARGET_SASS && n + 2 <= max) {
                out[n++] = t;
                t.kind = TARGET_PTX;
                out[n++] = t;
            }
        }
    }
    return target_sort_unique(out, n);
}
