/*
 * cli_db: `wheelarch db import|export|check` and `wheelarch merge`.
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "config.h"
#include "crawl.h"
#include "db.h"
#include "dbmerge.h"
#include "fsutil.h"
#include "indexurl.h"
#include "lockfile.h"
#include "recordcheck.h"
#include "xalloc.h"

static void print_refused(void *ud, const char *what, const char *why)
{
    struct cli_quota *q = ud;
    /* File names come from a directory listing: shown quoted.  Reasons
     * quote the values they name already; a parser's message may still
     * hold a raw byte of the input, so control characters become '?'. */
    char w[4200], y[1024];
    snprintf(y, sizeof y, "%s", why);
    for (char *ch = y; *ch; ch++)
        if ((unsigned char)*ch < 0x20 || *ch == 0x7f)
            *ch = '?';
    cli_warn_quota(q, "%s: %s; refused", recordcheck_quote(w, sizeof w, what, 1000), y);
}

/* db import's progress: a line at each tenth of a large input (5,000
 * record files or more, or a JSON lines file of 16 MiB or more), so that
 * an import of a whole 0.1 cache is not a silent wait.  The quota of
 * refusal lines comes first: print_refused takes this as a cli_quota. */
struct import_display {
    struct cli_quota q;
    const char *from;
    int tenth; /* the last tenth printed */
};

static void print_progress(void *ud, size_t done, size_t total, const char *unit)
{
    struct import_display *d = ud;
    int large = strcmp(unit, "files") == 0 ? total >= 5000 : total >= (16u << 20);
    int tenth = total ? (int)((double)done * 10 / (double)total) : 0;
    if (!large || tenth <= d->tenth || done >= total)
        return;
    d->tenth = tenth;
    char q[300];
    if (strcmp(unit, "files") == 0)
        cli_warn("db import %s: %d0%%, %zu of %zu record files read",
                 wa_quote(q, sizeof q, d->from, 200), tenth, done, total);
    else
        cli_warn("db import %s: %d0%%, %zu of %zu MiB read", wa_quote(q, sizeof q, d->from, 200),
                 tenth, done >> 20, total >> 20);
}

static const char *cache_of(const struct cli_command *cmd, const struct cli_args *a)
{
    return cli_get(cmd, a, "cache") ? cli_get(cmd, a, "cache") : "cache";
}

/* Opens the database for writing, holding the crawl lock (import and
 * merge write many records; a crawl's journal rows stay its own). */
static int open_locked(const struct cli_command *cmd, const struct cli_args *a, struct db **db,
                       struct lockfile **lock)
{
    const char *cache = cache_of(cmd, a);
    struct wa_error err;
    if (lockfile_acquire(cache, !cli_get(cmd, a, "no-wait"), cli_print_waiting, NULL, lock, &err) <
        0) {
        cli_warn("%s", err.msg);
        return err.code == WA_ERR_USAGE ? WA_EXIT_USAGE : WA_EXIT_FAILURE;
    }
    if (db_open(cache, 0, db, &err) < 0) {
        lockfile_release(*lock);
        cli_warn("%s", err.msg);
        return WA_EXIT_FAILURE;
    }
    return 0;
}

/* Registers the indexes of the configuration (--config FILE, else
 * wheelarch.json here when there is one) and those given with --index as
 * ones the records may name: a record of any other index but
 * download.pytorch.org's is refused.  0, or an exit status. */
static int trust_config(const struct cli_command *cmd, const struct cli_args *a, struct db *db)
{
    const char *path = cli_get(cmd, a, "config");
    const char **idx = NULL;
    size_t nidx = cli_get_list(cmd, a, "index", &idx);
    struct config cfg;
    struct wa_error err;
    memset(&cfg, 0, sizeof cfg);
    if ((path || fsutil_exists("wheelarch.json")) &&
        config_load(path ? path : "wheelarch.json", &cfg, &err) < 0) {
        cli_warn("%s: %s", path ? path : "wheelarch.json", err.msg);
        return WA_EXIT_USAGE;
    }
    for (size_t i = 0; i < nidx; i++) {
        char shown[INDEXURL_MAX + 1], q[200];
        indexurl_redact(idx[i], shown, sizeof shown);
        if (config_index_url_check(idx[i], &err) < 0) {
            cli_warn("--index %s: %s", wa_quote(q, sizeof q, shown, 160), err.msg);
            config_free(&cfg);
            return WA_EXIT_USAGE;
        }
    }
    if (nidx) /* beside the configuration's: appended after them */
        config_add_indexes(&cfg, idx, nidx);
    int rc = crawl_trust_config(db, &cfg, &err);
    config_free(&cfg);
    if (rc < 0) {
        cli_warn("%s", err.msg);
        return WA_EXIT_FAILURE;
    }
    return 0;
}

static void print_stats(const char *path, const struct dbmerge_stats *st, size_t total)
{
    /* paths are the user's: escaped as every warning is */
    cli_warn("%s: %zu records added, %zu inferred ones replaced by scanned ones, %zu "
             "already there; %zu refused; %zu records in all",
             path, st->added, st->replaced, st->kept, st->refused, total);
}

/* A folder given to db import that holds nothing to import: a database
 * (meant for merge) or no record file; NULL when it is fine to read. */
static const char *import_refusal(const char *from)
{
    struct stat st;
    if (stat(from, &st) != 0 || !S_ISDIR(st.st_mode))
        return NULL; /* a file (JSON lines), or an error db_import names */
    char *dbf = fsutil_join(from, DB_FILE);
    int has_db = fsutil_exists(dbf);
    free(dbf);
    if (has_db)
        return "holds a wheelarch database, not record files: wheelarch merge DIR adds its "
               "records";
    char *sub = fsutil_join(from, "records");
    struct stat sb;
    const char *dir = stat(sub, &sb) == 0 && S_ISDIR(sb.st_mode) ? sub : from;
    DIR *d = opendir(dir);
    size_t n = 0;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        n += l > 5 && strcmp(de->d_name + l - 5, ".json") == 0;
    }
    if (d)
        closedir(d);
    free(sub);
    return d && n == 0 ? "holds no record file (*.json, or records/*.json) to import" : NULL;
}

static int db_import_cmd(const struct cli_command *cmd, const struct cli_args *a)
{
    if (a->nrest != 2)
        return cli_usage_error(cmd, "db import wants one folder: wheelarch db import DIR");
    const char *why = import_refusal(a->rest[1]);
    if (why) {
        char q[300];
        cli_warn("%s: %s; nothing imported", wa_quote(q, sizeof q, a->rest[1], 200), why);
        return WA_EXIT_USAGE;
    }
    struct db *db;
    struct lockfile *lock;
    int rc = open_locked(cmd, a, &db, &lock);
    if (rc)
        return rc;
    if ((rc = trust_config(cmd, a, db)) != 0) {
        db_close(db);
        lockfile_release(lock);
        return rc;
    }
    struct dbmerge_stats st;
    struct wa_error err;
    struct import_display d = {{0, 0}, a->rest[1], 0};
    rc = db_import(db, a->rest[1], &st, print_refused, print_progress, &d, &err);
    cli_quota_end(&d.q, "refused");
    if (rc < 0)
        cli_warn("%s", err.msg);
    else
        print_stats(db_path(db), &st, db_count_records(db));
    db_close(db);
    lockfile_release(lock);
    return rc < 0 ? WA_EXIT_FAILURE : st.refused ? WA_EXIT_PARTIAL : WA_EXIT_OK;
}

/* Whether path names the database folder, anything inside it (the
 * database, its -wal, -shm and -journal files) or its lock file DIR.lock:
 * an export renamed over one of them destroys what it reads, or what a
 * crawl is writing. */
static int inside_database(const char *cache, const char *path)
{
    char *dir = realpath(cache, NULL);
    if (!dir)
        return 0;
    char *copy = xstrdup(path), *base = xstrdup(path);
    char *parent = realpath(dirname(copy), NULL);
    const char *name = basename(base);
    int inside = 0;
    if (parent) {
        size_t n = strlen(dir);
        char *full = xasprintf("%s/%s", parent, name);
        char *lock = xasprintf("%s.lock", dir);
        inside = strcmp(full, dir) == 0 || strcmp(full, lock) == 0 ||
                 (strncmp(full, dir, n) == 0 && full[n] == '/');
        free(full);
        free(lock);
    }
    free(parent);
    free(copy);
    free(base);
    free(dir);
    return inside;
}

static int db_export_cmd(const struct cli_command *cmd, const struct cli_args *a)
{
    if (a->nrest != 1)
        return cli_usage_error(cmd, "unexpected argument '%s'", a->rest[1]);
    const char *cache = cache_of(cmd, a);
    const char *out = cli_get(cmd, a, "out");
    struct db *db;
    struct wa_error err;
    if (out && inside_database(cache, out)) {
        char q[300];
        cli_warn("-o %s: is the database folder %s, inside it or its lock file: an export there "
                 "would replace what it reads; write it elsewhere",
                 wa_quote(q, sizeof q, out, 200), cache);
        return WA_EXIT_USAGE;
    }
    if (db_open(cache, DB_READONLY, &db, &err) < 0) {
        cli_warn("%s", err.msg);
        return WA_EXIT_FAILURE;
    }
    int rc;
    size_t n = 0;
    if (!out) {
        rc = db_export(db, stdout, &n, &err);
    } else {
        /* Written beside the file under a new name and renamed: a reader
         * never sees half, and no existing file or link is written through.
         * A name that is not a regular file (a device, a FIFO) is not
         * replaced by one. */
        struct stat os;
        if (lstat(out, &os) == 0 && !S_ISREG(os.st_mode)) {
            db_close(db);
            cli_warn("-o %s: exists and is not a regular file; give a new or regular file (or no "
                     "-o, for standard output)",
                     out);
            return WA_EXIT_USAGE;
        }
        char *tmp = NULL;
        int fd = fsutil_create_temp(out, &tmp, &err);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (fd >= 0 && !f)
            close(fd);
        if (!f) {
            rc = fd < 0 ? fd : wa_error_set(&err, WA_ERR_IO, "%s: %s", tmp, strerror(errno));
            if (tmp)
                remove(tmp);
        } else {
            rc = db_export(db, f, &n, &err);
            if (fclose(f) != 0 && rc == 0)
                rc = wa_error_set(&err, WA_ERR_IO, "%s: %s", tmp, strerror(errno));
            if (rc == 0 && rename(tmp, out) != 0)
                rc = wa_error_set(&err, WA_ERR_IO, "%s: %s", out, strerror(errno));
            if (rc < 0)
                remove(tmp);
        }
        free(tmp);
    }
    db_close(db);
    if (rc < 0) {
        cli_warn("%s", err.msg);
        return WA_EXIT_FAILURE;
    }
    if (out)
        cli_warn("%s: %zu records", out, n);
    return WA_EXIT_OK;
}

static int db_check_cmd(const struct cli_command *cmd, const struct cli_args *a)
{
    if (a->nrest != 1)
        return cli_usage_error(cmd, "unexpected argument '%s'", a->rest[1]);
    struct db *db;
    struct wa_error err;
    /* Opened for writing: an older schema is upgraded on the way. */
    if (db_open(cache_of(cmd, a), 0, &db, &err) < 0 || db_check(db, &err) < 0) {
        cli_warn("%s", err.msg);
        return WA_EXIT_FAILURE;
    }
    printf("%s: ok, schema version %d, %zu records\n", db_path(db), DB_SCHEMA_VERSION,
           db_count_records(db));
    db_close(db);
    return WA_EXIT_OK;
}

int cli_db(int argc, char **argv)
{
    const struct cli_command *cmd = cli_find_command("db");
    struct cli_args a;
    if (cli_parse(cmd, argc, argv, &a) != 0) {
        cli_args_free(&a);
        return WA_EXIT_USAGE;
    }
    int rc;
    const char *sub = a.nrest > 0 ? a.rest[0] : NULL;
    if (a.help)
        cli_print_help(stdout, cmd), rc = WA_EXIT_OK;
    else if (!sub)
        rc = cli_usage_error(cmd, "say what to do: import, export or check");
    else if (strcmp(sub, "import") == 0)
        rc = db_import_cmd(cmd, &a);
    else if (strcmp(sub, "export") == 0)
        rc = db_export_cmd(cmd, &a);
    else if (strcmp(sub, "check") == 0)
        rc = db_check_cmd(cmd, &a);
    else
        rc = cli_usage_error(cmd, "'%s' is not import, export or check", sub);
    cli_args_free(&a);
    return rc;
}

int cli_merge(int argc, char **argv)
{
    const struct cli_command *cmd = cli_find_command("merge");
    struct cli_args a;
    if (cli_parse(cmd, argc, argv, &a) != 0) {
        cli_args_free(&a);
        return WA_EXIT_USAGE;
    }
    int rc;
    if (a.help) {
        cli_print_help(stdout, cmd);
        rc = WA_EXIT_OK;
    } else if (a.nrest == 0) {
        rc = cli_usage_error(cmd, "no database to merge given");
    } else {
        struct db *db;
        struct lockfile *lock;
        rc = open_locked(cmd, &a, &db, &lock);
        if (rc == 0 && (rc = trust_config(cmd, &a, db)) != 0) {
            db_close(db);
            lockfile_release(lock);
        } else if (rc == 0) {
            struct dbmerge_stats st;
            struct wa_error err;
            struct cli_quota q = {0, 0};
            int merged = db_merge(db, (const char *const *)a.rest, (size_t)a.nrest, &st,
                                  print_refused, &q, &err);
            cli_quota_end(&q, "refused");
            if (merged < 0) {
                cli_warn("%s", err.msg);
                rc = WA_EXIT_FAILURE;
            } else {
                print_stats(db_path(db), &st, db_count_records(db));
                rc = st.refused == 0                ? WA_EXIT_OK
                     : st.refused < (size_t)a.nrest ? WA_EXIT_PARTIAL
                                                    : WA_EXIT_FAILURE;
            }
            db_close(db);
            lockfile_release(lock);
        }
    }
    cli_args_free(&a);
    return rc;
}
