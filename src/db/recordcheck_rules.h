/*
 * recordcheck_rules: the single rules of a record's values (recordcheck.h),
 * for callers that hold one value, and how a value read from a record is
 * quoted in a message.
 */
#ifndef WHEELARCH_RECORDCHECK_RULES_H
#define WHEELARCH_RECORDCHECK_RULES_H

#include <stddef.h>

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

/* wa_quote for values from records and file names: C1 control characters
 * (which some terminals act on) become '?' as well.  Returns dst. */
char *recordcheck_quote(char *dst, size_t n, const char *src, size_t max_src);

#endif
