/*
 * paths: locate data/ and templates/.
 */
#include "paths.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef WHEELARCH_SOURCE_DIR
#define WHEELARCH_SOURCE_DIR ""
#endif
#ifndef WHEELARCH_INSTALL_DATADIR
#define WHEELARCH_INSTALL_DATADIR "/usr/local/share"
#endif

static int is_dir(const char *p)
{
    struct stat st;
    return p && *p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static const char *find(const char *env, const char *sub, char *buf, size_t n)
{
    const char *e = getenv(env);
    if (e && *e) {
        snprintf(buf, n, "%s", e);
        return is_dir(buf) ? buf : NULL;
    }
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(buf, n, "%s/../share/wheelarch/%s", exe, sub);
            if (is_dir(buf))
                return buf;
        }
    }
    snprintf(buf, n, "%s/%s", WHEELARCH_SOURCE_DIR, sub);
    if (WHEELARCH_SOURCE_DIR[0] && is_dir(buf))
        return buf;
    snprintf(buf, n, "%s/wheelarch/%s", WHEELARCH_INSTALL_DATADIR, sub);
    return is_dir(buf) ? buf : NULL;
}

const char *paths_data_dir(void)
{
    static char buf[PATH_MAX + 64];
    return find("WHEELARCH_DATA_DIR", "data", buf, sizeof buf);
}

const char *paths_templates_dir(void)
{
    static char buf[PATH_MAX + 64];
    return find("WHEELARCH_TEMPLATES_DIR", "templates", buf, sizeof buf);
}
