/*
 * config: wheelarch.json.
 */
#include "config.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "wheelname.h"
#include "xalloc.h"

#define CONFIG_MAX_SIZE (1u << 20)

char *config_index_id(const char *url)
{
    size_t end = strcspn(url, "?#");
    while (end > 0 && url[end - 1] == '/')
        end--;
    size_t start = end;
    while (start > 0 && url[start - 1] != '/')
        start--;
    return xstrndup(url + start, end - start);
}

static void add_index(struct config *cfg, const char *url)
{
    cfg->indexes = xrealloc(cfg->indexes, (cfg->nindexes + 1) * sizeof *cfg->indexes);
    size_t n = strlen(url);
    cfg->indexes[cfg->nindexes].url = n && url[n - 1] == '/' ? xstrdup(url) : xasprintf("%s/", url);
    cfg->indexes[cfg->nindexes].id = config_index_id(url);
    cfg->nindexes++;
}

int config_project_name_valid(const char *name)
{
    /* PEP 508: letters and digits at both ends, ".", "_" and "-" inside. */
    size_t n = strlen(name);
    if (n == 0 || n > 200 || !isalnum((unsigned char)name[0]) ||
        !isalnum((unsigned char)name[n - 1]))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && !strchr("._-", name[i]))
            return 0;
    return 1;
}

int config_url_valid(const char *url)
{
    size_t skip = strncmp(url, "https://", 8) == 0 ? 8 : strncmp(url, "http://", 7) == 0 ? 7 : 0;
    if (!skip || !url[skip] || url[skip] == '/')
        return 0;
    for (const unsigned char *p = (const unsigned char *)url; *p; p++)
        if (*p <= 0x20 || *p == 0x7f || *p == '#')
            return 0; /* a fragment is no part of an index's address */
    return 1;
}

static void add_project(struct config *cfg, const char *name)
{
    cfg->projects = xrealloc(cfg->projects, (cfg->nprojects + 1) * sizeof *cfg->projects);
    cfg->projects[cfg->nprojects++] = wheelname_normalize(name);
}

void config_free(struct config *cfg)
{
    for (size_t i = 0; i < cfg->nindexes; i++) {
        free(cfg->indexes[i].url);
        free(cfg->indexes[i].id);
    }
    free(cfg->indexes);
    for (size_t i = 0; i < cfg->nprojects; i++)
        free(cfg->projects[i]);
    free(cfg->projects);
    for (size_t i = 0; i < cfg->http.nresolve; i++)
        free(cfg->http.resolve[i]);
    free(cfg->http.resolve);
    memset(cfg, 0, sizeof *cfg);
}

void config_set_indexes(struct config *cfg, const char *const *urls, size_t n)
{
    for (size_t i = 0; i < cfg->nindexes; i++) {
        free(cfg->indexes[i].url);
        free(cfg->indexes[i].id);
    }
    free(cfg->indexes);
    cfg->indexes = NULL;
    cfg->nindexes = 0;
    for (size_t i = 0; i < n; i++)
        add_index(cfg, urls[i]);
}

void config_set_projects(struct config *cfg, const char *const *names, size_t n)
{
    for (size_t i = 0; i < cfg->nprojects; i++)
        free(cfg->projects[i]);
    free(cfg->projects);
    cfg->projects = NULL;
    cfg->nprojects = 0;
    for (size_t i = 0; i < n; i++)
        add_project(cfg, names[i]);
}

/* jansson keeps no positions for values, so errors about values name the
 * object holding them, and errors about keys find the key in the text. */
static _Thread_local const char *cfg_text;
static _Thread_local size_t cfg_len;
static _Thread_local int in_parse;

static int bad(struct wa_error *err, const char *where, const char *what)
{
    return wa_error_set(err, WA_ERR_FORMAT, "%s: %s", where, what);
}

/* Line and column (1-based) of the first `"key"` followed by a colon. */
static int locate_key(const char *key, int *line, int *col)
{
    size_t kl = strlen(key);
    int l = 1, c = 1;
    for (size_t i = 0; in_parse && i < cfg_len; i++) {
        if (cfg_text[i] == '"' && i + kl + 2 <= cfg_len && memcmp(cfg_text + i + 1, key, kl) == 0 &&
            cfg_text[i + 1 + kl] == '"') {
            size_t j = i + kl + 2;
            while (j < cfg_len && (cfg_text[j] == ' ' || cfg_text[j] == '\t' ||
                                   cfg_text[j] == '\n' || cfg_text[j] == '\r'))
                j++;
            if (j < cfg_len && cfg_text[j] == ':') {
                *line = l;
                *col = c;
                return 1;
            }
        }
        if (cfg_text[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    return 0;
}

static int check_keys(json_t *obj, const char *const *allowed, const char *where,
                      struct wa_error *err)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v)
    {
        int ok = 0;
        for (const char *const *a = allowed; *a; a++)
            if (strcmp(*a, key) == 0)
                ok = 1;
        if (!ok) {
            int line, col;
            if (locate_key(key, &line, &col))
                return wa_error_set(err, WA_ERR_FORMAT, "line %d column %d: unknown key \"%.100s\"",
                                    line, col, key);
            return wa_error_set(err, WA_ERR_FORMAT, "%s: unknown key \"%.100s\"", where, key);
        }
    }
    return 0;
}

static int get_int(json_t *obj, const char *key, long min, long max, long *out, const char *where,
                   struct wa_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max) {
        char msg[160];
        snprintf(msg, sizeof msg, "\"%s\" must be an integer from %ld to %ld", key, min, max);
        return bad(err, where, msg);
    }
    *out = (long)json_integer_value(v);
    return 0;
}

static int url_ok(const char *u)
{
    return config_url_valid(u);
}

int config_parse(const char *text, size_t len, struct config *cfg, struct wa_error *err)
{
    memset(cfg, 0, sizeof *cfg);
    http_options_default(&cfg->http);
    cfg_text = text;
    cfg_len = len;
    in_parse = 1;
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        in_parse = 0;
        return wa_error_set(err, WA_ERR_FORMAT, "line %d column %d: %s", je.line, je.column,
                            je.text);
    }
    int rc = 0;
    static const char *const top[] = {"indexes", "projects", "jobs", "http", "comment", NULL};
    static const char *const http[] = {"connect_timeout_ms",
                                       "stall_timeout_ms",
                                       "min_rate",
                                       "min_average_rate",
                                       "retries",
                                       "retry_delay_ms",
                                       "retry_max_ms",
                                       "max_redirects",
                                       "allow_private_addresses",
                                       "resolve",
                                       NULL};
    static const char *const idx[] = {"root", "ids", NULL};
    if (!json_is_object(root)) {
        rc = bad(err, "top level", "must be an object");
        goto out;
    }
    if ((rc = check_keys(root, top, "top level", err)) < 0)
        goto out;
    json_t *indexes = json_object_get(root, "indexes");
    if (!json_is_array(indexes) || json_array_size(indexes) == 0) {
        rc = bad(err, "\"indexes\"", "must be a non-empty array");
        goto out;
    }
    size_t i;
    json_t *v;
    json_array_foreach(indexes, i, v)
    {
        char where[64];
        snprintf(where, sizeof where, "\"indexes\"[%zu]", i);
        if (json_is_string(v)) {
            if (!url_ok(json_string_value(v))) {
                rc = bad(err, where, "must be an http or https URL");
                goto out;
            }
            add_index(cfg, json_string_value(v));
            continue;
        }
        if (!json_is_object(v)) {
            rc = bad(err, where, "must be a URL or {\"root\": URL, \"ids\": [...]}");
            goto out;
        }
        if ((rc = check_keys(v, idx, where, err)) < 0)
            goto out;
        const char *root_url = json_string_value(json_object_get(v, "root"));
        json_t *ids = json_object_get(v, "ids");
        if (!root_url || !url_ok(root_url)) {
            rc = bad(err, where, "\"root\" must be an http or https URL");
            goto out;
        }
        if (!json_is_array(ids) || json_array_size(ids) == 0) {
            rc = bad(err, where, "\"ids\" must be a non-empty array of index names");
            goto out;
        }
        size_t j;
        json_t *id;
        json_array_foreach(ids, j, id)
        {
            const char *s = json_string_value(id);
            if (!s || !*s ||
                strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                          "0123456789._+-") != strlen(s)) {
                rc = bad(err, where, "\"ids\" must hold plain index names such as \"cu128\"");
                goto out;
            }
            size_t rl = strlen(root_url);
            char *u = xasprintf("%s%s%s/", root_url, rl && root_url[rl - 1] == '/' ? "" : "/", s);
            add_index(cfg, u);
            free(u);
        }
    }
    json_t *projects = json_object_get(root, "projects");
    if (!json_is_array(projects) || json_array_size(projects) == 0) {
        rc = bad(err, "\"projects\"", "must be a non-empty array of project names");
        goto out;
    }
    json_array_foreach(projects, i, v)
    {
        const char *s = json_string_value(v);
        if (!s || !config_project_name_valid(s)) {
            rc = bad(err, "\"projects\"",
                     "must hold project names such as \"torch\" (letters, digits, \".\", "
                     "\"_\" and \"-\", starting and ending with a letter or digit)");
            goto out;
        }
        add_project(cfg, s);
    }
    long jobs = 0;
    if ((rc = get_int(root, "jobs", 0, 256, &jobs, "top level", err)) < 0)
        goto out;
    cfg->jobs = (int)jobs;
    json_t *h = json_object_get(root, "http");
    if (h) {
        if (!json_is_object(h)) {
            rc = bad(err, "\"http\"", "must be an object");
            goto out;
        }
        if ((rc = check_keys(h, http, "\"http\"", err)) < 0)
            goto out;
        long x;
        struct {
            const char *key;
            long *dst;
            long min, max;
        } fields[] = {{"connect_timeout_ms", &cfg->http.connect_timeout_ms, 1, 600000},
                      {"stall_timeout_ms", &cfg->http.stall_timeout_ms, 1, 3600000},
                      {"min_rate", &cfg->http.min_rate, 1, 1000000000},
                      {"min_average_rate", &cfg->http.min_average_rate, 0, 1000000000},
                      {"retry_delay_ms", &cfg->http.retry_delay_ms, 0, 600000},
                      {"retry_max_ms", &cfg->http.retry_max_ms, 0, 3600000}};
        for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
            x = *fields[k].dst;
            if ((rc = get_int(h, fields[k].key, fields[k].min, fields[k].max, &x, "\"http\"",
                              err)) < 0)
                goto out;
            *fields[k].dst = x;
        }
        x = cfg->http.retries;
        if ((rc = get_int(h, "retries", 0, 100, &x, "\"http\"", err)) < 0)
            goto out;
        cfg->http.retries = (int)x;
        x = cfg->http.max_redirects;
        if ((rc = get_int(h, "max_redirects", 0, 20, &x, "\"http\"", err)) < 0)
            goto out;
        cfg->http.max_redirects = (int)x;
        json_t *ap = json_object_get(h, "allow_private_addresses");
        if (ap && !json_is_boolean(ap)) {
            rc = bad(err, "\"http\"", "\"allow_private_addresses\" must be true or false");
            goto out;
        }
        cfg->http.allow_private = json_is_true(ap);
        json_t *res = json_object_get(h, "resolve");
        if (res && !json_is_array(res)) {
            rc = bad(err, "\"http\"", "\"resolve\" must be an array of \"HOST:PORT:ADDRESS\"");
            goto out;
        }
        size_t k;
        json_t *r;
        json_array_foreach(res, k, r)
        {
            const char *e = json_string_value(r);
            const char *c1 = e ? strchr(e, ':') : NULL, *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
            if (!e || !c1 || c1 == e || !c2 || c2 == c1 + 1 || !c2[1] || strlen(e) > 300 ||
                strpbrk(e, " \t\r\n")) {
                rc = bad(err, "\"http\"",
                         "\"resolve\" entries must look like \"pypi.example:443:192.0.2.7\"");
                goto out;
            }
            cfg->http.resolve =
                xrealloc(cfg->http.resolve, (cfg->http.nresolve + 1) * sizeof *cfg->http.resolve);
            cfg->http.resolve[cfg->http.nresolve++] = xstrdup(e);
        }
    }
out:
    in_parse = 0;
    json_decref(root);
    if (rc < 0)
        config_free(cfg);
    return rc;
}

int config_load(const char *path, struct config *cfg, struct wa_error *err)
{
    char *text;
    size_t n;
    memset(cfg, 0, sizeof *cfg);
    int rc = fsutil_read(path, CONFIG_MAX_SIZE, &text, &n, NULL, err);
    if (rc < 0)
        return rc;
    rc = config_parse(text, n, cfg, err);
    free(text);
    return rc;
}
