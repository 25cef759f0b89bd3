/*
 * sitedata_text: how the page data writes names, paths, ids and links:
 * path segments and HTML ids made from data, hrefs from URLs, the names
 * of platforms and devices, JSON for
 * inline script elements.  Helpers of
 * every page builder (sitedata_*.c); they read no site data.
 */
#include "sitedata_text.h"
#include "sitedata_state.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsontext.h"
#include "record.h"
#include "strmap.h"
#include "tmpl.h"
#include "xalloc.h"

const char *const sitedata_platforms[] = {"linux-x86_64", "linux-aarch64", "windows-x86_64",
                                          "windows-arm64"};

const char *sitedata_platform_name(const char *id)
{
    if (strcmp(id, "linux-x86_64") == 0)
        return "Linux x86_64";
    if (strcmp(id, "linux-aarch64") == 0)
        return "Linux aarch64";
    if (strcmp(id, "windows-x86_64") == 0)
        return "Windows x86_64";
    if (strcmp(id, "windows-arm64") == 0)
        return "Windows on Arm";
    return id;
}

char *sitedata_segment(const char *s)
{
    /* Injective, so two values never share a page: [A-Za-z0-9.-] stands for
     * itself and every other byte is '_' and two lowercase hex digits, so
     * '_' only ever starts an escape.  A leading '.' is escaped too (no
     * ".", "..", or hidden file), and "" becomes a lone '_', which no other
     * value gives. */
    static const char hex[] = "0123456789abcdef";
    struct strbuf b = STRBUF_INIT;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        int keep = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                   (*p >= '0' && *p <= '9') || *p == '-' ||
                   (*p == '.' && p != (const unsigned char *)s);
        if (keep) {
            strbuf_addc(&b, (char)*p);
        } else {
            strbuf_addc(&b, '_');
            strbuf_addc(&b, hex[*p >> 4]);
            strbuf_addc(&b, hex[*p & 15]);
        }
    }
    if (b.len == 0)
        strbuf_addc(&b, '_');
    return strbuf_detach(&b, NULL);
}

char *sitedata_id(const char *s)
{
    struct strbuf b = STRBUF_INIT;
    int run = 0; /* in a run of other bytes */
    for (const char *p = s ? s : ""; *p; p++) {
        char c = *p;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '_' || c == '-') {
            strbuf_addc(&b, c);
            run = 0;
        } else if (!run) {
            strbuf_addc(&b, '-');
            run = 1;
        }
    }
    if (b.len == 0)
        strbuf_addc(&b, 'x');
    return strbuf_detach(&b, NULL);
}

/* An id not yet used on a page (used: the page's ids so far): prefix +
 * sitedata_id(raw), then "-2", "-3", ... while taken.  The same data in
 * the same order gives the same ids.  Caller frees. */
char *sitedata_page_id(struct strmap *used, const char *prefix, const char *raw)
{
    char *slug = sitedata_id(raw);
    char *id = xasprintf("%s%s", prefix, slug);
    for (unsigned n = 2; strmap_get(used, id, NULL); n++) {
        free(id);
        id = xasprintf("%s%s-%u", prefix, slug, n);
    }
    strmap_put(used, id, 0);
    free(slug);
    return id;
}

int sitedata_is_http(const char *url)
{
    return url && (strncmp(url, "https://", 8) == 0 || strncmp(url, "http://", 7) == 0);
}

char *sitedata_href(const char *url)
{
    if (!sitedata_is_http(url))
        return NULL;
    static const char hex[] = "0123456789ABCDEF";
    struct strbuf b = STRBUF_INIT;
    strbuf_grow(&b, strlen(url));
    const unsigned char *p = (const unsigned char *)url, *run = p; /* run: bytes kept as they are */
    for (; *p; p++) {
        if (*p > 0x20 && *p < 0x7f && !strchr("\"<>\\^`{|}%", *p))
            continue;
        if (*p == '%' && isxdigit(p[1]) && isxdigit(p[2]))
            continue; /* already percent-encoded */
        strbuf_add(&b, run, (size_t)(p - run));
        char pct[3] = {'%', hex[*p >> 4], hex[*p & 15]};
        strbuf_add(&b, pct, 3);
        run = p + 1;
    }
    strbuf_add(&b, run, (size_t)(p - run));
    return strbuf_detach(&b, NULL);
}

void sitedata_html_text(struct strbuf *out, const char *s)
{
    if (s && strbuf_utf8_valid(s))
        tmpl_html_escape(out, s, strlen(s));
}

char *sitedata_wheel_href(const struct record_wheel *w)
{
    return sitedata_href(w->url && strbuf_utf8_valid(w->url) ? w->url : NULL);
}

int sitedata_wheel_yanked(const struct record_wheel *w, const char **reason)
{
    /* a reason that is not UTF-8 made the JSON's "yanked" missing */
    int reason_ok = w->yanked_reason && strbuf_utf8_valid(w->yanked_reason);
    *reason = reason_ok ? w->yanked_reason : NULL;
    return w->yanked_reason ? reason_ok : w->yanked;
}

char *sitedata_release_path(const char *project, const char *version)
{
    char *p = sitedata_segment(project), *v = sitedata_segment(version);
    char *out = xasprintf("release/%s/%s/", p, v);
    free(p);
    free(v);
    return out;
}

char *sitedata_gpu_path(const char *slug)
{
    char *seg = sitedata_segment(slug);
    char *out = xasprintf("gpu/%s/", seg);
    free(seg);
    return out;
}

char *sitedata_wheel_path(const char *key)
{
    char *seg = sitedata_segment(key);
    char *out = xasprintf("wheel/%s.html", seg);
    free(seg);
    return out;
}

char *sitedata_device_path(const char *id)
{
    return xasprintf("device/%s/", id);
}

char *sitedata_device_feed_path(const char *id)
{
    return xasprintf("api/v1/gpu/%s.json", id);
}

void sitedata_arch_dir(uint16_t cc, char *buf, size_t n)
{
    if (cc >= TABLES_AMD_MIN)
        snprintf(buf, n, "gfx%x", (unsigned)cc);
    else
        snprintf(buf, n, "sm_%u", cc);
}

/* The ROCm version of a row's variant as "6.4" ("6.2.4" for rocm6.2.4), or
 * "" when none. */
void sitedata_rocm_of(const struct dbview_row *row, char *buf, size_t n)
{
    buf[0] = '\0';
    if (tables_variant_rocm(row->variant, NULL))
        snprintf(buf, n, "%s", row->variant + 4);
}

json_t *sitedata_cc_json(uint16_t cc)
{
    char s[16];
    compat_cc_string(cc, s, sizeof s);
    return json_string(s);
}

/* JSON for a <script type="application/json"> element: "<" escaped so the
 * text can never close the element. */
char *sitedata_script_json(json_t *v)
{
    struct strbuf s = STRBUF_INIT, b = STRBUF_INIT;
    if (jsontext_append(&s, v, JSON_COMPACT | JSON_SORT_KEYS) < 0 || !s.buf) {
        strbuf_free(&s);
        return xstrdup("");
    }
    const char *p = s.buf, *lt;
    while ((lt = strchr(p, '<'))) {
        strbuf_add(&b, p, (size_t)(lt - p));
        strbuf_adds(&b, "\\u003c");
        p = lt + 1;
    }
    if (p == s.buf) /* nothing to escape: the text as it is */
        return strbuf_detach(&s, NULL);
    strbuf_adds(&b, p);
    strbuf_free(&s);
    return strbuf_detach(&b, NULL);
}
