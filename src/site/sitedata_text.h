/*
 * sitedata_text: names, paths, ids and links written from data: every
 * page's path is made here.
 */
#ifndef WHEELARCH_SITEDATA_TEXT_H
#define WHEELARCH_SITEDATA_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "sitedata_types.h"

/* A safe path segment for a name that came from an index or a record,
 * and a different one for every name (injective), so two releases never
 * share a page: [A-Za-z0-9.-] is kept, every other byte (the '_' of the
 * escape included) becomes "_xx" in lowercase hex, as does a leading '.';
 * "" becomes "_".  "2.9.0" -> "2.9.0", "1!2.0" -> "1_212.0", "1_2.0" ->
 * "1_5f2.0", ".." -> "_2e.", "a/b" -> "a_2fb".  Caller frees. */
char *sitedata_segment(const char *s);

/* The one place each page kind's URL path is made, relative to the site's
 * root (pages, feeds, links and the SQLite feed all take it from here):
 *   a GPU's page            "gpu/<slug>/"
 *   a wheel's page          "wheel/<key>.html"
 *   a release's page        "release/<project>/<version>/"
 *   a device's page         "device/<id>/"
 *   a device's feed file    "api/v1/gpu/<id>.json"
 * Names that came from an index or a record go through sitedata_segment;
 * a device id is wheelarch's own ("8.6", "gfx1100"), used as it is.
 * Caller frees. */
char *sitedata_gpu_path(const char *slug);
char *sitedata_wheel_path(const char *key);
char *sitedata_release_path(const char *project, const char *version);
char *sitedata_device_path(const char *id);
char *sitedata_device_feed_path(const char *id);

/* An HTML id made from s: [A-Za-z0-9_-] kept, each run of other bytes
 * one '-', "x" for an empty result ("torch-2.9" -> "torch-2-9").  Not
 * unique by itself: page data adds "-2", "-3" where two would clash.
 * Caller frees. */
char *sitedata_id(const char *s);

/* url as an href: NULL unless it is an http(s) URL; bytes a URL may not
 * hold (controls, space, non-ASCII, " < > \ ^ ` { | } and a % not starting
 * an escape) percent-encoded.  HTML escaping is still the template's job.
 * Caller frees. */
char *sitedata_href(const char *url);
/* Whether sitedata_href(url) is not NULL, without making it. */
int sitedata_is_http(const char *url);

/* "sm_61" for 61, "gfx1100" for an AMD device code. */
void sitedata_arch_dir(uint16_t cc, char *buf, size_t n);

#endif
