/*
 * Unit tests: the template engine (tmpl) and the official Mustache spec
 * cases for the features it supports.
 *
 * usage: test_tmpl                  the engine's own cases
 *        test_tmpl --spec SPEC_DIR  the official spec cases, read in place
 *                                   (exit 77, "skipped", without them)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "harness.h"
#include "strbuf.h"
#include "tmpl.h"
#include "tmpl_json.h"

/* A loader serving the string members of a JSON object, counting calls. */
struct map_loader {
    json_t *map;
    int calls;
};

static int map_load(void *ud, const char *name, char **text, size_t *len)
{
    struct map_loader *m = ud;
    json_t *v = json_object_get(m->map, name);
    m->calls++;
    if (!json_is_string(v))
        return -1;
    *len = json_string_length(v);
    *text = malloc(*len + 1);
    memcpy(*text, json_string_value(v), *len + 1);
    return 0;
}

static json_t *parse(const char *json)
{
    json_error_t jerr;
    json_t *v = json_loads(json, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
    if (!v)
        fprintf(stderr, "bad test JSON: %s: %s\n", json, jerr.text);
    return v;
}

/* Compiles and renders a template without partials. */
static void check(const char *tmpl, const char *data, const char *want)
{
    struct tmpl *t = NULL;
    struct wa_error err = {0};
    struct strbuf out = STRBUF_INIT;
    json_t *d = data ? parse(data) : NULL;
    int rc = tmpl_compile(tmpl, strlen(tmpl), &t, &err);
    if (rc == 0)
        rc = tmpl_json_render(NULL, t, d, &out, &err);
    OK(rc == 0, "%s: %s", tmpl, err.msg);
    if (rc == 0)
        STR_EQ(strbuf_str(&out), want, tmpl);
    strbuf_free(&out);
    tmpl_free(t);
    json_decref(d);
}

/* Compiles (and with data renders) a template expected to fail. */
static void check_error(const char *tmpl, const char *data, int code, const char *msg)
{
    struct tmpl *t = NULL;
    struct wa_error err = {0};
    struct strbuf out = STRBUF_INIT;
    int rc = tmpl_compile(tmpl, strlen(tmpl), &t, &err);
    if (rc == 0 && data) {
        json_t *d = parse(data);
        strbuf_adds(&out, "before");
        rc = tmpl_json_render(NULL, t, d, &out, &err);
        STR_EQ(strbuf_str(&out), "before", "output untouched after an error");
        json_decref(d);
    }
    INT_EQ(rc, code, tmpl);
    STR_EQ(err.msg, msg, tmpl);
    OK(rc != 0 || t != NULL, "template on success");
    strbuf_free(&out);
    tmpl_free(t);
}

static void test_escape(void)
{
    struct strbuf sb = STRBUF_INIT;
    tmpl_html_escape(&sb, "a&b<c>d\"e'f", 11);
    STR_EQ(strbuf_str(&sb), "a&amp;b&lt;c&gt;d&quot;e&#39;f", "escape");
    strbuf_reset(&sb);
    tmpl_html_escape(&sb, "", 0);
    tmpl_html_escape(&sb, "plain", 5);
    STR_EQ(strbuf_str(&sb), "plain", "nothing to escape");
    strbuf_free(&sb);
}

static void test_values(void)
{
    check("{{i}} {{big}} {{neg}}", "{\"i\": 85, \"big\": 9007199254740993, \"neg\": -42}",
          "85 9007199254740993 -42");
    check(
        "{{a}} {{b}} {{c}} {{d}} {{e}} {{f}} {{g}}",
        "{\"a\": 1.5, \"b\": 0.1, \"c\": 1e21, \"d\": -0.0, \"e\": 3.0, \"f\": 0.3333333333333333, "
        "\"g\": -2.5e-7}",
        "1.5 0.1 1e+21 0 3 0.3333333333333333 -2.5e-7");
    check("{{a}} {{b}} {{c}} {{d}}",
          "{\"a\": 1e-7, \"b\": 1.5e300, \"c\": 1e100, \"d\": 123456789.125}",
          "1e-7 1.5e+300 1e+100 123456789.125");
    check("{{a}} {{b}}", "{\"a\": -9223372036854775808, \"b\": 9223372036854775807}",
          "-9223372036854775808 9223372036854775807");
    check("[{{t}}|{{f}}|{{n}}|{{missing}}|{{{n}}}]", "{\"t\": true, \"f\": false, \"n\": null}",
          "[true|false|||]");
    check("{{s}}|{{{s}}}|{{& s}}", "{\"s\": \"<a href='x'>&</a>\"}",
          "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;|<a href='x'>&</a>|<a href='x'>&</a>");
    check("{{#e}}empty string is truthy{{/e}}{{#z}}, so is 0{{/z}}{{#o}}, and {}{{/o}}"
          "{{#l}}, not []{{/l}}",
          "{\"e\": \"\", \"z\": 0, \"o\": {}, \"l\": []}",
          "empty string is truthy, so is 0, and {}");
    check("{{#s}}[{{.}}]{{/s}}", "{\"s\": \"x\"}", "[x]");
    check("{{#list}}{{name}}{{.}};{{/list}}", "{\"name\": \"n\", \"list\": [\"a\", 2]}", "na;n2;");
    check("a {{x}} b", NULL, "a  b");

    /* strings may hold NUL bytes */
    struct tmpl *t;
    struct strbuf out = STRBUF_INIT;
    json_t *d = parse("{\"s\": \"a\\u0000<\"}");
    OK(tmpl_compile("{{s}}", 5, &t, NULL) == 0 && tmpl_json_render(NULL, t, d, &out, NULL) == 0,
       "NUL in a value");
    OK(out.len == 6 && memcmp(out.buf, "a\0&lt;", 6) == 0, "NUL kept, rest escaped");
    strbuf_free(&out);
    tmpl_free(t);
    json_decref(d);
}

static void test_syntax(void)
{
    check("a{{! one }}b{{#s}}c{{/s}}d{{! two }}e", "{\"s\": false}", "abde");
    check("a{{! one }}b{{#s}}c{{/s}}d{{! two }}e", "{\"s\": true}", "abcde");
    check("{{=<% %>=}}<%{x}%> <%&x%> <%x%> {{x}}", "{\"x\": \"<\"}", "< < &lt; {{x}}");
    check("{{=| |=}}|#a||b||/a|", "{\"a\": {\"b\": 1}}", "1");
    check("{{#a}}{{#b}}{{c}}{{/b}}{{/a}}", "{\"a\": {\"b\": [{\"c\": 1}, {\"c\": 2}]}, \"c\": 9}",
          "12");
    check("<ul>\n  {{#rows}}\n  <li>{{.}}</li>\n  {{/rows}}\n</ul>\n", "{\"rows\": [1, 2]}",
          "<ul>\n  <li>1</li>\n  <li>2</li>\n</ul>\n");
    check("{{data-updated}} {{meta.api-version}}",
          "{\"data-updated\": \"2026-01-01\", \"meta\": {\"api-version\": \"1.0\"}}",
          "2026-01-01 1.0");
}

static void test_errors(void)
{
    check_error("a\n  {{#rows}}\n{{x}}", NULL, WA_ERR_FORMAT,
                "line 2 column 3: section 'rows' is never closed");
    check_error("{{#a}}{{#b}}{{/a}}", NULL, WA_ERR_FORMAT,
                "line 1 column 13: '/a' does not close section 'b' (opened at line 1 column 7)");
    check_error("x\n{{/a}}", NULL, WA_ERR_FORMAT, "line 2 column 1: '/a' closes no open section");
    check_error("ab\ncd {{name", NULL, WA_ERR_FORMAT,
                "line 2 column 4: tag '{{' is never closed (no '}}')");
    check_error("{{{name}}", NULL, WA_ERR_FORMAT,
                "line 1 column 1: tag '{{' is never closed (no '}}}')");
    check_error("\xc3\xbcn\xc3\xaf {{", NULL, WA_ERR_FORMAT,
                "line 1 column 5: tag '{{' is never closed (no '}}')");
    check_error("{{=<% %>=}}\n<%#a%>", NULL, WA_ERR_FORMAT,
                "line 2 column 1: section 'a' is never closed");
    check_error("{{ }}", NULL, WA_ERR_FORMAT, "line 1 column 1: empty tag");
    check_error("{{a..b}}", NULL, WA_ERR_FORMAT, "line 1 column 1: invalid name 'a..b'");
    check_error("{{#a b}}{{/a b}}", NULL, WA_ERR_FORMAT, "line 1 column 1: invalid name 'a b'");
    check_error("{{.a}}", NULL, WA_ERR_FORMAT, "line 1 column 1: invalid name '.a'");
    check_error("{{> a b}}", NULL, WA_ERR_FORMAT, "line 1 column 1: invalid partial name 'a b'");
    check_error("{{=<%=}}", NULL, WA_ERR_FORMAT,
                "line 1 column 1: invalid delimiters '<%' (two strings of 1 to 16 bytes without "
                "spaces or '=')");
    check_error("{{=a = b=}}", NULL, WA_ERR_FORMAT,
                "line 1 column 1: invalid delimiters 'a = b' (two strings of 1 to 16 bytes "
                "without spaces or '=')");
    check_error("{{o}}", "{\"o\": {}}", WA_ERR_FORMAT,
                "line 1 column 1: 'o' is an object, not a value (use a section)");
    check_error("{{#a}}\n{{{a.b.c}}}{{/a}}", "{\"a\": {\"b\": {\"c\": [1]}}}", WA_ERR_FORMAT,
                "line 2 column 1: 'a.b.c' is an array, not a value (use a section)");
    check_error("\n {{#l}}{{.}}{{/l}}", "{\"l\": [[1]]}", WA_ERR_FORMAT,
                "line 2 column 8: '.' is an array, not a value (use a section)");
    check_error("x {{> p}}", "{}", WA_ERR_USAGE,
                "line 1 column 3: partial 'p' needs a template set");

    struct strbuf deep = STRBUF_INIT;
    for (int i = 0; i <= TMPL_MAX_NESTING; i++)
        strbuf_adds(&deep, "{{#a}}");
    check_error(deep.buf, NULL, WA_ERR_LIMIT,
                "line 1 column 601: sections nested more than 100 deep");
    strbuf_free(&deep);

    /* every prefix of a template compiles or fails cleanly */
    static const char full[] = "{{=<% %>=}}<%#a%>x<%{b}%><%/a%><%={{ }}=%>{{^c}}\n  {{> p}}\n"
                               "{{/c}}{{! note }}{{&d.e}}";
    for (size_t n = 0; n <= sizeof full - 1; n++) {
        struct tmpl *t = NULL;
        int rc = tmpl_compile(full, n, &t, NULL);
        OK(rc == 0 || rc == WA_ERR_FORMAT, "prefix %zu", n);
        tmpl_free(t);
    }
}

static void render_set(struct tmpl_set *s, const char *name, const char *data, const char *want)
{
    struct strbuf out = STRBUF_INIT;
    struct wa_error err = {0};
    json_t *d = parse(data);
    int rc = tmpl_json_render_name(s, name, d, &out, &err);
    OK(rc == 0, "%s: %s", name, err.msg);
    if (rc == 0)
        STR_EQ(strbuf_str(&out), want, name);
    strbuf_free(&out);
    json_decref(d);
}

static void set_error(struct tmpl_set *s, const char *name, int code, const char *msg)
{
    const struct tmpl *t = NULL;
    struct wa_error err = {0};
    int rc = tmpl_set_get(s, name, &t, &err);
    if (rc == 0) {
        struct strbuf out = STRBUF_INIT;
        json_t *d = json_object();
        rc = tmpl_json_render(s, t, d, &out, &err);
        OK(out.len == 0, "no output after an error");
        strbuf_free(&out);
        json_decref(d);
    }
    INT_EQ(rc, code, name);
    STR_EQ(err.msg, msg, name);
}

static void test_partials(void)
{
    struct map_loader m = {
        parse("{"
              "\"page\": \"<ul>\\n  {{#rows}}\\n  {{>row}}\\n  {{/rows}}\\n</ul>\\n\","
              "\"row\": \"<li>{{name}}</li>\\n\","
              "\"top\": \"  {{>p1}}\\n\","
              "\"p1\": \"x\\n  {{>p2}}\\n\","
              "\"p2\": \"y\\n{{v}}\\n\\nz\\n\","
              "\"inl\": \"  {{>a}}\\n\","
              "\"a\": \"a {{>b}} c\\nd\\n\","
              "\"b\": \"b1\\nb2\","
              "\"missing\": \"ok\\n{{#x}}\\n   {{>nope}}\\n{{/x}}\","
              "\"outer\": \"{{>inner}}\","
              "\"inner\": \"a\\n{{>nope}}\","
              "\"usesbad\": \"{{>bad}}\","
              "\"bad\": \"\\n {{#a}}\","
              "\"loop\": \"{{>loop}}\","
              "\"chain0\": \"0{{>chain1}}\","
              "\"chain1\": \"1{{>chain0}}\""
              "}"),
        0};
    struct tmpl_set *s = tmpl_set_new(map_load, &m);

    for (int i = 0; i < 3; i++)
        render_set(s, "page", "{\"rows\": [{\"name\": \"a&b\"}, {\"name\": \"c\"}]}",
                   "<ul>\n  <li>a&amp;b</li>\n  <li>c</li>\n</ul>\n");
    INT_EQ(m.calls, 2, "each template loaded once");
    render_set(s, "top", "{\"v\": \"1\\n2\"}", "  x\n    y\n    1\n2\n    \n    z\n");
    render_set(s, "inl", "{}", "  a b1\nb2 c\n  d\n");

    set_error(s, "missing", WA_ERR_IO, "line 3 column 4: cannot load partial 'nope'");
    set_error(s, "outer", WA_ERR_IO,
              "partial 'inner': line 2 column 1: cannot load partial 'nope'");
    set_error(s, "usesbad", WA_ERR_FORMAT,
              "partial 'bad': line 2 column 2: section 'a' is never closed");
    set_error(s, "zzz", WA_ERR_IO, "cannot load template 'zzz'");
    set_error(s, "loop", WA_ERR_LIMIT,
              "partial 'loop': line 1 column 1: partials nested more than 64 deep ('loop')");
    set_error(s, "chain0", WA_ERR_LIMIT,
              "partial 'chain0': line 1 column 2: partials nested more than 64 deep ('chain1')");

    /* a failed load leaves nothing behind: once the partial exists it works */
    json_object_set_new(m.map, "nope", json_string("[{{x}}]"));
    render_set(s, "outer", "{\"x\": 1}", "a\n[1]");
    render_set(s, "missing", "{\"x\": 2}", "ok\n   [2]");

    /* a template compiled outside the set finds its partials when rendered */
    struct tmpl *t;
    struct strbuf out = STRBUF_INIT;
    struct wa_error err = {0};
    json_t *d = parse("{\"name\": \"n\"}");
    OK(tmpl_compile("({{>row}})({{>absent}})", 23, &t, NULL) == 0, "compile with partials");
    INT_EQ(tmpl_json_render(s, t, d, &out, &err), WA_ERR_IO, "unknown partial while rendering");
    STR_EQ(err.msg, "line 1 column 12: cannot load partial 'absent'", "message");
    tmpl_free(t);
    OK(tmpl_compile("({{>row}})", 10, &t, NULL) == 0 && tmpl_json_render(s, t, d, &out, &err) == 0,
       "render through the set: %s", err.msg);
    STR_EQ(strbuf_str(&out), "(<li>n</li>\n)", "partial of a standalone template");
    tmpl_free(t);
    strbuf_free(&out);
    json_decref(d);

    tmpl_set_free(s);
    json_decref(m.map);
    tmpl_set_free(NULL);
    tmpl_free(NULL);
}

static void test_limits(void)
{
    struct map_loader m = {
        parse("{\"wide\": \"{{#l}}{{#l}}{{#l}}{{#l}}0123456789{{/l}}{{/l}}{{/l}}{{/l}}\","
              "\"busy\": \"{{#l}}{{#l}}{{#l}}{{#l}}{{#l}}{{/l}}{{/l}}{{/l}}{{/l}}{{/l}}\","
              "\"indent\": \"  {{>lines}}\\n\", \"lines\": \"a\\nb\\nc\\nd\\ne\\nf\\n\"}"),
        0};
    struct tmpl_set *s = tmpl_set_new(map_load, &m);
    const char *data = "{\"l\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}";
    struct strbuf out = STRBUF_INIT;
    struct wa_error err = {0};
    json_t *d = parse(data);
    INT_EQ(tmpl_json_render_name(s, "wide", d, &out, &err), 0, "default budget");
    INT_EQ(out.len, 100000, "10^4 times 10 bytes");
    strbuf_reset(&out);
    tmpl_set_limits(s, 1000, 0);
    INT_EQ(tmpl_json_render_name(s, "wide", d, &out, &err), WA_ERR_LIMIT, "output budget");
    STR_EQ(err.msg, "line 1 column 25: output larger than 1000 bytes", "output budget message");
    INT_EQ(tmpl_json_render_name(s, "indent", d, &out, &err), 0, "small output fits");
    tmpl_set_limits(s, 0, 5000);
    INT_EQ(tmpl_json_render_name(s, "busy", d, &out, &err), WA_ERR_LIMIT, "step budget");
    OK(strstr(err.msg, "render budget of 5000 steps exceeded") != NULL, "%s", err.msg);
    tmpl_set_limits(s, 0, 0);
    strbuf_reset(&out);
    INT_EQ(tmpl_json_render_name(s, "busy", d, &out, &err), 0, "default budget");
    strbuf_free(&out);
    json_decref(d);
    tmpl_set_free(s);
    json_decref(m.map);
}

static void test_dir_loader(void)
{
    char dir[] = "/tmp/test_tmpl.XXXXXX";
    char *text = NULL;
    size_t len = 0;
    if (!mkdtemp(dir)) {
        OK(0, "mkdtemp");
        return;
    }
    static const char *const files[][2] = {{"page.mustache", "{{>part}}!"},
                                           {"part.mustache", "hi {{n}}"}};
    for (int i = 0; i < 2; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
        FILE *f = fopen(path, "w");
        OK(f && fputs(files[i][1], f) >= 0 && fclose(f) == 0, "write %s", path);
    }
    struct tmpl_set *s = tmpl_set_new(tmpl_dir_loader, dir);
    render_set(s, "page", "{\"n\": 1}", "hi 1!");
    tmpl_set_free(s);
    static const char *const bad[] = {"", "..", "../page", "a/b", "a\\b", "x..y"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        INT_EQ(tmpl_dir_loader(dir, bad[i], &text, &len), WA_ERR_USAGE, bad[i]);
    INT_EQ(tmpl_dir_loader(dir, "absent", &text, &len), WA_ERR_IO, "missing file");
    OK(text == NULL, "no text on failure");
    for (int i = 0; i < 2; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
        unlink(path);
    }
    rmdir(dir);
}

/* ---- the Mustache spec ---- */

/* Cases left out on purpose, by file and name. */
static const struct {
    const char *file, *name, *why;
} spec_skips[] = {
    /* A partial that cannot be loaded is an error (with its line and
     * column), not an empty string: a misspelt partial name must fail the
     * build rather than silently drop part of a page. */
    {"partials.json", "Failed Lookup", "unknown partials are errors"},
};

/* Optional spec modules for features tmpl does not have. */
static const char *const spec_optional[] = {"~lambdas.json", "~inheritance.json",
                                            "~dynamic-names.json"};

#define SPEC_MAIN "<spec template>"

struct spec_loader {
    json_t *partials;
    const char *main;
};

static int spec_load(void *ud, const char *name, char **text, size_t *len)
{
    struct spec_loader *l = ud;
    const char *s;
    if (strcmp(name, SPEC_MAIN) == 0) {
        s = l->main;
    } else {
        json_t *p = json_object_get(l->partials, name);
        if (!json_is_string(p))
            return -1;
        s = json_string_value(p);
    }
    *len = strlen(s);
    *text = malloc(*len + 1);
    memcpy(*text, s, *len + 1);
    return 0;
}

static const char *spec_skip_reason(const char *file, const char *name)
{
    for (size_t i = 0; i < sizeof spec_skips / sizeof spec_skips[0]; i++)
        if (strcmp(spec_skips[i].file, file) == 0 && strcmp(spec_skips[i].name, name) == 0)
            return spec_skips[i].why;
    return NULL;
}

/* Runs one case twice: compiled on its own and rendered through a set
 * (partials found while rendering), and loaded by name from the set
 * (partials linked when loading).  Returns whether both match. */
static int spec_case(const char *file, json_t *c)
{
    const char *name = json_string_value(json_object_get(c, "name"));
    const char *tmpl = json_string_value(json_object_get(c, "template"));
    const char *want = json_string_value(json_object_get(c, "expected"));
    json_t *data = json_object_get(c, "data");
    struct spec_loader l = {json_object_get(c, "partials"), tmpl};
    int ok = 1;
    if (!name || !tmpl || !want) {
        OK(0, "%s: malformed case", file);
        return 0;
    }
    for (int pass = 0; pass < 2; pass++) {
        struct tmpl_set *s = tmpl_set_new(spec_load, &l);
        struct strbuf out = STRBUF_INIT;
        struct wa_error err = {0};
        struct tmpl *t = NULL;
        int rc;
        if (pass == 0) {
            rc = tmpl_compile(tmpl, strlen(tmpl), &t, &err);
            if (rc == 0)
                rc = tmpl_json_render(s, t, data, &out, &err);
        } else {
            rc = tmpl_json_render_name(s, SPEC_MAIN, data, &out, &err);
        }
        OK(rc == 0, "%s: %s (%s): %s", file, name, pass ? "by name" : "compiled", err.msg);
        if (rc == 0)
            OK(strcmp(strbuf_str(&out), want) == 0, "%s: %s (%s): got \"%s\", want \"%s\"", file,
               name, pass ? "by name" : "compiled", strbuf_str(&out), want);
        ok = ok && rc == 0 && strcmp(strbuf_str(&out), want) == 0;
        strbuf_free(&out);
        tmpl_free(t);
        tmpl_set_free(s);
    }
    return ok;
}

static void test_spec(const char *dir)
{
    static const char *const files[] = {"interpolation.json", "sections.json", "inverted.json",
                                        "partials.json",      "comments.json", "delimiters.json"};
    int total = 0, total_passed = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[4096];
        json_error_t jerr;
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        json_t *spec = json_load_file(path, 0, &jerr);
        json_t *tests = json_object_get(spec, "tests");
        OK(json_is_array(tests), "%s: %s", path, jerr.text);
        int passed = 0, failed = 0, skipped = 0;
        size_t i;
        json_t *c;
        json_array_foreach(tests, i, c)
        {
            const char *name = json_string_value(json_object_get(c, "name"));
            const char *why = spec_skip_reason(files[f], name ? name : "");
            if (why) {
                printf("mustache spec: %s: skipped \"%s\": %s\n", files[f], name, why);
                skipped++;
            } else if (spec_case(files[f], c)) {
                passed++;
            } else {
                failed++;
            }
        }
        printf("mustache spec: %s: %d passed, %d failed, %d skipped\n", files[f], passed, failed,
               skipped);
        total += passed + failed + skipped;
        total_passed += passed;
        json_decref(spec);
    }
    printf("mustache spec: %d of %d cases pass\n", total_passed, total);
    for (size_t f = 0; f < sizeof spec_optional / sizeof spec_optional[0]; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, spec_optional[f]);
        if (access(path, R_OK) == 0)
            printf("mustache spec: %s skipped: optional feature not supported\n", spec_optional[f]);
    }
}

/* Exit status CTest counts as "skipped" (SKIP_RETURN_CODE). */
#define SKIPPED 77

/* ---- typed data: a struct read through a tmpl_type -------------------------- */

struct person {
    const char *name;
    long long age;
    int admin;
    const char *tags[3];
    size_t ntags;
};

static size_t tags_len(const struct tmpl_value *v)
{
    return ((const struct person *)v->p)->ntags;
}

static void tags_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_str(((const struct person *)v->p)->tags[i], out);
}

static const struct tmpl_type tags_type = {NULL, tags_len, tags_at, NULL, 0};
static const struct tmpl_type person_type;

static void person_get(const struct tmpl_value *v, const char *name, size_t len,
                       struct tmpl_value *out)
{
    const struct person *p = v->p;
    out->kind = TMPL_MISSING;
    if (len == 4 && memcmp(name, "name", 4) == 0)
        tmpl_value_str(p->name, out); /* NULL: null, which stops the lookup */
    else if (len == 3 && memcmp(name, "age", 3) == 0)
        tmpl_value_int(p->age, out);
    else if (len == 5 && memcmp(name, "admin", 5) == 0)
        tmpl_value_bool(p->admin, out);
    else if (len == 4 && memcmp(name, "tags", 4) == 0)
        tmpl_value_typed(TMPL_ARRAY, &tags_type, p, 0, out);
    else if (len == 2 && memcmp(name, "id", 2) == 0)
        tmpl_value_strf(out, "p-%lld", p->age);
    else if (len == 4 && memcmp(name, "self", 4) == 0)
        tmpl_value_typed(TMPL_OBJECT, &person_type, p, 0, out);
}

static const struct tmpl_type person_type = {person_get, NULL, NULL, NULL, 0};

/* The same person declared by a field table (TMPL_FIELDS): its plain
 * members by type (TMPL_STR, TMPL_LLONG, TMPL_BOOL), the rest by a getter
 * per row, a name the table lacks left missing. */
static const struct tmpl_type person_table_type;
#define PERSON(v) ((const struct person *)(v)->p)

static void person_tags(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_ARRAY, &tags_type, v->p, 0, out);
}

static void person_id(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_strf(out, "p-%lld", PERSON(v)->age);
}

static void person_self(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_typed(TMPL_OBJECT, &person_table_type, v->p, 0, out);
}

/* "admin" twice: the first row counts */
static void person_never(const struct tmpl_value *v, struct tmpl_value *out)
{
    (void)v;
    tmpl_value_str("second row", out);
}

static const struct tmpl_field person_fields[] = {
    TMPL_GET("tags", person_tags),
    TMPL_STR("name", struct person, name),
    TMPL_LLONG("age", struct person, age),
    TMPL_BOOL("admin", struct person, admin),
    TMPL_GET("id", person_id),
    TMPL_GET("self", person_self),
    TMPL_GET("admin", person_never),
};

static const struct tmpl_type person_table_type = TMPL_FIELDS(person_fields);

/* The same template over a struct and over the JSON of the same data
 * renders the same bytes; typed values sit on the stack like JSON ones. */
static void test_typed(void)
{
    static const char *const tmpls[] = {
        "{{name}} ({{age}}){{#admin}} admin{{/admin}}: {{#tags}}<{{.}}>{{/tags}}",
        "{{^tags}}none{{/tags}}{{#tags}}{{name}}/{{.}} {{/tags}}",
        "{{self.name}} {{self.self.age}} {{id}} {{missing}}|{{site}}",
        "{{#self}}{{#admin}}{{&name}}{{/admin}}{{/self}}",
    };
    struct person people[] = {{"Ada <L>", 36, 1, {"x&y", "b"}, 2}, {"Bob", 7, 0, {0}, 0}};
    for (size_t k = 0; k < 2; k++) {
        const struct person *p = &people[k];
        json_t *j = json_pack("{s:s,s:I,s:b,s:[],s:s}", "name", p->name, "age", (json_int_t)p->age,
                              "admin", p->admin, "tags", "id", "");
        for (size_t i = 0; i < p->ntags; i++)
            json_array_append_new(json_object_get(j, "tags"), json_string(p->tags[i]));
        char id[32];
        snprintf(id, sizeof id, "p-%lld", p->age);
        json_object_set_new(j, "id", json_string(id));
        /* "self" two levels deep, as the struct's is */
        json_t *inner = json_deep_copy(j), *mid = json_deep_copy(j);
        json_object_set_new(mid, "self", inner);
        json_object_set_new(j, "self", mid);
        json_t *site = json_pack("{s:s,s:s}", "site", "S", "name", "under");
        for (size_t t = 0; t < sizeof tmpls / sizeof *tmpls; t++) {
            struct tmpl *tp = NULL;
            struct wa_error err = {0};
            OK(tmpl_compile(tmpls[t], strlen(tmpls[t]), &tp, &err) == 0, "%s", err.msg);
            struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
            struct tmpl_value ctx[2];
            tmpl_json_value(site, &ctx[0]);
            tmpl_value_typed(TMPL_OBJECT, &person_type, p, 0, &ctx[1]);
            OK(tmpl_render_values(NULL, tp, ctx, 2, &a, &err) == 0, "typed: %s", err.msg);
            tmpl_json_value(j, &ctx[1]);
            OK(tmpl_render_values(NULL, tp, ctx, 2, &b, &err) == 0, "JSON: %s", err.msg);
            STR_EQ(strbuf_str(&a), strbuf_str(&b), tmpls[t]);
            struct strbuf c = STRBUF_INIT;
            tmpl_value_typed(TMPL_OBJECT, &person_table_type, p, 0, &ctx[1]);
            OK(tmpl_render_values(NULL, tp, ctx, 2, &c, &err) == 0, "table: %s", err.msg);
            STR_EQ(strbuf_str(&c), strbuf_str(&a), tmpls[t]);
            strbuf_free(&a);
            strbuf_free(&b);
            strbuf_free(&c);
            tmpl_free(tp);
        }
        json_decref(j);
        json_decref(site);
    }
    /* an object interpolated is an error, typed or not */
    struct tmpl *tp = NULL;
    struct wa_error err = {0};
    tmpl_compile("{{self}}", 8, &tp, &err);
    struct tmpl_value v;
    tmpl_value_typed(TMPL_OBJECT, &person_type, &people[0], 0, &v);
    struct strbuf out = STRBUF_INIT;
    OK(tmpl_render_values(NULL, tp, &v, 1, &out, &err) == WA_ERR_FORMAT &&
           strstr(err.msg, "an object"),
       "a typed object interpolated: %s", err.msg);
    strbuf_free(&out);
    tmpl_free(tp);
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--spec") == 0) {
        /* the official spec cases, read in place: a test of its own that
         * says "skipped" when the folder is not there */
        if (access(argv[2], R_OK) != 0) {
            printf("mustache spec: no folder %s: skipped\n", argv[2]);
            return SKIPPED;
        }
        test_spec(argv[2]);
        return harness_done();
    }
    test_escape();
    test_values();
    test_syntax();
    test_errors();
    test_partials();
    test_limits();
    test_dir_loader();
    test_typed();
    return harness_done();
}
