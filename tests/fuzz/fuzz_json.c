/* libFuzzer target: jsontext against jansson.  Any input, as a C string,
 * must read the same through jsontext_loads as through json_loads (both
 * NULL with one message, or values that write the same, key order
 * included), with and without JSON_REJECT_DUPLICATES; a value read must
 * write the same through jsontext_dumps as through json_dumps in each
 * flag set the site uses.  abort() on any difference. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "jsontext.h"

static void same_text(json_t *v, size_t flags)
{
    char *a = json_dumps(v, flags), *b = jsontext_dumps(v, flags);
    if (!a != !b || (a && strcmp(a, b) != 0))
        abort();
    free(a);
    free(b);
}

static void one(const char *text, size_t flags)
{
    json_error_t e1, e2;
    json_t *want = json_loads(text, flags, &e1);
    json_t *got = jsontext_loads(text, flags, &e2);
    if (!want != !got || strcmp(e1.text, e2.text) != 0 || e1.position != e2.position)
        abort();
    if (want) {
        if (!json_equal(want, got))
            abort();
        char *a = json_dumps(want, 0), *b = json_dumps(got, 0);
        if (!a || !b || strcmp(a, b) != 0) /* key order */
            abort();
        free(a);
        free(b);
        same_text(want, 0);
        same_text(want, JSON_COMPACT);
        same_text(want, JSON_COMPACT | JSON_SORT_KEYS);
        same_text(want, JSON_SORT_KEYS | JSON_ENCODE_ANY);
    }
    json_decref(want);
    json_decref(got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    one(text, 0);
    one(text, JSON_REJECT_DUPLICATES);
    free(text);
    return 0;
}
