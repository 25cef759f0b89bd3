/*
 * dbmerge: merge, import and export of records.
 */
#include "dbmerge.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fsutil.h"
#include "jsontext.h"
#include "recordcheck.h"
#include "wheelkey.h"
#include "xalloc.h"

#define RECORD_MAX (64u << 20)

/* Stores rec under key unless the stored record wins (see dbmerge.h). */
static int store(struct db *db, const char *key, json_t *rec, struct dbmerge_stats *st,
                 struct wa_error *err)
{
    const char *have = db_record_status(db, key);
    const char *incoming = json_string_value(json_object_get(rec, "status"));
    if (have && !(strcmp(have, "inferred") == 0 && incoming && strcmp(incoming, "scanned") == 0)) {
        /* Still checked: an input with an invalid record is refused whole. */
        int rc = recordcheck_validate(key, rec, err);
        if (rc == 0)
            st->kept++;
        return rc;
    }
    int rc = db_write_record(db, key, rec, err);
    if (rc == 0) {
        if (have)
            st->replaced++;
        else
            st->added++;
    }
    return rc;
}

struct merge_one {
    struct db *db;
    struct dbmerge_stats st;
};

static int merge_record(void *ud, const char *key, const char *text, struct wa_error *err)
{
    struct merge_one *m = ud;
    char q[100];
    if (!wheelkey_valid(key))
        return wa_error_set(err, WA_ERR_FORMAT, "\"%s\" is not a record key",
                            recordcheck_quote(q, sizeof q, key, 80));
    json_error_t je;
    json_t *rec = jsontext_loads(text, JSON_REJECT_DUPLICATES, &je);
    if (!rec)
        return wa_error_set(err, WA_ERR_FORMAT, "record %s: line %d column %d: %s", key, je.line,
                            je.column, je.text);
    struct wa_error e;
    int rc = store(m->db, key, rec, &m->st, &e);
    json_decref(rec);
    if (rc < 0)
        return wa_error_set(err, e.code, "record %s: %s", key, e.msg);
    return 0;
}

static int same_file(const char *a, const char *b)
{
    struct stat x, y;
    return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

static void add_stats(struct dbmerge_stats *to, const struct dbmerge_stats *from)
{
    to->added += from->added;
    to->replaced += from->replaced;
    to->kept += from->kept;
    to->refused += from->refused;
}

int db_merge(struct db *db, const char *const *paths, size_t n, struct dbmerge_stats *st,
             dbmerge_refused_fn refused, void *ud, struct wa_error *err)
{
    memset(st, 0, sizeof *st);
    int rc = db_begin(db, err);
    if (rc < 0)
        return rc;
    for (size_t i = 0; i < n; i++) {
        struct wa_error e;
        struct db *other = NULL;
        int r;
        if (same_file(paths[i], db_path(db)))
            r = wa_error_set(&e, WA_ERR_USAGE, "is the database being merged into");
        else
            r = db_open_file(paths[i], DB_READONLY | DB_ANY_VERSION, &other, &e);
        if (r == 0)
            r = db_check(other, &e);
        struct merge_one m = {db, {0, 0, 0, 0}};
        if (r == 0 && (r = db_savepoint(db, &e)) == 0) {
            r = db_each_record(other, merge_record, &m, &e);
            if (r == 0)
                r = db_merge_notes(db, other, &e);
            if (r == 0)
                r = db_release(db, &e);
            else
                db_rollback_to(db);
        }
        db_close(other);
        if (r < 0) {
            st->refused++;
            if (refused) {
                /* The message may start with the path already. */
                size_t pl = strlen(paths[i]);
                const char *why = strncmp(e.msg, paths[i], pl) == 0 && e.msg[pl] == ':'
                                      ? e.msg + pl + (e.msg[pl + 1] == ' ' ? 2 : 1)
                                      : e.msg;
                refused(ud, paths[i], why);
            }
            continue;
        }
        add_stats(st, &m.st);
    }
    struct wa_error e;
    if (db_settle_notes(db, &e) < 0) {
        db_rollback(db);
        if (err)
            *err = e;
        return e.code;
    }
    return db_commit(db, err);
}

static int ends_with_json(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".json") == 0 && name[0] != '.';
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Checks and stores one record read from `what`; a record that fails is
 * refused and reported. */
static void import_one(struct db *db, const char *what, const char *key, const char *text,
                       size_t len, struct dbmerge_stats *st, dbmerge_refused_fn refused, void *ud)
{
    struct wa_error e;
    json_error_t je;
    int r = 0;
    json_t *rec = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!rec)
        r = wa_error_set(&e, WA_ERR_FORMAT, "line %d column %d: %s", je.line, je.column, je.text);
    if (r == 0 && !key) {
        key = json_string_value(json_object_get(rec, "key"));
        if (!key)
            r = wa_error_set(&e, WA_ERR_FORMAT, "the record has no key");
    }
    if (r == 0)
        r = store(db, key, rec, st, &e);
    if (r < 0) {
        st->refused++;
        if (refused)
            refused(ud, what, e.msg);
    }
    json_decref(rec);
}

/* The records of an export: one JSON object per line. */
static int import_lines(struct db *db, const char *path, struct dbmerge_stats *st,
                        dbmerge_refused_fn refused, void *ud, struct wa_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return wa_error_set(err, WA_ERR_IO, "%s: cannot open", path);
    int rc = db_begin(db, err);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long lineno = 0;
    while (rc == 0 && (n = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (n == 0 || (n == 1 && line[0] == '\n'))
            continue;
        char *what = xasprintf("%s:%ld", path, lineno);
        import_one(db, what, NULL, line, (size_t)n, st, refused, ud);
        free(what);
    }
    free(line);
    if (rc == 0 && ferror(f)) {
        db_rollback(db);
        rc = wa_error_set(err, WA_ERR_IO, "%s: cannot read", path);
    }
    fclose(f);
    return rc == 0 ? db_commit(db, err) : rc;
}

int db_import(struct db *db, const char *dir, struct dbmerge_stats *st, dbmerge_refused_fn refused,
              void *ud, struct wa_error *err)
{
    memset(st, 0, sizeof *st);
    struct stat fs;
    if (stat(dir, &fs) == 0 && S_ISREG(fs.st_mode))
        return import_lines(db, dir, st, refused, ud, err);
    char *sub = fsutil_join(dir, "records");
    struct stat sb;
    char *from = stat(sub, &sb) == 0 && S_ISDIR(sb.st_mode) ? sub : xstrdup(dir);
    if (from != sub)
        free(sub);
    DIR *d = opendir(from);
    if (!d) {
        int rc = wa_error_set(err, WA_ERR_IO, "%s: cannot list the folder", from);
        free(from);
        return rc;
    }
    char **names = NULL;
    size_t nn = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!ends_with_json(de->d_name))
            continue;
        names = xgrow(names, &cap, nn + 1, sizeof *names);
        names[nn++] = xstrdup(de->d_name);
    }
    closedir(d);
    if (nn > 1)
        qsort(names, nn, sizeof *names, cmp_str);
    int rc = db_begin(db, err);
    for (size_t i = 0; rc == 0 && i < nn; i++) {
        char *path = fsutil_join(from, names[i]);
        char *key = xstrndup(names[i], strlen(names[i]) - 5);
        struct wa_error e;
        char *text = NULL;
        size_t len = 0;
        if (fsutil_read_nofollow(path, RECORD_MAX, &text, &len, NULL, &e) == 0) {
            import_one(db, path, key, text, len, st, refused, ud);
        } else {
            st->refused++;
            if (refused)
                refused(ud, path, e.msg);
        }
        free(text);
        free(key);
        free(path);
    }
    for (size_t i = 0; i < nn; i++)
        free(names[i]);
    free(names);
    free(from);
    return rc == 0 ? db_commit(db, err) : rc;
}

struct export_ctx {
    FILE *f;
    size_t n;
};

static int export_one(void *ud, const char *key, const char *text, struct wa_error *err)
{
    struct export_ctx *x = ud;
    /* Records are stored compact with sorted keys: written as they are. */
    (void)key;
    if (fputs(text, x->f) == EOF || fputc('\n', x->f) == EOF)
        return wa_error_set(err, WA_ERR_IO, "cannot write the export");
    x->n++;
    return 0;
}

int db_export(struct db *db, FILE *f, size_t *count, struct wa_error *err)
{
    struct export_ctx x = {f, 0};
    int rc = db_each_record(db, export_one, &x, err);
    if (rc == 0 && fflush(f) != 0)
        rc = wa_error_set(err, WA_ERR_IO, "cannot write the export");
    if (count)
        *count = x.n;
    return rc;
}
