/*
 * recordcheck_fields: the single rules recordcheck's field checks are made
 * of (recordcheck_rules.c), and the messages they write.  Not for other
 * modules.
 */
#ifndef WHEELARCH_RECORDCHECK_FIELDS_H
#define WHEELARCH_RECORDCHECK_FIELDS_H

#include <jansson.h>
#include <stddef.h>

#include "error.h"
#include "recordcheck_limits.h"
#include "target.h"
#include "wheelname.h"
#include "strbuf.h"

#define SHOWN 80 /* bytes of a bad value quoted in a message (a whole key) */
#define COUNT_MAX ((json_int_t)RECORDCHECK_COUNT_MAX) /* modules, entries */
#define BYTES_MAX ((json_int_t)RECORDCHECK_BYTES_MAX) /* sizes in bytes */
#define TEXT_MAX RECORDCHECK_TEXT_MAX                 /* free text: warnings, arch flags */
#define SHORT_TEXT_MAX RECORDCHECK_PATH_MAX           /* member paths, yanked reasons */
#define URL_MAX RECORDCHECK_URL_MAX
#define FIELD_MAX 160 /* a field path in a message */

/* Distinct targets seen so far, in one list or in a whole record: a
 * buffer of twice the cap, compacted (sorted, duplicates dropped) whenever
 * it fills, so time and memory stay bounded however often a record repeats
 * a name.  Canonical names and parsed targets correspond one to one, so
 * distinct targets are distinct names. */
struct seen {
    struct target t[2 * RECORDCHECK_TARGETS_MAX];
    size_t n;
};

int rci_all_of(const char *s, const char *extra);
int rci_text_ok(json_t *v, size_t max);
const char *rci_type_name(json_t *v);
int rci_bad_type(struct wa_error *err, const char *field, json_t *v, const char *want);
int rci_too_long(struct wa_error *err, const char *field, json_t *v, size_t max);
int rci_bad_value(struct wa_error *err, const char *field, const char *s, const char *what);
const char *rci_str(json_t *v);
int rci_parse_filename(json_t *v, struct wheel_name *w);
int rci_filename_ok(json_t *v);
int rci_wheel_matches(json_t *w, const struct wheel_name *n, struct wa_error *err);
int rci_codec_ok(const char *s);
int rci_target_ok(const char *s, int kind, struct target *out);
int rci_seen_add(struct seen *s, const struct target *t);
int rci_seen_over(struct seen *s);
int rci_too_many(struct wa_error *err, const char *field, int whole_record);
const char *rci_target_kind_name(int kind); /* "a PTX target" */
/* The message for a URL with user info (shown redacted), else 0. */
int rci_url_userinfo(const char *s, size_t len, const char *field, struct wa_error *err);

int rci_public_version_ok(const char *s);
int rci_full_version_ok(const char *s);
int rci_tag_ok(const char *s);
int rci_platform_id_ok(const char *s);
int rci_datetime_ok(const char *s);
int rci_isa_ok(const char *s);

#endif
