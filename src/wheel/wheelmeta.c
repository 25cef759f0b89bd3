/*
 * wheelmeta: Requires-Dist from a wheel's METADATA.
 */
#include "wheelmeta.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "strbuf.h"
#include "wheelname.h"
#include "xalloc.h"

int wheelmeta_is_member(const char *name)
{
    const char *slash = strchr(name, '/');
    if (!slash || slash == name || strcmp(slash, "/METADATA") != 0)
        return 0;
    size_t n = (size_t)(slash - name);
    return n > 10 && memcmp(slash - 10, ".dist-info", 10) == 0;
}

/* Whether s (n bytes) is printable UTF-8 without control characters. */
static int clean_text(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        if (c < 0x20 || c == 0x7f)
            return 0;
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t len = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
        if (!len || i + len > n)
            return 0;
        for (size_t k = 1; k < len; k++)
            if ((s[i + k] & 0xc0) != 0x80)
                return 0;
        i += len;
    }
    return 1;
}

/* Adds to a field's value, up to a little more than any value kept. */
static void append(struct strbuf *v, const char *s, size_t n, int *too_long)
{
    if (v->len + n > WHEELMETA_MAX_FIELD + 64) {
        *too_long = 1;
        return;
    }
    strbuf_add(v, s, n);
}

static void add_field(struct strbuf *v, int too_long, char ***out, size_t *n, size_t *cap)
{
    const char *s = v->buf ? v->buf : "";
    size_t len = v->len;
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    while (len && isspace((unsigned char)*s)) {
        s++;
        len--;
    }
    if (!too_long && len && len <= WHEELMETA_MAX_FIELD && *n < WHEELMETA_MAX_REQUIRES &&
        clean_text((const unsigned char *)s, len)) {
        *out = xgrow(*out, cap, *n + 1, sizeof **out);
        (*out)[(*n)++] = xstrndup(s, len);
    }
    strbuf_reset(v);
}

size_t wheelmeta_requires(const char *text, size_t n, char ***out, size_t *n_out)
{
    static const char key[] = "Requires-Dist:";
    const size_t klen = sizeof key - 1;
    *out = NULL;
    size_t count = 0, cap = 0;
    struct strbuf v = STRBUF_INIT;
    int in_field = 0, too_long = 0;
    if (n > WHEELMETA_MAX_SIZE)
        n = WHEELMETA_MAX_SIZE;
    for (size_t i = 0; i < n;) {
        size_t end = i;
        while (end < n && text[end] != '\n')
            end++;
        size_t len = end - i;
        if (len && text[i + len - 1] == '\r')
            len--;
        const char *line = text + i;
        i = end < n ? end + 1 : n;
        if (len == 0)
            break; /* the end of the headers: the description follows */
        if (line[0] == ' ' || line[0] == '\t') { /* a continuation line */
            size_t k = 0;
            while (k < len && (line[k] == ' ' || line[k] == '\t'))
                k++;
            if (in_field && k < len) {
                append(&v, " ", 1, &too_long);
                append(&v, line + k, len - k, &too_long);
            }
            continue;
        }
        if (in_field)
            add_field(&v, too_long, out, &count, &cap);
        too_long = 0;
        in_field = len >= klen && strncasecmp(line, key, klen) == 0;
        if (in_field)
            append(&v, line + klen, len - klen, &too_long);
    }
    if (in_field)
        add_field(&v, too_long, out, &count, &cap);
    strbuf_free(&v);
    *n_out = count;
    return count;
}

void wheelmeta_free(char **list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

int wheelmeta_requirement(const char *req, char **name, char **pinned)
{
    *name = *pinned = NULL;
    /* PEP 508: the name, then extras, a version spec or a marker */
    size_t n = 0;
    while (isalnum((unsigned char)req[n]) || req[n] == '-' || req[n] == '_' || req[n] == '.')
        n++;
    if (n == 0 || n > 200)
        return -1;
    char *raw = xstrndup(req, n);
    *name = wheelname_normalize(raw);
    free(raw);
    const char *p = req + n;
    while (*p == ' ')
        p++;
    if (*p == '[') { /* extras */
        const char *close = strchr(p, ']');
        if (!close)
            return 0;
        p = close + 1;
    }
    while (*p == ' ' || *p == '(')
        p++;
    size_t op = strncmp(p, "===", 3) == 0 ? 3 : strncmp(p, "==", 2) == 0 ? 2 : 0;
    if (!op)
        return 0; /* no pin: any version, a range, or a marker only */
    p += op;
    while (*p == ' ')
        p++;
    size_t v = 0;
    while (isalnum((unsigned char)p[v]) || p[v] == '.' || p[v] == '+' || p[v] == '-' ||
           p[v] == '_' || p[v] == '!')
        v++;
    /* "==2.*" is a range, not a pin */
    if (v && p[v] != '*' && v <= 100)
        *pinned = xstrndup(p, v);
    return 0;
}

int wheelmeta_requirement_extra(const char *req, char *buf, size_t n)
{
    buf[0] = '\0';
    const char *m = strchr(req, ';');
    for (m = m ? m + 1 : NULL; m && (m = strstr(m, "extra")) != NULL; m += 5) {
        if (m > req && (isalnum((unsigned char)m[-1]) || m[-1] == '_'))
            continue; /* a longer name ("my_extra") */
        const char *p = m + 5;
        while (*p == ' ')
            p++;
        if (strncmp(p, "==", 2) != 0)
            continue;
        p += 2;
        while (*p == ' ')
            p++;
        char quote = *p;
        if (quote != '"' && quote != '\'')
            continue;
        const char *val = ++p;
        while (*p && *p != quote)
            p++;
        size_t len = (size_t)(p - val);
        if (!*p || !len || len >= n)
            return -1;
        /* PEP 685: extras compare as normalised names */
        size_t k = 0;
        for (size_t i = 0; i < len; i++) {
            unsigned char ch = (unsigned char)val[i];
            if (!isalnum(ch) && ch != '-' && ch != '_' && ch != '.')
                return -1;
            char o = ch == '_' || ch == '.' ? '-' : (char)tolower(ch);
            if (o == '-' && k && buf[k - 1] == '-')
                continue;
            buf[k++] = o;
        }
        buf[k] = '\0';
        return 0;
    }
    return -1;
}

/* The marker variables of a platform id. */
static const char *marker_value(const char *var, size_t n, const char *platform_id)
{
    int win = strncmp(platform_id, "windows", 7) == 0, mac = strncmp(platform_id, "macos", 5) == 0;
    const char *machine = strchr(platform_id, '-') ? strchr(platform_id, '-') + 1 : "";
    if (n == 15 && memcmp(var, "platform_system", n) == 0)
        return win ? "Windows" : mac ? "Darwin" : "Linux";
    if (n == 12 && memcmp(var, "sys_platform", n) == 0)
        return win ? "win32" : mac ? "darwin" : "linux";
    if (n == 16 && memcmp(var, "platform_machine", n) == 0)
        return win && strcmp(machine, "x86_64") == 0  ? "AMD64"
               : win && strcmp(machine, "arm64") == 0 ? "ARM64" /* platform.machine() on Windows */
                                                      : machine;
    return NULL;
}

int wheelmeta_marker_applies(const char *req, const char *platform_id)
{
    const char *m = strchr(req, ';');
    if (!m)
        return 1;
    m++;
    if (strstr(m, " or ") || strchr(m, '('))
        return 1; /* beyond this evaluator: taken to hold */
    for (;;) {
        while (*m == ' ')
            m++;
        const char *var = m;
        while (isalnum((unsigned char)*m) || *m == '_')
            m++;
        size_t vn = (size_t)(m - var);
        while (*m == ' ')
            m++;
        int eq = strncmp(m, "==", 2) == 0, ne = strncmp(m, "!=", 2) == 0;
        if (!vn || (!eq && !ne))
            return 1; /* another operator or form: taken to hold */
        m += 2;
        while (*m == ' ')
            m++;
        char quote = *m;
        if (quote != '"' && quote != '\'')
            return 1;
        const char *val = ++m;
        while (*m && *m != quote)
            m++;
        if (!*m)
            return 1;
        size_t valn = (size_t)(m - val);
        m++;
        if (vn == 5 && memcmp(var, "extra", 5) == 0) {
            if (eq)
                return 0; /* an optional dependency */
        } else {
            const char *have = marker_value(var, vn, platform_id);
            if (have) {
                int same = strlen(have) == valn && strncmp(have, val, valn) == 0;
                if (same != eq)
                    return 0;
            }
        }
        while (*m == ' ')
            m++;
        if (!*m)
            return 1;
        if (strncmp(m, "and", 3) != 0 || (m[3] != ' ' && m[3] != '\0'))
            return 1;
        m += 3;
    }
}

int wheelmeta_next_requirement(const char **p, char **line)
{
    const char *s = *p;
    if (!s || !*s)
        return 0;
    const char *nl = strchr(s, '\n');
    size_t n = nl ? (size_t)(nl - s) : strlen(s);
    *line = xstrndup(s, n);
    *p = nl ? nl + 1 : s + n;
    return 1;
}
