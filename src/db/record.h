/*
 * record: what the database stores about one wheel, and the columns the
 * database derives from it.
 *
 * A record is a JSON object (the `scan --json` object of the wheel under
 * the wheel's identity, or, for a wheel that was not read, its identity,
 * the unions of the wheel it was inferred from and that wheel's key); its
 * fields and their grammar are recordcheck's.  record_columns checks a
 * record once and derives what `query`, `build` and the database's
 * indexes read without parsing the whole record again: the identity, the
 * wheel's line in the view (struct record_wheel), and the project's own GPU
 * code in a compact form (bundled NVIDIA libraries left out, see
 * recbinary_is_bundled).
 */
#ifndef WHEELARCH_RECORD_H
#define WHEELARCH_RECORD_H

#include <jansson.h>

#include "error.h"
#include "recbinary.h"
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

struct record_columns {
    /* Borrowed from the record (valid while it lives); NULL when absent. */
    const char *key;
    const char *status;  /* "scanned" or "inferred" */
    const char *project; /* normalized name */
    const char *version; /* public version */
    const char *variant;
    const char *platform; /* platform id */
    const char *filename;
    const char *url;
    const char *sha256;
    const char *upload_time;
    const char *scanned_at;
    const char *inferred_from;
    const char *index_url;
    const char *wheelarch_version;
    const char *name;           /* the project as the file name writes it */
    const char *local;          /* the local label, or NULL */
    const char *variant_source; /* how the variant was decided */
    const char *python_tag, *abi_tag, *platform_tag;
    /* Owned. */
    char *indexes; /* ids of the indexes listing it, space-separated */
    char *sass;    /* the record's target unions, space-separated ("" if none) */
    char *ptx;
    char *gfx;
    char *code;               /* record_code, or NULL (no binaries listed) */
    char *requires;           /* requires_dist, one per line, or NULL (none read) */
    struct record_wheel line; /* the wheel's line (record_wheel_of) */
};

/* Checks rec (recordcheck_validate against key) and fills c.  Returns 0,
 * or WA_ERR_FORMAT with recordcheck's one-line message. */
int record_columns_of(const char *key, json_t *rec, struct record_columns *c, struct wa_error *err);
void record_columns_free(struct record_columns *c);

/* A scanned wheel as a build reads it back from the database's columns and
 * rows (dbview): its identity and provenance, its target unions and its
 * binaries, typed.  No JSON: the record's text is not read. */
struct record {
    char *key;
    int scanned; /* status "scanned"; else "inferred" */
    char *url, *filename, *index, *index_url, *variant, *variant_source;
    struct wheel_name name; /* the parsed file name: project, versions, tags */
    char *platform;         /* platform id, "linux-x86_64" */
    char *sha256;           /* or NULL */
    int sha256_verified;    /* -1 when not said */
    long long size;         /* -1 when unknown */
    char *upload_time, *requires_python, *scanned_at, *inferred_from; /* or NULL */
    char *wheelarch_version;                                          /* or NULL */
    int yanked;                                                       /* 0 no, 1 yes */
    char *yanked_reason;                /* when the index gave one, else NULL */
    struct recbinary_targets sass, ptx; /* the record's unions */
    struct recbinaries binaries;
};

void record_free(struct record *r);

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

/* An inferred wheel's record: its identity, the target unions of the
 * record it was inferred from (`from`, borrowed) and that record's key;
 * the per-binary detail stays in the source record only.  New reference. */
json_t *record_inferred(const struct record_identity *id, json_t *from, const char *today);

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

/* The project's own GPU code in a record, as the database's code column
 * holds it: the module sets of every binary that is not a bundled library,
 * in the order the record lists them, separated by ';', each "MODULES
 * TARGET..."; then, when a PTX target names its ISA, '|' and "TARGET=ISA"
 * pairs separated by spaces: "1 sm_80 sm_86;2 sm_90a compute_90|compute_90=8.8".
 * Targets are canonical names (those that do not parse are left out).
 * Caller frees; NULL when the record lists no binaries (a compact inferred
 * record). */
char *record_code(json_t *rec);

#endif
