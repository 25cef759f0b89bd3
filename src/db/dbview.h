/*
 * dbview: one view of everything known, per (project, version, variant,
 * platform).
 *
 * Rows come from crawl records ("verified" when the wheel itself was read,
 * "inferred" when a sibling wheel of the same release, variant and platform
 * was) and from PyTorch's declared arch lists shipped in data/ ("declared",
 * so every command works before any crawl).  Verified beats inferred beats
 * declared.  A row's GPU code is that of the project's own binaries:
 * bundled NVIDIA libraries (cuDNN, cuBLAS, NCCL, ...) serve other GPUs and
 * are left out.  Where verified code and the declared list disagree, the
 * row keeps both and lists the differences.
 *
 * dbview.h is the whole of it: building and freeing the view here, its
 * types (dbview_types.h) and the parts each in its own header: a row's
 * code (dbview_code.h), its words (dbview_row.h), its JSON (dbview_json.h).
 */
#ifndef WHEELARCH_DBVIEW_H
#define WHEELARCH_DBVIEW_H

#include <stddef.h>

#include "dbview_code.h"
#include "dbview_json.h"
#include "dbview_row.h"
#include "dbview_types.h"
#include "error.h"
#include "tables_types.h"

/* Builds the view from the database in cache_dir (may be NULL, or hold no
 * database: declared rows only) and the tables.  Records were checked
 * when they were stored; the fields that become ids and paths are checked
 * again as they are read, and so are the binaries' rows (recbinary_wrong;
 * not with DBVIEW_CODE_ONLY, which reads none): a wheel that fails is
 * left out and listed in v->skipped with the reason.  on_record (may be
 * NULL) sees every valid record with binaries, so callers need not read
 * them twice; an error it returns stops the build. */
int dbview_build(const char *cache_dir, const struct tables *t, int flags, struct dbview *v,
                 struct wa_error *err);
/* DBVIEW_CODE_ONLY for one question: the crawled rows of project on
 * platform (the others are left out, and counted in v->elsewhere when they
 * are the project's), and every declared row. */
int dbview_build_for(const char *cache_dir, const struct tables *t, const char *project,
                     const char *platform, struct dbview *v, struct wa_error *err);
/* nightlies >= 0: of each project's nightly (.dev) versions only the
 * newest `nightlies` are read (all their variants and platforms); the
 * others are left out before their records are read.  < 0: all. */
int dbview_build_with(const char *cache_dir, const struct tables *t, int flags, int nightlies,
                      struct dbview *v, dbview_record_fn on_record, void *ud, struct wa_error *err);
/* Frees the view, its skipped list included. */
void dbview_free(struct dbview *v);

/* Sorts rows[0..n) into classes that compat_judge answers alike for every
 * query: the same code (compat_code_same), CUDA version (dotver_same) and
 * OS.  Fills cls[i], row i's class, and first[k], the first row of class
 * k (both n long); returns the number of classes.  A view of 100,000
 * wheels has ~10,000 rows and a few hundred classes, so the site's grid
 * and query judge each class once. */
size_t dbview_row_classes(const struct dbview_row *const *rows, size_t n, size_t *cls,
                          size_t *first);

/* Frees n skip entries and the array (for a list taken out of a view). */
void dbview_skips_free(struct dbview_skip *s, size_t n);

/* The newest final version of project among the view's rows (read or
 * declared; nightlies, release candidates and other pre-releases do not
 * count), or NULL; owned by the view. */
const char *dbview_newest_version(const struct dbview *v, const char *project);

#endif
