/*
 * dbview_types: the view of everything known (dbview.h) as data: its
 * rows, the wheels it left out and why, and how it is asked for.
 */
#ifndef WHEELARCH_DBVIEW_TYPES_H
#define WHEELARCH_DBVIEW_TYPES_H

#include <stddef.h>

#include "compat.h"
#include "error.h"
#include "record.h"
#include "tables_types.h"

enum view_status { VIEW_VERIFIED = 0, VIEW_INFERRED, VIEW_DECLARED };

/* One install extra of a row and the GPU code it brings. */
struct dbview_extra {
    char *name; /* "device-gfx1100" */
    struct target *gfx;
    size_t ngfx;
};

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
    /* borrowed from the tables: the vendor's row (vendorindex.h) when that
     * index is a vendor's own rather than PyTorch's, else NULL */
    const struct vendor_build *vendor;
    struct record_wheel *wheels; /* its wheels, by file name */
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
    /* A vendor build whose GPU code comes by install extras (AMD's
     * whl-next): each extra its Requires-Dist names with the gfx targets
     * of the packages it installs, as crawled (vendorindex.h gpu_package);
     * their union is the row's gfx and code.  NULL when none. */
    struct dbview_extra *extras;
    size_t nextras;
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

#endif
