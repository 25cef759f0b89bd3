/*
 * target: parse, format and order GPU target names.
 */
#include "target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

static const char *const kind_prefix[] = {"sm_", "compute_", "lto_"};

int target_parse(const char *s, struct target *t)
{
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
        t->kind = (uint8_t)k;
        t->arch = (uint16_t)v;
        t->suffix = sfx;
        return 0;
    }
    return WA_ERR_FORMAT;
}

void target_format(const struct target *t, char *buf, size_t n)
{
    const char *prefix = t->kind < 3 ? kind_prefix[t->kind] : "unknown_";
    if (t->suffix)
        snprintf(buf, n, "%s%u%c", prefix, (unsigned)t->arch, t->suffix);
    else
        snprintf(buf, n, "%s%u", prefix, (unsigned)t->arch);
}

int target_cmp(const struct target *a, const struct target *b)
{
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->arch != b->arch)
        return a->arch < b->arch ? -1 : 1;
    if (a->suffix != b->suffix)
        return (unsigned char)a->suffix < (unsigned char)b->suffix ? -1 : 1;
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
