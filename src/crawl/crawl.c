/*
 * crawl: indexes -> wheels -> groups -> scans on worker threads -> records.
 */
#include "crawl.h"

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
#include "dotver.h"
#include "jsontext.h"
#include "wheelkey.h"
#include "http.h"
#include "indexpage.h"
#include "lockfile.h"
#include "netaddr.h"
#include "record.h"
#include "scan.h"
#include "scanreport.h"
#include "strbuf.h"
#include "strmap.h"
#include "tables.h"
#include "variant.h"
#include "wheelmeta.h"
#include "version.h"
#include "wheelfetch.h"
#include "wheelname.h"
#include "workers.h"
#include "xalloc.h"

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

/* Fetches a page with a conditional GET.  Returns 0 with the body and the
 * URL that answered (after redirects: links resolve against it), 1 when the
 * page does not exist (404/410), or an error; *unreachable when no server
 * answered at all (DNS, refused, no connection). */
static int fetch_page(struct crawl *c, struct http_client *hc, const char *origin, const char *url,
                      char **body, size_t *len, char **ctype, char **final_url, int *unchanged,
                      int *unreachable, int *public_addr, struct wa_error *err)
{
    struct db_http_entry cached;
    int have = db_http_load(c->db, url, &cached) == 0;
    struct page_fetch pf = {STRBUF_INIT, 0};
    struct http_request req = {0};
    req.url = url;
    req.origin = origin;
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
    *final_url = NULL;
    int rc = http_get(hc, &req, &resp, err);
    *unreachable = rc < 0 && resp.unreachable;
    *public_addr = resp.addr_class == NETADDR_PUBLIC;
    if (rc == 0) {
        if (resp.status == 304 && have) {
            *unchanged = 1;
            *body = cached.body;
            *len = cached.len;
            *ctype = cached.content_type ? xstrdup(cached.content_type) : NULL;
            *final_url = xstrdup(cached.final_url ? cached.final_url : url);
            cached.body = NULL;
        } else if (resp.status == 200) {
            const char *fin = http_client_final_url(hc);
            struct db_http_entry e = {(char *)fin,       resp.etag,   resp.last_modified,
                                      resp.content_type, pf.body.buf, pf.body.len};
            struct wa_error se;
            if (db_http_store(c->db, url, &e, &se) < 0)
                warn(c, "cannot cache %s: %s", url, se.msg);
            *ctype = xstrdup(resp.content_type);
            *final_url = xstrdup(fin);
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

/* Free text from an index (requires-python, a yank reason, an upload
 * time) for a record: at most INDEX_TEXT_MAX bytes, cut at a UTF-8
 * character boundary and marked with "...", so a page cannot make one
 * record megabytes long.  NULL stays NULL; caller frees. */
#define INDEX_TEXT_MAX 1000
static char *index_text(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s);
    if (n <= INDEX_TEXT_MAX)
        return xstrdup(s);
    n = INDEX_TEXT_MAX;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    return xasprintf("%.*s...", (int)n, s);
}

/* The host of an http(s) URL, for telling which indexes share a server. */
static char *url_host(const char *url)
{
    const char *p = strstr(url, "://");
    p = p ? p + 3 : url;
    return xstrndup(p, strcspn(p, "/?#"));
}

static int same_host(const char *a, const char *b)
{
    char *x = url_host(a), *y = url_host(b);
    int same = strcasecmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}

static void add_link(struct crawl *c, const struct config_index *ix, const char *project,
                     const struct index_link *l, int strict_origin)
{
    size_t fl = strlen(l->filename);
    if (fl < 5 || strcmp(l->filename + fl - 4, ".whl") != 0)
        return;
    struct wheel_name wn;
    struct wa_error e;
    char q[160];
    if (strpbrk(l->filename, "/\\") || wheelname_parse(l->filename, &wn, &e) < 0) {
        if (strpbrk(l->filename, "/\\"))
            wa_error_set(&e, WA_ERR_FORMAT, "a file name with a path");
        warn(c, "\"%s\" on %s: skipped: %s", wa_quote(q, sizeof q, l->filename, 120), ix->url,
             e.msg);
        return;
    }
    if (strcmp(wn.normalized, project) != 0) {
        wheelname_free(&wn);
        return;
    }
    if (c->only) {
        char *k = xasprintf("%s|%s", project, wn.public_version);
        int wanted = strmap_get(c->only, k, NULL);
        free(k);
        if (!wanted) {
            wheelname_free(&wn);
            return;
        }
    }
    /* Versions before the project's floor are not crawled at all. */
    const char *floor = config_min_version(c->o->cfg, project);
    if (floor && dotver_cmp_str(wn.public_version, floor) < 0) {
        c->sum->below_floor++;
        wheelname_free(&wn);
        return;
    }
    /* A hash that is not 64 hex digits is this wheel's error: its key
     * (a file name in the database) comes from the URL instead, and the
     * wheel is reported as failed without being read. */
    char *bad = NULL;
    if (strncmp(l->url, "https://", 8) != 0 && strncmp(l->url, "http://", 7) != 0)
        bad = xasprintf("the index links it at \"%s\", not an http or https URL",
                        wa_quote(q, sizeof q, l->url, 100));
    else if (l->sha256 && !wheelkey_sha256_valid(l->sha256))
        bad = xasprintf("the index gives sha256 \"%s\", which is not 64 hex digits",
                        wa_quote(q, sizeof q, l->sha256, 100));
    char *key = wheelkey_make(bad ? NULL : l->sha256, l->url);
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
        /* One hash claimed for files on two hosts: the one read (the first
         * listed) must prove it, or a second index could speak for it. */
        if (w->sha256 && !same_host(w->url, l->url))
            w->must_verify = 1;
        free(key);
        free(bad);
        wheelname_free(&wn);
        return;
    }
    c->w = xgrow(c->w, &c->capw, c->nw + 1, sizeof *c->w);
    struct cwheel *w = &c->w[c->nw];
    memset(w, 0, sizeof *w);
    w->key = key;
    w->bad = bad;
    w->strict_origin = strict_origin;
    w->url = xstrdup(l->url);
    w->filename = xstrdup(l->filename);
    w->sha256 = l->sha256 && !bad ? wheelkey_make(l->sha256, NULL) : NULL;
    w->upload_time = index_text(l->upload_time);
    w->size = l->size;
    w->requires_python = index_text(l->requires_python);
    w->yanked = index_text(l->yanked);
    w->indexes = xmalloc(sizeof *w->indexes);
    w->indexes[0] = xstrdup(ix->id);
    w->nindexes = 1;
    w->index_url = xstrdup(ix->url);
    w->wn = wn;
    strmap_put(c->by_key, key, c->nw);
    c->nw++;
}

/* Reads one project's page of an index and lists its wheels.  Returns 0,
 * or -1 when the server gave no answer at all (e holds why). */
static int read_page(struct crawl *c, struct http_client *hc, const struct config_index *ix,
                     const char *project, struct wa_error *e)
{
    char *url = xasprintf("%s%s/", ix->url, project);
    char *body = NULL, *ctype = NULL, *final_url = NULL;
    size_t len = 0;
    int unchanged = 0, no_answer = 0, public_addr = 0;
    c->sum->pages++;
    int rc = fetch_page(c, hc, ix->url, url, &body, &len, &ctype, &final_url, &unchanged,
                        &no_answer, &public_addr, e);
    int out = 0;
    if (rc == 1) {
        c->sum->pages_missing++;
    } else if (rc < 0 && no_answer) {
        c->sum->pages_failed++;
        out = -1;
    } else if (rc < 0) {
        c->sum->pages_failed++;
        warn(c, "%s: %s", url, e->msg);
    } else {
        c->sum->pages_unchanged += unchanged;
        struct index_page page;
        if (indexpage_parse(final_url, ctype, body, len, &page, e) < 0) {
            c->sum->pages_failed++;
            warn(c, "%s: %s", url, e->msg);
        } else {
            for (size_t k = 0; k < page.n; k++)
                add_link(c, ix, project, &page.links[k], public_addr);
            if (page.skipped)
                warn(c, "%s: %zu link%s longer than %u bytes skipped", url, page.skipped,
                     page.skipped == 1 ? "" : "s", INDEXPAGE_MAX_URL);
            indexpage_free(&page);
        }
    }
    free(body);
    free(ctype);
    free(final_url);
    free(url);
    return out;
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
        const struct config_index *ix = &cfg->indexes[i];
        if (strmap_get(dead_hosts, host, NULL)) {
            c->sum->pages += ix->nprojects;
            c->sum->pages_failed += ix->nprojects;
            warn(c, "index %s unreachable: %s did not answer (above); %zu page%s not read", ixurl,
                 host, ix->nprojects, ix->nprojects == 1 ? "" : "s");
            free(host);
            continue;
        }
        for (size_t j = 0; j < ix->nprojects; j++) {
            struct wa_error e;
            if (read_page(c, hc, ix, ix->projects[j], &e) < 0) {
                size_t left = ix->nprojects - j - 1;
                c->sum->pages_failed += left;
                c->sum->pages += left;
                warn(c, "index %s unreachable: %s; %zu page%s not read", ixurl, e.msg, left + 1,
                     left ? "s" : "");
                strmap_put(dead_hosts, host, 1);
                break;
            }
        }
        free(host);
    }
    strmap_free(dead_hosts);
}

/* ---- the GPU libraries that crawled wheels pin ------------------------------ */

struct pins {
    struct crawl *c;
    struct strmap *want; /* "project|version" pinned and not stored yet */
    char **names;        /* their projects, each once, in the order found */
    size_t nnames, cap;
};

static int collect_pins(void *ud, const char *key, const char *requires, struct wa_error *err)
{
    (void)key;
    (void)err;
    struct pins *p = ud;
    json_t *list = jsontext_loads(requires, 0, NULL);
    size_t i;
    json_t *r;
    json_array_foreach(list, i, r)
    {
        char *name, *pin;
        const char *text = json_string_value(r);
        if (!text || wheelmeta_requirement(text, &name, &pin) < 0)
            continue;
        if (pin && tables_gpu_library(p->c->o->tables, name) &&
            !db_has_version(p->c->db, name, pin)) {
            char *k = xasprintf("%s|%s", name, pin);
            if (!strmap_get(p->want, k, NULL)) {
                strmap_put(p->want, k, 1);
                size_t j = 0;
                while (j < p->nnames && strcmp(p->names[j], name) != 0)
                    j++;
                if (j == p->nnames) {
                    p->names = xgrow(p->names, &p->cap, p->nnames + 1, sizeof *p->names);
                    p->names[p->nnames++] = xstrdup(name);
                }
            }
            free(k);
        }
        free(name);
        free(pin);
    }
    json_decref(list);
    return 0;
}

/* Lists, from the libraries' index, the wheels of every pinned version of a
 * GPU library that the stored wheels require and the database lacks. */
static void read_libraries(struct crawl *c, struct http_client *hc)
{
    struct pins p = {c, strmap_new(), NULL, 0, 0};
    struct wa_error e;
    if (db_each_requirement_list(c->db, collect_pins, &p, &e) < 0)
        warn(c, "cannot read the stored wheels' requirements: %s", e.msg);
    c->only = p.want;
    for (size_t i = 0; i < p.nnames; i++) {
        if (read_page(c, hc, c->o->cfg->libraries_index, p.names[i], &e) < 0) {
            warn(c, "index %s unreachable: %s", c->o->cfg->libraries_index->url, e.msg);
            break;
        }
    }
    c->only = NULL;
    for (size_t i = 0; i < p.nnames; i++)
        free(p.names[i]);
    free(p.names);
    strmap_free(p.want);
}

/* ---- records ------------------------------------------------------------ */

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

/* The wheel's identity as the record module takes it (borrowed from w). */
static struct record_identity identity_of(const struct cwheel *w)
{
    struct record_identity id = {w->key,           w->url,
                                 w->filename,      w->sha256,
                                 w->upload_time,   w->requires_python,
                                 w->yanked,        (const char *const *)w->indexes,
                                 w->nindexes,      w->index_url,
                                 &w->wn,           w->variant,
                                 w->variant_source};
    return id;
}

static void set_identity(json_t *o, const struct cwheel *w)
{
    struct record_identity id = identity_of(w);
    record_set_identity(o, &id);
}

static json_t *scanned_record(struct crawl *c, const struct cwheel *w, const struct scan_result *r,
                              const struct wheelfetch_stats *st)
{
    struct record_identity id = identity_of(w);
    struct record_fetch f = {st->range_mode, st->bytes, st->size, (unsigned)st->requests,
                             st->sha256_checked};
    return record_scanned(scanreport_json(r), r->sha256, &id, &f, c->o->today);
}

static json_t *inferred_record(struct crawl *c, const struct cwheel *w, json_t *from)
{
    struct record_identity id = identity_of(w);
    return record_inferred(&id, from, c->o->today);
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
        /* db_write_record checks the record first. */
        if (db_write_record(c->db, w->key, rec, &e) < 0) {
            emit(c, w, CRAWL_FAILED, NULL, e.msg, 0);
        } else {
            w->known = 1;
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
};

static void on_bytes(void *ud, uint64_t n)
{
    struct worker *wk = ud;
    pthread_mutex_lock(&wk->c->lock);
    wk->c->bytes += n;
    progress(wk->c, 0);
    pthread_mutex_unlock(&wk->c->lock);
}

/* Writes the failure of a wheel.  kind: NULL (an ordinary failure, retried
 * next run), "unfinished" (its scan never ended: retried alone, in a child
 * process) or "crashed" (it crashed that child: not retried by this
 * version). */
/* Writes the failure of a wheel.  kind: NULL (an ordinary failure, retried
 * next run), "unfinished" (its scan never ended: retried alone, in a child
 * process) or "crashed" (it crashed or hung that child: not retried by this
 * version).  stopped: the isolated scan was stopped (a signal, the run
 * killed), counted in "isolated_stops"; after ISOLATED_STOPS_MAX of those
 * the wheel counts as crashed. */
static void record_failure(struct crawl *c, const struct cwheel *w, const char *msg, long status,
                           const char *kind, int stopped)
{
    json_t *old = db_read_failure(c->db, w->key);
    json_int_t runs = old ? json_integer_value(json_object_get(old, "runs")) : 0;
    json_int_t stops = old ? json_integer_value(json_object_get(old, "isolated_stops")) : 0;
    json_decref(old);
    json_t *f = json_object();
    json_object_set_new(f, "key", json_string(w->key));
    json_object_set_new(f, "url", json_string(w->url));
    json_object_set_new(f, "filename", json_string(w->filename));
    json_object_set_new(f, "error", json_string(msg));
    json_object_set_new(f, "http_status", status ? json_integer(status) : json_null());
    json_object_set_new(f, "failed_at", json_string(c->o->today));
    json_object_set_new(f, "runs", json_integer(runs + 1));
    json_object_set_new(f, "kind", kind ? json_string(kind) : json_null());
    json_object_set_new(f, "isolated_stops", json_integer(stops + (stopped ? 1 : 0)));
    json_object_set_new(f, "wheelarch_version", json_string(WHEELARCH_VERSION));
    struct wa_error e;
    if (db_write_failure(c->db, w->key, f, &e) < 0)
        warn(c, "%s", e.msg);
    json_decref(f);
}

/* The isolated stops of key so far (0 when none). */
static json_int_t isolated_stops(struct crawl *c, const char *key)
{
    json_t *f = db_read_failure(c->db, key);
    json_int_t n = f ? json_integer_value(json_object_get(f, "isolated_stops")) : 0;
    json_decref(f);
    return n;
}

static void on_retry(void *ud, const struct http_retry *r)
{
    struct crawl *c = ud;
    char line[WA_ERROR_MSG_SIZE + 300];
    http_retry_text(r, line, sizeof line);
    pthread_mutex_lock(&c->lock);
    warn(c, "%s", line);
    pthread_mutex_unlock(&c->lock);
}

/* Scans one wheel and stores its record, with the wheel noted in the
 * journal (the caller ends the note once the outcome is stored).  Returns
 * 0 with *rec (a new reference) or an error in e. */
static int scan_and_store(struct crawl *c, struct http_client *hc, struct cwheel *w,
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
        w->strict_origin, !c->o->bundled && !record_is_library_project(w->wn.normalized)};
    int rc = wheelfetch_scan_from(hc, &rq, r, st, prog, ud, e);
    if (rc == 0 && w->must_verify && !st->sha256_checked)
        rc = wa_error_set(e, WA_ERR_CHECKSUM, "the file could not be checked against its sha256");
    if (rc == 0) {
        *rec = scanned_record(c, w, r, st);
        /* What build would refuse is this wheel's error, never a record:
         * db_write_record checks the record first. */
        if (db_write_record(c->db, w->key, *rec, e) < 0) {
            rc = e->code;
            json_decref(*rec);
            *rec = NULL;
        }
    }
    scan_result_free(r);
    return rc;
}

static int journal_begin(struct crawl *c, const struct cwheel *w, int isolated, struct wa_error *e)
{
    json_t *note = json_object();
    json_object_set_new(note, "key", json_string(w->key));
    json_object_set_new(note, "url", json_string(w->url));
    json_object_set_new(note, "filename", json_string(w->filename));
    json_object_set_new(note, "pid", json_integer((json_int_t)getpid()));
    json_object_set_new(note, "started", json_string(c->o->today));
    json_object_set_new(note, "isolated", json_boolean(isolated));
    json_object_set_new(note, "wheelarch_version", json_string(WHEELARCH_VERSION));
    int rc = db_journal_begin(c->db, w->key, note, e);
    json_decref(note);
    return rc;
}

/* Stores and reports a wheel's outcome.  Caller holds the lock. */
static void settle_scan(struct crawl *c, const struct group *g, struct cwheel *w, int rc,
                        json_t *rec, const char *msg, long status, uint64_t bytes)
{
    if (rc == 0) {
        w->known = 1; /* its failure and journal rows went with the record */
        emit(c, w, CRAWL_SCANNED, rec, NULL, bytes);
        if (!c->o->all)
            infer_rest(c, g, rec);
    } else {
        w->failed = 1;
        if (msg)
            record_failure(c, w, msg, status,
                           w->must_verify && rc == WA_ERR_CHECKSUM ? "sha256" : NULL, 0);
        json_t *f = db_read_failure(c->db, w->key);
        const char *m = msg ? msg : json_string_value(json_object_get(f, "error"));
        emit(c, w, CRAWL_FAILED, NULL, m ? m : "failed", bytes);
        json_decref(f);
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
        int rc = journal_begin(c, w, 0, &e);
        if (rc == 0)
            rc = scan_and_store(c, wk->hc, w, on_bytes, wk, &rec, &st, &e);
        else
            memset(&st, 0, sizeof st);
        pthread_mutex_lock(&c->lock);
        c->current[wk->id] = NULL;
        settle_scan(c, g, w, rc, rec, rc ? e.msg : NULL, st.http_status, st.bytes);
        pthread_mutex_unlock(&c->lock);
        json_decref(rec);
        if (rc == 0 && !c->o->all)
            break;
    }
}

/* After this many isolated scans of one wheel were stopped from outside
 * (the job killed, a timeout), the wheel is taken for one that hangs. */
#define ISOLATED_STOPS_MAX 3

/* Signals that mean the scanner itself failed, not that it was stopped. */
static int crash_signal(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGABRT ||
           sig == SIGSYS || sig == SIGTRAP;
}

/* The isolated pass: a wheel whose scan did not finish in an earlier run is
 * scanned again alone, in a child process, after everything else, so that
 * if it crashes or hangs it takes down nothing but itself.  A wheel whose
 * isolated scan crashes is recorded as such and not retried until wheelarch
 * changes (its version differs from the one that crashed). */
static void run_group_isolated(struct crawl *c, const struct group *g)
{
    for (size_t i = 0; i < g->n; i++) {
        struct cwheel *w = &c->w[g->wheels[i]];
        if (w->known || w->failed)
            continue;
        struct wa_error e;
        if (journal_begin(c, w, 1, &e) < 0) {
            pthread_mutex_lock(&c->lock);
            settle_scan(c, g, w, e.code, NULL, e.msg, 0, 0);
            pthread_mutex_unlock(&c->lock);
            continue;
        }
        pthread_mutex_lock(&c->lock);
        c->current[0] = w->filename;
        progress(c, 1);
        c->current[0] = NULL;
        pthread_mutex_unlock(&c->lock);
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid == 0) {
            /* The child: no threads but this one; it stores the outcome
             * itself, through a connection of its own (an SQLite
             * connection must not cross a fork; the parent's is left
             * untouched), and dies with its parent. */
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (db_open(c->o->cache_dir, 0, &c->db, &e) < 0)
                _exit(4);
            struct http_client *hc = http_client_new(&c->o->cfg->http);
            http_client_on_retry(hc, on_retry, c);
            struct wheelfetch_stats st;
            json_t *rec = NULL;
            wa_error_clear(&e);
            int rc = scan_and_store(c, hc, w, NULL, NULL, &rec, &st, &e);
            if (rc < 0)
                record_failure(c, w, e.msg, st.http_status, NULL, 0);
            _exit(rc == 0 ? 0 : 3);
        }
        int status = 0, hung = 0;
        if (pid < 0) {
            wa_error_set(&e, WA_ERR_IO, "cannot start a process for the isolated scan: %s",
                         strerror(errno));
        } else {
            /* The network is bounded by http.h's rates; the scan by the
             * readers' limits.  A child that still runs this long hangs. */
            struct timespec t0, now;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            for (;;) {
                pid_t r = waitpid(pid, &status, WNOHANG);
                if (r == pid || (r < 0 && errno != EINTR))
                    break;
                clock_gettime(CLOCK_MONOTONIC, &now);
                if (now.tv_sec - t0.tv_sec >= c->isolated_timeout && !hung) {
                    hung = 1;
                    kill(pid, SIGKILL);
                }
                struct timespec tick = {0, 50 * 1000000L};
                nanosleep(&tick, NULL);
            }
        }
        json_t *rec = NULL;
        pthread_mutex_lock(&c->lock);
        int sig = pid > 0 && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
            db_read_record(c->db, w->key, &rec, &e) == 0) {
            json_int_t bytes =
                json_integer_value(json_object_get(json_object_get(rec, "fetch"), "bytes"));
            c->bytes += (uint64_t)bytes;
            settle_scan(c, g, w, 0, rec, NULL, 0, (uint64_t)bytes);
        } else if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 3) {
            settle_scan(c, g, w, WA_ERR_FORMAT, NULL, NULL, 0, 0); /* the child stored why */
        } else if (hung || sig) {
            /* A crash, a hang, or the third stop from outside condemns the
             * wheel; a stop from outside (a stop of the whole job, the OOM
             * killer) is not its fault as far as we know: retried alone. */
            int stopped = !hung && !crash_signal(sig);
            const char *kind = "crashed";
            char msg[300];
            if (hung)
                snprintf(msg, sizeof msg,
                         "scanning this wheel hung wheelarch %s (killed after %ld s alone); not "
                         "retried until wheelarch changes",
                         WHEELARCH_VERSION, c->isolated_timeout);
            else if (!stopped)
                snprintf(msg, sizeof msg,
                         "scanning this wheel crashed wheelarch %s (signal %d, %s); not retried "
                         "until wheelarch changes",
                         WHEELARCH_VERSION, sig, strsignal(sig));
            else if (isolated_stops(c, w->key) + 1 >= ISOLATED_STOPS_MAX)
                snprintf(msg, sizeof msg,
                         "the scan of this wheel alone was stopped %d times (last by signal %d); "
                         "not retried until wheelarch changes",
                         ISOLATED_STOPS_MAX, sig);
            else {
                kind = "unfinished";
                snprintf(msg, sizeof msg,
                         "the scan of this wheel alone was stopped (signal %d, %s); it will be "
                         "retried alone",
                         sig, strsignal(sig));
            }
            w->failed = 1;
            record_failure(c, w, msg, 0, kind, stopped);
            emit(c, w, CRAWL_FAILED, NULL, msg, 0);
            db_journal_end(c->db, w->key);
        } else {
            if (pid > 0)
                wa_error_set(&e, WA_ERR_IO, "the isolated scan ended with status %d",
                             WIFEXITED(status) ? WEXITSTATUS(status) : -1);
            settle_scan(c, g, w, WA_ERR_IO, NULL, e.msg, 0, 0);
        }
        pthread_mutex_unlock(&c->lock);
        int done = w->known && !c->o->all;
        json_decref(rec);
        if (done)
            break;
    }
}

static void worker_main(void *ud, unsigned i)
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
        w->variant =
            variant_decide(c->o->tables, &w->wn, w->url, w->indexes[0], &w->variant_source);
        /* Siblings are inferred only from a wheel listed by the same host:
         * one index can never speak for another's files. */
        char *host = url_host(w->index_url);
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
static int trusted_for(json_t *rec, const struct cwheel *w)
{
    const char *u = json_string_value(json_object_get(rec, "url"));
    return !w->sha256 || json_is_true(json_object_get(rec, "sha256_verified")) || !u ||
           same_host(u, w->url);
}

/* An unknown wheel whose scan did not finish in an earlier run: found in
 * the journal by this run (failed now, retried alone next time), or failed
 * that way before (retried alone now), or crashed its isolated scan (not
 * retried by this version).  Such a wheel's group is scanned in the
 * isolated pass.  Caller holds the lock. */
static void check_unfinished(struct crawl *c, struct cwheel *w, int *isolate)
{
    json_t *f = db_read_failure(c->db, w->key);
    if (!f)
        return;
    const char *kind = json_string_value(json_object_get(f, "kind"));
    const char *ver = json_string_value(json_object_get(f, "wheelarch_version"));
    const char *msg = json_string_value(json_object_get(f, "error"));
    const char *furl = json_string_value(json_object_get(f, "url")); /* crashes are per URL */
    if (strmap_get(c->stale, w->key, NULL)) {
        w->failed = 1;
        emit(c, w, CRAWL_FAILED, NULL, msg ? msg : "unfinished", 0);
        *isolate = 1;
    } else if (kind && strcmp(kind, "crashed") == 0 && ver && strcmp(ver, WHEELARCH_VERSION) == 0 &&
               furl && strcmp(furl, w->url) == 0) {
        w->failed = 1;
        emit(c, w, CRAWL_FAILED, NULL, msg ? msg : "crashed", 0);
        *isolate = 1;
    } else if (kind && (strcmp(kind, "unfinished") == 0 || strcmp(kind, "crashed") == 0)) {
        *isolate = 1;
    }
    json_decref(f);
}

/* The journal left by a run that died: every note names a wheel whose scan
 * never ended (this run holds the lock, so no other run is alive).  Each
 * is recorded as failed, with why. */
static void recover_journal(struct crawl *c)
{
    char **keys;
    size_t n;
    struct wa_error e;
    if (db_journal_list(c->db, &keys, &n, &e) < 0) {
        warn(c, "%s", e.msg);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *note = db_journal_read(c->db, keys[i]);
        if (db_has_record(c->db, keys[i])) {
            /* killed after its record was stored: nothing was lost */
            db_journal_end(c->db, keys[i]);
            json_decref(note);
            free(keys[i]);
            continue;
        }
        struct cwheel w;
        memset(&w, 0, sizeof w);
        w.key = keys[i];
        const char *url = json_string_value(json_object_get(note, "url"));
        const char *fn = json_string_value(json_object_get(note, "filename"));
        w.url = (char *)(url ? url : "");
        w.filename = (char *)(fn ? fn : keys[i]);
        int isolated = json_is_true(json_object_get(note, "isolated"));
        const char *ver = json_string_value(json_object_get(note, "wheelarch_version"));
        /* A run that died during an isolated scan was killed from outside
         * (a crash of the scan would have been the child's alone): after
         * ISOLATED_STOPS_MAX such deaths the wheel is taken for one that
         * hangs. */
        int condemned = isolated && isolated_stops(c, keys[i]) + 1 >= ISOLATED_STOPS_MAX;
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
        record_failure(c, &w, msg, 0, condemned ? "crashed" : "unfinished", isolated);
        if (!condemned)
            strmap_put(c->stale, keys[i], 1);
        db_journal_end(c->db, keys[i]);
        json_decref(note);
        free(keys[i]);
    }
    free(keys);
}

/* Known wheels, inference from known records, and the task list. */
static void settle_known(struct crawl *c)
{
    c->tasks = xcalloc(c->ngroups ? c->ngroups : 1, sizeof *c->tasks);
    c->itasks = xcalloc(c->ngroups ? c->ngroups : 1, sizeof *c->itasks);
    for (size_t g = 0; g < c->ngroups; g++) {
        struct group *gr = &c->groups[g];
        json_t *source = NULL, *from = NULL; /* a scanned record; an inferred one's source */
        size_t unknown = 0;
        int isolate = 0;
        for (size_t i = 0; i < gr->n; i++) {
            struct cwheel *w = &c->w[gr->wheels[i]];
            json_t *rec = NULL;
            if (w->bad) {
                w->failed = 1;
                record_failure(c, w, w->bad, 0, NULL, 0);
                emit(c, w, CRAWL_FAILED, NULL, w->bad, 0);
                continue;
            }
            if (!db_has_record(c->db, w->key) || db_read_record(c->db, w->key, &rec, NULL) < 0) {
                unknown++;
                check_unfinished(c, w, &isolate);
                continue;
            }
            if (!trusted_for(rec, w)) {
                /* Another host's unverified record under the hash this
                 * listing claims: believe neither; this one must prove the
                 * hash by reading the whole file. */
                json_decref(rec);
                w->must_verify = 1;
                json_t *f = db_read_failure(c->db, w->key);
                const char *fu = json_string_value(json_object_get(f, "url"));
                const char *fk = json_string_value(json_object_get(f, "kind"));
                if (fu && fk && strcmp(fu, w->url) == 0 && strcmp(fk, "sha256") == 0) {
                    w->failed = 1; /* it did not match last time: not downloaded again */
                    emit(c, w, CRAWL_FAILED, NULL, json_string_value(json_object_get(f, "error")),
                         0);
                } else {
                    unknown++;
                }
                json_decref(f);
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
        else if (isolate)
            c->itasks[c->nitasks++] = g;
        else
            c->tasks[c->ntasks++] = g;
        json_decref(source);
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
static void plan_report(struct crawl *c)
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

static void run_forget(struct crawl *c);

/* Scans, infers or settles every wheel listed in c->w, then forgets them
 * (a crawl runs one pass for the indexes and one for the libraries). */
static void run_pass(struct crawl *c)
{
    const struct crawl_options *o = c->o;
    plan(c);
    pthread_mutex_lock(&c->lock);
    settle_known(c);
    progress(c, 1);
    pthread_mutex_unlock(&c->lock);

    int nworkers = c->njobs < (int)c->ntasks ? c->njobs : (int)c->ntasks;
    struct worker *wk = xcalloc(nworkers > 0 ? (size_t)nworkers : 1, sizeof *wk);
    for (int i = 0; i < nworkers; i++) {
        wk[i].c = c;
        wk[i].id = i;
        wk[i].hc = http_client_new(&o->cfg->http);
        http_client_on_retry(wk[i].hc, on_retry, c);
    }
    workers_run(nworkers > 0 ? (unsigned)nworkers : 0, worker_main, wk);
    for (int i = 0; i < nworkers; i++)
        http_client_free(wk[i].hc);
    free(wk);
    /* Only this thread is left: the isolated pass may fork. */
    for (size_t t = 0; t < c->nitasks; t++)
        run_group_isolated(c, &c->groups[c->itasks[t]]);
    pthread_mutex_lock(&c->lock);
    progress(c, 1);
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
    pthread_mutex_init(&c.lock, NULL);
    c.by_key = strmap_new();
    c.stale = strmap_new();
    c.isolated_timeout = o->isolated_timeout_s > 0 ? o->isolated_timeout_s : 3600;
    c.njobs = o->jobs > 0 ? o->jobs : 1;
    c.current = xcalloc((size_t)c.njobs, sizeof *c.current);
    if (!o->plan)
        recover_journal(&c);

    struct http_client *hc = http_client_new(&o->cfg->http);
    http_client_on_retry(hc, on_retry, &c);
    read_indexes(&c, hc);
    http_client_free(hc);

    if (o->plan) {
        plan(&c);
        plan_report(&c);
        c.total = 0;
        run_forget(&c);
        goto done;
    }
    run_pass(&c);
    /* The GPU libraries the wheels pin (their Requires-Dist), from the
     * libraries' index: each pinned version once. */
    if (o->cfg->libraries_index) {
        hc = http_client_new(&o->cfg->http);
        http_client_on_retry(hc, on_retry, &c);
        read_libraries(&c, hc);
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
