/*
 * crawl: read package indexes, scan new wheels, write records.
 *
 * For each configured index and project, the index page is fetched with a
 * conditional GET (validators and bodies cached in the database), parsed,
 * and its wheels collected; a file listed on several pages is one wheel.
 * Wheels of one (project, version, variant, platform) differ only in their
 * Python tags and carry the same GPU code, so by default one per group is
 * scanned and the others are recorded as inferred from it.  Wheels with a
 * record are "known" and cost no transfer.  Work runs on `jobs` threads,
 * each with its own HTTP connection; every record is written atomically as
 * soon as its wheel is done, so a crawl killed at any moment and run again
 * loses nothing and redoes nothing.  With a shard K/N only the groups whose
 * key hashes to K-1 modulo N are crawled.
 *
 * A crawl holds an exclusive lock on the database folder (lockfile.h)
 * from start to end.  Before a wheel is scanned it is noted in the
 * database's journal; a note left by a run that died (crashed, hung,
 * killed) makes that wheel failed for this run, and later runs scan it
 * again alone in a child process after all other work, so one wheel that
 * crashes the scanner can never make every run fail.
 *
 * The core prints nothing: results, progress and warnings go to an
 * observer, called with an internal lock held (from worker threads).
 */
#ifndef WHEELARCH_CRAWL_H
#define WHEELARCH_CRAWL_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "error.h"

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

/* Runs a crawl.  Returns 0 when it ran (wheel and page failures are in the
 * summary), or an error that stopped it (the database folder unusable). */
struct db;

/* Registers cfg's indexes (its libraries index too) as ones db trusts:
 * their URLs may reach commands (db_index_trusted).  A crawl does it for
 * its own configuration; db import and merge for the one they are given. */
int crawl_trust_config(struct db *db, const struct config *cfg, struct wa_error *err);

int crawl_run(const struct crawl_options *o, const struct crawl_observer *obs,
              struct crawl_summary *sum, struct wa_error *err);
void crawl_summary_free(struct crawl_summary *sum);

/* Parses "K/N" (1 <= K <= N).  Returns 0 or -1. */
int crawl_parse_shard(const char *s, int *k, int *n);

#endif
