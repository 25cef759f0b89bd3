/*
 * wheelfetch: scan a wheel over HTTP without storing it.
 *
 * First a ranged request for the end of the file (the zip's central
 * directory).  When the server honours Range (206), the members whose
 * names can hold GPU code are fetched, each with one ranged request from
 * its local header to the next member, and streamed through the scanner;
 * every member's CRC-32 is checked.  When those members make up most of
 * the file anyway (WHEELFETCH_WHOLE_PERCENT, as for a torch wheel whose
 * CUDA libraries are 99% of it), the file is read whole once instead and
 * its sha256 checked against the index's.  When the server ignores Range
 * (200), that first response's body is the whole file: it is streamed once
 * through the scanner without a central directory, hashed, and checked
 * against the index's sha256 (or, without one, every member's CRC-32).
 *
 * Every 206 must carry the range asked for, the size the first answer
 * gave, and a body of the length announced; anything else fails the wheel.
 */
#ifndef WHEELARCH_WHEELFETCH_H
#define WHEELARCH_WHEELFETCH_H

#include <stdint.h>

#include "error.h"
#include "http.h"
#include "scan.h"

/* Bytes of the end of the file asked for first. */
#define WHEELFETCH_TAIL (64u << 10)
/* No wheel is larger (the biggest ROCm wheels are a few GB). */
#define WHEELFETCH_MAX_SIZE (64ull << 30)
/* Read the whole file when the ranges would cover this much of it. */
#define WHEELFETCH_WHOLE_PERCENT 90

struct wheelfetch_stats {
    int range_mode;     /* members were fetched by range */
    int sha256_checked; /* the whole file was read, hashed and matched the index's sha256 */
    int requests;
    long http_status; /* status of the failing request, if any */
    uint64_t bytes;   /* body bytes received over all attempts */
    uint64_t size;    /* the wheel's size */
};

/* Called as body bytes arrive (for progress displays). */
typedef void (*wheelfetch_progress)(void *ud, uint64_t delta);

/* Scans the wheel at url into r (created by the caller with
 * scan_result_new; its name should be set with scan_result_set_name).
 * expected_sha256 (or NULL) is checked when the whole file was read.
 * Returns 0 or an error; on error r->failed is set too. */
int wheelfetch_scan(struct http_client *c, const char *url, const char *expected_sha256,
                    struct scan_result *r, struct wheelfetch_stats *st,
                    wheelfetch_progress progress, void *ud, struct wa_error *err);

/* What to fetch, for wheelfetch_scan_from. */
struct wheelfetch_request {
    const char *url;
    const char *origin;          /* the index that links it (http.h's policy); NULL: url */
    const char *expected_sha256; /* or NULL */
    int whole;                   /* read the whole file and check its hash, never ranges */
    int strict_origin;           /* http_request.strict_origin */
    int skip_bundled;            /* a ranged read leaves out bundled NVIDIA libraries
                                  * (recbinary_is_bundled): their code does not count */
};

/* The same with the index it comes from and the choice of a whole read. */
int wheelfetch_scan_from(struct http_client *c, const struct wheelfetch_request *rq,
                         struct scan_result *r, struct wheelfetch_stats *st,
                         wheelfetch_progress progress, void *ud, struct wa_error *err);

#endif
