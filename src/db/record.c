/*
 * record: making a record, and checking one from JSON once into its type.
 */
#include "record.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "jsontext.h"
#include "recordcheck.h"
#include "scanreport.h"
#include "strbuf.h"
#include "version.h"
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

json_t *record_inferred(const struct record_identity *id, json_t *from, const char *today)
{
    json_t *o = json_object();
    record_set_identity(o, id);
    json_object_set_new(o, "record_version", json_integer(RECORD_VERSION));
    json_object_set_new(o, "status", json_string("inferred"));
    json_object_set_new(o, "inferred_from",
                        json_string(json_string_value(json_object_get(from, "key"))));
    static const char *const copied[] = {"kind", "sass", "ptx", "lto", NULL};
    for (const char *const *k = copied; *k; k++)
        if (json_object_get(from, *k))
            json_object_set(o, *k, json_object_get(from, *k));
    json_object_set_new(o, "sha256", jsontext_str_or_null(id->sha256));
    json_object_set_new(o, "sha256_verified", json_false());
    json_object_set_new(o, "size", json_null());
    json_object_set_new(o, "error", json_null());
    json_object_set_new(o, "scanned_at", json_string(today));
    json_object_set_new(o, "wheelarch_version", json_string(WHEELARCH_VERSION));
    json_object_set_new(o, "fetch", json_null());
    return o;
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

json_t *record_wheel_yanked_json(const struct record_wheel *w)
{
    return w->yanked_reason ? json_string(w->yanked_reason) : w->yanked ? json_true() : json_null();
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

char *record_text(json_t *rec)
{
    return jsontext_dumps(rec, JSON_COMPACT | JSON_SORT_KEYS);
}
