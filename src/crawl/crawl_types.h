/*
 * crawl_types: what a caller gives a crawl and gets back (crawl.h): its
 * options, the observer of its events and progress, and its summary.  The
 * crawl's own files (crawl_state.h) share these types without the entry
 * points of crawl.h, which call them.
 */
#ifndef WHEELARCH_CRAWL_TYPES_H
#define WHEELARCH_CRAWL_TYPES_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"

enum crawl_status { CRAWL_SCANNED, CRAWL_INFERRED, CRAWL_KNOWN, CRAWL_FAILED };

struct crawl_options {
    const struct config *cfg;
    const struct tables *tables; /* the projects' variant rules (variant.h); NULL: generic only */
    const char *cache_dir;
    int jobs;    /* >= 1 */
    int all;     /* scan every wheel, infer none */
    int bundled; /* read bundled NVIDIA libraries too (recbinary_is_bundled) */
    int shard_k; /* 1..shard_n; shard_n 0 or 1 means no sharding */
    int shard_n;
    const char *today;       /* "YYYY-MM-DD", stamped into records */
    int no_wait;             /* fail with WA_ERR_BUSY when another crawl holds the database */
    long isolated_timeout_s; /* an isolated scan running longer hangs (0: 3600) */
    int plan;                /* read the index pages only and fill crawl_summary.plan:
                              * no wheel read, no record or failure written */
};

struct crawl_event {
    int status; /* enum crawl_status */
    const char *filename;
    const char *url;
    const char *error; /* CRAWL_FAILED only */
    uint64_t bytes;    /* body bytes this wheel cost */
    json_t *line;      /* the --json line: record plus "status" (borrowed); NULL
                        * unless the observer asks for lines */
};

struct crawl_progress {
    size_t total; /* wheels in this shard */
    size_t done;
    uint64_t bytes;
    double elapsed;      /* seconds */
    const char *current; /* a file being read, or NULL */
};

struct crawl_observer {
    void (*event)(void *ud, const struct crawl_event *e);
    void (*progress)(void *ud, const struct crawl_progress *p);
    void (*warning)(void *ud, const char *msg);
    /* Another process holds the database's lock; this one waits for it. */
    void (*waiting)(void *ud, const char *lock_path, long holder_pid);
    void *ud;
    /* Each event carries its --json line (else line is NULL, and the
     * records of wheels already known are not read at all). */
    int lines;
};

struct crawl_failure {
    char *filename;
    char *error;
};

/* What a crawl would do for one project (crawl_options.plan). */
struct crawl_plan_row {
    char *project;
    size_t listed;   /* wheels the indexes list for it, above its floor */
    size_t known;    /* already in the database */
    size_t to_scan;  /* would be read: one per (version, variant, platform, host) */
    size_t to_infer; /* would be recorded from a sibling, no download */
    size_t unusable; /* the index's data for them cannot be used */
    uint64_t bytes;  /* sum of the sizes of those to scan, where the index gives them */
    size_t unsized;  /* of those to scan, how many without a size (PEP 503 HTML pages) */
};

struct crawl_summary {
    size_t pages, pages_unchanged, pages_missing, pages_failed;
    size_t wheels, scanned, inferred, known, failed;
    size_t below_floor; /* wheels listed but older than their project's min_version */
    uint64_t bytes;
    struct crawl_failure *failures;
    size_t nfailures;
    struct crawl_plan_row *plan; /* with crawl_options.plan: per project, first listed first */
    size_t nplan;
};

#endif
