/*
 * tmpl: Mustache-subset templates over jansson data.
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
 * NUL-terminated, ready for json_object_get.
 */
#include "tmpl.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "strmap.h"
#include "xalloc.h"

#define DELIM_MAX 16  /* bytes of a custom delimiter */
#define NAME_SHOWN 80 /* bytes of a name quoted in a message */
#define GONE SIZE_MAX /* strmap value of a name dropped after a failed load */

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

/* ---- compiling ---- */

struct open_section {
    size_t node;
    const char *name; /* in the source, for matching the close tag */
    size_t len;
};

struct compiler {
    const char *src;
    size_t len;
    struct tmpl *t;
    size_t at; /* line and col are those of src[at] */
    unsigned line, col;
    char otag[DELIM_MAX + 1], ctag[DELIM_MAX + 1];
    size_t olen, clen;
    struct open_section open[TMPL_MAX_NESTING];
    size_t depth;
    int can_merge; /* the last node is a text node in the current scope */
    struct wa_error *err;
};

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int shown(size_t len)
{
    return len > NAME_SHOWN ? NAME_SHOWN : (int)len;
}

/* Moves the line/column counter forward to src[to]; callers only ever
 * move forward, so the whole compile counts each byte once. */
static void advance(struct compiler *c, size_t to)
{
    for (; c->at < to; c->at++) {
        unsigned char ch = (unsigned char)c->src[c->at];
        if (ch == '\n') {
            if (c->line < UINT_MAX)
                c->line++;
            c->col = 1;
        } else if ((ch & 0xC0) != 0x80 && c->col < UINT_MAX) {
            c->col++; /* count characters, not UTF-8 continuation bytes */
        }
    }
}

static int syntax(struct wa_error *err, int code, unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int syntax(struct wa_error *err, int code, unsigned line, unsigned col, const char *fmt, ...)
{
    char msg[WA_ERROR_MSG_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return wa_error_set(err, code, "line %u column %u: %s", line, col, msg);
}

static size_t push_node(struct compiler *c, const struct node *n)
{
    struct tmpl *t = c->t;
    t->nodes = xgrow(t->nodes, &t->cap, t->n + 1, sizeof *t->nodes);
    t->nodes[t->n] = *n;
    c->can_merge = 1;
    return t->n++;
}

/* Text src[from..to), which starts at line:col. */
static void add_text(struct compiler *c, size_t from, size_t to, unsigned line, unsigned col)
{
    struct tmpl *t = c->t;
    if (from >= to)
        return;
    if (c->can_merge && t->n && t->nodes[t->n - 1].type == N_TEXT) {
        /* only a comment or a delimiter change in between */
        t->nodes[t->n - 1].len += to - from;
    } else {
        struct node n = {
            .type = N_TEXT, .line = line, .col = col, .off = t->pool.len, .len = to - from};
        push_node(c, &n);
    }
    strbuf_add(&t->pool, c->src + from, to - from);
}

/* Checks a name ("." or dot-separated non-empty segments without
 * whitespace or NUL) and stores it in the pool as NUL-separated segments. */
static int add_name(struct compiler *c, struct node *n, const char *s, size_t len)
{
    struct strbuf *pool = &c->t->pool;
    n->name = pool->len;
    if (len == 1 && s[0] == '.') {
        n->nseg = 0;
        strbuf_addc(pool, '\0');
        return 0;
    }
    int ok = len > 0 && s[0] != '.' && s[len - 1] != '.';
    for (size_t i = 0; ok && i < len; i++)
        if (is_space(s[i]) || s[i] == '\0' || (s[i] == '.' && i + 1 < len && s[i + 1] == '.'))
            ok = 0;
    if (!ok)
        return syntax(c->err, WA_ERR_FORMAT, n->line, n->col, "invalid name '%.*s'", shown(len), s);
    n->nseg = 1;
    const char *dot = memchr(s, '.', len);
    n->len = dot ? (size_t)(dot - s) : len;
    strbuf_add(pool, s, len);
    strbuf_addc(pool, '\0');
    for (size_t i = n->name; i < n->name + len; i++) {
        if (pool->buf[i] == '.') {
            pool->buf[i] = '\0';
            n->nseg++;
        }
    }
    return 0;
}

/* "{{=<% %>=}}": content is "<% %>", trimmed. */
static int set_delimiters(struct compiler *c, const char *s, size_t len, unsigned line,
                          unsigned col)
{
    size_t i = 0, j;
    while (i < len && !is_space(s[i]))
        i++;
    j = i;
    while (j < len && is_space(s[j]))
        j++;
    int ok = i > 0 && i <= DELIM_MAX && j < len && len - j <= DELIM_MAX;
    for (size_t k = 0; ok && k < len; k++)
        if ((k >= j && is_space(s[k])) || s[k] == '=' || s[k] == '\0')
            ok = 0;
    if (!ok)
        return syntax(c->err, WA_ERR_FORMAT, line, col,
                      "invalid delimiters '%.*s' (two strings of 1 to %d bytes "
                      "without spaces or '=')",
                      shown(len), s, DELIM_MAX);
    memcpy(c->otag, s, i);
    c->otag[i] = '\0';
    c->olen = i;
    memcpy(c->ctag, s + j, len - j);
    c->ctag[len - j] = '\0';
    c->clen = len - j;
    return 0;
}

/* One tag: sigil (0 for a plain variable), trimmed content s[0..len). */
static int add_tag(struct compiler *c, char sigil, const char *s, size_t len, unsigned line,
                   unsigned col, int standalone, size_t indent, size_t indent_len)
{
    struct node n = {.line = line, .col = col};
    if (sigil == '!')
        return 0;
    if (sigil == '=')
        return set_delimiters(c, s, len, line, col);
    if (len == 0)
        return syntax(c->err, WA_ERR_FORMAT, line, col, "empty tag");
    switch (sigil) {
    case '#':
    case '^':
        if (c->depth == TMPL_MAX_NESTING)
            return syntax(c->err, WA_ERR_LIMIT, line, col, "sections nested more than %d deep",
                          TMPL_MAX_NESTING);
        n.type = sigil == '#' ? N_SECTION : N_INVERTED;
        if (add_name(c, &n, s, len) != 0)
            return WA_ERR_FORMAT;
        c->open[c->depth].node = push_node(c, &n);
        c->open[c->depth].name = s;
        c->open[c->depth].len = len;
        c->depth++;
        return 0;
    case '/': {
        if (c->depth == 0)
            return syntax(c->err, WA_ERR_FORMAT, line, col, "'/%.*s' closes no open section",
                          shown(len), s);
        const struct open_section *o = &c->open[c->depth - 1];
        const struct node *on = &c->t->nodes[o->node];
        if (o->len != len || memcmp(o->name, s, len) != 0)
            return syntax(c->err, WA_ERR_FORMAT, line, col,
                          "'/%.*s' does not close section '%.*s' (opened at line %u column %u)",
                          shown(len), s, shown(o->len), o->name, on->line, on->col);
        c->t->nodes[o->node].end = c->t->n;
        c->depth--;
        c->can_merge = 0; /* the last node belongs to the closed section */
        return 0;
    }
    case '>':
        for (size_t i = 0; i < len; i++)
            if (is_space(s[i]) || s[i] == '\0')
                return syntax(c->err, WA_ERR_FORMAT, line, col, "invalid partial name '%.*s'",
                              shown(len), s);
        n.type = N_PARTIAL;
        n.name = c->t->pool.len;
        strbuf_add(&c->t->pool, s, len);
        strbuf_addc(&c->t->pool, '\0');
        if (standalone) {
            n.standalone = 1;
            n.off = c->t->pool.len;
            n.len = indent_len;
            strbuf_add(&c->t->pool, c->src + indent, indent_len);
        }
        push_node(c, &n);
        return 0;
    default:
        n.type = sigil == '&' || sigil == '{' ? N_RAW : N_VAR;
        if (add_name(c, &n, s, len) != 0)
            return WA_ERR_FORMAT;
        push_node(c, &n);
        return 0;
    }
}

static int compile(struct compiler *c)
{
    const char *src = c->src;
    size_t len = c->len, pos = 0, text_start = 0;
    for (;;) {
        const char *p = pos < len ? memmem(src + pos, len - pos, c->otag, c->olen) : NULL;
        advance(c, text_start);
        unsigned tline = c->line, tcol = c->col;
        if (!p) {
            add_text(c, text_start, len, tline, tcol);
            break;
        }
        size_t tag = (size_t)(p - src), q = tag + c->olen;
        char sigil = q < len ? src[q] : '\0';
        if (sigil && strchr("#^/!>&{=", sigil))
            q++;
        else
            sigil = '\0';
        /* {{{name}}} ends with "}}}", {{=a b=}} with "=}}" */
        char term[DELIM_MAX + 2];
        size_t tlen = 0;
        if (sigil == '{' || sigil == '=')
            term[tlen++] = sigil == '{' ? '}' : '=';
        memcpy(term + tlen, c->ctag, c->clen);
        tlen += c->clen;
        term[tlen] = '\0';
        const char *e = q < len ? memmem(src + q, len - q, term, tlen) : NULL;
        advance(c, tag);
        unsigned line = c->line, col = c->col;
        if (!e)
            return syntax(c->err, WA_ERR_FORMAT, line, col, "tag '%s' is never closed (no '%s')",
                          c->otag, term);
        size_t cs = q, ce = (size_t)(e - src), tag_end = ce + tlen;
        while (cs < ce && is_space(src[cs]))
            cs++;
        while (ce > cs && is_space(src[ce - 1]))
            ce--;

        /* A standalone tag (not a variable) alone on its line takes the
         * whole line with it: indentation, tag, and line ending. */
        size_t text_end = tag, next = tag_end, ls = tag;
        int standalone = 0;
        if (sigil && sigil != '&' && sigil != '{') {
            while (ls > text_start && (src[ls - 1] == ' ' || src[ls - 1] == '\t'))
                ls--;
            size_t le = tag_end, nl = 0;
            while (le < len && (src[le] == ' ' || src[le] == '\t'))
                le++;
            int eol = le == len;
            if (le < len && src[le] == '\n')
                eol = 1, nl = 1;
            else if (le + 1 < len && src[le] == '\r' && src[le + 1] == '\n')
                eol = 1, nl = 2;
            if (eol && (ls == 0 || src[ls - 1] == '\n')) {
                standalone = 1;
                text_end = ls;
                next = le + nl;
            }
        }
        add_text(c, text_start, text_end, tline, tcol);
        int rc = add_tag(c, sigil, src + cs, ce - cs, line, col, standalone, ls, tag - ls);
        if (rc != 0)
            return rc;
        pos = text_start = next;
    }
    if (c->depth) {
        const struct open_section *o = &c->open[c->depth - 1];
        const struct node *on = &c->t->nodes[o->node];
        return syntax(c->err, WA_ERR_FORMAT, on->line, on->col, "section '%.*s' is never closed",
                      shown(o->len), o->name);
    }
    return 0;
}

int tmpl_compile(const char *text, size_t len, struct tmpl **out, struct wa_error *err)
{
    *out = NULL;
    if (len > TMPL_MAX_SIZE)
        return wa_error_set(err, WA_ERR_LIMIT, "template larger than %u bytes", TMPL_MAX_SIZE);
    struct compiler c = {
        .src = text ? text : "",
        .len = text ? len : 0,
        .t = xcalloc(1, sizeof *c.t),
        .line = 1,
        .col = 1,
        .otag = "{{",
        .ctag = "}}",
        .olen = 2,
        .clen = 2,
        .err = err,
    };
    int rc = compile(&c);
    if (rc != 0) {
        tmpl_free(c.t);
        return rc;
    }
    *out = c.t;
    return 0;
}

void tmpl_free(struct tmpl *t)
{
    if (!t)
        return;
    free(t->nodes);
    strbuf_free(&t->pool);
    free(t);
}

/* ---- sets ---- */

struct entry {
    char *name;
    struct tmpl *t;
};

struct tmpl_set {
    tmpl_loader loader;
    void *ud;
    struct entry *e;
    size_t n, cap;
    struct strmap *map; /* name -> index in e, or GONE */
    size_t max_output;
    unsigned long max_steps;
};

/* Where a partial is referenced from, for "cannot load" messages. */
struct ref {
    unsigned line, col;
    const char *from; /* the referencing partial's name, NULL for the top template */
};

struct tmpl_set *tmpl_set_new(tmpl_loader loader, void *ud)
{
    struct tmpl_set *s = xcalloc(1, sizeof *s);
    s->loader = loader;
    s->ud = ud;
    s->map = strmap_new();
    s->max_output = TMPL_DEFAULT_MAX_OUTPUT;
    s->max_steps = TMPL_DEFAULT_MAX_STEPS;
    return s;
}

void tmpl_set_free(struct tmpl_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->e[i].name);
        tmpl_free(s->e[i].t);
    }
    free(s->e);
    strmap_free(s->map);
    free(s);
}

void tmpl_set_limits(struct tmpl_set *s, size_t max_output, unsigned long max_steps)
{
    s->max_output = max_output ? max_output : TMPL_DEFAULT_MAX_OUTPUT;
    s->max_steps = max_steps ? max_steps : TMPL_DEFAULT_MAX_STEPS;
}

static int cached(const struct tmpl_set *s, const char *name, size_t *idx)
{
    return strmap_get(s->map, name, idx) && *idx != GONE;
}

/* Loads and compiles one template and appends it to the set (unlinked). */
static int load_one(struct tmpl_set *s, const char *name, const struct ref *ref,
                    struct wa_error *err)
{
    char *text = NULL;
    size_t len = 0;
    int rc = s->loader ? s->loader(s->ud, name, &text, &len) : WA_ERR_USAGE;
    if (rc != 0) {
        free(text);
        rc = rc < 0 ? rc : WA_ERR_IO;
        if (!ref)
            return wa_error_set(err, rc, "cannot load template '%s'", name);
        if (ref->from)
            return wa_error_set(err, rc,
                                "partial '%s': line %u column %u: cannot load partial '%s'",
                                ref->from, ref->line, ref->col, name);
        return wa_error_set(err, rc, "line %u column %u: cannot load partial '%s'", ref->line,
                            ref->col, name);
    }
    struct tmpl *t;
    rc = tmpl_compile(text, len, &t, err);
    free(text);
    if (rc != 0) {
        if (ref) {
            char prefix[NAME_SHOWN + 16];
            snprintf(prefix, sizeof prefix, "partial '%.*s'", shown(strlen(name)), name);
            wa_error_prefix(err, prefix);
        }
        return rc;
    }
    s->e = xgrow(s->e, &s->cap, s->n + 1, sizeof *s->e);
    s->e[s->n].name = xstrdup(name);
    s->e[s->n].t = t;
    strmap_put(s->map, name, s->n);
    s->n++;
    return 0;
}

/* tmpl_set_get; ref is the partial tag asking, or NULL.  New templates are
 * linked breadth-first through a worklist (the tail of s->e), so a long
 * chain of partials costs no recursion; a cycle finds itself cached. */
static int set_get(struct tmpl_set *s, const char *name, const struct ref *ref,
                   const struct tmpl **out, struct wa_error *err)
{
    size_t idx, first = s->n;
    *out = NULL;
    if (cached(s, name, &idx)) {
        *out = s->e[idx].t;
        return 0;
    }
    int rc = load_one(s, name, ref, err);
    if (rc != 0)
        return rc;
    for (size_t i = first; i < s->n; i++) {
        struct tmpl *t = s->e[i].t;
        for (size_t k = 0; k < t->n; k++) {
            struct node *nd = &t->nodes[k];
            if (nd->type != N_PARTIAL)
                continue;
            const char *pname = t->pool.buf + nd->name;
            if (!cached(s, pname, &idx)) {
                struct ref r = {nd->line, nd->col, i == first && !ref ? NULL : s->e[i].name};
                rc = load_one(s, pname, &r, err);
                if (rc != 0)
                    goto fail;
                idx = s->n - 1;
            }
            nd->partial = s->e[idx].t;
        }
    }
    *out = s->e[first].t;
    return 0;
fail:
    while (s->n > first) {
        s->n--;
        strmap_put(s->map, s->e[s->n].name, GONE);
        free(s->e[s->n].name);
        tmpl_free(s->e[s->n].t);
    }
    return rc;
}

int tmpl_set_get(struct tmpl_set *s, const char *name, const struct tmpl **out,
                 struct wa_error *err)
{
    return set_get(s, name, NULL, out, err);
}

/* ---- rendering ---- */

struct render {
    struct tmpl_set *set;
    struct strbuf *out;
    size_t out_start, max_output, out_limit; /* out_limit = out_start + max_output */
    unsigned long steps, max_steps;
    json_t **ctx; /* the context stack, borrowed values */
    size_t nctx, ctx_cap;
    struct strbuf indent;    /* indentation of every active partial frame */
    size_t ind_off, ind_len; /* this frame's indentation in `indent` */
    int pending;             /* this frame is at a line start, not yet indented */
    const char *partial;     /* this frame's partial name, NULL at the top */
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
                            shown(strlen(r->partial)), r->partial, n->line, n->col, msg);
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

static void push(struct render *r, json_t *v)
{
    r->ctx = xgrow(r->ctx, &r->ctx_cap, r->nctx + 1, sizeof *r->ctx);
    r->ctx[r->nctx++] = v;
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

/* The value of n's name: "." is the top of the stack; otherwise the first
 * segment is looked up from the top of the stack down and the others
 * inside the value found, never further down the stack (the spec). */
static json_t *lookup(struct render *r, const struct tmpl *t, const struct node *n,
                      unsigned long *cost)
{
    *cost = n->nseg;
    if (r->nctx == 0)
        return NULL;
    if (n->nseg == 0)
        return r->ctx[r->nctx - 1];
    const char *seg = t->pool.buf + n->name;
    json_t *v = NULL;
    size_t i = r->nctx;
    while (i > 0 && !v) {
        json_t *c = r->ctx[--i];
        if (json_is_object(c))
            v = json_object_getn(c, seg, n->len);
    }
    *cost += r->nctx - i;
    for (unsigned k = 1; v && k < n->nseg; k++) {
        seg += strlen(seg) + 1;
        v = json_is_object(v) ? json_object_get(v, seg) : NULL;
    }
    return v;
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
static const char *format_integer(json_int_t i, char *buf, size_t *len)
{
    unsigned long long u = i < 0 ? 0ull - (unsigned long long)i : (unsigned long long)i;
    size_t sign = i < 0;
    buf[0] = '-';
    *len = sign + strbuf_decimal(u, buf + sign);
    return buf;
}

static int emit_value(struct render *r, const struct tmpl *t, const struct node *n, json_t *v)
{
    char num[64];
    const char *s = num;
    size_t len;
    flush_indent(r);
    switch (v ? json_typeof(v) : JSON_NULL) {
    case JSON_STRING:
        s = json_string_value(v);
        len = json_string_length(v);
        break;
    case JSON_INTEGER:
        s = format_integer(json_integer_value(v), num, &len);
        break;
    case JSON_REAL:
        len = format_real(json_real_value(v), num, sizeof num);
        break;
    case JSON_TRUE:
        s = "true";
        len = 4;
        break;
    case JSON_FALSE:
        s = "false";
        len = 5;
        break;
    case JSON_NULL:
        return 0;
    default: {
        char name[NAME_SHOWN + 1];
        show_name(t, n, name, sizeof name);
        return render_error(r, n, WA_ERR_FORMAT, "'%s' is %s, not a value (use a section)", name,
                            json_is_array(v) ? "an array" : "an object");
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
                                shown(strlen(name)), name);
        struct ref ref = {n->line, n->col, r->partial};
        rc = set_get(r->set, name, &ref, &p, r->err);
        if (rc != 0)
            return rc;
    }
    if (r->depth >= TMPL_MAX_PARTIAL_DEPTH)
        return render_error(r, n, WA_ERR_LIMIT, "partials nested more than %d deep ('%.*s')",
                            TMPL_MAX_PARTIAL_DEPTH, shown(strlen(name)), name);
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
    json_t *v = lookup(r, t, n, &cost);
    int rc = spend(r, n, cost);
    if (rc != 0)
        return rc;
    int truthy = v && !json_is_false(v) && !json_is_null(v) &&
                 !(json_is_array(v) && json_array_size(v) == 0);
    if (n->type == N_INVERTED)
        return truthy ? 0 : render_nodes(r, t, i + 1, n->end);
    if (!truthy)
        return 0;
    if (json_is_array(v)) {
        size_t count = json_array_size(v);
        for (size_t k = 0; k < count && rc == 0; k++) {
            push(r, json_array_get(v, k));
            rc = spend(r, n, 1);
            if (rc == 0)
                rc = render_nodes(r, t, i + 1, n->end);
            r->nctx--;
        }
        return rc;
    }
    push(r, v);
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
            json_t *v = lookup(r, t, n, &cost);
            rc = spend(r, n, cost);
            if (rc == 0)
                rc = emit_value(r, t, n, v);
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

int tmpl_render(struct tmpl_set *s, const struct tmpl *t, json_t *data, struct strbuf *out,
                struct wa_error *err)
{
    struct render r = {
        .set = s,
        .out = out,
        .out_start = out->len,
        .max_output = s ? s->max_output : TMPL_DEFAULT_MAX_OUTPUT,
        .max_steps = s ? s->max_steps : TMPL_DEFAULT_MAX_STEPS,
        .err = err,
    };
    r.out_limit = r.out_start +
                  (r.max_output < SIZE_MAX - r.out_start ? r.max_output : SIZE_MAX - r.out_start);
    if (data)
        push(&r, data);
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

int tmpl_render_name(struct tmpl_set *s, const char *name, json_t *data, struct strbuf *out,
                     struct wa_error *err)
{
    const struct tmpl *t;
    int rc = tmpl_set_get(s, name, &t, err);
    return rc != 0 ? rc : tmpl_render(s, t, data, out, err);
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
