/*
 * tmpl_state: a compiled template, shared by the files of tmpl.  Not for
 * other modules.  They call downwards only, in this order:
 *   tmpl.c          rendering a template with JSON or typed data
 *   tmpl_set.c      a set of templates loaded by name, partials linked
 *   tmpl_compile.c  Mustache text compiled into nodes
 * (each with its own header; tmpl.h gathers them)
 */
#ifndef WHEELARCH_TMPL_STATE_H
#define WHEELARCH_TMPL_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "strbuf.h"

struct tmpl_set;

#define DELIM_MAX 16  /* bytes of a custom delimiter */
#define NAME_SHOWN 80 /* bytes of a name quoted in a message */

enum node_type { N_TEXT, N_VAR, N_RAW, N_SECTION, N_INVERTED, N_PARTIAL };

struct node {
    unsigned char type;
    unsigned char standalone;   /* N_PARTIAL alone on its line: indent it */
    unsigned nseg;              /* names: segments, 0 for "." */
    unsigned line, col;         /* of the tag, for messages */
    size_t off, len;            /* N_TEXT: the text; N_PARTIAL: its indentation;
                                 * names: len is the length of the first segment */
    size_t name;                /* pool offset of the name */
    size_t end;                 /* sections: index of the first node after it */
    const struct tmpl *partial; /* N_PARTIAL of a set's template, once linked */
};

struct tmpl {
    struct node *nodes;
    size_t n, cap;
    struct strbuf pool;
};

/* Where a partial is referenced from, for "cannot load" messages. */
struct ref {
    unsigned line, col;
    const char *from; /* the referencing partial's name, NULL for the top template */
};

int tmpli_shown(size_t len);
int tmpli_syntax(struct wa_error *err, int code, unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The budget of a render through s (the defaults when s is NULL). */
/* A set's trace (tmpl_set_trace's fn and ud) and the name the set gives
 * the template rendered ("" when none); fn NULL when there is none. */
struct tmpli_trace {
    void (*fn)(void *ud, const char *template_name, const char *name, int found);
    void *ud;
    const char *top_name;
};
void tmpli_set_trace_of(const struct tmpl_set *s, const struct tmpl *t, struct tmpli_trace *out);
void tmpli_set_budget(const struct tmpl_set *s, size_t *max_output, unsigned long *max_steps);
int tmpli_set_get(struct tmpl_set *s, const char *name, const struct ref *ref,
                  const struct tmpl **out, struct wa_error *err);

#endif
