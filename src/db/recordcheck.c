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
#include "recordcheck_fields.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "indexurl.h"
#include "strbuf.h"
#include "wheelkey.h"
#include "target.h"
#include "variant.h"
#include "wheelmeta.h"
#include "wheelname.h"

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
        return rci_bad_type(err, field, v, "a string");
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
        return rci_bad_type(err, field, v, "an array of strings");
    if (max_items && json_array_size(v) > max_items)
        return wa_error_set(err, WA_ERR_FORMAT, "%s: more than %zu entries", field, max_items);
    size_t i;
    json_t *x;
    json_array_foreach(v, i, x)
    {
        char f[FIELD_MAX];
        subfield(f, field, "[%zu]", i);
        if (!json_is_string(x))
            return rci_bad_type(err, f, x, "a string");
        int rc = rci_too_long(err, f, x, max_len);
        if (rc < 0)
            return rc;
        if (!rci_text_ok(x, max_len) || (rule && !rule(rci_str(x))))
            return rci_bad_value(err, f, rci_str(x), what);
    }
    return 0;
}

/* A URL field: with user info ("https://user:token@host/...") refused
 * without showing it, else a string field of the rule. */
static int check_url_field(json_t *o, const char *key, size_t max, rule_fn rule, const char *what,
                           struct wa_error *err);

/* A string field: text, then the rule. */
static int check_string(json_t *o, const char *key, const char *field, enum presence p, size_t max,
                        rule_fn rule, const char *what, struct wa_error *err)
{
    json_t *v;
    int rc = get_string(o, key, field, p, &v, err);
    if (rc < 0 || !v)
        return rc;
    if ((rc = rci_too_long(err, field, v, max)) < 0)
        return rc;
    if (!rci_text_ok(v, max) || (rule && !rule(rci_str(v))))
        return rci_bad_value(err, field, rci_str(v), what);
    return 0;
}

static int check_url_field(json_t *o, const char *key, size_t max, rule_fn rule, const char *what,
                           struct wa_error *err)
{
    json_t *v = json_object_get(o, key);
    int rc = rci_url_userinfo(json_string_value(v), json_string_length(v), key, err);
    return rc < 0 ? rc : check_string(o, key, key, OPTIONAL, max, rule, what, err);
}

static int check_int(json_t *v, const char *field, enum presence p, json_int_t max,
                     struct wa_error *err)
{
    if ((!v || json_is_null(v)) && p == OPTIONAL)
        return 0;
    if (!json_is_integer(v))
        return rci_bad_type(err, field, v, "an integer");
    return recordcheck_check_int((long long)json_integer_value(v), field, (long long)max, err);
}

static int check_bool(json_t *v, const char *field, struct wa_error *err)
{
    if (!v || json_is_null(v) || json_is_boolean(v))
        return 0;
    return rci_bad_type(err, field, v, "a boolean");
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
        return rci_bad_type(err, field, arr, "an array of target names");
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
            rc = rci_bad_type(err, f, x, "a string");
        } else if (!rci_target_ok(rci_str(x), -1, &t)) {
            rc = rci_bad_value(err, field, rci_str(x), "a target name");
        } else if (kind >= 0 && t.kind != kind) {
            rc = rci_bad_value(err, field, rci_str(x), rci_target_kind_name(kind));
        } else if (rci_seen_add(&list, &t) < 0) {
            rc = rci_too_many(err, field, 0);
        } else if (rci_seen_add(rec, &t) < 0) {
            rc = rci_too_many(err, field, 1);
        }
        if (rc < 0)
            break;
    }
    if (rc == 0 && rci_seen_over(&list))
        rc = rci_too_many(err, field, 0);
    return rc;
}

static int check_wheel(json_t *w, struct wa_error *err)
{
    if (!json_is_object(w))
        return rci_bad_type(err, "wheel", w, "an object");
    int rc;
    json_t *project, *norm;
    if ((rc = check_string(w, "project", "wheel.project", REQUIRED, 200, rci_tag_ok,
                           "a project name", err)) < 0 ||
        (rc = check_string(w, "normalized_name", "wheel.normalized_name", REQUIRED, 200,
                           recordcheck_project_valid, "a normalized project name", err)) < 0)
        return rc;
    project = json_object_get(w, "project");
    norm = json_object_get(w, "normalized_name");
    char *want = wheelname_normalize(rci_str(project));
    int same = strcmp(want, rci_str(norm)) == 0;
    free(want);
    if (!same)
        return rci_bad_value(err, "wheel.normalized_name", rci_str(norm),
                             "the normalized form of wheel.project");
    if ((rc = check_string(w, "public_version", "wheel.public_version", REQUIRED, 128,
                           rci_public_version_ok, "a version", err)) < 0 ||
        (rc = check_string(w, "version", "wheel.version", OPTIONAL, 128, rci_full_version_ok,
                           "a version", err)) < 0)
        return rc;
    const char *pub = rci_str(json_object_get(w, "public_version"));
    const char *ver = rci_str(json_object_get(w, "version"));
    size_t pl = strlen(pub);
    if (ver && (strncmp(ver, pub, pl) != 0 || (ver[pl] != '\0' && ver[pl] != '+')))
        return rci_bad_value(err, "wheel.version", ver, "wheel.public_version with a local label");
    if ((rc = check_string(w, "local", "wheel.local", OPTIONAL, 128, rci_tag_ok, "a local label",
                           err)) < 0 ||
        (rc = check_string(w, "build", "wheel.build", OPTIONAL, 64, rci_tag_ok, "a build tag",
                           err)) < 0 ||
        (rc = check_string(w, "python", "wheel.python", OPTIONAL, 200, rci_tag_ok, "a wheel tag",
                           err)) < 0 ||
        (rc = check_string(w, "abi", "wheel.abi", OPTIONAL, 200, rci_tag_ok, "a wheel tag", err)) <
            0 ||
        (rc = check_string(w, "platform", "wheel.platform", OPTIONAL, 200, rci_tag_ok,
                           "a wheel tag", err)) < 0 ||
        (rc = check_string(w, "platform_id", "wheel.platform_id", REQUIRED, 32, rci_platform_id_ok,
                           "a platform id", err)) < 0)
        return rc;
    json_t *fn;
    if ((rc = get_string(w, "filename", "wheel.filename", OPTIONAL, &fn, err)) < 0)
        return rc;
    if (fn && !rci_filename_ok(fn))
        return rci_bad_value(err, "wheel.filename", rci_str(fn), "a wheel file name");
    return 0;
}

/* binaries[i].targets: {name: {modules, entries, bytes, ..., codecs, isa}},
 * names added to rec. */
static int check_target_stats(json_t *o, const char *field, struct seen *rec, struct wa_error *err)
{
    if (!o || json_is_null(o))
        return 0;
    if (!json_is_object(o))
        return rci_bad_type(err, field, o, "an object");
    if (json_object_size(o) > RECORDCHECK_TARGETS_MAX) /* keys are distinct */
        return rci_too_many(err, field, 0);
    const char *name;
    json_t *tv;
    json_object_foreach(o, name, tv)
    {
        struct target t;
        if (!rci_target_ok(name, -1, &t))
            return rci_bad_value(err, field, name, "a target name");
        if (rci_seen_add(rec, &t) < 0)
            return rci_too_many(err, field, 1);
        char f[FIELD_MAX];
        subfield(f, field, ".%s", name);
        if (!json_is_object(tv))
            return rci_bad_type(err, f, tv, "an object");
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
        if ((rc = check_string(tv, "isa", g, OPTIONAL, 16, rci_isa_ok, "a PTX ISA version", err)) <
            0)
            return rc;
        json_t *codecs = json_object_get(tv, "codecs");
        subfield(g, f, ".codecs");
        if (codecs && !json_is_null(codecs)) {
            if (!json_is_array(codecs))
                return rci_bad_type(err, g, codecs, "an array of codec names");
            size_t i;
            json_t *c;
            json_array_foreach(codecs, i, c)
            {
                if (!json_is_string(c))
                    return rci_bad_type(err, g, c, "a codec name");
                if (!rci_codec_ok(rci_str(c)))
                    return rci_bad_value(err, g, rci_str(c), "a codec name");
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
        return rci_bad_type(err, f, b, "an object");
    int rc;
    /* The path of a member inside the wheel: any text (quotes, markup and
     * spaces included; pages escape it), but one bounded line. */
    subfield(g, f, ".path");
    if ((rc = check_string(b, "path", g, REQUIRED, SHORT_TEXT_MAX, NULL, "a member path", err)) < 0)
        return rc;
    if (!rci_str(json_object_get(b, "path"))[0])
        return wa_error_set(err, WA_ERR_FORMAT, "%s is empty", g);
    subfield(g, f, ".format");
    if ((rc = check_string(b, "format", g, OPTIONAL, 16, rci_codec_ok, "a binary format", err)) < 0)
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
            return rci_bad_type(err, g, sets, "an array");
        size_t k;
        json_t *s;
        json_array_foreach(sets, k, s)
        {
            char h[FIELD_MAX];
            subfield(h, g, "[%zu]", k);
            if (!json_is_object(s))
                return rci_bad_type(err, h, s, "an object");
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
            return rci_bad_type(err, g, comp, "an object");
        const char *codec;
        json_t *n;
        json_object_foreach(comp, codec, n)
        {
            if (!rci_codec_ok(codec))
                return rci_bad_value(err, g, codec, "a codec name");
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
            return rci_bad_type(err, g, decl, "an object");
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

static int version_text_ok(const char *s)
{
    return *s && rci_all_of(s, ".+-_");
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
            return rci_bad_type(err, "binaries", bins, "an array");
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
        return wa_error_set(err, WA_ERR_FORMAT, "the record is %s, not an object",
                            rci_type_name(rec));
    int rc;
    json_t *v;
    if ((rc = get_string(rec, "key", "key", REQUIRED, &v, err)) < 0)
        return rc;
    if (strcmp(rci_str(v), key) != 0)
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
    if (rci_parse_filename(v, &name) < 0)
        return rci_bad_value(err, "filename", rci_str(v), "a wheel file name");
    rc = recordcheck_check_epoch(rci_str(v), &name, err);
    if (rc == 0)
        rc = rci_wheel_matches(json_object_get(rec, "wheel"), &name, err);
    wheelname_free(&name);
    if (rc < 0)
        return rc;
    if ((rc = check_url_field(rec, "url", URL_MAX, recordcheck_url_valid, "an http(s) URL", err)) <
            0 ||
        (rc = check_url_field(rec, "index_url", URL_MAX, indexurl_valid, RECORDCHECK_INDEX_URL_RULE,
                              err)) < 0 ||
        (rc = check_string(rec, "sha256", "sha256", OPTIONAL, 64, sha256_ok, "a sha256", err)) <
            0 ||
        (rc = check_string(rec, "index_sha256", "index_sha256", OPTIONAL, 64, sha256_ok, "a sha256",
                           err)) < 0 ||
        (rc = check_string(rec, "inferred_from", "inferred_from", OPTIONAL, 68, key_ok,
                           "a record key", err)) < 0 ||
        (rc = check_string(rec, "scanned_at", "scanned_at", OPTIONAL, 10, recordcheck_date_valid,
                           "a date (YYYY-MM-DD)", err)) < 0 ||
        (rc = check_string(rec, "upload_time", "upload_time", OPTIONAL, 40, rci_datetime_ok,
                           "an ISO 8601 time", err)) < 0 ||
        (rc = check_string(rec, "variant_source", "variant_source", OPTIONAL, 16, variant_source_ok,
                           "name, label, url, index, release or rule", err)) < 0 ||
        (rc = check_string(rec, "index", "index", OPTIONAL, 128, recordcheck_index_id_valid,
                           "an index id", err)) < 0 ||
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
            return rci_bad_type(err, "yanked", v, "a string or a boolean");
        if ((rc = rci_too_long(err, "yanked", v, SHORT_TEXT_MAX)) < 0)
            return rc;
        if (!rci_text_ok(v, SHORT_TEXT_MAX))
            return rci_bad_value(err, "yanked", rci_str(v), "one line of text");
    }
    /* The indexes that list the wheel; its Requires-Dist (null: no
     * METADATA was read). */
    if ((rc = check_string_list(json_object_get(rec, "indexes"), "indexes", 0, 128,
                                recordcheck_index_id_valid, "an index id", err)) < 0 ||
        (rc = check_string_list(json_object_get(rec, "requires_dist"), "requires_dist",
                                WHEELMETA_MAX_REQUIRES, WHEELMETA_MAX_FIELD, NULL,
                                "one line of text", err)) < 0)
        return rc;
    /* The distinct targets of the whole record, over all its lists. */
    struct seen all;
    all.n = 0;
    rc = check_targets_and_binaries(rec, &all, err);
    if (rc == 0 && rci_seen_over(&all))
        rc = rci_too_many(err, NULL, 1);
    return rc;
}
