/*
 * recordcheck_rules: the single rules of a record's values (recordcheck.h),
 * for callers that hold one value, and how a value read from a record is
 * quoted in a message.
 */
#ifndef WHEELARCH_RECORDCHECK_RULES_H
#define WHEELARCH_RECORDCHECK_RULES_H

#include <stddef.h>

#include "error.h"
#include "recordcheck_limits.h"
#include "target.h"
#include "wheelname.h"

/* The single rules, for callers that hold one value (1 valid, 0 not). */
int recordcheck_variant_valid(const char *s);
int recordcheck_project_valid(const char *s); /* a normalized (PEP 503) name */
int recordcheck_url_valid(const char *s);
int recordcheck_date_valid(const char *s);     /* YYYY-MM-DD */
int recordcheck_datetime_valid(const char *s); /* an ISO 8601 date[-time] */
int recordcheck_tag_valid(const char *s);      /* a wheel tag, a project as written */
/* A version as a wheel file name has it; with local, "+label" allowed. */
int recordcheck_version_valid(const char *s, int local);
int recordcheck_platform_id_valid(const char *s); /* "linux-x86_64" */
int recordcheck_index_id_valid(const char *s);    /* "cu128", "simple" */
/* A wheel file name: one line of at most 255 bytes, no '/' or '\', that
 * wheelname_parse takes. */
int recordcheck_filename_valid(const char *s);

/* Free text read from elsewhere than a checked record (a column of the
 * database): valid UTF-8 of at most max bytes, without the characters
 * recordcheck refuses in free text (C0 and C1 controls, DEL, U+FFFE,
 * U+FFFF). */
int recordcheck_line_valid(const char *s, size_t max);
int recordcheck_codec_valid(const char *s); /* a codec or binary format name */
int recordcheck_isa_valid(const char *s);   /* a PTX ISA version, "8.8" */

/* ---- the rules with their messages, for values held outside JSON ---- */

/* What recordcheck_validate says of a value of a record, for a record
 * made from other values than a JSON tree (record_of_scan): each returns
 * 0, or WA_ERR_FORMAT with the message recordcheck_validate gives for the
 * same value in the same field (a path into the record, "binaries[0].path"). */

/* Text (NULL: absent, accepted): at most max bytes, one line of text
 * (recordcheck_line_valid), and what rule (when given) accepts. */
int recordcheck_check_text(const char *s, const char *field, size_t max, int (*rule)(const char *),
                           const char *what, struct wa_error *err);
/* A URL field: user info refused without being shown, then as
 * recordcheck_check_text with at most RECORDCHECK_URL_MAX bytes. */
int recordcheck_check_url(const char *s, const char *field, int (*rule)(const char *),
                          const char *what, struct wa_error *err);
/* What recordcheck says of a value no rule above fits: `field "s" is not
 * what`. */
int recordcheck_refuse(const char *field, const char *s, const char *what, struct wa_error *err);
/* A file name whose version (name, its parse) has an epoch: none is
 * stored. */
int recordcheck_check_epoch(const char *filename, const struct wheel_name *name,
                            struct wa_error *err);
/* What an index_url must be (indexurl_valid), as messages say it. */
#define RECORDCHECK_INDEX_URL_RULE                                                                 \
    "an index URL (http(s)://HOST[:PORT]/PATH/, the path of letters, digits, '/' and . _ ~ + -; "  \
    "no user info, query or fragment)"
/* An integer between 0 and max. */
int recordcheck_check_int(long long v, const char *field, long long max, struct wa_error *err);
/* A target's name as a record holds it: canonical (target_format of its
 * parse), of kind (-1: any); *out (may be NULL) the target it names. */
int recordcheck_check_target_name(const char *name, const char *field, int kind, struct target *out,
                                  struct wa_error *err);
/* The same for the name of t (target_format). */
int recordcheck_check_target(const struct target *t, const char *field, int kind,
                             struct target *out, struct wa_error *err);
/* More than RECORDCHECK_TARGETS_MAX distinct targets in one list (field)
 * or, whole_record, in the record. */
int recordcheck_too_many(const char *field, int whole_record, struct wa_error *err);

/* wa_quote for values from records and file names: C1 control characters
 * (which some terminals act on) become '?' as well.  Returns dst. */
char *recordcheck_quote(char *dst, size_t n, const char *src, size_t max_src);

#endif
