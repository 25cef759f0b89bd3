/*
 * cli_pyfind: which Python a command names, without starting it where the
 * environment says: pyenv's shims by pyenv's own version files, a venv by
 * its pyvenv.cfg, conda by its package metadata, any interpreter by its
 * resolved file name (python3.12); and what asking one said, remembered.
 */
#include "cli_pyfind.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "strbuf.h"
#include "tables.h"
#include "xalloc.h"

/* Files read here are small: a version file, a pyvenv.cfg. */
#define SMALL_FILE_MAX 65536
/* Entries of the file of remembered versions. */
#define REMEMBERED_MAX 64

static char *read_small(const char *path)
{
    char *data = NULL;
    size_t n;
    struct wa_error e;
    if (fsutil_read(path, SMALL_FILE_MAX, &data, &n, NULL, &e) < 0)
        return NULL;
    return data;
}

static int is_exec(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* "3.12", "3.12.4", "3.13.0t", "3.13t-dev": the major.minor (and 't') it
 * starts with, as tables_python_parse takes them. */
static int version_of_text(const char *s, uint16_t *v, int *ft)
{
    char buf[16];
    size_t i = 0, dots = 0;
    while (s[i] && i < sizeof buf - 2 && (isdigit((unsigned char)s[i]) || s[i] == '.')) {
        if (s[i] == '.' && ++dots == 2)
            break;
        buf[i] = s[i];
        i++;
    }
    size_t end = i;
    if (s[i] == '.') /* skip the micro version */
        while (isdigit((unsigned char)s[++i]))
            ;
    if (s[i] == 't' && end < sizeof buf - 1)
        buf[end++] = 't';
    buf[end] = '\0';
    return tables_python_parse(buf, v, ft);
}

/* python3.12 or python3.13t as a file's base name. */
static int version_of_name(const char *path, uint16_t *v, int *ft)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return strncmp(base, "python", 6) == 0 && tables_python_parse(base + 6, v, ft) == 0 ? 0 : -1;
}

/* The first executable `name` on PATH, not resolved, skipping the folder
 * skip (NULL: none).  Caller frees; NULL when there is none. */
static char *on_path(const char *name, const char *skip)
{
    const char *path = getenv("PATH");
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        size_t n = strcspn(p, ":");
        char *dir = n ? xstrndup(p, n) : xstrdup(".");
        char *cand = xasprintf("%s/%s", dir, name);
        int skipped = skip && strcmp(dir, skip) == 0;
        free(dir);
        if (!skipped && is_exec(cand))
            return cand;
        free(cand);
        p += n;
        if (*p == ':')
            p++;
    }
    return NULL;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
}

static int found(struct cli_pyfind *f, uint16_t v, int ft)
{
    f->version = v;
    f->free_threaded = ft;
    return 1;
}

/* A resolved interpreter file: its name says its version, else it is
 * asked (and may be remembered). */
static int by_file(const char *cand, struct cli_pyfind *f)
{
    char *real = realpath(cand, NULL);
    snprintf(f->path, sizeof f->path, "%s", real ? real : cand);
    uint16_t v;
    int ft;
    int named = real && version_of_name(real, &v, &ft) == 0;
    snprintf(f->how, sizeof f->how, "%.300s", named ? real : cand);
    free(real);
    f->cacheable = 1;
    return named ? found(f, v, ft) : 0;
}

/* ---- a venv: pyvenv.cfg ---------------------------------------------------- */

/* The value of key in a pyvenv.cfg ("key = value" lines), or NULL. */
static char *cfg_value(const char *cfg, const char *key)
{
    size_t kl = strlen(key);
    for (const char *l = cfg; *l;) {
        size_t n = strcspn(l, "\n");
        const char *p = l;
        while (p < l + n && isspace((unsigned char)*p))
            p++;
        if ((size_t)(l + n - p) > kl && strncmp(p, key, kl) == 0) {
            const char *q = p + kl;
            while (q < l + n && (*q == ' ' || *q == '\t'))
                q++;
            if (q < l + n && *q == '=') {
                q++;
                while (q < l + n && isspace((unsigned char)*q))
                    q++;
                const char *e = l + n;
                while (e > q && isspace((unsigned char)e[-1]))
                    e--;
                return xstrndup(q, (size_t)(e - q));
            }
        }
        l += n + (l[n] == '\n');
    }
    return NULL;
}

/* cand in ENV/bin of a venv: its pyvenv.cfg's version_info (uv) or
 * version (venv, virtualenv); a free-threaded base is told by the
 * executable it names or by cand's own file name. */
static int by_venv(const char *cand, const char *bindir, struct cli_pyfind *f)
{
    char *env = dir_of(bindir);
    char *cfgpath = xasprintf("%s/pyvenv.cfg", env);
    char *cfg = read_small(cfgpath);
    int rc = 0;
    if (cfg) {
        char *ver = cfg_value(cfg, "version_info");
        if (!ver)
            ver = cfg_value(cfg, "version");
        char *exe = cfg_value(cfg, "executable");
        uint16_t v, ev;
        int ft = 0, eft = 0;
        if (ver && version_of_text(ver, &v, &ft) == 0) {
            char *real = realpath(cand, NULL);
            uint16_t rv;
            int rft = 0;
            if ((exe && version_of_name(exe, &ev, &eft) == 0 && ev == v && eft) ||
                (real && version_of_name(real, &rv, &rft) == 0 && rv == v && rft))
                ft = 1;
            free(real);
            snprintf(f->how, sizeof f->how, "the venv %.300s's, by its pyvenv.cfg", env);
            snprintf(f->path, sizeof f->path, "%s", cand);
            rc = found(f, v, ft);
        }
        free(ver);
        free(exe);
        free(cfg);
    }
    free(cfgpath);
    free(env);
    return rc;
}

/* ---- conda: conda-meta/python-X.Y.Z-BUILD.json ------------------------------- */

static int by_conda(const char *prefix, struct cli_pyfind *f)
{
    char *meta = xasprintf("%s/conda-meta", prefix);
    DIR *d = opendir(meta);
    int rc = 0, ft = 0;
    uint16_t v = 0;
    char name[300] = "";
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            const char *n = de->d_name;
            if (strncmp(n, "python-freethreading-", 21) == 0)
                ft = 1;
            else if (strncmp(n, "python-", 7) == 0 && isdigit((unsigned char)n[7]) && !rc &&
                     version_of_text(n + 7, &v, &(int){0}) == 0) {
                rc = 1;
                snprintf(name, sizeof name, "%s", n);
            }
        }
        closedir(d);
    }
    if (rc) {
        snprintf(f->how, sizeof f->how, "conda's %.200s, by conda-meta/%.150s", prefix, name);
        found(f, v, ft);
    }
    free(meta);
    return rc;
}

/* ---- pyenv: the shims and the version files ------------------------------ */

/* pyenv's root when bindir is its shims folder (ROOT/shims with
 * ROOT/versions beside it), else NULL.  Caller frees. */
static char *pyenv_root_of(const char *bindir)
{
    const char *base = strrchr(bindir, '/');
    if (base && strcmp(base + 1, "shims") == 0) {
        char *root = dir_of(bindir);
        char *versions = xasprintf("%s/versions", root);
        struct stat st;
        int ok = stat(versions, &st) == 0 && S_ISDIR(st.st_mode);
        free(versions);
        if (ok)
            return root;
        free(root);
    }
    return NULL;
}

/* The version names pyenv would use, in order, and what set them: the
 * PYENV_VERSION variable, a .python-version file in the working folder
 * or one above it, else ROOT/version.  Returns the names (caller frees),
 * separated by spaces, or NULL ("system"). */
static char *pyenv_names(const char *root, char *setby, size_t n)
{
    const char *env = getenv("PYENV_VERSION");
    if (env && *env) {
        snprintf(setby, n, "PYENV_VERSION");
        char *s = xstrdup(env);
        for (char *p = s; *p; p++)
            if (*p == ':')
                *p = ' ';
        return s;
    }
    char cwd[PATH_MAX];
    char *text = NULL;
    if (getcwd(cwd, sizeof cwd)) {
        for (;;) {
            char *file = xasprintf("%s/.python-version", strcmp(cwd, "/") ? cwd : "");
            text = read_small(file);
            if (text) {
                snprintf(setby, n, "%s", file);
                free(file);
                break;
            }
            free(file);
            char *slash = strrchr(cwd, '/');
            if (!slash || slash == cwd) {
                if (strcmp(cwd, "/") == 0)
                    break;
                strcpy(cwd, "/");
                continue;
            }
            *slash = '\0';
        }
    }
    if (!text) {
        char *file = xasprintf("%s/version", root);
        text = read_small(file);
        if (text)
            snprintf(setby, n, "%s", file);
        free(file);
    }
    if (!text)
        return NULL;
    /* one name per line (or per word); '#' starts a comment */
    struct {
        char *s;
        size_t len;
    } out = {xmalloc(strlen(text) + 1), 0};
    for (char *l = text; *l;) {
        size_t ln = strcspn(l, "\n");
        char *p = l;
        while (p < l + ln) {
            while (p < l + ln && isspace((unsigned char)*p))
                p++;
            if (p >= l + ln || *p == '#')
                break;
            char *w = p;
            while (p < l + ln && !isspace((unsigned char)*p))
                p++;
            if (out.len)
                out.s[out.len++] = ' ';
            memcpy(out.s + out.len, w, (size_t)(p - w));
            out.len += (size_t)(p - w);
        }
        l += ln + (l[ln] == '\n');
    }
    out.s[out.len] = '\0';
    free(text);
    if (!out.len) {
        free(out.s);
        return NULL;
    }
    return out.s;
}

static int by_pyenv(const char *python, const char *root, const char *shims, struct cli_pyfind *f)
{
    char setby[PATH_MAX + 32] = "";
    char *names = pyenv_names(root, setby, sizeof setby);
    int rc = 0;
    char said[PATH_MAX + 48] = "";
    if (*setby)
        snprintf(said, sizeof said, ", set by %.300s", setby);
    for (char *p = names ? names : "system", *end; !rc && *p; p = end) {
        end = p + strcspn(p, " ");
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(end - p), p);
        if (*end)
            end++;
        if (strcmp(name, "system") == 0) {
            /* pyenv runs the python3 found on PATH past its shims */
            char *cand = on_path(python, shims);
            if (cand) {
                rc = by_file(cand, f) ? 1 : -2;
                char how[sizeof f->how];
                snprintf(how, sizeof how, "pyenv's system Python%.300s, %.200s", said, f->how);
                memcpy(f->how, how, sizeof how);
            }
            free(cand);
            continue;
        }
        char *cand = xasprintf("%s/versions/%s/bin/%s", root, name, python);
        if (is_exec(cand)) {
            uint16_t v;
            int ft;
            if (by_file(cand, f)) {
                rc = 1;
            } else if (version_of_text(name, &v, &ft) == 0) {
                rc = found(f, v, ft); /* a version's own folder (3.11.7): its name says it */
            } else {
                rc = -2; /* a virtualenv's name: its interpreter is asked */
            }
            snprintf(f->how, sizeof f->how, "pyenv's %.200s%.300s", name, said);
        }
        free(cand);
    }
    free(names);
    return rc == -2 ? 0 : rc;
}

/* f->how as "NAME is HOW", the first line's words. */
static void say_is(struct cli_pyfind *f, const char *name)
{
    char how[sizeof f->how];
    if (strcmp(f->how, name) == 0)
        return;
    snprintf(how, sizeof how, "%.150s is %.440s", name, f->how);
    memcpy(f->how, how, sizeof how);
}

int cli_pyfind(const char *python, struct cli_pyfind *f)
{
    memset(f, 0, sizeof *f);
    int rc = 0;
    if (strchr(python, '/')) {
        snprintf(f->path, sizeof f->path, "%s", python);
        if (!is_exec(python))
            return 0; /* asking says why it cannot be run */
        char *bindir = dir_of(python);
        rc = by_venv(python, bindir, f);
        free(bindir);
        if (!rc)
            rc = by_file(python, f);
        say_is(f, python);
        return rc;
    }
    char *cand = on_path(python, NULL);
    if (!cand)
        return -1;
    char *bindir = dir_of(cand);
    char *root = pyenv_root_of(bindir);
    const char *conda = getenv("CONDA_PREFIX");
    char *conda_bin = conda && *conda ? xasprintf("%s/bin", conda) : NULL;
    if (root) {
        rc = by_pyenv(python, root, bindir, f);
        if (rc == 0 && !f->path[0]) {
            snprintf(f->path, sizeof f->path, "%s", cand); /* the shim: asked, not remembered */
            snprintf(f->how, sizeof f->how, "pyenv's shim %.300s", cand);
        }
    } else if ((rc = by_venv(cand, bindir, f)) == 0 && (rc = by_file(cand, f)) == 0 && conda_bin &&
               strcmp(conda_bin, bindir) == 0) {
        char path[sizeof f->path];
        memcpy(path, f->path, sizeof path);
        if ((rc = by_conda(conda, f)) == 0)
            memcpy(f->path, path, sizeof path); /* not said there: asked */
    }
    char name[300];
    snprintf(name, sizeof name, "%s on PATH", python);
    say_is(f, name);
    free(conda_bin);
    free(root);
    free(bindir);
    free(cand);
    return rc;
}

/* ---- what asking said, remembered ------------------------------------------ */

static char *remembered_path(void)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/')
        return xasprintf("%s/wheelarch/python-versions", xdg);
    if (home && home[0] == '/')
        return xasprintf("%s/.cache/wheelarch/python-versions", home);
    return NULL;
}

/* The key of an interpreter file: "MTIME_NS SIZE PATH". */
static int file_key(const char *path, char *key, size_t n)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    snprintf(key, n, "%lld.%09ld %lld %s", (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec,
             (long long)st.st_size, path);
    return 0;
}

int cli_pyfind_recall(struct cli_pyfind *f)
{
    char key[4200];
    char *file = f->cacheable ? remembered_path() : NULL;
    char *text = file && file_key(f->path, key, sizeof key) == 0 ? read_small(file) : NULL;
    int rc = 0;
    size_t kl = strlen(key);
    for (char *l = text; l && *l && !rc;) {
        size_t n = strcspn(l, "\n");
        /* "VERSION\tKEY" */
        char *tab = memchr(l, '\t', n);
        if (tab && (size_t)(l + n - tab - 1) == kl && memcmp(tab + 1, key, kl) == 0) {
            char ver[16];
            snprintf(ver, sizeof ver, "%.*s", (int)(tab - l < 15 ? tab - l : 15), l);
            uint16_t v;
            int ft;
            if (tables_python_parse(ver, &v, &ft) == 0) {
                char how[sizeof f->how];
                snprintf(how, sizeof how, "%.300s, asked before (remembered in %.200s)", f->how,
                         file);
                memcpy(f->how, how, sizeof how);
                rc = found(f, v, ft);
            }
        }
        l += n + (l[n] == '\n');
    }
    free(text);
    free(file);
    return rc;
}

/* The file path of a line "VERSION\tMTIME SIZE PATH" (its end is the
 * line's), or NULL. */
static const char *line_path(const char *l, size_t n)
{
    const char *p = memchr(l, '\t', n);
    for (int i = 0; p && i < 2; i++)
        p = memchr(p + 1, ' ', (size_t)(l + n - p - 1));
    return p ? p + 1 : NULL;
}

void cli_pyfind_remember(const struct cli_pyfind *f)
{
    char key[4200];
    char *file = f->cacheable ? remembered_path() : NULL;
    if (!file || file_key(f->path, key, sizeof key) < 0 || strpbrk(key, "\n\t")) {
        free(file);
        return;
    }
    char ver[16];
    tables_python_format(f->version, f->free_threaded, ver, sizeof ver);
    /* this file's line first, then those of other files, newest first */
    struct strbuf b = STRBUF_INIT;
    strbuf_addf(&b, "%s\t%s\n", ver, key);
    char *old = read_small(file);
    size_t kept = 1, pl = strlen(f->path);
    for (char *l = old; l && *l && kept < REMEMBERED_MAX;) {
        size_t n = strcspn(l, "\n");
        const char *op = line_path(l, n);
        if (op && !((size_t)(l + n - op) == pl && memcmp(op, f->path, pl) == 0)) {
            strbuf_add(&b, l, n);
            strbuf_addc(&b, '\n');
            kept++;
        }
        l += n + (l[n] == '\n');
    }
    free(old);
    char *dir = dir_of(file);
    struct wa_error e;
    if (fsutil_mkdirs(dir, &e) == 0) /* a cache: failing to write it costs one more ask */
        fsutil_write_atomic(file, strbuf_str(&b), b.len, 0, &e);
    free(dir);
    strbuf_free(&b);
    free(file);
}
