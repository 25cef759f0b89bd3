/*
 * db: the SQLite database of records, failures, the journal and the HTTP
 * cache: opening it (with the guards a database from elsewhere needs),
 * closing it, transactions.  The rest is in db_*.c (db_state.h).
 */
#include "db.h"
#include "db_state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fsutil.h"
#include "strbuf.h"
#include "xalloc.h"

/* ---- opening ------------------------------------------------------------ */

/* A URI for sqlite3_open_v2 that opens path with `query` ("immutable=1"):
 * every byte that a URI gives a meaning to is percent-encoded. */
static char *file_uri(const char *path, const char *query)
{
    struct strbuf b = STRBUF_INIT;
    strbuf_adds(&b, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("/-._~", *p))
            strbuf_addc(&b, (char)*p);
        else
            strbuf_addf(&b, "%%%02X", *p);
    }
    strbuf_addf(&b, "?%s", query);
    return strbuf_detach(&b, NULL);
}

/* A database from elsewhere (a merge input) may hold anything a hostile
 * writer can put in an SQLite file.  Nothing of its schema runs: no view,
 * no trigger, no function its schema names is trusted, no extension
 * loads; no value grows past FOREIGN_VALUE_MAX; and the work of all
 * statements together is bounded by the file's size (progress_budget), so
 * no query on it can hang or take memory out of proportion. */
#define FOREIGN_VALUE_MAX (64 << 20)

static int progress_budget(void *ud)
{
    struct db *db = ud;
    return db->work_left-- <= 0; /* non-zero interrupts the statement */
}

static void guard_foreign(struct db *db, long long file_bytes)
{
    sqlite3 *h = db->h;
    sqlite3_db_config(h, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    sqlite3_db_config(h, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
    sqlite3_db_config(h, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
    sqlite3_db_config(h, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
    sqlite3_db_config(h, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
    sqlite3_limit(h, SQLITE_LIMIT_LENGTH, FOREIGN_VALUE_MAX);
    /* Called every 1,000 virtual machine steps: 64 steps per byte of the
     * file (reading and checking every row of an honest database takes a
     * small fraction of that), and at least 10 million. */
    db->work_left = file_bytes / 16 > 10000 ? file_bytes / 16 : 10000;
    sqlite3_progress_handler(h, 1000, progress_budget, db);
}

/* The bytes of the database a file from elsewhere holds, by its header
 * (page count times page size, when the header's count is valid), never
 * more than the blocks it has on disk: what its work budget and its -wal's
 * bound are measured against.  A file larger than its header says by more
 * than a MiB (a sparse or padded file: it costs its maker nothing, and a
 * copy all of it) is WA_ERR_LIMIT. */
static int foreign_bytes(const char *path, const struct stat *sb, long long *bytes,
                         struct wa_error *err)
{
    long long size = (long long)sb->st_size, on_disk = (long long)sb->st_blocks * 512;
    *bytes = size < on_disk ? size : on_disk;
    unsigned char h[100];
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    ssize_t k = fd >= 0 ? pread(fd, h, sizeof h, 0) : -1;
    if (fd >= 0)
        close(fd);
    if (k != (ssize_t)sizeof h || memcmp(h, "SQLite format 3", 16) != 0)
        return 0; /* SQLite says what it is */
    uint32_t page = (uint32_t)h[16] << 8 | h[17];
    uint32_t pages = (uint32_t)h[28] << 24 | (uint32_t)h[29] << 16 | (uint32_t)h[30] << 8 | h[31];
    int valid = memcmp(h + 24, h + 92, 4) == 0 && pages > 0;
    long long held = (long long)(page == 1 ? 65536 : page) * pages;
    if (!valid)
        return 0;
    if (size > held + (1LL << 20))
        return wa_error_set(err, WA_ERR_LIMIT,
                            "%s: the file is %lld bytes, but the database in it %lld (a sparse "
                            "or padded file)",
                            path, size, held);
    *bytes = held < *bytes ? held : *bytes;
    return 0;
}

/* Whether path's -wal file holds frames (a writer's changes not yet in
 * the database file). */
static int wal_has_frames(const char *path, long long *bytes)
{
    char *wal = xasprintf("%s-wal", path);
    struct stat sb;
    int r = lstat(wal, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0;
    if (r && bytes)
        *bytes += sb.st_size;
    free(wal);
    return r;
}

/* A database from elsewhere with changes in its -wal: both files are
 * copied into a private folder, where SQLite may replay the -wal, so the
 * input itself is never written (a read-only connection could not read
 * the -wal without creating files beside it). */
/* Removes the private copies (TMPDIR/wheelarch-merge-PID-*) of merges that
 * were killed: a folder (never a link) of this user's, older than six
 * hours (a process id seen from another container may look gone), whose
 * process is gone; only the three files a copy holds, through the folder's
 * descriptor. */
static void clean_stale_copies(const char *tmp)
{
    DIR *d = opendir(tmp);
    if (!d)
        return;
    struct dirent *de;
    time_t now = time(NULL);
    while ((de = readdir(d)) != NULL) {
        if (strncmp(de->d_name, "wheelarch-merge-", 16) != 0)
            continue;
        char *end;
        long pid = strtol(de->d_name + 16, &end, 10);
        struct stat sb;
        if (pid <= 0 || *end != '-' || pid == (long)getpid() ||
            fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(sb.st_mode) ||
            sb.st_uid != getuid() || now - sb.st_mtime < 6 * 3600)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* alive (or not ours to tell) */
        int fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            continue;
        static const char *const names[] = {DB_FILE, DB_FILE "-wal", DB_FILE "-shm"};
        for (size_t i = 0; i < 3; i++)
            unlinkat(fd, names[i], 0);
        close(fd);
        unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR);
    }
    closedir(d);
}

/* Where private copies of databases from elsewhere go (db_set_temp_root);
 * "" for /tmp. */
static char temp_root[4096];

void db_set_temp_root(const char *dir)
{
    if (!dir || !*dir || strlen(dir) >= sizeof temp_root)
        temp_root[0] = '\0';
    else
        memcpy(temp_root, dir, strlen(dir) + 1);
}

/* The largest -wal a merge input may have: an honest one is a few times
 * its database at most; a sparse file of gigabytes costs its writer
 * nothing and the copy all of it. */
#define FOREIGN_WAL_MAX(db_bytes) ((db_bytes)*4 > (1LL << 30) ? (db_bytes)*4 : (1LL << 30))

static int private_copy(struct db *db, const char *path, long long db_bytes, char **copy,
                        struct wa_error *err)
{
    char *walpath = xasprintf("%s-wal", path);
    struct stat ws;
    int too_big = lstat(walpath, &ws) == 0 && (long long)ws.st_size > FOREIGN_WAL_MAX(db_bytes);
    free(walpath);
    if (too_big)
        return wa_error_set(err, WA_ERR_LIMIT,
                            "%s: its -wal file is %lld bytes, more than a database of %lld "
                            "bytes can need; checkpoint it where it was made "
                            "(wheelarch db check)",
                            path, (long long)ws.st_size, db_bytes);
    const char *tmp = temp_root[0] ? temp_root : "/tmp";
    clean_stale_copies(tmp);
    char *dir = xasprintf("%s/wheelarch-merge-%ld-XXXXXX", tmp, (long)getpid());
    if (!mkdtemp(dir)) {
        int rc = wa_error_set(err, WA_ERR_IO, "%s: cannot make a folder for a copy of it: %s", path,
                              strerror(errno));
        free(dir);
        return rc;
    }
    db->tmpdir = dir;
    *copy = fsutil_join(dir, DB_FILE);
    char *wal = xasprintf("%s-wal", path), *wal_copy = xasprintf("%s-wal", *copy);
    struct wa_error e;
    int rc = fsutil_copy_file(path, *copy, &e);
    if (rc == 0)
        rc = fsutil_copy_file(wal, wal_copy, &e);
    if (rc < 0)
        rc = wa_error_set(err, WA_ERR_IO, "%s: cannot copy it to read its -wal file: %s", path,
                          e.msg);
    free(wal);
    free(wal_copy);
    return rc;
}

static int open_at(const char *path, int flags, int max_version, struct db **out,
                   struct wa_error *err)
{
    *out = NULL;
    int foreign = (flags & DB_FOREIGN) != 0;
    if (foreign)
        flags |= DB_READONLY | DB_ANY_VERSION;
    int ro = (flags & DB_READONLY) != 0;
    struct stat sb;
    memset(&sb, 0, sizeof sb); /* a new database: no size */
    if (lstat(path, &sb) == 0) {
        /* A link would make writes act elsewhere; a FIFO would hang. */
        if (S_ISLNK(sb.st_mode))
            return wa_error_set(err, WA_ERR_IO, "%s: is a symbolic link, not a database", path);
        if (!S_ISREG(sb.st_mode))
            return wa_error_set(err, WA_ERR_IO, "%s: not a regular file", path);
        if (ro && sb.st_size == 0)
            return wa_error_set(err, WA_ERR_FORMAT, "%s: an empty file, not a wheelarch database",
                                path);
    } else if (ro) {
        return wa_error_set(err, WA_ERR_IO, "%s: no such database", path);
    }
    struct db *db = xcalloc(1, sizeof *db);
    db->path = xstrdup(path);
    db->readonly = ro;
    pthread_mutexattr_t ma;
    pthread_mutexattr_init(&ma);
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&db->mu, &ma);
    pthread_mutexattr_destroy(&ma);
    /* SQLite's own lock per call is off (SQLITE_OPEN_NOMUTEX): every use of
     * the connection holds db->mu, a build's reader makes millions of
     * calls, and the two locks were a few percent of a build. */
    int base = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW;
    char *dir = xstrndup(path, strrchr(path, '/') ? (size_t)(strrchr(path, '/') - path) : 0);
    /* A reader of a file it may write opens it for writing all the same
     * (and never writes): the last connection to close then removes the
     * -wal and -shm files, which a read-only one would leave behind.  A
     * file in a place it may not write (no write permission, a read-only
     * mount) is opened read-only, and as immutable when no -wal holds
     * changes, since SQLite could not make the -shm file it otherwise
     * needs.  A file from elsewhere is never opened for writing. */
    int writable = access(path, W_OK) == 0 && access(*dir ? dir : ".", W_OK) == 0;
    free(dir);
    long long bytes = (long long)sb.st_size;
    int rc = 0;
    if (foreign && (rc = foreign_bytes(path, &sb, &bytes, err)) < 0) {
        db_close(db);
        return rc;
    }
    long long held = bytes; /* the database's own bytes, before its -wal */
    int wal = ro && wal_has_frames(path, &bytes);
    char *open_path = xstrdup(path);
    int oflags = ro ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (foreign && wal) {
        free(open_path);
        open_path = NULL;
        if ((rc = private_copy(db, path, held, &open_path, err)) < 0)
            goto fail;
        oflags = SQLITE_OPEN_READWRITE;
    } else if ((foreign || (ro && !writable)) && !wal) {
        char *uri = file_uri(path, "immutable=1");
        free(open_path);
        open_path = uri;
        base |= SQLITE_OPEN_URI;
    } else if (ro && writable) {
        oflags = SQLITE_OPEN_READWRITE;
    }
    if (sqlite3_open_v2(open_path, &db->h, oflags | base, NULL) != SQLITE_OK) {
        rc = wa_error_set(err, WA_ERR_IO, "%s: cannot open the database: %s", path,
                          db->h ? sqlite3_errmsg(db->h) : "out of memory");
        goto fail;
    }
    if (foreign)
        guard_foreign(db, bytes);
    if (!ro && sqlite3_db_readonly(db->h, "main") == 1) {
        /* SQLite opens a file it may not write read-only without a word;
         * every write would then fail as "a readonly database" */
        rc = wa_error_set(err, WA_ERR_IO,
                          "%s: cannot be written (a read-only file, folder or mount), and this "
                          "command writes to it",
                          path);
        goto fail;
    }
    sqlite3_busy_timeout(db->h, DB_BUSY_MS);
    sqlite3_extended_result_codes(db->h, 0);
    int app = 0, version = 0;
    if (dbi_pragma_int(db, "PRAGMA application_id", &app) < 0 ||
        dbi_pragma_int(db, "PRAGMA user_version", &version) < 0) {
        if (ro && !writable && wal)
            rc = wa_error_set(err, WA_ERR_IO,
                              "%s: cannot be read where it lies: it is read-only and its -wal "
                              "file holds changes SQLite can only read with write access "
                              "(copy the folder somewhere writable)",
                              path);
        else
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s: not a wheelarch database (%s)", path,
                              sqlite3_errmsg(db->h));
        goto fail;
    }
    if ((app != 0 && app != DB_APPLICATION_ID) || (app == 0 && version != 0)) {
        rc = wa_error_set(err, WA_ERR_FORMAT, "%s: an SQLite file, but not a wheelarch database",
                          path);
        goto fail;
    }
    if (app == DB_APPLICATION_ID && version < 1) {
        /* Every wheelarch database has a version from 1 on; anything else
         * would index the migrations out of bounds. */
        rc = wa_error_set(err, WA_ERR_FORMAT,
                          "%s: schema version %d is not one wheelarch has ever written (1 to "
                          "%d): the database is damaged",
                          path, version, DB_SCHEMA_VERSION);
        goto fail;
    }
    if (version > DB_SCHEMA_VERSION) {
        rc = wa_error_set(err, WA_ERR_FORMAT,
                          "%s: schema version %d is newer than this wheelarch's (%d): upgrade "
                          "wheelarch",
                          path, version, DB_SCHEMA_VERSION);
        goto fail;
    }
    if (ro && version == 0) {
        /* wheelarch makes a database's schema in one transaction: a file
         * with none is a first crawl killed before it, or not ours */
        rc = wa_error_set(err, WA_ERR_FORMAT,
                          "%s: an empty SQLite file with no schema (a first crawl stopped before "
                          "it stored anything, or not a wheelarch database): run `wheelarch "
                          "crawl` to make it one",
                          path);
        goto fail;
    }
    if (foreign && (rc = dbi_check_schema(db, version, err)) < 0)
        goto fail;
    if (ro)
        sqlite3_exec(db->h, "PRAGMA query_only = 1", NULL, NULL, NULL);
    if (!ro) {
        /* WAL persists in the file; NORMAL syncs at checkpoints, which a
         * killed process cannot undo (only a power loss can, and then the
         * next crawl reads the lost wheels again). */
        if ((rc = dbi_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL", err)) < 0)
            goto fail;
        if (version < max_version && (rc = dbi_migrate(db, version, max_version, err)) < 0)
            goto fail;
    } else if (version < DB_SCHEMA_VERSION && !(flags & DB_ANY_VERSION)) {
        rc = wa_error_set(err, WA_ERR_FORMAT,
                          "%s: schema version %d is older than this wheelarch's (%d): run "
                          "`wheelarch db check` once to upgrade it",
                          path, version, DB_SCHEMA_VERSION);
        goto fail;
    }
    db->version = !ro && version < max_version ? max_version : version;
    free(open_path);
    *out = db;
    return 0;
fail:
    free(open_path);
    db_close(db);
    return rc;
}

int db_open_file(const char *path, int flags, struct db **out, struct wa_error *err)
{
    return open_at(path, flags, DB_SCHEMA_VERSION, out, err);
}

int db_open(const char *dir, int flags, struct db **out, struct wa_error *err)
{
    *out = NULL;
    if (!(flags & DB_READONLY)) {
        int rc = fsutil_mkdirs(dir, err);
        if (rc < 0)
            return rc;
    }
    /* A symbolic link as the folder (a careless or hostile merge) would
     * make writes act elsewhere. */
    if (fsutil_exists(dir)) {
        int rc = fsutil_check_real_dir(dir, err);
        if (rc < 0)
            return rc;
    }
    char *path = fsutil_join(dir, DB_FILE);
    int rc = db_open_file(path, flags, out, err);
    free(path);
    return rc;
}

int db_exists(const char *dir)
{
    char *path = fsutil_join(dir, DB_FILE);
    int r = fsutil_exists(path);
    free(path);
    return r;
}

int db_create_at_version(const char *path, int version, struct wa_error *err)
{
    if (version < 1 || version > DB_SCHEMA_VERSION)
        return wa_error_set(err, WA_ERR_USAGE, "no schema version %d", version);
    struct db *db;
    int rc = open_at(path, 0, version, &db, err);
    db_close(db);
    return rc;
}

void db_close(struct db *db)
{
    if (!db)
        return;
    for (size_t i = 0; i < db->nstmts; i++)
        sqlite3_finalize(db->stmts[i].st);
    if (db->h)
        sqlite3_close_v2(db->h);
    if (db->tmpdir) {
        char *files[] = {fsutil_join(db->tmpdir, DB_FILE),
                         xasprintf("%s/%s-wal", db->tmpdir, DB_FILE),
                         xasprintf("%s/%s-shm", db->tmpdir, DB_FILE)};
        for (size_t i = 0; i < 3; i++) {
            unlink(files[i]);
            free(files[i]);
        }
        rmdir(db->tmpdir);
        free(db->tmpdir);
    }
    pthread_mutex_destroy(&db->mu);
    free(db->path);
    free(db);
}

const char *db_path(const struct db *db)
{
    return db->path;
}

int db_check(struct db *db, struct wa_error *err)
{
    pthread_mutex_lock(&db->mu);
    sqlite3_stmt *st = dbi_prep(db, "PRAGMA integrity_check");
    int rc = st ? 0 : dbi_sql_error(db, err, "cannot check the database");
    if (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
        const char *r = (const char *)sqlite3_column_text(st, 0);
        if (!r || strcmp(r, "ok") != 0)
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s: damaged: %s", db->path, r ? r : "?");
    } else if (rc == 0) {
        rc = dbi_sql_error(db, err, "cannot check the database");
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_begin(struct db *db, struct wa_error *err)
{
    pthread_mutex_lock(&db->mu);
    int rc = dbi_exec(db, "BEGIN IMMEDIATE", err);
    if (rc == 0)
        db->in_tx = 1;
    else
        pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_commit(struct db *db, struct wa_error *err)
{
    int rc = dbi_tx_lost(db, err);
    if (rc == 0)
        rc = dbi_exec(db, "COMMIT", err);
    if (rc < 0)
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
    db->in_tx = 0;
    pthread_mutex_unlock(&db->mu);
    return rc;
}

void db_rollback(struct db *db)
{
    sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
    db->in_tx = 0;
    pthread_mutex_unlock(&db->mu);
}

int db_savepoint(struct db *db, struct wa_error *err)
{
    int rc = dbi_tx_lost(db, err);
    return rc < 0 ? rc : dbi_exec(db, "SAVEPOINT batch", err);
}

int db_release(struct db *db, struct wa_error *err)
{
    int rc = dbi_tx_lost(db, err);
    return rc < 0 ? rc : dbi_exec(db, "RELEASE batch", err);
}

void db_rollback_to(struct db *db)
{
    sqlite3_exec(db->h, "ROLLBACK TO batch; RELEASE batch", NULL, NULL, NULL);
}

int db_each_note(struct db *db,
                 int (*fn)(void *ud, const char *table, const char *key, const char *json,
                           struct wa_error *err),
                 void *ud, struct wa_error *err)
{
    static const char *const tables[] = {"journal", "failures"};
    static const char *const sql[] = {"SELECT key, note FROM journal ORDER BY key",
                                      "SELECT key, failure FROM failures ORDER BY key"};
    pthread_mutex_lock(&db->mu);
    int rc = 0;
    for (size_t t = 0; rc == 0 && t < 2; t++) {
        sqlite3_stmt *st = dbi_prep(db, sql[t]);
        rc = st ? 0 : dbi_sql_error(db, err, "cannot read");
        int s = SQLITE_DONE;
        while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
            const char *key = (const char *)sqlite3_column_text(st, 0);
            const char *text = (const char *)sqlite3_column_text(st, 1);
            rc = fn(ud, tables[t], key ? key : "", text ? text : "", err);
        }
        if (rc == 0 && s != SQLITE_DONE)
            rc = dbi_sql_error(db, err, "cannot read");
        sqlite3_finalize(st);
    }
    pthread_mutex_unlock(&db->mu);
    return rc;
}

int db_settle_notes(struct db *db, struct wa_error *err)
{
    return dbi_exec(db,
                    "DELETE FROM failures WHERE key IN (SELECT key FROM wheels);"
                    "DELETE FROM journal WHERE key IN (SELECT key FROM wheels);",
                    err);
}

char *db_dump(json_t *v)
{
    char *s = json_dumps(v, JSON_SORT_KEYS | JSON_INDENT(2) | JSON_ENCODE_ANY);
    char *out = xasprintf("%s\n", s ? s : "null");
    free(s);
    return out;
}
