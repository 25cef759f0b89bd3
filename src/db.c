/*
 * db: records, failures and the HTTP cache in the database folder.
 */
#include "db.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "sha256.h"
#include "xalloc.h"

#define RECORD_MAX (64u << 20)
#define PAGE_MAX (64u << 20)

struct db {
    char *dir;
    char *records;
    char *failed;
    char *http;
    char *journal;
};

int db_open(const char *dir, struct db **out, struct wa_error *err)
{
    struct db *db = xcalloc(1, sizeof *db);
    db->dir = xstrdup(dir);
    db->records = fsutil_join(dir, "records");
    db->failed = fsutil_join(dir, "failed");
    db->http = fsutil_join(dir, "http");
    db->journal = fsutil_join(dir, "journal");
    int rc = fsutil_mkdirs(db->records, err);
    if (rc == 0)
        rc = fsutil_mkdirs(db->failed, err);
    if (rc == 0)
        rc = fsutil_mkdirs(db->http, err);
    if (rc == 0)
        rc = fsutil_mkdirs(db->journal, err);
    /* Its folders must be real ones: a symbolic link (from a careless or
     * hostile merge) would make cleaning and writing act elsewhere. */
    const char *const sub[] = {db->records, db->failed, db->http, db->journal};
    for (size_t i = 0; i < 4 && rc == 0; i++)
        rc = fsutil_check_real_dir(sub[i], err);
    if (rc < 0) {
        db_close(db);
        return rc;
    }
    fsutil_clean_temp(db->records);
    fsutil_clean_temp(db->failed);
    fsutil_clean_temp(db->http);
    fsutil_clean_temp(db->journal);
    *out = db;
    return 0;
}

void db_close(struct db *db)
{
    if (!db)
        return;
    free(db->dir);
    free(db->records);
    free(db->failed);
    free(db->http);
    free(db->journal);
    free(db);
}

const char *db_dir(const struct db *db)
{
    return db->dir;
}

static char *hash_hex(const char *s)
{
    struct sha256 *h = sha256_new();
    char hex[SHA256_HEX_SIZE];
    sha256_update(h, s, strlen(s));
    sha256_final_hex(h, hex);
    sha256_free(h);
    return xstrdup(hex);
}

static int hex_run(const char *s, size_t n, int lower_only)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        int ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
                 (!lower_only && c >= 'A' && c <= 'F');
        if (!ok)
            return 0;
    }
    return s[n] == '\0';
}

int db_sha256_valid(const char *s)
{
    return s && strnlen(s, 65) == 64 && hex_run(s, 64, 0);
}

int db_key_valid(const char *key)
{
    if (!key)
        return 0;
    if (strncmp(key, "url-", 4) == 0)
        key += 4;
    return strnlen(key, 65) == 64 && hex_run(key, 64, 1);
}

char *db_key(const char *sha256, const char *url)
{
    if (sha256) {
        if (!db_sha256_valid(sha256))
            return NULL;
        char *k = xstrdup(sha256);
        for (char *c = k; *c; c++)
            if (*c >= 'A' && *c <= 'F')
                *c = (char)(*c - 'A' + 'a');
        return k;
    }
    char *h = hash_hex(url);
    char *k = xasprintf("url-%s", h);
    free(h);
    return k;
}

static int bad_key(const char *key, struct wa_error *err)
{
    char q[100];
    return wa_error_set(err, WA_ERR_USAGE, "\"%s\" is not a record key",
                        key ? wa_quote(q, sizeof q, key, 80) : "(null)");
}

static char *record_path(const char *dir, const char *key)
{
    char *name = xasprintf("%s.json", key);
    char *p = fsutil_join(dir, name);
    free(name);
    return p;
}

char *db_dump(json_t *v)
{
    char *s = json_dumps(v, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_ENCODE_ANY);
    char *out = xasprintf("%s\n", s ? s : "null");
    free(s);
    return out;
}

static int write_json(const char *path, json_t *v, struct wa_error *err)
{
    char *s = db_dump(v);
    int rc = fsutil_write_atomic(path, s, strlen(s), 0, err);
    free(s);
    return rc;
}

static int read_json(const char *path, json_t **out, struct wa_error *err)
{
    char *text;
    size_t n;
    int rc = fsutil_read_nofollow(path, RECORD_MAX, &text, &n, NULL, err);
    if (rc < 0)
        return rc;
    json_error_t je;
    *out = json_loadb(text, n, JSON_REJECT_DUPLICATES, &je);
    free(text);
    if (!*out)
        return wa_error_set(err, WA_ERR_FORMAT, "%s: line %d column %d: %s", path, je.line,
                            je.column, je.text);
    return 0;
}

/* A file NAME.json of a keyed folder (records/, failed/, journal/): the
 * key is checked before any path is built from it. */
static int keyed_read(const char *dir, const char *key, json_t **out, struct wa_error *err)
{
    *out = NULL;
    if (!db_key_valid(key))
        return bad_key(key, err);
    char *p = record_path(dir, key);
    int rc = read_json(p, out, err);
    free(p);
    return rc;
}

static int keyed_write(const char *dir, const char *key, json_t *v, struct wa_error *err)
{
    if (!db_key_valid(key))
        return bad_key(key, err);
    char *p = record_path(dir, key);
    int rc = write_json(p, v, err);
    free(p);
    return rc;
}

static void keyed_remove(const char *dir, const char *key)
{
    if (!db_key_valid(key))
        return;
    char *p = record_path(dir, key);
    remove(p);
    free(p);
}

int db_has_record(struct db *db, const char *key)
{
    if (!db_key_valid(key))
        return 0;
    char *p = record_path(db->records, key);
    int r = fsutil_exists(p);
    free(p);
    return r;
}

int db_read_record(struct db *db, const char *key, json_t **rec, struct wa_error *err)
{
    return keyed_read(db->records, key, rec, err);
}

int db_write_record(struct db *db, const char *key, json_t *rec, struct wa_error *err)
{
    return keyed_write(db->records, key, rec, err);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names NAME.json in dir (without ".json"), sorted. */
static int list_json(const char *dir, char ***keys, size_t *n, struct wa_error *err)
{
    *keys = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return wa_error_set(err, WA_ERR_IO, "cannot list %s", dir);
    size_t cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (de->d_name[0] == '.' || len < 6 || strcmp(de->d_name + len - 5, ".json") != 0)
            continue;
        *keys = xgrow(*keys, &cap, *n + 1, sizeof **keys);
        (*keys)[(*n)++] = xstrndup(de->d_name, len - 5);
    }
    closedir(d);
    if (*n > 1)
        qsort(*keys, *n, sizeof **keys, cmp_str);
    return 0;
}

int db_list_records(struct db *db, char ***keys, size_t *n, struct wa_error *err)
{
    return list_json(db->records, keys, n, err);
}

int db_journal_begin(struct db *db, const char *key, json_t *info, struct wa_error *err)
{
    return keyed_write(db->journal, key, info, err);
}

void db_journal_end(struct db *db, const char *key)
{
    keyed_remove(db->journal, key);
}

int db_journal_list(struct db *db, char ***keys, size_t *n, struct wa_error *err)
{
    int rc = list_json(db->journal, keys, n, err);
    if (rc < 0)
        return rc;
    size_t k = 0;
    for (size_t i = 0; i < *n; i++) {
        if (db_key_valid((*keys)[i])) {
            (*keys)[k++] = (*keys)[i];
            continue;
        }
        char *name = xasprintf("%s.json", (*keys)[i]);
        char *p = fsutil_join(db->journal, name);
        remove(p);
        free(p);
        free(name);
        free((*keys)[i]);
    }
    *n = k;
    return 0;
}

json_t *db_journal_read(struct db *db, const char *key)
{
    json_t *v;
    keyed_read(db->journal, key, &v, NULL);
    return v;
}

int db_write_failure(struct db *db, const char *key, json_t *f, struct wa_error *err)
{
    return keyed_write(db->failed, key, f, err);
}

json_t *db_read_failure(struct db *db, const char *key)
{
    json_t *v;
    keyed_read(db->failed, key, &v, NULL);
    return v;
}

void db_clear_failure(struct db *db, const char *key)
{
    keyed_remove(db->failed, key);
}

void db_http_entry_free(struct db_http_entry *e)
{
    free(e->final_url);
    free(e->etag);
    free(e->last_modified);
    free(e->content_type);
    free(e->body);
    memset(e, 0, sizeof *e);
}

static char *dup_str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? xstrdup(s) : NULL;
}

int db_http_load(struct db *db, const char *url, struct db_http_entry *e)
{
    memset(e, 0, sizeof *e);
    char *h = hash_hex(url);
    char *meta_name = xasprintf("%s.json", h), *body_name = xasprintf("%s.body", h);
    char *meta = fsutil_join(db->http, meta_name), *body = fsutil_join(db->http, body_name);
    json_t *m = NULL;
    int rc = -1;
    const char *murl = NULL;
    if (read_json(meta, &m, NULL) == 0)
        murl = json_string_value(json_object_get(m, "url"));
    if (murl && strcmp(murl, url) == 0 &&
        fsutil_read_nofollow(body, PAGE_MAX, &e->body, &e->len, NULL, NULL) == 0) {
        e->final_url = dup_str(m, "final_url");
        e->etag = dup_str(m, "etag");
        e->last_modified = dup_str(m, "last_modified");
        e->content_type = dup_str(m, "content_type");
        rc = 0;
    }
    json_decref(m);
    free(h);
    free(meta_name);
    free(body_name);
    free(meta);
    free(body);
    return rc;
}

int db_http_store(struct db *db, const char *url, const struct db_http_entry *e,
                  struct wa_error *err)
{
    char *h = hash_hex(url);
    char *meta_name = xasprintf("%s.json", h), *body_name = xasprintf("%s.body", h);
    char *meta = fsutil_join(db->http, meta_name), *body = fsutil_join(db->http, body_name);
    /* The body first: a meta file never names a body that is not there. */
    int rc = fsutil_write_atomic(body, e->body ? e->body : "", e->len, 0, err);
    if (rc == 0) {
        json_t *m = json_object();
        json_object_set_new(m, "url", json_string(url));
        if (e->final_url && *e->final_url && strcmp(e->final_url, url) != 0)
            json_object_set_new(m, "final_url", json_string(e->final_url));
        if (e->etag && *e->etag)
            json_object_set_new(m, "etag", json_string(e->etag));
        if (e->last_modified && *e->last_modified)
            json_object_set_new(m, "last_modified", json_string(e->last_modified));
        if (e->content_type && *e->content_type)
            json_object_set_new(m, "content_type", json_string(e->content_type));
        json_object_set_new(m, "bytes", json_integer((json_int_t)e->len));
        rc = write_json(meta, m, err);
        json_decref(m);
    }
    free(h);
    free(meta_name);
    free(body_name);
    free(meta);
    free(body);
    return rc;
}
