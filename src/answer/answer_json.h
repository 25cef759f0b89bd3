/*
 * answer_json: the one JSON writer of an answer (`query --json`, the
 * shape documented in docs/answers.md, versioned by QUERY_SCHEMA_VERSION).
 */
#ifndef WHEELARCH_ANSWER_JSON_H
#define WHEELARCH_ANSWER_JSON_H

#include <jansson.h>

#include "answer.h"

/* The version of the answer's JSON shape (its "schema_version"): 2 split
 * the code from the driver and the Python (docs/answers.md).  Raised when
 * a field changes meaning or goes, not when one is added. */
#define QUERY_SCHEMA_VERSION 2

/* The answer as a new JSON object. */
json_t *answer_json(const struct answer_result *a);

/* One install ({"index", "index_url", "pin", "commands", ...}) as a new
 * object. */
json_t *answer_install_json(const struct answer_result *a, const struct answer_install *i);

/* One step of what to change ({"kind", "text", ...}) as a new object. */
json_t *answer_change_json(const struct answer_change *s);

/* {"pip", "uv"[, "pip_with_companions", "uv_with_companions"]}: new. */
json_t *answer_commands_json(const struct answer_commands *c);

#endif
