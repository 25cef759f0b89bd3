/*
 * scan: the GPU code in one input — a wheel, or a single binary.
 *
 * A wheel's members are read in one forward pass (zipstream) and each member
 * that turns out to be an ELF, PE or fatbin file is fed to a binscan; the
 * file's sha256 is computed over the same pass.  The push interface
 * (scan_wheel_*) lets the crawler feed bytes straight from HTTP transfers,
 * whole bodies or ranges of single members; scan_file drives it from a local
 * file.
 *
 * Ownership: a struct scan_result is created by scan_result_new or
 * scan_file and freed with scan_result_free; everything it points to is
 * owned by it.
 */
#ifndef WHEELARCH_SCAN_H
#define WHEELARCH_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "binscan.h"
#include "error.h"
#include "sha256.h"
#include "wheelname.h"
#include "zipdir.h"

enum scan_kind {
    SCAN_KIND_UNKNOWN = 0,
    SCAN_KIND_ZIP,    /* a wheel (or another zip archive) */
    SCAN_KIND_BINARY, /* ELF, PE or raw fatbin */
};

struct scan_binary {
    char *path; /* member path inside the wheel, or the input's path */
    struct binscan *bs;
};

struct scan_result {
    char *input;        /* as named by the caller */
    int kind;           /* enum scan_kind */
    int has_wheel_name; /* `wheel` is valid */
    struct wheel_name wheel;
    char sha256[SHA256_HEX_SIZE]; /* "" when the whole file was not read */
    uint64_t size;                /* bytes of the input, when known */
    struct scan_binary *bins;     /* wheels: members holding GPU code; binaries: the input */
    size_t nbins;
    size_t capbins;
    size_t members;       /* zip members seen */
    size_t binaries_read; /* members that were ELF/PE/fatbin files */
    int has_metadata;     /* the wheel's METADATA was read: */
    char **requires;      /* its Requires-Dist values (wheelmeta) */
    size_t nrequires;
    int failed;
    struct wa_error error;
};

/* A result for input `input` (copied); caller frees. */
struct scan_result *scan_result_new(const char *input);
void scan_result_free(struct scan_result *r);
/* Forgets everything found so far (before reading the input again); keeps
 * the input name and the parsed wheel name. */
void scan_result_clear(struct scan_result *r);

/* Whether any binary of r holds GPU code (a fatbin container). */
int scan_result_has_gpu_code(const struct scan_result *r);

/* Whether a wheel member's name says it can hold GPU code (*.so, *.so.N,
 * *.dll, *.pyd, *.exe, *.fatbin, *.cubin, *.dylib, *.node).  The crawler
 * fetches only such members; local scans also look inside every other
 * member's first bytes. */
int scan_member_is_candidate(const char *name);
/* The members a scan reads: candidates, and the wheel's METADATA
 * (wheelmeta_is_member) for the distributions it requires. */
int scan_member_is_wanted(const char *name);

/* ---- push interface for zip archives ------------------------------------ */

struct scan_wheel;

/* Starts reading a zip archive into r.  entries (sorted by local header
 * offset, borrowed) may be NULL when the archive is streamed from its start
 * without its central directory.  With sniff_all, members whose names are
 * not candidates are still recognised by their first bytes. */
struct scan_wheel *scan_wheel_new(struct scan_result *r, const struct zipdir_entry *entries,
                                  size_t n, int sniff_all);
/* Inflates and CRC-checks every member, not only those that can hold GPU
 * code (zipstream_set_verify).  scan_file does this for local wheels. */
void scan_wheel_set_verify(struct scan_wheel *sw, int on);
void scan_wheel_free(struct scan_wheel *sw);
/* See zipstream_seek / zipstream_feed / zipstream_finish. */
int scan_wheel_seek(struct scan_wheel *sw, uint64_t offset, struct wa_error *err);
/* Remembers what the result holds now, for scan_wheel_restart. */
void scan_wheel_mark(struct scan_wheel *sw);
/* Reads ranged members again from offset (a transfer that was retried):
 * forgets what was counted and found since the last scan_wheel_mark, then
 * seeks there. */
int scan_wheel_restart(struct scan_wheel *sw, uint64_t offset, struct wa_error *err);
int scan_wheel_feed(struct scan_wheel *sw, const uint8_t *buf, size_t n, struct wa_error *err);
int scan_wheel_finish(struct scan_wheel *sw, int expect_all, struct wa_error *err);

/* Records the wheel file name (parsed if it is one) on r. */
void scan_result_set_name(struct scan_result *r, const char *filename);

/* ---- local files -------------------------------------------------------- */

/* Scans the file at path.  Always returns a result (caller frees); on
 * failure result->failed is set and result->error says why. */
struct scan_result *scan_file(const char *path);

/* Reads the end of a local zip file: the central directory entries.
 * Returns 0 or an error; caller frees *ents with zipdir_entries_free. */
int scan_read_zip_directory(int fd, uint64_t size, struct zipdir_entry **ents, size_t *n,
                            struct wa_error *err);

#endif
