/*
 * sitestamp: the inputs of a build, and the stamp that remembers them.
 */
#include "sitestamp.h"

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "db.h"
#include "dbview.h"
#include "schedule.h"
#include "fsutil.h"
#include "outdir.h"
#include "sha256.h"
#include "version.h"
#include "xalloc.h"

#define STAMP_MAX (16u << 20)
#define INPUT_FILE_MAX (256u << 20)

static void add_field(struct sha256 *h, const char *name, const void *data, size_t n)
{
    char head[64];
    int k = snprintf(head, sizeof head, "%s %zu\n", name, n);
    sha256_update(h, head, (size_t)k);
    sha256_update(h, data, n);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every file under dir, in name order, with its path relative to root. */
static int add_tree(struct sha256 *h, const char *dir, const char *rel)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, by_name);
    if (n < 0)
        return -1;
    int rc = 0;
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        if (rc == 0 && strcmp(name, ".") != 0 && strcmp(name, "..") != 0) {
            char *path = fsutil_join(dir, name);
            char *r = rel[0] ? xasprintf("%s/%s", rel, name) : xstrdup(name);
            struct stat sb;
            if (stat(path, &sb) != 0) {
                rc = -1;
            } else if (S_ISDIR(sb.st_mode)) {
                rc = add_tree(h, path, r);
            } else if (S_ISREG(sb.st_mode)) {
                char *data;
                size_t len;
                if (fsutil_read(path, INPUT_FILE_MAX, &data, &len, NULL, NULL) == 0) {
                    add_field(h, r, data, len);
                    free(data);
                } else {
                    rc = -1;
                }
            }
            free(r);
            free(path);
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

char *sitestamp_inputs(const struct site_options *o)
{
    struct sha256 *h = sha256_new();
    int rc = 0;
    const char *v = WHEELARCH_VERSION;
    add_field(h, "wheelarch", v, strlen(v));
    const char *base = o->base_url ? o->base_url : "";
    add_field(h, "base_url", base, strlen(base));
    char nightlies[24];
    snprintf(nightlies, sizeof nightlies, "%d", o->nightlies);
    add_field(h, "nightlies", nightlies, strlen(nightlies));
    add_field(h, "simple_json", o->simple_json ? "1" : "0", 1);
    /* the releases due by today: a date passing changes the banner */
    char due[24];
    snprintf(due, sizeof due, "%zu", schedule_due(o->data_dir, o->today));
    add_field(h, "due", due, strlen(due));
    char state[128] = "none";
    if (o->cache_dir && db_exists(o->cache_dir)) {
        struct db *db;
        char id[65];
        long long changes;
        rc = db_open(o->cache_dir, DB_READONLY, &db, NULL);
        if (rc == 0) {
            rc = db_state(db, id, &changes, NULL);
            db_close(db);
        }
        if (rc == 0)
            snprintf(state, sizeof state, "%s %lld", id, changes);
    }
    add_field(h, "database", state, strlen(state));
    if (rc == 0)
        rc = add_tree(h, o->templates_dir, "templates");
    if (rc == 0)
        rc = add_tree(h, o->data_dir, "data");
    char hex[SHA256_HEX_SIZE];
    sha256_final_hex(h, hex);
    sha256_free(h);
    return rc == 0 ? xstrdup(hex) : NULL;
}

static size_t size_of(json_t *o, const char *k)
{
    json_int_t v = json_integer_value(json_object_get(o, k));
    return v > 0 ? (size_t)v : 0;
}

/* OUT.stamp for out_dir: its absolute path, as the lock's and the
 * temporary tree's ("link/../site" names one file whichever way). */
static char *stamp_path(const char *out_dir)
{
    char *abs = fsutil_abspath(out_dir);
    char *p = xasprintf("%s.stamp", abs);
    free(abs);
    return p;
}

/* The stamp at path as an object, or NULL when there is none or the file
 * there is not a stamp (not a regular file, not JSON with "inputs"). */
static json_t *read_stamp(const char *path)
{
    char *text;
    size_t len;
    if (fsutil_read_nofollow(path, STAMP_MAX, &text, &len, NULL, NULL) < 0)
        return NULL;
    json_t *s = json_loadb(text, len, 0, NULL);
    free(text);
    if (!json_is_string(json_object_get(s, "inputs"))) {
        json_decref(s);
        return NULL;
    }
    return s;
}

/* Whether path may be written or removed as a stamp: absent, or a stamp. */
static int stamp_ours(const char *path)
{
    struct stat sb;
    if (lstat(path, &sb) != 0)
        return 1;
    json_t *s = read_stamp(path);
    json_decref(s);
    return s != NULL;
}

int sitestamp_matches(const char *out_dir, const char *inputs, struct site_stats *st)
{
    char *path = stamp_path(out_dir);
    json_t *s = read_stamp(path);
    free(path);
    if (!s)
        return 0;
    const char *was = json_string_value(json_object_get(s, "inputs"));
    /* The site must still be there, and be the one built: a folder put in
     * its place since (no marker) is never taken for it. */
    char *abs = fsutil_abspath(out_dir);
    char *marker = fsutil_join(abs, OUTDIR_MARKER);
    free(abs);
    struct stat sb;
    int match =
        was && inputs && strcmp(was, inputs) == 0 && lstat(marker, &sb) == 0 && S_ISREG(sb.st_mode);
    free(marker);
    if (match) {
        memset(st, 0, sizeof *st);
        st->pages = size_of(s, "pages");
        st->records = size_of(s, "records");
        st->out.files = st->out.unchanged = size_of(s, "files");
        const char *fr = json_string_value(json_object_get(s, "freshness"));
        snprintf(st->freshness, sizeof st->freshness, "%s", fr ? fr : "");
        json_t *skipped = json_object_get(s, "skipped");
        size_t n = json_array_size(skipped), i;
        json_t *x;
        st->skipped = n ? xcalloc(n, sizeof *st->skipped) : NULL;
        json_array_foreach(skipped, i, x)
        {
            const char *f = json_string_value(json_object_get(x, "file"));
            const char *r = json_string_value(json_object_get(x, "reason"));
            st->skipped[st->nskipped].file = xstrdup(f ? f : "");
            st->skipped[st->nskipped].reason = xstrdup(r ? r : "");
            st->nskipped++;
        }
    }
    json_decref(s);
    return match;
}

void sitestamp_remove(const char *out_dir)
{
    char *path = stamp_path(out_dir);
    if (stamp_ours(path))
        remove(path);
    free(path);
}

void sitestamp_write(const char *out_dir, const char *inputs, const struct site_stats *st)
{
    json_t *s = json_object();
    json_object_set_new(s, "inputs", json_string(inputs));
    json_object_set_new(s, "pages", json_integer((json_int_t)st->pages));
    json_object_set_new(s, "records", json_integer((json_int_t)st->records));
    json_object_set_new(s, "files", json_integer((json_int_t)st->out.files));
    json_object_set_new(s, "freshness", json_string(st->freshness));
    json_t *skipped = json_array();
    for (size_t i = 0; i < st->nskipped; i++)
        json_array_append_new(skipped, json_pack("{s:s, s:s}", "file", st->skipped[i].file,
                                                 "reason", st->skipped[i].reason));
    json_object_set_new(s, "skipped", skipped);
    char *text = db_dump(s);
    json_decref(s);
    char *path = stamp_path(out_dir);
    if (stamp_ours(path)) /* a file of that name that is not a stamp stays */
        fsutil_write_atomic(path, text, strlen(text), 0, NULL);
    free(path);
    free(text);
}
