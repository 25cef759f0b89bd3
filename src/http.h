/*
 * http: GET requests over libcurl with the retry policy of curl's own tool.
 *
 * One struct http_client per thread (a curl easy handle that keeps its
 * connections alive, negotiating HTTP/2 where the server offers it).  A
 * request streams its body into a sink callback as it arrives; nothing is
 * buffered here.  Failures that may pass (connection refused or reset,
 * timeouts and stalls, DNS failures, HTTP 408, 429, 500, 502, 503, 504, a
 * body cut short) are retried with a doubling delay that honours
 * Retry-After; when body bytes were already delivered, the request's
 * restart callback runs first so the consumer can start over.  Other
 * statuses are returned as they are, without their body.
 */
#ifndef WHEELARCH_HTTP_H
#define WHEELARCH_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct http_options {
    long connect_timeout_ms; /* TCP/TLS connect */
    long stall_timeout_ms;   /* no body byte for this long: give up on the attempt */
    int retries;             /* further attempts after the first */
    long retry_delay_ms;     /* first delay; doubles each time */
    long retry_max_ms;       /* cap on one delay */
};

/* Defaults: connect 15 s, stall 60 s, 5 retries from 1 s up to 60 s. */
void http_options_default(struct http_options *o);

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
    uint64_t bytes_received; /* body bytes of all attempts */
    int attempts;
};

struct http_request {
    const char *url;
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

/* Caller frees with http_client_free.  Thread-safe to create in threads. */
struct http_client *http_client_new(const struct http_options *o);
void http_client_free(struct http_client *c);

/* Runs one GET.  Returns 0 when a final response arrived (any status: check
 * resp->status; 2xx bodies went to the sink), or a negative WA_ERR_* code:
 * WA_ERR_NETWORK after the last retry ("connection refused after 6
 * attempts", "HTTP 503 after 6 attempts"), or the sink's own error. */
int http_get(struct http_client *c, const struct http_request *req, struct http_response *resp,
             struct wa_error *err);

/* A user agent string "wheelarch/VERSION (+URL) curl/VERSION". */
const char *http_user_agent(void);

#endif
