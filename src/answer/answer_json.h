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

/* The parts of an answer that its readers (the site) write on their own,
 * each a new value: PyPI's build (null when absent), one entry of
 * last_native, the source build (way_forward, null when absent), the
 * guidance (null when none). */
json_t *answer_pypi_json(const struct answer_pypi *p);
json_t *answer_native_json(const struct answer_native *n);
json_t *answer_source_build_json(const struct answer_source_build *b);
json_t *answer_guidance_json(const struct answer_guidance *g);

/* The commands of an install, as the feed and `query --json` carry them
 * (docs/answers.md): {"pip", "uv", "uv_min_version", "argv": {"pip": [[...]],
 * "uv": [[...]]}}, with the *_with_companions keys beside them when torch
 * has companions; a line is null where no command could be written.  New. */
json_t *answer_commands_json(const struct answer_commands *c);
/* One install command alone, in the same shape (no companions).  New. */
json_t *answer_installcmd_json(const struct installcmd *c);
/* A command's steps, each its argument vector: [["pip", "install", ...]].
 * New. */
json_t *answer_argv_json(const struct shellcmd *s);

#endif
