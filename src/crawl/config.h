/*
 * config: the crawler's configuration file (wheelarch.json).
 *
 *   {
 *     "indexes": [
 *       {"root": "https://download.pytorch.org/whl/", "ids": ["cpu", "cu126", "cu128"],
 *        "projects": ["torch", "torchvision", "xformers"]},
 *       {"url": "https://pypi.org/simple/", "projects": ["torch", "cupy-cuda12x"]},
 *       "https://example.org/simple/"
 *     ],
 *     "projects": {"torch": {"min_version": "2.0"}, "cupy-cuda12x": {}},
 *     "libraries": {"index": "https://pypi.org/simple/"},
 *     "jobs": 0,
 *     "http": {"connect_timeout_ms": 15000, "stall_timeout_ms": 60000,
 *              "min_rate": 1024, "min_average_rate": 65536,
 *              "retries": 5, "retry_delay_ms": 1000, "retry_max_ms": 60000,
 *              "max_redirects": 5, "allow_private_addresses": false,
 *              "resolve": ["pypi.example:443:192.0.2.7"]}
 *   }
 *
 * Read with jansson, duplicate keys and unknown keys rejected; errors name
 * the line and column.  Index URLs follow indexurl.h's grammar (a path of
 * letters, digits and . _ ~ + -, nothing a shell would read); user info in
 * one ("https://user:token@mirror/whl/cu126/") is split off: the URL kept,
 * stored in records and published is the one without it, and the
 * credentials go with the requests to that URL's origin alone (as
 * http_options.credentials; ~/.netrc is read as well).  Every index URL
 * ends with '/'; its id is its last
 * path segment ("cu128", "simple") unless an {"url", "id"} entry names it.
 * An index crawls the projects it lists, else the top-level ones;
 * "projects" is a list of names or an object of names and their options
 * ("min_version": versions before it are not crawled), and may be left
 * out when every index lists its own.  "libraries" names the index the GPU
 * libraries (data/gpu_libraries.csv) that crawled wheels pin in their
 * Requires-Dist are read from, each pinned version once.
 */
#ifndef WHEELARCH_CONFIG_H
#define WHEELARCH_CONFIG_H

#include <stddef.h>

#include "error.h"
#include "http.h"

struct config_index {
    char *url;       /* ends with '/'; without user info, which is never stored */
    char *userinfo;  /* "user:token" from the configured URL, for its requests only; or NULL */
    char *id;        /* "cu128" */
    char **projects; /* what to crawl there, PEP 503-normalised: its own list,
                      * else the config's */
    size_t nprojects;
};

struct config {
    struct config_index *indexes;
    size_t nindexes;
    char **projects;     /* every project named, PEP 503-normalised */
    char **min_versions; /* per project: its version floor, or NULL */
    size_t nprojects;
    /* Where the GPU libraries that crawled wheels pin are crawled from
     * ("libraries": {"index": URL}), or NULL: not crawled. */
    struct config_index *libraries_index;
    int jobs; /* 0: the number of cores */
    struct http_options http;
};

/* Loads path into cfg (zeroed first).  Returns 0, WA_ERR_IO (unreadable)
 * or WA_ERR_FORMAT ("line 3 column 14: unknown key \"projetcs\""). */
int config_load(const char *path, struct config *cfg, struct wa_error *err);

/* Parses configuration text (for tests and fuzzing). */
int config_parse(const char *text, size_t len, struct config *cfg, struct wa_error *err);

void config_free(struct config *cfg);

/* Replaces the index list with urls (as given on the command line); each
 * crawls every project of the config. */
void config_set_indexes(struct config *cfg, const char *const *urls, size_t n);
/* Adds urls to the index list (their projects: none; for the indexes a
 * merge may trust). */
void config_add_indexes(struct config *cfg, const char *const *urls, size_t n);
/* Crawls only these projects (as given on the command line): each index
 * keeps those of them it lists, and a name no index lists is crawled on
 * every index.  Version floors of the names kept stay. */
void config_set_projects(struct config *cfg, const char *const *names, size_t n);
/* The version floor of a project (normalised name), or NULL. */
const char *config_min_version(const struct config *cfg, const char *project);

/* Whether name is a project name (PEP 508: letters, digits, ".", "_", "-",
 * a letter or digit at both ends). */
int config_project_name_valid(const char *name);

/* Whether url is an index URL by indexurl's grammar, user info allowed
 * (it is split off: config_index.userinfo). */
int config_url_valid(const char *url);
/* The same, with the reason into err when it is not ("'$' is not allowed
 * in an index URL's path ..."; never the user info). */
int config_url_check(const char *url, struct wa_error *err);

/* An index URL as given on a command line (--index): config_url_check's
 * grammar, and a last path segment that names the index.  0, or the
 * reason into err. */
int config_index_url_check(const char *url, struct wa_error *err);

/* Whether s can be an index id (cu128, pypi): the grammar of a plain
 * variant id, letters, digits, '.', '_', '+', '-', a letter or digit
 * first (so never "." or ".."), at most 100 bytes. */
int config_index_name_valid(const char *s);

/* The id of an index URL: its last non-empty path segment. Caller frees. */
char *config_index_id(const char *url);

#endif
