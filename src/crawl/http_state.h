/*
 * http_state: what the files of http share.  Not for other modules.
 *   http.c         the client: requests, retries, the transfer's callbacks
 *   http_policy.c  URLs of redirects, and what a failure deserves
 */
#ifndef WHEELARCH_HTTP_STATE_H
#define WHEELARCH_HTTP_STATE_H

#include <curl/curl.h>

/* What a failure deserves: no retry, one short retry (the host did not
 * answer at all), or the full policy (a transient failure). */
enum retry_kind { RETRY_NONE, RETRY_SHORT, RETRY_FULL };

/* The scheme and host of a URL (caller frees both); -1 when malformed. */
int httpi_url_parts(const char *url, char **scheme, char **host);
/* A Location value resolved against the URL that sent it; NULL when it
 * does not make a URL; caller frees. */
char *httpi_resolve(const char *base, const char *location);
int httpi_is_redirect(long status);
/* enum retry_kind of a failed transfer; *unreachable when the host did
 * not answer at all. */
int httpi_retry_kind_of(CURLcode c, long status, const char *msg, int *unreachable);
int httpi_retryable_status(long status);

#endif
