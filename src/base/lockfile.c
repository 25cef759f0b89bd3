/*
 * lockfile: flock(2) on DIR.lock.
 */
#include "lockfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "xalloc.h"

struct lockfile {
    int fd;
    char *path;
};

char *lockfile_path(const char *dir)
{
    /* The folder's real path, however it was spelled ("cache/.", "cache/",
     * a symbolic link to it): one folder, one lock. */
    char *abs = fsutil_abspath(dir);
    char *p = xasprintf("%s.lock", abs);
    free(abs);
    return p;
}

static long read_pid(int fd)
{
    char buf[32];
    ssize_t k = pread(fd, buf, sizeof buf - 1, 0);
    if (k <= 0)
        return 0;
    buf[k] = '\0';
    long pid = strtol(buf, NULL, 10);
    return pid > 0 ? pid : 0;
}

/* Whether the bytes are what lockfile_acquire writes, or a moment of its
 * writing: empty, or decimal digits with at most one newline at the end. */
static int lock_text(const char *buf, size_t k)
{
    size_t digits = 0;
    while (digits < k && buf[digits] >= '0' && buf[digits] <= '9')
        digits++;
    return digits == k || (digits > 0 && digits + 1 == k && buf[digits] == '\n');
}

/* Whether fd is a lock file: a regular file, empty or holding a process
 * id and a newline as lockfile_acquire writes it.  Another process may be
 * rewriting it (truncated, then its own id written): a text that does not
 * fit is read again a few times before it counts as something else. */
static int is_lock_file(int fd)
{
    for (int tries = 0; tries < 5; tries++) {
        struct stat st;
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
            return 0;
        char buf[32];
        ssize_t k = pread(fd, buf, sizeof buf, 0);
        if (k >= 0 && (size_t)k < sizeof buf && lock_text(buf, (size_t)k))
            return 1;
        if (k < 0 || (size_t)k >= sizeof buf)
            return 0; /* unreadable, or longer than any process id */
        usleep(20000);
    }
    return 0;
}

int lockfile_acquire(const char *dir, int wait, lockfile_wait_fn waiting, void *ud,
                     struct lockfile **out, struct wa_error *err)
{
    *out = NULL;
    char *path = lockfile_path(dir);
    char *slash = strrchr(path, '/');
    if (slash && slash != path) {
        /* The folder may not exist yet (a first crawl into a new path). */
        *slash = '\0';
        int rc = fsutil_mkdirs(path, err);
        *slash = '/';
        if (rc < 0) {
            free(path);
            return rc;
        }
    }
    /* Never through a link, never a FIFO; and a file of that name that is
     * not a lock (a Gemfile.lock beside --out Gemfile) is not written. */
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0666);
    if (fd < 0) {
        int rc = errno == ELOOP
                     ? wa_error_set(err, WA_ERR_USAGE,
                                    "%s is a symbolic link, not a wheelarch lock; refusing to use "
                                    "it",
                                    path)
                     : wa_error_set(err, WA_ERR_IO, "cannot open %s: %s", path, strerror(errno));
        free(path);
        return rc;
    }
    if (!is_lock_file(fd)) {
        int rc = wa_error_set(err, WA_ERR_USAGE,
                              "%s exists and is not a wheelarch lock (it holds something "
                              "else); refusing to write it: move it, or choose another folder",
                              path);
        close(fd);
        free(path);
        return rc;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        long holder = read_pid(fd);
        if (e != EWOULDBLOCK) {
            int rc = wa_error_set(err, WA_ERR_IO, "cannot lock %s: %s", path, strerror(e));
            close(fd);
            free(path);
            return rc;
        }
        if (!wait) {
            int rc =
                holder ? wa_error_set(err, WA_ERR_BUSY, "%s is locked by process %ld", path, holder)
                       : wa_error_set(err, WA_ERR_BUSY, "%s is locked by another process", path);
            close(fd);
            free(path);
            return rc;
        }
        if (waiting)
            waiting(ud, path, holder);
        while (flock(fd, LOCK_EX) != 0) {
            if (errno != EINTR) {
                int rc = wa_error_set(err, WA_ERR_IO, "cannot lock %s: %s", path, strerror(errno));
                close(fd);
                free(path);
                return rc;
            }
        }
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
        /* The pid is only for messages: a failure here is not fatal. */
    }
    struct lockfile *l = xcalloc(1, sizeof *l);
    l->fd = fd;
    l->path = path;
    *out = l;
    return 0;
}

void lockfile_release(struct lockfile *l)
{
    if (!l)
        return;
    close(l->fd);
    free(l->path);
    free(l);
}
