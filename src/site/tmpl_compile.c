/*
 * tmpl_compile: Mustache text compiled into a template's nodes (tags,
 * sections, partials, set delimiters), with line and column in every
 * error.
 */
#include "tmpl_compile.h"
#include "tmpl_state.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xalloc.h"

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

int tmpli_shown(size_t len)
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

int tmpli_syntax(struct wa_error *err, int code, unsigned line, unsigned col, const char *fmt, ...)
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
        return tmpli_syntax(c->err, WA_ERR_FORMAT, n->line, n->col, "invalid name '%.*s'",
                            tmpli_shown(len), s);
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
        return tmpli_syntax(c->err, WA_ERR_FORMAT, line, col,
                            "invalid delimiters '%.*s' (two strings of 1 to %d bytes "
                            "without spaces or '=')",
                            tmpli_shown(len), s, DELIM_MAX);
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
        return tmpli_syntax(c->err, WA_ERR_FORMAT, line, col, "empty tag");
    switch (sigil) {
    case '#':
    case '^':
        if (c->depth == TMPL_MAX_NESTING)
            return tmpli_syntax(c->err, WA_ERR_LIMIT, line, col,
                                "sections nested more than %d deep", TMPL_MAX_NESTING);
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
            return tmpli_syntax(c->err, WA_ERR_FORMAT, line, col, "'/%.*s' closes no open section",
                                tmpli_shown(len), s);
        const struct open_section *o = &c->open[c->depth - 1];
        const struct node *on = &c->t->nodes[o->node];
        if (o->len != len || memcmp(o->name, s, len) != 0)
            return tmpli_syntax(
                c->err, WA_ERR_FORMAT, line, col,
                "'/%.*s' does not close section '%.*s' (opened at line %u column %u)",
                tmpli_shown(len), s, tmpli_shown(o->len), o->name, on->line, on->col);
        c->t->nodes[o->node].end = c->t->n;
        c->depth--;
        c->can_merge = 0; /* the last node belongs to the closed section */
        return 0;
    }
    case '>':
        for (size_t i = 0; i < len; i++)
            if (is_space(s[i]) || s[i] == '\0')
                return tmpli_syntax(c->err, WA_ERR_FORMAT, line, col, "invalid partial name '%.*s'",
                                    tmpli_shown(len), s);
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
            return tmpli_syntax(c->err, WA_ERR_FORMAT, line, col,
                                "tag '%s' is never closed (no '%s')", c->otag, term);
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
        return tmpli_syntax(c->err, WA_ERR_FORMAT, on->line, on->col,
                            "section '%.*s' is never closed", tmpli_shown(o->len), o->name);
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
