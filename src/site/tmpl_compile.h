/*
 * tmpl_compile: Mustache text compiled once into a template (tmpl.h says
 * what the language is), and how big and deep a template may be.
 */
#ifndef WHEELARCH_TMPL_COMPILE_H
#define WHEELARCH_TMPL_COMPILE_H

#include <stddef.h>

#include "error.h"

#define TMPL_MAX_NESTING 100      /* sections inside sections within one template */
#define TMPL_MAX_SIZE (64u << 20) /* bytes of template text */

struct tmpl; /* a compiled template */

/* Compiles text[0..len).  On success *out is a new template the caller
 * frees with tmpl_free.  Partial references are resolved when rendering,
 * through the set passed to tmpl_render.  Returns 0, WA_ERR_FORMAT (syntax;
 * the message has line and column) or WA_ERR_LIMIT. */
int tmpl_compile(const char *text, size_t len, struct tmpl **out, struct wa_error *err);

/* Frees a template from tmpl_compile; NULL does nothing.  Never pass a
 * template that belongs to a set. */
void tmpl_free(struct tmpl *t);

#endif
