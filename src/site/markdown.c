/*
 * markdown: cmark-gfm with the GitHub extensions, plus the two rewrites the
 * site's own tables have (header scopes, a scrolling region).
 */
#include "markdown.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

static const char *const extensions[] = {"table", "strikethrough", "autolink"};

/* An id from a heading's text: lowercase letters and digits, the rest one
 * dash ("Is PTX JIT good enough?" -> "is-ptx-jit-good-enough"); tags and
 * entities skipped. */
static void heading_id(struct strbuf *b, const char *s, const char *end)
{
    int dash = 0, any = 0;
    while (s < end) {
        if (*s == '<' || *s == '&') {
            const char *close =
                *s == '<' ? memchr(s, '>', (size_t)(end - s)) : memchr(s, ';', (size_t)(end - s));
            s = close ? close + 1 : end;
            dash = any;
            continue;
        }
        unsigned char ch = (unsigned char)*s++;
        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z')) {
            if (dash && any)
                strbuf_addc(b, '-');
            strbuf_addc(b, (char)(ch | 0x20));
            dash = 0;
            any = 1;
        } else {
            dash = any;
        }
    }
    if (!any)
        strbuf_adds(b, "section");
}

/* The renderer's tags, rewritten: "<th" + (">" or " ") gets a scope, and a
 * table is wrapped in a region, named by its caption: a paragraph "Table:
 * what it shows" right above it (plain text only).  Safe mode removed raw
 * HTML, so these strings can only be tags the renderer wrote (text has
 * "&lt;", and '"' is "&quot;", so the caption is safe in the attribute). */
static char *rewrite(const char *in)
{
    struct strbuf b = STRBUF_INIT;
    const char *p = in, *end;
    int n = 0;
    while (*p) {
        if (strncmp(p, "<th", 3) == 0 && (p[3] == '>' || p[3] == ' ')) {
            strbuf_adds(&b, "<th scope=\"col\"");
            p += 3;
        } else if (strncmp(p, "<p>Table: ", 10) == 0 && (end = strstr(p, "</p>\n<table>")) &&
                   !memchr(p + 10, '<', (size_t)(end - p - 10))) {
            /* "Table: what it shows" right above a table is its caption */
            const char *cap = p + 10;
            int len = (int)(end - cap);
            strbuf_addf(&b,
                        "<div class=\"scroll\" role=\"region\" tabindex=\"0\" "
                        "aria-label=\"%.*s\">\n<table>\n<caption>%.*s</caption>",
                        len, cap, len, cap);
            p = end + 4 + 1 + 7;
        } else if ((strncmp(p, "<h2>", 4) == 0 || strncmp(p, "<h3>", 4) == 0) &&
                   (end = strstr(p, p[2] == '2' ? "</h2>" : "</h3>"))) {
            /* headings get an id from their text, so pages can link to them */
            strbuf_addf(&b, "<h%c id=\"", p[2]);
            heading_id(&b, p + 4, end);
            strbuf_adds(&b, "\">");
            p += 4;
        } else if (strncmp(p, "<table>", 7) == 0) {
            n++;
            strbuf_addf(&b,
                        "<div class=\"scroll\" role=\"region\" tabindex=\"0\" "
                        "aria-label=\"Table %d, scrolls sideways\">\n<table>",
                        n);
            p += 7;
        } else if (strncmp(p, "</table>", 8) == 0) {
            strbuf_adds(&b, "</table>\n</div>");
            p += 8;
        } else {
            strbuf_addc(&b, *p++);
        }
    }
    return strbuf_detach(&b, NULL);
}

int markdown_to_html(const char *text, size_t n, char **html, struct wa_error *err)
{
    *html = NULL;
    cmark_gfm_core_extensions_ensure_registered();
    int opts = CMARK_OPT_DEFAULT | CMARK_OPT_SMART;
    cmark_parser *parser = cmark_parser_new(opts);
    if (!parser)
        return wa_error_set(err, WA_ERR_IO, "cmark-gfm: cannot create a parser");
    for (size_t i = 0; i < sizeof extensions / sizeof extensions[0]; i++) {
        cmark_syntax_extension *e = cmark_find_syntax_extension(extensions[i]);
        if (!e) {
            cmark_parser_free(parser);
            return wa_error_set(err, WA_ERR_UNSUPPORTED,
                                "cmark-gfm has no '%s' extension (libcmark-gfm-extensions)",
                                extensions[i]);
        }
        cmark_parser_attach_syntax_extension(parser, e);
    }
    cmark_parser_feed(parser, text, n);
    cmark_node *doc = cmark_parser_finish(parser);
    char *out =
        doc ? cmark_render_html(doc, opts, cmark_parser_get_syntax_extensions(parser)) : NULL;
    if (doc)
        cmark_node_free(doc);
    cmark_parser_free(parser);
    if (!out)
        return wa_error_set(err, WA_ERR_IO, "cmark-gfm: rendering failed");
    *html = rewrite(out);
    free(out);
    return 0;
}
