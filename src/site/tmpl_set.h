/*
 * tmpl_set: templates and partials loaded by name through a loader,
 * compiled once (tmpl_compile.h) and linked, and the budget of each
 * render through the set (tmpl.h renders).
 */
#ifndef WHEELARCH_TMPL_SET_H
#define WHEELARCH_TMPL_SET_H

#include <stddef.h>

#include "error.h"

/* Render budget defaults: output bytes and work steps (nodes visited and
 * names looked up) per tmpl_render call. */
#define TMPL_DEFAULT_MAX_OUTPUT ((size_t)256 << 20)
#define TMPL_DEFAULT_MAX_STEPS 100000000ul

struct tmpl;     /* a compiled template */
struct tmpl_set; /* templates and partials sharing a loader and a cache */

/* Supplies the text of the template or partial `name`.  Returns 0 with
 * *text a malloc'd buffer (the set frees it) of *len bytes, or a negative
 * WA_ERR_* code (-1 is WA_ERR_IO) when there is no such template. */
typedef int (*tmpl_loader)(void *ud, const char *name, char **text, size_t *len);

/* A new empty set whose templates come from loader(ud, name, ...); ud is
 * borrowed and must outlive the set.  Caller frees with tmpl_set_free. */
struct tmpl_set *tmpl_set_new(tmpl_loader loader, void *ud);

/* Frees the set and every template it holds; NULL does nothing. */
void tmpl_set_free(struct tmpl_set *s);

/* Sets the budget of each render through s: at most max_output bytes of
 * output and max_steps steps of work; 0 means the default.  Renders
 * without a set use the defaults. */
void tmpl_set_limits(struct tmpl_set *s, size_t max_output, unsigned long max_steps);

/* Calls fn(ud, template, name, found) for every name a render through s
 * looks up: the template or partial it is written in (as the set names
 * it; "" for a template that is not the set's), the name with its dots,
 * and whether a context had it.  For tests that hold templates to their
 * data (which names no page's data answers); NULL: none.  A render calls
 * it on its own thread. */
typedef void (*tmpl_lookup_fn)(void *ud, const char *template_name, const char *name, int found);
void tmpl_set_trace(struct tmpl_set *s, tmpl_lookup_fn fn, void *ud);

/* The template `name`, loaded and compiled on first use with every partial
 * it refers to (transitively), then cached.  *out belongs to the set.  On
 * failure nothing new stays cached, so a later call tries again.  Returns
 * 0, the loader's code for a template or partial that cannot be loaded
 * (with the position of the partial tag), or tmpl_compile's errors. */
int tmpl_set_get(struct tmpl_set *s, const char *name, const struct tmpl **out,
                 struct wa_error *err);

#endif
