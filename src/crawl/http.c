/*
 * http: libcurl GET with retries, streaming bodies to a sink.
 */
#include "http.h"
#include "http_state.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#include "indexurl.h"
#include "netaddr.h"
#include "version.h"
#include "wheelname.h"
#include "xalloc.h"

struct http_client {
    CURL *curl;
    struct http_options opt;
    struct curl_slist *resolve;
    char errbuf[CURL_ERROR_SIZE];
    void (*on_retry)(void *ud, const struct http_retry *r);
    void *retry_ud;
    char *final_url;
    int proxied; /* a proxy from the environment carries every request */
};

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static char user_agent[160];

static void global_init(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    curl_version_info_data *v = curl_version_info(CURLVERSION_NOW);
    snprintf(user_agent, sizeof user_agent, "wheelarch/%s curl/%s", WHEELARCH_VERSION,
             v && v->version ? v->version : "?");
}

const char *http_user_agent(void)
{
    pthread_once(&global_once, global_init);
    return user_agent;
}

void http_options_default(struct http_options *o)
{
    memset(o, 0, sizeof *o);
    o->connect_timeout_ms = 15000;
    o->stall_timeout_ms = 60000;
    o->min_rate = 1024;
    o->min_average_rate = 64 << 10;
    o->retries = 5;
    o->retry_delay_ms = 1000;
    o->retry_max_ms = 60000;
    o->max_redirects = 5;
}

int http_proxy_from_env(char *const *env)
{
    static const char *const names[] = {"http_proxy", "https_proxy", "HTTPS_PROXY",
                                        "all_proxy",  "ALL_PROXY",   NULL};
    for (char *const *e = env; e && *e; e++)
        for (const char *const *n = names; *n; n++) {
            size_t l = strlen(*n);
            if (strncmp(*e, *n, l) == 0 && (*e)[l] == '=' && (*e)[l + 1])
                return 1;
        }
    return 0;
}

struct http_client *http_client_new(const struct http_options *o)
{
    pthread_once(&global_once, global_init);
    struct http_client *c = xcalloc(1, sizeof *c);
    c->opt = *o;
    c->opt.resolve = NULL;
    c->opt.nresolve = 0;
    for (size_t i = 0; i < o->nresolve; i++)
        c->resolve = curl_slist_append(c->resolve, o->resolve[i]);
    c->opt.credentials =
        o->ncredentials ? xcalloc(o->ncredentials, sizeof *c->opt.credentials) : NULL;
    for (size_t i = 0; i < o->ncredentials; i++)
        c->opt.credentials[i] = (struct http_credential){xstrdup(o->credentials[i].origin),
                                                         xstrdup(o->credentials[i].userinfo)};
    c->proxied = o->proxied;
    c->curl = curl_easy_init();
    if (!c->curl)
        abort();
    return c;
}

void http_client_free(struct http_client *c)
{
    if (!c)
        return;
    curl_easy_cleanup(c->curl);
    curl_slist_free_all(c->resolve);
    for (size_t i = 0; i < c->opt.ncredentials; i++) {
        free(c->opt.credentials[i].origin);
        free(c->opt.credentials[i].userinfo);
    }
    free(c->opt.credentials);
    free(c->final_url);
    free(c);
}

void http_client_on_retry(struct http_client *c, void (*fn)(void *ud, const struct http_retry *r),
                          void *ud)
{
    c->on_retry = fn;
    c->retry_ud = ud;
}

const char *http_client_final_url(const struct http_client *c)
{
    return c->final_url ? c->final_url : "";
}

void http_retry_text(const struct http_retry *r, char *buf, size_t n)
{
    char q[200];
    snprintf(buf, n, "%s: %s; retrying in %.*f s (attempt %d of %d)",
             wa_quote(q, sizeof q, r->url, 180), r->reason, r->wait_ms < 1000 ? 1 : 0,
             (double)r->wait_ms / 1000, r->attempt + 1, r->attempts);
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* State of one transfer (one hop of one attempt). */
struct attempt {
    const struct http_request *req;
    struct http_response *resp;
    const struct http_options *opt;
    CURL *curl;
    int sink_failed;
    struct wa_error sink_err;
    int dropped_body;    /* a non-2xx body was cut off on purpose */
    char location[2048]; /* the Location header, for redirects */
    /* address policy: only public addresses for this hop */
    int public_only;
    int refused;
    char refused_addr[64];
    int refused_cls;
    /* time */
    int64_t t0;
    int64_t connected_at; /* 0 until the connection is up */
    int64_t win_start;
    curl_off_t win_bytes;
    int too_slow;
    char slow_msg[200];
};

static void trim_copy(char *dst, size_t cap, const char *src, size_t n)
{
    while (n && (*src == ' ' || *src == '\t')) {
        src++;
        n--;
    }
    while (n && (src[n - 1] == '\r' || src[n - 1] == '\n' || src[n - 1] == ' '))
        n--;
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static void reset_response(struct http_response *r)
{
    r->status = 0;
    r->addr_class = -1;
    r->etag[0] = r->last_modified[0] = r->content_type[0] = '\0';
    r->range_start = r->range_end = r->range_total = -1;
    r->content_length = -1;
    r->body_bytes = 0;
}

/* Parses a decimal int64 that must fill s exactly; -1 when it does not. */
static int64_t parse_i64(const char *s)
{
    if (!*s)
        return -1;
    int64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > (INT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

/* "bytes START-END/TOTAL" (TOTAL may be "*"): 0, or -1 when malformed. */
static int parse_content_range(const char *v, struct http_response *r)
{
    char buf[96];
    if (strncasecmp(v, "bytes ", 6) != 0)
        return -1;
    snprintf(buf, sizeof buf, "%s", v + 6);
    char *dash = strchr(buf, '-'), *slash = strchr(buf, '/');
    if (!dash || !slash || slash < dash)
        return -1;
    *dash = *slash = '\0';
    int64_t s = parse_i64(buf), e = parse_i64(dash + 1);
    int64_t t = strcmp(slash + 1, "*") == 0 ? -1 : parse_i64(slash + 1);
    if (s < 0 || e < s || (strcmp(slash + 1, "*") != 0 && (t < 0 || e >= t)))
        return -1;
    r->range_start = s;
    r->range_end = e;
    r->range_total = t;
    return 0;
}

/* Whether the connection's address is allowed for this hop (checked again
 * when the answer starts, for connections curl reused). */
static int check_primary_ip(struct attempt *a)
{
    char *ip = NULL;
    if (curl_easy_getinfo(a->curl, CURLINFO_PRIMARY_IP, &ip) != CURLE_OK || !ip || !*ip)
        return 1; /* not known: opensocket checked the address it connected */
    int cls = netaddr_classify_text(ip);
    a->resp->addr_class = cls;
    if (!a->public_only)
        return 1;
    if (cls < 0 || cls == NETADDR_PUBLIC)
        return 1;
    a->refused = 1;
    a->refused_cls = cls;
    snprintf(a->refused_addr, sizeof a->refused_addr, "%s", ip);
    return 0;
}

static size_t on_header(char *buf, size_t size, size_t nitems, void *ud)
{
    struct attempt *a = ud;
    size_t n = size * nitems;
    struct http_response *r = a->resp;
    if (n >= 5 && strncmp(buf, "HTTP/", 5) == 0) {
        /* A new header block (after 100 Continue). */
        uint64_t received = r->bytes_received;
        int attempts = r->attempts;
        reset_response(r);
        r->bytes_received = received;
        r->attempts = attempts;
        const char *sp = memchr(buf, ' ', n);
        if (sp)
            r->status = strtol(sp + 1, NULL, 10);
        if (!a->connected_at)
            a->connected_at = a->win_start = now_ms();
        return check_primary_ip(a) ? n : 0;
    }
    const char *colon = memchr(buf, ':', n);
    if (!colon)
        return n;
    size_t klen = (size_t)(colon - buf);
    const char *v = colon + 1;
    size_t vlen = n - klen - 1;
    if (klen == 8 && strncasecmp(buf, "location", 8) == 0)
        trim_copy(a->location, sizeof a->location, v, vlen);
    else if (klen == 4 && strncasecmp(buf, "etag", 4) == 0)
        trim_copy(r->etag, sizeof r->etag, v, vlen);
    else if (klen == 13 && strncasecmp(buf, "last-modified", 13) == 0)
        trim_copy(r->last_modified, sizeof r->last_modified, v, vlen);
    else if (klen == 12 && strncasecmp(buf, "content-type", 12) == 0)
        trim_copy(r->content_type, sizeof r->content_type, v, vlen);
    else if (klen == 14 && strncasecmp(buf, "content-length", 14) == 0) {
        char tmp[32];
        trim_copy(tmp, sizeof tmp, v, vlen);
        r->content_length = parse_i64(tmp);
    } else if (klen == 13 && strncasecmp(buf, "content-range", 13) == 0) {
        char tmp[96];
        trim_copy(tmp, sizeof tmp, v, vlen);
        if (parse_content_range(tmp, r) < 0)
            r->range_start = r->range_end = r->range_total = -1;
    }
    return n;
}

static size_t on_body(char *buf, size_t size, size_t nmemb, void *ud)
{
    struct attempt *a = ud;
    size_t n = size * nmemb;
    struct http_response *r = a->resp;
    if (r->status < 200 || r->status >= 300) {
        /* Error and redirect bodies are not wanted: stop at their first
         * bytes, so an endless one costs nothing (the status is final). */
        a->dropped_body = 1;
        return 0;
    }
    if (!a->req->body) {
        r->body_bytes += n;
        return n;
    }
    int rc = a->req->body(a->req->ud, r, (const uint8_t *)buf, n, &a->sink_err);
    r->body_bytes += n;
    if (rc < 0) {
        a->sink_failed = 1;
        if (!a->sink_err.msg[0])
            wa_error_set(&a->sink_err, rc, "body rejected");
        a->sink_err.code = rc;
        return 0; /* aborts the transfer */
    }
    return n;
}

/* The minimum rate over each window and the average-rate deadline. */
static int on_progress(void *ud, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                       curl_off_t ulnow)
{
    struct attempt *a = ud;
    const struct http_options *o = a->opt;
    (void)ultotal;
    (void)ulnow;
    int64_t now = now_ms();
    long window = o->stall_timeout_ms > 0 ? o->stall_timeout_ms : 1;
    if (!a->connected_at) {
        curl_off_t ct = 0;
        if (curl_easy_getinfo(a->curl, CURLINFO_CONNECT_TIME_T, &ct) == CURLE_OK && ct > 0) {
            a->connected_at = a->win_start = now;
            a->win_bytes = dlnow;
        } else if (now - a->t0 > o->connect_timeout_ms + window) {
            /* curl's connect timeout did not fire: a reused connection
             * that never answered */
            a->too_slow = 1;
            snprintf(a->slow_msg, sizeof a->slow_msg, "no answer in %.0f s",
                     (double)(now - a->t0) / 1000);
            return 1;
        }
        return 0;
    }
    if (now - a->win_start >= window) {
        double need = (double)o->min_rate * (double)window / 1000.0;
        if (need < 1)
            need = 1;
        if ((double)(dlnow - a->win_bytes) < need) {
            double secs = (double)(now - a->win_start) / 1000;
            a->too_slow = 1;
            if (!a->resp->status)
                snprintf(a->slow_msg, sizeof a->slow_msg, "no answer within %.0f s", secs);
            else if (dlnow == a->win_bytes)
                snprintf(a->slow_msg, sizeof a->slow_msg, "stalled: no body data for %.0f s", secs);
            else
                snprintf(a->slow_msg, sizeof a->slow_msg,
                         "too slow: %lld bytes in %.0f s, at least %ld bytes/s wanted",
                         (long long)(dlnow - a->win_bytes), secs, o->min_rate);
            return 1;
        }
        a->win_start = now;
        a->win_bytes = dlnow;
    }
    if (o->min_average_rate > 0) {
        /* After one window of grace the average so far must hold, counted on
         * bytes received: an announced size (which a server may inflate)
         * never buys time.  This also bounds a whole transfer: at most one
         * window plus its size at that rate. */
        double cap = (double)window + (double)dlnow * 1000.0 / (double)o->min_average_rate;
        if ((double)(now - a->connected_at) > cap) {
            char of[48] = "";
            if (dltotal > 0)
                snprintf(of, sizeof of, " of %lld", (long long)dltotal);
            a->too_slow = 1;
            snprintf(a->slow_msg, sizeof a->slow_msg,
                     "too slow: %lld%s bytes in %.0f s, at least %ld bytes/s on average wanted",
                     (long long)dlnow, of, (double)(now - a->connected_at) / 1000,
                     o->min_average_rate);
            return 1;
        }
    }
    return 0;
}

static curl_socket_t on_open_socket(void *ud, curlsocktype purpose, struct curl_sockaddr *addr)
{
    struct attempt *a = ud;
    (void)purpose;
    if (a->public_only) {
        int cls = netaddr_classify(&addr->addr, addr->addrlen);
        if (cls != NETADDR_PUBLIC) {
            a->refused = 1;
            a->refused_cls = cls;
            char host[INET6_ADDRSTRLEN] = "?";
            if (addr->family == AF_INET)
                inet_ntop(AF_INET, &((struct sockaddr_in *)&addr->addr)->sin_addr, host,
                          sizeof host);
            else if (addr->family == AF_INET6)
                inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&addr->addr)->sin6_addr, host,
                          sizeof host);
            snprintf(a->refused_addr, sizeof a->refused_addr, "%s", host);
            return CURL_SOCKET_BAD;
        }
    }
    return socket(addr->family, addr->socktype | SOCK_CLOEXEC, addr->protocol);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* The user and password for a request to url: those of its origin's
 * credentials, percent escapes decoded as in a URL's user info. */
static void set_credentials(struct http_client *c, CURL *h, const char *url)
{
    char origin[2100];
    indexurl_origin(url, origin, sizeof origin);
    for (size_t i = 0; i < c->opt.ncredentials; i++) {
        if (strcasecmp(c->opt.credentials[i].origin, origin) != 0)
            continue;
        const char *ui = c->opt.credentials[i].userinfo;
        size_t un = strcspn(ui, ":");
        char *user = xstrndup(ui, un);
        char *u = wheelname_percent_decode(user);
        char *p = ui[un] ? wheelname_percent_decode(ui + un + 1) : NULL;
        curl_easy_setopt(h, CURLOPT_USERNAME, u);
        if (p)
            curl_easy_setopt(h, CURLOPT_PASSWORD, p); /* libcurl copies both */
        if (p)
            memset(p, 0, strlen(p));
        free(p);
        free(u);
        free(user);
        return;
    }
}

/* Sets up the handle for one hop. */
static void setup(struct http_client *c, struct attempt *a, const char *url,
                  struct curl_slist *hdrs, const char *range)
{
    CURL *h = c->curl;
    const struct http_request *req = a->req;
    curl_easy_reset(h);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(h, CURLOPT_USERAGENT, http_user_agent());
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, c->opt.connect_timeout_ms);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, c->errbuf);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, a);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, a);
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(h, CURLOPT_XFERINFODATA, a);
    curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, on_open_socket);
    curl_easy_setopt(h, CURLOPT_OPENSOCKETDATA, a);
    if (c->resolve)
        curl_easy_setopt(h, CURLOPT_RESOLVE, c->resolve);
    /* Credentials: the configured ones of this hop's origin (a redirect
     * elsewhere goes without them), else ~/.netrc's for its host. */
    curl_easy_setopt(h, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
    set_credentials(c, h, url);
    if (req->compressed)
        curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
    if (range[0])
        curl_easy_setopt(h, CURLOPT_RANGE, range);
    if (hdrs)
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
}

static struct curl_slist *request_headers(const struct http_request *req)
{
    struct curl_slist *hdrs = NULL;
    char line[512];
    if (req->accept) {
        snprintf(line, sizeof line, "Accept: %s", req->accept);
        hdrs = curl_slist_append(hdrs, line);
    }
    if (req->if_none_match && *req->if_none_match && strlen(req->if_none_match) < 400) {
        snprintf(line, sizeof line, "If-None-Match: %s", req->if_none_match);
        hdrs = curl_slist_append(hdrs, line);
    }
    if (req->if_modified_since && *req->if_modified_since && strlen(req->if_modified_since) < 400) {
        snprintf(line, sizeof line, "If-Modified-Since: %s", req->if_modified_since);
        hdrs = curl_slist_append(hdrs, line);
    }
    return hdrs;
}

/* One attempt: the request and its redirects.  Returns 0 with a final
 * response in resp, or an error with *kind saying whether to retry. */
static int run_attempt(struct http_client *c, const struct http_request *req,
                       struct http_response *resp, const char *origin_host, int origin_local,
                       int *kind, long *retry_after, struct wa_error *err)
{
    char range[64] = "";
    if (req->range_start >= 0) {
        if (req->range_end >= 0)
            snprintf(range, sizeof range, "%lld-%lld", (long long)req->range_start,
                     (long long)req->range_end);
        else
            snprintf(range, sizeof range, "%lld-", (long long)req->range_start);
    } else if (req->range_suffix > 0) {
        snprintf(range, sizeof range, "-%llu", (unsigned long long)req->range_suffix);
    }
    struct curl_slist *hdrs = request_headers(req);
    char *url = xstrdup(req->url);
    int rc = 0;
    *kind = RETRY_NONE;
    *retry_after = -1;
    for (int hop = 0;; hop++) {
        char *scheme, *host;
        if (httpi_url_parts(url, &scheme, &host) < 0) {
            rc = wa_error_set(err, WA_ERR_NETWORK, "%s%.200s is not a valid URL",
                              hop ? "redirect target " : "", url);
            break;
        }
        int scheme_ok = strcasecmp(scheme, "http") == 0 || strcasecmp(scheme, "https") == 0;
        struct attempt a;
        memset(&a, 0, sizeof a);
        a.req = req;
        a.resp = resp;
        a.opt = &c->opt;
        a.curl = c->curl;
        a.public_only = !c->opt.allow_private && !c->proxied && !origin_local &&
                        (req->strict_origin || strcasecmp(host, origin_host));
        free(scheme);
        free(host);
        if (!scheme_ok) {
            rc = wa_error_set(err, WA_ERR_NETWORK, "%s%.200s refused: only http and https",
                              hop ? "redirect to " : "", url);
            break;
        }
        setup(c, &a, url, hdrs, range);
        c->errbuf[0] = '\0';
        a.t0 = now_ms();
        CURLcode cc = curl_easy_perform(c->curl);
        /* The bytes that came over the wire (a compressed page's, not the
         * decoded ones: a gzip bomb is a few KiB downloaded). */
        curl_off_t wire = 0;
        if (curl_easy_getinfo(c->curl, CURLINFO_SIZE_DOWNLOAD_T, &wire) == CURLE_OK && wire > 0)
            resp->bytes_received += (uint64_t)wire;
        long status = 0;
        curl_easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &status);
        if (status)
            resp->status = status;
        if (a.sink_failed) {
            if (err)
                *err = a.sink_err;
            rc = a.sink_err.code;
            break;
        }
        if (a.refused) {
            rc = wa_error_set(
                err, WA_ERR_NETWORK, "%s%.200s refused: it leads to %s (a %s) from a public index",
                hop ? "redirect to " : "", url, a.refused_addr, netaddr_class_name(a.refused_cls));
            break;
        }
        if (a.too_slow) {
            rc = wa_error_set(err, WA_ERR_NETWORK, "%s", a.slow_msg);
            break;
        }
        if (cc == CURLE_WRITE_ERROR && a.dropped_body)
            cc = CURLE_OK;
        if (cc != CURLE_OK) {
            *kind = httpi_retry_kind_of(cc, resp->status, c->errbuf, &resp->unreachable);
            if (cc == CURLE_OPERATION_TIMEDOUT && !resp->status)
                rc = wa_error_set(err, WA_ERR_NETWORK, "no connection within %.0f s",
                                  (double)c->opt.connect_timeout_ms / 1000);
            else if (cc == CURLE_OUT_OF_MEMORY)
                /* what curl 7.88 says of a header line longer than it takes */
                rc = wa_error_set(err, WA_ERR_NETWORK,
                                  "the server's answer was refused: a header line is larger "
                                  "than curl accepts (or memory ran out)");
            else
                rc = wa_error_set(err, WA_ERR_NETWORK, "%s",
                                  c->errbuf[0] ? c->errbuf : curl_easy_strerror(cc));
            break;
        }
        char *next = httpi_is_redirect(resp->status) && a.location[0]
                         ? httpi_resolve(url, a.location)
                         : NULL;
        if (next) {
            if (hop >= c->opt.max_redirects) {
                free(next);
                rc = wa_error_set(err, WA_ERR_NETWORK, "more than %d redirects",
                                  c->opt.max_redirects);
                break;
            }
            free(url);
            url = next;
            continue;
        }
        if (httpi_retryable_status(resp->status)) {
            *kind = RETRY_FULL;
            rc = wa_error_set(err, WA_ERR_NETWORK, "HTTP %ld", resp->status);
            /* 0 means "no Retry-After header" to curl: keep our own delay. */
            curl_off_t ra = 0;
            if (curl_easy_getinfo(c->curl, CURLINFO_RETRY_AFTER, &ra) == CURLE_OK && ra > 0)
                *retry_after = ra > 86400 ? 86400000L : (long)ra * 1000;
        }
        break;
    }
    free(c->final_url);
    c->final_url = url;
    curl_slist_free_all(hdrs);
    return rc;
}

int http_get(struct http_client *c, const struct http_request *req, struct http_response *resp,
             struct wa_error *err)
{
    memset(resp, 0, sizeof *resp);
    reset_response(resp);
    char *oscheme, *ohost;
    if (httpi_url_parts(req->origin ? req->origin : req->url, &oscheme, &ohost) < 0) {
        free(c->final_url);
        c->final_url = xstrdup(req->url);
        return wa_error_set(err, WA_ERR_NETWORK, "%.200s is not a valid URL",
                            req->origin ? req->origin : req->url);
    }
    int origin_local = netaddr_host_is_local(ohost);
    long delay = c->opt.retry_delay_ms;
    int rc;
    for (int attempt = 1;; attempt++) {
        int kind;
        long retry_after;
        struct wa_error e;
        wa_error_clear(&e);
        resp->attempts = attempt;
        rc = run_attempt(c, req, resp, ohost, origin_local, &kind, &retry_after, &e);
        if (rc == 0 || kind == RETRY_NONE) {
            if (rc < 0 && err)
                *err = e;
            break;
        }
        int max = kind == RETRY_SHORT ? (c->opt.retries > 0 ? 2 : 1) : c->opt.retries + 1;
        if (attempt >= max) {
            if (err) {
                *err = e;
                if (attempt > 1) {
                    char n[40];
                    snprintf(n, sizeof n, " (after %d attempts)", attempt);
                    wa_strlcat(err->msg, n, sizeof err->msg);
                }
            }
            break;
        }
        long wait = kind == RETRY_SHORT ? (delay < 1000 ? delay : 1000) : delay;
        if (retry_after >= 0)
            wait = retry_after > c->opt.retry_max_ms ? c->opt.retry_max_ms : retry_after;
        if (c->on_retry) {
            struct http_retry r = {req->url, e.msg, attempt, max, wait};
            c->on_retry(c->retry_ud, &r);
        }
        sleep_ms(wait);
        if (kind == RETRY_FULL)
            delay = delay * 2 > c->opt.retry_max_ms ? c->opt.retry_max_ms : delay * 2;
        if (resp->body_bytes > 0 && req->restart)
            req->restart(req->ud);
        uint64_t received = resp->bytes_received;
        reset_response(resp);
        resp->bytes_received = received;
        resp->unreachable = 0;
    }
    free(oscheme);
    free(ohost);
    return rc;
}
