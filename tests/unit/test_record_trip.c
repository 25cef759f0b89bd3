/*
 * Every fixture record round-trips through the database: the record made
 * from its JSON (record_of_json, what db_write_record stores) and the
 * record the view makes back from its row and binary rows (what the
 * wheel pages read) are equal, field by field and binary by binary.  The
 * two constructors of struct record live in two modules; this holds them
 * to one meaning.  Each also reads back by its key (db_get_record) and
 * from the JSON record_json writes of it.  And what the crawl's plan reads of a stored record from
 * its columns (db_known_get) says what the record says.
 *
 * usage: test_record_trip DATA_DIR SITE_DB WORK_DIR
 */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "db.h"
#include "dbview.h"
#include "fixturedb.h"
#include "harness.h"
#include "recbinary.h"
#include "record.h"
#include "recordcmp.h"
#include "strmap.h"
#include "tables.h"
#include "xalloc.h"

static struct tables T;
static struct record *want; /* from the JSON, one per fixture record */
static size_t nwant;
static struct strmap *by_key;
static size_t *seen; /* per record, how often the view gave it */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static int back(void *ud, unsigned worker, struct record *r, struct wa_error *err)
{
    (void)ud;
    (void)worker;
    (void)err;
    size_t at;
    pthread_mutex_lock(&mu);
    if (!strmap_get(by_key, r->key, &at)) {
        OK(0, "the view gave a record the fixture does not hold: %s", r->key);
    } else {
        char diff[1024];
        recordcmp_differences(&want[at], r, diff, sizeof diff);
        OK(diff[0] == '\0', "%s (%s) reads back from its rows as it was stored; differs in:%s",
           r->key, r->filename, diff);
        seen[at]++;
    }
    pthread_mutex_unlock(&mu);
    record_free(r); /* the callback takes the record's fields (dbview.h) */
    return 0;
}

int main(int argc, char **argv)
{
    struct wa_error err;
    if (argc < 4) {
        fprintf(stderr, "usage: test_record_trip DATA_DIR SITE_DB WORK_DIR\n");
        return 2;
    }
    if (tables_load(argv[1], &T, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    char *records = fsutil_join(argv[2], "records");
    DIR *d = opendir(records);
    if (!d) {
        fprintf(stderr, "%s: cannot list\n", records);
        return 2;
    }
    size_t cap = 0;
    by_key = strmap_new();
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len <= 5 || strcmp(de->d_name + len - 5, ".json") != 0)
            continue;
        char *key = xstrndup(de->d_name, len - 5);
        char *path = fsutil_join(records, de->d_name);
        json_error_t je;
        json_t *rec = json_load_file(path, 0, &je);
        want = xgrow(want, &cap, nwant + 1, sizeof *want);
        if (rec && record_of_json(key, rec, &want[nwant], &err) == 0) {
            strmap_put(by_key, key, nwant);
            nwant++;
        } else {
            OK(0, "%s: %s", path, rec ? err.msg : je.text);
        }
        json_decref(rec);
        free(path);
        free(key);
    }
    closedir(d);
    free(records);
    seen = xcalloc(nwant + 1, sizeof *seen);
    char *cache = fixturedb_make(argv[3], (const char *const[]){argv[2]}, 1);
    if (!cache)
        return 2;
    struct dbview v;
    if (dbview_build_with(cache, &T, 0, -1, &v, back, NULL, &err) < 0) {
        fprintf(stderr, "view: %s\n", err.msg);
        return 2;
    }
    /* the view gives the page makers every scanned record (a wheel page
     * each, an empty binaries list included), no inferred one */
    size_t scanned = 0, once = 0;
    for (size_t i = 0; i < nwant; i++) {
        if (want[i].scanned) {
            scanned++;
            once += seen[i] == 1;
        } else {
            OK(seen[i] == 0, "%s is inferred: the view gives it to no page maker", want[i].key);
        }
    }
    OK(nwant > 10, "the fixture's records were read (%zu)", nwant);
    /* the comparison can fail: two records of the fixture differ in it */
    char diff[1024];
    recordcmp_differences(&want[0], &want[1], diff, sizeof diff);
    OK(strstr(diff, " key") != NULL && strstr(diff, " filename") != NULL,
       "two different records are told apart:%s", diff);
    INT_EQ((long)once, (long)scanned, "each scanned record came back once");
    /* the crawl's view of each stored record: from the columns */
    struct db *db;
    OK(db_open(cache, DB_READONLY, &db, &err) == 0, "open %s: %s", cache, err.msg);
    size_t known = 0, compact = 0, by_row = 0, by_json = 0;
    for (size_t i = 0; db && i < nwant; i++) {
        const struct record *r = &want[i];
        /* record -> row -> record, one key at a time (what the crawl reads
         * a source by), inferred records too */
        struct record got;
        if (db_get_record(db, r->key, &got, &err) < 0) {
            OK(0, "%s: db_get_record: %s", r->key, err.msg);
        } else {
            recordcmp_differences(r, &got, diff, sizeof diff);
            OK(diff[0] == '\0', "%s reads back by its key as it was stored; differs in:%s", r->key,
               diff);
            by_row++;
            record_free(&got);
        }
        /* record -> JSON -> record: record_json writes what record_of_json
         * reads, and the JSON passes the checks */
        json_t *j = record_json(r);
        if (record_of_json(r->key, j, &got, &err) < 0) {
            OK(0, "%s: record_json's JSON is refused: %s", r->key, err.msg);
        } else {
            recordcmp_differences(r, &got, diff, sizeof diff);
            OK(diff[0] == '\0', "%s reads back from record_json as it was; differs in:%s", r->key,
               diff);
            by_json++;
            record_free(&got);
        }
        json_decref(j);
        struct db_known k;
        if (!db_known_get(db, r->key, &k)) {
            OK(0, "%s: db_known_get finds the stored record", r->key);
            continue;
        }
        known++;
        compact += !k.lists_binaries;
        const char *url = k.url ? k.url : "", *from = k.inferred_from ? k.inferred_from : "-";
        const char *rfrom = r->inferred_from ? r->inferred_from : "-";
        OK(k.scanned == r->scanned, "%s: scanned %d, want %d", r->key, k.scanned, r->scanned);
        OK(strcmp(url, r->url) == 0, "%s: url %s, want %s", r->key, url, r->url);
        OK(k.sha256_verified == r->sha256_verified, "%s: sha256_verified %d, want %d", r->key,
           k.sha256_verified, r->sha256_verified);
        OK(strcmp(from, rfrom) == 0, "%s: inferred_from %s, want %s", r->key, from, rfrom);
        OK(k.lists_binaries == r->binaries.listed, "%s: lists its binaries %d, want %d", r->key,
           k.lists_binaries, r->binaries.listed);
        db_known_free(&k);
    }
    struct db_known none;
    OK(db &&
           !db_known_get(db, "0000000000000000000000000000000000000000000000000000000000000000",
                         &none) &&
           !none.url,
       "a key without a record is not known");
    OK(db && !db_known_get(db, "../x", &none), "an invalid key is not known");
    struct record missing;
    OK(db && db_get_record(db, "0000000000000000000000000000000000000000000000000000000000000000",
                           &missing, &err) == WA_ERR_IO,
       "a key without a record is not read: %s", err.msg);
    INT_EQ((long)by_row, (long)nwant, "every record read back by its key");
    INT_EQ((long)by_json, (long)nwant, "every record read back from its JSON");
    OK(compact > 0 && compact < known, "the fixture has compact inferred records (%zu of %zu)",
       compact, known);
    db_close(db);
    printf("record trip: %zu records, %zu scanned ones read back by the view, %zu by key, %zu "
           "from their JSON, %zu fields compared; %zu read as the crawl knows them\n",
           nwant, scanned, by_row, by_json, recordcmp_fields_checked, known);
    dbview_free(&v);
    for (size_t i = 0; i < nwant; i++)
        record_free(&want[i]);
    free(want);
    free(seen);
    strmap_free(by_key);
    tables_free(&T);
    free(cache);
    return harness_done();
}
