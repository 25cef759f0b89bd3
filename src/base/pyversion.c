/*
 * pyversion: Python versions as written (pyversion.h).
 */
#include "pyversion.h"

#include <ctype.h>
#include <stdio.h>

int pyversion_parse(const char *s, uint16_t *version, int *free_threaded)
{
    const char *p = s;
    if (!p || (*p != '2' && *p != '3') || p[1] != '.' || !isdigit((unsigned char)p[2]))
        return -1;
    unsigned minor = (unsigned)(p[2] - '0');
    p += 3;
    if (isdigit((unsigned char)*p)) {
        if (p[-1] == '0')
            return -1; /* "3.01" */
        minor = minor * 10 + (unsigned)(*p++ - '0');
    }
    int ft = 0;
    if (*p == 't') {
        ft = 1;
        p++;
    }
    if (*p)
        return -1;
    *version = (uint16_t)((s[0] - '0') * 100 + minor);
    *free_threaded = ft;
    return 0;
}

void pyversion_format(uint16_t version, int free_threaded, char *buf, size_t n)
{
    snprintf(buf, n, "%u.%u%s", version / 100u, version % 100u, free_threaded ? "t" : "");
}
