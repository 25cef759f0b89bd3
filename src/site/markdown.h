/*
 * markdown: GitHub-flavoured Markdown to HTML for the site's prose pages
 * (the .md files in templates/content), with cmark-gfm and its table, strikethrough and
 * autolink extensions.
 *
 * Safe mode: raw HTML in the Markdown is dropped, so every tag in the
 * output comes from the renderer.  Tables are made like the generated ones:
 * header cells get scope="col", a paragraph "Table: what it shows" right
 * above a table becomes its <caption>, headings (## and ###) get an id made
 * from their text, and each table sits in a focusable
 * region that scrolls sideways on narrow screens instead of widening the
 * page.
 *
 * Ownership: the returned string belongs to the caller (free()).
 */
#ifndef WHEELARCH_MARKDOWN_H
#define WHEELARCH_MARKDOWN_H

#include <stddef.h>

#include "error.h"

/* Renders text[0..n) to *html.  Returns 0, or WA_ERR_* (cmark-gfm without
 * its table extension, or out of memory in the renderer). */
int markdown_to_html(const char *text, size_t n, char **html, struct wa_error *err);

#endif
