/*
 * tmpl: Mustache-subset templates over jansson data or typed data.
 *
 * Compiling makes one pass over the text and produces a flat array of
 * nodes.  A section node records the index just past its last child, so
 * rendering walks ranges of that array and recurses only into sections and
 * partials (both bounded).  Standalone lines are resolved at compile time;
 * only the indentation of standalone partials is applied while rendering,
 * lazily, before the first output of each line of the partial's own text,
 * as if its source had been indented (the spec's reference implementation
 * does exactly that).  Text, names and indentation live in one pool per
 * template; a name is stored as its dot-separated segments, each
 * NUL-terminated, ready for a tmpl_type's get.
 */
#include "tmpl.h"
#include "tmpl_state.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "xalloc.h"

/* ---- rendering ---- */

struct render {
    struct tmpl_set *set;
    struct strbuf *out;
    size_t out_start, max_output, out_limit; /* out_limit = out_start + max_output */
    unsigned long steps, max_steps;
    struct tmpl_value *ctx; /* the context stack (values borrow their data) */
    size_t nctx, ctx_cap;
    struct strbuf indent;     /* indentation of every active partial frame */
    size_t ind_off, ind_len;  /* this frame's indentation in `indent` */
    int pending;              /* this frame is at a line start, not yet indented */
    const char *partial;      /* this frame's partial name, NULL at the top */
    struct tmpli_trace trace; /* tmpl_set_trace's (fn NULL: none) */
    unsigned depth;
    struct wa_error *err;
};

static int render_error(struct render *r, const struct node *n, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int render_error(struct render *r, const struct node *n, int code, const char *fmt, ...)
{
    char msg[WA_ERROR_MSG_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->partial)
        return wa_error_set(r->err, code, "partial '%.*s': line %u column %u: %s",
                            tmpli_shown(strlen(r->partial)), r->partial, n->line, n->col, msg);
    return wa_error_set(r->err, code, "line %u column %u: %s", n->line, n->col, msg);
}

static int over_budget(struct render *r, const struct node *n)
{
    if (r->steps > r->max_steps)
        return render_error(r, n, WA_ERR_LIMIT, "render budget of %lu steps exceeded",
                            r->max_steps);
    return render_error(r, n, WA_ERR_LIMIT, "output larger than %zu bytes", r->max_output);
}

/* Counts work and checks both budgets; called for every node. */
static inline int spend(struct render *r, const struct node *n, unsigned long steps)
{
    r->steps += steps;
    if (r->steps > r->max_steps || r->out->len > r->out_limit)
        return over_budget(r, n);
    return 0;
}

/* strbuf_add for the hot path: one capacity check, then memcpy. */
static inline void put(struct strbuf *out, const char *s, size_t n)
{
    if (n == 0)
        return;
    if (out->cap - out->len <= n)
        strbuf_grow(out, n);
    memcpy(out->buf + out->len, s, n);
    out->len += n;
    out->buf[out->len] = '\0';
}

static void push(struct render *r, const struct tmpl_value *v)
{
    r->ctx = xgrow(r->ctx, &r->ctx_cap, r->nctx + 1, sizeof *r->ctx);
    r->ctx[r->nctx++] = *v;
}

/* ---- values ---- */

void tmpl_value_str(const char *s, struct tmpl_value *out)
{
    out->type = NULL;
    out->kind = s ? TMPL_STRING : TMPL_NULL;
    out->s = s;
    out->n = s ? strlen(s) : 0;
}

void tmpl_value_strf(struct tmpl_value *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(out->buf, sizeof out->buf, fmt, ap);
    va_end(ap);
    out->type = NULL;
    out->kind = TMPL_STRING;
    out->s = NULL;
    out->n = k < 0 ? 0 : (size_t)k < sizeof out->buf ? (size_t)k : sizeof out->buf - 1;
}

void tmpl_value_int(long long i, struct tmpl_value *out)
{
    out->type = NULL;
    out->kind = TMPL_INT;
    out->i = i;
}

void tmpl_value_bool(int b, struct tmpl_value *out)
{
    out->type = NULL;
    out->kind = b ? TMPL_TRUE : TMPL_FALSE;
}

void tmpl_value_typed(int kind, const struct tmpl_type *type, const void *p, size_t at,
                      struct tmpl_value *out)
{
    out->kind = kind;
    out->type = type;
    out->p = p;
    out->at = at;
}

/* A row's member of v's struct, by its C type. */
static void member_field(const struct tmpl_field *f, const struct tmpl_value *v,
                         struct tmpl_value *out)
{
    const char *at = (const char *)v->p + f->offset;
    switch (f->member) {
    case TMPL_MEMBER_STR:
        tmpl_value_str(*(const char *const *)(const void *)at, out);
        break;
    case TMPL_MEMBER_CHARS:
        tmpl_value_str(at, out);
        break;
    case TMPL_MEMBER_BOOL:
        tmpl_value_bool(*(const int *)(const void *)at != 0, out);
        break;
    case TMPL_MEMBER_INT:
        tmpl_value_int(*(const int *)(const void *)at, out);
        break;
    case TMPL_MEMBER_LLONG:
        tmpl_value_int(*(const long long *)(const void *)at, out);
        break;
    case TMPL_MEMBER_SIZE:
        tmpl_value_int((long long)*(const size_t *)(const void *)at, out);
        break;
    default:
        break;
    }
}

/* The field name[0..len) of v through its type's table. */
static void table_field(const struct tmpl_type *type, const struct tmpl_value *v, const char *name,
                        size_t len, struct tmpl_value *out)
{
    out->kind = TMPL_MISSING;
    for (size_t i = 0; i < type->nfields; i++) {
        const struct tmpl_field *f = &type->fields[i];
        if (strncmp(f->name, name, len) != 0 || f->name[len] != '\0')
            continue;
        if (f->get)
            f->get(v, out);
        else
            member_field(f, v, out);
        return;
    }
}

/* The field name[0..len) of an object value (TMPL_MISSING otherwise). */
static void field(const struct tmpl_value *v, const char *name, size_t len, struct tmpl_value *out)
{
    if (v->kind != TMPL_OBJECT || !v->type)
        out->kind = TMPL_MISSING;
    else if (v->type->fields)
        table_field(v->type, v, name, len, out);
    else if (v->type->get)
        v->type->get(v, name, len, out);
    else
        out->kind = TMPL_MISSING;
}

static size_t items(const struct tmpl_value *v)
{
    return v->type && v->type->len ? v->type->len(v) : 0;
}

void tmpl_value_field(const struct tmpl_value *v, const char *name, struct tmpl_value *out)
{
    field(v, name, strlen(name), out);
}

size_t tmpl_value_items(const struct tmpl_value *v)
{
    return v->kind == TMPL_ARRAY ? items(v) : 0;
}

static void item(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    v->type->at(v, i, out); /* i < items(v): a type that has items has at */
}

static void flush_indent(struct render *r)
{
    if (r->pending && r->ind_len) {
        put(r->out, r->indent.buf + r->ind_off, r->ind_len);
        r->pending = 0;
    }
}

static int emit_text(struct render *r, const struct node *n, const char *s, size_t len)
{
    if (r->ind_len == 0) {
        put(r->out, s, len);
        return 0;
    }
    while (len) {
        flush_indent(r);
        const char *nl = memchr(s, '\n', len);
        size_t k = nl ? (size_t)(nl - s) + 1 : len;
        put(r->out, s, k);
        s += k;
        len -= k;
        r->pending = nl != NULL;
        int rc = spend(r, n, 0); /* many lines times a long indentation */
        if (rc != 0)
            return rc;
    }
    return 0;
}

static void show_name(const struct tmpl *t, const struct node *n, char *buf, size_t size);

/* The value of n's name: "." is the top of the stack; otherwise the first
 * segment is looked up from the top of the stack down and the others
 * inside the value found, never further down the stack (the spec). */
static void lookup(struct render *r, const struct tmpl *t, const struct node *n,
                   unsigned long *cost, struct tmpl_value *v)
{
    *cost = n->nseg;
    v->kind = TMPL_MISSING;
    if (r->nctx == 0)
        return;
    if (n->nseg == 0) {
        *v = r->ctx[r->nctx - 1];
        return;
    }
    const char *seg = t->pool.buf + n->name;
    size_t i = r->nctx;
    while (i > 0 && v->kind == TMPL_MISSING)
        field(&r->ctx[--i], seg, n->len, v);
    *cost += r->nctx - i;
    for (unsigned k = 1; v->kind != TMPL_MISSING && k < n->nseg; k++) {
        seg += strlen(seg) + 1;
        struct tmpl_value in = *v;
        field(&in, seg, strlen(seg), v);
    }
    if (r->trace.fn) {
        char shown[256];
        show_name(t, n, shown, sizeof shown);
        r->trace.fn(r->trace.ud, r->partial ? r->partial : r->trace.top_name, shown,
                    v->kind != TMPL_MISSING);
    }
}

/* The shortest %g form that reads back as the same double, with '.' as
 * the decimal point whatever the locale and the exponent unpadded, as
 * JavaScript prints numbers ("1.5", "1e+21", "2.5e-7"). */
static size_t format_real(double d, char *buf, size_t size)
{
    char tmp[64];
    int k = 0;
    if (d == 0 || !isfinite(d)) {
        snprintf(buf, size, "0");
        return 1;
    }
    for (int prec = 15; prec <= 17; prec++) {
        k = snprintf(tmp, sizeof tmp, "%.*g", prec, d);
        if (k > 0 && (size_t)k < sizeof tmp && strtod(tmp, NULL) == d)
            break;
    }
    size_t n = 0;
    for (int i = 0; i < k && tmp[i] && n + 1 < size; i++) {
        char ch = tmp[i];
        int exp_zero = ch == '0' && n > 0 && (buf[n - 1] == '+' || buf[n - 1] == '-') &&
                       i + 1 < k && tmp[i + 1] >= '0' && tmp[i + 1] <= '9';
        if (exp_zero)
            continue; /* "e-07" */
        if ((ch >= '0' && ch <= '9') || ch == '-' || ch == '+' || ch == 'e')
            buf[n++] = ch;
        else if (n == 0 || buf[n - 1] != '.')
            buf[n++] = '.';
    }
    buf[n] = '\0';
    return n;
}

/* n's name with its dots back, truncated to size - 1 bytes. */
static void show_name(const struct tmpl *t, const struct node *n, char *buf, size_t size)
{
    const char *seg = n->nseg ? t->pool.buf + n->name : ".";
    unsigned nseg = n->nseg ? n->nseg : 1;
    size_t k = 0;
    for (unsigned i = 0; i < nseg; i++, seg++) {
        if (i > 0 && k + 1 < size)
            buf[k++] = '.';
        for (; *seg; seg++)
            if (k + 1 < size)
                buf[k++] = *seg;
    }
    buf[k] = '\0';
}

/* Decimal digits of i in buf, 21 bytes at least (snprintf costs more than
 * the rest of an interpolation). */
static const char *format_integer(long long i, char *buf, size_t *len)
{
    unsigned long long u = i < 0 ? 0ull - (unsigned long long)i : (unsigned long long)i;
    size_t sign = i < 0;
    buf[0] = '-';
    *len = sign + strbuf_decimal(u, buf + sign);
    return buf;
}

static int emit_value(struct render *r, const struct tmpl *t, const struct node *n,
                      const struct tmpl_value *v)
{
    char num[64];
    const char *s = num;
    size_t len;
    flush_indent(r);
    switch (v->kind) {
    case TMPL_STRING:
        s = v->s ? v->s : v->buf;
        len = v->n;
        break;
    case TMPL_INT:
        s = format_integer(v->i, num, &len);
        break;
    case TMPL_REAL:
        len = format_real(v->d, num, sizeof num);
        break;
    case TMPL_TRUE:
        s = "true";
        len = 4;
        break;
    case TMPL_FALSE:
        s = "false";
        len = 5;
        break;
    case TMPL_NULL:
    case TMPL_MISSING:
        return 0;
    default: {
        char name[NAME_SHOWN + 1];
        show_name(t, n, name, sizeof name);
        return render_error(r, n, WA_ERR_FORMAT, "'%s' is %s, not a value (use a section)", name,
                            v->kind == TMPL_ARRAY ? "an array" : "an object");
    }
    }
    if (n->type == N_RAW)
        put(r->out, s, len);
    else
        tmpl_html_escape(r->out, s, len);
    return 0;
}

static int render_nodes(struct render *r, const struct tmpl *t, size_t i, size_t end);

static int render_partial(struct render *r, const struct tmpl *t, const struct node *n)
{
    const char *name = t->pool.buf + n->name;
    const struct tmpl *p = n->partial;
    int rc;
    if (!p) {
        if (!r->set)
            return render_error(r, n, WA_ERR_USAGE, "partial '%.*s' needs a template set",
                                tmpli_shown(strlen(name)), name);
        struct ref ref = {n->line, n->col, r->partial};
        rc = tmpli_set_get(r->set, name, &ref, &p, r->err);
        if (rc != 0)
            return rc;
    }
    if (r->depth >= TMPL_MAX_PARTIAL_DEPTH)
        return render_error(r, n, WA_ERR_LIMIT, "partials nested more than %d deep ('%.*s')",
                            TMPL_MAX_PARTIAL_DEPTH, tmpli_shown(strlen(name)), name);
    size_t ind_off = r->ind_off, ind_len = r->ind_len, ind_end = r->indent.len;
    const char *partial = r->partial;
    if (n->standalone) {
        /* the frame's indentation plus this tag's */
        size_t need = ind_len + n->len;
        strbuf_grow(&r->indent, need);
        memcpy(r->indent.buf + ind_end, r->indent.buf + ind_off, ind_len);
        memcpy(r->indent.buf + ind_end + ind_len, t->pool.buf + n->off, n->len);
        r->indent.len += need;
        r->indent.buf[r->indent.len] = '\0';
        r->ind_off = ind_end;
        r->ind_len = need;
        r->pending = 1;
    } else {
        flush_indent(r); /* an inline partial is not indented */
        r->ind_len = 0;
        r->pending = 0;
    }
    r->partial = name;
    r->depth++;
    rc = render_nodes(r, p, 0, p->n);
    r->depth--;
    r->partial = partial;
    r->indent.len = ind_end;
    if (r->indent.buf)
        r->indent.buf[ind_end] = '\0';
    r->ind_off = ind_off;
    r->ind_len = ind_len;
    /* a standalone tag took its line ending: the next text starts a line */
    r->pending = n->standalone;
    return rc;
}

static int render_section(struct render *r, const struct tmpl *t, size_t i)
{
    const struct node *n = &t->nodes[i];
    unsigned long cost;
    struct tmpl_value v;
    lookup(r, t, n, &cost, &v);
    int rc = spend(r, n, cost);
    if (rc != 0)
        return rc;
    size_t count = v.kind == TMPL_ARRAY ? items(&v) : 0;
    int truthy = v.kind != TMPL_MISSING && v.kind != TMPL_FALSE && v.kind != TMPL_NULL &&
                 !(v.kind == TMPL_ARRAY && count == 0);
    if (n->type == N_INVERTED)
        return truthy ? 0 : render_nodes(r, t, i + 1, n->end);
    if (!truthy)
        return 0;
    if (v.kind == TMPL_ARRAY) {
        for (size_t k = 0; k < count && rc == 0; k++) {
            struct tmpl_value x;
            item(&v, k, &x);
            push(r, &x);
            rc = spend(r, n, 1);
            if (rc == 0)
                rc = render_nodes(r, t, i + 1, n->end);
            r->nctx--;
        }
        return rc;
    }
    push(r, &v);
    rc = render_nodes(r, t, i + 1, n->end);
    r->nctx--;
    return rc;
}

static int render_nodes(struct render *r, const struct tmpl *t, size_t i, size_t end)
{
    while (i < end) {
        const struct node *n = &t->nodes[i];
        unsigned long cost = 0;
        int rc = spend(r, n, 1);
        if (rc != 0)
            return rc;
        switch (n->type) {
        case N_TEXT:
            rc = emit_text(r, n, t->pool.buf + n->off, n->len);
            i++;
            break;
        case N_VAR:
        case N_RAW: {
            struct tmpl_value v;
            lookup(r, t, n, &cost, &v);
            rc = spend(r, n, cost);
            if (rc == 0)
                rc = emit_value(r, t, n, &v);
            i++;
            break;
        }
        case N_SECTION:
        case N_INVERTED:
            rc = render_section(r, t, i);
            i = n->end;
            break;
        default:
            rc = render_partial(r, t, n);
            i++;
            break;
        }
        if (rc == 0)
            rc = spend(r, n, 0); /* the output this node added */
        if (rc != 0)
            return rc;
    }
    return 0;
}

int tmpl_render_values(struct tmpl_set *s, const struct tmpl *t, const struct tmpl_value *ctx,
                       size_t n, struct strbuf *out, struct wa_error *err)
{
    struct render r = {
        .set = s,
        .out = out,
        .out_start = out->len,
        .err = err,
    };
    tmpli_set_budget(s, &r.max_output, &r.max_steps);
    tmpli_set_trace_of(s, t, &r.trace);
    r.out_limit = r.out_start +
                  (r.max_output < SIZE_MAX - r.out_start ? r.max_output : SIZE_MAX - r.out_start);
    for (size_t i = 0; i < n; i++)
        push(&r, &ctx[i]);
    int rc = render_nodes(&r, t, 0, t->n);
    free(r.ctx);
    strbuf_free(&r.indent);
    if (rc != 0) {
        out->len = r.out_start;
        if (out->buf)
            out->buf[out->len] = '\0';
    }
    return rc;
}

void tmpl_html_escape(struct strbuf *out, const char *s, size_t n)
{
    static const char *const rep[256] = {
        ['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&#39;",
    };
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        const char *r = rep[(unsigned char)s[i]];
        if (r) {
            put(out, s + run, i - run);
            put(out, r, strlen(r));
            run = i + 1;
        }
    }
    put(out, s + run, n - run);
}

int tmpl_dir_loader(void *dir, const char *name, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    if (!dir || !name || !*name || strchr(name, '/') || strchr(name, '\\') || strstr(name, ".."))
        return WA_ERR_USAGE;
    char *file = xasprintf("%s.mustache", name);
    char *path = fsutil_join((const char *)dir, file);
    int rc = fsutil_read(path, TMPL_MAX_SIZE, text, len, NULL, NULL);
    free(file);
    free(path);
    return rc;
}
