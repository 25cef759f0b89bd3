/* libFuzzer target: index page link extraction (HTML and PEP 691 JSON),
 * URL resolution, entity decoding, and the configuration parser. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "indexpage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    struct index_page p;
    if (indexpage_parse_html("https://download.pytorch.org/whl/cu128/torch/", s, size, &p, NULL) ==
        0)
        indexpage_free(&p);
    if (indexpage_parse_json("https://h/simple/x/", s, size, &p, NULL) == 0)
        indexpage_free(&p);
    free(indexpage_entity_decode(s, size));
    char *z = malloc(size + 1);
    memcpy(z, data, size);
    z[size] = '\0';
    free(indexpage_resolve("https://h/a/b/c", z));
    free(indexpage_resolve(z, "../x.whl"));
    free(z);
    struct config cfg;
    if (config_parse(s, size, &cfg, NULL) == 0)
        config_free(&cfg);
    return 0;
}
