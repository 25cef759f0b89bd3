/*
 * shellcmd: commands as argument vectors, written for six shells at once
 * (shellcmd.h; the rule in docs/commands.md).
 */
#include "shellcmd.h"

#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xalloc.h"

/* Inside double quotes: " ends them everywhere; $ and ` expand in bash,
 * zsh, dash and PowerShell ($ in fish); \ escapes in the POSIX shells and
 * fish and decides how Windows programs split their command line; ! is
 * history expansion in interactive bash and zsh; % expands variables in
 * cmd.  Control characters and bytes past ASCII are refused too: a
 * newline runs a second command, and PowerShell reads the typographic
 * quotes and dashes as its own. */
static int quotable(unsigned char ch)
{
    return ch >= 0x20 && ch < 0x7f && !strchr("\"$`\\!%", ch);
}

/* Needs no quotes in any of the six shells.  '=' is not first (zsh's
 * =command expansion); no glob (* ? [ ]), brace, tilde, redirection,
 * separator, comment or PowerShell operator character (, @ + ; & | ( ) { }
 * < > # '). */
static int alnum(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

static int bare_char(unsigned char ch)
{
    return alnum(ch) || (ch && strchr("_./:-=", ch));
}

static int bare(const char *s)
{
    if (!*s || *s == '=')
        return 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (!bare_char(*p))
            return 0;
    if (*s == '-') /* PowerShell passes "-a.b" to a program as "-a" ".b" */
        for (const unsigned char *p = (const unsigned char *)s; *p; p++)
            if (!(*p == '-' || alnum(*p)))
                return 0;
    return 1;
}

/* A requirement that is a project's name alone ("torch"). */
static int plain_name(const char *s)
{
    if (!*s)
        return 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (!(alnum(*p) || *p == '.' || *p == '_' || *p == '-'))
            return 0;
    return *s != '-';
}

int shellcmd_arg_ok(const char *arg)
{
    if (!arg || !*arg)
        return 0;
    for (const unsigned char *p = (const unsigned char *)arg; *p; p++)
        if (!quotable(*p))
            return 0;
    return 1;
}

static void push(struct shellcmd *c, const char *arg, unsigned char flags)
{
    if (c->n == c->cap) {
        size_t cap = c->cap;
        c->arg = xgrow(c->arg, &cap, c->n + 1, sizeof *c->arg);
        c->flags = xrealloc(c->flags, cap);
        c->cap = cap;
    }
    if (!shellcmd_arg_ok(arg))
        c->bad = 1;
    c->arg[c->n] = xstrdup(arg ? arg : "");
    c->flags[c->n] = (unsigned char)(flags | (c->then ? SHELLCMD_STEP : 0));
    c->then = 0;
    c->n++;
}

void shellcmd_add(struct shellcmd *c, const char *arg)
{
    push(c, arg, 0);
}

void shellcmd_add_requirement(struct shellcmd *c, const char *req)
{
    push(c, req, SHELLCMD_QUOTE);
}

void shellcmd_then(struct shellcmd *c)
{
    c->then = c->n > 0; /* an empty command has no step to end */
}

char *shellcmd_line(const struct shellcmd *c)
{
    if (!c->n || c->bad)
        return NULL;
    struct strbuf b = STRBUF_INIT;
    for (size_t i = 0; i < c->n; i++) {
        if (i)
            strbuf_adds(&b, c->flags[i] & SHELLCMD_STEP ? " && " : " ");
        const char *a = c->arg[i];
        if (c->flags[i] & SHELLCMD_QUOTE ? plain_name(a) : bare(a)) {
            strbuf_adds(&b, a);
        } else {
            strbuf_addc(&b, '"');
            strbuf_adds(&b, a);
            strbuf_addc(&b, '"');
        }
    }
    return strbuf_detach(&b, NULL);
}

size_t shellcmd_steps(const struct shellcmd *c)
{
    size_t k = c->n ? 1 : 0;
    for (size_t i = 1; i < c->n; i++)
        k += (c->flags[i] & SHELLCMD_STEP) != 0;
    return k;
}

void shellcmd_step(const struct shellcmd *c, size_t k, char *const **argv, size_t *argc)
{
    size_t i = 0, step = 0;
    for (; i < c->n && step < k; i++)
        if (i + 1 < c->n && (c->flags[i + 1] & SHELLCMD_STEP))
            step++;
    size_t j = i;
    while (j < c->n && (j == i || !(c->flags[j] & SHELLCMD_STEP)))
        j++;
    *argv = c->arg + i;
    *argc = step == k ? j - i : 0;
}

void shellcmd_copy(struct shellcmd *dst, const struct shellcmd *src)
{
    memset(dst, 0, sizeof *dst);
    for (size_t i = 0; i < src->n; i++)
        push(dst, src->arg[i], src->flags[i]);
    dst->bad = src->bad;
}

void shellcmd_free(struct shellcmd *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->arg[i]);
    free(c->arg);
    free(c->flags);
    memset(c, 0, sizeof *c);
}
