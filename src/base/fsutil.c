/*
 * fsutil: atomic writes and small file helpers.
 */
#include "fsutil.h"

#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

char *fsutil_join(const char *dir, const char *name)
{
    size_t n = strlen(dir);
    if (n && dir[n - 1] == '/')
        return xasprintf("%s%s", dir, name);
    return xasprintf("%s/%s", dir, name);
}

int fsutil_mkdirs(const char *dir, struct wa_error *err)
{
    char *p = xstrdup(dir);
    int rc = 0;
    for (char *s = p + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                rc = wa_error_set(err, WA_ERR_IO, "cannot create directory %s: %s", p,
                                  strerror(errno));
                break;
            }
            *s = c;
            if (c == '\0')
                break;
        }
    }
    free(p);
    if (rc == 0) {
        struct stat st;
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
            rc = wa_error_set(err, WA_ERR_IO, "%s is not a directory", dir);
    }
    return rc;
}

int fsutil_create_temp(const char *path, char **tmp, struct wa_error *err)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? xstrndup(path, (size_t)(slash - path + 1)) : xstrdup("");
    static unsigned counter;
    const char *base = slash ? slash + 1 : path;
    /* the name, for a person who finds it, unless it would make the temporary
     * name longer than a file name may be */
    *tmp = xasprintf("%s.tmp-%ld-%u%s%s", dir, (long)getpid(),
                     __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED),
                     strlen(base) > 200 ? "" : "-", strlen(base) > 200 ? "" : base);
    free(dir);
    /* O_EXCL: a name no other file has, never a link followed */
    int fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
        int rc = wa_error_set(err, WA_ERR_IO, "cannot create %s: %s", *tmp, strerror(errno));
        free(*tmp);
        *tmp = NULL;
        return rc;
    }
    return fd;
}

int fsutil_write_atomic(const char *path, const void *data, size_t n, int sync,
                        struct wa_error *err)
{
    int rc = 0;
    char *tmp;
    int fd = fsutil_create_temp(path, &tmp, err);
    if (fd < 0)
        return fd;
    const char *p = data;
    size_t left = n;
    while (left > 0) {
        ssize_t k = write(fd, p, left);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            rc = wa_error_set(err, WA_ERR_IO, "cannot write %s: %s", path, strerror(errno));
            break;
        }
        p += k;
        left -= (size_t)k;
    }
    if (rc == 0 && sync && fsync(fd) != 0)
        rc = wa_error_set(err, WA_ERR_IO, "cannot sync %s: %s", path, strerror(errno));
    if (close(fd) != 0 && rc == 0)
        rc = wa_error_set(err, WA_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    if (rc == 0 && rename(tmp, path) != 0)
        rc = wa_error_set(err, WA_ERR_IO, "cannot rename into %s: %s", path, strerror(errno));
    if (rc != 0)
        unlink(tmp);
    free(tmp);
    return rc;
}

int fsutil_copy_file(const char *src, const char *dst, struct wa_error *err)
{
    int in = open(src, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (in < 0)
        return wa_error_set(err, WA_ERR_IO, "cannot open %s: %s", src, strerror(errno));
    struct stat st;
    if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(in);
        return wa_error_set(err, WA_ERR_IO, "%s is not a regular file", src);
    }
    int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (out < 0) {
        int rc = wa_error_set(err, WA_ERR_IO, "cannot create %s: %s", dst, strerror(errno));
        close(in);
        return rc;
    }
    int rc = 0;
    char buf[1 << 16];
    for (;;) {
        ssize_t k = read(in, buf, sizeof buf);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            rc = wa_error_set(err, WA_ERR_IO, "cannot read %s: %s", src, strerror(errno));
            break;
        }
        if (k == 0)
            break;
        for (ssize_t off = 0; off < k;) {
            ssize_t w = write(out, buf + off, (size_t)(k - off));
            if (w < 0 && errno == EINTR)
                continue;
            if (w < 0) {
                rc = wa_error_set(err, WA_ERR_IO, "cannot write %s: %s", dst, strerror(errno));
                break;
            }
            off += w;
        }
        if (rc < 0)
            break;
    }
    if (close(out) != 0 && rc == 0)
        rc = wa_error_set(err, WA_ERR_IO, "cannot write %s: %s", dst, strerror(errno));
    close(in);
    if (rc < 0)
        unlink(dst);
    return rc;
}

static int read_file(const char *path, int flags, size_t max, char **data, size_t *n, int *missing,
                     struct wa_error *err)
{
    *data = NULL;
    *n = 0;
    if (missing)
        *missing = 0;
    /* O_NONBLOCK: a FIFO planted where a file should be must not hang us
     * in open(); it is refused below like any file that is not regular. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | flags);
    if (fd < 0) {
        if (missing && errno == ENOENT)
            *missing = 1;
        if (errno == ELOOP && (flags & O_NOFOLLOW))
            return wa_error_set(err, WA_ERR_IO, "%s is a symbolic link", path);
        return wa_error_set(err, WA_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return wa_error_set(err, WA_ERR_IO, "%s is not a regular file", path);
    }
    /* One byte more than max tells a file of exactly max bytes from a larger one. */
    size_t cap = max < 4096 ? max + 1 : 4096, len = 0;
    char *buf = xmalloc(cap + 1);
    int rc = 0;
    for (;;) {
        if (len == cap) {
            if (cap > max) {
                rc = wa_error_set(err, WA_ERR_LIMIT, "%s is larger than %zu bytes", path, max);
                break;
            }
            cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
            buf = xrealloc(buf, cap + 1);
        }
        ssize_t k = read(fd, buf + len, cap - len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            rc = wa_error_set(err, WA_ERR_IO, "cannot read %s: %s", path, strerror(errno));
            break;
        }
        if (k == 0)
            break;
        len += (size_t)k;
    }
    close(fd);
    if (rc != 0) {
        free(buf);
        return rc;
    }
    buf[len] = '\0';
    *data = buf;
    *n = len;
    return 0;
}

int fsutil_read(const char *path, size_t max, char **data, size_t *n, int *missing,
                struct wa_error *err)
{
    return read_file(path, 0, max, data, n, missing, err);
}

int fsutil_read_nofollow(const char *path, size_t max, char **data, size_t *n, int *missing,
                         struct wa_error *err)
{
    return read_file(path, O_NOFOLLOW, max, data, n, missing, err);
}

int fsutil_check_real_dir(const char *dir, struct wa_error *err)
{
    struct stat st;
    if (lstat(dir, &st) != 0)
        return wa_error_set(err, WA_ERR_IO, "cannot read %s: %s", dir, strerror(errno));
    if (S_ISLNK(st.st_mode))
        return wa_error_set(err, WA_ERR_IO, "%s is a symbolic link, not a folder", dir);
    if (!S_ISDIR(st.st_mode))
        return wa_error_set(err, WA_ERR_IO, "%s is not a folder", dir);
    return 0;
}

int fsutil_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

void fsutil_clean_temp(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strncmp(de->d_name, ".tmp-", 5) == 0) {
            long pid = strtol(de->d_name + 5, NULL, 10);
            if (pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) == 0)
                continue; /* a live process is still writing it */
            char *p = fsutil_join(dir, de->d_name);
            unlink(p);
            free(p);
        }
    }
    closedir(d);
}

/* Lexically normalised absolute path: "//", "." and ".." removed. */
static char *normalize(const char *path)
{
    char *abs;
    if (path[0] == '/') {
        abs = xstrdup(path);
    } else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd))
            return NULL; /* no current folder (it was removed): no absolute path */
        abs = fsutil_join(cwd, path);
    }
    char *out = xmalloc(strlen(abs) + 2);
    size_t o = 0;
    for (const char *s = abs; *s;) {
        while (*s == '/')
            s++;
        size_t n = strcspn(s, "/");
        if (n == 0)
            break;
        if (n == 1 && s[0] == '.') {
        } else if (n == 2 && s[0] == '.' && s[1] == '.') {
            while (o > 0 && out[o - 1] != '/')
                o--;
            if (o > 0)
                o--; /* the slash */
        } else {
            out[o++] = '/';
            memcpy(out + o, s, n);
            o += n;
        }
        s += n;
    }
    if (o == 0)
        out[o++] = '/';
    out[o] = '\0';
    free(abs);
    return out;
}

char *fsutil_abspath(const char *path)
{
    /* As the system reads it: the longest leading part of the path as
     * written that exists is resolved by realpath ("link/../site" is the
     * site beside link's target, which a lexical ".." would not find), and
     * the rest, which does not exist yet, is appended. */
    size_t cut = strlen(path);
    for (;;) {
        char *prefix = cut ? xstrndup(path, cut) : xstrdup(path[0] == '/' ? "/" : ".");
        char *real = realpath(prefix, NULL);
        free(prefix);
        if (real) {
            const char *rest = path + cut;
            char *joined = *rest ? fsutil_join(real, rest) : xstrdup(real);
            free(real);
            char *out = normalize(joined); /* absolute: the rest's "." and ".." */
            free(joined);
            return out;
        }
        if (cut == 0)
            break;
        while (cut > 0 && path[cut - 1] != '/')
            cut--;
        while (cut > 0 && path[cut - 1] == '/')
            cut--;
    }
    /* a relative path and no current folder (it was removed): left as it
     * is, so it fails where it is used, never rooted at / */
    return xstrdup(path);
}

static int inside_or_same(const char *in, const char *dir)
{
    size_t n = strlen(dir);
    if (n == 1 && dir[0] == '/')
        return 1;
    return strncmp(in, dir, n) == 0 && (in[n] == '\0' || in[n] == '/');
}

int fsutil_paths_overlap(const char *a, const char *b)
{
    char *x = fsutil_abspath(a), *y = fsutil_abspath(b);
    int r = inside_or_same(x, y) || inside_or_same(y, x);
    free(x);
    free(y);
    return r;
}
