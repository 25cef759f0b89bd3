/*
 * lockfile: one writer at a time for a folder (the database, the site).
 *
 * An exclusive flock(2) on a file beside the folder ("cache.lock" for
 * "cache", "site.lock" for "site": the output folder is swapped whole, so
 * its lock cannot live inside it).  The kernel releases the lock when the
 * process ends however it ends, so a killed run never leaves a stale lock.
 * The file holds the holder's pid, for messages only; it is never removed
 * (removing a lock file lets two processes lock two different inodes).
 */
#ifndef WHEELARCH_LOCKFILE_H
#define WHEELARCH_LOCKFILE_H

#include "error.h"

struct lockfile;

/* Called once when the lock is held by another process and wait is set,
 * before blocking; holder_pid is 0 when not known. */
typedef void (*lockfile_wait_fn)(void *ud, const char *lock_path, long holder_pid);

/* Locks the folder dir (the lock file is its absolute real path +
 * ".lock", so every spelling of one folder shares one lock).  With wait, blocks until the holder is
 * done (calling waiting first); without, fails at once with WA_ERR_BUSY ("locked by process 1234").
 * A lock path that is a symbolic link, not a regular file, or a file that
 * holds anything but a process id is WA_ERR_USAGE, never written.
 * Caller releases with lockfile_release. */
int lockfile_acquire(const char *dir, int wait, lockfile_wait_fn waiting, void *ud,
                     struct lockfile **out, struct wa_error *err);

/* Unlocks and frees (NULL does nothing). */
void lockfile_release(struct lockfile *l);

/* The lock file's path for dir; caller frees. */
char *lockfile_path(const char *dir);

#endif
