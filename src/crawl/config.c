/*
 * config: wheelarch.json.
 */
#include "config.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "dotver.h"
#include "fsutil.h"
#include "indexurl.h"
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

/* An index's URL without its user info, ending with '/', and the user
 * info apart (url passed config_url_check). */
static void set_url(struct config_index *ix, const char *url)
{
    char *clean = NULL, *ui = NULL;
    if (indexurl_split(url, &clean, &ui, NULL) < 0)
        clean = xstrdup(url); /* not reached: checked before */
    size_t n = strlen(clean);
    ix->url = n && clean[n - 1] == '/' ? xstrdup(clean) : xasprintf("%s/", clean);
    ix->userinfo = ui;
    free(clean);
}

static void add_index(struct config *cfg, const char *url, const char *id)
{
    cfg->indexes = xrealloc(cfg->indexes, (cfg->nindexes + 1) * sizeof *cfg->indexes);
    struct config_index *ix = &cfg->indexes[cfg->nindexes++];
    memset(ix, 0, sizeof *ix);
    set_url(ix, url);
    ix->id = id ? xstrdup(id) : config_index_id(ix->url);
}

/* http_options.credentials again from the indexes' user info: one per
 * origin, the first index's where two give one origin different ones. */
static void set_credentials(struct config *cfg)
{
    for (size_t i = 0; i < cfg->http.ncredentials; i++) {
        free(cfg->http.credentials[i].origin);
        free(cfg->http.credentials[i].userinfo);
    }
    free(cfg->http.credentials);
    cfg->http.credentials = NULL;
    cfg->http.ncredentials = 0;
    for (size_t i = 0; i <= cfg->nindexes; i++) {
        const struct config_index *ix = i < cfg->nindexes ? &cfg->indexes[i] : cfg->libraries_index;
        if (!ix || !ix->userinfo)
            continue;
        char origin[INDEXURL_MAX + 1];
        indexurl_origin(ix->url, origin, sizeof origin);
        int have = 0;
        for (size_t k = 0; k < cfg->http.ncredentials && !have; k++)
            have = strcmp(cfg->http.credentials[k].origin, origin) == 0;
        if (have)
            continue;
        cfg->http.credentials = xrealloc(cfg->http.credentials, (cfg->http.ncredentials + 1) *
                                                                    sizeof *cfg->http.credentials);
        cfg->http.credentials[cfg->http.ncredentials++] =
            (struct http_credential){xstrdup(origin), xstrdup(ix->userinfo)};
    }
}

static int has(char *const *list, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], name) == 0)
            return 1;
    return 0;
}

/* Adds a (normalised) name to an index's list, once. */
static void index_add_project(struct config_index *ix, const char *normalized)
{
    if (has(ix->projects, ix->nprojects, normalized))
        return;
    ix->projects = xrealloc(ix->projects, (ix->nprojects + 1) * sizeof *ix->projects);
    ix->projects[ix->nprojects++] = xstrdup(normalized);
}

static void index_clear_projects(struct config_index *ix)
{
    for (size_t i = 0; i < ix->nprojects; i++)
        free(ix->projects[i]);
    free(ix->projects);
    ix->projects = NULL;
    ix->nprojects = 0;
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

int config_url_check(const char *url, struct wa_error *err)
{
    char *clean = NULL, *ui = NULL;
    int rc = indexurl_split(url, &clean, &ui, err);
    free(clean);
    free(ui);
    return rc;
}

int config_index_url_check(const char *url, struct wa_error *err)
{
    if (config_url_check(url, err) < 0)
        return WA_ERR_FORMAT;
    char *id = config_index_id(url);
    int ok = config_index_name_valid(id);
    free(id);
    if (!ok)
        return wa_error_set(err, WA_ERR_FORMAT,
                            "its last path segment must name the index (letters, digits, '.', "
                            "'_', '+' and '-', a letter or digit first), as in "
                            "https://download.pytorch.org/whl/cu128/");
    return 0;
}

int config_url_valid(const char *url)
{
    return config_url_check(url, NULL) == 0;
}

/* Adds a project to the config's list, once; returns its place. */
static size_t add_project(struct config *cfg, const char *name)
{
    char *norm = wheelname_normalize(name);
    for (size_t i = 0; i < cfg->nprojects; i++)
        if (strcmp(cfg->projects[i], norm) == 0) {
            free(norm);
            return i;
        }
    cfg->projects = xrealloc(cfg->projects, (cfg->nprojects + 1) * sizeof *cfg->projects);
    cfg->min_versions =
        xrealloc(cfg->min_versions, (cfg->nprojects + 1) * sizeof *cfg->min_versions);
    cfg->projects[cfg->nprojects] = norm;
    cfg->min_versions[cfg->nprojects] = NULL;
    return cfg->nprojects++;
}

const char *config_min_version(const struct config *cfg, const char *project)
{
    for (size_t i = 0; i < cfg->nprojects; i++)
        if (strcmp(cfg->projects[i], project) == 0)
            return cfg->min_versions[i];
    return NULL;
}

static void free_indexes(struct config *cfg)
{
    for (size_t i = 0; i < cfg->nindexes; i++) {
        free(cfg->indexes[i].url);
        free(cfg->indexes[i].userinfo);
        free(cfg->indexes[i].id);
        index_clear_projects(&cfg->indexes[i]);
    }
    free(cfg->indexes);
    cfg->indexes = NULL;
    cfg->nindexes = 0;
}

void config_free(struct config *cfg)
{
    free_indexes(cfg);
    if (cfg->libraries_index) {
        free(cfg->libraries_index->url);
        free(cfg->libraries_index->userinfo);
        free(cfg->libraries_index->id);
        free(cfg->libraries_index);
    }
    for (size_t i = 0; i < cfg->http.ncredentials; i++) {
        free(cfg->http.credentials[i].origin);
        free(cfg->http.credentials[i].userinfo);
    }
    free(cfg->http.credentials);
    for (size_t i = 0; i < cfg->nprojects; i++) {
        free(cfg->projects[i]);
        free(cfg->min_versions[i]);
    }
    free(cfg->projects);
    free(cfg->min_versions);
    for (size_t i = 0; i < cfg->http.nresolve; i++)
        free(cfg->http.resolve[i]);
    free(cfg->http.resolve);
    memset(cfg, 0, sizeof *cfg);
}

void config_set_indexes(struct config *cfg, const char *const *urls, size_t n)
{
    free_indexes(cfg);
    for (size_t i = 0; i < n; i++) {
        add_index(cfg, urls[i], NULL);
        for (size_t j = 0; j < cfg->nprojects; j++)
            index_add_project(&cfg->indexes[i], cfg->projects[j]);
    }
    set_credentials(cfg);
}

void config_add_indexes(struct config *cfg, const char *const *urls, size_t n)
{
    for (size_t i = 0; i < n; i++)
        add_index(cfg, urls[i], NULL);
    set_credentials(cfg);
}

void config_set_projects(struct config *cfg, const char *const *names, size_t n)
{
    char **want = xcalloc(n + 1, sizeof *want);
    for (size_t i = 0; i < n; i++)
        want[i] = wheelname_normalize(names[i]);
    /* Per index: the wanted names it lists; a name no index lists goes
     * to every index. */
    int *listed = xcalloc(n + 1, sizeof *listed);
    for (size_t i = 0; i < cfg->nindexes; i++)
        for (size_t k = 0; k < n; k++)
            listed[k] |= has(cfg->indexes[i].projects, cfg->indexes[i].nprojects, want[k]);
    for (size_t i = 0; i < cfg->nindexes; i++) {
        struct config_index *ix = &cfg->indexes[i];
        char **old = ix->projects;
        size_t nold = ix->nprojects;
        ix->projects = NULL;
        ix->nprojects = 0;
        for (size_t k = 0; k < n; k++)
            if (!listed[k] || has(old, nold, want[k]))
                index_add_project(ix, want[k]);
        for (size_t j = 0; j < nold; j++)
            free(old[j]);
        free(old);
    }
    /* The config's list: the wanted names, with the floors they had. */
    char **projects = cfg->projects, **floors = cfg->min_versions;
    size_t np = cfg->nprojects;
    cfg->projects = cfg->min_versions = NULL;
    cfg->nprojects = 0;
    for (size_t k = 0; k < n; k++) {
        size_t at = add_project(cfg, want[k]);
        for (size_t j = 0; j < np; j++)
            if (strcmp(projects[j], want[k]) == 0 && floors[j] && !cfg->min_versions[at])
                cfg->min_versions[at] = xstrdup(floors[j]);
    }
    for (size_t j = 0; j < np; j++) {
        free(projects[j]);
        free(floors[j]);
    }
    free(projects);
    free(floors);
    for (size_t k = 0; k < n; k++)
        free(want[k]);
    free(want);
    free(listed);
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

/* A URL of the configuration: 0, or the grammar's reason under where. */
static int check_url(const char *u, const char *where, const char *key, struct wa_error *err)
{
    struct wa_error e;
    if (!u)
        return wa_error_set(err, WA_ERR_FORMAT, "%s: %s must be an http or https URL", where, key);
    if (config_url_check(u, &e) < 0)
        return wa_error_set(err, WA_ERR_FORMAT, "%s: %s: %s", where, key, e.msg);
    return 0;
}

#define PROJECT_NAME_RULE                                                                          \
    "must hold project names such as \"torch\" (letters, digits, \".\", \"_\" and \"-\", "         \
    "starting and ending with a letter or digit)"

int config_index_name_valid(const char *s)
{
    return s && isalnum((unsigned char)*s) && strlen(s) <= 100 &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                     "0123456789._+-") == strlen(s);
}

/* A non-empty array of project names. */
static int check_names(json_t *list, const char *where, struct wa_error *err)
{
    char w[300];
    snprintf(w, sizeof w, "%s%s", where, strchr(where, '[') ? " \"projects\"" : "");
    if (!json_is_array(list) || json_array_size(list) == 0)
        return bad(err, w, "must be a non-empty array of project names");
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
    {
        const char *s = json_string_value(v);
        if (!s || !config_project_name_valid(s))
            return bad(err, w, PROJECT_NAME_RULE);
    }
    return 0;
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
    static const char *const top[] = {"indexes", "projects", "libraries", "jobs",
                                      "http",    "comment",  NULL};
    static const char *const libs[] = {"index", "comment", NULL};
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
    static const char *const idx[] = {"root", "ids", "url", "id", "projects", "comment", NULL};
    static const char *const opts[] = {"min_version", "comment", NULL};
    json_t **own = NULL; /* per index: its entry's own project list, or NULL */
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
            if ((rc = check_url(json_string_value(v), where, "the URL", err)) < 0)
                goto out;
            add_index(cfg, json_string_value(v), NULL);
            own = xrealloc(own, cfg->nindexes * sizeof *own);
            own[cfg->nindexes - 1] = NULL;
            continue;
        }
        if (!json_is_object(v)) {
            rc =
                bad(err, where, "must be a URL, {\"url\": URL} or {\"root\": URL, \"ids\": [...]}");
            goto out;
        }
        if ((rc = check_keys(v, idx, where, err)) < 0)
            goto out;
        json_t *plist = json_object_get(v, "projects");
        if (plist && (rc = check_names(plist, where, err)) < 0)
            goto out;
        size_t first = cfg->nindexes;
        const char *root_url = json_string_value(json_object_get(v, "root"));
        const char *url = json_string_value(json_object_get(v, "url"));
        json_t *ids = json_object_get(v, "ids");
        json_t *idv = json_object_get(v, "id");
        if (json_object_get(v, "url")) {
            if (json_object_get(v, "root") || ids) {
                rc = bad(err, where, "has \"url\" (one index) and \"root\"/\"ids\" (several)");
                goto out;
            }
            if ((rc = check_url(url, where, "\"url\"", err)) < 0)
                goto out;
            if (idv && !config_index_name_valid(json_string_value(idv))) {
                rc = bad(err, where, "\"id\" must be a plain index name such as \"pypi\"");
                goto out;
            }
            char *derived = NULL;
            if (!idv) {
                struct config_index probe = {0};
                set_url(&probe, url);
                derived = config_index_id(probe.url);
                free(probe.url);
                free(probe.userinfo);
            }
            int derived_ok = !derived || config_index_name_valid(derived);
            free(derived);
            if (!derived_ok) {
                rc = bad(err, where,
                         "the last path segment of \"url\" cannot name the index: give "
                         "\"id\"");
                goto out;
            }
            add_index(cfg, url, json_string_value(idv));
        } else {
            if (idv) {
                rc = bad(err, where, "\"id\" goes with \"url\"; \"root\" takes \"ids\"");
                goto out;
            }
            if ((rc = check_url(root_url, where, "\"root\"", err)) < 0)
                goto out;
            if (!json_is_array(ids) || json_array_size(ids) == 0) {
                rc = bad(err, where, "\"ids\" must be a non-empty array of index names");
                goto out;
            }
            size_t j;
            json_t *id;
            json_array_foreach(ids, j, id)
            {
                const char *s = json_string_value(id);
                if (!config_index_name_valid(s)) {
                    rc = bad(err, where, "\"ids\" must hold plain index names such as \"cu128\"");
                    goto out;
                }
                size_t rl = strlen(root_url);
                char *u =
                    xasprintf("%s%s%s/", root_url, rl && root_url[rl - 1] == '/' ? "" : "/", s);
                add_index(cfg, u, NULL);
                free(u);
            }
        }
        own = xrealloc(own, cfg->nindexes * sizeof *own);
        for (size_t k = first; k < cfg->nindexes; k++)
            own[k] = plist;
    }
    json_t *projects = json_object_get(root, "projects");
    int all_own = 1;
    for (size_t k = 0; k < cfg->nindexes; k++)
        all_own &= own && own[k] != NULL;
    if (json_is_array(projects)) {
        if ((rc = check_names(projects, "\"projects\"", err)) < 0)
            goto out;
        json_array_foreach(projects, i, v) add_project(cfg, json_string_value(v));
    } else if (json_is_object(projects)) {
        const char *name;
        json_object_foreach(projects, name, v)
        {
            char where[300];
            snprintf(where, sizeof where, "\"projects\".%.200s", name);
            if (!config_project_name_valid(name)) {
                rc = bad(err, "\"projects\"", PROJECT_NAME_RULE);
                goto out;
            }
            if (!json_is_object(v)) {
                rc = bad(err, where,
                         "must be an object of options, such as {\"min_version\": \"2.0\"}");
                goto out;
            }
            if ((rc = check_keys(v, opts, where, err)) < 0)
                goto out;
            size_t at = add_project(cfg, name);
            json_t *mv = json_object_get(v, "min_version");
            if (mv) {
                struct dotver dv;
                const char *t = json_string_value(mv);
                if (!t || strlen(t) > 64 || dotver_parse(t, &dv) < 0) {
                    rc = bad(err, where, "\"min_version\" must be a version such as \"2.0\"");
                    goto out;
                }
                cfg->min_versions[at] = xstrdup(t);
            }
        }
    } else if (projects || !all_own) {
        rc = bad(err, "\"projects\"",
                 "must be a non-empty array of project names, or an object of them (needed "
                 "unless every index lists its own)");
        goto out;
    }
    if (json_is_object(projects) && json_object_size(projects) == 0) {
        rc = bad(err, "\"projects\"", "must not be empty");
        goto out;
    }
    /* Each index's list: its own, else the top-level one.  A name an index
     * lists joins the config's list (no floor unless given above). */
    size_t ntop = cfg->nprojects;
    for (size_t k = 0; k < cfg->nindexes; k++) {
        if (own && own[k]) {
            json_array_foreach(own[k], i, v)
            {
                size_t at = add_project(cfg, json_string_value(v));
                index_add_project(&cfg->indexes[k], cfg->projects[at]);
            }
        } else {
            for (size_t j = 0; j < ntop; j++)
                index_add_project(&cfg->indexes[k], cfg->projects[j]);
        }
    }
    json_t *lib = json_object_get(root, "libraries");
    if (lib) {
        const char *u = json_string_value(json_object_get(lib, "index"));
        if (!json_is_object(lib)) {
            rc = bad(err, "\"libraries\"", "must be an object: {\"index\": URL}");
            goto out;
        }
        if ((rc = check_keys(lib, libs, "\"libraries\"", err)) < 0)
            goto out;
        if ((rc = check_url(u, "\"libraries\"", "\"index\"", err)) < 0)
            goto out;
        cfg->libraries_index = xcalloc(1, sizeof *cfg->libraries_index);
        set_url(cfg->libraries_index, u);
        cfg->libraries_index->id = config_index_id(cfg->libraries_index->url);
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
    set_credentials(cfg);
out:
    in_parse = 0;
    free(own);
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
