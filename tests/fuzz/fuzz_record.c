/* libFuzzer target: database records as a merged shard could hold them.
 * The input is parsed as JSON the way db_read_record parses a record file
 * and checked with recordcheck_validate, under the key it claims and under
 * a fixed key.  A record that passes must hold what the code after the
 * check relies on (abort() otherwise, so the fuzzer reports a gap in the
 * rules), and goes through the wheel page data the site builds from it.
 * A rejection's message must be one line. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "record.h"
#include "recordcheck.h"
#include "sitedata.h"

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
    if (record_read(key, rec, &r, &err) < 0) /* it passed the checks above */
        abort();
    if (strcmp(r.key, key) || strcmp(r.filename, jstr(rec, "filename")) ||
        strcmp(r.name.normalized, jstr(w, "normalized_name")))
        abort();
    json_t *page = sitedata_wheel_page(&r);
    json_decref(page);
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
