/*
 * fsutil: files written whole or not at all, directories, whole-file reads.
 *
 * fsutil_write_atomic writes to a temporary file in the target's directory
 * and renames it over the target (as stagit writes its cache), so a reader
 * or a process killed at any moment sees the old file or the new one, never
 * half of one.  Temporary names start with ".tmp-" so leftovers of a killed
 * process are recognisable (fsutil_clean_temp).
 */
#ifndef WHEELARCH_FSUTIL_H
#define WHEELARCH_FSUTIL_H

#include <stddef.h>

#include "error.h"

/* Creates dir and its parents (mode 0777 minus umask).  Returns 0 or WA_ERR_IO. */
int fsutil_mkdirs(const char *dir, struct wa_error *err);

/* Replaces path with data[0..n).  With sync, the data is flushed to disk
 * before the rename.  Returns 0 or WA_ERR_IO. */
int fsutil_write_atomic(const char *path, const void *data, size_t n, int sync,
                        struct wa_error *err);

/* Creates a new file beside path, named ".tmp-PID-N-" and path's name, for
 * writing (O_EXCL: never an existing file, never through a link).  Returns
 * its descriptor with *tmp (caller frees) or WA_ERR_IO.  Rename it over
 * path when it is whole, or unlink it. */
int fsutil_create_temp(const char *path, char **tmp, struct wa_error *err);

/* Reads a whole file (at most max bytes) into a new NUL-terminated buffer
 * the caller frees.  Returns 0, WA_ERR_IO (with errno-style message; a
 * missing file has code WA_ERR_IO and *missing set when missing != NULL), or
 * WA_ERR_LIMIT.  Anything but a regular file (a FIFO, a device, a folder)
 * is refused without blocking. */
int fsutil_read(const char *path, size_t max, char **data, size_t *n, int *missing,
                struct wa_error *err);

/* The same, refusing a symbolic link as the last component: for files of
 * the database, which merges may fill with anything. */
int fsutil_read_nofollow(const char *path, size_t max, char **data, size_t *n, int *missing,
                         struct wa_error *err);

/* Copies the regular file src (not followed if it is a symbolic link) to
 * dst, which must not exist yet.  Returns 0 or WA_ERR_IO (a partial dst is
 * removed). */
int fsutil_copy_file(const char *src, const char *dst, struct wa_error *err);

/* 0 when dir is a folder and not a symbolic link, else WA_ERR_IO. */
int fsutil_check_real_dir(const char *dir, struct wa_error *err);

/* Whether path exists (any type). */
int fsutil_exists(const char *path);

/* Removes ".tmp-*" files left in dir by processes that no longer run. */
void fsutil_clean_temp(const char *dir);

/* The absolute form of path, with ".", ".." and symbolic links of its
 * existing part resolved (the rest, not yet created, taken as written).
 * Caller frees. */
char *fsutil_abspath(const char *path);

/* Whether the folders a and b are the same, or one lies inside the other. */
int fsutil_paths_overlap(const char *a, const char *b);

/* Joins a directory and a name into a new string. */
char *fsutil_join(const char *dir, const char *name);

#endif
