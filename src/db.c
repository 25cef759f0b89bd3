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
#define PAGE_MAX (256u << 20)

struct db {
    char *dir;
    char *records;
    char *failed;
    char *http;
};

int db_open(const char *dir, struct db **out, struct wa_error *err)
{
    struct db *db = xcalloc(1, sizeof *db);
    db->dir = xstrdup(dir);
    db->records = fsutil_join(dir, "records");
    db->failed = fsutil_join(dir, "failed");
    db->http = fsutil_join(dir, "http");
    int rc = fsutil_mkdirs(db->records, err);
    if (rc == 0)
        rc = fsutil_mkdirs(db->failed, err);
    if (rc == 0)
        rc = fsutil_mkdirs(db->http, err);
    if (rc < 0) {
        db_close(db);
        return rc;
    }
    fsutil_clean_temp(db->records);
    fsutil_clean_temp(db->failed);
    fsutil_clean_temp(db->http);
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

char *db_key(const char *sha256, const char *url)
{
    if (sha256 && strlen(sha256) == 64)
        return xstrdup(sha256);
    char *h = hash_hex(url);
    char *k = xasprintf("url-%s", h);
    free(h);
    return k;
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
    int rc = fsutil_read(path, RECORD_MAX, &text, &n, NULL, err);
    if (rc < 0)
        return rc;
    json_error_t je;
    *out = json_loadb(text, n, 0, &je);
    free(text);
    if (!*out)
        return wa_error_set(err, WA_ERR_FORMAT, "%s: line %d column %d: %s", path, je.line,
                            je.column, je.text);
    return 0;
}

int db_has_record(struct db *db, const char *key)
{
    char *p = record_path(db->records, key);
    int r = fsutil_exists(p);
    free(p);
    return r;
}

int db_read_record(struct db *db, const char *key, json_t **rec, struct wa_error *err)
{
    char *p = record_path(db->records, key);
    int rc = read_json(p, rec, err);
    free(p);
    return rc;
}

int db_write_record(struct db *db, const char *key, json_t *rec, struct wa_error *err)
{
    char *p = record_path(db->records, key);
    int rc = write_json(p, rec, err);
    free(p);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int db_list_records(struct db *db, char ***keys, size_t *n, struct wa_error *err)
{
    *keys = NULL;
    *n = 0;
    DIR *d = opendir(db->records);
    if (!d)
        return wa_error_set(err, WA_ERR_IO, "cannot list %s", db->records);
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

int db_write_failure(struct db *db, const char *key, json_t *f, struct wa_error *err)
{
    char *p = record_path(db->failed, key);
    int rc = write_json(p, f, err);
    free(p);
    return rc;
}

json_t *db_read_failure(struct db *db, const char *key)
{
    char *p = record_path(db->failed, key);
    json_t *v = NULL;
    if (fsutil_exists(p))
        read_json(p, &v, NULL);
    free(p);
    return v;
}

void db_clear_failure(struct db *db, const char *key)
{
    char *p = record_path(db->failed, key);
    remove(p);
    free(p);
}

void db_http_entry_free(struct db_http_entry *e)
{
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
        fsutil_read(body, PAGE_MAX, &e->body, &e->len, NULL, NULL) == 0) {
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
