/* libFuzzer target: database records as a merged shard could hold them.
 * The input is parsed as JSON the way db_read_record parses a record file
 * and checked with recordcheck_validate, under the key it claims and under
 * a fixed key.  A record that passes must hold what the code after the
 * check relies on (abort() otherwise, so the fuzzer reports a gap in the
 * rules): its binaries as a type pass the checks a build makes when it
 * reads them back (recbinary_wrong), their columns' text forms read back
 * as the same text, and they go through the wheel page data the site
 * builds from them.
 * A rejection's message must be one line. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "recbinary.h"
#include "record.h"
#include "recordcheck.h"
#include "sitedata.h"
#include "tmpl.h"

static const char fixed_key[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

static const char *jstr(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

/* Strings the site turns into paths, ids, CSV cells and table keys. */
static void must_be_plain(const char *s)
{
    if (!s || !*s || strpbrk(s, "<>&\"'/\\, \n\r\t"))
        abort();
}

/* Every name the wheel template reads, and the others the page has. */
static const char *const names[] = {"filename",
                                    "url",
                                    "key",
                                    "href",
                                    "sha256",
                                    "sha256_verified",
                                    "status",
                                    "inferred_from",
                                    "inferred_page",
                                    "scanned_at",
                                    "data_as_of",
                                    "upload_time",
                                    "size",
                                    "variant",
                                    "variant_source",
                                    "variant_how",
                                    "index",
                                    "index_url",
                                    "wheelarch_version",
                                    "requires_python",
                                    "yanked",
                                    "sass",
                                    "ptx",
                                    "has_sass",
                                    "wheel",
                                    "release_page",
                                    "binaries",
                                    "has_binaries",
                                    "project",
                                    "public_version",
                                    "path",
                                    "format",
                                    "modules",
                                    "dlink_modules",
                                    "library_modules",
                                    "bundled",
                                    "arch_flags",
                                    "warnings",
                                    "lto",
                                    "target_list",
                                    "compression_list",
                                    "table_id",
                                    "name",
                                    "entries",
                                    "bytes",
                                    "uncompressed_bytes",
                                    "codecs",
                                    "isa",
                                    "codec",
                                    NULL};

/* Reads every value of a typed page as the templates would: each name of
 * every object, each item of every array; strings must be their length. */
static void walk(const struct tmpl_value *v, int depth)
{
    if (depth > 8)
        abort(); /* the page nests five deep */
    if (v->kind == TMPL_STRING) {
        const char *s = v->s ? v->s : v->buf;
        if (strlen(s) != v->n)
            abort();
    } else if (v->kind == TMPL_OBJECT) {
        for (const char *const *n = names; *n; n++) {
            struct tmpl_value x = {.kind = TMPL_MISSING};
            tmpl_value_field(v, *n, &x);
            walk(&x, depth + 1);
        }
    } else if (v->kind == TMPL_ARRAY) {
        size_t n = tmpl_value_items(v);
        for (size_t i = 0; i < n; i++) {
            struct tmpl_value x = {.kind = TMPL_MISSING};
            v->type->at(v, i, &x);
            walk(&x, depth + 1);
        }
    }
}

static void check(const char *key, json_t *rec)
{
    struct wa_error err;
    if (recordcheck_validate(key, rec, &err) < 0) {
        if (err.code != WA_ERR_FORMAT || strchr(err.msg, '\n') || !err.msg[0])
            abort();
        return;
    }
    json_t *w = json_object_get(rec, "wheel");
    must_be_plain(jstr(w, "normalized_name"));
    must_be_plain(jstr(w, "public_version"));
    must_be_plain(jstr(w, "platform_id"));
    must_be_plain(jstr(rec, "variant"));
    must_be_plain(jstr(rec, "filename"));
    const char *status = jstr(rec, "status");
    if (!status || strcmp(jstr(rec, "key"), key) != 0)
        abort();
    struct record r;
    if (record_of_json(key, rec, &r, &err) < 0) /* it passed the checks above */
        abort();
    if (strcmp(r.key, key) || strcmp(r.filename, jstr(rec, "filename")) ||
        strcmp(r.name.normalized, jstr(w, "normalized_name")))
        abort();
    for (size_t i = 0; i < r.binaries.n; i++) {
        struct recbinary *b = &r.binaries.v[i];
        if (recbinary_wrong(b)) /* stored, it would not read back */
            abort();
        struct recbinary_lines *ls[] = {&b->arch_flags, &b->warnings};
        for (int k = 0; k < 2; k++) {
            char *text = recbinary_lines_text(ls[k]);
            struct recbinary_lines back;
            recbinary_lines_parse(text, &back);
            char *again = recbinary_lines_text(&back);
            if (back.n != ls[k]->n || strcmp(text, again))
                abort();
            for (size_t j = 0; j < back.n; j++)
                free(back.v[j]);
            free(back.v);
            free(text);
            free(again);
        }
        char *sets = recbinary_sets_text(b), *comp = recbinary_compression_text(b);
        struct recbinary y = {0};
        if (recbinary_sets_parse(sets, &y) < 0 || recbinary_compression_parse(comp, &y) < 0)
            abort();
        char *sets2 = recbinary_sets_text(&y), *comp2 = recbinary_compression_text(&y);
        if (strcmp(sets, sets2) || strcmp(comp, comp2))
            abort();
        free(sets), free(comp), free(sets2), free(comp2);
        for (size_t k = 0; k < y.nsets; k++)
            free(y.sets[k].targets.v);
        free(y.sets);
        free(y.compression);
    }
    struct sitedata_wheel wp;
    sitedata_wheel_make(&r, &wp);
    struct tmpl_value page;
    sitedata_wheel_value(&wp, &page);
    walk(&page, 0);
    sitedata_wheel_free(&wp);
    record_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *rec = json_loadb((const char *)data, size, 0, NULL);
    if (!rec)
        return 0;
    const char *claimed = jstr(rec, "key");
    if (claimed)
        check(claimed, rec);
    check(fixed_key, rec);
    json_decref(rec);
    return 0;
}
