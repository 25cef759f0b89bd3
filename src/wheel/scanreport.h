/*
 * scanreport: a scan result as the public JSON object and as text.
 *
 * The JSON is a public interface (scan --json, crawl --json, database
 * records): keys "input", "wheel", "sha256", "sass", "ptx", "binaries" (each
 * with "path", "format", "sass", "ptx", "modules", "targets") and "error"
 * keep their meaning; keys may be added.  Target lists are sorted by
 * architecture number, then suffix (sm_90 < sm_90a < sm_100 < sm_100f).
 *
 * Per binary, a "module" is one fatbin container registered with the CUDA
 * runtime (about one translation unit); "modules" counts them, and each
 * target says in how many it appears.  Containers that only hold nvlink's
 * kernel-less stubs, relocatable (-rdc) containers and containers outside
 * the fatbin sections (loaded by the library itself) are counted apart.
 */
#ifndef WHEELARCH_SCANREPORT_H
#define WHEELARCH_SCANREPORT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "fatbin.h"
#include "scan.h"
#include "strbuf.h"
#include "target.h"

/* ---- what a binary's report is made of ------------------------------- */

/* The report's numbers of one binary, which its JSON and its text show and
 * the database's record of a scanned wheel (record_of_scan) reads without
 * going through the JSON: one computation, so the two cannot disagree. */

/* Per-target totals over one binary's EXEC and LIBRARY modules (a
 * binary's "targets"). */
struct scanreport_target {
    struct target t;
    size_t modules;         /* EXEC modules holding it */
    size_t library_modules; /* LIBRARY modules holding it */
    size_t entries;
    uint64_t bytes;                /* payload bytes stored, summed below 2^63 */
    uint64_t ubytes;               /* the same uncompressed */
    unsigned codecs;               /* bit per enum fatbin_codec */
    uint16_t isa_major, isa_minor; /* highest PTX ISA */
};

/* EXEC modules that hold exactly the same targets (a "module_sets" entry). */
struct scanreport_set {
    char *key; /* canonical target names in target order, joined by spaces */
    size_t count;
};

struct scanreport_summary {
    struct scanreport_target *t; /* in target order (target_cmp) */
    size_t nt, capt;
    struct target *reloc; /* targets of relocatable modules, sorted, unique */
    size_t nreloc, capreloc;
    size_t exec, library, relocatable, dlink; /* modules per class */
    size_t exec_amd;                          /* of exec: offload bundles and AMDGPU code objects */
    size_t codec_entries[FATBIN_CODEC_COUNT];
    struct scanreport_set *sets; /* most modules first, then by key */
    size_t nsets, capsets;
};

/* Sums br up into s (free with scanreport_summary_free). */
void scanreport_summarize(const struct binscan_result *br, struct scanreport_summary *s);
void scanreport_summary_free(struct scanreport_summary *s);

/* A PTX target's ISA as the report writes it, "8.8", into buf
 * (SCANREPORT_ISA_MAX bytes). */
#define SCANREPORT_ISA_MAX 16
void scanreport_isa_text(const struct scanreport_target *x, char *buf);

/* The targets a binary's first arch-flag string asks for ("declared"),
 * sorted and unique, into d (SCANREPORT_DECLARED_MAX of them); 0 when it
 * has none. */
#define SCANREPORT_DECLARED_MAX 128
size_t scanreport_declared(const struct binscan_result *br, struct target *d);

/* The line a binary's warnings end with when some were dropped
 * ("12 more warnings not shown"), into buf (SCANREPORT_DROPPED_MAX
 * bytes): 1, or 0 with buf "" when none were. */
#define SCANREPORT_DROPPED_MAX 64
int scanreport_dropped_text(const struct binscan_result *br, char *buf);

/* Text from a binary or a zip (member paths, section names, arch flags,
 * warnings, Requires-Dist) as the report holds it, in JSON and in text
 * alike: valid UTF-8 is kept, and each byte of an invalid sequence, of a
 * C0 control character or DEL, of a C1 control character
 * (U+0080..U+009F, C2 80..C2 9F: some terminals act on U+009B as on ESC
 * [), or of U+FFFE or U+FFFF (which no record may hold: recordcheck's
 * rule, as XML's) becomes the four characters "\\xNN", so the value is never lost
 * (jansson refuses invalid UTF-8) and never carries a terminal escape or
 * a line break into a record or a log.  Caller frees. */
char *scanreport_clean_text(const char *s);

/* ---- the report ------------------------------------------------------- */

/* A new JSON object for r (caller owns the reference). */
json_t *scanreport_json(const struct scan_result *r);

/* The JSON object of a parsed wheel file name (caller owns the reference). */
json_t *scanreport_wheel_json(const struct wheel_name *w);

/* The JSON object of one binary (caller owns the reference). */
json_t *scanreport_binary_json(const char *path, const struct binscan_result *br);

/* Appends the text summary of r: for a wheel a heading line and one
 * indented line per binary with GPU code; for a binary one line. */
void scanreport_text(const struct scan_result *r, struct strbuf *out);

#endif
