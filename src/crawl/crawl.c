/*
 * crawl: indexes -> wheels -> groups -> scans on worker threads -> records.
 * crawl_run runs the passes in order; each pass is a file of its own
 * (crawl_state.h says which).
 */
#include "crawl.h"
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
#include "lockfile.h"
#include "strmap.h"
#include "version.h"
#include "wheelname.h"
#include "workers.h"
#include "xalloc.h"

int crawl_parse_shard(const char *s, int *k, int *n)
{
    /* digits, '/', digits: nothing strtol would also take (" 1", "+1") */
    size_t d1 = strspn(s, "0123456789");
    if (d1 == 0 || s[d1] != '/' || strspn(s + d1 + 1, "0123456789") != strlen(s + d1 + 1) ||
        !s[d1 + 1] || d1 > 6 || strlen(s + d1 + 1) > 6)
        return -1;
    char *end;
    long a = strtol(s, &end, 10);
    if (end == s || *end != '/')
        return -1;
    const char *p = end + 1;
    long b = strtol(p, &end, 10);
    if (end == p || *end != '\0' || b < 1 || b > 100000 || a < 1 || a > b)
        return -1;
    *k = (int)a;
    *n = (int)b;
    return 0;
}

void crawl_summary_free(struct crawl_summary *sum)
{
    for (size_t i = 0; i < sum->nfailures; i++) {
        free(sum->failures[i].filename);
        free(sum->failures[i].error);
    }
    free(sum->failures);
    for (size_t i = 0; i < sum->nplan; i++)
        free(sum->plan[i].project);
    free(sum->plan);
    memset(sum, 0, sizeof *sum);
}

static void free_wheel(struct cwheel *w)
{
    free(w->key);
    free(w->bad);
    free(w->url);
    free(w->filename);
    free(w->sha256);
    free(w->upload_time);
    free(w->requires_python);
    free(w->yanked);
    for (size_t i = 0; i < w->nindexes; i++)
        free(w->indexes[i]);
    free(w->indexes);
    free(w->index_url);
    wheelname_free(&w->wn);
    free(w->variant);
    free(w->group);
}

/* ---- index pages -------------------------------------------------------- */

static void run_forget(struct crawl *c);

/* Scans, infers or settles every wheel listed in c->w, then forgets them
 * (a crawl runs one pass for the indexes and one for the libraries). */
static void run_pass(struct crawl *c)
{
    const struct crawl_options *o = c->o;
    crawli_plan(c);
    pthread_mutex_lock(&c->lock);
    crawli_settle_known(c);
    crawli_progress(c, 1);
    pthread_mutex_unlock(&c->lock);

    int nworkers = c->njobs < (int)c->ntasks ? c->njobs : (int)c->ntasks;
    struct worker *wk = xcalloc(nworkers > 0 ? (size_t)nworkers : 1, sizeof *wk);
    for (int i = 0; i < nworkers; i++) {
        wk[i].c = c;
        wk[i].id = i;
        wk[i].hc = http_client_new(&o->cfg->http);
        http_client_on_retry(wk[i].hc, crawli_on_retry, c);
    }
    workers_run(nworkers > 0 ? (unsigned)nworkers : 0, crawli_worker_main, wk);
    for (int i = 0; i < nworkers; i++)
        http_client_free(wk[i].hc);
    free(wk);
    /* Only this thread is left: the isolated pass may fork. */
    for (size_t t = 0; t < c->nitasks; t++)
        crawli_run_group_isolated(c, &c->groups[c->itasks[t]]);
    pthread_mutex_lock(&c->lock);
    crawli_progress(c, 1);
    pthread_mutex_unlock(&c->lock);
    run_forget(c);
}

/* Forgets the wheels listed and their groups (after a pass, or a plan). */
static void run_forget(struct crawl *c)
{
    for (size_t i = 0; i < c->nw; i++)
        free_wheel(&c->w[i]);
    free(c->w);
    c->w = NULL;
    c->nw = c->capw = 0;
    for (size_t g = 0; g < c->ngroups; g++)
        free(c->groups[g].wheels);
    free(c->groups);
    c->groups = NULL;
    c->ngroups = c->capgroups = 0;
    free(c->tasks);
    free(c->itasks);
    c->tasks = c->itasks = NULL;
    c->ntasks = c->next_task = c->nitasks = 0;
    c->total = c->done = 0;
    strmap_free(c->by_key);
    c->by_key = strmap_new();
}

int crawl_trust_config(struct db *db, const struct config *cfg, struct wa_error *err)
{
    int rc = 0;
    for (size_t i = 0; i < cfg->nindexes && rc == 0; i++)
        rc = db_register_index(db, cfg->indexes[i].id, cfg->indexes[i].url, err);
    if (rc == 0 && cfg->libraries_index)
        rc = db_register_index(db, cfg->libraries_index->id, cfg->libraries_index->url, err);
    return rc;
}

int crawl_run(const struct crawl_options *o, const struct crawl_observer *obs,
              struct crawl_summary *sum, struct wa_error *err)
{
    struct crawl c;
    memset(&c, 0, sizeof c);
    memset(sum, 0, sizeof *sum);
    c.o = o;
    c.obs = obs;
    c.lines = obs && obs->lines;
    c.sum = sum;
    clock_gettime(CLOCK_MONOTONIC, &c.start);
    /* One crawl per database at a time: the journal's notes are stale only
     * because nobody else can be writing them. */
    struct lockfile *lock;
    int rc = lockfile_acquire(o->cache_dir, !o->no_wait, obs ? obs->waiting : NULL,
                              obs ? obs->ud : NULL, &lock, err);
    if (rc < 0)
        return rc;
    rc = db_open(o->cache_dir, 0, &c.db, err);
    if (rc < 0) {
        lockfile_release(lock);
        return rc;
    }
    /* The indexes it reads are its owner's configuration: their URLs may
     * reach commands (db_index_trusted), registered before any record of
     * them is written. */
    if (!o->plan) {
        rc = crawl_trust_config(c.db, o->cfg, err);
        if (rc < 0) {
            db_close(c.db);
            lockfile_release(lock);
            return rc;
        }
    }
    pthread_mutex_init(&c.lock, NULL);
    c.by_key = strmap_new();
    c.stale = strmap_new();
    c.isolated_timeout = o->isolated_timeout_s > 0 ? o->isolated_timeout_s : 3600;
    c.njobs = o->jobs > 0 ? o->jobs : 1;
    c.current = xcalloc((size_t)c.njobs, sizeof *c.current);
    if (!o->plan)
        crawli_recover_journal(&c);

    struct http_client *hc = http_client_new(&o->cfg->http);
    http_client_on_retry(hc, crawli_on_retry, &c);
    crawli_read_indexes(&c, hc);
    http_client_free(hc);

    if (o->plan) {
        crawli_plan(&c);
        crawli_plan_report(&c);
        c.total = 0;
        run_forget(&c);
        goto done;
    }
    run_pass(&c);
    /* The GPU libraries the wheels pin (their Requires-Dist), from the
     * libraries' index: each pinned version once. */
    if (o->cfg->libraries_index) {
        hc = http_client_new(&o->cfg->http);
        http_client_on_retry(hc, crawli_on_retry, &c);
        crawli_read_libraries(&c, hc);
        http_client_free(hc);
        if (c.nw)
            run_pass(&c);
    }
done:
    sum->bytes = c.bytes;
    free(c.current);
    strmap_free(c.by_key);
    strmap_free(c.stale);
    db_close(c.db);
    pthread_mutex_destroy(&c.lock);
    lockfile_release(lock);
    return 0;
}
