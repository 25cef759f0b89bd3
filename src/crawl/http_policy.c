/*
 * http_policy: what a response or a failure means for the next step:
 * whether to follow (redirects resolved against the URL that sent them),
 * whether and how to retry.  Pure functions of what curl reports.
 */
#include "http_state.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* The scheme and host of a URL (caller frees both); -1 when malformed. */
int httpi_url_parts(const char *url, char **scheme, char **host)
{
    *scheme = *host = NULL;
    CURLU *u = curl_url();
    if (!u)
        abort();
    char *s = NULL, *h = NULL;
    int rc = -1;
    if (curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_SCHEME, &s, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_HOST, &h, 0) == CURLUE_OK) {
        *scheme = xstrdup(s);
        *host = xstrdup(h);
        rc = 0;
    }
    curl_free(s);
    curl_free(h);
    curl_url_cleanup(u);
    return rc;
}

/* A Location value resolved against the URL that sent it (read from the
 * headers: the body, and with it curl's own redirect URL, may be cut off).
 * NULL when it does not make a URL; caller frees. */
char *httpi_resolve(const char *base, const char *location)
{
    CURLU *u = curl_url();
    if (!u)
        abort();
    char *out = NULL, *s = NULL;
    if (curl_url_set(u, CURLUPART_URL, base, 0) == CURLUE_OK &&
        curl_url_set(u, CURLUPART_URL, location, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_URL, &s, 0) == CURLUE_OK)
        out = xstrdup(s);
    curl_free(s);
    curl_url_cleanup(u);
    return out;
}

int httpi_is_redirect(long s)
{
    return s == 301 || s == 302 || s == 303 || s == 307 || s == 308;
}

/* Whether a receive error is the network's (a reset, a connection
 * dropped: worth another try) rather than the server's answer breaking the
 * protocol (headers too large, a malformed chunk size, endless "100
 * Continue"), which the same server gives again on every try.  curl names
 * the socket's failures "Recv failure: ..." and "Failure when receiving
 * data from the peer"; everything else it reports as RECV_ERROR is a
 * parse of what the server sent. */
static int network_recv_error(const char *msg)
{
    return !msg || !*msg || strncmp(msg, "Recv failure", 12) == 0 ||
           strncmp(msg, "Failure when receiving data from the peer", 41) == 0 ||
           strstr(msg, "Connection reset") != NULL || strstr(msg, "Connection died") != NULL;
}

int httpi_retry_kind_of(CURLcode c, long status, const char *msg, int *unreachable)
{
    *unreachable = 0;
    switch (c) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
        *unreachable = 1;
        return RETRY_SHORT;
    case CURLE_OPERATION_TIMEDOUT: /* only the connect timeout is curl's */
        if (status)
            return RETRY_FULL;
        *unreachable = 1;
        return RETRY_SHORT;
    case CURLE_RECV_ERROR:
        return network_recv_error(msg) ? RETRY_FULL : RETRY_NONE;
    case CURLE_PARTIAL_FILE:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR:
        return RETRY_FULL;
    default:
        return RETRY_NONE;
    }
}

int httpi_retryable_status(long s)
{
    return s == 408 || s == 429 || s == 500 || s == 502 || s == 503 || s == 504;
}
