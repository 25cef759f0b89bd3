/*
 * Unit tests: index page links (HTML and JSON), URL resolution, entities,
 * the crawler's configuration, variants and shards.
 *
 * usage: test_indexpage [SAMPLES_DIR]   (tests/fixtures/index-pages)
 */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "config.h"
#include "crawl.h"
#include "variant.h"
#include "wheelname.h"
#include "fsutil.h"
#include "harness.h"
#include "target.h"
#include "xalloc.h"
#include "vendorindex.h"
#include "observed.h"
#include "tables.h"
#include "indexpage.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Peak resident set so far, in MiB. */
/* AddressSanitizer keeps freed memory in quarantine and pads every block,
 * so a peak's growth under it says little about the parser's own: the
 * memory bounds below hold in the plain build, and under ASan each is
 * reported but not held (it failed one CI run at 64 MiB, passing alone). */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

/* Whether a growth of mib MiB is within bound (always, under ASan). */
static int within(long mib, long bound)
{
    if (UNDER_ASAN && mib >= bound)
        printf("# under ASan: %ld MiB, bound %ld MiB not held\n", mib, bound);
    return UNDER_ASAN || mib < bound;
}

static long peak_mib(void)
{
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return r.ru_maxrss / 1024;
}

/* s + n copies of unit + t, and its length. */
static char *repeat(const char *s, const char *unit, size_t n, const char *t, size_t *len)
{
    size_t sl = strlen(s), ul = strlen(unit), tl = strlen(t);
    char *p = malloc(sl + n * ul + tl + 1);
    memcpy(p, s, sl);
    for (size_t i = 0; i < n; i++)
        memcpy(p + sl + i * ul, unit, ul);
    memcpy(p + sl + n * ul, t, tl + 1);
    *len = sl + n * ul + tl;
    return p;
}

static void resolve(const char *base, const char *href, const char *want)
{
    char *got = indexpage_resolve(base, href);
    STR_EQ(got, want, href);
    free(got);
}

static void test_resolve(void)
{
    const char *b = "https://download.pytorch.org/whl/cu117/torch/";
    resolve(
        b, "/whl/cu117/torch-1.13.0%2Bcu117-cp310-cp310-win_amd64.whl#sha256=ab",
        "https://download.pytorch.org/whl/cu117/torch-1.13.0%2Bcu117-cp310-cp310-win_amd64.whl");
    resolve(b, "https://download-r2.pytorch.org/whl/cu128/x.whl",
            "https://download-r2.pytorch.org/whl/cu128/x.whl");
    resolve(b, "../../torch-2.0.1-cp38-cp38-manylinux2014_aarch64.whl",
            "https://download.pytorch.org/whl/torch-2.0.1-cp38-cp38-manylinux2014_aarch64.whl");
    resolve(b, "x.whl", "https://download.pytorch.org/whl/cu117/torch/x.whl");
    resolve(b, "./a/../b.whl", "https://download.pytorch.org/whl/cu117/torch/b.whl");
    resolve(b, "//mirror.example/p/x.whl", "https://mirror.example/p/x.whl");
    resolve(b, "x.whl?token=1#frag", "https://download.pytorch.org/whl/cu117/torch/x.whl?token=1");
    resolve("http://127.0.0.1:8080/simple/torch", "x.whl", "http://127.0.0.1:8080/simple/x.whl");
    resolve("http://h/a/b/", "../../../../x", "http://h/x");
}

static void test_entities(void)
{
    static const char in[] = "&gt;=3.9, !=3.10.*&amp;&lt;4 &#62;&#x3E; &bogus; & &#xZZ;";
    char *s = indexpage_entity_decode(in, sizeof in - 1);
    STR_EQ(s, ">=3.9, !=3.10.*&<4 >> &bogus; & &#xZZ;", "entities");
    free(s);
    s = indexpage_entity_decode("&#x1F600;&#0;&#99999999;", 24);
    STR_EQ(s, "\xF0\x9F\x98\x80\xEF\xBF\xBD\xEF\xBF\xBD", "numeric references");
    free(s);
}

static void test_html(void)
{
    static const char page[] =
        "<!DOCTYPE html><html><body><h1>Links for torch</h1>\n"
        "<!-- <a href=\"commented.whl\">no</a> -->\n"
        "<a href=\"/whl/cu128/torch-2.10.0%2Bcu128-cp312-cp312-manylinux_2_28_x86_64.whl#sha256="
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\" "
        "data-dist-info-metadata=\"sha256=bb\" data-upload-time=\"2026-01-21T18:04:11Z\" "
        "data-requires-python=\"&gt;=3.10\">torch-2.10.0+cu128-cp312-cp312-manylinux_2_28_x86_64."
        "whl</a><br/>\n"
        "<A HREF='torch-2.0.1-cp38-cp38-manylinux2014_aarch64.whl' data-yanked>x</A>\n"
        "<a href=torch-1.0-py3-none-any.whl data-yanked=\"bad &quot;build&quot;\">y</a>\n"
        "<abbr href=\"not-a-link.whl\">z</abbr><a>no href</a><a href=\"\">empty</a>\n"
        "<a "
        "href=\"https://other.example/files/torch-2.1.0-cp311-cp311-win_amd64.whl#md5=00\">w</a>";
    struct index_page p;
    OK(indexpage_parse_html("https://download.pytorch.org/whl/cu128/torch/", page, sizeof page - 1,
                            &p, NULL) == 0,
       "parse html");
    INT_EQ(p.n, 4, "links");
    if (p.n == 4) {
        STR_EQ(p.links[0].filename, "torch-2.10.0+cu128-cp312-cp312-manylinux_2_28_x86_64.whl",
               "%2B decoded in file name");
        OK(strstr(p.links[0].url, "%2Bcu128") != NULL, "%%2B kept in URL");
        STR_EQ(p.links[0].sha256,
               "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
               "sha256 fragment as given (the crawler checks and lowercases it)");
        STR_EQ(p.links[0].requires_python, ">=3.10", "requires-python decoded");
        STR_EQ(p.links[0].upload_time, "2026-01-21T18:04:11Z", "upload time");
        OK(p.links[0].has_metadata, "metadata attribute");
        OK(p.links[0].yanked == NULL, "not yanked");
        STR_EQ(p.links[1].url,
               "https://download.pytorch.org/whl/cu128/torch/"
               "torch-2.0.1-cp38-cp38-manylinux2014_aarch64.whl",
               "relative href, uppercase tag and attribute");
        STR_EQ(p.links[1].yanked, "", "boolean data-yanked");
        OK(p.links[1].sha256 == NULL, "no hash");
        STR_EQ(p.links[2].yanked, "bad \"build\"", "yank reason decoded");
        STR_EQ(p.links[3].url, "https://other.example/files/torch-2.1.0-cp311-cp311-win_amd64.whl",
               "other host");
        OK(p.links[3].sha256 == NULL, "md5 fragment ignored");
    }
    indexpage_free(&p);
    /* A reason that is not UTF-8, or spans lines, still yanks the wheel:
     * it is kept as one line, the bytes a record may not hold as \xNN
     * (before, such a reason was dropped and the wheel read as not yanked,
     * or the wheel failed) */
    {
        static const char yanked[] =
            "<a href=\"a-1.0-py3-none-any.whl\" data-yanked=\"bad \xff build\">a</a>\n"
            "<a href=\"b-1.0-py3-none-any.whl\" data-yanked=\"two&#10;lines\">b</a>\n"
            "<a href=\"c-1.0-py3-none-any.whl\" data-yanked=\"caf\xc3\xa9\">c</a>\n";
        OK(indexpage_parse_html("https://example.org/simple/a/", yanked, sizeof yanked - 1, &p,
                                NULL) == 0,
           "parse the yanked links");
        INT_EQ(p.n, 3, "three yanked links");
        if (p.n == 3) {
            STR_EQ(p.links[0].yanked, "bad \\xff build", "invalid UTF-8: kept, as \\xNN");
            STR_EQ(p.links[1].yanked, "two\\x0alines", "a line break: kept on one line");
            STR_EQ(p.links[2].yanked, "caf\xc3\xa9", "UTF-8 as it is");
        }
        indexpage_free(&p);
    }

    static const char based[] =
        "<base href=\"https://mirror.example/pkgs/\"><a href=\"x.whl\">x</a>";
    OK(indexpage_parse_html("https://h/simple/torch/", based, sizeof based - 1, &p, NULL) == 0 &&
           p.n == 1 && strcmp(p.links[0].url, "https://mirror.example/pkgs/x.whl") == 0,
       "<base href>");
    indexpage_free(&p);

    /* Truncated markup never reads past the end. */
    for (size_t n = 0; n < sizeof page - 1; n += 7) {
        OK(indexpage_parse_html("https://h/", page, n, &p, NULL) == 0, "truncated at %zu", n);
        indexpage_free(&p);
    }
}

static void test_json(void)
{
    static const char page[] =
        "{\"meta\": {\"api-version\": \"1.1\"}, \"name\": \"torch\", \"files\": ["
        "{\"filename\": \"torch-2.8.0+cpu-cp312-cp312-manylinux_2_28_x86_64.whl\", "
        "\"url\": \"/whl/cpu/torch-2.8.0%2Bcpu-cp312-cp312-manylinux_2_28_x86_64.whl\", "
        "\"hashes\": {\"sha256\": "
        "\"CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC\"}, "
        "\"requires-python\": \">=3.9\", \"yanked\": \"oops\", \"core-metadata\": {\"sha256\": "
        "\"x\"}, \"size\": 184523456},"
        "{\"filename\": \"b.whl\", \"url\": \"b.whl\", \"hashes\": {}, \"yanked\": false, "
        "\"size\": -5}]}";
    struct index_page p;
    OK(indexpage_parse("https://h/whl/cpu/torch/", "application/vnd.pypi.simple.v1+json", page,
                       sizeof page - 1, &p, NULL) == 0,
       "parse json");
    INT_EQ(p.n, 2, "json files");
    if (p.n == 2) {
        STR_EQ(p.links[0].url,
               "https://h/whl/cpu/torch-2.8.0%2Bcpu-cp312-cp312-manylinux_2_28_x86_64.whl",
               "json url resolved");
        STR_EQ(p.links[0].sha256,
               "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC", "hash as given");
        STR_EQ(p.links[0].yanked, "oops", "yank reason");
        OK(p.links[0].has_metadata, "core-metadata");
        OK(p.links[1].yanked == NULL && p.links[1].sha256 == NULL, "second file");
        OK(p.links[0].size == 184523456, "PEP 700 size");
        OK(p.links[1].size == -1, "a negative size is no size");
    }
    indexpage_free(&p);
    static const char v2[] = "{\"meta\": {\"api-version\": \"2.0\"}, \"files\": []}";
    OK(indexpage_parse_json("https://h/", v2, sizeof v2 - 1, &p, NULL) == WA_ERR_UNSUPPORTED,
       "api-version 2 refused");
    OK(indexpage_parse_json("https://h/", "{", 1, &p, NULL) == WA_ERR_FORMAT, "bad json");
}

/* An href of 10 MB with a million '/' once took a pointer and a string per
 * segment (about 44 bytes a '/', so a 250 MB href aborted for want of
 * memory): now a link longer than INDEXPAGE_MAX_URL is counted and
 * skipped before anything is copied. */
static void test_long_href(void)
{
    static const char *units[] = {"abcdefghi/", "/"};
    size_t counts[] = {1000000, 10000000};
    for (size_t u = 0; u < 2; u++) {
        size_t n;
        char *page = repeat("<a href=\"x", units[u], counts[u],
                            "torch-1.0-py3-none-any.whl\">t</a>\n"
                            "<a href=\"torch-1.1-py3-none-any.whl\">u</a>",
                            &n);
        struct index_page p;
        long rss = peak_mib();
        double t0 = now();
        OK(indexpage_parse_html("https://h/simple/torch/", page, n, &p, NULL) == 0,
           "page with a %zu-byte href parses", n);
        double dt = now() - t0;
        OK(dt < 2.0, "%zu-byte href took %.2f s", n, dt);
        OK(within(peak_mib() - rss, 32), "%zu-byte href took %ld MiB", n, peak_mib() - rss);
        INT_EQ(p.n, 1, "links beside a long href");
        INT_EQ(p.skipped, 1, "long href counted");
        if (p.n == 1)
            STR_EQ(p.links[0].url, "https://h/simple/torch/torch-1.1-py3-none-any.whl",
                   "the short link");
        indexpage_free(&p);
        free(page);
    }

    /* The limit itself: an href of INDEXPAGE_MAX_URL bytes is read, one
     * byte more is not; so is a relative one that grows past it. */
    char href[INDEXPAGE_MAX_URL + 2];
    for (size_t extra = 0; extra < 2; extra++) {
        size_t hl = INDEXPAGE_MAX_URL + extra;
        memset(href, 'a', hl);
        memcpy(href, "https://h/", 10);
        memcpy(href + hl - 4, ".whl", 5);
        char *page = malloc(hl + 32);
        int n = snprintf(page, hl + 32, "<a href='%s'>x</a>", href);
        struct index_page p;
        OK(indexpage_parse_html("https://h/", page, (size_t)n, &p, NULL) == 0, "href at the limit");
        INT_EQ(p.n, 1 - extra, "href of INDEXPAGE_MAX_URL + extra bytes");
        INT_EQ(p.skipped, extra, "skipped at INDEXPAGE_MAX_URL + extra");
        indexpage_free(&p);
        memset(href, 'a', INDEXPAGE_MAX_URL - 4);
        memcpy(href + INDEXPAGE_MAX_URL - 4, ".whl", 5);
        snprintf(page, hl + 32, "<a href='%s'>x</a>", href);
        OK(indexpage_parse_html("https://h/simple/", page, strlen(page), &p, NULL) == 0 &&
               p.n == 0 && p.skipped == 1,
           "relative href resolved past the limit is skipped");
        indexpage_free(&p);
        free(page);
    }

    /* indexpage_resolve has no limit, but is linear: a million segments,
     * then a million "..". */
    size_t n;
    char *up = repeat("", "../", 1000000, "x.whl", &n);
    char *down = repeat("", "a/", 1000000, up, &n);
    double t0 = now();
    char *got = indexpage_resolve("https://h/s/", down);
    OK(now() - t0 < 2.0, "resolving a million segments took %.2f s", now() - t0);
    STR_EQ(got, "https://h/s/x.whl", "a million segments and a million ..");
    free(got);
    free(down);
    free(up);
    resolve("https://h/p/", "/a/b/../c?x=/../y#f", "https://h/a/c?x=/../y");
    resolve("https://h/p/", "a//b/../../c", "https://h/p/a/c");
    resolve("https://h/p/", "../../..", "https://h/");
    resolve("https://h/p/", ".", "https://h/p/");
}

/* Each <base href> was resolved against the one before: 20,000 tags took
 * 10 s.  Now only the first counts, for every link of the document. */
static void test_base(void)
{
    size_t n;
    char *page = repeat("<a href=\"torch-1.0-py3-none-any.whl\">t</a>", "<base href=\"a/\">",
                        100000, "<a href=\"../torch-1.1-py3-none-any.whl\">u</a>", &n);
    struct index_page p;
    double t0 = now();
    OK(indexpage_parse_html("https://h/simple/torch/", page, n, &p, NULL) == 0,
       "100,000 <base> tags");
    OK(now() - t0 < 1.0, "100,000 <base> tags took %.2f s", now() - t0);
    INT_EQ(p.n, 2, "links around 100,000 <base> tags");
    if (p.n == 2) {
        STR_EQ(p.links[0].url, "https://h/simple/torch/a/torch-1.0-py3-none-any.whl",
               "the first <base> counts for a link before it");
        STR_EQ(p.links[1].url, "https://h/simple/torch/torch-1.1-py3-none-any.whl",
               "and for a link after the others");
    }
    indexpage_free(&p);
    free(page);

    static const struct {
        const char *html;
        const char *url;
    } cases[] = {
        {"<base target=_top><base href='https://m/p/'><base href='https://n/'><a href=x.whl>",
         "https://m/p/x.whl"},
        {"<base href><base href='https://m/'><a href=x.whl>", "https://h/s/x.whl"},
        {"<base href=''><base href='https://m/'><a href=x.whl>", "https://h/s/x.whl"},
        {"<!-- <base href='https://c/'> --><base href='../q/'><a href=x.whl>", "https://h/q/x.whl"},
        /* A '=' starting an attribute is part of its name: it no longer
         * swallows the '>' and the next tag as attributes. */
        {"<a =x><base href='https://m/'><a href=x.whl>", "https://m/x.whl"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        OK(indexpage_parse_html("https://h/s/", cases[i].html, strlen(cases[i].html), &p, NULL) ==
                   0 &&
               p.n == 1 && strcmp(p.links[0].url, cases[i].url) == 0,
           "base case %zu: %s", i, p.n ? p.links[0].url : "no link");
        indexpage_free(&p);
    }

    /* A <base> longer than INDEXPAGE_MAX_URL is ignored. */
    char *longbase =
        repeat("<base href='https://m/", "b", INDEXPAGE_MAX_URL, "/'><a href=x.whl>", &n);
    OK(indexpage_parse_html("https://h/s/", longbase, n, &p, NULL) == 0 && p.n == 1 &&
           strcmp(p.links[0].url, "https://h/s/x.whl") == 0,
       "overlong <base> ignored");
    indexpage_free(&p);
    free(longbase);

    /* Many tiny links under an 8 KB <base> would keep 8 KB each (200,000
     * of them: 1.6 GB from a 3 MB page): the links' strings may take twice
     * the page and INDEXPAGE_TEXT_SLACK. */
    char *amp = repeat("<base href=\"/", "b", 8000, "/\">", &n);
    char *amp2 = repeat(amp, "<a href=x.whl>", 200000, "", &n);
    struct wa_error err;
    long rss = peak_mib();
    t0 = now();
    OK(indexpage_parse_html("https://h/s/", amp2, n, &p, &err) == WA_ERR_LIMIT,
       "links under a long <base> refused");
    OK(now() - t0 < 1.0, "refused in %.2f s", now() - t0);
    OK(within(peak_mib() - rss, 64), "links under a long <base> took %ld MiB", peak_mib() - rss);
    OK(strstr(err.msg, "take more than") != NULL, "message: %s", err.msg);
    free(amp2);
    free(amp);
}

static int json_version(const char *ver, struct wa_error *err)
{
    char page[256];
    snprintf(page, sizeof page,
             "{\"meta\": {\"api-version\": \"%s\"}, \"files\": [{\"url\": \"x.whl\"}]}", ver);
    struct index_page p;
    int rc = indexpage_parse_json("https://h/s/", page, strlen(page), &p, err);
    if (rc == 0) {
        if (p.n != 1)
            rc = 1;
        indexpage_free(&p);
    }
    return rc;
}

/* meta.api-version was read with strtol, so "1e9" passed as 1.x. */
static void test_api_version(void)
{
    static const char *good[] = {"1.0", "1.1", "1.99999999999999999999", "01.0", "1.01"};
    static const char *bad[] = {"1e9",  "1",    "1.",   ".1",    "1.0.0",     " 1.0", "1.0 ",
                                "+1.0", "-1.0", "1.x",  "1,0",   "0x1.0",     "",     "1.0\\n",
                                "1.-0", "1e0",  "v1.0", "1.0.a", "\\u00b91.0"};
    static const char *unsupported[] = {"2.0", "0.9", "0.0", "10.0", "99999999999999999999.0"};
    struct wa_error err;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        wa_error_clear(&err);
        OK(json_version(good[i], &err) == 0, "api-version %s: %s", good[i], err.msg);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        OK(json_version(bad[i], &err) == WA_ERR_FORMAT, "api-version \"%s\" refused", bad[i]);
        OK(strstr(err.msg, "is not MAJOR.MINOR") != NULL, "message: %s", err.msg);
    }
    OK(json_version("1e9", &err) < 0 && strstr(err.msg, "\"1e9\"") != NULL,
       "message names the value: %s", err.msg);
    OK(json_version("1.0\\u001b[2J", &err) < 0 && strstr(err.msg, "\\x1b[2J") != NULL,
       "control characters escaped: %s", err.msg);
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++) {
        OK(json_version(unsupported[i], &err) == WA_ERR_UNSUPPORTED, "api-version %s unsupported",
           unsupported[i]);
        OK(strstr(err.msg, unsupported[i]) != NULL, "message: %s", err.msg);
    }
}

static void test_json_limits(void)
{
    /* Long URLs and file names are skipped and counted, as in HTML. */
    size_t n;
    char *longurl = repeat("{\"meta\": {\"api-version\": \"1.0\"}, \"files\": [{\"url\": \"", "a",
                           INDEXPAGE_MAX_URL, ".whl\"}, {\"url\": \"b.whl\", \"filename\": \"", &n);
    char *page = repeat(longurl, "f", INDEXPAGE_MAX_URL + 1, "\"}, {\"url\": \"c.whl\"}]}", &n);
    struct index_page p;
    OK(indexpage_parse_json("https://h/s/", page, n, &p, NULL) == 0, "long JSON url and filename");
    INT_EQ(p.n, 1, "JSON links left");
    INT_EQ(p.skipped, 2, "JSON links skipped");
    if (p.n == 1)
        STR_EQ(p.links[0].url, "https://h/s/c.whl", "JSON short link");
    indexpage_free(&p);
    free(page);
    free(longurl);

    /* jansson takes about 232 bytes for each "{}," (3 bytes): 60 MB of
     * them took 4.5 GB.  The tree is sized up first. */
    char *objs =
        repeat("{\"meta\": {\"api-version\": \"1.0\"}, \"files\": [{}", ",{}", 5000000, "]}", &n);
    struct wa_error err;
    long rss = peak_mib();
    double t0 = now();
    OK(indexpage_parse_json("https://h/s/", objs, n, &p, &err) == WA_ERR_LIMIT,
       "5,000,000 empty objects refused");
    OK(now() - t0 < 1.0, "refused in %.2f s", now() - t0);
    OK(within(peak_mib() - rss, 32), "5,000,000 empty objects took %ld MiB", peak_mib() - rss);
    OK(strstr(err.msg, "to parse") != NULL, "message: %s", err.msg);
    free(objs);

    /* A bad page's message quotes what jansson saw, escaped. */
    OK(indexpage_parse_json("https://h/s/", "{\"\x1b[2J\": x}", 11, &p, &err) == WA_ERR_FORMAT &&
           strchr(err.msg, '\x1b') == NULL,
       "jansson's message escaped: %s", err.msg);
}

static void test_samples(const char *dir)
{
    static const struct {
        const char *file;
        size_t links;
        const char *first_url;
    } samples[] = {
        {"pytorch_whl_cu117_torch_EXCERPT_2025-06.html", 5,
         "https://download.pytorch.org/whl/cu117/torch-1.13.0%2Bcu117-cp310-cp310-win_amd64.whl"},
        {"pytorch_whl_jinja2_EXCERPT_2023-12.html", 1,
         "https://download.pytorch.org/whl/Jinja2-3.1.2-py3-none-any.whl"},
        {"pytorch_whl_SHAPE_2026_generator.html", 2,
         "https://download-r2.pytorch.org/whl/cu128/"
         "torch-2.10.0%2Bcu128-cp312-cp312-manylinux_2_28_x86_64.whl"},
    };
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        char *path = fsutil_join(dir, samples[i].file);
        char *text;
        size_t n;
        if (fsutil_read(path, 1 << 20, &text, &n, NULL, NULL) < 0) {
            OK(0, "sample %s cannot be read", path);
            free(path);
            continue;
        }
        struct index_page p;
        OK(indexpage_parse_html("https://download.pytorch.org/whl/cu117/torch/", text, n, &p,
                                NULL) == 0,
           "%s parses", samples[i].file);
        INT_EQ(p.n, samples[i].links, samples[i].file);
        if (p.n)
            STR_EQ(p.links[0].url, samples[i].first_url, samples[i].file);
        for (size_t k = 0; k < p.n; k++)
            OK(p.links[k].sha256 && strlen(p.links[k].sha256) == 64, "%s link %zu has a hash",
               samples[i].file, k);
        indexpage_free(&p);
        free(text);
        free(path);
    }
}

static void test_config(void)
{
    struct config cfg;
    struct wa_error err;
    static const char good[] =
        "{\"indexes\": [{\"root\": \"https://download.pytorch.org/whl\", \"ids\": [\"cpu\", "
        "\"cu128\"]},"
        " \"https://example.org/simple\"], \"projects\": [\"Torch_Vision\"], \"jobs\": 3,"
        " \"http\": {\"retries\": 2, \"stall_timeout_ms\": 500}}";
    OK(config_parse(good, sizeof good - 1, &cfg, &err) == 0, "good config: %s", err.msg);
    INT_EQ(cfg.nindexes, 3, "indexes");
    if (cfg.nindexes == 3) {
        STR_EQ(cfg.indexes[0].url, "https://download.pytorch.org/whl/cpu/", "root + id");
        STR_EQ(cfg.indexes[1].id, "cu128", "id");
        STR_EQ(cfg.indexes[2].url, "https://example.org/simple/", "plain URL gets a slash");
        STR_EQ(cfg.indexes[2].id, "simple", "id of a plain URL");
    }
    STR_EQ(cfg.projects[0], "torch-vision", "project normalised");
    INT_EQ(cfg.jobs, 3, "jobs");
    INT_EQ(cfg.http.retries, 2, "retries");
    INT_EQ(cfg.http.stall_timeout_ms, 500, "stall");
    INT_EQ(cfg.http.connect_timeout_ms, 15000, "default connect timeout");
    config_free(&cfg);

    /* Per-index project lists, {"url", "id"} entries, version floors. */
    static const char stack[] =
        "{\"indexes\": [{\"root\": \"https://download.pytorch.org/whl/\", \"ids\": [\"cu126\","
        " \"cu128\"], \"projects\": [\"torch\", \"xformers\"]},"
        " {\"url\": \"https://pypi.org/simple/\", \"id\": \"pypi\", \"projects\": [\"torch\","
        " \"CuPy_CUDA12x\"]},"
        " \"https://example.org/simple/\"],"
        " \"projects\": {\"torch\": {\"min_version\": \"2.0\"}, \"bitsandbytes\": {}},"
        " \"libraries\": {\"index\": \"https://pypi.org/simple\"}}";
    OK(config_parse(stack, sizeof stack - 1, &cfg, &err) == 0, "stack config: %s", err.msg);
    INT_EQ(cfg.nindexes, 4, "stack: indexes");
    if (cfg.nindexes == 4) {
        INT_EQ(cfg.indexes[0].nprojects, 2, "cu126: its own list");
        STR_EQ(cfg.indexes[1].projects[1], "xformers", "cu128: the same entry's list");
        STR_EQ(cfg.indexes[2].id, "pypi", "an {url, id} entry keeps its id");
        STR_EQ(cfg.indexes[2].projects[1], "cupy-cuda12x", "names normalised");
        INT_EQ(cfg.indexes[3].nprojects, 2, "a plain URL crawls the top-level projects");
        STR_EQ(cfg.indexes[3].projects[1], "bitsandbytes", "in their order");
    }
    STR_EQ(config_min_version(&cfg, "torch"), "2.0", "torch's floor");
    STR_EQ(cfg.libraries_index ? cfg.libraries_index->url : "", "https://pypi.org/simple/",
           "the libraries' index, with its slash");
    OK(config_min_version(&cfg, "xformers") == NULL, "no floor for xformers");
    INT_EQ(cfg.nprojects, 4, "every project named, once");
    /* --project keeps each index's own names, and sends an unlisted one
     * everywhere. */
    const char *only[] = {"xformers", "torch"};
    config_set_projects(&cfg, only, 2);
    if (cfg.nindexes == 4) {
        INT_EQ(cfg.indexes[0].nprojects, 2, "--project: cu126 keeps both");
        INT_EQ(cfg.indexes[2].nprojects, 1, "--project: PyPI keeps torch only");
        STR_EQ(cfg.indexes[2].projects[0], "torch", "--project: PyPI's torch");
        INT_EQ(cfg.indexes[3].nprojects, 1, "--project: the plain URL keeps torch");
    }
    STR_EQ(config_min_version(&cfg, "torch"), "2.0", "--project keeps torch's floor");
    const char *other[] = {"jax-cuda12-plugin"};
    config_set_projects(&cfg, other, 1);
    for (size_t i = 0; i < cfg.nindexes; i++)
        OK(cfg.indexes[i].nprojects == 1 &&
               !strcmp(cfg.indexes[i].projects[0], "jax-cuda12-plugin"),
           "--project with a name no index lists: every index (%zu)", i);
    config_free(&cfg);
    static const char all_own[] =
        "{\"indexes\": [{\"url\": \"https://pypi.org/simple/\", \"projects\": [\"vllm\"]}]}";
    OK(config_parse(all_own, sizeof all_own - 1, &cfg, &err) == 0,
       "no top-level projects when every index lists its own: %s", err.msg);
    STR_EQ(cfg.nindexes ? cfg.indexes[0].id : "", "simple", "an {url} entry's id from its URL");
    config_free(&cfg);

    static const struct {
        const char *text;
        const char *needle;
    } bad[] = {
        {"{\"indexes\": [\"https://x/\"], \"projects\": {\"t\": {\"min_version\": \"two\"}}}",
         "min_version"},
        {"{\"indexes\": [\"https://x/\"], \"projects\": {\"t\": {\"max_version\": \"2\"}}}",
         "unknown key"},
        {"{\"indexes\": [\"https://x/\"], \"projects\": {\"t\": 1}}", "object of options"},
        {"{\"indexes\": [\"https://x/\"], \"projects\": [\"t\"], \"libraries\": {\"index\": "
         "\"ftp://x/\"}}",
         "\"libraries\": \"index\": an index URL starts with"},
        {"{\"indexes\": [\"https://x/\"], \"projects\": [\"t\"], \"libraries\": {\"url\": "
         "\"https://x/\"}}",
         "unknown key"},
        {"{\"indexes\": [\"https://x/\"], \"projects\": {}}", "empty"},
        {"{\"indexes\": [{\"url\": \"https://x/\", \"projects\": [\"-t\"]}]}", "project names"},
        {"{\"indexes\": [{\"url\": \"https://x/\", \"ids\": [\"a\"]}], \"projects\": [\"t\"]}",
         "\"url\" (one index)"},
        {"{\"indexes\": [{\"url\": \"https://x/\"}, \"https://y/\"]}", "every index lists"},
        {"{\"indexes\": [{\"url\": \"https://x/\", \"id\": \"a/b\"}], \"projects\": [\"t\"]}",
         "plain index name"},
        {"{\"indexes\": [\"https://x/\"], \"projects\": [\"t\"],\n  \"project\": 1}",
         "line 2 column 3"},
        {"{\"indexes\": [\"https://x/\"], \"projects\": [\"t\"], \"projects\": [\"u\"]}",
         "duplicate"},
        {"{\"indexes\": [], \"projects\": [\"t\"]}", "non-empty"},
        {"{\"indexes\": [\"ftp://x/\"], \"projects\": [\"t\"]}", "http"},
        {"{\"indexes\": [{\"root\": \"https://x/\", \"ids\": [\"a/b\"]}], \"projects\": [\"t\"]}",
         "ids"},
        {"{\"indexes\": [\"https://x/\"], \"projects\": [\"t\"], \"jobs\": -1}", "jobs"},
        {"{\"indexes\": [\"https://x/\"], \"projects\": [\"t\"], \"http\": {\"retry\": 1}}",
         "unknown key"},
        {"[1, 2", "line 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        wa_error_clear(&err);
        OK(config_parse(bad[i].text, strlen(bad[i].text), &cfg, &err) == WA_ERR_FORMAT,
           "bad config %zu refused", i);
        OK(strstr(err.msg, bad[i].needle) != NULL, "bad config %zu: '%s' mentions '%s'", i, err.msg,
           bad[i].needle);
    }
}

/* The variant of a file name by the generic rules (no tables). */
static char *variant_of(const char *filename, const char *url, const char *index_id,
                        const char **how)
{
    struct wheel_name wn;
    struct wa_error e;
    if (wheelname_parse(filename, &wn, &e) < 0)
        return NULL;
    char *v = variant_decide(NULL, &wn, url, index_id, how);
    wheelname_free(&wn);
    return v;
}

static void test_variant_shard(void)
{
    const char *src;
    char *v = variant_of("torch-2.8.0+cu128-cp312-cp312-linux_x86_64.whl",
                         "https://h/whl/cu128/x.whl", "cu126", &src);
    STR_EQ(v, "cu128", "label");
    STR_EQ(src, "label", "label source");
    free(v);
    v = variant_of("torch-2.8.0+rocm6.4-cp312-cp312-linux_x86_64.whl", NULL, "x", &src);
    STR_EQ(v, "rocm6.4", "rocm label with a dot");
    free(v);
    v = variant_of("torch-2.1.0+cpu.cxx11.abi-cp312-cp312-linux_x86_64.whl", NULL, "x", &src);
    STR_EQ(v, "cpu", "cpu.cxx11.abi");
    free(v);
    v = variant_of("torch-2.8.0-cp312-cp312-manylinux_2_28_aarch64.whl",
                   "https://download-r2.pytorch.org/whl/cu129/"
                   "torch-2.8.0-cp312-cp312-manylinux_2_28_aarch64.whl",
                   "cu128", &src);
    STR_EQ(v, "cu129", "URL directory");
    STR_EQ(src, "url", "url source");
    free(v);
    v = variant_of("torch-2.0.1+post1-cp38-cp38-manylinux2014_aarch64.whl",
                   "https://h/whl/torch-2.0.1-cp38-cp38-manylinux2014_aarch64.whl", "cu117", &src);
    STR_EQ(v, "cu117", "index fallback");
    STR_EQ(src, "index", "index source");
    free(v);
    v = variant_of(
        "torch-2.8.0-cp312-cp312-manylinux_2_28_x86_64.whl",
        "https://files.example/packages/ab/torch-2.8.0-cp312-cp312-manylinux_2_28_x86_64.whl",
        "simple", &src);
    STR_EQ(v, "simple", "nothing says: the index's id");
    STR_EQ(src, "index", "nothing says: index source");
    free(v);
    static const char *const tokens[] = {"cu92",      "cu128", "cu12x", "rocm6.4",
                                         "rocm6.2.4", "cpu",   NULL};
    static const char *const not_tokens[] = {
        "cu1",    "cu1280", "cu1x",     "cu123x", "cux",    "rocm", "rocm6", "rocm6.4.1.2",
        "rocm6.", "rocm.6", "rocm6..4", "cpux",   "simple", "cu12", NULL};
    for (const char *const *t = tokens; *t; t++)
        OK(variant_token(*t, strlen(*t)), "variant id: %s", *t);
    for (const char *const *t = not_tokens; *t; t++)
        OK(!variant_token(*t, strlen(*t)), "not a variant id: %s", *t);
    int k, n;
    OK(crawl_parse_shard("2/5", &k, &n) == 0 && k == 2 && n == 5, "shard 2/5");
    OK(crawl_parse_shard("0/5", &k, &n) < 0, "shard 0/5");
    OK(crawl_parse_shard("6/5", &k, &n) < 0, "shard 6/5");
    OK(crawl_parse_shard("1/x", &k, &n) < 0, "shard 1/x");
    OK(crawl_parse_shard("1", &k, &n) < 0, "shard 1");
}

/* The shipped wheelarch.json: it parses, reads the projects of the three
 * families of indexes, bounds the first crawl with floors, and every
 * project on an index whose ids are not variants has a variant rule (else
 * its wheels would be the variant "pypi", which says nothing). */
static void test_shipped(const char *path, const char *data_dir)
{
    struct config cfg;
    struct wa_error err = {0};
    int loaded = config_load(path, &cfg, &err) == 0;
    OK(loaded, "%s: %s", path, err.msg);
    if (!loaded)
        return;
    struct tables t;
    OK(tables_load(data_dir, &t, &err) == 0, "tables: %s", err.msg);
    size_t pytorch = 0, pypi = 0, llama = 0;
    for (size_t i = 0; i < cfg.nindexes; i++) {
        const struct config_index *ix = &cfg.indexes[i];
        pytorch += strncmp(ix->url, "https://download.pytorch.org/whl/", 33) == 0;
        llama += strstr(ix->url, "llama-cpp-python") != NULL;
        if (strcmp(ix->url, "https://pypi.org/simple/") == 0) {
            pypi++;
            for (size_t k = 0; k < ix->nprojects; k++) {
                const char *p = ix->projects[k];
                OK(variant_rule_of(&t, p, "99.0") || strcmp(p, "bitsandbytes") == 0,
                   "PyPI's %s has a variant rule", p);
            }
        }
    }
    OK(pytorch >= 18 && pypi == 1 && llama >= 5, "the three families: %zu %zu %zu", pytorch, pypi,
       llama);
    const char *floored[] = {"torch", "torchvision", "xformers", "vllm", "llama-cpp-python"};
    for (size_t i = 0; i < sizeof floored / sizeof *floored; i++)
        OK(config_min_version(&cfg, floored[i]) != NULL, "%s has a floor", floored[i]);
    OK(cfg.libraries_index && strcmp(cfg.libraries_index->url, "https://pypi.org/simple/") == 0,
       "the GPU libraries come from PyPI");
    /* every vendor build is crawled from its index, and where its GPU code
     * comes by extras, the package of every target its declared list names */
    for (size_t v = 0; v < t.nvendor; v++) {
        const struct vendor_build *b = &t.vendor[v];
        const struct config_index *ix = NULL;
        for (size_t i = 0; i < cfg.nindexes && !ix; i++)
            if (vendorindex_at_url(b, cfg.indexes[i].url))
                ix = &cfg.indexes[i];
        int listed = 0;
        for (size_t k = 0; ix && k < ix->nprojects && !listed; k++)
            listed = strcmp(ix->projects[k], b->project) == 0;
        OK(listed, "%s %s on %s is crawled from %s", b->project, b->version, b->platform,
           b->index_url);
        const struct declared *d =
            b->gpu_package
                ? observed_declared_for(&t, b->project, b->version, b->variant, b->platform)
                : NULL;
        for (size_t g = 0; d && ix && g < d->ngfx; g++) {
            char name[64], *pkg;
            target_format(&d->gfx[g], name, sizeof name);
            const char *at = strstr(b->gpu_package, "{gfx}");
            pkg = xasprintf("%.*s%s%s", (int)(at - b->gpu_package), b->gpu_package, name, at + 5);
            int has = 0;
            for (size_t k = 0; k < ix->nprojects && !has; k++)
                has = strcmp(ix->projects[k], pkg) == 0;
            OK(has, "%s is crawled (%s %s declares %s)", pkg, b->project, b->release, name);
            free(pkg);
        }
    }
    tables_free(&t);
    config_free(&cfg);
}

int main(int argc, char **argv)
{
    test_long_href();
    test_base();
    test_json_limits();
    test_api_version();
    test_resolve();
    test_entities();
    test_html();
    test_json();
    test_config();
    test_variant_shard();
    if (argc > 1)
        test_samples(argv[1]);
    if (argc > 3)
        test_shipped(argv[2], argv[3]);
    return harness_done();
}
