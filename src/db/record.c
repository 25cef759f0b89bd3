/*
 * record: making a record, and checking one from JSON once into its type.
 */
#include "record.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stddef.h>

#include "indexurl.h"
#include "jsontext.h"
#include "recordcheck.h"
#include "scanreport.h"
#include "strbuf.h"
#include "variant.h"
#include "version.h"
#include "wheelkey.h"
#include "wheelmeta.h"
#include "xalloc.h"

static const char *jstr(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

void record_set_identity(json_t *o, const struct record_identity *id)
{
    json_object_set_new(o, "input", json_string(id->url));
    json_object_set_new(o, "url", json_string(id->url));
    json_object_set_new(o, "key", json_string(id->key));
    json_object_set_new(o, "filename", json_string(id->filename));
    json_object_set_new(o, "index", json_string(id->indexes[0]));
    json_t *ix = json_array();
    for (size_t i = 0; i < id->nindexes; i++)
        json_array_append_new(ix, json_string(id->indexes[i]));
    json_object_set_new(o, "indexes", ix);
    json_object_set_new(o, "index_url", json_string(id->index_url));
    json_object_set_new(o, "variant", json_string(id->variant));
    json_object_set_new(o, "variant_source", json_string(id->variant_source));
    json_object_set_new(o, "wheel", scanreport_wheel_json(id->name));
    json_object_set_new(o, "upload_time", jsontext_str_or_null(id->upload_time));
    json_object_set_new(o, "requires_python", jsontext_str_or_null(id->requires_python));
    json_object_set_new(o, "yanked", jsontext_str_or_null(id->yanked));
    json_object_set_new(o, "index_sha256", jsontext_str_or_null(id->sha256));
}

json_t *record_scanned(json_t *o, const char *scan_sha256, const struct record_identity *id,
                       const struct record_fetch *f, const char *today)
{
    record_set_identity(o, id);
    json_object_set_new(o, "record_version", json_integer(RECORD_VERSION));
    json_object_set_new(o, "status", json_string("scanned"));
    json_object_set_new(o, "inferred_from", json_null());
    if (!scan_sha256 || !scan_sha256[0]) /* not read whole: the index's */
        json_object_set_new(o, "sha256", jsontext_str_or_null(id->sha256));
    json_object_set_new(o, "sha256_verified", json_boolean(f->sha256_checked));
    json_object_set_new(o, "size", json_integer((json_int_t)f->size));
    json_object_set_new(o, "scanned_at", json_string(today));
    json_object_set_new(o, "wheelarch_version", json_string(WHEELARCH_VERSION));
    json_t *x = json_object();
    json_object_set_new(x, "mode", json_string(f->range_mode ? "range" : "full"));
    json_object_set_new(x, "bytes", json_integer((json_int_t)f->bytes));
    json_object_set_new(x, "requests", json_integer((json_int_t)f->requests));
    json_object_set_new(o, "fetch", x);
    return o;
}

unsigned long long record_fetch_bytes(const json_t *rec)
{
    json_int_t b = json_integer_value(json_object_get(json_object_get(rec, "fetch"), "bytes"));
    return b > 0 ? (unsigned long long)b : 0;
}

static char *dup_str(json_t *o, const char *k, const char *absent)
{
    const char *v = json_string_value(json_object_get(o, k));
    return v ? xstrdup(v) : absent ? xstrdup(absent) : NULL;
}

void record_free(struct record *r)
{
    free(r->key);
    free(r->url);
    free(r->filename);
    free(r->index);
    free(r->index_url);
    free(r->variant);
    free(r->variant_source);
    if (r->name.filename)
        wheelname_free(&r->name);
    free(r->platform);
    free(r->sha256);
    free(r->upload_time);
    free(r->requires_python);
    free(r->yanked_reason);
    free(r->scanned_at);
    free(r->inferred_from);
    free(r->wheelarch_version);
    free(r->indexes);
    free(r->sass.v);
    free(r->ptx.v);
    free(r->gfx.v);
    free(r->code);
    free(r->requires);
    recbinaries_free(&r->binaries);
    memset(r, 0, sizeof *r);
}

void record_wheel_from_json(json_t *e, struct record_wheel *w)
{
    memset(w, 0, sizeof *w);
    w->filename = dup_str(e, "filename", "");
    w->url = dup_str(e, "url", "");
    w->key = dup_str(e, "key", "");
    w->sha256 = dup_str(e, "sha256", NULL);
    const char *st = json_string_value(json_object_get(e, "status"));
    w->scanned = st && strcmp(st, "scanned") == 0;
    w->upload_time = dup_str(e, "upload_time", NULL);
    w->scanned_at = dup_str(e, "scanned_at", NULL);
    w->inferred_from = dup_str(e, "inferred_from", NULL);
    w->requires_python = dup_str(e, "requires_python", NULL);
    json_t *size = json_object_get(e, "size");
    w->size = json_is_integer(size) ? (long long)json_integer_value(size) : -1;
    json_t *ver = json_object_get(e, "sha256_verified");
    w->sha256_verified = json_is_boolean(ver) ? json_is_true(ver) : -1;
    json_t *y = json_object_get(e, "yanked"); /* PEP 691: false, true or the reason */
    w->yanked = json_is_true(y) || json_is_string(y);
    w->yanked_reason = json_is_string(y) ? xstrdup(json_string_value(y)) : NULL;
}

void record_wheel_free(struct record_wheel *w)
{
    if (w->pooled) {
        memset(w, 0, sizeof *w);
        return;
    }
    free(w->filename);
    free(w->url);
    free(w->key);
    free(w->sha256);
    free(w->upload_time);
    free(w->scanned_at);
    free(w->inferred_from);
    free(w->requires_python);
    free(w->yanked_reason);
    memset(w, 0, sizeof *w);
}

/* PEP 691's yanked: the reason, true, or null when not yanked. */
static json_t *yanked_json(int yanked, const char *reason)
{
    return reason ? json_string(reason) : yanked ? json_true() : json_null();
}

json_t *record_wheel_yanked_json(const struct record_wheel *w)
{
    return yanked_json(w->yanked, w->yanked_reason);
}

json_t *record_wheel_json(const struct record_wheel *w)
{
    json_t *o = json_object();
    json_object_set_new(o, "filename", json_string(w->filename));
    json_object_set_new(o, "url", json_string(w->url));
    json_object_set_new(o, "sha256", jsontext_str_or_null(w->sha256));
    json_object_set_new(o, "status", json_string(w->scanned ? "scanned" : "inferred"));
    if (w->key[0])
        json_object_set_new(o, "key", json_string(w->key));
    json_object_set_new(o, "upload_time", jsontext_str_or_null(w->upload_time));
    if (w->scanned_at)
        json_object_set_new(o, "scanned_at", json_string(w->scanned_at));
    if (w->inferred_from)
        json_object_set_new(o, "inferred_from", json_string(w->inferred_from));
    json_object_set_new(o, "size", w->size >= 0 ? json_integer((json_int_t)w->size) : json_null());
    if (w->sha256_verified >= 0)
        json_object_set_new(o, "sha256_verified", json_boolean(w->sha256_verified));
    json_object_set_new(o, "yanked", record_wheel_yanked_json(w));
    json_object_set_new(o, "requires_python", jsontext_str_or_null(w->requires_python));
    return o;
}

/* The strings of a checked list, joined by sep (no sep in them). */
static char *joined(json_t *list, char sep)
{
    struct strbuf b = STRBUF_INIT;
    strbuf_adds(&b, "");
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
    {
        if (i)
            strbuf_addc(&b, sep);
        strbuf_adds(&b, json_string_value(v) ? json_string_value(v) : "");
    }
    return strbuf_detach(&b, NULL);
}

static char *opt_dup(json_t *o, const char *k)
{
    const char *v = jstr(o, k);
    return v ? xstrdup(v) : NULL;
}

int record_of_json(const char *key, json_t *rec, struct record *r, struct wa_error *err)
{
    memset(r, 0, sizeof *r);
    int rc = recordcheck_validate(key, rec, err);
    if (rc < 0)
        return rc;
    json_t *w = json_object_get(rec, "wheel");
    if (!jstr(w, "normalized_name") || !jstr(w, "public_version") || !jstr(w, "platform_id"))
        return wa_error_set(err, WA_ERR_FORMAT,
                            "wheel: normalized_name, public_version and "
                            "platform_id are required");
    /* the checks passed: the file name parses, and the parsed name the
     * record carries is its parse */
    if (wheelname_parse(jstr(rec, "filename"), &r->name, err) < 0) {
        memset(r, 0, sizeof *r);
        return WA_ERR_FORMAT;
    }
    r->key = xstrdup(key);
    r->scanned = strcmp(jstr(rec, "status"), "scanned") == 0;
    r->url = xstrdup(jstr(rec, "url") ? jstr(rec, "url") : "");
    r->filename = xstrdup(jstr(rec, "filename"));
    r->index_url = opt_dup(rec, "index_url");
    r->variant = xstrdup(jstr(rec, "variant"));
    r->variant_source = opt_dup(rec, "variant_source");
    json_t *ix = json_object_get(rec, "indexes");
    r->indexes = joined(ix, ' ');
    r->index = json_array_size(ix) ? xstrdup(json_string_value(json_array_get(ix, 0)))
                                   : opt_dup(rec, "index");
    r->platform = xstrdup(jstr(w, "platform_id"));
    r->sha256 = opt_dup(rec, "sha256");
    json_t *ver = json_object_get(rec, "sha256_verified");
    r->sha256_verified = json_is_boolean(ver) ? json_is_true(ver) : -1;
    json_t *size = json_object_get(rec, "size");
    r->size = json_is_integer(size) ? (long long)json_integer_value(size) : -1;
    r->upload_time = opt_dup(rec, "upload_time");
    r->requires_python = opt_dup(rec, "requires_python");
    r->scanned_at = opt_dup(rec, "scanned_at");
    r->inferred_from = opt_dup(rec, "inferred_from");
    r->wheelarch_version = opt_dup(rec, "wheelarch_version");
    json_t *y = json_object_get(rec, "yanked"); /* PEP 691: false, true or the reason */
    r->yanked = json_is_true(y) || json_is_string(y);
    r->yanked_reason = json_is_string(y) ? xstrdup(json_string_value(y)) : NULL;
    recbinary_targets_of(json_object_get(rec, "sass"), &r->sass);
    recbinary_targets_of(json_object_get(rec, "ptx"), &r->ptx);
    recbinary_targets_of(json_object_get(rec, "gfx"), &r->gfx);
    recbinaries_of(rec, &r->binaries);
    r->code = recbinaries_code(&r->binaries);
    json_t *req = json_object_get(rec, "requires_dist");
    r->requires = json_is_array(req) ? joined(req, '\n') : NULL;
    return 0;
}

/* ---- a scanned wheel's record, from its scan ------------------------------ */

/* The record of a scanned wheel as record_scanned writes it and
 * record_of_json reads it, made from the values themselves.  What the
 * JSON route does on the way, this does too: a string jansson refuses is
 * no value there (json_string gives NULL, the key is left out), texts of
 * the wheel are cleaned (scanreport_clean_text), targets go by their
 * names.  And every value is held to the rule recordcheck_validate holds
 * it to, in its order and with its message: the index and the wheel come
 * from elsewhere, and a record is stored only if `db import` would take
 * it back (unit.test_record_scan holds the two routes to that too). */

/* An identity's text as the JSON holds it. */
static const char *as_json(const char *s)
{
    return s && strbuf_utf8_valid(s) ? s : NULL;
}

/* A field recordcheck requires. */
static int required(const char *s, const char *field, struct wa_error *err)
{
    return s ? 0 : wa_error_set(err, WA_ERR_FORMAT, "%s is missing", field);
}

static int public_version_ok(const char *s)
{
    return recordcheck_version_valid(s, 0);
}

static int full_version_ok(const char *s)
{
    return recordcheck_version_valid(s, 1);
}

/* The wheel line's checks (recordcheck's "wheel" object): the parsed
 * name of the identity, as scanreport_wheel_json writes it. */
static int check_wheel_name(const struct wheel_name *n, struct wa_error *err)
{
    const char *project = as_json(n->project), *norm = as_json(n->normalized);
    int rc;
    if ((rc = required(project, "wheel.project", err)) < 0 ||
        (rc = recordcheck_check_text(project, "wheel.project", 200, recordcheck_tag_valid,
                                     "a project name", err)) < 0 ||
        (rc = required(norm, "wheel.normalized_name", err)) < 0 ||
        (rc = recordcheck_check_text(norm, "wheel.normalized_name", 200, recordcheck_project_valid,
                                     "a normalized project name", err)) < 0)
        return rc;
    char *want = wheelname_normalize(project);
    int same = strcmp(want, norm) == 0;
    free(want);
    if (!same)
        return recordcheck_refuse("wheel.normalized_name", norm,
                                  "the normalized form of wheel.project", err);
    const char *pub = as_json(n->public_version), *ver = as_json(n->version);
    if ((rc = required(pub, "wheel.public_version", err)) < 0 ||
        (rc = recordcheck_check_text(pub, "wheel.public_version", 128, public_version_ok,
                                     "a version", err)) < 0 ||
        (rc = recordcheck_check_text(ver, "wheel.version", 128, full_version_ok, "a version",
                                     err)) < 0)
        return rc;
    size_t pl = strlen(pub);
    if (ver && (strncmp(ver, pub, pl) != 0 || (ver[pl] != '\0' && ver[pl] != '+')))
        return recordcheck_refuse("wheel.version", ver, "wheel.public_version with a local label",
                                  err);
    const char *pid = wheelname_platform_id(n->platform);
    const char *fn = as_json(n->filename);
    if ((rc = recordcheck_check_text(as_json(n->local), "wheel.local", 128, recordcheck_tag_valid,
                                     "a local label", err)) < 0 ||
        (rc = recordcheck_check_text(as_json(n->build), "wheel.build", 64, recordcheck_tag_valid,
                                     "a build tag", err)) < 0 ||
        (rc = recordcheck_check_text(as_json(n->python), "wheel.python", 200, recordcheck_tag_valid,
                                     "a wheel tag", err)) < 0 ||
        (rc = recordcheck_check_text(as_json(n->abi), "wheel.abi", 200, recordcheck_tag_valid,
                                     "a wheel tag", err)) < 0 ||
        (rc = recordcheck_check_text(as_json(n->platform), "wheel.platform", 200,
                                     recordcheck_tag_valid, "a wheel tag", err)) < 0 ||
        (rc = recordcheck_check_text(pid, "wheel.platform_id", 32, recordcheck_platform_id_valid,
                                     "a platform id", err)) < 0)
        return rc;
    if (fn && !recordcheck_filename_valid(fn))
        return recordcheck_refuse("wheel.filename", fn, "a wheel file name", err);
    return 0;
}

/* The file name parses (into r->name), has no epoch, and says what the
 * wheel line says. */
static int check_filename(const struct record_identity *id, struct record *r, struct wa_error *err)
{
    const char *fn = as_json(id->filename);
    int rc = required(fn, "filename", err);
    if (rc < 0)
        return rc;
    if (!recordcheck_filename_valid(fn) || wheelname_parse(fn, &r->name, NULL) < 0)
        return recordcheck_refuse("filename", fn, "a wheel file name", err);
    if ((rc = recordcheck_check_epoch(fn, &r->name, err)) < 0)
        return rc;
    const struct wheel_name *w = id->name;
    const char *field = NULL, *v = NULL;
    if (strcmp(w->normalized, r->name.normalized) != 0)
        field = "wheel.normalized_name", v = w->normalized;
    else if (strcmp(w->public_version, r->name.public_version) != 0)
        field = "wheel.public_version", v = w->public_version;
    else if (strcmp(wheelname_platform_id(w->platform), wheelname_platform_id(r->name.platform)))
        field = "wheel.platform_id", v = wheelname_platform_id(w->platform);
    if (!field)
        return 0;
    return recordcheck_refuse(field, v, "what the file name says", err);
}

/* The record's fields past its name, as recordcheck_validate checks them.
 * wheelarch_version is this build's (a constant the tests hold to its
 * rule). */
static int check_fields(const struct record_identity *id, const struct record *r, size_t nrequires,
                        struct wa_error *err)
{
    int rc;
    if ((rc = recordcheck_check_url(as_json(id->url), "url", recordcheck_url_valid,
                                    "an http(s) URL", err)) < 0 ||
        (rc = recordcheck_check_url(r->index_url, "index_url", indexurl_valid,
                                    RECORDCHECK_INDEX_URL_RULE, err)) < 0 ||
        (rc = recordcheck_check_text(r->sha256, "sha256", 64, wheelkey_sha256_valid, "a sha256",
                                     err)) < 0 ||
        (rc = recordcheck_check_text(as_json(id->sha256), "index_sha256", 64, wheelkey_sha256_valid,
                                     "a sha256", err)) < 0 ||
        (rc = recordcheck_check_text(r->scanned_at, "scanned_at", 10, recordcheck_date_valid,
                                     "a date (YYYY-MM-DD)", err)) < 0 ||
        (rc = recordcheck_check_text(r->upload_time, "upload_time", 40, recordcheck_datetime_valid,
                                     "an ISO 8601 time", err)) < 0 ||
        (rc = recordcheck_check_text(r->variant_source, "variant_source", 16, variant_how_valid,
                                     "name, label, url, index, release or rule", err)) < 0 ||
        (rc = recordcheck_check_text(as_json(id->indexes[0]), "index", 128,
                                     recordcheck_index_id_valid, "an index id", err)) < 0 ||
        (rc = recordcheck_check_text(r->requires_python, "requires_python", RECORDCHECK_PATH_MAX,
                                     NULL, "one line of text", err)) < 0 ||
        ((r->scanned || r->size != -1) /* an inferred wheel's may be unknown */ &&
         (rc = recordcheck_check_int(r->size, "size", RECORDCHECK_BYTES_MAX, err)) < 0) ||
        (rc = recordcheck_check_text(r->yanked_reason, "yanked", RECORDCHECK_PATH_MAX, NULL,
                                     "one line of text", err)) < 0)
        return rc;
    for (size_t i = 0, k = 0; i < id->nindexes; i++) {
        if (!as_json(id->indexes[i]))
            continue; /* not in the JSON's list */
        char f[40];
        snprintf(f, sizeof f, "indexes[%zu]", k++);
        if ((rc = recordcheck_check_text(id->indexes[i], f, 128, recordcheck_index_id_valid,
                                         "an index id", err)) < 0)
            return rc;
    }
    if (nrequires > WHEELMETA_MAX_REQUIRES)
        return wa_error_set(err, WA_ERR_FORMAT, "requires_dist: more than %d entries",
                            WHEELMETA_MAX_REQUIRES);
    return 0;
}

/* The wheel's Requires-Dist, cleaned, one per line; NULL when no METADATA
 * was read (the JSON's null).  Each line is held to the rule of free text. */
static int requires_of_scan(const struct scan_result *scan, struct record *r, struct wa_error *err)
{
    if (scan->kind != SCAN_KIND_ZIP || !scan->has_metadata)
        return 0;
    struct strbuf b = STRBUF_INIT;
    strbuf_adds(&b, "");
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < scan->nrequires; i++) {
        char *line = scanreport_clean_text(scan->requires[i]);
        char f[40];
        snprintf(f, sizeof f, "requires_dist[%zu]", i);
        rc = recordcheck_check_text(line, f, WHEELMETA_MAX_FIELD, NULL, "one line of text", err);
        if (i)
            strbuf_addc(&b, '\n');
        strbuf_adds(&b, line);
        free(line);
    }
    r->requires = strbuf_detach(&b, NULL);
    return rc;
}

/* The sorted union of one list of every binary (the JSON's union_list). */
static void union_of(const struct recbinaries *b, size_t list, struct recbinary_targets *out)
{
    size_t n = 0;
    for (size_t i = 0; i < b->n; i++)
        n += ((const struct recbinary_targets *)((const char *)&b->v[i] + list))->n;
    out->v = xmalloc((n ? n : 1) * sizeof *out->v);
    out->n = 0;
    for (size_t i = 0; i < b->n; i++) {
        const struct recbinary_targets *l =
            (const struct recbinary_targets *)((const char *)&b->v[i] + list);
        if (l->n)
            memcpy(out->v + out->n, l->v, l->n * sizeof *l->v);
        out->n += l->n;
    }
    out->n = target_sort_unique(out->v, out->n);
}

/* The fields of r that come from the wheel's identity on its index and
 * from this crawl (status, hash, size and the binaries are the caller's),
 * each held to its rule up to the file name; check_fields holds the rest
 * once the caller has set what it adds.  Returns 0, or WA_ERR_FORMAT with
 * r empty. */
static int of_identity(const struct record_identity *id, const char *today, struct record *r,
                       struct wa_error *err)
{
    memset(r, 0, sizeof *r);
    const char *key = as_json(id->key), *variant = as_json(id->variant);
    char q[400];
    int rc = 0;
    if (!key || !wheelkey_valid(key))
        return wa_error_set(err, WA_ERR_FORMAT, "\"%s\" is not a record key",
                            recordcheck_quote(q, sizeof q, id->key ? id->key : "", 80));
    if ((rc = required(variant, "variant", err)) < 0 ||
        (rc = recordcheck_check_text(variant, "variant", 64, recordcheck_variant_valid,
                                     "a variant id", err)) < 0 ||
        (rc = check_wheel_name(id->name, err)) < 0 || (rc = check_filename(id, r, err)) < 0) {
        record_free(r);
        return rc;
    }
    r->key = xstrdup(key);
    r->url = xstrdup(as_json(id->url) ? id->url : "");
    r->filename = xstrdup(id->filename);
    r->index_url = xstrdup_or_null(as_json(id->index_url));
    r->variant = xstrdup(variant);
    r->variant_source = xstrdup_or_null(as_json(id->variant_source));
    struct strbuf ix = STRBUF_INIT;
    strbuf_adds(&ix, "");
    for (size_t i = 0; i < id->nindexes; i++) {
        if (!as_json(id->indexes[i]))
            continue; /* json_array_append_new took no value */
        if (ix.len)
            strbuf_addc(&ix, ' ');
        else
            r->index = xstrdup(id->indexes[i]);
        strbuf_adds(&ix, id->indexes[i]);
    }
    r->indexes = strbuf_detach(&ix, NULL);
    r->platform = xstrdup(wheelname_platform_id(id->name->platform));
    r->upload_time = xstrdup_or_null(as_json(id->upload_time));
    r->requires_python = xstrdup_or_null(as_json(id->requires_python));
    r->scanned_at = xstrdup_or_null(as_json(today));
    r->wheelarch_version = xstrdup(WHEELARCH_VERSION);
    const char *y = as_json(id->yanked); /* a string (the reason, maybe "") or null */
    r->yanked = y != NULL;
    r->yanked_reason = xstrdup_or_null(y);
    return 0;
}

int record_of_scan(const struct scan_result *scan, const struct record_identity *id,
                   const struct record_fetch *f, const char *today, struct record *out,
                   struct wa_error *err)
{
    struct record *r = out;
    int rc = of_identity(id, today, r, err);
    if (rc < 0)
        return rc;
    r->scanned = 1;
    /* the scan's hash when it read the whole wheel, else the index's */
    r->sha256 = xstrdup_or_null(scan->sha256[0] ? scan->sha256 : as_json(id->sha256));
    r->sha256_verified = f->sha256_checked != 0;
    r->size = (long long)(json_int_t)f->size;
    size_t nrequires = scan->kind == SCAN_KIND_ZIP && scan->has_metadata ? scan->nrequires : 0;
    if ((rc = check_fields(id, r, nrequires, err)) < 0 ||
        (rc = requires_of_scan(scan, r, err)) < 0 ||
        (rc = recbinaries_of_scan(scan, !recbinary_is_library_project(id->name->normalized),
                                  &r->binaries, err)) < 0) {
        record_free(r);
        return rc;
    }
    union_of(&r->binaries, offsetof(struct recbinary, sass), &r->sass);
    union_of(&r->binaries, offsetof(struct recbinary, ptx), &r->ptx);
    union_of(&r->binaries, offsetof(struct recbinary, gfx), &r->gfx);
    r->code = recbinaries_code(&r->binaries);
    return 0;
}

static void copy_targets(const struct recbinary_targets *a, struct recbinary_targets *b)
{
    b->v = xmalloc((a->n ? a->n : 1) * sizeof *b->v);
    if (a->n)
        memcpy(b->v, a->v, a->n * sizeof *a->v);
    b->n = a->n;
}

int record_of_inferred(const struct record_identity *id, const struct record *from,
                       const char *today, struct record *out, struct wa_error *err)
{
    struct record *r = out;
    int rc = of_identity(id, today, r, err);
    if (rc < 0)
        return rc;
    r->scanned = 0;
    r->inferred_from = xstrdup(from->key);
    r->sha256 = xstrdup_or_null(as_json(id->sha256));
    r->sha256_verified = 0;
    r->size = -1;
    if ((rc = check_fields(id, r, 0, err)) < 0) {
        record_free(r);
        return rc;
    }
    copy_targets(&from->sass, &r->sass);
    copy_targets(&from->ptx, &r->ptx);
    copy_targets(&from->gfx, &r->gfx);
    r->binaries.v = xcalloc(1, sizeof *r->binaries.v); /* not listed: the source's stand */
    return 0;
}

/* The first of a space-separated list, or NULL when it is empty. */
static char *row_first_word(const char *s)
{
    if (!s || !*s)
        return NULL;
    return xstrndup(s, strcspn(s, " "));
}

/* A record from its row: the columns are what db_write_record wrote of
 * the struct, so they are read back as they are (record.h). */
int record_of_row(const struct record_row *w, struct record *r)
{
    memset(r, 0, sizeof *r);
    if (!w->filename || wheelname_parse(w->filename, &r->name, NULL) < 0) {
        memset(&r->name, 0, sizeof r->name);
        return -1;
    }
    if (recbinary_targets_parse(w->sass, TARGET_SASS, &r->sass) < 0 ||
        recbinary_targets_parse(w->ptx, TARGET_PTX, &r->ptx) < 0 ||
        recbinary_targets_parse(w->gfx, TARGET_GFX, &r->gfx) < 0) {
        record_free(r);
        return -1;
    }
    r->key = xstrdup(w->key);
    r->scanned = strcmp(w->status, "scanned") == 0;
    r->url = xstrdup(w->url ? w->url : "");
    r->filename = xstrdup(w->filename);
    r->indexes = xstrdup_or_null(w->indexes);
    r->index = row_first_word(w->indexes);
    r->code = xstrdup_or_null(w->code);
    r->requires = xstrdup_or_null(w->requires);
    r->index_url = xstrdup_or_null(w->index_url);
    r->variant = xstrdup(w->variant);
    r->variant_source = xstrdup_or_null(w->variant_source);
    r->platform = xstrdup(w->platform);
    r->sha256 = xstrdup_or_null(w->sha256);
    r->sha256_verified = w->sha256_verified;
    r->size = w->size;
    r->upload_time = xstrdup_or_null(w->upload_time);
    r->requires_python = xstrdup_or_null(w->requires_python);
    r->scanned_at = xstrdup_or_null(w->scanned_at);
    r->inferred_from = xstrdup_or_null(w->inferred_from);
    r->wheelarch_version = xstrdup_or_null(w->wheelarch_version);
    r->yanked = w->yanked;
    r->yanked_reason = xstrdup_or_null(w->yanked_reason);
    return 0;
}

/* A space- or newline-separated list as an array of its words or lines. */
static json_t *split_json(const char *s, char sep)
{
    json_t *a = json_array();
    while (s && *s) {
        size_t n = strcspn(s, (char[]){sep, '\0'});
        json_array_append_new(a, json_stringn(s, n));
        s += n + (s[n] == sep);
    }
    return a;
}

json_t *record_json(const struct record *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "record_version", json_integer(RECORD_VERSION));
    json_object_set_new(o, "key", json_string(r->key));
    json_object_set_new(o, "status", json_string(r->scanned ? "scanned" : "inferred"));
    json_object_set_new(o, "url", json_string(r->url));
    json_object_set_new(o, "filename", json_string(r->filename));
    json_object_set_new(o, "wheel", scanreport_wheel_json(&r->name));
    json_object_set_new(o, "variant", json_string(r->variant));
    json_object_set_new(o, "variant_source", jsontext_str_or_null(r->variant_source));
    json_object_set_new(o, "index_url", jsontext_str_or_null(r->index_url));
    if (r->indexes && r->indexes[0])
        json_object_set_new(o, "indexes", split_json(r->indexes, ' '));
    if (r->index)
        json_object_set_new(o, "index", json_string(r->index));
    json_object_set_new(o, "sha256", jsontext_str_or_null(r->sha256));
    if (r->sha256_verified >= 0)
        json_object_set_new(o, "sha256_verified", json_boolean(r->sha256_verified));
    json_object_set_new(o, "size", r->size >= 0 ? json_integer((json_int_t)r->size) : json_null());
    json_object_set_new(o, "upload_time", jsontext_str_or_null(r->upload_time));
    json_object_set_new(o, "requires_python", jsontext_str_or_null(r->requires_python));
    json_object_set_new(o, "scanned_at", jsontext_str_or_null(r->scanned_at));
    json_object_set_new(o, "inferred_from", jsontext_str_or_null(r->inferred_from));
    json_object_set_new(o, "wheelarch_version", jsontext_str_or_null(r->wheelarch_version));
    json_object_set_new(o, "yanked", yanked_json(r->yanked, r->yanked_reason));
    json_object_set_new(o, "sass", recbinary_targets_json(&r->sass));
    json_object_set_new(o, "ptx", recbinary_targets_json(&r->ptx));
    json_object_set_new(o, "gfx", recbinary_targets_json(&r->gfx));
    if (r->requires)
        json_object_set_new(o, "requires_dist", split_json(r->requires, '\n'));
    if (r->binaries.listed)
        json_object_set_new(o, "binaries", recbinaries_json(&r->binaries));
    return o;
}

char *record_text(json_t *rec)
{
    return jsontext_dumps(rec, JSON_COMPACT | JSON_SORT_KEYS);
}
