/* libFuzzer target: jsontext's writer against jansson's.  Any input that
 * json_loads reads (as a C string, with and without JSON_REJECT_DUPLICATES)
 * must write the same through jsontext_dumps as through json_dumps in each
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
    json_t *v = json_loads(text, flags | JSON_DECODE_ANY, NULL);
    if (!v)
        return;
    same_text(v, 0);
    same_text(v, JSON_COMPACT);
    same_text(v, JSON_COMPACT | JSON_SORT_KEYS);
    same_text(v, JSON_SORT_KEYS | JSON_ENCODE_ANY);
    same_text(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    json_decref(v);
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
