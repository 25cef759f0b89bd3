/*
 * record: what the database stores about one wheel, as one type.
 *
 * A record comes in as JSON from outside (`db import`, `merge`): its
 * fields and their grammar are recordcheck's, and record_of_json checks it
 * once and makes a struct record: the identity, the wheel's line, the
 * target unions, the project's own GPU code in a compact form (bundled
 * NVIDIA libraries left out, see recbinary_is_bundled), the requirements
 * and the binaries.  The crawler makes its records as the struct: a
 * scanned wheel's from its scan (record_of_scan; its text is the scan
 * report under its identity, record_scanned), an inferred wheel's from its
 * identity and its source's struct (record_of_inferred; its text is
 * record_json's).  The database stores the struct as columns of wheels and
 * rows of binaries and targets (and the text, for `db export`), and gives
 * it back as the same struct (record_of_row), with no JSON parsed.
 *
 * Ownership: a struct record owns its strings and binaries; whoever made
 * it (record_of_json, record_of_scan) frees it with record_free.
 */
#ifndef WHEELARCH_RECORD_H
#define WHEELARCH_RECORD_H

#include <jansson.h>

#include "error.h"
#include "recbinary.h"
#include "scan.h"
#include "wheelname.h"

/* The version of the record format crawl writes. */
#define RECORD_VERSION 1

/* A wheel's line as a type: what the view, the pages, the
 * feed and the simple indexes read about one wheel. */
struct record_wheel {
    char *filename, *url, *key; /* never NULL ("" when the line lacks one) */
    char *sha256;               /* NULL when unknown */
    int scanned;                /* status "scanned"; else inferred */
    char *upload_time, *scanned_at, *inferred_from, *requires_python; /* or NULL */
    long long size;                                                   /* -1 when unknown */
    int sha256_verified; /* -1 when unknown, else 0 or 1 */
    int yanked;          /* 0 or 1 */
    char *yanked_reason; /* the reason when the index gave one, else NULL */
    int pooled;          /* the strings are a pool's (a view's), not this line's */
};

/* A wheel's record.  Strings are owned; NULL where the record has none. */
struct record {
    char *key;
    int scanned; /* status "scanned"; else "inferred" */
    char *url, *filename, *index_url, *variant, *variant_source;
    char *indexes;          /* ids of the indexes listing it, space-separated */
    char *index;            /* the first of them */
    struct wheel_name name; /* the parsed file name: project, versions, tags */
    char *platform;         /* platform id, "linux-x86_64" */
    char *sha256;           /* or NULL */
    int sha256_verified;    /* -1 when not said */
    long long size;         /* -1 when unknown */
    char *upload_time, *requires_python, *scanned_at, *inferred_from; /* or NULL */
    char *wheelarch_version;                                          /* or NULL */
    int yanked;                                                       /* 0 no, 1 yes */
    char *yanked_reason;                     /* when the index gave one, else NULL */
    struct recbinary_targets sass, ptx, gfx; /* the record's unions */
    char *code;     /* recbinaries_code of its binaries; NULL when none are listed */
    char *requires; /* its Requires-Dist, one per line; NULL when none was read */
    struct recbinaries binaries;
};

/* A record as its row of the database's `wheels` table holds it, and its
 * binaries' rows: what db_each_wheel hands out.  Strings are borrowed for
 * the call and NULL where the record has none. */
struct record_row {
    const char *key, *status, *project, *version, *variant, *platform;
    const char *scanned_at, *inferred_from, *index_url, *wheelarch_version;
    const char *code; /* recbinaries_code's text, or NULL */
    /* the wheel's line (struct record_wheel's fields) */
    const char *filename, *url, *sha256, *upload_time, *requires_python, *yanked_reason;
    long long size;      /* -1 when unknown */
    int sha256_verified; /* -1 when unknown, else 0 or 1 */
    int yanked;
    const char *indexes;          /* ids of the indexes listing it, space-separated */
    const char *variant_source;   /* how the variant was decided, or NULL */
    const char *sass, *ptx, *gfx; /* the record's unions, space-separated */
    const char *requires;         /* its Requires-Dist, one per line, or NULL */
    /* the binaries of a wheel with code (those crawl scanned), read and
     * checked (recbinary_wrong); NULL when it has none, or when they fail
     * the check: then binaries_wrong says why.  fn may take them (move the
     * struct's contents out and leave it zeroed). */
    struct recbinaries *binaries;
    const char *binaries_wrong;
};
/* The record of a row (r's strings are its own copies; the binaries are
 * not taken: a caller that wants them moves row->binaries in).  Returns
 * 0, or -1 when its file name or target unions do not parse (a hand edit;
 * the ids were checked before): r is then empty. */
int record_of_row(const struct record_row *row, struct record *r);

/* Checks rec as the record of key (recordcheck_validate) and makes r from
 * it (the JSON is borrowed, nothing of it kept).  Returns 0, or
 * WA_ERR_FORMAT with the check's one-line message (r is then empty).
 * Free with record_free. */
int record_of_json(const char *key, json_t *rec, struct record *r, struct wa_error *err);
void record_free(struct record *r);
/* The text a record is kept as (compact, keys sorted): what the database
 * stores beside its columns (records.record) and `db export` writes back.
 * Caller frees. */
char *record_text(json_t *rec);
/* r as the record format's JSON: what the struct holds, which
 * record_of_json reads back as the same struct (unit.test_record_trip
 * holds the two to that).  The text a record the crawl infers is kept as,
 * and what its --json line starts from.  New reference. */
json_t *record_json(const struct record *r);

/* Who a wheel is, as the crawler found it on an index: what every record
 * and every crawl line carries.  Strings are borrowed; NULL where the index
 * gave none (sha256, upload_time, requires_python, yanked). */
struct record_identity {
    const char *key, *url, *filename;
    const char *sha256; /* the index's */
    const char *upload_time, *requires_python, *yanked;
    const char *const *indexes; /* ids of the indexes listing it (at least one) */
    size_t nindexes;
    const char *index_url;
    const struct wheel_name *name; /* its parsed file name */
    const char *variant, *variant_source;
};

/* How a scanned wheel was read. */
struct record_fetch {
    int range_mode; /* by Range requests, else whole */
    unsigned long long bytes, size;
    unsigned requests;
    int sha256_checked;
};

/* Sets the identity fields on o (a record or a crawl line). */
void record_set_identity(json_t *o, const struct record_identity *id);

/* A scanned wheel's record: the scan object (taken) under the wheel's
 * identity, with how it was read and the day; checked as every record is
 * when stored.  New reference. */
json_t *record_scanned(json_t *scan, const char *scan_sha256, const struct record_identity *id,
                       const struct record_fetch *f, const char *today);

/* The record of a scanned wheel made from its scan (borrowed, as the
 * other arguments), with no JSON parsed and none made: the struct
 * record_of_json makes of record_scanned(scanreport_json(scan),
 * scan->sha256, id, f, today), field for field and binary for binary
 * (unit.test_record_scan holds the two to one meaning).  id->name must be
 * the parse of id->filename, as the crawl's is.  Each value is held on the
 * way to the rule recordcheck_validate holds it to in that JSON, since the
 * index's text and the wheel come from elsewhere: returns 0, or
 * WA_ERR_FORMAT with recordcheck_validate's message for the value (when a
 * record holds several wrong ones, the first found may differ; out is then
 * empty).  Free out with record_free. */
int record_of_scan(const struct scan_result *scan, const struct record_identity *id,
                   const struct record_fetch *f, const char *today, struct record *out,
                   struct wa_error *err);

/* The body bytes a scanned record's wheel cost to read (its "fetch"), 0
 * when it says none. */
unsigned long long record_fetch_bytes(const json_t *rec);

/* An inferred wheel's record: its identity (borrowed), the target unions
 * of the record it was inferred from (`from`, borrowed: a scanned record
 * of the same build) and that record's key; it lists no binaries (the
 * source's stand for it), its hash is the index's, unverified, and its
 * size unknown.  The identity is held to recordcheck's rules as
 * record_of_scan holds it: returns 0, or WA_ERR_FORMAT with the rule's
 * message (out is then empty).  Free out with record_free; its text is
 * record_text(record_json(out)). */
int record_of_inferred(const struct record_identity *id, const struct record *from,
                       const char *today, struct record *out, struct wa_error *err);

/* Fills w from a record, or from a line as record_wheel_json makes it:
 * filename, url, key, sha256, status, upload_time, scanned_at,
 * inferred_from, requires_python, size, sha256_verified and yanked (fields
 * of the wrong type are taken as absent).  Free with record_wheel_free. */
void record_wheel_from_json(json_t *o, struct record_wheel *w);
void record_wheel_free(struct record_wheel *w);
/* Its yanked field as PEP 691 has it: the reason, true, or null when not
 * yanked.  New reference. */
json_t *record_wheel_yanked_json(const struct record_wheel *w);
/* The line as JSON again, with the fields it has.  New reference. */
json_t *record_wheel_json(const struct record_wheel *w);

#endif
