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
static void target_get(const struct tmpl_value *v, const char *name, size_t len,
                       struct tmpl_value *out)
{
    const struct recbinary_target *t = v->p;
    out->kind = TMPL_MISSING;
    if (sitedata_name_is(name, len, "name")) {
        char s[TARGET_NAME_MAX];
        target_format(&t->t, s, sizeof s);
        tmpl_value_strf(out, "%s", s);
    } else if (sitedata_name_is(name, len, "modules")) {
        sitedata_count(t->modules, out);
    } else if (sitedata_name_is(name, len, "library_modules")) {
        sitedata_count(t->library_modules, out);
    } else if (sitedata_name_is(name, len, "entries")) {
        sitedata_count(t->entries, out);
    } else if (sitedata_name_is(name, len, "bytes")) {
        sitedata_count(t->bytes, out);
    } else if (sitedata_name_is(name, len, "uncompressed_bytes")) {
        sitedata_count(t->uncompressed_bytes, out);
    } else if (sitedata_name_is(name, len, "codecs") && t->codecs_said) {
        tmpl_value_typed(TMPL_ARRAY, &codecs_type, t, 0, out);
    } else if (sitedata_name_is(name, len, "isa") && t->isa[0]) {
        tmpl_value_str(t->isa, out);
    }
}

const struct tmpl_type sitedata_target_type = {target_get, NULL, NULL, NULL, 0};

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
static void codec_get(const struct tmpl_value *v, const char *name, size_t len,
                      struct tmpl_value *out)
{
    const struct recbinary_codec *c = &((const struct recbinary *)v->p)->compression[v->at];
    out->kind = TMPL_MISSING;
    if (sitedata_name_is(name, len, "codec"))
        tmpl_value_str(c->codec, out);
    else if (sitedata_name_is(name, len, "entries"))
        tmpl_value_int(c->entries, out);
}

static const struct tmpl_type codec_type = {codec_get, NULL, NULL, NULL, 0};

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
static void binary_get(const struct tmpl_value *v, const char *name, size_t len,
                       struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct recbinary *b = &w->r->binaries.v[v->at];
    out->kind = TMPL_MISSING;
    if (sitedata_name_is(name, len, "path"))
        tmpl_value_str(b->path, out);
    else if (sitedata_name_is(name, len, "format") && b->format)
        tmpl_value_str(b->format, out);
    else if (sitedata_name_is(name, len, "size"))
        sitedata_count(b->size, out);
    else if (sitedata_name_is(name, len, "modules"))
        sitedata_count(b->modules, out);
    else if (sitedata_name_is(name, len, "dlink_modules"))
        sitedata_count(b->dlink_modules, out);
    else if (sitedata_name_is(name, len, "library_modules"))
        sitedata_count(b->library_modules, out);
    else if (sitedata_name_is(name, len, "bundled"))
        tmpl_value_bool(b->bundled, out);
    else if (sitedata_name_is(name, len, "arch_flags"))
        tmpl_value_typed(TMPL_ARRAY, &sitedata_lines_type, &b->arch_flags, 0, out);
    else if (sitedata_name_is(name, len, "warnings"))
        tmpl_value_typed(TMPL_ARRAY, &sitedata_lines_type, &b->warnings, 0, out);
    else if (sitedata_name_is(name, len, "sass"))
        tmpl_value_typed(TMPL_ARRAY, &sitedata_targets_type, &b->sass, 0, out);
    else if (sitedata_name_is(name, len, "ptx"))
        tmpl_value_typed(TMPL_ARRAY, &sitedata_targets_type, &b->ptx, 0, out);
    else if (sitedata_name_is(name, len, "lto"))
        tmpl_value_typed(TMPL_ARRAY, &sitedata_targets_type, &b->lto, 0, out);
    else if (sitedata_name_is(name, len, "target_list"))
        tmpl_value_typed(TMPL_ARRAY, &target_list_type, w, v->at, out);
    else if (sitedata_name_is(name, len, "compression_list"))
        tmpl_value_typed(TMPL_ARRAY, &compression_type, b, 0, out);
    else if (sitedata_name_is(name, len,
                              "table_id")) /* member paths are any bytes: the binary's place */
        tmpl_value_strf(out, "bin-%zu", v->at + 1);
}

static const struct tmpl_type binary_type = {binary_get, NULL, NULL, NULL, 0};

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
static void name_get(const struct tmpl_value *v, const char *name, size_t len,
                     struct tmpl_value *out)
{
    const struct wheel_name *n = v->p;
    out->kind = TMPL_MISSING;
    if (sitedata_name_is(name, len, "project"))
        tmpl_value_str(n->project, out);
    else if (sitedata_name_is(name, len, "normalized_name"))
        tmpl_value_str(n->normalized, out);
    else if (sitedata_name_is(name, len, "version"))
        tmpl_value_str(n->version, out);
    else if (sitedata_name_is(name, len, "public_version"))
        tmpl_value_str(n->public_version, out);
    else if (sitedata_name_is(name, len, "local"))
        tmpl_value_str(n->local, out);
    else if (sitedata_name_is(name, len, "python"))
        tmpl_value_str(n->python, out);
    else if (sitedata_name_is(name, len, "abi"))
        tmpl_value_str(n->abi, out);
    else if (sitedata_name_is(name, len, "platform"))
        tmpl_value_str(n->platform, out);
}

static const struct tmpl_type name_type = {name_get, NULL, NULL, NULL, 0};

/* The page: p is the sitedata_wheel. */
static void wheel_get(const struct tmpl_value *v, const char *name, size_t len,
                      struct tmpl_value *out)
{
    const struct sitedata_wheel *w = v->p;
    const struct record *r = w->r;
    out->kind = TMPL_MISSING;
    if (sitedata_name_is(name, len, "filename"))
        tmpl_value_str(r->filename, out);
    else if (sitedata_name_is(name, len, "url"))
        tmpl_value_str(r->url, out);
    else if (sitedata_name_is(name, len, "key"))
        tmpl_value_str(r->key, out);
    else if (sitedata_name_is(name, len, "href") && w->href)
        tmpl_value_str(w->href, out);
    else if (sitedata_name_is(name, len, "sha256"))
        tmpl_value_str(r->sha256, out);
    else if (sitedata_name_is(name, len, "sha256_verified")) {
        if (r->sha256_verified < 0)
            out->kind = TMPL_NULL;
        else
            tmpl_value_bool(r->sha256_verified, out);
    } else if (sitedata_name_is(name, len, "status"))
        tmpl_value_str(r->scanned ? "scanned" : "inferred", out);
    else if (sitedata_name_is(name, len, "inferred_from"))
        tmpl_value_str(r->inferred_from, out);
    else if (sitedata_name_is(name, len, "scanned_at") || sitedata_name_is(name, len, "data_as_of"))
        tmpl_value_str(r->scanned_at, out); /* a wheel page's date: the day it was read */
    else if (sitedata_name_is(name, len, "upload_time"))
        tmpl_value_str(r->upload_time, out);
    else if (sitedata_name_is(name, len, "size")) {
        if (r->size < 0)
            out->kind = TMPL_NULL;
        else
            tmpl_value_int(r->size, out);
    } else if (sitedata_name_is(name, len, "variant"))
        tmpl_value_str(r->variant, out);
    else if (sitedata_name_is(name, len, "variant_source"))
        tmpl_value_str(r->variant_source, out);
    else if (sitedata_name_is(name, len, "variant_how"))
        tmpl_value_str(w->variant_how[0] ? w->variant_how : NULL, out);
    else if (sitedata_name_is(name, len, "index"))
        tmpl_value_str(r->index, out);
    else if (sitedata_name_is(name, len, "index_url"))
        tmpl_value_str(r->index_url, out);
    else if (sitedata_name_is(name, len, "wheelarch_version"))
        tmpl_value_str(r->wheelarch_version, out);
    else if (sitedata_name_is(name, len, "requires_python"))
        tmpl_value_str(r->requires_python, out);
    else if (sitedata_name_is(name, len, "yanked")) {
        if (r->yanked_reason)
            tmpl_value_str(r->yanked_reason, out);
        else
            tmpl_value_bool(r->yanked, out);
    } else if (sitedata_name_is(name, len, "wheel"))
        tmpl_value_typed(TMPL_OBJECT, &name_type, &r->name, 0, out);
    else if (sitedata_name_is(name, len, "release_page"))
        tmpl_value_str(w->release_page, out);
    else if (sitedata_name_is(name, len, "binaries"))
        tmpl_value_typed(TMPL_ARRAY, &binaries_type, w, 0, out);
    else if (sitedata_name_is(name, len, "has_binaries"))
        tmpl_value_bool(r->binaries.n > 0, out);
}

static const struct tmpl_type wheel_type = {wheel_get, NULL, NULL, NULL, 0};

void sitedata_wheel_value(const struct sitedata_wheel *w, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &wheel_type, w, 0, out);
}
