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
 */
#ifndef WHEELARCH_DBVIEW_H
#define WHEELARCH_DBVIEW_H

#include <jansson.h>
#include <stddef.h>

#include "compat.h"
#include "error.h"
#include "record.h"
#include "tables.h"

enum view_status { VIEW_VERIFIED = 0, VIEW_INFERRED, VIEW_DECLARED };

struct dbview_row {
    char *project;           /* normalised: "torch" */
    char *version;           /* "2.8.0"; for declared rows the release, "2.8" */
    char *release;           /* "2.8" */
    char *variant;           /* "cu128", "cpu" */
    char *platform;          /* "linux-x86_64" */
    int status;              /* enum view_status */
    struct dotver cuda;      /* from the variant; n == 0 for cpu */
    struct compat_code code; /* the project's own GPU code */
    struct target *sass;     /* unions, sorted */
    size_t nsass;
    struct target *ptx;
    size_t nptx;
    struct target *gfx; /* AMD code objects (ROCm variants) */
    size_t ngfx;
    const struct declared *declared; /* the declared row for this release, or NULL */
    char *index_url;                 /* the index to install from */
    struct record_wheel *wheels;     /* its wheels, by file name */
    size_t nwheels, capwheels;
    struct recbinaries binaries; /* own binaries (recbinary_is_own), for its release page */
    char **differences; /* "sm_90a (in 2 of 341 modules) is not in the declared list", ... */
    size_t ndifferences;
    char *scanned_at; /* newest scan date of its records, or NULL */
    char *source_key; /* inferred rows: the record their code comes from */
    char *requires;   /* the Requires-Dist of the wheel its code comes from
                       * (one per line), or NULL; the GPU libraries it pins that
                       * the view holds join `code` (compat_code_add_library) */
    char *wheelarch_version;
};

/* A wheel left out of the view, and why. */
struct dbview_skip {
    char *file;   /* "cache/wheelarch.db: wheel <key>" (control characters escaped) */
    char *reason; /* one line, e.g. "variant \"x y\" is not a variant id" */
};

struct dbview {
    const struct tables *t;
    struct dbview_row *rows; /* project, newest version first, variant, platform */
    size_t nrows;
    size_t records;   /* records read (0 with DBVIEW_CODE_ONLY) */
    size_t elsewhere; /* dbview_build_for: rows of the project on other platforms, left out */
    char *data_date;  /* newest scanned_at, or NULL */
    struct dbview_skip *skipped; /* in file name order */
    size_t nskipped;
    struct strpool *strings; /* the wheels' strings (record_wheel.pooled) */
};

/* Called with each record that lists binaries (those crawl scanned), made
 * from its columns and binary rows as it is read, on one of two threads (worker 0 or 1: see
 * recqueue.h), which may call it at the same time.  It takes the record: it frees r's fields with
 * record_free, now or later (the struct itself is the caller's; copy it to keep it). */
typedef int (*dbview_record_fn)(void *ud, unsigned worker, struct record *r, struct wa_error *err);

enum dbview_flags {
    /* Rows with their GPU code and their wheels' file names only: no
     * records and no binaries read (query: a few columns per build,
     * through one scan of the database). */
    DBVIEW_CODE_ONLY = 1
};

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

/* Adds the code of a database code column (recbinaries_code's text) to row r:
 * its module sets, the SASS/PTX/gfx unions, the PTX ISAs.  Any text is
 * accepted (the column could have been edited by hand): what does not
 * parse is left out, every token is bounded. */
void dbview_row_apply_code(struct dbview_row *r, const char *code);

/* Sorts rows[0..n) into classes that compat_judge answers alike for every
 * query: the same code (compat_code_same), CUDA version (dotver_same) and
 * OS.  Fills cls[i], row i's class, and first[k], the first row of class
 * k (both n long); returns the number of classes.  A view of 100,000
 * wheels has ~10,000 rows and a few hundred classes, so the site's grid
 * and query judge each class once. */
size_t dbview_row_classes(const struct dbview_row *const *rows, size_t n, size_t *cls,
                          size_t *first);

/* A nightly (PEP 440 dev release: "2.12.0.dev20261120"). */
int dbview_is_nightly(const char *version);

/* Frees n skip entries and the array (for a list taken out of a view). */
void dbview_skips_free(struct dbview_skip *s, size_t n);

const char *dbview_status_name(int status);

/* The confidence of a declared row ("high", "medium", ...), or NULL for
 * rows read from wheels and declared rows without one. */
const char *dbview_row_confidence(const struct dbview_row *r);
/* Where a row's verdict comes from, in words: "verified (read from the
 * wheel)", "declared (PyTorch's build configuration, medium confidence;
 * seen in a published get_arch_list() of 2.13.0+cu130)".  Owned by the
 * row or static. */
const char *dbview_row_provenance(const struct dbview_row *r);

/* The newest final version of project among the view's rows (read or
 * declared; nightlies, release candidates and other pre-releases do not
 * count), or NULL; owned by the view. */
const char *dbview_newest_version(const struct dbview *v, const char *project);

/* The row as JSON (caller owns the reference): the feed's row format,
 * without its wheels (record_wheel_json of each, as the caller wants them)
 * and binaries (release pages read them typed: sitedata_release). */
json_t *dbview_row_json(const struct dbview *v, const struct dbview_row *r);
/* The row's differences as a JSON array of strings (new reference). */
json_t *dbview_row_differences(const struct dbview_row *r);

/* A PTX target's name and its ISA as the feeds write it ("compute_90",
 * "8.8"): name has room for TARGET_NAME_MAX bytes, isa for 16. */
void dbview_isa_format(const struct compat_code_isa *x, char *name, char *isa);
/* The PTX ISAs of code as the feeds write them: {"compute_90": "8.8"}. */
json_t *dbview_isa_json(const struct compat_code *code);

/* The file a declared row's source names, for people: {"text": "pytorch/pytorch
 * .ci/manywheel/build_cuda.sh at v2.8.0", "url": "https://github.com/..."}
 * (url null when no commit, tag or branch is named), or JSON null when the
 * source names no file.  New reference. */
json_t *dbview_citation(const char *source);
/* The same, typed: 1 with c->text and c->url (NULL when no commit, tag or
 * branch is named) set, both the caller's to free; 0 when the source names
 * no file. */
struct dbview_citation {
    char *text;
    char *url;
};
int dbview_citation_parse(const char *source, struct dbview_citation *c);

#endif
