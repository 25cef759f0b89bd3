/*
 * wheelkey: sha256 or URL-derived keys of wheels.
 */
#include "wheelkey.h"

#include <string.h>

#include "sha256.h"
#include "xalloc.h"

static int hex_run(const char *s, size_t n, int lower_only)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        int ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
                 (!lower_only && c >= 'A' && c <= 'F');
        if (!ok)
            return 0;
    }
    return s[n] == '\0';
}

int wheelkey_sha256_valid(const char *s)
{
    return s && strnlen(s, 65) == 64 && hex_run(s, 64, 0);
}

int wheelkey_valid(const char *key)
{
    if (!key)
        return 0;
    if (strncmp(key, "url-", 4) == 0)
        key += 4;
    return strnlen(key, 65) == 64 && hex_run(key, 64, 1);
}

char *wheelkey_make(const char *sha256, const char *url)
{
    if (sha256) {
        if (!wheelkey_sha256_valid(sha256))
            return NULL;
        char *k = xstrdup(sha256);
        for (char *c = k; *c; c++)
            if (*c >= 'A' && *c <= 'F')
                *c = (char)(*c - 'A' + 'a');
        return k;
    }
    struct sha256 *h = sha256_new();
    char hex[SHA256_HEX_SIZE];
    sha256_update(h, url, strlen(url));
    sha256_final_hex(h, hex);
    sha256_free(h);
    return xasprintf("url-%s", hex);
}
