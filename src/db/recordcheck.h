/*
 * recordcheck: the rules a database record must follow before any page,
 * feed or command uses it.
 *
 * Records are untrusted: shard databases merge by copying record files, so
 * a record may come from another machine, an older or newer wheelarch, or
 * a hand edit.  recordcheck_validate checks the type of every field the
 * view, the site and `query` read, and the grammar of those that become
 * paths, ids, URLs, CSV cells or table keys:
 *
 *   key            the file's key (wheelkey_valid), equal in the record
 *   status         "scanned" or "inferred"
 *   variant        cpu, xpu, cuNN[N], rocmX.Y[.Z], or a plain index id
 *                  ([A-Za-z0-9][A-Za-z0-9._+-]*, the fallback crawl uses)
 *                  that does not start like a CUDA or ROCm id
 *   wheel          project ([A-Za-z0-9._]), normalized_name (PEP 503:
 *                  [a-z0-9] runs joined by single '-', the normalisation
 *                  of project), version and public_version (PEP 440 as
 *                  wheelname accepts it, starting with a digit), tags
 *                  ([A-Za-z0-9._]), platform_id ([a-z][a-z0-9_-]*)
 *   filename       a wheel file name (wheelname_parse), no '/' or '\'
 *   url, index_url http(s), a host, no whitespace or control characters,
 *                  no '#' (the crawler stores URLs without fragments, and
 *                  the simple indexes add "#sha256=")
 *   sha256 ...     64 hex digits (wheelkey_sha256_valid) or null
 *   inferred_from  a record key or null
 *   scanned_at     YYYY-MM-DD; upload_time an ISO 8601 date[-time]
 *   targets        canonical names (target_format(target_parse(s)) == s)
 *                  of the right kind: sm_XY[a|f], compute_XY, lto_XY,
 *                  gfxNNN[:sramecc±][:xnack±], gfxN[-M]-generic; at most
 *                  RECORDCHECK_TARGETS_MAX distinct per list and per record
 *   integers       non-negative, counts below 2^31, sizes below 2^53
 *   free text      (member paths, yanked reasons, requires-python, arch
 *                  flags, warnings) bounded, without control characters
 *
 * Fields nothing reads (fetch, sections, error, ...) are not checked.
 */
#ifndef WHEELARCH_RECORDCHECK_H
#define WHEELARCH_RECORDCHECK_H

#include <jansson.h>
#include <stddef.h>

#include "error.h"

/* The most distinct GPU targets a record may name, in one list and in
 * all its lists together.  A real binary has fewer than 100 (libtorch_cuda
 * about 20; every CUDA and AMD architecture made so far is about 150), so
 * 512 leaves room for years of new ones, while it bounds the work per
 * target that the view and the pages do: a 297 KB wheel of 65,000
 * PTX-only fatbin containers gave a 24 MB record naming 65,000 targets,
 * which took `build` minutes. */
#define RECORDCHECK_TARGETS_MAX 512

/* The most JSON values (objects, arrays, strings, numbers, literals) a
 * record's text may hold: a real wheel's record holds a few thousand, and
 * a parsed value costs about a hundred bytes, so this bounds the memory a
 * record from elsewhere may take before it is checked (20 million empty
 * objects in a 60 MB line took 4.6 GB). */
#define RECORDCHECK_VALUES_MAX 1000000

/* Checks the text of a record before it is parsed: at most
 * RECORDCHECK_VALUES_MAX values.  Returns 0 or WA_ERR_FORMAT. */
int recordcheck_text(const char *text, size_t len, struct wa_error *err);

/* Checks rec, read from the file of `key` (its name without ".json").
 * Borrows both.  Returns 0, or WA_ERR_FORMAT with a one-line message that
 * names the field and what is wrong with it, values quoted and cut short:
 * `variant "rocm6<b>INJ</b>" is not a variant id`,
 * `binaries[0].targets: "sm_9x" is not a target name`. */
int recordcheck_validate(const char *key, json_t *rec, struct wa_error *err);

/* The single rules, for callers that hold one value (1 valid, 0 not). */
int recordcheck_variant_valid(const char *s);
int recordcheck_project_valid(const char *s); /* a normalized (PEP 503) name */
int recordcheck_url_valid(const char *s);
int recordcheck_date_valid(const char *s); /* YYYY-MM-DD */

/* Free text read from elsewhere than a checked record (a column of the
 * database): valid UTF-8 of at most max bytes, without the characters
 * recordcheck refuses in free text (C0 and C1 controls, DEL, U+FFFE,
 * U+FFFF). */
int recordcheck_line_valid(const char *s, size_t max);
int recordcheck_codec_valid(const char *s); /* a codec or binary format name */
int recordcheck_isa_valid(const char *s);   /* a PTX ISA version, "8.8" */

/* The longest member path, and the longest arch-flag string or warning. */
#define RECORDCHECK_PATH_MAX 4096
#define RECORDCHECK_TEXT_MAX 65536

/* wa_quote for values from records and file names: C1 control characters
 * (which some terminals act on) become '?' as well.  Returns dst. */
char *recordcheck_quote(char *dst, size_t n, const char *src, size_t max_src);

#endif
