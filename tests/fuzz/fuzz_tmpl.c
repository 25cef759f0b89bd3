/* libFuzzer target: the template compiler and renderer.  The input is
 * compiled as a template and rendered against a small fixed document,
 * twice: compiled on its own and rendered through a set (partials found
 * while rendering), and loaded by name from the set (partials linked).
 * The set's loader serves the input itself as partial "self" (so arbitrary
 * templates recurse), reports names starting with "missing" as absent, and
 * serves a fixed partial for any other name.  Small render budgets keep
 * nested lists and recursive partials from running long. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "strbuf.h"
#include "tmpl.h"
#include "tmpl_json.h"

struct input {
    const char *data;
    size_t size;
};

static const char fixed_partial[] =
    "<li class=\"{{kind}}\">{{name}}\n  {{#items}}\n  [{{.}}]\n  {{/items}}\n  {{>self}}\n</li>\n";

static const char document[] =
    "{\"name\": \"a<b>&'\\\"\", \"n\": 42, \"r\": 1.5, \"t\": true, \"f\": false, \"z\": null, "
    "\"kind\": \"k\", \"items\": [1, \"two\", 3.25, {\"name\": \"x\", \"items\": []}, [1, 2]], "
    "\"obj\": {\"name\": \"o\", \"child\": {\"name\": \"c\", \"child\": {}}}, \"empty\": []}";

static int load(void *ud, const char *name, char **text, size_t *len)
{
    const struct input *in = ud;
    const char *s = fixed_partial;
    size_t n = sizeof fixed_partial - 1;
    if (strncmp(name, "missing", 7) == 0)
        return -1;
    if (strcmp(name, "self") == 0) {
        s = in->data;
        n = in->size;
    }
    *text = malloc(n + 1);
    if (!*text)
        return -1;
    if (n)
        memcpy(*text, s, n);
    (*text)[n] = '\0';
    *len = n;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct input in = {(const char *)data, size};
    json_t *doc = json_loads(document, 0, NULL);
    struct strbuf out = STRBUF_INIT;
    struct wa_error err;
    struct tmpl *t;
    if (!doc)
        abort();
    if (tmpl_compile(in.data, size, &t, &err) == 0) {
        struct tmpl_set *s = tmpl_set_new(load, &in);
        tmpl_set_limits(s, 1 << 16, 50000);
        tmpl_json_render(s, t, doc, &out, &err);
        strbuf_reset(&out);
        tmpl_json_render_name(s, "self", doc, &out, &err);
        tmpl_set_free(s);
        tmpl_free(t);
    }
    strbuf_free(&out);
    json_decref(doc);
    return 0;
}
