/* libFuzzer target: a wheel's METADATA (wheelmeta), read from every wheel
 * the crawler scans, whatever the index serves.  Any bytes must parse
 * without reading out of bounds, and what comes out must be what the
 * record checks accept: at most WHEELMETA_MAX_REQUIRES values, each one
 * non-empty line of at most WHEELMETA_MAX_FIELD bytes, trimmed, without
 * control characters; each value's requirement parse gives a normalised
 * name or none, and its marker an answer. */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wheelmeta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char **req;
    size_t n;
    wheelmeta_requires((const char *)data, size, &req, &n);
    if (n > WHEELMETA_MAX_REQUIRES)
        abort();
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(req[i]);
        if (len == 0 || len > WHEELMETA_MAX_FIELD || isspace((unsigned char)req[i][0]) ||
            isspace((unsigned char)req[i][len - 1]))
            abort();
        for (size_t k = 0; k < len; k++)
            if ((unsigned char)req[i][k] < 0x20 || req[i][k] == 0x7f)
                abort();
        /* markers: any text ends in an answer */
        (void)wheelmeta_marker_applies(req[i], "linux-x86_64");
        (void)wheelmeta_marker_applies(req[i], "windows-x86_64");
        char *name, *pin;
        if (wheelmeta_requirement(req[i], &name, &pin) == 0) {
            if (!name || !*name)
                abort();
            for (const char *p = name; *p; p++)
                if (isupper((unsigned char)*p) || *p == '_' || *p == '.')
                    abort(); /* normalised */
        } else if (name || pin) {
            abort();
        }
        free(name);
        free(pin);
    }
    wheelmeta_free(req, n);
    return 0;
}
