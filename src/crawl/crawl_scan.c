/*
 * crawl_scan: the workers: each takes a group, fetches and scans its
 * first wheel, stores the record (the journal around it), infers the rest
 * of the group, and records what failed.
 */
#include "crawl_state.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "http.h"
#include "scan.h"
#include "version.h"
#include "wheelfetch.h"
static void on_bytes(void *ud, uint64_t n)
{
    struct worker *wk = ud;
    pthread_mutex_lock(&wk->c->lock);
    wk->c->bytes += n;
    crawli_progress(wk->c, 0);
    pthread_mutex_unlock(&wk->c->lock);
}

/* Writes the failure of a wheel.  kind: NULL (an ordinary failure, retried
 * next run), "unfinished" (its scan never ended: retried alone, in a child
 * process) or "crashed" (it crashed or hung that child: not retried by this
 * version).  stopped: the isolated scan was stopped (a signal, the run
 * killed), counted in "isolated_stops"; after ISOLATED_STOPS_MAX of those
 * the wheel counts as crashed. */
void crawli_record_failure(struct crawl *c, const struct cwheel *w, const char *msg, long status,
                           const char *kind, int stopped)
{
    struct db_failure old;
    db_failure_get(c->db, w->key, &old);
    struct db_failure f = {
        .url = w->url,
        .filename = w->filename,
        .error = (char *)msg,
        .http_status = status,
        .failed_at = (char *)c->o->today,
        .kind = (char *)kind,
        .wheelarch_version = WHEELARCH_VERSION,
        .runs = old.runs + 1,
        .isolated_stops = old.isolated_stops + (stopped ? 1 : 0),
    };
    struct wa_error e;
    if (db_failure_put(c->db, w->key, &f, &e) < 0)
        crawli_warn(c, "%s", e.msg);
    db_failure_free(&old);
}

/* The isolated stops of key so far (0 when none). */
json_int_t crawli_isolated_stops(struct crawl *c, const char *key)
{
    struct db_failure f;
    db_failure_get(c->db, key, &f);
    json_int_t n = f.isolated_stops;
    db_failure_free(&f);
    return n;
}

void crawli_on_retry(void *ud, const struct http_retry *r)
{
    struct crawl *c = ud;
    char line[WA_ERROR_MSG_SIZE + 300];
    http_retry_text(r, line, sizeof line);
    pthread_mutex_lock(&c->lock);
    crawli_warn(c, "%s", line);
    pthread_mutex_unlock(&c->lock);
}

/* Scans one wheel and stores its record, with the wheel noted in the
 * journal (the caller ends the note once the outcome is stored).  Returns
 * 0 with *rec (a new reference) or an error in e. */
int crawli_scan_and_store(struct crawl *c, struct http_client *hc, struct cwheel *w,
                          wheelfetch_progress prog, void *ud, json_t **rec,
                          struct wheelfetch_stats *st, struct wa_error *e)
{
    *rec = NULL;
    memset(st, 0, sizeof *st);
    struct scan_result *r = scan_result_new(w->url);
    scan_result_set_name(r, w->filename);
    /* Bundled NVIDIA libraries do not count for a wheel's verdict: not read
     * unless asked for (NVIDIA's own library wheels: they are its code). */
    struct wheelfetch_request rq = {
        w->url,           w->index_url,
        w->sha256,        w->must_verify,
        w->strict_origin, !c->o->bundled && !recbinary_is_library_project(w->wn.normalized)};
    int rc = wheelfetch_scan_from(hc, &rq, r, st, prog, ud, e);
    if (rc == 0 && w->must_verify && !st->sha256_checked)
        rc = wa_error_set(e, WA_ERR_CHECKSUM, "the file could not be checked against its sha256");
    /* What build would refuse is this wheel's error, never a record:
     * record_of_scan holds the record to the rules as it makes it. */
    if (rc == 0 && crawli_store_scanned(c, w, r, st, rec, e) < 0)
        rc = e->code;
    scan_result_free(r);
    return rc;
}

int crawli_journal_begin(struct crawl *c, const struct cwheel *w, int isolated, struct wa_error *e)
{
    const struct db_note note = {
        .url = w->url,
        .filename = w->filename,
        .wheelarch_version = WHEELARCH_VERSION,
        .pid = (long long)getpid(),
        .started = (char *)c->o->today,
        .isolated = isolated,
    };
    return db_journal_begin(c->db, w->key, &note, e);
}

/* Stores and reports a wheel's outcome.  Caller holds the lock. */
void crawli_settle_scan(struct crawl *c, const struct group *g, struct cwheel *w, int rc,
                        json_t *rec, const char *msg, long status, uint64_t bytes)
{
    if (rc == 0) {
        w->known = 1; /* its failure and journal rows went with the record */
        crawli_emit(c, w, CRAWL_SCANNED, rec, NULL, bytes);
        if (!c->o->all)
            crawli_infer_rest(c, g, w->key, rec);
    } else {
        w->failed = 1;
        if (msg)
            crawli_record_failure(c, w, msg, status,
                                  w->must_verify && rc == WA_ERR_CHECKSUM ? "sha256" : NULL, 0);
        struct db_failure f;
        db_failure_get(c->db, w->key, &f);
        const char *m = msg ? msg : f.error;
        crawli_emit(c, w, CRAWL_FAILED, NULL, m ? m : "failed", bytes);
        db_failure_free(&f);
    }
    db_journal_end(c->db, w->key);
}

/* Scans the wheels of one group until one succeeds, then infers the rest
 * (or, with --all, scans each). */
static void run_group(struct worker *wk, const struct group *g)
{
    struct crawl *c = wk->c;
    for (size_t i = 0; i < g->n; i++) {
        struct cwheel *w = &c->w[g->wheels[i]];
        if (w->known || w->failed)
            continue;
        pthread_mutex_lock(&c->lock);
        c->current[wk->id] = w->filename;
        pthread_mutex_unlock(&c->lock);
        struct wheelfetch_stats st;
        struct wa_error e;
        wa_error_clear(&e);
        json_t *rec = NULL;
        int rc = crawli_journal_begin(c, w, 0, &e);
        if (rc == 0)
            rc = crawli_scan_and_store(c, wk->hc, w, on_bytes, wk, &rec, &st, &e);
        else
            memset(&st, 0, sizeof st);
        pthread_mutex_lock(&c->lock);
        c->current[wk->id] = NULL;
        crawli_settle_scan(c, g, w, rc, rec, rc ? e.msg : NULL, st.http_status, st.bytes);
        pthread_mutex_unlock(&c->lock);
        json_decref(rec);
        if (rc == 0 && !c->o->all)
            break;
    }
}

void crawli_worker_main(void *ud, unsigned i)
{
    struct worker *wk = (struct worker *)ud + i;
    struct crawl *c = wk->c;
    for (;;) {
        pthread_mutex_lock(&c->lock);
        size_t t = c->next_task < c->ntasks ? c->tasks[c->next_task++] : (size_t)-1;
        pthread_mutex_unlock(&c->lock);
        if (t == (size_t)-1)
            break;
        run_group(wk, &c->groups[t]);
    }
}
