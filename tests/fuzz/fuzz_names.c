/* libFuzzer target: target names, nvcc arch-flag strings, wheel names. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "target.h"
#include "wheelname.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    memcpy(s, data, size);
    s[size] = '\0';
    struct target t[64];
    target_parse(s, &t[0]);
    target_parse_gencode(s, t, 64);
    struct wheel_name w;
    if (wheelname_parse(s, &w, NULL) == 0)
        (void)wheelname_platform_id(w.platform);
    wheelname_free(&w);
    free(s);
    return 0;
}
