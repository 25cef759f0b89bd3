/*
 * outdir: write a whole output folder atomically and incrementally.
 *
 * Files go into DIR.tmp as they are produced (so memory stays flat); a file
 * whose bytes equal the one already in DIR is hard-linked instead of
 * written, keeping its inode and mtime.  Until the first file that differs,
 * nothing at all is created: unchanged files are only listed, so a rebuild
 * with nothing changed makes no folder and no link.  outdir_commit then
 * leaves DIR as it was when nothing changed (same files, same bytes: no file
 * rewritten, nothing swapped), and otherwise exchanges DIR.tmp and DIR in
 * one atomic rename (renameat2 RENAME_EXCHANGE) and removes the old tree.
 * A build that fails or is killed leaves DIR whole; the next build removes
 * the stale DIR.tmp first.
 *
 * Only a folder that is wheelarch's own is ever replaced or removed: DIR
 * (and a stale DIR.tmp) must be absent, empty, or carry the marker file
 * OUTDIR_MARKER that every tree written here holds (or, for a site built
 * before the marker existed, the stamp DIR.stamp beside it).  Anything else
 * is refused before a byte is touched, so a mistyped or empty --out never
 * deletes someone's folder.  DIR may not be a mount point (it could not be
 * swapped by a rename) nor the root folder.
 *
 * outdir_put may be called from several threads at once.
 */
#ifndef WHEELARCH_OUTDIR_H
#define WHEELARCH_OUTDIR_H

#include <stddef.h>

#include "error.h"

struct outdir;

/* The file at the top of every tree outdir writes: what tells a folder
 * that wheelarch may replace from any other. */
#define OUTDIR_MARKER ".wheelarch-output"

struct outdir_stats {
    size_t files;     /* files in the new tree */
    size_t written;   /* new or changed */
    size_t unchanged; /* hard-linked from the old tree */
    size_t removed;   /* in the old tree, not in the new one */
    int swapped;      /* the new tree replaced the old one */
};

/* Starts a build of dir (its parent must exist).  Caller finishes with
 * outdir_commit or outdir_abort, which free it.  An empty dir, the root
 * folder, a dir that exists and is not a folder, a mount point, or a
 * folder (DIR or DIR.tmp) that holds files but not the marker is
 * WA_ERR_USAGE with one line naming it; nothing is touched then. */
int outdir_begin(const char *dir, struct outdir **out, struct wa_error *err);

/* Adds the file relpath ("gpu/geforce-gtx-1080-ti/index.html"); relpath must
 * be relative, without "..", and added once. */
int outdir_put(struct outdir *o, const char *relpath, const void *data, size_t len,
               struct wa_error *err);

/* outdir_put for a path made from data, which two inputs might share:
 * a path already added is not an error.  Returns 0 when the file was
 * added, 1 when relpath was taken (nothing written, the first file stays),
 * or a WA_ERR_* code. */
int outdir_put_first(struct outdir *o, const char *relpath, const void *data, size_t len,
                     struct wa_error *err);

/* Swaps the new tree in (see above) and frees o, whatever the outcome:
 * after outdir_commit, o must not be used again (not even by
 * outdir_abort).  On failure the old tree stays as it was. */
int outdir_commit(struct outdir *o, struct outdir_stats *st, struct wa_error *err);
/* Drops the new tree and frees o; NULL is fine. */
void outdir_abort(struct outdir *o);

/* The temporary tree a build of dir writes into: its real path + ".tmp".
 * Caller frees. */
char *outdir_tmp_path(const char *dir);

/* 0 when dir may be replaced by a build (absent, empty, or carrying the
 * marker or DIR.stamp), else WA_ERR_USAGE saying why not. */
int outdir_check_ours(const char *dir, struct wa_error *err);

/* Removes a directory tree (no error if absent), never crossing into a
 * file system or bind mount inside it (that part stays, and -1 says the
 * tree is not all gone); links are removed, never followed. */
int outdir_remove_tree(const char *dir);

#endif
