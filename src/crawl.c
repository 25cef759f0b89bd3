/*
 * crawl: indexes -> wheels -> groups -> scans on worker threads -> records.
 */
#include "crawl.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "http.h"
#include "indexpage.h"
#include "scan.h"
#include "scanreport.h"
#include "strbuf.h"
#include "strmap.h"
#include "version.h"
#include "wheelfetch.h"
#include "wheelname.h"
#include "xalloc.h"

#define PAGE_MAX_BYTES (256u << 20)
#define RECORD_VERSION 1

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
};

struct group {
    size_t *wheels; /* indexes into the wheel array, sorted by file name */
    size_t n;
    size_t cap;
};

struct crawl {
    const struct crawl_options *o;
    const struct crawl_observer *obs;
    struct crawl_summary *sum;
    struct db *db;
    struct cwheel *w;
    size_t nw, capw;
    struct strmap *by_key;
    struct group *groups;
    size_t ngroups, capgroups;
    size_t *tasks; /* groups that need scanning */
    size_t ntasks, next_task;
    pthread_mutex_t lock;
    size_t total, done;
    uint64_t bytes;
    struct timespec start;
    struct timespec last_progress;
    char **current; /* per worker: the file being read */
    int njobs;
};

/* ---- helpers ------------------------------------------------------------ */

static double since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static void warn(struct crawl *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct crawl *c, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->obs && c->obs->warning)
        c->obs->warning(c->obs->ud, msg);
}

/* Caller holds the lock. */
static void progress(struct crawl *c, int force)
{
    if (!c->obs || !c->obs->progress)
        return;
    if (!force && since(&c->last_progress) < 0.1)
        return;
    clock_gettime(CLOCK_MONOTONIC, &c->last_progress);
    struct crawl_progress p = {c->total, c->done, c->bytes, since(&c->start), NULL};
    for (int i = 0; i < c->njobs && c->current; i++)
        if (c->current[i]) {
            p.current = c->current[i];
            break;
        }
    c->obs->progress(c->obs->ud, &p);
}

static int is_variant_token(const char *s, size_t n)
{
    if (n == 3 && memcmp(s, "cpu", 3) == 0)
        return 1;
    if (n == 3 && memcmp(s, "xpu", 3) == 0)
        return 1;
    if (n > 2 && s[0] == 'c' && s[1] == 'u') {
        for (size_t i = 2; i < n; i++)
            if (!isdigit((unsigned char)s[i]))
                return 0;
        return 1;
    }
    if (n > 4 && memcmp(s, "rocm", 4) == 0) {
        for (size_t i = 4; i < n; i++)
            if (!isdigit((unsigned char)s[i]) && s[i] != '.')
                return 0;
        return isdigit((unsigned char)s[4]);
    }
    return 0;
}

char *crawl_variant(const char *local, const char *url, const char *index_id, const char **source)
{
    if (local && *local) {
        /* "cu128", "rocm6.4", "cpu.cxx11.abi" -> "cpu" */
        size_t n = strncmp(local, "rocm", 4) == 0 ? strlen(local) : strcspn(local, ".");
        if (is_variant_token(local, n)) {
            *source = "label";
            return xstrndup(local, n);
        }
    }
    if (url) {
        size_t end = strcspn(url, "?#");
        while (end > 0 && url[end - 1] != '/')
            end--;
        if (end > 0) {
            size_t dend = end - 1, dstart = dend;
            while (dstart > 0 && url[dstart - 1] != '/')
                dstart--;
            if (is_variant_token(url + dstart, dend - dstart)) {
                *source = "url";
                return xstrndup(url + dstart, dend - dstart);
            }
        }
    }
    *source = "index";
    return xstrdup(index_id ? index_id : "unknown");
}

int crawl_parse_shard(const char *s, int *k, int *n)
{
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
    memset(sum, 0, sizeof *sum);
}

static void free_wheel(struct cwheel *w)
{
    free(w->key);
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

struct page_fetch {
    struct strbuf body;
    int too_big;
};

static int page_sink(void *ud, const struct http_response *resp, const uint8_t *buf, size_t n,
                     struct wa_error *err)
{
    struct page_fetch *pf = ud;
    (void)resp;
    if (pf->body.len + n > PAGE_MAX_BYTES)
        return wa_error_set(err, WA_ERR_LIMIT, "index page larger than %u bytes", PAGE_MAX_BYTES);
    strbuf_add(&pf->body, buf, n);
    return 0;
}

static void page_restart(void *ud)
{
    strbuf_reset(&((struct page_fetch *)ud)->body);
}

/* Fetches a page with a conditional GET.  Returns 0 and the body, 1 when
 * the page does not exist (404/410), or an error. */
static int fetch_page(struct crawl *c, struct http_client *hc, const char *url, char **body,
                      size_t *len, char **ctype, int *unchanged, int *no_answer,
                      struct wa_error *err)
{
    struct db_http_entry cached;
    int have = db_http_load(c->db, url, &cached) == 0;
    struct page_fetch pf = {STRBUF_INIT, 0};
    struct http_request req = {0};
    req.url = url;
    req.accept = INDEXPAGE_ACCEPT;
    req.compressed = 1;
    req.range_start = -1;
    req.if_none_match = have ? cached.etag : NULL;
    req.if_modified_since = have ? cached.last_modified : NULL;
    req.body = page_sink;
    req.restart = page_restart;
    req.ud = &pf;
    struct http_response resp;
    *unchanged = 0;
    int rc = http_get(hc, &req, &resp, err);
    *no_answer = rc < 0 && resp.status == 0; /* no HTTP answer at all, even after retries */
    if (rc == 0) {
        if (resp.status == 304 && have) {
            *unchanged = 1;
            *body = cached.body;
            *len = cached.len;
            *ctype = cached.content_type ? xstrdup(cached.content_type) : NULL;
            cached.body = NULL;
        } else if (resp.status == 200) {
            struct db_http_entry e = {resp.etag, resp.last_modified, resp.content_type, pf.body.buf,
                                      pf.body.len};
            struct wa_error se;
            if (db_http_store(c->db, url, &e, &se) < 0)
                warn(c, "cannot cache %s: %s", url, se.msg);
            *ctype = xstrdup(resp.content_type);
            *body = strbuf_detach(&pf.body, len);
        } else if (resp.status == 404 || resp.status == 410) {
            rc = 1;
        } else {
            rc = wa_error_set(err, WA_ERR_NETWORK, "HTTP %ld", resp.status);
        }
    }
    if (have)
        db_http_entry_free(&cached);
    strbuf_free(&pf.body);
    c->bytes += resp.bytes_received;
    return rc;
}

static void add_link(struct crawl *c, const struct config_index *ix, const char *project,
                     const struct index_link *l)
{
    size_t fl = strlen(l->filename);
    if (fl < 5 || strcmp(l->filename + fl - 4, ".whl") != 0)
        return;
    struct wheel_name wn;
    struct wa_error e;
    if (wheelname_parse(l->filename, &wn, &e) < 0) {
        warn(c, "%s: skipped: %s", l->filename, e.msg);
        return;
    }
    if (strcmp(wn.normalized, project) != 0) {
        wheelname_free(&wn);
        return;
    }
    char *key = db_key(l->sha256, l->url);
    size_t at;
    if (strmap_get(c->by_key, key, &at)) {
        struct cwheel *w = &c->w[at];
        int seen = 0;
        for (size_t i = 0; i < w->nindexes; i++)
            seen |= strcmp(w->indexes[i], ix->id) == 0;
        if (!seen) {
            w->indexes = xrealloc(w->indexes, (w->nindexes + 1) * sizeof *w->indexes);
            w->indexes[w->nindexes++] = xstrdup(ix->id);
        }
        free(key);
        wheelname_free(&wn);
        return;
    }
    c->w = xgrow(c->w, &c->capw, c->nw + 1, sizeof *c->w);
    struct cwheel *w = &c->w[c->nw];
    memset(w, 0, sizeof *w);
    w->key = key;
    w->url = xstrdup(l->url);
    w->filename = xstrdup(l->filename);
    w->sha256 = l->sha256 ? xstrdup(l->sha256) : NULL;
    w->upload_time = l->upload_time ? xstrdup(l->upload_time) : NULL;
    w->requires_python = l->requires_python ? xstrdup(l->requires_python) : NULL;
    w->yanked = l->yanked ? xstrdup(l->yanked) : NULL;
    w->indexes = xmalloc(sizeof *w->indexes);
    w->indexes[0] = xstrdup(ix->id);
    w->nindexes = 1;
    w->index_url = xstrdup(ix->url);
    w->wn = wn;
    strmap_put(c->by_key, key, c->nw);
    c->nw++;
}

/* The host of an http(s) URL, for telling which indexes share a server. */
static char *url_host(const char *url)
{
    const char *p = strstr(url, "://");
    p = p ? p + 3 : url;
    return xstrndup(p, strcspn(p, "/?#"));
}

static void read_indexes(struct crawl *c, struct http_client *hc)
{
    const struct config *cfg = c->o->cfg;
    /* An index whose server does not answer (no HTTP response even after the
     * retries) is reported once and its other pages are skipped, as are the
     * pages of other indexes on that host: an offline run ends quickly. */
    struct strmap *dead_hosts = strmap_new();
    for (size_t i = 0; i < cfg->nindexes; i++) {
        const char *ixurl = cfg->indexes[i].url;
        char *host = url_host(ixurl);
        if (strmap_get(dead_hosts, host, NULL)) {
            c->sum->pages += cfg->nprojects;
            c->sum->pages_failed += cfg->nprojects;
            warn(c, "index %s unreachable: %s did not answer (above); %zu page%s not read", ixurl,
                 host, cfg->nprojects, cfg->nprojects == 1 ? "" : "s");
            free(host);
            continue;
        }
        for (size_t j = 0; j < cfg->nprojects; j++) {
            char *url = xasprintf("%s%s/", ixurl, cfg->projects[j]);
            char *body = NULL, *ctype = NULL;
            size_t len = 0;
            int unchanged = 0, no_answer = 0;
            struct wa_error e;
            c->sum->pages++;
            int rc = fetch_page(c, hc, url, &body, &len, &ctype, &unchanged, &no_answer, &e);
            if (rc == 1) {
                c->sum->pages_missing++;
            } else if (rc < 0 && no_answer) {
                size_t left = cfg->nprojects - j - 1;
                c->sum->pages_failed += 1 + left;
                c->sum->pages += left;
                warn(c, "index %s unreachable: %s; %zu page%s not read", ixurl, e.msg, left + 1,
                     left ? "s" : "");
                strmap_put(dead_hosts, host, 1);
                free(url);
                break;
            } else if (rc < 0) {
                c->sum->pages_failed++;
                warn(c, "%s: %s", url, e.msg);
            } else {
                c->sum->pages_unchanged += unchanged;
                struct index_page page;
                if (indexpage_parse(url, ctype, body, len, &page, &e) < 0) {
                    c->sum->pages_failed++;
                    warn(c, "%s: %s", url, e.msg);
                } else {
                    for (size_t k = 0; k < page.n; k++)
                        add_link(c, &cfg->indexes[i], cfg->projects[j], &page.links[k]);
                    indexpage_free(&page);
                }
            }
            free(body);
            free(ctype);
            free(url);
        }
        free(host);
    }
    strmap_free(dead_hosts);
}

/* ---- records ------------------------------------------------------------ */

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

/* Identity fields every record and line carries. */
static void set_identity(json_t *o, const struct cwheel *w)
{
    json_object_set_new(o, "input", json_string(w->url));
    json_object_set_new(o, "url", json_string(w->url));
    json_object_set_new(o, "key", json_string(w->key));
    json_object_set_new(o, "filename", json_string(w->filename));
    json_object_set_new(o, "index", json_string(w->indexes[0]));
    json_t *ix = json_array();
    for (size_t i = 0; i < w->nindexes; i++)
        json_array_append_new(ix, json_string(w->indexes[i]));
    json_object_set_new(o, "indexes", ix);
    json_object_set_new(o, "index_url", json_string(w->index_url));
    json_object_set_new(o, "variant", json_string(w->variant));
    json_object_set_new(o, "variant_source", json_string(w->variant_source));
    json_object_set_new(o, "wheel", scanreport_wheel_json(&w->wn));
    json_object_set_new(o, "upload_time", str_or_null(w->upload_time));
    json_object_set_new(o, "requires_python", str_or_null(w->requires_python));
    json_object_set_new(o, "yanked", str_or_null(w->yanked));
    json_object_set_new(o, "index_sha256", str_or_null(w->sha256));
}

static json_t *scanned_record(struct crawl *c, const struct cwheel *w, const struct scan_result *r,
                              const struct wheelfetch_stats *st)
{
    json_t *o = scanreport_json(r);
    set_identity(o, w);
    json_object_set_new(o, "record_version", json_integer(RECORD_VERSION));
    json_object_set_new(o, "status", json_string("scanned"));
    json_object_set_new(o, "inferred_from", json_null());
    if (!r->sha256[0])
        json_object_set_new(o, "sha256", str_or_null(w->sha256));
    json_object_set_new(o, "sha256_verified", json_boolean(st->sha256_checked));
    json_object_set_new(o, "size", json_integer((json_int_t)st->size));
    json_object_set_new(o, "scanned_at", json_string(c->o->today));
    json_object_set_new(o, "wheelarch_version", json_string(WHEELARCH_VERSION));
    json_t *f = json_object();
    json_object_set_new(f, "mode", json_string(st->range_mode ? "range" : "full"));
    json_object_set_new(f, "bytes", json_integer((json_int_t)st->bytes));
    json_object_set_new(f, "requests", json_integer(st->requests));
    json_object_set_new(o, "fetch", f);
    return o;
}

/* An inferred wheel's record: its own identity, the target unions of the
 * wheel it was inferred from, and that wheel's key.  The per-binary detail
 * stays in the source record only (records are read in bulk by `build`;
 * copying it into every sibling made the database several times larger). */
static json_t *inferred_record(struct crawl *c, const struct cwheel *w, json_t *from)
{
    json_t *o = json_object();
    set_identity(o, w);
    json_object_set_new(o, "record_version", json_integer(RECORD_VERSION));
    json_object_set_new(o, "status", json_string("inferred"));
    json_object_set_new(o, "inferred_from",
                        json_string(json_string_value(json_object_get(from, "key"))));
    static const char *const copied[] = {"kind", "sass", "ptx", "lto", NULL};
    for (const char *const *k = copied; *k; k++)
        if (json_object_get(from, *k))
            json_object_set(o, *k, json_object_get(from, *k));
    json_object_set_new(o, "sha256", str_or_null(w->sha256));
    json_object_set_new(o, "sha256_verified", json_false());
    json_object_set_new(o, "size", json_null());
    json_object_set_new(o, "error", json_null());
    json_object_set_new(o, "scanned_at", json_string(c->o->today));
    json_object_set_new(o, "wheelarch_version", json_string(WHEELARCH_VERSION));
    json_object_set_new(o, "fetch", json_null());
    return o;
}

/* The --json line of an inferred wheel: the full scan object of its source
 * under its own identity. */
static json_t *inferred_line(const json_t *rec, json_t *from)
{
    json_t *o = json_deep_copy(from);
    json_object_del(o, "members");
    json_object_del(o, "binaries_read");
    json_object_update(o, (json_t *)rec);
    return o;
}

/* Emits one wheel's outcome.  Caller holds the lock. */
static void emit(struct crawl *c, const struct cwheel *w, int status, json_t *rec,
                 const char *error, uint64_t bytes)
{
    json_t *line;
    if (rec) {
        line = json_deep_copy(rec);
        if (status == CRAWL_KNOWN)
            json_object_set(line, "record_status", json_object_get(rec, "status"));
    } else {
        line = json_object();
        set_identity(line, w);
        json_object_set_new(line, "sha256", str_or_null(w->sha256));
        json_object_set_new(line, "sass", json_array());
        json_object_set_new(line, "ptx", json_array());
        json_object_set_new(line, "binaries", json_array());
    }
    static const char *const names[] = {"scanned", "inferred", "known", "failed"};
    json_object_set_new(line, "status", json_string(names[status]));
    json_object_set_new(line, "error", str_or_null(error));
    struct crawl_event ev = {status, w->filename, w->url, error, bytes, line};
    switch (status) {
    case CRAWL_SCANNED:
        c->sum->scanned++;
        break;
    case CRAWL_INFERRED:
        c->sum->inferred++;
        break;
    case CRAWL_KNOWN:
        c->sum->known++;
        break;
    case CRAWL_FAILED:
        c->sum->failed++;
        c->sum->failures =
            xrealloc(c->sum->failures, (c->sum->nfailures + 1) * sizeof *c->sum->failures);
        c->sum->failures[c->sum->nfailures].filename = xstrdup(w->filename);
        c->sum->failures[c->sum->nfailures].error = xstrdup(error ? error : "failed");
        c->sum->nfailures++;
        break;
    }
    c->done++;
    if (c->obs && c->obs->event)
        c->obs->event(c->obs->ud, &ev);
    progress(c, 0);
    json_decref(line);
}

/* Writes inferred records for every unknown wheel of g from `from`.
 * Caller holds the lock. */
static void infer_rest(struct crawl *c, const struct group *g, json_t *from)
{
    for (size_t i = 0; i < g->n; i++) {
        struct cwheel *w = &c->w[g->wheels[i]];
        if (w->known || w->failed)
            continue;
        json_t *rec = inferred_record(c, w, from);
        struct wa_error e;
        if (db_write_record(c->db, w->key, rec, &e) < 0) {
            emit(c, w, CRAWL_FAILED, NULL, e.msg, 0);
        } else {
            w->known = 1;
            db_clear_failure(c->db, w->key);
            json_t *line = inferred_line(rec, from);
            emit(c, w, CRAWL_INFERRED, line, NULL, 0);
            json_decref(line);
        }
        json_decref(rec);
    }
}

/* ---- workers ------------------------------------------------------------ */

struct worker {
    struct crawl *c;
    int id;
    struct http_client *hc;
    pthread_t thread;
};

static void on_bytes(void *ud, uint64_t n)
{
    struct worker *wk = ud;
    pthread_mutex_lock(&wk->c->lock);
    wk->c->bytes += n;
    progress(wk->c, 0);
    pthread_mutex_unlock(&wk->c->lock);
}

static void record_failure(struct crawl *c, const struct cwheel *w, const char *msg, long status)
{
    json_t *old = db_read_failure(c->db, w->key);
    json_int_t runs = old ? json_integer_value(json_object_get(old, "runs")) : 0;
    json_decref(old);
    json_t *f = json_object();
    json_object_set_new(f, "key", json_string(w->key));
    json_object_set_new(f, "url", json_string(w->url));
    json_object_set_new(f, "filename", json_string(w->filename));
    json_object_set_new(f, "error", json_string(msg));
    json_object_set_new(f, "http_status", status ? json_integer(status) : json_null());
    json_object_set_new(f, "failed_at", json_string(c->o->today));
    json_object_set_new(f, "runs", json_integer(runs + 1));
    struct wa_error e;
    if (db_write_failure(c->db, w->key, f, &e) < 0)
        warn(c, "%s", e.msg);
    json_decref(f);
}

/* Scans the wheels of one group until one succeeds, then infers the rest
 * (or, with --all, scans each). */
static void run_group(struct worker *wk, const struct group *g)
{
    struct crawl *c = wk->c;
    for (size_t i = 0; i < g->n; i++) {
        struct cwheel *w = &c->w[g->wheels[i]];
        if (w->known)
            continue;
        pthread_mutex_lock(&c->lock);
        c->current[wk->id] = w->filename;
        pthread_mutex_unlock(&c->lock);

        struct scan_result *r = scan_result_new(w->url);
        scan_result_set_name(r, w->filename);
        struct wheelfetch_stats st;
        struct wa_error e;
        wa_error_clear(&e);
        int rc = wheelfetch_scan(wk->hc, w->url, w->sha256, r, &st, on_bytes, wk, &e);
        json_t *rec = NULL;
        if (rc == 0) {
            rec = scanned_record(c, w, r, &st);
            if (db_write_record(c->db, w->key, rec, &e) < 0) {
                rc = e.code;
                json_decref(rec);
                rec = NULL;
            }
        }
        pthread_mutex_lock(&c->lock);
        c->current[wk->id] = NULL;
        if (rc == 0) {
            w->known = 1;
            db_clear_failure(c->db, w->key);
            emit(c, w, CRAWL_SCANNED, rec, NULL, st.bytes);
            if (!c->o->all)
                infer_rest(c, g, rec);
        } else {
            w->failed = 1;
            record_failure(c, w, e.msg, st.http_status);
            emit(c, w, CRAWL_FAILED, NULL, e.msg, st.bytes);
        }
        pthread_mutex_unlock(&c->lock);
        json_decref(rec);
        scan_result_free(r);
        if (rc == 0 && !c->o->all)
            break;
    }
}

static void *worker_main(void *arg)
{
    struct worker *wk = arg;
    struct crawl *c = wk->c;
    for (;;) {
        pthread_mutex_lock(&c->lock);
        size_t t = c->next_task < c->ntasks ? c->tasks[c->next_task++] : (size_t)-1;
        pthread_mutex_unlock(&c->lock);
        if (t == (size_t)-1)
            break;
        run_group(wk, &c->groups[t]);
    }
    return NULL;
}

/* ---- planning ----------------------------------------------------------- */

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

static void plan(struct crawl *c)
{
    const struct crawl_options *o = c->o;
    struct strmap *gm = strmap_new();
    for (size_t i = 0; i < c->nw; i++) {
        struct cwheel *w = &c->w[i];
        w->variant = crawl_variant(w->wn.local, w->url, w->indexes[0], &w->variant_source);
        w->group = xasprintf("%s|%s|%s|%s", w->wn.normalized, w->wn.version, w->variant,
                             wheelname_platform_id(w->wn.platform));
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
    c->sum->wheels = c->total;
}

/* Known wheels, inference from known records, and the task list. */
static void settle_known(struct crawl *c)
{
    c->tasks = xcalloc(c->ngroups ? c->ngroups : 1, sizeof *c->tasks);
    for (size_t g = 0; g < c->ngroups; g++) {
        struct group *gr = &c->groups[g];
        json_t *source = NULL, *from = NULL; /* a scanned record; an inferred one's source */
        size_t unknown = 0;
        for (size_t i = 0; i < gr->n; i++) {
            struct cwheel *w = &c->w[gr->wheels[i]];
            json_t *rec = NULL;
            if (!db_has_record(c->db, w->key) || db_read_record(c->db, w->key, &rec, NULL) < 0) {
                unknown++;
                continue;
            }
            const char *st = json_string_value(json_object_get(rec, "status"));
            w->known_scanned = st && strcmp(st, "scanned") == 0;
            if (c->o->all && !w->known_scanned) {
                json_decref(rec);
                unknown++;
                continue;
            }
            w->known = 1;
            const char *fk = json_string_value(json_object_get(rec, "inferred_from"));
            if (!w->known_scanned && fk && !json_object_get(rec, "binaries")) {
                /* A compact inferred record: its line shows its source's code. */
                if (!from || strcmp(json_string_value(json_object_get(from, "key")), fk) != 0) {
                    json_decref(from);
                    from = NULL;
                    db_read_record(c->db, fk, &from, NULL);
                }
                json_t *line = from ? inferred_line(rec, from) : json_incref(rec);
                emit(c, w, CRAWL_KNOWN, line, NULL, 0);
                json_decref(line);
            } else {
                emit(c, w, CRAWL_KNOWN, rec, NULL, 0);
            }
            if (w->known_scanned && !source)
                source = json_incref(rec);
            json_decref(rec);
        }
        json_decref(from);
        if (unknown == 0) {
            json_decref(source);
            continue;
        }
        if (source && !c->o->all)
            infer_rest(c, gr, source);
        else
            c->tasks[c->ntasks++] = g;
        json_decref(source);
    }
}

int crawl_run(const struct crawl_options *o, const struct crawl_observer *obs,
              struct crawl_summary *sum, struct wa_error *err)
{
    struct crawl c;
    memset(&c, 0, sizeof c);
    memset(sum, 0, sizeof *sum);
    c.o = o;
    c.obs = obs;
    c.sum = sum;
    clock_gettime(CLOCK_MONOTONIC, &c.start);
    int rc = db_open(o->cache_dir, &c.db, err);
    if (rc < 0)
        return rc;
    pthread_mutex_init(&c.lock, NULL);
    c.by_key = strmap_new();
    c.njobs = o->jobs > 0 ? o->jobs : 1;
    c.current = xcalloc((size_t)c.njobs, sizeof *c.current);

    struct http_client *hc = http_client_new(&o->cfg->http);
    read_indexes(&c, hc);
    http_client_free(hc);

    plan(&c);
    pthread_mutex_lock(&c.lock);
    settle_known(&c);
    progress(&c, 1);
    pthread_mutex_unlock(&c.lock);

    int nworkers = c.njobs < (int)c.ntasks ? c.njobs : (int)c.ntasks;
    struct worker *wk = xcalloc(nworkers > 0 ? (size_t)nworkers : 1, sizeof *wk);
    for (int i = 0; i < nworkers; i++) {
        wk[i].c = &c;
        wk[i].id = i;
        wk[i].hc = http_client_new(&o->cfg->http);
        if (pthread_create(&wk[i].thread, NULL, worker_main, &wk[i]) != 0)
            abort();
    }
    for (int i = 0; i < nworkers; i++) {
        pthread_join(wk[i].thread, NULL);
        http_client_free(wk[i].hc);
    }
    free(wk);
    pthread_mutex_lock(&c.lock);
    progress(&c, 1);
    pthread_mutex_unlock(&c.lock);
    sum->bytes = c.bytes;

    for (size_t i = 0; i < c.nw; i++)
        free_wheel(&c.w[i]);
    free(c.w);
    for (size_t g = 0; g < c.ngroups; g++)
        free(c.groups[g].wheels);
    free(c.groups);
    free(c.tasks);
    free(c.current);
    strmap_free(c.by_key);
    db_close(c.db);
    pthread_mutex_destroy(&c.lock);
    return 0;
}
