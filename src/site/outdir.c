/*
 * outdir: incremental, atomic output folders.
 */
#include "outdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "strmap.h"
#include "xalloc.h"

static void outdir_free(struct outdir *o);
static int is_mount_point(const char *abs);

struct outdir {
    char *dir;
    char *tmp;
    struct strmap *paths;
    struct strmap *dirs; /* directories already created under tmp */
    struct outdir_stats st;
    /* Until the first file that differs from the old tree, nothing is
     * written: unchanged files are only listed here.  A rebuild with
     * nothing changed thus creates no folder and links no file. */
    int materialized;
    int have_old;  /* an old tree was there at outdir_begin */
    dev_t old_dev; /* ... this folder: the swap checks it is still */
    ino_t old_ino; /* the same one (not a folder put in its place) */
    char **pending;
    size_t npending, cap_pending;
    pthread_mutex_t mu;
};

/* Whether the folder name in dirfd is the root of a mount (another file
 * system, or a bind mount of the same one). */
static int mount_root_at(int dirfd, const char *name, const struct stat *sb, dev_t parent_dev)
{
#ifdef STATX_ATTR_MOUNT_ROOT
    struct statx sx;
    if (statx(dirfd, name, AT_NO_AUTOMOUNT | AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &sx) == 0 &&
        (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT))
        return (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
#else
    (void)dirfd;
    (void)name;
#endif
    return sb->st_dev != parent_dev;
}

/* Removes what the folder open as fd holds, never crossing into a file
 * system mounted inside it (what is mounted there is someone else's: it
 * and the folders above it stay).  Returns 0 when all is gone. */
static int remove_in(int fd, dev_t dev, int depth)
{
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -1;
    }
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        struct stat sb;
        if (fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0) {
            rc = errno == ENOENT ? rc : -1;
            continue;
        }
        if (!S_ISDIR(sb.st_mode)) {
            if (unlinkat(dirfd(d), de->d_name, 0) != 0 && errno != ENOENT)
                rc = -1;
            continue;
        }
        if (depth > 256 || mount_root_at(dirfd(d), de->d_name, &sb, dev)) {
            rc = -1; /* left where it is */
            continue;
        }
        int sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct stat opened;
        if (sub >= 0 && (fstat(sub, &opened) != 0 || opened.st_dev != sb.st_dev ||
                         opened.st_ino != sb.st_ino)) {
            close(sub); /* not the folder looked at a moment ago */
            sub = -1;
        }
        if (sub < 0 || remove_in(sub, sb.st_dev, depth + 1) != 0)
            rc = -1;
        else if (unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) != 0 && errno != ENOENT)
            rc = -1;
    }
    closedir(d);
    return rc;
}

int outdir_remove_tree(const char *dir)
{
    struct stat st;
    if (lstat(dir, &st) != 0)
        return 0;
    if (!S_ISDIR(st.st_mode))
        return unlink(dir) == 0 || errno == ENOENT ? 0 : -1;
    if (is_mount_point(dir))
        return -1; /* what is mounted there is someone else's */
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 || remove_in(fd, st.st_dev, 0) != 0)
        return -1;
    return rmdir(dir) == 0 || errno == ENOENT ? 0 : -1;
}

char *outdir_tmp_path(const char *dir)
{
    char *abs = fsutil_abspath(dir);
    char *tmp = xasprintf("%s.tmp", abs);
    free(abs);
    return tmp;
}

/* What the marker says to a person who finds it. */
static const char marker_text[] =
    "This folder was written by wheelarch (`wheelarch build` or `update`), which replaces it\n"
    "whole on every build. Files put here by hand are lost on the next build.\n";

/* Whether dir holds no entry at all; -1 when it cannot be read. */
static int is_empty_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *de;
    int empty = 1;
    while (empty && (de = readdir(d)) != NULL)
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
            empty = 0;
    closedir(d);
    return empty;
}

/* Whether abs/rel is a regular file (not a link). */
static int has_file(const char *abs, const char *rel)
{
    char *p = fsutil_join(abs, rel);
    struct stat sb;
    int r = lstat(p, &sb) == 0 && S_ISREG(sb.st_mode);
    free(p);
    return r;
}

/* Whether dir carries the marker, as a regular file (not a link). */
static int has_marker(const char *dir)
{
    return has_file(dir, OUTDIR_MARKER);
}

/* Whether the folder abs is the root of a mount: another file system, or
 * a bind mount of a folder of the same one (statx says so; st_dev only
 * tells the first kind). */
static int is_mount_point(const char *abs)
{
#ifdef STATX_ATTR_MOUNT_ROOT
    struct statx sx;
    if (statx(AT_FDCWD, abs, AT_NO_AUTOMOUNT | AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &sx) == 0 &&
        (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT))
        return (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
#endif
    struct stat sb, up;
    char *parent = xstrndup(abs, (size_t)(strrchr(abs, '/') - abs));
    int r = stat(abs, &sb) == 0 && stat(*parent ? parent : "/", &up) == 0 && sb.st_dev != up.st_dev;
    free(parent);
    return r;
}

/* Whether abs is a site a wheelarch build wrote before the marker existed:
 * the stamp that build left beside it (a JSON object), and in it the files
 * every such site holds.  A stamp alone is not enough: it outlives its
 * folder when someone removes that folder by hand and makes another. */
static int legacy_site(const char *abs)
{
    char *stamp = xasprintf("%s.stamp", abs);
    char head[1] = {0};
    int fd = open(stamp, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    struct stat sb;
    int r = fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && read(fd, head, 1) == 1 &&
            head[0] == '{';
    if (fd >= 0)
        close(fd);
    free(stamp);
    return r && has_file(abs, ".nojekyll") && has_file(abs, "api/v1/schema.json") &&
           has_file(abs, "index.html");
}

/* 0 when the folder abs (a real path) is absent, empty or marked: one
 * that may be removed.  what names it in the message ("the output folder",
 * "the temporary folder"); legacy_ok accepts DIR.stamp as a marker. */
static int check_ours(const char *abs, const char *what, int legacy_ok, struct wa_error *err)
{
    struct stat sb;
    if (lstat(abs, &sb) != 0)
        return errno == ENOENT
                   ? 0
                   : wa_error_set(err, WA_ERR_IO, "%s %s: %s", what, abs, strerror(errno));
    if (!S_ISDIR(sb.st_mode))
        return wa_error_set(err, WA_ERR_USAGE,
                            "%s %s exists and is not a folder; refusing to replace it", what, abs);
    int empty = is_empty_dir(abs);
    if (empty < 0)
        return wa_error_set(err, WA_ERR_IO, "%s %s: cannot list it: %s", what, abs,
                            strerror(errno));
    if (empty || has_marker(abs) || (legacy_ok && legacy_site(abs)))
        return 0;
    return wa_error_set(err, WA_ERR_USAGE,
                        "refusing to replace %s %s: it holds files but no %s, so wheelarch did "
                        "not write it (give a new or empty folder, or remove it yourself)",
                        what, abs, OUTDIR_MARKER);
}

int outdir_check_ours(const char *dir, struct wa_error *err)
{
    if (!dir || !*dir)
        return wa_error_set(err, WA_ERR_USAGE, "the output folder is an empty string");
    char *abs = fsutil_abspath(dir);
    int rc = 0;
    struct stat sb;
    if (strcmp(abs, "/") == 0) {
        rc = wa_error_set(err, WA_ERR_USAGE, "the output folder may not be the root folder");
    } else {
        rc = check_ours(abs, "the output folder", 1, err);
        /* A mount point cannot be renamed over: say so before building. */
        if (rc == 0 && lstat(abs, &sb) == 0 && is_mount_point(abs))
            rc = wa_error_set(err, WA_ERR_USAGE,
                              "the output folder %s is a mount point, which a build cannot swap "
                              "whole: give a folder inside it (--out %s/site)",
                              abs, abs);
    }
    if (rc == 0) {
        /* A stale DIR.tmp is removed: it must be ours too (legacy: when DIR
         * is, its DIR.tmp is a build of it that was killed). */
        char *tmp = outdir_tmp_path(dir);
        int legacy = lstat(abs, &sb) == 0 && (has_marker(abs) || legacy_site(abs));
        rc = check_ours(tmp, "the temporary folder", legacy, err);
        if (rc < 0 && legacy && lstat(tmp, &sb) == 0 && S_ISDIR(sb.st_mode))
            rc = 0;
        if (rc == 0 && lstat(tmp, &sb) == 0 && is_mount_point(tmp))
            rc = wa_error_set(err, WA_ERR_USAGE,
                              "the temporary folder %s is a mount point; refusing to empty it "
                              "(unmount it)",
                              tmp);
        free(tmp);
    }
    free(abs);
    return rc;
}

int outdir_begin(const char *dir, struct outdir **out, struct wa_error *err)
{
    *out = NULL;
    int rc = outdir_check_ours(dir, err);
    if (rc < 0)
        return rc;
    struct outdir *o = xcalloc(1, sizeof *o);
    /* The real path: "site/." or "site/" must not put the temporary tree
     * inside the folder it replaces ("site/..tmp"). */
    o->dir = fsutil_abspath(dir);
    o->tmp = outdir_tmp_path(dir);
    o->paths = strmap_new();
    o->dirs = strmap_new();
    pthread_mutex_init(&o->mu, NULL);
    struct stat sb;
    o->have_old = stat(o->dir, &sb) == 0 && S_ISDIR(sb.st_mode);
    o->old_dev = o->have_old ? sb.st_dev : 0;
    o->old_ino = o->have_old ? sb.st_ino : 0;
    o->materialized = !o->have_old;
    if (outdir_remove_tree(o->tmp) != 0) {
        rc = wa_error_set(err, WA_ERR_IO,
                          "cannot remove the leftover %s of an earlier build (a mount, a folder "
                          "too deep, or a file that cannot be removed inside it): remove it "
                          "yourself",
                          o->tmp);
        outdir_abort(o);
        return rc;
    }
    if (mkdir(o->tmp, 0777) != 0) {
        rc = wa_error_set(err, WA_ERR_IO, "cannot create %s: %s", o->tmp, strerror(errno));
        outdir_abort(o);
        return rc;
    }
    /* The marker first: a tree that holds any file holds it. */
    rc = outdir_put(o, OUTDIR_MARKER, marker_text, sizeof marker_text - 1, err);
    if (rc < 0) {
        outdir_abort(o);
        return rc;
    }
    *out = o;
    return 0;
}

/* Creates the folders of tmp/relpath; called with the lock held. */
/* Creates dir below o->tmp, and the folders between, each with one
 * mkdir: the folders already made are remembered (thousands of pages share
 * a few hundred folders). */
static int make_dir(struct outdir *o, const char *dir, struct wa_error *err)
{
    if (strmap_get(o->dirs, dir, NULL))
        return 0;
    size_t tl = strlen(o->tmp);
    int rc = 0;
    if (strlen(dir) <= tl) {
        rc = fsutil_mkdirs(dir, err); /* o->tmp itself */
    } else {
        char *parent = xstrndup(dir, (size_t)(strrchr(dir, '/') - dir));
        rc = make_dir(o, parent, err);
        free(parent);
        if (rc == 0 && mkdir(dir, 0777) != 0 && errno != EEXIST)
            rc = wa_error_set(err, WA_ERR_IO, "cannot create directory %s: %s", dir,
                              strerror(errno));
    }
    if (rc == 0)
        strmap_put(o->dirs, dir, 1);
    return rc;
}

static int make_parent(struct outdir *o, const char *dst, struct wa_error *err)
{
    const char *slash = strrchr(dst, '/');
    char *parent = xstrndup(dst, (size_t)(slash - dst));
    int rc = make_dir(o, parent, err);
    free(parent);
    return rc;
}

static int open_parent_nofollow(const char *root, const char *relpath, const char **name);

/* Hard-links relpath from the old tree into tmp; lock held. */
static int link_old(struct outdir *o, const char *relpath, struct wa_error *err)
{
    char *dst = fsutil_join(o->tmp, relpath);
    char *old = fsutil_join(o->dir, relpath);
    int rc = make_parent(o, dst, err);
    /* through the folders as same_bytes opened them: no link followed */
    const char *name;
    int dfd = rc == 0 ? open_parent_nofollow(o->dir, relpath, &name) : -1;
    if (rc == 0 && (dfd < 0 || linkat(dfd, name, AT_FDCWD, dst, 0) != 0))
        rc = wa_error_set(err, WA_ERR_IO, "cannot link %s to %s: %s", old, dst, strerror(errno));
    if (dfd >= 0)
        close(dfd);
    free(dst);
    free(old);
    return rc;
}

/* Writes out the files listed so far as unchanged; lock held. */
static int materialize(struct outdir *o, struct wa_error *err)
{
    int rc = 0;
    for (size_t i = 0; i < o->npending; i++) {
        if (rc == 0)
            rc = link_old(o, o->pending[i], err);
        free(o->pending[i]);
    }
    free(o->pending);
    o->pending = NULL;
    o->npending = o->cap_pending = 0;
    o->materialized = 1;
    return rc;
}

static int valid_relpath(const char *p)
{
    if (!*p || p[0] == '/')
        return 0;
    for (const char *s = p; *s;) {
        const char *e = strchr(s, '/');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == 0 || (len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.'))
            return 0;
        if (!e)
            break;
        s = e + 1;
    }
    return 1;
}

/* The folder holding root/relpath, opened one component at a time without
 * following a symbolic link (a link inside the old output may point
 * anywhere); *name is relpath's last component.  A descriptor, or -1. */
static int open_parent_nofollow(const char *root, const char *relpath, const char **name)
{
    int fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    const char *s = relpath;
    for (const char *e; fd >= 0 && (e = strchr(s, '/')) != NULL; s = e + 1) {
        char comp[256];
        size_t len = (size_t)(e - s);
        if (len == 0 || len >= sizeof comp) {
            close(fd);
            return -1;
        }
        memcpy(comp, s, len);
        comp[len] = '\0';
        int sub = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        close(fd);
        fd = sub;
    }
    *name = s;
    return fd;
}

/* Whether the old tree's relpath is a regular file, reached without a
 * symbolic link, holding exactly data[0..len): only such a file is linked
 * into the new tree (anything else is written anew). */
static int same_bytes(const char *root, const char *relpath, const void *data, size_t len)
{
    const char *name;
    int dfd = open_parent_nofollow(root, relpath, &name);
    if (dfd < 0)
        return 0;
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    close(dfd);
    if (fd < 0)
        return 0;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != len) {
        close(fd);
        return 0;
    }
    char buf[65536];
    size_t off = 0;
    int same = 1;
    while (off < len && same) {
        size_t want = len - off < sizeof buf ? len - off : sizeof buf;
        ssize_t k = read(fd, buf, want);
        if (k <= 0) {
            same = 0;
            break;
        }
        same = memcmp(buf, (const char *)data + off, (size_t)k) == 0;
        off += (size_t)k;
    }
    close(fd);
    return same;
}

/* outdir_put, or outdir_put_first when first_wins. */
static int put(struct outdir *o, const char *relpath, const void *data, size_t len, int first_wins,
               struct wa_error *err)
{
    if (!valid_relpath(relpath))
        return wa_error_set(err, WA_ERR_USAGE, "bad output path '%s'", relpath);
    /* The path is claimed under the lock, so of two threads putting one
     * path exactly one writes it. */
    pthread_mutex_lock(&o->mu);
    int dup = strmap_get(o->paths, relpath, NULL);
    if (!dup) {
        strmap_put(o->paths, relpath, 1);
        o->st.files++;
    }
    pthread_mutex_unlock(&o->mu);
    if (dup && first_wins)
        return 1;
    if (dup)
        return wa_error_set(err, WA_ERR_USAGE, "output path '%s' written twice", relpath);
    int same = 0;
    if (o->have_old) { /* else there is no old file to compare with */
        same = same_bytes(o->dir, relpath, data, len);
    }
    int rc = 0;
    pthread_mutex_lock(&o->mu);
    if (same) {
        o->st.unchanged++;
        if (!o->materialized) {
            o->pending = xgrow(o->pending, &o->cap_pending, o->npending + 1, sizeof *o->pending);
            o->pending[o->npending++] = xstrdup(relpath);
        } else {
            rc = link_old(o, relpath, err);
        }
        pthread_mutex_unlock(&o->mu);
        return rc;
    }
    o->st.written++;
    if (!o->materialized)
        rc = materialize(o, err);
    char *dst = fsutil_join(o->tmp, relpath);
    if (rc == 0)
        rc = make_parent(o, dst, err);
    pthread_mutex_unlock(&o->mu);
    if (rc == 0) {
        /* one write(2) for the whole file, not stdio's 4 KiB pieces */
        int fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        size_t off = 0;
        while (fd >= 0 && off < len) {
            ssize_t k = write(fd, (const char *)data + off, len - off);
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0)
                break;
            off += (size_t)k;
        }
        if (fd < 0 || off < len || close(fd) != 0)
            rc = wa_error_set(err, WA_ERR_IO, "cannot write %s: %s", dst, strerror(errno));
    }
    free(dst);
    return rc;
}

int outdir_put(struct outdir *o, const char *relpath, const void *data, size_t len,
               struct wa_error *err)
{
    return put(o, relpath, data, len, 0, err);
}

int outdir_put_first(struct outdir *o, const char *relpath, const void *data, size_t len,
                     struct wa_error *err)
{
    return put(o, relpath, data, len, 1, err);
}

/* Counts files of the old tree (below abs, relative name rel) that the new
 * one lacks. */
static void count_removed(struct outdir *o, const char *abs, const char *rel, int depth)
{
    DIR *d = opendir(abs);
    if (!d || depth > 64) {
        if (d)
            closedir(d);
        return;
    }
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        char *a = fsutil_join(abs, de->d_name);
        char *r = *rel ? fsutil_join(rel, de->d_name) : xstrdup(de->d_name);
        struct stat sb;
        if (lstat(a, &sb) == 0) {
            if (S_ISDIR(sb.st_mode))
                count_removed(o, a, r, depth + 1);
            else if (!strmap_get(o->paths, r, NULL))
                o->st.removed++;
        }
        free(a);
        free(r);
    }
    closedir(d);
}

int outdir_commit(struct outdir *o, struct outdir_stats *st, struct wa_error *err)
{
    int rc = 0;
    struct stat sb;
    int have_old = stat(o->dir, &sb) == 0 && S_ISDIR(sb.st_mode);
    if (have_old && (!o->have_old || sb.st_dev != o->old_dev || sb.st_ino != o->old_ino)) {
        /* Another folder was put where the output goes while the site was
         * built: it is not wheelarch's to replace. */
        rc = wa_error_set(err, WA_ERR_IO,
                          "the output folder %s was replaced by another while the site was "
                          "built; the new site was not swapped in",
                          o->dir);
        if (st)
            *st = o->st;
        outdir_remove_tree(o->tmp);
        outdir_free(o);
        return rc;
    }
    if (have_old)
        count_removed(o, o->dir, "", 0);
    if (have_old && (o->st.written || o->st.removed) && !o->materialized)
        rc = materialize(o, err);
    if (rc != 0) {
        /* the old tree stays */
    } else if (have_old && o->st.written == 0 && o->st.removed == 0) {
        outdir_remove_tree(o->tmp); /* nothing changed: leave the old tree alone */
    } else if (!have_old) {
        if (rename(o->tmp, o->dir) != 0)
            rc = wa_error_set(err, WA_ERR_IO, "cannot move %s to %s: %s", o->tmp, o->dir,
                              strerror(errno));
        else
            o->st.swapped = 1;
    } else if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->dir, RENAME_EXCHANGE) != 0) {
        rc = wa_error_set(err, WA_ERR_IO, "cannot swap %s into %s: %s", o->tmp, o->dir,
                          strerror(errno));
    } else {
        o->st.swapped = 1;
        outdir_remove_tree(o->tmp); /* now the old tree */
    }
    if (st)
        *st = o->st;
    if (rc != 0)
        outdir_remove_tree(o->tmp);
    outdir_free(o);
    return rc;
}

static void outdir_free(struct outdir *o)
{
    for (size_t i = 0; i < o->npending; i++)
        free(o->pending[i]);
    free(o->pending);
    pthread_mutex_destroy(&o->mu);
    strmap_free(o->paths);
    strmap_free(o->dirs);
    free(o->dir);
    free(o->tmp);
    free(o);
}

void outdir_abort(struct outdir *o)
{
    if (!o)
        return;
    outdir_remove_tree(o->tmp);
    outdir_free(o);
}
