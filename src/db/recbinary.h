/*
 * recbinary: a scanned wheel's binaries as a type.  What a record says of
 * each binary (the scan report's per-binary detail: its targets with their
 * module counts, bytes, codecs and PTX ISA, the module sets, the
 * compression, the arch-flag strings and warnings), kept by the database
 * as rows of `binaries` and `targets` and read back as the same type, so
 * that a build reads no JSON: wheel and release pages and the feed write
 * their JSON from it at the edge.
 *
 * A recbinary is made once from a checked record (recbinary_of, when the
 * record is stored) and, when read back, checked again field by field
 * (recbinary_wrong): a database edited by hand cannot put a control
 * character, a target that is not canonical or a negative count on a page.
 *
 * Lists of targets keep the record's order (the scanner's: by target
 * order); a binary's targets are in name order (strcmp), as the record's
 * object of targets is stored.
 */
#ifndef WHEELARCH_RECBINARY_H
#define WHEELARCH_RECBINARY_H

#include <jansson.h>
#include <stddef.h>

#include "error.h"
#include "scan.h"
#include "target.h"

/* A list of targets. */
struct recbinary_targets {
    struct target *v;
    size_t n;
};

/* A list of lines of text (arch flags, warnings). */
struct recbinary_lines {
    char **v;
    size_t n;
};

/* One GPU target of one binary, with what the scan counted of it.  Counts
 * are -1 when the record does not say them. */
struct recbinary_target {
    struct target t;
    long long modules, library_modules, entries, bytes, uncompressed_bytes;
    char **codecs; /* codec names ("none", "zstd"); codecs_said 0: not said */
    size_t ncodecs;
    int codecs_said;
    char isa[17]; /* the PTX ISA ("8.8"), or "" */
};

/* A set of modules that carry exactly the same targets. */
struct recbinary_set {
    long long modules; /* -1 when not said */
    struct recbinary_targets targets;
};

/* Entries per codec. */
struct recbinary_codec {
    char codec[17];
    long long entries;
};

struct recbinary {
    char *path;   /* the member's path in the wheel, never empty */
    char *format; /* "elf", "pe", "fatbin", "offload", "kpack"; NULL when not said */
    long long size, modules, dlink_modules, library_modules; /* -1 when not said */
    int bundled; /* a bundled NVIDIA library (recbinary_is_bundled) in a wheel that bundles them */
    struct recbinary_targets sass, ptx, lto, gfx; /* the binary's lists */
    struct recbinary_target *targets;             /* by name */
    size_t ntargets;
    struct recbinary_set *sets;
    size_t nsets;
    struct recbinary_codec *compression; /* by codec name */
    size_t ncompression;
    int declared; /* the record has a "declared" object (the first arch flags' targets) */
    struct recbinary_targets declared_sass, declared_ptx;
    struct recbinary_lines arch_flags, warnings;
};

/* A wheel's binaries. */
struct recbinaries {
    struct recbinary *v;
    size_t n;
    int listed; /* the record lists its binaries (a scanned wheel), even none */
};

/* ---- bundled libraries --------------------------------------------------- */

/* Whether a binary path names a bundled third-party CUDA library (cuDNN,
 * cuBLAS, NCCL, ...): its kernels serve other GPUs than the project's. */
int recbinary_is_bundled(const char *path);
/* Whether a project (normalised) is one of NVIDIA's library wheels
 * (nvidia-cudnn-cu12, nvidia-cublas, ...): the libraries recbinary_is_bundled
 * names are its own code there. */
int recbinary_is_library_project(const char *project);
/* Whether a record's wheel bundles such libraries, i.e. is not one of
 * NVIDIA's library wheels.  Callers test recbinary_is_bundled only when this
 * holds. */
int recbinary_bundles_libraries(json_t *rec);

/* ---- a record's binaries ------------------------------------------------- */

/* The binaries of a record that passed recordcheck_validate (borrowed),
 * in the record's order; fields of the wrong type are taken as not said. */
void recbinaries_of(json_t *rec, struct recbinaries *out);
/* The binaries of a scanned wheel's record made from its scan (borrowed),
 * with no JSON: what recbinaries_of reads from the "binaries" of
 * scanreport_json(scan), field for field; bundles as
 * recbinary_bundles_libraries says of the wheel.  Each value is held to
 * the rule recordcheck_validate holds it to there (a scan reads a file
 * from elsewhere: a path too long, a count or ISA out of range, more than
 * RECORDCHECK_TARGETS_MAX targets).  Returns 0, or WA_ERR_FORMAT with the
 * message recordcheck_validate gives (out is then empty).  Free out with
 * recbinaries_free. */
int recbinaries_of_scan(const struct scan_result *scan, int bundles, struct recbinaries *out,
                        struct wa_error *err);
void recbinaries_free(struct recbinaries *b);
/* A deep copy of a into b. */
void recbinary_copy(const struct recbinary *a, struct recbinary *b);

/* The project's own GPU code of a wheel's binaries, as the database's code
 * column holds it: the module sets of every binary that is its own
 * (recbinary_is_own), in order, separated by ';', each "MODULES
 * TARGET..." (a count not said, or 0, is 1); then, when a PTX target
 * names its ISA, '|' and "TARGET=ISA" pairs separated by spaces:
 * "1 sm_80 sm_86;2 sm_90a compute_90|compute_90=8.8".  Caller frees; NULL
 * when b is not listed (a compact inferred record). */
char *recbinaries_code(const struct recbinaries *b);

/* Why a binary read back from the database cannot be shown, or NULL: the
 * rules recordcheck applies to a record's binaries, field by field. */
const char *recbinary_wrong(const struct recbinary *b);

/* Whether the binary is the project's own GPU code: not a bundled library,
 * and at least one module set.  These are the binaries a row of the view
 * shows on its release page. */
int recbinary_is_own(const struct recbinary *b);

/* ---- the text forms of the database's columns --------------------------- */

/* The targets of a checked JSON list of target names (names that do not
 * parse are left out; NULL or not a list: none).  Free l->v. */
void recbinary_targets_of(json_t *list, struct recbinary_targets *l);
/* Canonical names separated by single spaces ("" for none).  Caller frees. */
char *recbinary_targets_text(const struct recbinary_targets *l);
/* Parses such a text (NULL gives an empty list).  Returns 0, or -1 when a
 * name is not a canonical target of kind (kind < 0: any kind). */
int recbinary_targets_parse(const char *s, int kind, struct recbinary_targets *out);
/* Lines, each ended by '\n' (lines hold no control characters): "" is no
 * line, "\n" one empty line.  Caller frees. */
char *recbinary_lines_text(const struct recbinary_lines *l);
/* Splits such a text (NULL gives no lines). */
void recbinary_lines_parse(const char *s, struct recbinary_lines *out);
/* Module sets as "MODULES TARGET...;..." ("-" for modules not said). */
char *recbinary_sets_text(const struct recbinary *b);
int recbinary_sets_parse(const char *s, struct recbinary *b);
/* Compression as "CODEC=ENTRIES ...". */
char *recbinary_compression_text(const struct recbinary *b);
int recbinary_compression_parse(const char *s, struct recbinary *b);
/* A target's codecs as names separated by spaces; NULL when not said. */
char *recbinary_codecs_text(const struct recbinary_target *t);
int recbinary_codecs_parse(const char *s, struct recbinary_target *t);

/* ---- JSON, at the edges -------------------------------------------------- */

/* A list of targets as an array of names.  New reference. */
json_t *recbinary_targets_json(const struct recbinary_targets *l);
/* A target's counts, codecs and ISA as the record has them (keys in
 * sorted order, those not said left out).  New reference. */
json_t *recbinary_target_json(const struct recbinary_target *t);
/* A wheel's binaries as a record's "binaries" list, which recbinaries_of
 * reads back as the same binaries (what a record says of each; bundled is
 * the reader's to decide).  New reference. */
json_t *recbinaries_json(const struct recbinaries *b);

#endif
