/*
 * tmpl: a logic-less template engine, the Mustache subset the site needs,
 * rendering typed data (struct tmpl_type): the engine has one data model
 * and knows no JSON (tmpl_json.h reads jansson values through a type).
 *
 * Supported: {{name}} (HTML-escaped), {{{name}}} and {{& name}} (raw),
 * dotted names and {{.}}, sections {{#name}}...{{/name}}, inverted sections
 * {{^name}}...{{/name}}, comments {{! ... }}, partials {{> name}} (with the
 * indentation of standalone partials), set delimiters {{=<% %>=}}, and the
 * spec's standalone-line rules.  Not supported: lambdas, inheritance,
 * dynamic partial names.  Differences from the spec, on purpose: a partial
 * that cannot be loaded is an error (the spec renders it empty), and
 * interpolating an object or an array is an error (the spec leaves it to
 * the language).
 *
 * Values: strings as they are; integers in decimal; reals in the shortest
 * form that reads back the same (1.5, not 1.50000); true and false as
 * "true" and "false"; null and missing names as nothing.  Sections skip
 * false, null, missing names and empty arrays; they repeat for each item of
 * an array and render once for anything else ("" and 0 included), with the
 * value pushed on the context stack.
 *
 * A template is compiled once into a flat node array and rendered many
 * times without re-parsing.  A tmpl_set loads templates and partials by name
 * through a loader callback, compiles each once and links partial
 * references to the compiled partials.  Rendering is bounded: partials nest
 * at most TMPL_MAX_PARTIAL_DEPTH deep and a render has an output and a work
 * budget (tmpl_set_limits), so a recursive partial or a template that
 * multiplies nested lists is an error, never a crash or a hang.
 *
 * Errors carry the position in the template, "line 12 column 5: section
 * 'rows' is never closed" (columns count characters, from 1), prefixed with
 * "partial 'name': " when the problem is inside a partial.  The name of the
 * template asked for is left to the caller, as error.h asks.
 *
 * Ownership: tmpl_compile's template belongs to the caller (tmpl_free);
 * templates returned by tmpl_set_get belong to the set and live until
 * tmpl_set_free.  Rendering borrows the data and never keeps it.  A set
 * is not thread-safe (rendering may load partials into its cache); use one
 * set per thread.
 *
 * tmpl.h is the whole of it: rendering here, compiling in tmpl_compile.h,
 * sets of templates in tmpl_set.h.
 */
#ifndef WHEELARCH_TMPL_H
#define WHEELARCH_TMPL_H

#include <stddef.h>

#include "error.h"
#include "strbuf.h"
#include "tmpl_compile.h"
#include "tmpl_set.h"

#define TMPL_MAX_PARTIAL_DEPTH 64 /* partials inside partials, recursion included */

struct tmpl_set; /* templates and partials sharing a loader and a cache */

/* ---- typed data ----------------------------------------------------------
 * Templates read typed data: a page hands its own structs through a
 * struct tmpl_type, whose functions give a field of an object or an item
 * of an array as a struct tmpl_value, so the page's data is never built
 * as a tree (tmpl_render_values). */

enum tmpl_kind {
    TMPL_MISSING, /* no such name: the lookup goes on down the stack */
    TMPL_NULL,
    TMPL_FALSE,
    TMPL_TRUE,
    TMPL_STRING,
    TMPL_INT,
    TMPL_REAL,
    TMPL_OBJECT,
    TMPL_ARRAY,
};

struct tmpl_value;

/* How a table row without a getter reads its field: a member of the
 * object's own struct (v->p), by its C type. */
enum tmpl_member {
    TMPL_MEMBER_STR = 1, /* char * or const char * (NULL: null) */
    TMPL_MEMBER_CHARS,   /* a char array holding a string */
    TMPL_MEMBER_BOOL,    /* int: true when not 0 */
    TMPL_MEMBER_INT,     /* int */
    TMPL_MEMBER_LLONG,   /* long long */
    TMPL_MEMBER_SIZE,    /* size_t */
};

/* An object's field declared as a table row: its name and either how to
 * get it from v into *out (left TMPL_MISSING when v has none now) or, get
 * NULL, the member of v's struct it is (member, offset).  Rows are made
 * with the macros below, which check the member's C type when compiled. */
struct tmpl_field {
    const char *name;
    void (*get)(const struct tmpl_value *v, struct tmpl_value *out);
    int member; /* enum tmpl_member, when get is NULL */
    size_t offset;
};

/* A computed field: fn(v, out). */
#define TMPL_GET(name, fn)                                                                         \
    {                                                                                              \
        name, fn, 0, 0                                                                             \
    }
/* Member m of struct type T (the object's p points to a T), of the C type
 * each names: a compile error where m is of another type (checked on &m,
 * so a pointer and an array are told apart).  TMPL_CHARS takes a char
 * array of any size but that of a pointer (give a char[8] a getter). */
#define TMPLI_MEMBER(name, kind, T, m, check)                                                      \
    {                                                                                              \
        name, NULL, kind, offsetof(T, m) + 0 * sizeof(check)                                       \
    }
#define TMPL_STR(name, T, m)                                                                       \
    TMPLI_MEMBER(name, TMPL_MEMBER_STR, T, m,                                                      \
                 _Generic(&((T *)0)->m, char ** : 1, const char ** : 1, char *const * : 1,         \
                          const char *const * : 1))
#define TMPL_CHARS(name, T, m)                                                                     \
    TMPLI_MEMBER(name, TMPL_MEMBER_CHARS, T, m,                                                    \
                 char[_Generic(((T *)0)->m, char * : 1) *                                          \
                      (sizeof(((T *)0)->m) != sizeof(char *) ? 1 : -1)])
#define TMPL_BOOL(name, T, m)                                                                      \
    TMPLI_MEMBER(name, TMPL_MEMBER_BOOL, T, m, _Generic(&((T *)0)->m, int * : 1))
#define TMPL_INT(name, T, m)                                                                       \
    TMPLI_MEMBER(name, TMPL_MEMBER_INT, T, m, _Generic(&((T *)0)->m, int * : 1))
#define TMPL_LLONG(name, T, m)                                                                     \
    TMPLI_MEMBER(name, TMPL_MEMBER_LLONG, T, m, _Generic(&((T *)0)->m, long long * : 1))
#define TMPL_SIZE(name, T, m)                                                                      \
    TMPLI_MEMBER(name, TMPL_MEMBER_SIZE, T, m, _Generic(&((T *)0)->m, size_t * : 1))

struct tmpl_type {
    /* Objects: the field `name` (len bytes, NUL-terminated) of v into
     * *out (TMPL_MISSING when v has no such field). */
    void (*get)(const struct tmpl_value *v, const char *name, size_t len, struct tmpl_value *out);
    /* Arrays: how many items v has, and item i into *out. */
    size_t (*len)(const struct tmpl_value *v);
    void (*at)(const struct tmpl_value *v, size_t i, struct tmpl_value *out);
    /* Objects whose fields are a table (TMPL_FIELDS): the rows, in any
     * order, the first of a name counting; get is then NULL.  The type's
     * schema reads as its table. */
    const struct tmpl_field *fields;
    size_t nfields;
};

/* An object type declared by its field table. */
#define TMPL_FIELDS(table)                                                                         \
    {                                                                                              \
        NULL, NULL, NULL, table, sizeof table / sizeof *table                                      \
    }

/* One value.  Strings are borrowed: they must live as long as the render
 * (NULL s: the text is in buf, for a short one made on the fly). */
struct tmpl_value {
    int kind;                     /* enum tmpl_kind */
    const struct tmpl_type *type; /* objects and arrays: how to read p */
    const void *p;                /* objects and arrays */
    size_t at;                    /* for the type's use (an item's place) */
    const char *s;                /* TMPL_STRING: the text, n bytes */
    size_t n;
    long long i; /* TMPL_INT */
    double d;    /* TMPL_REAL */
    char buf[48];
};

/* Values of each kind.  tmpl_value_str borrows s (NULL: null);
 * tmpl_value_strf formats into the value's own buffer (cut to its size). */
void tmpl_value_str(const char *s, struct tmpl_value *out);
void tmpl_value_strf(struct tmpl_value *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void tmpl_value_int(long long i, struct tmpl_value *out);
void tmpl_value_bool(int b, struct tmpl_value *out);
void tmpl_value_typed(int kind, const struct tmpl_type *type, const void *p, size_t at,
                      struct tmpl_value *out);

/* The field `name` of v as a render reads it (through v's type: its get
 * or its field table), TMPL_MISSING when v is no object or has no such
 * field; and how many items v has (0 when it is no array).  For code
 * that walks page data outside a render (tests). */
void tmpl_value_field(const struct tmpl_value *v, const char *name, struct tmpl_value *out);
size_t tmpl_value_items(const struct tmpl_value *v);

/* Renders t with the context stack ctx[0..n) (ctx[n - 1] on top: names
 * are looked up from the top down), appending to out.  Partials come from
 * s, which may be NULL when t has no partial tags; templates from
 * tmpl_set_get use the partials of their own set.  On failure out is left
 * as it was.  Returns 0, WA_ERR_FORMAT (an object or array interpolated),
 * WA_ERR_LIMIT (partial depth or render budget), WA_ERR_USAGE (a partial
 * without a set) or a loader's code for a partial that cannot be loaded. */
int tmpl_render_values(struct tmpl_set *s, const struct tmpl *t, const struct tmpl_value *ctx,
                       size_t n, struct strbuf *out, struct wa_error *err);

/* Appends s[0..n) to out with & < > " ' as &amp; &lt; &gt; &quot; &#39;. */
void tmpl_html_escape(struct strbuf *out, const char *s, size_t n);

/* A tmpl_loader reading `<dir>/<name>.mustache`, dir being a const char *.
 * Refuses (WA_ERR_USAGE) empty names and names containing '/', '\\' or
 * "..".  Returns 0, WA_ERR_IO (missing or unreadable) or WA_ERR_LIMIT (a
 * file over TMPL_MAX_SIZE). */
int tmpl_dir_loader(void *dir, const char *name, char **text, size_t *len);

#endif
