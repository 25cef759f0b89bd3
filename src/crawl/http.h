/*
 * http: GET requests over libcurl with a bounded retry policy, deadlines
 * and a redirect policy, for servers wheelarch does not control.
 *
 * One struct http_client per thread (a curl easy handle that keeps its
 * connections alive, negotiating HTTP/2 where the server offers it).  A
 * request streams its body into a sink callback as it arrives; nothing is
 * buffered here.
 *
 * Time: every window of `stall_timeout_ms` must bring at least `min_rate`
 * bytes per second (a server that drips one byte every half second fails
 * within about one window), and a whole transfer must average at least
 * `min_average_rate` bytes per second after one window of grace (a hard
 * cap derived from the announced size).  Transfers that fail this way are
 * not retried: a server that slow will be as slow again.
 *
 * Retries: transient failures (connection reset, HTTP 408, 429, 500, 502,
 * 503, 504, a body cut short) are retried `retries` times with a doubling
 * delay that honours Retry-After; a host that does not resolve or refuses
 * the connection gets one short retry.  Each retry is announced to the
 * client's retry callback before the wait; when body bytes were already
 * delivered, the request's restart callback runs first so the consumer can
 * start over.
 *
 * Redirects are followed by hand: at most `max_redirects`, http and https
 * only, and a request that derives from a public index (its `origin`) never
 * connects to a loopback, private or link-local address other than the
 * origin's own host (netaddr.h); the check is made on the connected
 * address, also for reused connections.  Through a proxy from the
 * environment (http_proxy, https_proxy, all_proxy) every connection goes to
 * the proxy, which the operator chose: the policy is not applied.  http_client_final_url gives the
 * URL that answered, against which relative links must be resolved.
 */
#ifndef WHEELARCH_HTTP_H
#define WHEELARCH_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Credentials for the requests to one origin ("https://mirror.example:8443"):
 * the user info of a configured index URL ("user:token", percent escapes
 * as written), which is never stored.  A redirect to another origin goes
 * without them. */
struct http_credential {
    char *origin;
    char *userinfo;
};

struct http_options {
    long connect_timeout_ms; /* TCP/TLS connect */
    long stall_timeout_ms;   /* the window of the minimum rate */
    long min_rate;           /* bytes per second in every window */
    long min_average_rate;   /* bytes per second over a whole transfer */
    int retries;             /* further attempts after the first, for transient failures */
    long retry_delay_ms;     /* first delay; doubles each time */
    long retry_max_ms;       /* cap on one delay */
    int max_redirects;
    int allow_private; /* 1: no address policy (an index on a private network) */
    /* 1: a proxy from the environment carries every request (libcurl reads
     * http_proxy, https_proxy and all_proxy itself; the program says
     * whether one is set, http_proxy_from_env): the address policy is then
     * not applied, the proxy being the operator's choice. */
    int proxied;
    /* "HOST:PORT:ADDRESS" entries pinning names to addresses, as curl's
     * --resolve (borrowed; may be NULL). */
    char **resolve;
    size_t nresolve;
    /* Per origin, the user and password of its requests (borrowed; may be
     * NULL); ~/.netrc is read for the others, as curl's --netrc-optional. */
    struct http_credential *credentials;
    size_t ncredentials;
};

/* Defaults: connect 15 s; 1 KiB/s over every 60 s window; 64 KiB/s on
 * average; 5 retries from 1 s up to 60 s; 5 redirects. */
void http_options_default(struct http_options *o);

/* Whether one of the proxy variables libcurl reads (http_proxy,
 * https_proxy, HTTPS_PROXY, all_proxy, ALL_PROXY) is set and not empty in
 * env, an environ-style NULL-ended array: for http_options.proxied.  The
 * core reads no environment of its own; the program passes its own. */
int http_proxy_from_env(char *const *env);

/* A retry about to happen, for the client's observer. */
struct http_retry {
    const char *url;
    const char *reason; /* "HTTP 503", "connection refused", ... */
    int attempt;        /* the attempt that failed, from 1 */
    int attempts;       /* the most attempts this failure gets */
    long wait_ms;
};

/* The one-line description of a retry for a diagnostic ("URL: HTTP 503;
 * retrying in 2 s (attempt 3 of 6)"), the URL quoted. */
void http_retry_text(const struct http_retry *r, char *buf, size_t n);

struct http_response {
    long status; /* final HTTP status, 0 if none */
    char etag[256];
    char last_modified[64];
    char content_type[128];
    int64_t range_start; /* Content-Range of a 206, else -1 */
    int64_t range_end;
    int64_t range_total;     /* -1 when "*" or absent */
    int64_t content_length;  /* -1 when absent */
    uint64_t body_bytes;     /* body bytes of the final attempt */
    uint64_t bytes_received; /* body bytes of all attempts as they came over the wire
                              * (compressed, when the server compressed them) */
    int attempts;
    int unreachable; /* failed without reaching a server: DNS, refused, connect timeout */
    int addr_class;  /* netaddr class of the address that answered; -1 when not known */
};

struct http_request {
    const char *url;
    /* The index this request derives from (a link or a redirect found on
     * it), for the address policy; NULL: url itself. */
    const char *origin;
    /* The origin's own host gets no exemption either (its pages were
     * served from a public address: a later private one is DNS rebinding). */
    int strict_origin;
    const char *accept;        /* Accept header, or NULL */
    const char *if_none_match; /* conditional GET validators, or NULL */
    const char *if_modified_since;
    int compressed;        /* ask for gzip/deflate/br content coding */
    int64_t range_start;   /* >= 0: bytes=range_start-range_end */
    int64_t range_end;     /* inclusive; -1 = to the end */
    uint64_t range_suffix; /* > 0: bytes=-range_suffix (ignored if range_start >= 0) */
    /* Receives the body of a 2xx response; resp holds its status and
     * headers.  Returns 0, or a negative WA_ERR_* code (with err set) to
     * abort without retrying. */
    int (*body)(void *ud, const struct http_response *resp, const uint8_t *buf, size_t n,
                struct wa_error *err);
    /* Called before a retry if body bytes were delivered; may be NULL. */
    void (*restart)(void *ud);
    void *ud;
};

struct http_client;

/* Caller frees with http_client_free.  Thread-safe to create in threads.
 * o is copied; its resolve strings are copied too. */
struct http_client *http_client_new(const struct http_options *o);
void http_client_free(struct http_client *c);

/* Calls fn (from the client's thread) before every retry; fn may be NULL. */
void http_client_on_retry(struct http_client *c, void (*fn)(void *ud, const struct http_retry *r),
                          void *ud);

/* The URL that gave the last request's final answer, after redirects (the
 * request's own URL when there were none).  Valid until the next request. */
const char *http_client_final_url(const struct http_client *c);

/* Runs one GET.  Returns 0 when a final response arrived (any status: check
 * resp->status; 2xx bodies went to the sink), or a negative WA_ERR_* code:
 * WA_ERR_NETWORK ("HTTP 503 (after 6 attempts)", "too slow: 12 bytes in
 * 3 s", "redirect to 127.0.0.1 (a loopback address) refused: ..."), or the
 * sink's own error. */
int http_get(struct http_client *c, const struct http_request *req, struct http_response *resp,
             struct wa_error *err);

/* A user agent string "wheelarch/VERSION (+URL) curl/VERSION". */
const char *http_user_agent(void);

#endif
