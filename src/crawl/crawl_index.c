/*
 * crawl_index: the index pages of each configured index read into wheels
 * (conditional requests through the HTTP cache), and the GPU libraries
 * that the crawled wheels pin, listed the same way.
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
#include "dotver.h"
#include "wheelkey.h"
#include "http.h"
#include "indexpage.h"
#include "netaddr.h"
#include "strbuf.h"
#include "strmap.h"
#include "tables.h"
#include "wheelmeta.h"
#include "version.h"
#include "wheelname.h"
#include "xalloc.h"

struct page_fetch {
    struct strbuf body;
    int too_big;
};

struct pins {
    struct crawl *c;
    struct strmap *want; /* "project|version" pinned and not stored yet */
    char **names;        /* their projects, each once, in the order found */
    size_t nnames, cap;
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
                crawli_warn(c, "cannot cache %s: %s", url, se.msg);
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
char *crawli_url_host(const char *url)
{
    const char *p = strstr(url, "://");
    p = p ? p + 3 : url;
    return xstrndup(p, strcspn(p, "/?#"));
}

int crawli_same_host(const char *a, const char *b)
{
    char *x = crawli_url_host(a), *y = crawli_url_host(b);
    int same = strcasecmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}

/* Warnings per index page for links that are not wheel names: the first
 * ones, then a count (as db import and merge do). */
#define CRAWL_BAD_LINKS_SHOWN 200

static void add_link(struct crawl *c, const struct config_index *ix, const char *project,
                     const struct index_link *l, int strict_origin, size_t *not_wheels)
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
        if (++*not_wheels <= CRAWL_BAD_LINKS_SHOWN)
            crawli_warn(c, "\"%s\" on %s: skipped: %s", wa_quote(q, sizeof q, l->filename, 120),
                        ix->url, e.msg);
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
        if (w->sha256 && !crawli_same_host(w->url, l->url))
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
        crawli_warn(c, "%s: %s", url, e->msg);
    } else {
        c->sum->pages_unchanged += unchanged;
        struct index_page page;
        if (indexpage_parse(final_url, ctype, body, len, &page, e) < 0) {
            c->sum->pages_failed++;
            crawli_warn(c, "%s: %s", url, e->msg);
        } else {
            size_t bad = 0;
            for (size_t k = 0; k < page.n; k++)
                add_link(c, ix, project, &page.links[k], public_addr, &bad);
            if (bad > CRAWL_BAD_LINKS_SHOWN)
                crawli_warn(c, "%s: %zu more links that are not wheel names skipped (%zu in all)",
                            url, bad - CRAWL_BAD_LINKS_SHOWN, bad);
            if (page.skipped)
                crawli_warn(c, "%s: %zu link%s longer than %u bytes skipped", url, page.skipped,
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

void crawli_read_indexes(struct crawl *c, struct http_client *hc)
{
    const struct config *cfg = c->o->cfg;
    /* An index whose server does not answer (no HTTP response even after the
     * retries) is reported once and its other pages are skipped, as are the
     * pages of other indexes on that host, named together in one line at
     * the end: an offline run ends quickly and says so in a few lines. */
    struct strmap *dead_hosts = strmap_new(); /* host -> 1 + its slot in skipped */
    struct skipped {
        char *host;
        struct strbuf indexes;
        size_t n, pages;
    } *skipped = xcalloc(cfg->nindexes ? cfg->nindexes : 1, sizeof *skipped);
    size_t nskipped = 0;
    for (size_t i = 0; i < cfg->nindexes; i++) {
        const char *ixurl = cfg->indexes[i].url;
        char *host = crawli_url_host(ixurl);
        const struct config_index *ix = &cfg->indexes[i];
        size_t slot;
        if (strmap_get(dead_hosts, host, &slot)) {
            struct skipped *k = &skipped[slot - 1];
            c->sum->pages += ix->nprojects;
            c->sum->pages_failed += ix->nprojects;
            strbuf_addf(&k->indexes, "%s%s", k->n ? ", " : "", ixurl);
            k->n++;
            k->pages += ix->nprojects;
            free(host);
            continue;
        }
        for (size_t j = 0; j < ix->nprojects; j++) {
            struct wa_error e;
            if (read_page(c, hc, ix, ix->projects[j], &e) < 0) {
                size_t left = ix->nprojects - j - 1;
                c->sum->pages_failed += left;
                c->sum->pages += left;
                crawli_warn(c, "index %s unreachable: %s; %zu page%s not read", ixurl, e.msg,
                            left + 1, left ? "s" : "");
                skipped[nskipped].host = xstrdup(host);
                skipped[nskipped].indexes = (struct strbuf)STRBUF_INIT;
                nskipped++;
                strmap_put(dead_hosts, host, nskipped);
                break;
            }
        }
        free(host);
    }
    for (size_t i = 0; i < nskipped; i++) {
        struct skipped *k = &skipped[i];
        if (k->n)
            crawli_warn(c,
                        "%zu more index%s unreachable: %s did not answer (above); %zu page%s not "
                        "read: %s",
                        k->n, k->n == 1 ? "" : "es", k->host, k->pages, k->pages == 1 ? "" : "s",
                        strbuf_str(&k->indexes));
        free(k->host);
        strbuf_free(&k->indexes);
    }
    free(skipped);
    strmap_free(dead_hosts);
}

static int collect_pins(void *ud, const char *key, const char *requires, struct wa_error *err)
{
    (void)key;
    (void)err;
    struct pins *p = ud;
    const char *at_req = requires;
    char *text;
    while (wheelmeta_next_requirement(&at_req, &text)) {
        char *name = NULL, *pin = NULL;
        int named = wheelmeta_requirement(text, &name, &pin) == 0;
        free(text);
        if (named && pin && tables_gpu_library(p->c->o->tables, name) &&
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
    return 0;
}

/* Lists, from the libraries' index, the wheels of every pinned version of a
 * GPU library that the stored wheels require and the database lacks. */
void crawli_read_libraries(struct crawl *c, struct http_client *hc)
{
    struct pins p = {c, strmap_new(), NULL, 0, 0};
    struct wa_error e;
    if (db_each_requirement_list(c->db, collect_pins, &p, &e) < 0)
        crawli_warn(c, "cannot read the stored wheels' requirements: %s", e.msg);
    c->only = p.want;
    for (size_t i = 0; i < p.nnames; i++) {
        if (read_page(c, hc, c->o->cfg->libraries_index, p.names[i], &e) < 0) {
            crawli_warn(c, "index %s unreachable: %s", c->o->cfg->libraries_index->url, e.msg);
            break;
        }
    }
    c->only = NULL;
    for (size_t i = 0; i < p.nnames; i++)
        free(p.names[i]);
    free(p.names);
    strmap_free(p.want);
}
