/*
 * dotver: dotted version numbers.
 */
#include "dotver.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

int dotver_parse(const char *s, struct dotver *v)
{
    memset(v, 0, sizeof *v);
    if (!s)
        return -1;
    while (*s == ' ' || *s == 'v')
        s++;
    if (!isdigit((unsigned char)*s))
        return -1;
    /* an epoch: digits and '!' before the release */
    const char *e = s + strspn(s, "0123456789");
    if (*e == '!' && isdigit((unsigned char)e[1])) {
        for (; s < e; s++)
            if (v->epoch < 100000000)
                v->epoch = v->epoch * 10 + (*s - '0');
        s = e + 1;
    }
    while (v->n < DOTVER_FIELDS && isdigit((unsigned char)*s)) {
        long x = 0;
        while (isdigit((unsigned char)*s)) {
            if (x < 100000000)
                x = x * 10 + (*s - '0');
            s++;
        }
        v->f[v->n++] = x;
        if (*s == '.' && isdigit((unsigned char)s[1]))
            s++;
        else
            break;
    }
    /* PEP 440 pre-releases, oldest kind first: 2.9.0.dev20250101 < 2.9.0a1
     * < 2.9.0b1 < 2.9.0rc1 < 2.9.0; within a kind, by number.  Spellings
     * PEP 440 normalises are read too: a '.', '-' or '_' before the tag
     * or the number, alpha/beta/c/pre/preview (2.9.0.rc1 is 2.9.0rc1). */
    static const struct {
        const char *tag;
        int kind;
    } kinds[] = {{"preview", 4}, {"alpha", 2}, {"beta", 3}, {"pre", 4}, {"dev", 1},
                 {"rc", 4},      {"c", 4},     {"a", 2},    {"b", 3}};
    const char *t = s;
    if ((*t == '.' || *t == '-' || *t == '_') && isalpha((unsigned char)t[1]))
        t++;
    if (!isalpha((unsigned char)*t))
        return 0; /* no tag: a release (most versions) */
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t n = strlen(kinds[i].tag);
        if (strncasecmp(t, kinds[i].tag, n) != 0 || isalpha((unsigned char)t[n]))
            continue;
        v->pre = kinds[i].kind;
        t += n;
        if ((*t == '.' || *t == '-' || *t == '_') && isdigit((unsigned char)t[1]))
            t++;
        for (; isdigit((unsigned char)*t); t++)
            if (v->pre_num < 100000000000000L)
                v->pre_num = v->pre_num * 10 + (*t - '0');
        break;
    }
    return 0;
}

int dotver_cmp(const struct dotver *a, const struct dotver *b)
{
    if (a->epoch != b->epoch)
        return a->epoch < b->epoch ? -1 : 1;
    for (int i = 0; i < DOTVER_FIELDS; i++) {
        long x = i < a->n ? a->f[i] : 0, y = i < b->n ? b->f[i] : 0;
        if (x != y)
            return x < y ? -1 : 1;
    }
    if (!a->pre != !b->pre)
        return a->pre ? -1 : 1;
    if (a->pre != b->pre)
        return a->pre < b->pre ? -1 : 1;
    if (a->pre_num != b->pre_num)
        return a->pre_num < b->pre_num ? -1 : 1;
    return 0;
}

int dotver_same(const struct dotver *a, const struct dotver *b)
{
    if (a->epoch != b->epoch || a->n != b->n || a->pre != b->pre || a->pre_num != b->pre_num)
        return 0;
    for (int i = 0; i < a->n && i < DOTVER_FIELDS; i++)
        if (a->f[i] != b->f[i])
            return 0;
    return 1;
}

uint64_t dotver_hash(uint64_t h, const struct dotver *v)
{
    h = (h ^ (uint64_t)v->epoch) * 1099511628211ULL;
    h = (h ^ (uint64_t)v->n) * 1099511628211ULL;
    for (int i = 0; i < v->n && i < DOTVER_FIELDS; i++)
        h = (h ^ (uint64_t)v->f[i]) * 1099511628211ULL;
    return h;
}

int dotver_is_final(const char *s)
{
    return s && isdigit((unsigned char)s[0]) && s[strspn(s, "0123456789.")] == '\0';
}

int dotver_cmp_str(const char *a, const char *b)
{
    struct dotver x, y;
    int okx = dotver_parse(a, &x) == 0, oky = dotver_parse(b, &y) == 0;
    if (!okx || !oky)
        return okx - oky;
    return dotver_cmp(&x, &y);
}

/* Writes v (>= 0) in decimal at p, at most end - p bytes; returns the
 * end of what was written, or NULL when it does not fit. */
static char *put_long(char *p, const char *end, long v)
{
    char tmp[24];
    size_t k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0 && k < sizeof tmp);
    if (v < 0 || (size_t)(end - p) < k)
        return NULL;
    while (k)
        *p++ = tmp[--k];
    return p;
}

int dotver_format_fields(const struct dotver *v, size_t nf, char *buf, size_t n)
{
    if (n == 0)
        return -1;
    char *p = buf;
    const char *end = buf + n - 1; /* room for the NUL */
    for (size_t i = 0; i < nf && p; i++) {
        if (i && p < end)
            *p++ = '.';
        else if (i)
            p = NULL;
        if (p)
            p = put_long(p, end, (int)i < v->n && i < DOTVER_FIELDS ? v->f[i] : 0);
    }
    if (!p)
        return -1;
    *p = '\0';
    return 0;
}

int dotver_release_buf(const char *s, char *buf, size_t n)
{
    struct dotver v;
    if (n == 0)
        return -1;
    if (dotver_parse(s, &v) < 0) {
        if (!s)
            s = "";
        if (strlen(s) >= n)
            return -1;
        memcpy(buf, s, strlen(s) + 1);
        return 0;
    }
    size_t nf = v.n < 2 ? 1 : v.n >= 3 && v.f[0] == 0 && v.f[1] == 0 ? 3 : 2;
    if (!v.epoch)
        return dotver_format_fields(&v, nf, buf, n);
    char *p = put_long(buf, buf + n - 1, v.epoch);
    if (!p || p >= buf + n - 1)
        return -1;
    *p++ = '!';
    return dotver_format_fields(&v, nf, p, n - (size_t)(p - buf));
}

/* The spelling of PEP 440 at s (case folded): the length of one of the
 * words, or 0. */
static size_t word_at(const char *s, const char *const *words)
{
    for (; *words; words++) {
        size_t n = strlen(*words);
        if (strncasecmp(s, *words, n) == 0 && !isalpha((unsigned char)s[n]))
            return n;
    }
    return 0;
}

/* A separator PEP 440 allows before a pre, post or dev tag or its number. */
static const char *sep(const char *s)
{
    return *s == '.' || *s == '_' ? s + 1 : s;
}

int dotver_pep440_check(const char *s, const char **why)
{
    static const char *const pre[] = {"alpha", "beta", "preview", "pre", "rc", "a", "b", "c", NULL};
    static const char *const post[] = {"post", "rev", "r", NULL};
    static const char *const dev[] = {"dev", NULL};
    const char *dummy;
    if (!why)
        why = &dummy;
    *why = "not a PEP 440 version: it starts with a digit (2.8.0, 1.0rc1)";
    if (!s)
        return -1;
    if (*s == 'v' || *s == 'V')
        s++;
    if (!isdigit((unsigned char)*s))
        return -1;
    const char *p = s + strspn(s, "0123456789");
    if (*p == '!') {
        p++;
        if (!isdigit((unsigned char)*p)) {
            *why = "not a PEP 440 version: an epoch (N!) is followed by a release (1!2.0)";
            return -1;
        }
        p += strspn(p, "0123456789");
    }
    while (*p == '.' && isdigit((unsigned char)p[1]))
        p += 1 + strspn(p + 1, "0123456789");
    /* pre, post, dev: each at most once, in that order */
    const char *q = sep(p);
    size_t n;
    if ((n = word_at(q, pre)) > 0) {
        p = sep(q + n);
        p += strspn(p, "0123456789");
        if (p[-1] == '.' || p[-1] == '_')
            p--; /* a separator with no number after it is not the tag's */
        q = sep(p);
    }
    if ((n = word_at(q, post)) > 0) {
        p = sep(q + n);
        p += strspn(p, "0123456789");
        if (p[-1] == '.' || p[-1] == '_')
            p--;
        q = sep(p);
    }
    if ((n = word_at(q, dev)) > 0) {
        p = sep(q + n);
        p += strspn(p, "0123456789");
        if (p[-1] == '.' || p[-1] == '_')
            p--;
    }
    if (*p == '+') {
        /* a local label: alphanumeric parts separated by . or _ */
        const char *l = p + 1;
        if (!isalnum((unsigned char)*l)) {
            *why = "not a PEP 440 version: its local label (after '+') is letters and digits "
                   "in parts separated by '.' (2.8.0+cu128)";
            return -1;
        }
        for (; *l; l++)
            if (!isalnum((unsigned char)*l) &&
                !((*l == '.' || *l == '_') && isalnum((unsigned char)l[1])))
                break;
        if (*l) {
            *why = "not a PEP 440 version: its local label (after '+') is letters and digits "
                   "in parts separated by '.' (2.8.0+cu128)";
            return -1;
        }
        return 0;
    }
    if (*p) {
        *why = *p == '!' ? "not a PEP 440 version: '!' ends an epoch, which comes first (1!2.0)"
                         : "not a PEP 440 version: after the release (2.8.0) only a pre-release "
                           "(a1, b2, rc3), .postN, .devN and a local label (+cu128) may follow";
        return -1;
    }
    return 0;
}

char *dotver_release(const char *s)
{
    char buf[96]; /* a version's fields have at most 9 digits each: it fits */
    if (dotver_release_buf(s, buf, sizeof buf) == 0)
        return xstrdup(buf);
    return xstrdup(s ? s : ""); /* not a version, and longer than buf */
}
