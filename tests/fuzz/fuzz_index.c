/* libFuzzer target: index page link extraction (HTML and PEP 691 JSON),
 * URL resolution, entity decoding, and the configuration parser.  Besides
 * memory errors, it aborts when a result breaks what its callers rely on:
 * every link has a URL and a file name of at most INDEXPAGE_MAX_URL
 * bytes, an index hash is at most 200 bytes, the record key the crawler
 * derives from a link is a plain file name (wheelkey_valid), and every
 * configured index URL ends with '/' and has an id without '/'. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "wheelkey.h"
#include "indexpage.h"

static void check_links(const struct index_page *p)
{
    for (size_t i = 0; i < p->n; i++) {
        const struct index_link *l = &p->links[i];
        if (!l->url || !l->filename || strlen(l->url) > INDEXPAGE_MAX_URL ||
            strlen(l->filename) > INDEXPAGE_MAX_URL)
            abort();
        if (l->sha256 && strnlen(l->sha256, 201) > 200)
            abort();
        /* As crawl.c keys a wheel: by its hash when that is 64 hex digits,
         * else by its URL.  The key becomes a file name in the database. */
        const char *sha = l->sha256 && wheelkey_sha256_valid(l->sha256) ? l->sha256 : NULL;
        char *key = wheelkey_make(sha, l->url);
        if (!wheelkey_valid(key) || strchr(key, '/'))
            abort();
        free(key);
        if (l->sha256 && !sha && wheelkey_make(l->sha256, NULL) != NULL)
            abort();
    }
}

static void check_config(const struct config *cfg)
{
    for (size_t i = 0; i < cfg->nindexes; i++) {
        const char *u = cfg->indexes[i].url;
        size_t n = u ? strlen(u) : 0;
        if (n == 0 || u[n - 1] != '/' || !cfg->indexes[i].id || strchr(cfg->indexes[i].id, '/'))
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    struct index_page p;
    if (indexpage_parse_html("https://download.pytorch.org/whl/cu128/torch/", s, size, &p, NULL) ==
        0) {
        check_links(&p);
        indexpage_free(&p);
    }
    if (indexpage_parse_json("https://h/simple/x/", s, size, &p, NULL) == 0) {
        check_links(&p);
        indexpage_free(&p);
    }
    free(indexpage_entity_decode(s, size));
    char *z = malloc(size + 1);
    memcpy(z, data, size);
    z[size] = '\0';
    free(indexpage_resolve("https://h/a/b/c", z));
    free(indexpage_resolve(z, "../x.whl"));
    free(z);
    struct config cfg;
    if (config_parse(s, size, &cfg, NULL) == 0) {
        check_config(&cfg);
        config_free(&cfg);
    }
    return 0;
}
