/*
 * Unit tests: GitHub-flavoured Markdown (markdown.c): tables become <table>
 * with header scopes inside a scrolling region, raw HTML is dropped, and
 * text that looks like the tags the rewrite looks for is left alone.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "markdown.h"

static char *md(const char *text)
{
    char *html = NULL;
    struct wa_error err = {0};
    int rc = markdown_to_html(text, strlen(text), &html, &err);
    OK(rc == 0, "markdown_to_html: %s", err.msg);
    return html ? html : strdup("");
}

static void has(const char *html, const char *needle, const char *what)
{
    OK(strstr(html, needle) != NULL, "%s: \"%s\" not in:\n%s", what, needle, html);
}

static void hasnt(const char *html, const char *needle, const char *what)
{
    OK(strstr(html, needle) == NULL, "%s: \"%s\" in:\n%s", what, needle, html);
}

int main(void)
{
    char *h = md("| verdict | when |\n|---|---|\n| native | SASS covers it |\n");
    has(h, "<table>", "a pipe table is a table");
    has(h, "<th scope=\"col\">verdict</th>", "header cells have a scope");
    has(h, "<td>native</td>", "body cells");
    has(h, "<div class=\"scroll\" role=\"region\" tabindex=\"0\"", "the table scrolls in a region");
    has(h, "</table>\n</div>", "the region closes after the table");
    hasnt(h, "| verdict |", "no raw pipes");
    free(h);

    h = md("| a | b |\n|:--|--:|\n| 1 | 2 |\n");
    has(h, "<th scope=\"col\" align=\"left\">a</th>", "an aligned header keeps its scope");
    free(h);

    h = md("two tables\n\n| a |\n|---|\n| 1 |\n\ntext\n\n| b |\n|---|\n| 2 |\n");
    has(h, "aria-label=\"Table 1, scrolls sideways\"", "first region named");
    has(h, "aria-label=\"Table 2, scrolls sideways\"", "second region named");
    free(h);

    h = md("Table: Verdicts & \"when\"\n\n| a |\n|---|\n| 1 |\n");
    has(h,
        "aria-label=\"Verdicts &amp; \xe2\x80\x9cwhen\xe2\x80\x9d\">\n<table>\n"
        "<caption>Verdicts &amp; \xe2\x80\x9cwhen\xe2\x80\x9d</caption>",
        "a Table: paragraph is the caption and names the region");
    hasnt(h, "<p>Table:", "the caption paragraph is moved, not repeated");
    free(h);

    h = md("Table: *emphasis* is not a caption\n\n| a |\n|---|\n| 1 |\n");
    hasnt(h, "<caption>", "a caption is plain text");
    free(h);

    h = md("Table: no table follows\n\ntext\n");
    has(h, "<p>Table: no table follows</p>", "a Table: paragraph without a table stays");
    free(h);

    h = md("<script>alert(1)</script>\n\ntext <th>and</th> `<table>` <b>x</b>\n");
    hasnt(h, "<script>", "raw HTML blocks are dropped");
    hasnt(h, "<th", "raw inline HTML is dropped, not rewritten");
    has(h, "<code>&lt;table&gt;</code>", "code that looks like a tag stays text");
    hasnt(h, "<div class=\"scroll\"", "no region without a table");
    free(h);

    h = md("~~gone~~ and https://example.org/x and \"quotes\"\n");
    has(h, "<del>gone</del>", "strikethrough");
    has(h, "<a href=\"https://example.org/x\">", "autolink");
    has(h, "\xe2\x80\x9cquotes\xe2\x80\x9d", "smart quotes");
    free(h);

    h = md("## Is `PTX` JIT good enough?\n\n### What's \"declared\"?\n");
    has(h, "<h2 id=\"is-ptx-jit-good-enough\">", "h2 gets an id from its text");
    has(h, "<h3 id=\"what-s-declared\">", "h3 too, entities and quotes skipped");
    free(h);

    h = md("");
    STR_EQ(h, "", "empty input");
    free(h);
    return harness_done();
}
