/*
 * dbview_json: a view row as the feeds write it (JSON), its PTX ISAs and
 * the file its declared source names.
 */
#ifndef WHEELARCH_DBVIEW_JSON_H
#define WHEELARCH_DBVIEW_JSON_H

#include <jansson.h>

#include "compat.h"
#include "dbview_types.h"

/* The row as JSON (caller owns the reference): the feed's row format,
 * without its wheels (record_wheel_json of each, as the caller wants them)
 * and binaries (release pages read them typed: sitedata_release). */
json_t *dbview_row_json(const struct dbview *v, const struct dbview_row *r);
/* The row's differences as a JSON array of strings (new reference). */
json_t *dbview_row_differences(const struct dbview_row *r);

/* A PTX target's name and its ISA as the feeds write it ("compute_90",
 * "8.8"): name has room for TARGET_NAME_MAX bytes, isa for 16. */
void dbview_isa_format(const struct compat_code_isa *x, char *name, char *isa);
/* The PTX ISAs of code as the feeds write them: {"compute_90": "8.8"}. */
json_t *dbview_isa_json(const struct compat_code *code);

/* {"linux": "580", "windows": "580", "windows-arm64": "615"}: the driver a
 * build of CUDA cuda (n >= 1) needs per OS through minor-version
 * compatibility, the OSes the table knows a floor for; new reference. */
json_t *dbview_min_driver_json(const struct tables *t, const struct dotver *cuda);

/* The file a declared row's source names, for people: {"text": "pytorch/pytorch
 * .ci/manywheel/build_cuda.sh at v2.8.0", "url": "https://github.com/..."}
 * (url null when no commit, tag or branch is named), or JSON null when the
 * source names no file.  New reference. */
json_t *dbview_citation(const char *source);
/* The same, typed: 1 with c->text and c->url (NULL when no commit, tag or
 * branch is named) set, both the caller's to free; 0 when the source names
 * no file. */
struct dbview_citation {
    char *text;
    char *url;
};
int dbview_citation_parse(const char *source, struct dbview_citation *c);

#endif
