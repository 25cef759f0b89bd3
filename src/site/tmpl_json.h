/*
 * tmpl_json: jansson values as template data, through a struct tmpl_type
 * (tmpl.h): objects by key, arrays by index, strings, integers, reals,
 * true, false and null as themselves.  The site renders no tree (its pages'
 * data is typed); the Mustache spec's tests and the template fuzzer render
 * JSON documents through it.  Borrows the values.
 */
#ifndef WHEELARCH_TMPL_JSON_H
#define WHEELARCH_TMPL_JSON_H

#include <jansson.h>

#include "error.h"
#include "strbuf.h"
#include "tmpl.h"

/* j as a template value (NULL: missing). */
void tmpl_json_value(json_t *j, struct tmpl_value *out);

/* tmpl_render_values with `data` as the only context (none when NULL). */
int tmpl_json_render(struct tmpl_set *s, const struct tmpl *t, json_t *data, struct strbuf *out,
                     struct wa_error *err);

/* tmpl_set_get followed by tmpl_json_render. */
int tmpl_json_render_name(struct tmpl_set *s, const char *name, json_t *data, struct strbuf *out,
                          struct wa_error *err);

#endif
