/*
 * dbmerge: merge, import and export of records.
 */
#include "dbmerge.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fsutil.h"
#include "strbuf.h"
#include "version.h"
#include "wheelname.h"
#include "record.h"
#include "recordcheck.h"
#include "wheelkey.h"
#include "xalloc.h"

#define RECORD_MAX (64u << 20)

/* Stores rec under key unless the stored record wins (see dbmerge.h). */
static int store(struct db *db, const char *key, json_t *rec, struct dbmerge_stats *st,
                 struct wa_error *err)
{
    /* Checked whether it is kept or not: an input with an invalid record
     * is refused whole, and so is one naming an index this database does
     * not trust. */
    struct record r;
    int rc = record_of_json(key, rec, &r, err);
    if (rc < 0)
        return rc;
    const char *have = db_record_status(db, key);
    if (have && !(strcmp(have, "inferred") == 0 && r.scanned)) {
        if (!db_index_trusted(db, r.index, r.index_url)) {
            char why[900];
            db_index_untrusted_text(r.index, r.index_url, why, sizeof why);
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s", why);
        }
        if (rc == 0)
            st->kept++;
        record_free(&r);
        return rc;
    }
    char *text = record_text(rec);
    rc = db_write_record(db, &r, text, err);
    free(text);
    record_free(&r);
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
    int target_failed; /* the error is the target's (its disk), not the input's */
    size_t notes;      /* unfinished scans taken from the input */
};

static int merge_record(void *ud, const char *key, const char *text, struct wa_error *err)
{
    struct merge_one *m = ud;
    char q[100];
    if (!wheelkey_valid(key))
        return wa_error_set(err, WA_ERR_FORMAT, "\"%s\" is not a record key",
                            recordcheck_quote(q, sizeof q, key, 80));
    struct wa_error e;
    if (recordcheck_text(text, strlen(text), &e) < 0)
        return wa_error_set(err, e.code, "record %s: %s", key, e.msg);
    json_error_t je;
    json_t *rec = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    if (!rec)
        return wa_error_set(err, WA_ERR_FORMAT, "record %s: line %d column %d: %s", key, je.line,
                            je.column, je.text);
    int rc = store(m->db, key, rec, &m->st, &e);
    json_decref(rec);
    if (rc == WA_ERR_IO) {
        m->target_failed = 1;
        if (err)
            *err = e;
        return rc;
    }
    if (rc < 0)
        return wa_error_set(err, e.code, "record %s: %s", key, e.msg);
    return 0;
}

/* A string field of a note, NULL when absent or not a string. */
static const char *note_str(json_t *note, const char *name)
{
    return json_string_value(json_object_get(note, name));
}

/* Whether a failure's kind says its scan did not finish. */
static int unfinished_kind(const char *kind)
{
    return kind && (strcmp(kind, "unfinished") == 0 || strcmp(kind, "crashed") == 0);
}

static int wheel_file_name_ok(const char *s)
{
    struct wheel_name wn;
    if (!s || strchr(s, '/') || strchr(s, '\\') || wheelname_parse(s, &wn, NULL) < 0)
        return 0;
    wheelname_free(&wn);
    return 1;
}

/* One row of an input's journal or failures.  An input's word that a wheel
 * failed is not taken: a planted failure could block a wheel for good.
 * What is taken is only that its scan did not finish there (a journal
 * note: that crawl died during it; a failure of kind unfinished or
 * crashed), and only as the instruction that costs nothing when false: the
 * next crawl scans that wheel alone, in a child process (failure kind
 * "unfinished").  Ordinary failures are not carried: the next crawl
 * retries those anyway. */
static int merge_note(void *ud, const char *table, const char *key, const char *json,
                      struct wa_error *err)
{
    struct merge_one *m = ud;
    char q[100];
    if (!wheelkey_valid(key))
        return wa_error_set(err, WA_ERR_FORMAT, "%s: \"%s\" is not a record key", table,
                            recordcheck_quote(q, sizeof q, key, 80));
    json_error_t je;
    json_t *note = json_loads(json, JSON_REJECT_DUPLICATES, &je);
    int failure = strcmp(table, "failures") == 0;
    const char *url = note_str(note, "url"), *key_in = note_str(note, "key");
    const char *filename = note_str(note, "filename");
    int rc = 0;
    if (!json_is_object(note))
        rc = wa_error_set(err, WA_ERR_FORMAT, "%s of %s: not a JSON object", table, key);
    else if (failure && !unfinished_kind(note_str(note, "kind")))
        ; /* an ordinary failure: retried by the next crawl anyway */
    else if (!url || !recordcheck_url_valid(url))
        rc =
            wa_error_set(err, WA_ERR_FORMAT, "%s of %s: \"url\" is not an http(s) URL", table, key);
    else if (!wheel_file_name_ok(filename))
        rc = wa_error_set(err, WA_ERR_FORMAT, "%s of %s: \"filename\" is not a wheel file name",
                          table, key);
    else if (key_in && strcmp(key_in, key) != 0)
        rc = wa_error_set(err, WA_ERR_FORMAT, "%s of %s: \"key\" names another wheel", table, key);
    else if (++m->notes > DBMERGE_NOTES_MAX)
        rc = wa_error_set(err, WA_ERR_LIMIT,
                          "more than %d unfinished scans in its journal and failures (a crawl "
                          "leaves a handful)",
                          DBMERGE_NOTES_MAX);
    else if (!db_has_record(m->db, key)) { /* a recorded wheel's notes are settled */
        struct db_failure have;
        db_failure_get(m->db, key, &have);
        if (!unfinished_kind(have.kind)) {
            const char *date = note_str(note, failure ? "failed_at" : "started");
            const struct db_failure f = {
                .url = (char *)url,
                .filename = (char *)filename,
                .error = "the scan of this wheel did not finish in the crawl of a merged "
                         "database; it will be retried alone",
                .failed_at = date && recordcheck_date_valid(date) ? (char *)date : NULL,
                .kind = "unfinished",
                .wheelarch_version = WHEELARCH_VERSION,
                .runs = 1,
            };
            if ((rc = db_failure_put(m->db, key, &f, err)) < 0)
                m->target_failed = 1;
        }
        db_failure_free(&have);
    }
    json_decref(note);
    return rc;
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

/* Merges one input inside the caller's transaction, in a savepoint that
 * is rolled back when the input is refused.  Returns 0, an error of the
 * input (refused) or, with *target_failed set, one of the target. */
static int merge_input(struct db *db, const char *path, struct dbmerge_stats *st,
                       int *target_failed, struct wa_error *e)
{
    struct db *other = NULL;
    int r;
    if (same_file(path, db_path(db)))
        r = wa_error_set(e, WA_ERR_USAGE, "is the database being merged into");
    else
        r = db_open_file(path, DB_FOREIGN, &other, e);
    if (r == 0)
        r = db_check(other, e);
    struct merge_one m = {db, {0, 0, 0, 0}, 0, 0};
    if (r == 0 && (r = db_savepoint(db, e)) < 0)
        m.target_failed = 1;
    else if (r == 0) {
        r = db_each_record(other, merge_record, &m, e);
        if (r == 0)
            r = db_each_note(other, merge_note, &m, e);
        if (r == 0 && (r = db_release(db, e)) < 0)
            m.target_failed = 1;
        else if (r < 0 && !m.target_failed)
            db_rollback_to(db);
    }
    db_close(other);
    *target_failed = m.target_failed;
    if (r == 0)
        add_stats(st, &m.st);
    return r;
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
        int target_failed = 0;
        int r = merge_input(db, paths[i], st, &target_failed, &e);
        if (target_failed) {
            /* The database merged into failed (its disk is full, say): all
             * or nothing, so nothing of any input is kept. */
            db_rollback(db);
            if (err)
                *err = e;
            return r < 0 ? r : WA_ERR_IO;
        }
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
        }
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
 * refused and reported.  Returns 0, or WA_ERR_IO when the database failed
 * to store it (its disk is full, say): then the caller stops and rolls
 * everything back. */
static int import_one(struct db *db, const char *what, const char *key, const char *text,
                      size_t len, struct dbmerge_stats *st, dbmerge_refused_fn refused, void *ud,
                      struct wa_error *err)
{
    struct wa_error e;
    json_error_t je;
    json_t *rec = NULL;
    int r = recordcheck_text(text, len, &e);
    if (r == 0 && !(rec = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je)))
        r = wa_error_set(&e, WA_ERR_FORMAT, "line %d column %d: %s", je.line, je.column, je.text);
    if (r == 0 && !key) {
        key = json_string_value(json_object_get(rec, "key"));
        if (!key)
            r = wa_error_set(&e, WA_ERR_FORMAT, "the record has no key");
    }
    if (r == 0)
        r = store(db, key, rec, st, &e);
    json_decref(rec);
    if (r == WA_ERR_IO) {
        if (err)
            *err = e;
        return r;
    }
    if (r < 0) {
        st->refused++;
        if (refused)
            refused(ud, what, e.msg);
    }
    return 0;
}

/* Ends an import's transaction: committed when rc is 0, else rolled back
 * (nothing of the import stays). */
static int import_end(struct db *db, int rc, struct wa_error *err)
{
    if (rc == 0)
        return db_commit(db, err);
    db_rollback(db);
    return rc;
}

/* The records of an export: one JSON object per line, each at most
 * RECORD_MAX bytes (the cap of a record file); a longer line is refused
 * and read past, never held. */
static int import_lines(struct db *db, const char *path, struct dbmerge_stats *st,
                        dbmerge_refused_fn refused, dbmerge_progress_fn progress, void *ud,
                        struct wa_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return wa_error_set(err, WA_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat fs;
    if (fstat(fd, &fs) != 0 || !S_ISREG(fs.st_mode)) { /* what was opened, not what was named */
        close(fd);
        return wa_error_set(err, WA_ERR_IO, "%s: not a regular file", path);
    }
    int rc = db_begin(db, err);
    if (rc < 0) {
        close(fd);
        return rc;
    }
    struct strbuf line = STRBUF_INIT;
    size_t len = 0; /* of the line so far, also past RECORD_MAX */
    long lineno = 0;
    char *chunk = xmalloc(1 << 16);
    size_t read_bytes = 0;
    for (;;) {
        ssize_t k = read(fd, chunk, 1 << 16);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            rc = wa_error_set(err, WA_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
            break;
        }
        size_t n = (size_t)k, at = 0;
        read_bytes += n;
        while (rc == 0 && (at < n || (k == 0 && len > 0))) {
            const char *nl = at < n ? memchr(chunk + at, '\n', n - at) : NULL;
            size_t piece = nl ? (size_t)(nl - chunk) - at : n - at;
            if (len + piece <= RECORD_MAX)
                strbuf_add(&line, chunk + at, piece);
            len += piece;
            at += piece + (nl ? 1 : 0);
            if (!nl && k > 0)
                break; /* the line goes on in the next chunk */
            lineno++;
            if (progress && lineno % 256 == 0)
                progress(ud, read_bytes, (size_t)fs.st_size, "bytes");
            char *what = xasprintf("%s:%ld", path, lineno);
            if (len > RECORD_MAX) {
                st->refused++;
                if (refused) {
                    char why[128];
                    snprintf(why, sizeof why,
                             "the line is longer than %u MiB, the most a record may be",
                             RECORD_MAX >> 20);
                    refused(ud, what, why);
                }
            } else if (len > 0) {
                rc = import_one(db, what, NULL, line.buf, line.len, st, refused, ud, err);
            }
            free(what);
            strbuf_reset(&line);
            len = 0;
        }
        if (rc < 0 || k == 0)
            break;
    }
    if (progress && rc == 0)
        progress(ud, read_bytes, read_bytes, "bytes");
    free(chunk);
    strbuf_free(&line);
    close(fd);
    return import_end(db, rc, err);
}

int db_import(struct db *db, const char *dir, struct dbmerge_stats *st, dbmerge_refused_fn refused,
              dbmerge_progress_fn progress, void *ud, struct wa_error *err)
{
    memset(st, 0, sizeof *st);
    struct stat fs;
    if (stat(dir, &fs) == 0 && !S_ISDIR(fs.st_mode)) {
        if (!S_ISREG(fs.st_mode))
            return wa_error_set(err, WA_ERR_IO, "%s: not a folder or a regular file", dir);
        return import_lines(db, dir, st, refused, progress, ud, err);
    }
    char *sub = fsutil_join(dir, "records");
    struct stat sb;
    char *from = stat(sub, &sb) == 0 && S_ISDIR(sb.st_mode) ? sub : xstrdup(dir);
    if (from != sub)
        free(sub);
    DIR *d = opendir(from);
    if (!d) {
        int rc =
            wa_error_set(err, WA_ERR_IO, "%s: cannot list the folder: %s", from, strerror(errno));
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
    int begun = rc == 0;
    for (size_t i = 0; rc == 0 && i < nn; i++) {
        if (progress && i && i % 256 == 0)
            progress(ud, i, nn, "files");
        char *path = fsutil_join(from, names[i]);
        char *key = xstrndup(names[i], strlen(names[i]) - 5);
        struct wa_error e;
        char *text = NULL;
        size_t len = 0;
        if (fsutil_read_nofollow(path, RECORD_MAX, &text, &len, NULL, &e) == 0) {
            rc = import_one(db, path, key, text, len, st, refused, ud, err);
        } else {
            st->refused++;
            if (refused)
                refused(ud, path, e.msg);
        }
        free(text);
        free(key);
        free(path);
    }
    if (progress && rc == 0)
        progress(ud, nn, nn, "files");
    for (size_t i = 0; i < nn; i++)
        free(names[i]);
    free(names);
    free(from);
    return begun ? import_end(db, rc, err) : rc;
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
