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
 *
 * recordcheck.h is the whole of it: the checks of a record here, its
 * limits (recordcheck_limits.h) and the single rules of its values
 * (recordcheck_rules.h).
 */
#ifndef WHEELARCH_RECORDCHECK_H
#define WHEELARCH_RECORDCHECK_H

#include <jansson.h>
#include <stddef.h>

#include "error.h"
#include "recordcheck_limits.h"
#include "recordcheck_rules.h"

/* Checks the text of a record before it is parsed: at most
 * RECORDCHECK_VALUES_MAX values.  Returns 0 or WA_ERR_FORMAT. */
int recordcheck_text(const char *text, size_t len, struct wa_error *err);

/* Checks rec, read from the file of `key` (its name without ".json").
 * Borrows both.  Returns 0, or WA_ERR_FORMAT with a one-line message that
 * names the field and what is wrong with it, values quoted and cut short:
 * `variant "rocm6<b>INJ</b>" is not a variant id`,
 * `binaries[0].targets: "sm_9x" is not a target name`. */
int recordcheck_validate(const char *key, json_t *rec, struct wa_error *err);

#endif
