/*
 * crawl_plan: the plan of a run: wheels sorted into groups of one build,
 * what the database already knows, the journal of a run that died, and
 * what `crawl --plan` reports.
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
#include "strmap.h"
#include "variant.h"
#include "version.h"
#include "wheelname.h"
#include "xalloc.h"

static int cmp_wheel_idx(const void *a, const void *b, void *ctx)
{
    const struct crawl *c = ctx;
    return strcmp(c->w[*(const size_t *)a].filename, c->w[*(const size_t *)b].filename);
}

static int cmp_group(const void *a, const void *b, void *ctx)
{
    const struct crawl *c = ctx;
    const struct group *x = a, *y = b;
    return strcmp(c->w[x->wheels[0]].group, c->w[y->wheels[0]].group);
}

void crawli_plan(struct crawl *c)
{
    const struct crawl_options *o = c->o;
    struct strmap *gm = strmap_new();
    for (size_t i = 0; i < c->nw; i++) {
        struct cwheel *w = &c->w[i];
        w->variant =
            variant_decide(c->o->tables, &w->wn, w->url, w->indexes[0], &w->variant_source);
        /* Siblings are inferred only from a wheel listed by the same host:
         * one index can never speak for another's files. */
        char *host = crawli_url_host(w->index_url);
        w->group = xasprintf("%s|%s|%s|%s|%s", w->wn.normalized, w->wn.version, w->variant,
                             wheelname_platform_id(w->wn.platform), host);
        free(host);
        if (o->shard_n > 1 &&
            strmap_hash(w->group) % (uint64_t)o->shard_n != (uint64_t)(o->shard_k - 1))
            continue;
        size_t g;
        if (!strmap_get(gm, w->group, &g)) {
            c->groups = xgrow(c->groups, &c->capgroups, c->ngroups + 1, sizeof *c->groups);
            memset(&c->groups[c->ngroups], 0, sizeof c->groups[0]);
            g = c->ngroups++;
            strmap_put(gm, w->group, g);
        }
        struct group *gr = &c->groups[g];
        gr->wheels = xgrow(gr->wheels, &gr->cap, gr->n + 1, sizeof *gr->wheels);
        gr->wheels[gr->n++] = i;
        c->total++;
    }
    strmap_free(gm);
    for (size_t g = 0; g < c->ngroups; g++)
        if (c->groups[g].n > 1)
            qsort_r(c->groups[g].wheels, c->groups[g].n, sizeof(size_t), cmp_wheel_idx, c);
    if (c->ngroups > 1)
        qsort_r(c->groups, c->ngroups, sizeof *c->groups, cmp_group, c);
    c->sum->wheels += c->total;
}

/* Whether rec, stored under w's key, may stand for w: its sha256 was
 * checked, or it came from the host that lists w (the key is the hash an
 * index claims; a range read cannot check it, so another host's claim is
 * not taken on trust). */
static int trusted_for(const struct db_known *k, const struct cwheel *w)
{
    return !w->sha256 || k->sha256_verified == 1 || !k->url || crawli_same_host(k->url, w->url);
}

/* An unknown wheel whose scan did not finish in an earlier run: found in
 * the journal by this run (failed now, retried alone next time), or failed
 * that way before (retried alone now), or crashed its isolated scan (not
 * retried by this version).  Such a wheel's group is scanned in the
 * isolated pass.  Caller holds the lock. */
static void check_unfinished(struct crawl *c, struct cwheel *w, int *isolate)
{
    struct db_failure f;
    if (!db_failure_get(c->db, w->key, &f))
        return;
    const char *kind = f.kind, *ver = f.wheelarch_version, *msg = f.error;
    const char *furl = f.url; /* crashes are per URL */
    if (strmap_get(c->stale, w->key, NULL)) {
        w->failed = 1;
        crawli_emit(c, w, CRAWL_FAILED, NULL, msg ? msg : "unfinished", 0);
        *isolate = 1;
    } else if (kind && strcmp(kind, "crashed") == 0 && ver && strcmp(ver, WHEELARCH_VERSION) == 0 &&
               furl && strcmp(furl, w->url) == 0) {
        w->failed = 1;
        crawli_emit(c, w, CRAWL_FAILED, NULL, msg ? msg : "crashed", 0);
        *isolate = 1;
    } else if (kind && (strcmp(kind, "unfinished") == 0 || strcmp(kind, "crashed") == 0)) {
        *isolate = 1;
    }
    db_failure_free(&f);
}

/* The journal left by a run that died: every note names a wheel whose scan
 * never ended (this run holds the lock, so no other run is alive).  Each
 * is recorded as failed, with why. */
void crawli_recover_journal(struct crawl *c)
{
    char **keys;
    size_t n;
    struct wa_error e;
    if (db_journal_list(c->db, &keys, &n, &e) < 0) {
        crawli_warn(c, "%s", e.msg);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (db_has_record(c->db, keys[i])) {
            /* killed after its record was stored: nothing was lost */
            db_journal_end(c->db, keys[i]);
            free(keys[i]);
            continue;
        }
        struct db_note note;
        db_note_get(c->db, keys[i], &note);
        struct cwheel w;
        memset(&w, 0, sizeof w);
        w.key = keys[i];
        w.url = note.url ? note.url : (char *)"";
        w.filename = note.filename ? note.filename : keys[i];
        int isolated = note.isolated;
        const char *ver = note.wheelarch_version;
        /* A run that died during an isolated scan was killed from outside
         * (a crash of the scan would have been the child's alone): after
         * ISOLATED_STOPS_MAX such deaths the wheel is taken for one that
         * hangs. */
        int condemned = isolated && crawli_isolated_stops(c, keys[i]) + 1 >= ISOLATED_STOPS_MAX;
        char msg[300];
        if (condemned)
            snprintf(msg, sizeof msg,
                     "wheelarch %s died %d times while scanning this wheel alone (it hung or was "
                     "killed); not retried until wheelarch changes",
                     ver ? ver : "?", ISOLATED_STOPS_MAX);
        else
            snprintf(msg, sizeof msg,
                     "the scan of this wheel did not finish last time (wheelarch crashed, hung "
                     "or was killed); it will be retried alone");
        crawli_record_failure(c, &w, msg, 0, condemned ? "crashed" : "unfinished", isolated);
        if (!condemned)
            strmap_put(c->stale, keys[i], 1);
        db_journal_end(c->db, keys[i]);
        db_note_free(&note);
        free(keys[i]);
    }
    free(keys);
}

/* Known wheels, inference from known records, and the task list. */
void crawli_settle_known(struct crawl *c)
{
    c->tasks = xcalloc(c->ngroups ? c->ngroups : 1, sizeof *c->tasks);
    c->itasks = xcalloc(c->ngroups ? c->ngroups : 1, sizeof *c->itasks);
    for (size_t g = 0; g < c->ngroups; g++) {
        struct group *gr = &c->groups[g];
        const char *source = NULL; /* the key of a scanned record */
        json_t *from = NULL;       /* an inferred line's source record, when lines are made */
        char *from_key = NULL;
        size_t unknown = 0;
        int isolate = 0;
        for (size_t i = 0; i < gr->n; i++) {
            struct cwheel *w = &c->w[gr->wheels[i]];
            if (w->bad) {
                w->failed = 1;
                crawli_record_failure(c, w, w->bad, 0, NULL, 0);
                crawli_emit(c, w, CRAWL_FAILED, NULL, w->bad, 0);
                continue;
            }
            struct db_known k;
            json_t *rec = NULL; /* its text, for the --json line */
            if (!db_known_get(c->db, w->key, &k) ||
                (c->lines && db_read_record(c->db, w->key, &rec, NULL) < 0)) {
                db_known_free(&k);
                unknown++;
                check_unfinished(c, w, &isolate);
                continue;
            }
            if (!trusted_for(&k, w)) {
                /* Another host's unverified record under the hash this
                 * listing claims: believe neither; this one must prove the
                 * hash by reading the whole file. */
                json_decref(rec);
                db_known_free(&k);
                w->must_verify = 1;
                struct db_failure f;
                db_failure_get(c->db, w->key, &f);
                if (f.url && f.kind && strcmp(f.url, w->url) == 0 &&
                    strcmp(f.kind, "sha256") == 0) {
                    w->failed = 1; /* it did not match last time: not downloaded again */
                    crawli_emit(c, w, CRAWL_FAILED, NULL, f.error, 0);
                } else {
                    unknown++;
                }
                db_failure_free(&f);
                continue;
            }
            w->known_scanned = k.scanned;
            if (c->o->all && !w->known_scanned) {
                json_decref(rec);
                db_known_free(&k);
                unknown++;
                continue;
            }
            w->known = 1;
            const char *fk = k.inferred_from;
            if (rec && !w->known_scanned && fk && !k.lists_binaries) {
                /* A compact inferred record: its line shows its source's code. */
                if (!from_key || strcmp(from_key, fk) != 0) {
                    json_decref(from);
                    free(from_key);
                    from = NULL;
                    from_key = xstrdup(fk);
                    db_read_record(c->db, fk, &from, NULL);
                }
                json_t *line = from ? crawli_inferred_line(w, rec, from) : json_incref(rec);
                crawli_emit(c, w, CRAWL_KNOWN, line, NULL, 0);
                json_decref(line);
            } else {
                crawli_emit(c, w, CRAWL_KNOWN, rec, NULL, 0);
            }
            if (w->known_scanned && !source)
                source = w->key;
            json_decref(rec);
            db_known_free(&k);
        }
        json_decref(from);
        free(from_key);
        if (unknown == 0)
            continue;
        json_t *src = NULL; /* the JSON of the record the others are inferred from */
        int inferred = source && !c->o->all &&
                       (!c->lines || db_read_record(c->db, source, &src, NULL) == 0) &&
                       crawli_infer_rest(c, gr, source, src) == 0;
        if (inferred)
            ; /* from the scanned one, with no download */
        else if (isolate)
            c->itasks[c->nitasks++] = g;
        else
            c->tasks[c->ntasks++] = g;
        json_decref(src);
    }
}

/* The row of sum->plan for project, added when new. */
static struct crawl_plan_row *plan_row(struct crawl_summary *sum, const char *project)
{
    for (size_t i = 0; i < sum->nplan; i++)
        if (strcmp(sum->plan[i].project, project) == 0)
            return &sum->plan[i];
    sum->plan = xrealloc(sum->plan, (sum->nplan + 1) * sizeof *sum->plan);
    struct crawl_plan_row *r = &sum->plan[sum->nplan++];
    memset(r, 0, sizeof *r);
    r->project = xstrdup(project);
    return r;
}

/* --plan: what a crawl of the wheels listed would do, counted per project
 * from the database as it is, writing nothing: the wheels it would scan
 * (one per group, every one with --all) and their size where the index
 * gives it, those it would infer and those already known. */
void crawli_plan_report(struct crawl *c)
{
    for (size_t g = 0; g < c->ngroups; g++) {
        const struct group *gr = &c->groups[g];
        struct crawl_plan_row *row = plan_row(c->sum, c->w[gr->wheels[0]].wn.normalized);
        int have_scanned = 0;
        size_t unknown = 0;
        const struct cwheel *first = NULL;
        for (size_t i = 0; i < gr->n; i++) {
            const struct cwheel *w = &c->w[gr->wheels[i]];
            row->listed++;
            if (w->bad) {
                row->unusable++;
                continue;
            }
            const char *st = db_record_status(c->db, w->key);
            if (st && !(c->o->all && strcmp(st, "scanned") != 0)) {
                row->known++;
                have_scanned |= strcmp(st, "scanned") == 0;
                continue;
            }
            unknown++;
            if (!first)
                first = w;
            if (c->o->all) {
                row->to_scan++;
                if (w->size >= 0)
                    row->bytes += (uint64_t)w->size;
                else
                    row->unsized++;
            }
        }
        if (!unknown || c->o->all)
            continue;
        if (have_scanned) {
            row->to_infer += unknown; /* from the scanned sibling: no download */
            continue;
        }
        row->to_scan++;
        row->to_infer += unknown - 1;
        if (first->size >= 0)
            row->bytes += (uint64_t)first->size;
        else
            row->unsized++;
    }
}
