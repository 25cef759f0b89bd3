/*
 * recordcheck_rules: the single rules of a record's grammar (characters,
 * names, versions, dates, URLs, targets, limits) and the one-line messages
 * a refused value gets.
 */
#include "recordcheck_rules.h"
#include "recordcheck_fields.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dotver.h"
#include "indexurl.h"
#include "target.h"
#include "variant.h"
#include "wheelname.h"

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_lower_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || is_digit(c);
}

static int is_alnum(char c)
{
    return is_lower_alnum(c) || (c >= 'A' && c <= 'Z');
}

/* Whether every byte of s is alphanumeric or in extra. */
int rci_all_of(const char *s, const char *extra)
{
    for (; *s; s++)
        if (!is_alnum(*s) && !strchr(extra, *s))
            return 0;
    return 1;
}

/* Whether p[0, n) holds none of the characters free text may not: C0 or
 * C1 control characters, DEL, U+FFFE / U+FFFF (not allowed in XML). */
static int no_control(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] < 0x20 || p[i] == 0x7f)
            return 0;
        if (p[i] == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f)
            return 0; /* U+0080 .. U+009F */
        if (p[i] == 0xef && i + 2 < n && p[i + 1] == 0xbf && (p[i + 2] == 0xbe || p[i + 2] == 0xbf))
            return 0;
    }
    return 1;
}

/* Text that may reach any page, feed or terminal: at most max bytes, no NUL
 * (json_string_length tells), nothing no_control refuses.  jansson already
 * guarantees valid UTF-8. */
int rci_text_ok(json_t *v, size_t max)
{
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    if (!s || n > max || strlen(s) != n)
        return 0;
    return no_control((const unsigned char *)s, n);
}

/* Whether p[0, n) is UTF-8 as RFC 3629 has it: shortest forms, no
 * surrogates, nothing above U+10FFFF. */
static int utf8_ok(const unsigned char *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = p[i];
        size_t len = c < 0x80             ? 1
                     : (c & 0xe0) == 0xc0 ? 2
                     : (c & 0xf0) == 0xe0 ? 3
                     : (c & 0xf8) == 0xf0 ? 4
                                          : 0;
        if (len == 0 || i + len > n || (len == 2 && c < 0xc2))
            return 0;
        unsigned long cp = len == 1 ? c : c & (0x7f >> len);
        for (size_t k = 1; k < len; k++) {
            if ((p[i + k] & 0xc0) != 0x80)
                return 0;
            cp = (cp << 6) | (p[i + k] & 0x3f);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
            (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
            return 0;
        i += len;
    }
    return 1;
}

int recordcheck_line_valid(const char *s, size_t max)
{
    size_t n = s ? strlen(s) : 0;
    return s && n <= max && utf8_ok((const unsigned char *)s, n) &&
           no_control((const unsigned char *)s, n);
}

int recordcheck_codec_valid(const char *s)
{
    return s && rci_codec_ok(s);
}

int recordcheck_isa_valid(const char *s)
{
    return s && rci_isa_ok(s);
}

const char *rci_type_name(json_t *v)
{
    if (!v)
        return "nothing";
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a real number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    default:
        return "null";
    }
}

int rci_bad_type(struct wa_error *err, const char *field, json_t *v, const char *want)
{
    if (!v)
        return wa_error_set(err, WA_ERR_FORMAT, "%s is missing", field);
    return wa_error_set(err, WA_ERR_FORMAT, "%s is %s, not %s", field, rci_type_name(v), want);
}

char *recordcheck_quote(char *dst, size_t n, const char *src, size_t max_src)
{
    /* wa_quote escapes C0 controls, DEL, quotes and backslashes; C1
     * controls (some terminals act on U+009B) become '?' first. */
    char tmp[1024];
    size_t j = 0;
    for (const unsigned char *p = (const unsigned char *)src; *p && j + 1 < sizeof tmp; p++) {
        if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
            tmp[j++] = '?';
            p++;
        } else {
            tmp[j++] = (char)*p;
        }
    }
    tmp[j] = '\0';
    return wa_quote(dst, n, tmp, max_src < sizeof tmp - 1 ? max_src : sizeof tmp - 1);
}

/* The message for a string that is too long, else 0: said as such, not
 * as "is not one line of text" (a length is not a grammar). */
static int too_long(struct wa_error *err, const char *field, size_t n, size_t max)
{
    if (n <= max)
        return 0;
    return wa_error_set(err, WA_ERR_FORMAT, "%s is %zu bytes long; at most %zu are allowed", field,
                        n, max);
}

int rci_too_long(struct wa_error *err, const char *field, json_t *v, size_t max)
{
    return too_long(err, field, json_string_length(v), max);
}

int rci_bad_value(struct wa_error *err, const char *field, const char *s, const char *what)
{
    char q[SHOWN * 4 + 8];
    return wa_error_set(err, WA_ERR_FORMAT, "%s \"%s\" is not %s", field,
                        recordcheck_quote(q, sizeof q, s, SHOWN), what);
}

/* A string value, or NULL when v is not one (bad_type reports it). */
const char *rci_str(json_t *v)
{
    return json_string_value(v);
}

/* "6.4", "7.14", "6.2.4": two or three fields of 1-3 digits. */
static int rocm_version_ok(const char *s)
{
    int fields = 0;
    while (*s) {
        size_t d = strspn(s, "0123456789");
        if (d == 0 || d > 3)
            return 0;
        fields++;
        s += d;
        if (*s == '.')
            s++;
        else if (*s)
            return 0;
        else
            break;
        if (!*s)
            return 0; /* a trailing dot */
    }
    return fields == 2 || fields == 3;
}

int recordcheck_variant_valid(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > 64)
        return 0;
    if (strcmp(s, "cpu") == 0 || strcmp(s, "xpu") == 0)
        return 1;
    /* Ids that look like CUDA or ROCm ones are judged as such elsewhere
     * (tables_variant_cuda, tables_variant_rocm), so they must be exact. */
    if (s[0] == 'c' && s[1] == 'u' && is_digit(s[2]))
        return variant_token(s, n); /* cu92, cu128, cu12x */
    if (strncmp(s, "rocm", 4) == 0 && is_digit(s[4]))
        return rocm_version_ok(s + 4);
    /* Any other index id: crawl names wheels without a label after their
     * index ("simple" for https://example.org/simple/). */
    return is_alnum(s[0]) && rci_all_of(s, "._+-");
}

int recordcheck_project_valid(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > 200 || !is_lower_alnum(s[0]) || !is_lower_alnum(s[n - 1]))
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (is_lower_alnum(s[i]))
            continue;
        if (s[i] != '-' || s[i + 1] == '-')
            return 0;
    }
    return 1;
}

int recordcheck_url_valid(const char *s)
{
    size_t skip = strncmp(s, "https://", 8) == 0 ? 8 : strncmp(s, "http://", 7) == 0 ? 7 : 0;
    if (!skip || !s[skip] || s[skip] == '/' || strlen(s) > URL_MAX)
        return 0;
    /* No fragment: the crawler strips them, and the simple indexes append
     * their own "#sha256=". */
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p <= 0x20 || *p == 0x7f || *p == '#' || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
            return 0;
    /* No user info: credentials are never stored (indexurl.h), and a link
     * with them would publish them in the simple indexes. */
    return !indexurl_has_userinfo(s, NULL);
}

int recordcheck_date_valid(const char *s)
{
    if (!s || strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && !is_digit(s[i]))
            return 0;
    int month = (s[5] - '0') * 10 + (s[6] - '0'), day = (s[8] - '0') * 10 + (s[9] - '0');
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/* PEP 440 as wheel file names carry it: a digit, then letters, digits,
 * '.', '!' and '_'; with `local`, an optional "+label" of letters, digits,
 * '.' and '_'. */
static int version_ok(const char *s, int local)
{
    size_t n = strlen(s);
    if (n == 0 || n > 128 || !is_digit(s[0]))
        return 0;
    size_t pub = strcspn(s, "+");
    for (size_t i = 0; i < pub; i++)
        if (!is_alnum(s[i]) && !strchr(".!_", s[i]))
            return 0;
    if (pub == n)
        return 1;
    if (!local || pub + 1 == n)
        return 0;
    return rci_all_of(s + pub + 1, "._");
}

int rci_public_version_ok(const char *s)
{
    return version_ok(s, 0);
}

int rci_full_version_ok(const char *s)
{
    return version_ok(s, 1);
}

/* A wheel tag or tag set: "cp312", "manylinux_2_28_x86_64", "py2.py3". */
int rci_tag_ok(const char *s)
{
    size_t n = strlen(s);
    return n > 0 && n <= 200 && rci_all_of(s, "._");
}

int rci_platform_id_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 32 || s[0] < 'a' || s[0] > 'z')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_lower_alnum(s[i]) && s[i] != '_' && s[i] != '-')
            return 0;
    return 1;
}

/* An ISO 8601 date or date-time as indexes give upload times:
 * "2025-08-06T18:00:00.123456Z". */
int rci_datetime_ok(const char *s)
{
    size_t n = strlen(s);
    if (n < 10 || n > 40)
        return 0;
    char date[11];
    memcpy(date, s, 10);
    date[10] = '\0';
    if (!recordcheck_date_valid(date))
        return 0;
    if (n == 10)
        return 1;
    if (s[10] != 'T' && s[10] != ' ')
        return 0;
    return strspn(s + 11, "0123456789:.Z+-") == n - 11;
}

/* A wheel file name, parsed into *w (the caller frees it); 0 or -1. */
static int parse_filename(const char *s, struct wheel_name *w)
{
    if (!recordcheck_line_valid(s, 255) || strchr(s, '/') || strchr(s, '\\'))
        return -1;
    return wheelname_parse(s, w, NULL) < 0 ? -1 : 0;
}

int rci_parse_filename(json_t *v, struct wheel_name *w)
{
    return rci_text_ok(v, 255) ? parse_filename(rci_str(v), w) : -1;
}

int recordcheck_filename_valid(const char *s)
{
    struct wheel_name w;
    if (!s || parse_filename(s, &w) < 0)
        return 0;
    wheelname_free(&w);
    return 1;
}

int rci_filename_ok(json_t *v)
{
    struct wheel_name w;
    if (rci_parse_filename(v, &w) < 0)
        return 0;
    wheelname_free(&w);
    return 1;
}

/* The parsed name a record carries ("wheel") is the parse of its file
 * name: pages take the project, version and platform from one, the
 * database's columns from the other, and they must not disagree. */
int rci_wheel_matches(json_t *w, const struct wheel_name *n, struct wa_error *err)
{
    const char *field = NULL;
    if (strcmp(rci_str(json_object_get(w, "normalized_name")), n->normalized) != 0)
        field = "wheel.normalized_name";
    else if (strcmp(rci_str(json_object_get(w, "public_version")), n->public_version) != 0)
        field = "wheel.public_version";
    else if (json_is_string(json_object_get(w, "platform_id")) &&
             strcmp(rci_str(json_object_get(w, "platform_id")),
                    wheelname_platform_id(n->platform)) != 0)
        field = "wheel.platform_id";
    return field ? rci_bad_value(err, field, rci_str(json_object_get(w, field + 6)),
                                 "what the file name says")
                 : 0;
}

int recordcheck_datetime_valid(const char *s)
{
    return s && rci_datetime_ok(s);
}

int recordcheck_tag_valid(const char *s)
{
    return s && rci_tag_ok(s);
}

int recordcheck_version_valid(const char *s, int local)
{
    return s && version_ok(s, local);
}

int recordcheck_platform_id_valid(const char *s)
{
    return s && rci_platform_id_ok(s);
}

/* An index's id: its last path segment ("cu128", "simple"). */
int recordcheck_index_id_valid(const char *s)
{
    return s && *s && !strpbrk(s, " /\\");
}

int rci_codec_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 16)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_lower_alnum(s[i]))
            return 0;
    return 1;
}

/* "9.0", "8.4": the PTX ISA. */
int rci_isa_ok(const char *s)
{
    size_t a = strspn(s, "0123456789");
    if (a == 0 || a > 3 || s[a] != '.')
        return 0;
    size_t b = strspn(s + a + 1, "0123456789");
    return b > 0 && b <= 3 && s[a + 1 + b] == '\0';
}

/* A canonical target name of the given kind (-1: any); parsed into *out
 * (may be NULL). */
int rci_target_ok(const char *s, int kind, struct target *out)
{
    struct target t;
    char canon[TARGET_NAME_MAX];
    if (strlen(s) >= TARGET_NAME_MAX || target_parse(s, &t) < 0)
        return 0;
    target_format(&t, canon, sizeof canon);
    if (out)
        *out = t;
    return strcmp(canon, s) == 0 && (kind < 0 || t.kind == kind);
}

/* Adds t; returns 0, or -1 once more than RECORDCHECK_TARGETS_MAX distinct
 * targets were seen. */
int rci_seen_add(struct seen *s, const struct target *t)
{
    if (s->n == sizeof s->t / sizeof s->t[0]) {
        s->n = target_sort_unique(s->t, s->n);
        if (s->n > RECORDCHECK_TARGETS_MAX)
            return -1;
    }
    s->t[s->n++] = *t;
    return 0;
}

int rci_seen_over(struct seen *s)
{
    s->n = target_sort_unique(s->t, s->n);
    return s->n > RECORDCHECK_TARGETS_MAX;
}

const char *rci_target_kind_name(int kind)
{
    static const char *const kinds[] = {"a SASS target", "a PTX target", "an LTO target",
                                        "an AMD target"};
    return kind >= 0 && kind < 4 ? kinds[kind] : "a target name";
}

/* "binaries[0].ptx: more than 512 distinct targets" (in the list), with
 * " in the record" when the record's total went over there (field NULL:
 * found at the end). */
int rci_too_many(struct wa_error *err, const char *field, int whole_record)
{
    return wa_error_set(err, WA_ERR_FORMAT, "%s%smore than %d distinct targets%s",
                        field ? field : "", field ? ": " : "", RECORDCHECK_TARGETS_MAX,
                        whole_record ? " in the record" : "");
}

int recordcheck_too_many(const char *field, int whole_record, struct wa_error *err)
{
    return rci_too_many(err, field, whole_record);
}

/* ---- the rules with their messages, for values held outside JSON ---- */

int recordcheck_check_text(const char *s, const char *field, size_t max, int (*rule)(const char *),
                           const char *what, struct wa_error *err)
{
    if (!s)
        return 0;
    int rc = too_long(err, field, strlen(s), max);
    if (rc < 0)
        return rc;
    if (!recordcheck_line_valid(s, max) || (rule && !rule(s)))
        return rci_bad_value(err, field, s, what);
    return 0;
}

int rci_url_userinfo(const char *s, size_t len, const char *field, struct wa_error *err)
{
    if (!s || len > URL_MAX || !indexurl_has_userinfo(s, NULL))
        return 0;
    char red[URL_MAX + 1], q[SHOWN * 4 + 8];
    indexurl_redact(s, red, sizeof red);
    return wa_error_set(err, WA_ERR_FORMAT,
                        "%s \"%s\" holds user info (user:password@), which wheelarch never "
                        "stores: give credentials to the crawl (wheelarch.json or ~/.netrc)",
                        field, recordcheck_quote(q, sizeof q, red, SHOWN));
}

int recordcheck_check_url(const char *s, const char *field, int (*rule)(const char *),
                          const char *what, struct wa_error *err)
{
    int rc = rci_url_userinfo(s, s ? strlen(s) : 0, field, err);
    return rc < 0 ? rc : recordcheck_check_text(s, field, URL_MAX, rule, what, err);
}

int recordcheck_check_int(long long v, const char *field, long long max, struct wa_error *err)
{
    if (v < 0 || v > max)
        return wa_error_set(err, WA_ERR_FORMAT, "%s is %lld, not between 0 and %lld", field, v,
                            max);
    return 0;
}

int recordcheck_check_target(const struct target *t, const char *field, int kind,
                             struct target *out, struct wa_error *err)
{
    char name[TARGET_NAME_MAX];
    target_format(t, name, sizeof name);
    return recordcheck_check_target_name(name, field, kind, out, err);
}

int recordcheck_check_target_name(const char *name, const char *field, int kind, struct target *out,
                                  struct wa_error *err)
{
    struct target p;
    if (!rci_target_ok(name, -1, &p))
        return rci_bad_value(err, field, name, "a target name");
    if (kind >= 0 && p.kind != kind)
        return rci_bad_value(err, field, name, rci_target_kind_name(kind));
    if (out)
        *out = p;
    return 0;
}

int recordcheck_refuse(const char *field, const char *s, const char *what, struct wa_error *err)
{
    return rci_bad_value(err, field, s, what);
}

int recordcheck_check_epoch(const char *filename, const struct wheel_name *name,
                            struct wa_error *err)
{
    struct dotver ver;
    if (dotver_parse(name->public_version, &ver) != 0 || !ver.epoch)
        return 0;
    char q[SHOWN * 4 + 8];
    return wa_error_set(err, WA_ERR_FORMAT,
                        "filename \"%s\": its version has an epoch (N!); wheelarch stores "
                        "none: no index it reads publishes one, and the '!' of its pin is "
                        "history expansion when pasted into interactive bash or zsh",
                        recordcheck_quote(q, sizeof q, filename, SHOWN));
}
