/*
 * sitedata_wheel: a wheel page's data, typed.  The templates read the
 * record and its binaries through tmpl_types (no JSON tree is built): the
 * first page kind whose data is its own structs.
 */
#include "sitedata_wheel.h"
#include "sitedata_state.h"

#include <stdlib.h>
#include <string.h>

#include "recbinary.h"
#include "record.h"
#include "tmpl.h"
#include "variant.h"
#include "xalloc.h"
#include "sitedata_text.h"

/* A target and its place, for a sort in target order (SASS, then PTX,
 * then gfx, each by architecture): records keep targets by name, where
 * "sm_100" sorts before "sm_75". */
struct target_at {
    struct target t;
    size_t at;
};

static int target_at_cmp(const void *a, const void *b)
{
    const struct target_at *x = a, *y = b;
    int c = target_cmp(&x->t, &y->t);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

size_t *sitedata_target_order(const struct recbinary *b)
{
    struct target_at *o = xmalloc((b->ntargets ? b->ntargets : 1) * sizeof *o);
    for (size_t k = 0; k < b->ntargets; k++)
        o[k] = (struct target_at){b->targets[k].t, k};
    if (b->ntargets > 1)
        qsort(o, b->ntargets, sizeof *o, target_at_cmp);
    size_t *order = xmalloc((b->ntargets ? b->ntargets : 1) * sizeof *order);
    for (size_t k = 0; k < b->ntargets; k++)
        order[k] = o[k].at;
    free(o);
    return order;
}

void sitedata_wheel_make(const struct record *r, struct sitedata_wheel *w)
{
    memset(w, 0, sizeof *w);
    w->r = r;
    w->href = sitedata_href(r->url);
    w->release_page = sitedata_release_path(r->name.normalized, r->name.public_version);
    w->variant_how = variant_how_words(r->variant_source);
    w->order = xcalloc(r->binaries.n ? r->binaries.n : 1, sizeof *w->order);
    for (size_t i = 0; i < r->binaries.n; i++)
        w->order[i] = sitedata_target_order(&r->binaries.v[i]);
}

void sitedata_wheel_free(struct sitedata_wheel *w)
{
    for (size_t i = 0; w->r && i < w->r->binaries.n; i++)
        free(w->order[i]);
    free(w->order);
    free(w->href);
    free(w->release_page);
    memset(w, 0, sizeof *w);
}

/* ---- the types the templates read ----------------------------------------- */

int sitedata_name_is(const char *name, size_t len, const char *want)
{
    return strlen(want) == len && memcmp(name, want, len) == 0;
}

void sitedata_or_null(const char *s, struct tmpl_value *out)
{
    tmpl_value_str(s && *s ? s : NULL, out);
}

void sitedata_object(const struct tmpl_type *type, const void *p, size_t at, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, type, p, at, out);
}

void sitedata_array(const struct tmpl_type *type, const void *p, size_t at, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_ARRAY, type, p, at, out);
}

void sitedata_count(long long v, struct tmpl_value *out)
{
    if (v >= 0)
        tmpl_value_int(v, out);
    else
        out->kind = TMPL_MISSING; /* not said: as the record's JSON left it out */
}

/* Lists of strings and targets: p is the list, items made on the fly. */
static size_t lines_len(const struct tmpl_value *v)
{
    return ((const struct recbinary_lines *)v->p)->n;
}

static void lines_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_str(((const struct recbinary_lines *)v->p)->v[i], out);
}

const struct tmpl_type sitedata_lines_type = {NULL, lines_len, lines_at, NULL, 0};

static size_t targets_len(const struct tmpl_value *v)
{
    return ((const struct recbinary_targets *)v->p)->n;
}

static void targets_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    char name[TARGET_NAME_MAX];
    target_format(&((const struct recbinary_targets *)v->p)->v[i], name, sizeof name);
    tmpl_value_strf(out, "%s", name);
}

const struct tmpl_type sitedata_targets_type = {NULL, targets_len, targets_at, NULL, 0};

/* A target's codecs: p is the target. */
static size_t codecs_len(const struct tmpl_value *v)
{
    return ((const struct recbinary_target *)v->p)->ncodecs;
}

static void codecs_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_str(((const struct recbinary_target *)v->p)->codecs[i], out);
}

static const struct tmpl_type codecs_type = {NULL, codecs_len, codecs_at, NULL, 0};

/* One target of a binary: p is the target. */
static void target_name(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct recbinary_target *t = v->p;
    char s[TARGET_NAME_MAX];
    target_format(&t->t, s, sizeof s);
    tmpl_value_strf(out, "%s", s);
}

static void target_modules(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct recbinary_target *t = v->p;
    sitedata_count(t->modules, out);
}

static void target_library_modules(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct recbinary_target *t = v->p;
    sitedata_count(t->library_modules, out);
}

static void target_entries(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct recbinary_target *t = v->p;
    sitedata_count(t->entries, out);
}

static void target_bytes(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct recbinary_target *t = v->p;
    sitedata_count(t->bytes, out);
}

static void target_uncompressed_bytes(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct recbinary_target *t = v->p;
    sitedata_count(t->uncompressed_bytes, out);
}

static void target_codecs(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct recbinary_target *t = v->p;
    if (t->codecs_said)
        tmpl_value_typed(TMPL_ARRAY, &codecs_type, t, 0, out);
}

static void target_isa(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct recbinary_target *t = v->p;
    if (t->isa[0])
        tmpl_value_str(t->isa, out);
}

static const struct tmpl_field target_fields[] = {
    TMPL_GET("name", target_name),
    TMPL_GET("modules", target_modules),
    TMPL_GET("library_modules", target_library_modules),
    TMPL_GET("entries", target_entries),
    TMPL_GET("bytes", target_bytes),
    TMPL_GET("uncompressed_bytes", target_uncompressed_bytes),
    TMPL_GET("codecs", target_codecs),
    TMPL_GET("isa", target_isa),
};

const struct tmpl_type sitedata_target_type = TMPL_FIELDS(target_fields);

/* A binary's targets in target order: p is the page, at the binary. */
static size_t target_list_len(const struct tmpl_value *v)
{
    const struct sitedata_wheel *w = v->p;
    return w->r->binaries.v[v->at].ntargets;
}

static void target_list_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct recbinary *b = &w->r->binaries.v[v->at];
    tmpl_value_typed(TMPL_OBJECT, &sitedata_target_type, &b->targets[w->order[v->at][i]], 0, out);
}

static const struct tmpl_type target_list_type = {NULL, target_list_len, target_list_at, NULL, 0};

/* A binary's compression, one entry per codec: p is the binary. */
static void codec_codec(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct recbinary_codec *c = &((const struct recbinary *)v->p)->compression[v->at];
    tmpl_value_str(c->codec, out);
}

static void codec_entries(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct recbinary_codec *c = &((const struct recbinary *)v->p)->compression[v->at];
    tmpl_value_int(c->entries, out);
}

static const struct tmpl_field codec_fields[] = {
    TMPL_GET("codec", codec_codec),
    TMPL_GET("entries", codec_entries),
};

static const struct tmpl_type codec_type = TMPL_FIELDS(codec_fields);

static size_t compression_len(const struct tmpl_value *v)
{
    return ((const struct recbinary *)v->p)->ncompression;
}

static void compression_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &codec_type, v->p, i, out);
}

static const struct tmpl_type compression_type = {NULL, compression_len, compression_at, NULL, 0};

/* One binary: p is the page, at the binary's place. */
static void binary_path(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct recbinary *b = &w->r->binaries.v[v->at];
    tmpl_value_str(b->path, out);
}

static void binary_format(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct recbinary *b = &w->r->binaries.v[v->at];
    if (b->format)
        tmpl_value_str(b->format, out);
}

static void binary_size(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct recbinary *b = &w->r->binaries.v[v->at];
    sitedata_count(b->size, out);
}

static void binary_modules(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct recbinary *b = &w->r->binaries.v[v->at];
    sitedata_count(b->modules, out);
}

static void binary_dlink_modules(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct recbinary *b = &w->r->binaries.v[v->at];
    sitedata_count(b->dlink_modules, out);
}

static void binary_library_modules(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct recbinary *b = &w->r->binaries.v[v->at];
    sitedata_count(b->library_modules, out);
}

static void binary_bundled(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct recbinary *b = &w->r->binaries.v[v->at];
    tmpl_value_bool(b->bundled, out);
}

static void binary_arch_flags(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct recbinary *b = &w->r->binaries.v[v->at];
    tmpl_value_typed(TMPL_ARRAY, &sitedata_lines_type, &b->arch_flags, 0, out);
}

static void binary_warnings(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct recbinary *b = &w->r->binaries.v[v->at];
    tmpl_value_typed(TMPL_ARRAY, &sitedata_lines_type, &b->warnings, 0, out);
}

static void binary_sass(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct recbinary *b = &w->r->binaries.v[v->at];
    tmpl_value_typed(TMPL_ARRAY, &sitedata_targets_type, &b->sass, 0, out);
}

static void binary_ptx(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct recbinary *b = &w->r->binaries.v[v->at];
    tmpl_value_typed(TMPL_ARRAY, &sitedata_targets_type, &b->ptx, 0, out);
}

static void binary_lto(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct recbinary *b = &w->r->binaries.v[v->at];
    tmpl_value_typed(TMPL_ARRAY, &sitedata_targets_type, &b->lto, 0, out);
}

static void binary_target_list(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    tmpl_value_typed(TMPL_ARRAY, &target_list_type, w, v->at, out);
}

static void binary_compression_list(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct recbinary *b = &w->r->binaries.v[v->at];
    tmpl_value_typed(TMPL_ARRAY, &compression_type, b, 0, out);
}

static void binary_table_id(const struct tmpl_value *v, struct tmpl_value *out)
{
    /* member paths are any bytes: the binary's place */
    tmpl_value_strf(out, "bin-%zu", v->at + 1);
}

static const struct tmpl_field binary_fields[] = {
    TMPL_GET("path", binary_path),
    TMPL_GET("format", binary_format),
    TMPL_GET("size", binary_size),
    TMPL_GET("modules", binary_modules),
    TMPL_GET("dlink_modules", binary_dlink_modules),
    TMPL_GET("library_modules", binary_library_modules),
    TMPL_GET("bundled", binary_bundled),
    TMPL_GET("arch_flags", binary_arch_flags),
    TMPL_GET("warnings", binary_warnings),
    TMPL_GET("sass", binary_sass),
    TMPL_GET("ptx", binary_ptx),
    TMPL_GET("lto", binary_lto),
    TMPL_GET("target_list", binary_target_list),
    TMPL_GET("compression_list", binary_compression_list),
    TMPL_GET("table_id", binary_table_id),
};

static const struct tmpl_type binary_type = TMPL_FIELDS(binary_fields);

static size_t binaries_len(const struct tmpl_value *v)
{
    return ((const struct sitedata_wheel *)v->p)->r->binaries.n;
}

static void binaries_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &binary_type, v->p, i, out);
}

static const struct tmpl_type binaries_type = {NULL, binaries_len, binaries_at, NULL, 0};

/* The parsed file name: p is the wheel_name. */
static const struct tmpl_field name_fields[] = {
    TMPL_STR("project", struct wheel_name, project),
    TMPL_STR("normalized_name", struct wheel_name, normalized),
    TMPL_STR("version", struct wheel_name, version),
    TMPL_STR("public_version", struct wheel_name, public_version),
    TMPL_STR("local", struct wheel_name, local),
    TMPL_STR("python", struct wheel_name, python),
    TMPL_STR("abi", struct wheel_name, abi),
    TMPL_STR("platform", struct wheel_name, platform),
};

static const struct tmpl_type name_type = TMPL_FIELDS(name_fields);

/* The page: p is the sitedata_wheel. */
static void wheel_filename(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    tmpl_value_str(r->filename, out);
}

static void wheel_url(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    tmpl_value_str(r->url, out);
}

static void wheel_key(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    tmpl_value_str(r->key, out);
}

static void wheel_href(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    if (w->href)
        tmpl_value_str(w->href, out);
}

static void wheel_sha256(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    tmpl_value_str(r->sha256, out);
}

static void wheel_sha256_verified(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    if (r->sha256_verified < 0)
        out->kind = TMPL_NULL;
    else
        tmpl_value_bool(r->sha256_verified, out);
}

static void wheel_status(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    tmpl_value_str(r->scanned ? "scanned" : "inferred", out);
}

static void wheel_inferred_from(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    tmpl_value_str(r->inferred_from, out);
}

static void wheel_scanned_at(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    tmpl_value_str(r->scanned_at, out); /* a wheel page's date: the day it was read */
}

static void wheel_upload_time(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    tmpl_value_str(r->upload_time, out);
}

static void wheel_size(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    if (r->size < 0)
        out->kind = TMPL_NULL;
    else
        tmpl_value_int(r->size, out);
}

static void wheel_variant(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    tmpl_value_str(r->variant, out);
}

static void wheel_variant_source(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    tmpl_value_str(r->variant_source, out);
}

static void wheel_variant_how(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    tmpl_value_str(w->variant_how[0] ? w->variant_how : NULL, out);
}

static void wheel_index(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    tmpl_value_str(r->index, out);
}

static void wheel_index_url(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    tmpl_value_str(r->index_url, out);
}

static void wheel_wheelarch_version(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    tmpl_value_str(r->wheelarch_version, out);
}

static void wheel_requires_python(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    tmpl_value_str(r->requires_python, out);
}

static void wheel_yanked(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    if (r->yanked_reason)
        tmpl_value_str(r->yanked_reason, out);
    else
        tmpl_value_bool(r->yanked, out);
}

static void wheel_wheel(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    tmpl_value_typed(TMPL_OBJECT, &name_type, &r->name, 0, out);
}

static void wheel_binaries(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    tmpl_value_typed(TMPL_ARRAY, &binaries_type, w, 0, out);
}

static void wheel_has_binaries(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    tmpl_value_bool(r->binaries.n > 0, out);
}

static const struct tmpl_field wheel_fields[] = {
    TMPL_GET("filename", wheel_filename),
    TMPL_GET("url", wheel_url),
    TMPL_GET("key", wheel_key),
    TMPL_GET("href", wheel_href),
    TMPL_GET("sha256", wheel_sha256),
    TMPL_GET("sha256_verified", wheel_sha256_verified),
    TMPL_GET("status", wheel_status),
    TMPL_GET("inferred_from", wheel_inferred_from),
    TMPL_GET("scanned_at", wheel_scanned_at),
    TMPL_GET("data_as_of", wheel_scanned_at),
    TMPL_GET("upload_time", wheel_upload_time),
    TMPL_GET("size", wheel_size),
    TMPL_GET("variant", wheel_variant),
    TMPL_GET("variant_source", wheel_variant_source),
    TMPL_GET("variant_how", wheel_variant_how),
    TMPL_GET("index", wheel_index),
    TMPL_GET("index_url", wheel_index_url),
    TMPL_GET("wheelarch_version", wheel_wheelarch_version),
    TMPL_GET("requires_python", wheel_requires_python),
    TMPL_GET("yanked", wheel_yanked),
    TMPL_GET("wheel", wheel_wheel),
    TMPL_STR("release_page", struct sitedata_wheel, release_page),
    TMPL_GET("binaries", wheel_binaries),
    TMPL_GET("has_binaries", wheel_has_binaries),
};

static const struct tmpl_type wheel_type = TMPL_FIELDS(wheel_fields);

void sitedata_wheel_value(const struct sitedata_wheel *w, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &wheel_type, w, 0, out);
}
