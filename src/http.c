/*
 * http: libcurl GET with retries, streaming bodies to a sink.
 */
#include "http.h"

#include <curl/curl.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "version.h"
#include "xalloc.h"

struct http_client {
    CURL *curl;
    struct http_options opt;
    char errbuf[CURL_ERROR_SIZE];
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
    o->connect_timeout_ms = 15000;
    o->stall_timeout_ms = 60000;
    o->retries = 5;
    o->retry_delay_ms = 1000;
    o->retry_max_ms = 60000;
}

struct http_client *http_client_new(const struct http_options *o)
{
    pthread_once(&global_once, global_init);
    struct http_client *c = xcalloc(1, sizeof *c);
    c->opt = *o;
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
    free(c);
}

/* State of one attempt. */
struct attempt {
    const struct http_request *req;
    struct http_response *resp;
    int headers_done; /* the final header block has been parsed */
    int sink_failed;
    struct wa_error sink_err;
    CURL *curl;
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
    r->etag[0] = r->last_modified[0] = r->content_type[0] = '\0';
    r->range_start = r->range_end = r->range_total = -1;
    r->content_length = -1;
    r->body_bytes = 0;
}

static size_t on_header(char *buf, size_t size, size_t nitems, void *ud)
{
    struct attempt *a = ud;
    size_t n = size * nitems;
    struct http_response *r = a->resp;
    if (n >= 5 && strncmp(buf, "HTTP/", 5) == 0) {
        /* A new header block (after a redirect or 100 Continue). */
        uint64_t received = r->bytes_received;
        int attempts = r->attempts;
        reset_response(r);
        r->bytes_received = received;
        r->attempts = attempts;
        const char *sp = memchr(buf, ' ', n);
        if (sp)
            r->status = strtol(sp + 1, NULL, 10);
        return n;
    }
    const char *colon = memchr(buf, ':', n);
    if (!colon)
        return n;
    size_t klen = (size_t)(colon - buf);
    const char *v = colon + 1;
    size_t vlen = n - klen - 1;
    if (klen == 4 && strncasecmp(buf, "etag", 4) == 0)
        trim_copy(r->etag, sizeof r->etag, v, vlen);
    else if (klen == 13 && strncasecmp(buf, "last-modified", 13) == 0)
        trim_copy(r->last_modified, sizeof r->last_modified, v, vlen);
    else if (klen == 12 && strncasecmp(buf, "content-type", 12) == 0)
        trim_copy(r->content_type, sizeof r->content_type, v, vlen);
    else if (klen == 14 && strncasecmp(buf, "content-length", 14) == 0) {
        char tmp[32];
        trim_copy(tmp, sizeof tmp, v, vlen);
        r->content_length = strtoll(tmp, NULL, 10);
    } else if (klen == 13 && strncasecmp(buf, "content-range", 13) == 0) {
        char tmp[96];
        long long s, e;
        char total[32];
        trim_copy(tmp, sizeof tmp, v, vlen);
        if (sscanf(tmp, "bytes %lld-%lld/%31s", &s, &e, total) == 3 && s >= 0 && e >= s) {
            r->range_start = s;
            r->range_end = e;
            r->range_total = strcmp(total, "*") == 0 ? -1 : strtoll(total, NULL, 10);
        }
    }
    return n;
}

static size_t on_body(char *buf, size_t size, size_t nmemb, void *ud)
{
    struct attempt *a = ud;
    size_t n = size * nmemb;
    struct http_response *r = a->resp;
    r->bytes_received += n;
    if (r->status < 200 || r->status >= 300)
        return n; /* error bodies are read and dropped */
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

static int retryable_status(long s)
{
    return s == 408 || s == 429 || s == 500 || s == 502 || s == 503 || s == 504;
}

static int retryable_curl(CURLcode c)
{
    switch (c) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR:
        return 1;
    default:
        return 0;
    }
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

int http_get(struct http_client *c, const struct http_request *req, struct http_response *resp,
             struct wa_error *err)
{
    CURL *h = c->curl;
    memset(resp, 0, sizeof *resp);
    reset_response(resp);
    long delay = c->opt.retry_delay_ms;
    char range[64];
    char reason[CURL_ERROR_SIZE + 64];
    for (int attempt = 0;; attempt++) {
        struct attempt a = {req, resp, 0, 0, {0, ""}, h};
        struct curl_slist *hdrs = NULL;
        char line[512];
        curl_easy_reset(h);
        curl_easy_setopt(h, CURLOPT_URL, req->url);
        curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
        curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
        curl_easy_setopt(h, CURLOPT_MAXREDIRS, 10L);
        curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
        curl_easy_setopt(h, CURLOPT_USERAGENT, http_user_agent());
        curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, c->opt.connect_timeout_ms);
        /* Stalls, not slow links: at least 1 byte per stall period. */
        curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
        curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME,
                         (c->opt.stall_timeout_ms + 999) / 1000 > 0
                             ? (c->opt.stall_timeout_ms + 999) / 1000
                             : 1L);
        curl_easy_setopt(h, CURLOPT_ERRORBUFFER, c->errbuf);
        curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(h, CURLOPT_HEADERDATA, &a);
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(h, CURLOPT_WRITEDATA, &a);
        if (req->compressed)
            curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
        if (req->range_start >= 0) {
            if (req->range_end >= 0)
                snprintf(range, sizeof range, "%lld-%lld", (long long)req->range_start,
                         (long long)req->range_end);
            else
                snprintf(range, sizeof range, "%lld-", (long long)req->range_start);
            curl_easy_setopt(h, CURLOPT_RANGE, range);
        } else if (req->range_suffix > 0) {
            snprintf(range, sizeof range, "-%llu", (unsigned long long)req->range_suffix);
            curl_easy_setopt(h, CURLOPT_RANGE, range);
        }
        if (req->accept) {
            snprintf(line, sizeof line, "Accept: %s", req->accept);
            hdrs = curl_slist_append(hdrs, line);
        }
        if (req->if_none_match && *req->if_none_match) {
            snprintf(line, sizeof line, "If-None-Match: %s", req->if_none_match);
            hdrs = curl_slist_append(hdrs, line);
        }
        if (req->if_modified_since && *req->if_modified_since) {
            snprintf(line, sizeof line, "If-Modified-Since: %s", req->if_modified_since);
            hdrs = curl_slist_append(hdrs, line);
        }
        if (hdrs)
            curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
        c->errbuf[0] = '\0';
        resp->attempts = attempt + 1;
        CURLcode cc = curl_easy_perform(h);
        curl_slist_free_all(hdrs);
        long status = 0;
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
        if (status)
            resp->status = status;
        if (a.sink_failed) {
            if (err)
                *err = a.sink_err;
            return a.sink_err.code;
        }
        int retry = 0;
        long retry_after = -1;
        if (cc != CURLE_OK) {
            if (!retryable_curl(cc))
                return wa_error_set(err, WA_ERR_NETWORK, "%s",
                                    c->errbuf[0] ? c->errbuf : curl_easy_strerror(cc));
            retry = 1;
            if (cc == CURLE_OPERATION_TIMEDOUT)
                snprintf(reason, sizeof reason, "timed out (%s)",
                         resp->status ? "transfer stalled" : "no response");
            else
                snprintf(reason, sizeof reason, "%s",
                         c->errbuf[0] ? c->errbuf : curl_easy_strerror(cc));
        } else if (retryable_status(resp->status)) {
            retry = 1;
            snprintf(reason, sizeof reason, "HTTP %ld", resp->status);
            curl_off_t ra = -1;
            if (curl_easy_getinfo(h, CURLINFO_RETRY_AFTER, &ra) == CURLE_OK && ra >= 0)
                retry_after = (long)ra * 1000;
        } else {
            return 0;
        }
        if (attempt >= c->opt.retries)
            return wa_error_set(err, WA_ERR_NETWORK, "%s (after %d attempts)", reason, attempt + 1);
        (void)retry;
        long wait = delay;
        if (retry_after >= 0)
            wait = retry_after > c->opt.retry_max_ms ? c->opt.retry_max_ms : retry_after;
        sleep_ms(wait);
        delay = delay * 2 > c->opt.retry_max_ms ? c->opt.retry_max_ms : delay * 2;
        if (resp->body_bytes > 0 && req->restart)
            req->restart(req->ud);
        uint64_t received = resp->bytes_received;
        reset_response(resp);
        resp->bytes_received = received;
    }
}
