/*
 * record: checking a record once and deriving the database's columns.
 */
#include "record.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dotver.h"
#include "jsontext.h"
#include "recordcheck.h"
#include "scanreport.h"
#include "strbuf.h"
#include "target.h"
#include "version.h"
#include "xalloc.h"

static const char *jstr(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
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
    json_object_set_new(o, "upload_time", str_or_null(id->upload_time));
    json_object_set_new(o, "requires_python", str_or_null(id->requires_python));
    json_object_set_new(o, "yanked", str_or_null(id->yanked));
    json_object_set_new(o, "index_sha256", str_or_null(id->sha256));
}

json_t *record_scanned(json_t *o, const char *scan_sha256, const struct record_identity *id,
                       const struct record_fetch *f, const char *today)
{
    record_set_identity(o, id);
    json_object_set_new(o, "record_version", json_integer(RECORD_VERSION));
    json_object_set_new(o, "status", json_string("scanned"));
    json_object_set_new(o, "inferred_from", json_null());
    if (!scan_sha256 || !scan_sha256[0]) /* not read whole: the index's */
        json_object_set_new(o, "sha256", str_or_null(id->sha256));
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
    json_object_set_new(o, "sha256", str_or_null(id->sha256));
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
    free(r->sass.v);
    free(r->ptx.v);
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
    json_object_set_new(o, "sha256", str_or_null(w->sha256));
    json_object_set_new(o, "status", json_string(w->scanned ? "scanned" : "inferred"));
    if (w->key[0])
        json_object_set_new(o, "key", json_string(w->key));
    json_object_set_new(o, "upload_time", str_or_null(w->upload_time));
    if (w->scanned_at)
        json_object_set_new(o, "scanned_at", json_string(w->scanned_at));
    if (w->inferred_from)
        json_object_set_new(o, "inferred_from", json_string(w->inferred_from));
    json_object_set_new(o, "size", w->size >= 0 ? json_integer((json_int_t)w->size) : json_null());
    if (w->sha256_verified >= 0)
        json_object_set_new(o, "sha256_verified", json_boolean(w->sha256_verified));
    json_object_set_new(o, "yanked", record_wheel_yanked_json(w));
    json_object_set_new(o, "requires_python", str_or_null(w->requires_python));
    return o;
}

/* The canonical name of a target name, or 0 when it does not parse. */
static int canonical(const char *name, char *out, size_t n, struct target *t)
{
    if (!name || target_parse(name, t) != 0)
        return 0;
    target_format(t, out, n);
    return 1;
}

char *record_code(json_t *rec)
{
    json_t *bins = json_object_get(rec, "binaries");
    if (!json_is_array(bins))
        return NULL;
    struct strbuf sets = STRBUF_INIT, isas = STRBUF_INIT;
    int bundles = recbinary_bundles_libraries(rec);
    size_t i;
    json_t *b;
    json_array_foreach(bins, i, b)
    {
        const char *path = jstr(b, "path");
        json_t *ms = json_object_get(b, "module_sets");
        if (!path || (bundles && recbinary_is_bundled(path)) || !json_array_size(ms))
            continue;
        size_t k;
        json_t *s;
        json_array_foreach(ms, k, s)
        {
            json_int_t mods = json_integer_value(json_object_get(s, "modules"));
            if (sets.len)
                strbuf_addc(&sets, ';');
            strbuf_addf(&sets, "%lld", (long long)(mods > 0 ? mods : 1));
            size_t j;
            json_t *tv;
            json_array_foreach(json_object_get(s, "targets"), j, tv)
            {
                char name[TARGET_NAME_MAX];
                struct target t;
                if (canonical(json_string_value(tv), name, sizeof name, &t)) {
                    strbuf_addc(&sets, ' ');
                    strbuf_adds(&sets, name);
                }
            }
        }
        const char *tname;
        json_t *tv;
        json_object_foreach(json_object_get(b, "targets"), tname, tv)
        {
            char name[TARGET_NAME_MAX];
            struct target t;
            struct dotver isa;
            const char *is = jstr(tv, "isa");
            if (canonical(tname, name, sizeof name, &t) && t.kind == TARGET_PTX && is &&
                strspn(is, "0123456789.") == strlen(is) && dotver_parse(is, &isa) == 0) {
                if (isas.len)
                    strbuf_addc(&isas, ' ');
                strbuf_addf(&isas, "%s=%s", name, is);
            }
        }
    }
    if (isas.len) {
        strbuf_addc(&sets, '|');
        strbuf_adds(&sets, strbuf_str(&isas));
    }
    strbuf_free(&isas);
    return strbuf_detach(&sets, NULL);
}

/* The names of a target list, space-separated. */
static char *joined(json_t *list)
{
    struct strbuf b = STRBUF_INIT;
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
    {
        if (!json_is_string(v))
            continue;
        if (b.len)
            strbuf_addc(&b, ' ');
        strbuf_adds(&b, json_string_value(v));
    }
    return strbuf_detach(&b, NULL);
}

/* The strings of a checked list (no line breaks in them), one per line. */
static char *lines(json_t *list)
{
    struct strbuf b = STRBUF_INIT;
    strbuf_adds(&b, "");
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
    {
        if (i)
            strbuf_addc(&b, '\n');
        strbuf_adds(&b, json_string_value(v) ? json_string_value(v) : "");
    }
    return strbuf_detach(&b, NULL);
}

int record_columns_of(const char *key, json_t *rec, struct record_columns *c, struct wa_error *err)
{
    memset(c, 0, sizeof *c);
    int rc = recordcheck_validate(key, rec, err);
    if (rc < 0)
        return rc;
    json_t *w = json_object_get(rec, "wheel");
    c->key = jstr(rec, "key");
    c->status = jstr(rec, "status");
    c->project = jstr(w, "normalized_name");
    c->version = jstr(w, "public_version");
    c->variant = jstr(rec, "variant");
    c->platform = jstr(w, "platform_id");
    c->filename = jstr(rec, "filename");
    c->url = jstr(rec, "url");
    c->sha256 = jstr(rec, "sha256");
    c->upload_time = jstr(rec, "upload_time");
    c->scanned_at = jstr(rec, "scanned_at");
    c->inferred_from = jstr(rec, "inferred_from");
    c->index_url = jstr(rec, "index_url");
    c->wheelarch_version = jstr(rec, "wheelarch_version");
    if (!c->project || !c->version || !c->platform)
        return wa_error_set(err, WA_ERR_FORMAT,
                            "wheel: normalized_name, public_version and "
                            "platform_id are required");
    c->name = jstr(w, "project");
    c->local = jstr(w, "local");
    c->variant_source = jstr(rec, "variant_source");
    c->python_tag = jstr(w, "python");
    c->abi_tag = jstr(w, "abi");
    c->platform_tag = jstr(w, "platform");
    c->indexes = joined(json_object_get(rec, "indexes"));
    c->sass = joined(json_object_get(rec, "sass"));
    c->ptx = joined(json_object_get(rec, "ptx"));
    c->gfx = joined(json_object_get(rec, "gfx"));
    c->code = record_code(rec);
    json_t *req = json_object_get(rec, "requires_dist");
    c->requires = json_is_array(req) ? lines(req) : NULL;
    record_wheel_from_json(rec, &c->line);
    return 0;
}

void record_columns_free(struct record_columns *c)
{
    free(c->sass);
    free(c->ptx);
    free(c->gfx);
    free(c->code);
    free(c->requires);
    free(c->indexes);
    record_wheel_free(&c->line);
    memset(c, 0, sizeof *c);
}
