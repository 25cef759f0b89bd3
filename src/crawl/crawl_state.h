/*
 * crawl_state: the crawl's state (struct crawl, its wheels and groups) and
 * what the files of crawl share.  Not for other modules.  They
 * call downwards only, in this order:
 *   crawl.c          crawl_run: the passes in order, the summary
 *   crawl_plan.c     the plan: wheels into groups, what is known, the
 *                    journal of a run that died, what a plan reports
 *   crawl_isolate.c  the isolated pass: a wheel scanned alone in a child
 *                    process, its crash or stop recorded
 *   crawl_scan.c     the workers: a group's wheels fetched, scanned and
 *                    stored, failures recorded
 *   crawl_index.c    index pages read into wheels; the GPU libraries
 *                    the crawled wheels pin
 *   crawl_record.c   records and output lines made from a wheel
 *   crawl_report.c   warnings and progress to the observer
 */
#ifndef WHEELARCH_CRAWL_STATE_H
#define WHEELARCH_CRAWL_STATE_H

#include <jansson.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "crawl_types.h"
#include "http.h"
#include "scan.h"
#include "strmap.h"
#include "wheelfetch.h"
#include "wheelname.h"

/* download.pytorch.org's largest pages are a few MB: 64 MiB decoded bounds a
 * compressed page that expands on arrival (and its copy in the cache). */
#define PAGE_MAX_BYTES (64u << 20)

struct cwheel {
    char *key;
    char *url;
    char *filename;
    char *sha256; /* from the index, or NULL */
    char *upload_time;
    char *requires_python;
    char *yanked;
    char **indexes; /* ids of the indexes listing it, in config order */
    size_t nindexes;
    char *index_url; /* URL of the first of them */
    struct wheel_name wn;
    char *variant;
    const char *variant_source;
    char *group;
    int known;         /* a record exists */
    int failed;        /* failed in this run: not inferred, retried next run */
    int known_scanned; /* ... and it was scanned, not inferred */
    char *bad;         /* why the index's data for it cannot be used, or NULL */
    int must_verify;   /* its key's record came from another host unverified: read whole */
    int strict_origin; /* its index's pages came from a public address (http.h) */
    long long size;    /* as the index gives it (PEP 700), or -1 */
};

struct group {
    size_t *wheels; /* indexes into the wheel array, sorted by file name */
    size_t n;
    size_t cap;
};

struct crawl {
    const struct crawl_options *o;
    const struct crawl_observer *obs;
    int lines; /* the observer wants each event's --json line */
    struct crawl_summary *sum;
    struct db *db;
    struct cwheel *w;
    size_t nw, capw;
    struct strmap *by_key;
    struct strmap *only; /* when set: list only these "project|version" (the libraries) */
    struct group *groups;
    size_t ngroups, capgroups;
    size_t *tasks; /* groups that need scanning */
    size_t ntasks, next_task;
    size_t *itasks; /* groups scanned in the isolated pass */
    size_t nitasks;
    struct strmap *stale;  /* keys found in the journal of a dead run */
    long isolated_timeout; /* seconds */
    pthread_mutex_t lock;
    size_t total, done;
    uint64_t bytes;
    struct timespec start;
    struct timespec last_progress;
    char **current; /* per worker: the file being read */
    int njobs;
};

struct worker {
    struct crawl *c;
    int id;
    struct http_client *hc;
};

void crawli_warn(struct crawl *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void crawli_progress(struct crawl *c, int force);
char *crawli_url_host(const char *url);
int crawli_same_host(const char *a, const char *b);
void crawli_read_indexes(struct crawl *c, struct http_client *hc);
void crawli_read_libraries(struct crawl *c, struct http_client *hc);
/* Makes the record of w from its scan r (record_of_scan, which holds it to
 * the rules as it makes it: what build would refuse is the wheel's error)
 * and stores it with the text of its JSON (record_scanned), which *rec
 * gets (a new reference; NULL on an error) for the crawl's lines. */
int crawli_store_scanned(struct crawl *c, const struct cwheel *w, const struct scan_result *r,
                         const struct wheelfetch_stats *st, json_t **rec, struct wa_error *e);
json_t *crawli_inferred_line(const struct cwheel *w, const json_t *rec, json_t *from);
void crawli_emit(struct crawl *c, const struct cwheel *w, int status, json_t *rec,
                 const char *error, uint64_t bytes);
/* Writes inferred records for every unknown wheel of g from the stored
 * record of source, a scanned wheel of the group (record_of_inferred,
 * which holds each identity to the rules: what build would refuse is that
 * wheel's error, never a record); from is the source's JSON for the
 * crawl's lines (NULL when none are made).  Returns 0, or -1 when the
 * source cannot be read (then nothing is written).  Caller holds the
 * lock. */
int crawli_infer_rest(struct crawl *c, const struct group *g, const char *source, json_t *from);
void crawli_record_failure(struct crawl *c, const struct cwheel *w, const char *msg, long status,
                           const char *kind, int stopped);
json_int_t crawli_isolated_stops(struct crawl *c, const char *key);
int crawli_scan_and_store(struct crawl *c, struct http_client *hc, struct cwheel *w,
                          wheelfetch_progress prog, void *ud, json_t **rec,
                          struct wheelfetch_stats *st, struct wa_error *e);
int crawli_journal_begin(struct crawl *c, const struct cwheel *w, int isolated, struct wa_error *e);
void crawli_settle_scan(struct crawl *c, const struct group *g, struct cwheel *w, int rc,
                        json_t *rec, const char *msg, long status, uint64_t bytes);
void crawli_run_group_isolated(struct crawl *c, const struct group *g);
void crawli_plan(struct crawl *c);
void crawli_recover_journal(struct crawl *c);
void crawli_settle_known(struct crawl *c);
void crawli_plan_report(struct crawl *c);

/* After this many isolated scans of one wheel were stopped from outside
 * (the job killed, a timeout), the wheel is taken for one that hangs. */
#define ISOLATED_STOPS_MAX 3

/* crawl_scan.c: the HTTP client's retry callback (a warning) and a
 * worker thread's loop over the groups to scan. */
void crawli_on_retry(void *ud, const struct http_retry *r);
void crawli_worker_main(void *ud, unsigned i);

#endif
