/*
 * recordcheck: validate database records before use.
 *
 * Every check returns 0 or sets err and returns WA_ERR_FORMAT; the first
 * problem found is the one reported.  Field names in messages are paths
 * into the record ("binaries[2].targets.sm_90.bytes"); values are quoted
 * with wa_quote and cut short, so a message is one safe line whatever the
 * record holds.
 */
#include "recordcheck.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "wheelkey.h"
#include "target.h"
#include "variant.h"
#include "wheelmeta.h"
#include "wheelname.h"

#define SHOWN 80 /* bytes of a bad value quoted in a message (a whole key) */
#define COUNT_MAX ((json_int_t)INT32_MAX) /* modules, entries */
#define BYTES_MAX ((json_int_t)1 << 53)   /* sizes in bytes */
#define TEXT_MAX 65536                    /* free text: warnings, arch flags */
#define SHORT_TEXT_MAX 4096               /* member paths, yanked reasons */
#define URL_MAX 8192
#define FIELD_MAX 160 /* a field path in a message */

/* ---- characters ----------------------------------------------------------- */

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
static int all_of(const char *s, const char *extra)
{
    for (; *s; s++)
        if (!is_alnum(*s) && !strchr(extra, *s))
            return 0;
    return 1;
}

/* Text that may reach any page, feed or terminal: at most max bytes, no NUL
 * (json_string_length tells), no C0 or C1 control characters, no DEL, no
 * U+FFFE / U+FFFF (not allowed in XML).  jansson already guarantees valid
 * UTF-8. */
static int text_ok(json_t *v, size_t max)
{
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    if (!s || n > max || strlen(s) != n)
        return 0;
    const unsigned char *p = (const unsigned char *)s;
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

/* ---- messages ------------------------------------------------------------- */

static const char *type_name(json_t *v)
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

static int bad_type(struct wa_error *err, const char *field, json_t *v, const char *want)
{
    if (!v)
        return wa_error_set(err, WA_ERR_FORMAT, "%s is missing", field);
    return wa_error_set(err, WA_ERR_FORMAT, "%s is %s, not %s", field, type_name(v), want);
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
static int too_long(struct wa_error *err, const char *field, json_t *v, size_t max)
{
    size_t n = json_string_length(v);
    if (n <= max)
        return 0;
    return wa_error_set(err, WA_ERR_FORMAT, "%s is %zu bytes long; at most %zu are allowed", field,
                        n, max);
}

static int bad_value(struct wa_error *err, const char *field, const char *s, const char *what)
{
    char q[SHOWN * 4 + 8];
    return wa_error_set(err, WA_ERR_FORMAT, "%s \"%s\" is not %s", field,
                        recordcheck_quote(q, sizeof q, s, SHOWN), what);
}

/* Writes a field path for messages into buf (FIELD_MAX bytes): parent,
 * then fmt, whose only conversions are %s and %zu (what vsnprintf would
 * write; a record's check makes a path for each of its fields, so this
 * skips printf).  A very long path is cut, as messages may be. */
__attribute__((format(printf, 3, 4))) static const char *subfield(char *buf, const char *parent,
                                                                  const char *fmt, ...)
{
    size_t n = strlen(parent);
    if (n >= FIELD_MAX)
        n = FIELD_MAX - 1;
    memcpy(buf, parent, n);
    va_list ap;
    va_start(ap, fmt);
    for (const char *p = fmt; *p && n < FIELD_MAX - 1; p++) {
        if (p[0] == '%' && p[1] == 's') {
            for (const char *s = va_arg(ap, const char *); *s && n < FIELD_MAX - 1; s++)
                buf[n++] = *s;
            p++;
        } else if (p[0] == '%' && p[1] == 'z' && p[2] == 'u') {
            char digits[20];
            size_t k = strbuf_decimal(va_arg(ap, size_t), digits);
            for (size_t i = 0; i < k && n < FIELD_MAX - 1; i++)
                buf[n++] = digits[i];
            p += 2;
        } else {
            buf[n++] = *p;
        }
    }
    va_end(ap);
    buf[n] = '\0';
    return buf;
}

/* A string value, or NULL when v is not one (bad_type reports it). */
static const char *str(json_t *v)
{
    return json_string_value(v);
}

/* ---- single rules --------------------------------------------------------- */

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
    return is_alnum(s[0]) && all_of(s, "._+-");
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
    return 1;
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
    return all_of(s + pub + 1, "._");
}

static int public_version_ok(const char *s)
{
    return version_ok(s, 0);
}

static int full_version_ok(const char *s)
{
    return version_ok(s, 1);
}

/* A wheel tag or tag set: "cp312", "manylinux_2_28_x86_64", "py2.py3". */
static int tag_ok(const char *s)
{
    size_t n = strlen(s);
    return n > 0 && n <= 200 && all_of(s, "._");
}

static int platform_id_ok(const char *s)
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
static int datetime_ok(const char *s)
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
static int parse_filename(json_t *v, struct wheel_name *w)
{
    const char *s = str(v);
    if (!text_ok(v, 255) || strchr(s, '/') || strchr(s, '\\'))
        return -1;
    return wheelname_parse(s, w, NULL) < 0 ? -1 : 0;
}

static int filename_ok(json_t *v)
{
    struct wheel_name w;
    if (parse_filename(v, &w) < 0)
        return 0;
    wheelname_free(&w);
    return 1;
}

/* The parsed name a record carries ("wheel") is the parse of its file
 * name: pages take the project, version and platform from one, the
 * database's columns from the other, and they must not disagree. */
static int wheel_matches(json_t *w, const struct wheel_name *n, struct wa_error *err)
{
    const char *field = NULL;
    if (strcmp(str(json_object_get(w, "normalized_name")), n->normalized) != 0)
        field = "wheel.normalized_name";
    else if (strcmp(str(json_object_get(w, "public_version")), n->public_version) != 0)
        field = "wheel.public_version";
    else if (json_is_string(json_object_get(w, "platform_id")) &&
             strcmp(str(json_object_get(w, "platform_id")), wheelname_platform_id(n->platform)) !=
                 0)
        field = "wheel.platform_id";
    return field ? bad_value(err, field, str(json_object_get(w, field + 6)),
                             "what the file name says")
                 : 0;
}

static int codec_ok(const char *s)
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
static int isa_ok(const char *s)
{
    size_t a = strspn(s, "0123456789");
    if (a == 0 || a > 3 || s[a] != '.')
        return 0;
    size_t b = strspn(s + a + 1, "0123456789");
    return b > 0 && b <= 3 && s[a + 1 + b] == '\0';
}

/* A canonical target name of the given kind (-1: any); parsed into *out
 * (may be NULL). */
static int target_ok(const char *s, int kind, struct target *out)
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

/* Distinct targets seen so far, in one list or in a whole record: a
 * buffer of twice the cap, compacted (sorted, duplicates dropped) whenever
 * it fills, so time and memory stay bounded however often a record repeats
 * a name.  Canonical names and parsed targets correspond one to one, so
 * distinct targets are distinct names. */
struct seen {
    struct target t[2 * RECORDCHECK_TARGETS_MAX];
    size_t n;
};

/* Adds t; returns 0, or -1 once more than RECORDCHECK_TARGETS_MAX distinct
 * targets were seen. */
static int seen_add(struct seen *s, const struct target *t)
{
    if (s->n == sizeof s->t / sizeof s->t[0]) {
        s->n = target_sort_unique(s->t, s->n);
        if (s->n > RECORDCHECK_TARGETS_MAX)
            return -1;
    }
    s->t[s->n++] = *t;
    return 0;
}

static int seen_over(struct seen *s)
{
    s->n = target_sort_unique(s->t, s->n);
    return s->n > RECORDCHECK_TARGETS_MAX;
}

/* "binaries[0].ptx: more than 512 distinct targets" (in the list), with
 * " in the record" when the record's total went over there (field NULL:
 * found at the end). */
static int too_many(struct wa_error *err, const char *field, int whole_record)
{
    return wa_error_set(err, WA_ERR_FORMAT, "%s%smore than %d distinct targets%s",
                        field ? field : "", field ? ": " : "", RECORDCHECK_TARGETS_MAX,
                        whole_record ? " in the record" : "");
}

/* ---- field checks --------------------------------------------------------- */

enum presence { OPTIONAL = 0, REQUIRED = 1 };

/* A field that must be a string (or, when optional, missing or null). */
static int get_string(json_t *o, const char *key, const char *field, enum presence p, json_t **out,
                      struct wa_error *err)
{
    json_t *v = json_object_get(o, key);
    *out = NULL;
    if ((!v || json_is_null(v)) && p == OPTIONAL)
        return 0;
    if (!json_is_string(v))
        return bad_type(err, field, v, "a string");
    *out = v;
    return 0;
}

typedef int (*rule_fn)(const char *s);

/* An optional array of strings v, named field (absent and null are
 * accepted): at most max_items of them (0: any number), each one line of
 * at most max_len bytes that rule (when given) accepts. */
static int check_string_list(json_t *v, const char *field, size_t max_items, size_t max_len,
                             rule_fn rule, const char *what, struct wa_error *err)
{
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_array(v))
        return bad_type(err, field, v, "an array of strings");
    if (max_items && json_array_size(v) > max_items)
        return wa_error_set(err, WA_ERR_FORMAT, "%s: more than %zu entries", field, max_items);
    size_t i;
    json_t *x;
    json_array_foreach(v, i, x)
    {
        char f[FIELD_MAX];
        subfield(f, field, "[%zu]", i);
        if (!json_is_string(x))
            return bad_type(err, f, x, "a string");
        int rc = too_long(err, f, x, max_len);
        if (rc < 0)
            return rc;
        if (!text_ok(x, max_len) || (rule && !rule(str(x))))
            return bad_value(err, f, str(x), what);
    }
    return 0;
}

/* A string field: text, then the rule. */
static int check_string(json_t *o, const char *key, const char *field, enum presence p, size_t max,
                        rule_fn rule, const char *what, struct wa_error *err)
{
    json_t *v;
    int rc = get_string(o, key, field, p, &v, err);
    if (rc < 0 || !v)
        return rc;
    if ((rc = too_long(err, field, v, max)) < 0)
        return rc;
    if (!text_ok(v, max) || (rule && !rule(str(v))))
        return bad_value(err, field, str(v), what);
    return 0;
}

static int check_int(json_t *v, const char *field, enum presence p, json_int_t max,
                     struct wa_error *err)
{
    if ((!v || json_is_null(v)) && p == OPTIONAL)
        return 0;
    if (!json_is_integer(v))
        return bad_type(err, field, v, "an integer");
    json_int_t x = json_integer_value(v);
    if (x < 0 || x > max)
        return wa_error_set(err, WA_ERR_FORMAT, "%s is %lld, not between 0 and %lld", field,
                            (long long)x, (long long)max);
    return 0;
}

static int check_bool(json_t *v, const char *field, struct wa_error *err)
{
    if (!v || json_is_null(v) || json_is_boolean(v))
        return 0;
    return bad_type(err, field, v, "a boolean");
}

/* An array of target names of one kind (-1: any), at most
 * RECORDCHECK_TARGETS_MAX distinct ones; each is added to rec, the targets
 * of the whole record. */
static int check_targets(json_t *arr, const char *field, enum presence p, int kind,
                         struct seen *rec, struct wa_error *err)
{
    if ((!arr || json_is_null(arr)) && p == OPTIONAL)
        return 0;
    if (!json_is_array(arr))
        return bad_type(err, field, arr, "an array of target names");
    static const char *const kinds[] = {"a SASS target", "a PTX target", "an LTO target",
                                        "an AMD target"};
    struct seen list;
    list.n = 0;
    int rc = 0;
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x)
    {
        struct target t;
        if (!json_is_string(x)) {
            char f[FIELD_MAX];
            subfield(f, field, "[%zu]", i);
            rc = bad_type(err, f, x, "a string");
        } else if (!target_ok(str(x), -1, &t)) {
            rc = bad_value(err, field, str(x), "a target name");
        } else if (kind >= 0 && t.kind != kind) {
            rc = bad_value(err, field, str(x), kinds[kind]);
        } else if (seen_add(&list, &t) < 0) {
            rc = too_many(err, field, 0);
        } else if (seen_add(rec, &t) < 0) {
            rc = too_many(err, field, 1);
        }
        if (rc < 0)
            break;
    }
    if (rc == 0 && seen_over(&list))
        rc = too_many(err, field, 0);
    return rc;
}

static int check_wheel(json_t *w, struct wa_error *err)
{
    if (!json_is_object(w))
        return bad_type(err, "wheel", w, "an object");
    int rc;
    json_t *project, *norm;
    if ((rc = check_string(w, "project", "wheel.project", REQUIRED, 200, tag_ok, "a project name",
                           err)) < 0 ||
        (rc = check_string(w, "normalized_name", "wheel.normalized_name", REQUIRED, 200,
                           recordcheck_project_valid, "a normalized project name", err)) < 0)
        return rc;
    project = json_object_get(w, "project");
    norm = json_object_get(w, "normalized_name");
    char *want = wheelname_normalize(str(project));
    int same = strcmp(want, str(norm)) == 0;
    free(want);
    if (!same)
        return bad_value(err, "wheel.normalized_name", str(norm),
                         "the normalized form of wheel.project");
    if ((rc = check_string(w, "public_version", "wheel.public_version", REQUIRED, 128,
                           public_version_ok, "a version", err)) < 0 ||
        (rc = check_string(w, "version", "wheel.version", OPTIONAL, 128, full_version_ok,
                           "a version", err)) < 0)
        return rc;
    const char *pub = str(json_object_get(w, "public_version"));
    const char *ver = str(json_object_get(w, "version"));
    size_t pl = strlen(pub);
    if (ver && (strncmp(ver, pub, pl) != 0 || (ver[pl] != '\0' && ver[pl] != '+')))
        return bad_value(err, "wheel.version", ver, "wheel.public_version with a local label");
    if ((rc = check_string(w, "local", "wheel.local", OPTIONAL, 128, tag_ok, "a local label",
                           err)) < 0 ||
        (rc = check_string(w, "build", "wheel.build", OPTIONAL, 64, tag_ok, "a build tag", err)) <
            0 ||
        (rc = check_string(w, "python", "wheel.python", OPTIONAL, 200, tag_ok, "a wheel tag",
                           err)) < 0 ||
        (rc = check_string(w, "abi", "wheel.abi", OPTIONAL, 200, tag_ok, "a wheel tag", err)) < 0 ||
        (rc = check_string(w, "platform", "wheel.platform", OPTIONAL, 200, tag_ok, "a wheel tag",
                           err)) < 0 ||
        (rc = check_string(w, "platform_id", "wheel.platform_id", REQUIRED, 32, platform_id_ok,
                           "a platform id", err)) < 0)
        return rc;
    json_t *fn;
    if ((rc = get_string(w, "filename", "wheel.filename", OPTIONAL, &fn, err)) < 0)
        return rc;
    if (fn && !filename_ok(fn))
        return bad_value(err, "wheel.filename", str(fn), "a wheel file name");
    return 0;
}

/* binaries[i].targets: {name: {modules, entries, bytes, ..., codecs, isa}},
 * names added to rec. */
static int check_target_stats(json_t *o, const char *field, struct seen *rec, struct wa_error *err)
{
    if (!o || json_is_null(o))
        return 0;
    if (!json_is_object(o))
        return bad_type(err, field, o, "an object");
    if (json_object_size(o) > RECORDCHECK_TARGETS_MAX) /* keys are distinct */
        return too_many(err, field, 0);
    const char *name;
    json_t *tv;
    json_object_foreach(o, name, tv)
    {
        struct target t;
        if (!target_ok(name, -1, &t))
            return bad_value(err, field, name, "a target name");
        if (seen_add(rec, &t) < 0)
            return too_many(err, field, 1);
        char f[FIELD_MAX];
        subfield(f, field, ".%s", name);
        if (!json_is_object(tv))
            return bad_type(err, f, tv, "an object");
        static const char *const counts[] = {"modules", "library_modules", "entries", NULL};
        static const char *const sizes[] = {"bytes", "uncompressed_bytes", NULL};
        /* the scanner's keys, nothing else: a target object is small and
         * fixed, so an unknown key is a record made by something else */
        static const char *const known[] = {
            "modules", "library_modules", "entries", "bytes", "uncompressed_bytes", "codecs", "isa",
            NULL};
        const char *key;
        json_t *kv;
        json_object_foreach(tv, key, kv)
        {
            const char *const *k = known;
            while (*k && strcmp(*k, key) != 0)
                k++;
            if (!*k) {
                char q[SHOWN * 4 + 8];
                return wa_error_set(err, WA_ERR_FORMAT, "%s has an unknown key \"%s\"", f,
                                    recordcheck_quote(q, sizeof q, key, SHOWN));
            }
        }
        int rc;
        for (const char *const *k = counts; *k; k++) {
            char g[FIELD_MAX];
            subfield(g, f, ".%s", *k);
            if ((rc = check_int(json_object_get(tv, *k), g, OPTIONAL, COUNT_MAX, err)) < 0)
                return rc;
        }
        for (const char *const *k = sizes; *k; k++) {
            char g[FIELD_MAX];
            subfield(g, f, ".%s", *k);
            if ((rc = check_int(json_object_get(tv, *k), g, OPTIONAL, BYTES_MAX, err)) < 0)
                return rc;
        }
        char g[FIELD_MAX];
        subfield(g, f, ".isa");
        if ((rc = check_string(tv, "isa", g, OPTIONAL, 16, isa_ok, "a PTX ISA version", err)) < 0)
            return rc;
        json_t *codecs = json_object_get(tv, "codecs");
        subfield(g, f, ".codecs");
        if (codecs && !json_is_null(codecs)) {
            if (!json_is_array(codecs))
                return bad_type(err, g, codecs, "an array of codec names");
            size_t i;
            json_t *c;
            json_array_foreach(codecs, i, c)
            {
                if (!json_is_string(c))
                    return bad_type(err, g, c, "a codec name");
                if (!codec_ok(str(c)))
                    return bad_value(err, g, str(c), "a codec name");
            }
        }
    }
    return 0;
}

static int check_binary(json_t *b, size_t i, struct seen *rec, struct wa_error *err)
{
    char f[FIELD_MAX], g[FIELD_MAX];
    subfield(f, "binaries", "[%zu]", i);
    if (!json_is_object(b))
        return bad_type(err, f, b, "an object");
    int rc;
    /* The path of a member inside the wheel: any text (quotes, markup and
     * spaces included; pages escape it), but one bounded line. */
    subfield(g, f, ".path");
    if ((rc = check_string(b, "path", g, REQUIRED, SHORT_TEXT_MAX, NULL, "a member path", err)) < 0)
        return rc;
    if (!str(json_object_get(b, "path"))[0])
        return wa_error_set(err, WA_ERR_FORMAT, "%s is empty", g);
    subfield(g, f, ".format");
    if ((rc = check_string(b, "format", g, OPTIONAL, 16, codec_ok, "a binary format", err)) < 0)
        return rc;
    static const char *const counts[] = {"modules", "dlink_modules", "library_modules", NULL};
    for (const char *const *k = counts; *k; k++) {
        subfield(g, f, ".%s", *k);
        if ((rc = check_int(json_object_get(b, *k), g, OPTIONAL, COUNT_MAX, err)) < 0)
            return rc;
    }
    subfield(g, f, ".size");
    if ((rc = check_int(json_object_get(b, "size"), g, OPTIONAL, BYTES_MAX, err)) < 0)
        return rc;
    static const char *const lists[] = {"sass", "ptx", "lto", "gfx"};
    for (int k = 0; k < 4; k++) {
        subfield(g, f, ".%s", lists[k]);
        if ((rc = check_targets(json_object_get(b, lists[k]), g, OPTIONAL, k, rec, err)) < 0)
            return rc;
    }
    json_t *sets = json_object_get(b, "module_sets");
    subfield(g, f, ".module_sets");
    if (sets && !json_is_null(sets)) {
        if (!json_is_array(sets))
            return bad_type(err, g, sets, "an array");
        size_t k;
        json_t *s;
        json_array_foreach(sets, k, s)
        {
            char h[FIELD_MAX];
            subfield(h, g, "[%zu]", k);
            if (!json_is_object(s))
                return bad_type(err, h, s, "an object");
            char m[FIELD_MAX];
            subfield(m, h, ".modules");
            if ((rc = check_int(json_object_get(s, "modules"), m, OPTIONAL, COUNT_MAX, err)) < 0)
                return rc;
            subfield(m, h, ".targets");
            if ((rc = check_targets(json_object_get(s, "targets"), m, REQUIRED, -1, rec, err)) < 0)
                return rc;
        }
    }
    subfield(g, f, ".targets");
    if ((rc = check_target_stats(json_object_get(b, "targets"), g, rec, err)) < 0)
        return rc;
    json_t *comp = json_object_get(b, "compression");
    subfield(g, f, ".compression");
    if (comp && !json_is_null(comp)) {
        if (!json_is_object(comp))
            return bad_type(err, g, comp, "an object");
        const char *codec;
        json_t *n;
        json_object_foreach(comp, codec, n)
        {
            if (!codec_ok(codec))
                return bad_value(err, g, codec, "a codec name");
            char h[FIELD_MAX];
            subfield(h, g, ".%s", codec);
            if ((rc = check_int(n, h, REQUIRED, COUNT_MAX, err)) < 0)
                return rc;
        }
    }
    json_t *decl = json_object_get(b, "declared");
    subfield(g, f, ".declared");
    if (decl && !json_is_null(decl)) {
        if (!json_is_object(decl))
            return bad_type(err, g, decl, "an object");
        char h[FIELD_MAX];
        subfield(h, g, ".sass");
        if ((rc = check_targets(json_object_get(decl, "sass"), h, OPTIONAL, TARGET_SASS, rec,
                                err)) < 0)
            return rc;
        subfield(h, g, ".ptx");
        if ((rc = check_targets(json_object_get(decl, "ptx"), h, OPTIONAL, TARGET_PTX, rec, err)) <
            0)
            return rc;
    }
    subfield(g, f, ".arch_flags");
    if ((rc = check_string_list(json_object_get(b, "arch_flags"), g, 0, TEXT_MAX, NULL,
                                "one line of text", err)) < 0)
        return rc;
    subfield(g, f, ".warnings");
    return check_string_list(json_object_get(b, "warnings"), g, 0, TEXT_MAX, NULL,
                             "one line of text", err);
}

static int key_ok(const char *s)
{
    return wheelkey_valid(s);
}

static int sha256_ok(const char *s)
{
    return wheelkey_sha256_valid(s);
}

static int status_ok(const char *s)
{
    return strcmp(s, "scanned") == 0 || strcmp(s, "inferred") == 0;
}

static int variant_source_ok(const char *s)
{
    return variant_how_valid(s);
}

/* An index's id: its last path segment ("cu128", "simple"). */
static int index_id_ok(const char *s)
{
    return *s && !strpbrk(s, " /\\");
}

static int version_text_ok(const char *s)
{
    return *s && all_of(s, ".+-_");
}

/* recordcheck_validate's checks of the targets and binaries of rec. */
static int check_targets_and_binaries(json_t *rec, struct seen *all, struct wa_error *err)
{
    int rc;
    static const char *const lists[] = {"sass", "ptx", "lto", "gfx"};
    for (int k = 0; k < 4; k++)
        if ((rc = check_targets(json_object_get(rec, lists[k]), lists[k], OPTIONAL, k, all, err)) <
            0)
            return rc;
    json_t *bins = json_object_get(rec, "binaries");
    if (bins && !json_is_null(bins)) {
        if (!json_is_array(bins))
            return bad_type(err, "binaries", bins, "an array");
        size_t i;
        json_t *b;
        json_array_foreach(bins, i, b)
        {
            if ((rc = check_binary(b, i, all, err)) < 0)
                return rc;
        }
    }
    return 0;
}

int recordcheck_text(const char *text, size_t len, struct wa_error *err)
{
    /* A value takes a byte and a separator: a shorter text cannot hold
     * too many (the records of a build are read at no cost). */
    if (len < 2 * (size_t)RECORDCHECK_VALUES_MAX)
        return 0;
    /* Every value but the first follows a '[', '{', ',' or ':' outside a
     * string: their count bounds the values from above. */
    size_t values = 1;
    int in_string = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = text[i];
        if (in_string) {
            if (ch == '\\')
                i++;
            else if (ch == '"')
                in_string = 0;
        } else if (ch == '"') {
            in_string = 1;
        } else if (ch == '[' || ch == '{' || ch == ',' || ch == ':') {
            if (++values > RECORDCHECK_VALUES_MAX)
                return wa_error_set(err, WA_ERR_FORMAT,
                                    "the record holds more than %d JSON values (a wheel's holds a "
                                    "few thousand)",
                                    RECORDCHECK_VALUES_MAX);
        }
    }
    return 0;
}

int recordcheck_validate(const char *key, json_t *rec, struct wa_error *err)
{
    char q[SHOWN * 4 + 8];
    if (!key || !wheelkey_valid(key))
        return wa_error_set(err, WA_ERR_FORMAT, "\"%s\" is not a record key",
                            recordcheck_quote(q, sizeof q, key ? key : "", SHOWN));
    if (!json_is_object(rec))
        return wa_error_set(err, WA_ERR_FORMAT, "the record is %s, not an object", type_name(rec));
    int rc;
    json_t *v;
    if ((rc = get_string(rec, "key", "key", REQUIRED, &v, err)) < 0)
        return rc;
    if (strcmp(str(v), key) != 0)
        return wa_error_set(err, WA_ERR_FORMAT,
                            "the record's \"key\" is not the key it is stored under (%s)", key);
    if ((rc = check_string(rec, "status", "status", REQUIRED, 16, status_ok,
                           "\"scanned\" or \"inferred\"", err)) < 0 ||
        (rc = check_string(rec, "variant", "variant", REQUIRED, 64, recordcheck_variant_valid,
                           "a variant id", err)) < 0 ||
        (rc = check_wheel(json_object_get(rec, "wheel"), err)) < 0)
        return rc;
    if ((rc = get_string(rec, "filename", "filename", REQUIRED, &v, err)) < 0)
        return rc;
    struct wheel_name name; /* parsed once: checked, then compared with "wheel" */
    if (parse_filename(v, &name) < 0)
        return bad_value(err, "filename", str(v), "a wheel file name");
    rc = wheel_matches(json_object_get(rec, "wheel"), &name, err);
    wheelname_free(&name);
    if (rc < 0)
        return rc;
    if ((rc = check_string(rec, "url", "url", OPTIONAL, URL_MAX, recordcheck_url_valid,
                           "an http(s) URL", err)) < 0 ||
        (rc = check_string(rec, "index_url", "index_url", OPTIONAL, URL_MAX, recordcheck_url_valid,
                           "an http(s) URL", err)) < 0 ||
        (rc = check_string(rec, "sha256", "sha256", OPTIONAL, 64, sha256_ok, "a sha256", err)) <
            0 ||
        (rc = check_string(rec, "index_sha256", "index_sha256", OPTIONAL, 64, sha256_ok, "a sha256",
                           err)) < 0 ||
        (rc = check_string(rec, "inferred_from", "inferred_from", OPTIONAL, 68, key_ok,
                           "a record key", err)) < 0 ||
        (rc = check_string(rec, "scanned_at", "scanned_at", OPTIONAL, 10, recordcheck_date_valid,
                           "a date (YYYY-MM-DD)", err)) < 0 ||
        (rc = check_string(rec, "upload_time", "upload_time", OPTIONAL, 40, datetime_ok,
                           "an ISO 8601 time", err)) < 0 ||
        (rc = check_string(rec, "variant_source", "variant_source", OPTIONAL, 16, variant_source_ok,
                           "name, label, url, index, release or rule", err)) < 0 ||
        (rc = check_string(rec, "index", "index", OPTIONAL, 128, index_id_ok, "an index id", err)) <
            0 ||
        (rc = check_string(rec, "wheelarch_version", "wheelarch_version", OPTIONAL, 32,
                           version_text_ok, "a version", err)) < 0 ||
        (rc = check_string(rec, "requires_python", "requires_python", OPTIONAL, SHORT_TEXT_MAX,
                           NULL, "one line of text", err)) < 0 ||
        (rc = check_int(json_object_get(rec, "size"), "size", OPTIONAL, BYTES_MAX, err)) < 0 ||
        (rc = check_bool(json_object_get(rec, "sha256_verified"), "sha256_verified", err)) < 0)
        return rc;
    v = json_object_get(rec, "yanked");
    if (v && !json_is_null(v) && !json_is_boolean(v)) {
        if (!json_is_string(v))
            return bad_type(err, "yanked", v, "a string or a boolean");
        if ((rc = too_long(err, "yanked", v, SHORT_TEXT_MAX)) < 0)
            return rc;
        if (!text_ok(v, SHORT_TEXT_MAX))
            return bad_value(err, "yanked", str(v), "one line of text");
    }
    /* The indexes that list the wheel; its Requires-Dist (null: no
     * METADATA was read). */
    if ((rc = check_string_list(json_object_get(rec, "indexes"), "indexes", 0, 128, index_id_ok,
                                "an index id", err)) < 0 ||
        (rc = check_string_list(json_object_get(rec, "requires_dist"), "requires_dist",
                                WHEELMETA_MAX_REQUIRES, WHEELMETA_MAX_FIELD, NULL,
                                "one line of text", err)) < 0)
        return rc;
    /* The distinct targets of the whole record, over all its lists. */
    struct seen all;
    all.n = 0;
    rc = check_targets_and_binaries(rec, &all, err);
    if (rc == 0 && seen_over(&all))
        rc = too_many(err, NULL, 1);
    return rc;
}
