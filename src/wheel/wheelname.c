/*
 * wheelname: parse wheel file names.
 */
#include "wheelname.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dotver.h"
#include "xalloc.h"

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

char *wheelname_percent_decode(const char *s)
{
    size_t n = strlen(s);
    char *out = xmalloc(n + 1);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        int h, l;
        if (s[i] == '%' && i + 2 < n && (h = hexval((unsigned char)s[i + 1])) >= 0 &&
            (l = hexval((unsigned char)s[i + 2])) >= 0 && (h || l)) {
            out[j++] = (char)(h * 16 + l);
            i += 2;
        } else {
            out[j++] = s[i];
        }
    }
    out[j] = '\0';
    return out;
}

char *wheelname_normalize(const char *project)
{
    size_t n = strlen(project);
    char *out = xmalloc(n + 1);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        char c = project[i];
        if (c == '-' || c == '_' || c == '.') {
            if (j == 0 || out[j - 1] != '-')
                out[j++] = '-';
        } else {
            out[j++] = (char)tolower((unsigned char)c);
        }
    }
    out[j] = '\0';
    return out;
}

static int all_chars(const char *s, const char *extra)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
            return 0;
    return 1;
}

void wheelname_free(struct wheel_name *w)
{
    if (!w)
        return;
    free(w->filename);
    free(w->project);
    free(w->normalized);
    free(w->version);
    free(w->public_version);
    free(w->local);
    free(w->build);
    free(w->python);
    free(w->abi);
    free(w->platform);
    memset(w, 0, sizeof *w);
}

int wheelname_parse(const char *filename, struct wheel_name *w, struct wa_error *err)
{
    memset(w, 0, sizeof *w);
    const char *base = strrchr(filename, '/');
    base = base ? base + 1 : filename;
    char *name = wheelname_percent_decode(base);
    size_t n = strlen(name);
    if (n < 5 || strcmp(name + n - 4, ".whl") != 0) {
        free(name);
        return wa_error_set(err, WA_ERR_FORMAT, "file name does not end in .whl");
    }
    char *stem = xstrndup(name, n - 4);
    char *parts[7];
    size_t np = 0;
    for (char *p = stem, *dash; np < 7; p = dash + 1) {
        parts[np++] = p;
        dash = strchr(p, '-');
        if (!dash)
            break;
        *dash = '\0';
    }
    int rc = 0;
    if (np != 5 && np != 6) {
        rc = wa_error_set(err, WA_ERR_FORMAT, "wheel file name needs 5 or 6 dash-separated parts");
        goto out;
    }
    const char *project = parts[0], *version = parts[1];
    const char *build = np == 6 ? parts[2] : NULL;
    const char *py = parts[np - 3], *abi = parts[np - 2], *plat = parts[np - 1];
    if (!all_chars(project, "._") || !all_chars(version, ".+!_") ||
        (build && (!all_chars(build, "._") || !isdigit((unsigned char)build[0]))) ||
        !all_chars(py, "._") || !all_chars(abi, "._") || !all_chars(plat, "._")) {
        rc = wa_error_set(err, WA_ERR_FORMAT, "wheel file name has unexpected characters");
        goto out;
    }
    const char *why;
    if (dotver_pep440_check(version, &why) < 0) {
        rc =
            wa_error_set(err, WA_ERR_FORMAT, "wheel file name's version %.60s is %s", version, why);
        goto out;
    }
    w->filename = xstrdup(name);
    w->project = xstrdup(project);
    w->normalized = wheelname_normalize(project);
    w->version = xstrdup(version);
    const char *plus = strchr(version, '+');
    if (plus) {
        if (plus[1] == '\0') {
            wheelname_free(w);
            rc = wa_error_set(err, WA_ERR_FORMAT, "empty local version label");
            goto out;
        }
        w->public_version = xstrndup(version, (size_t)(plus - version));
        w->local = xstrdup(plus + 1);
    } else {
        w->public_version = xstrdup(version);
    }
    w->build = build ? xstrdup(build) : NULL;
    w->python = xstrdup(py);
    w->abi = xstrdup(abi);
    w->platform = xstrdup(plat);
out:
    free(stem);
    free(name);
    return rc;
}

static int has_tag_part(const char *tags, const char *needle)
{
    return strstr(tags, needle) != NULL;
}

const char *wheelname_platform_id(const char *p)
{
    if (!p)
        return "other";
    if (strcmp(p, "any") == 0)
        return "any";
    int linux_ = has_tag_part(p, "linux");
    if (linux_ && has_tag_part(p, "x86_64"))
        return "linux-x86_64";
    if (linux_ && has_tag_part(p, "aarch64"))
        return "linux-aarch64";
    if (has_tag_part(p, "win_amd64"))
        return "windows-x86_64";
    if (has_tag_part(p, "win_arm64"))
        return "windows-arm64";
    if (has_tag_part(p, "macosx") && has_tag_part(p, "arm64"))
        return "macos-arm64";
    if (has_tag_part(p, "macosx") && has_tag_part(p, "x86_64"))
        return "macos-x86_64";
    return "other";
}
