/*
 * Unit tests of recordcheck (the rules a database record follows before
 * any page uses it), of import's refusals and the view's list of skipped
 * wheels, and of the
 * timeline's escaping of the values it takes from records.
 *
 * usage: test_recordcheck SITE_DB DATA_DIR WORK_DIR
 *   SITE_DB   tests/fixtures/site-db: every record in it is valid
 *   DATA_DIR  data/ (the tables, for the view and the timeline)
 *   WORK_DIR  a scratch folder for imports and databases edited by hand
 */
#include <dirent.h>
#include <stdlib.h>

#include <sqlite3.h>

#include "db.h"
#include "dbmerge.h"
#include "dbview.h"
#include "fsutil.h"
#include "harness.h"
#include "recordcheck.h"
#include "sitedata.h"
#include "relgrid.h"
#include "sitedata_grid.h"
#include "tables.h"
#include "tmpl.h"
#include "xalloc.h"

/* A scanned torch 2.9.0 cu130 linux-x86_64 record of the fixture. */
#define SCANNED "dbb3ef635357a2eb037f857bf739f5307f725ec56d2808c2aee868a0b38cb2c7"
#define INFERRED "6d57af775f6306db16090bf182bfe9af59f439304179e34645acef0b3c8cf054"
#define OTHER_KEY "1111111111111111111111111111111111111111111111111111111111111111"

static const char *site_db;
static char *site_cache; /* the fixture imported into a database */

static json_t *load(const char *key)
{
    char *name = xasprintf("records/%s.json", key);
    char *path = fsutil_join(site_db, name);
    json_error_t je;
    json_t *rec = json_load_file(path, 0, &je);
    OK(rec != NULL, "%s: %s", path, je.text);
    free(path);
    free(name);
    return rec;
}

/* Every record of the fixture passes. */
static void fixture_records_pass(void)
{
    char *dir = fsutil_join(site_db, "records");
    DIR *d = opendir(dir);
    OK(d != NULL, "open %s", dir);
    size_t n = 0;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len < 6 || strcmp(de->d_name + len - 5, ".json") != 0)
            continue;
        char *key = xstrndup(de->d_name, len - 5);
        json_t *rec = load(key);
        struct wa_error err = {0};
        int rc = recordcheck_validate(key, rec, &err);
        OK(rc == 0, "fixture record %s is valid: %s", key, err.msg);
        json_decref(rec);
        free(key);
        n++;
    }
    if (d)
        closedir(d);
    OK(n >= 13, "the fixture has its records (%zu)", n);
    free(dir);
}

/* rec (taken) must fail with a message containing want. */
static void fails(const char *what, const char *key, json_t *rec, const char *want)
{
    struct wa_error err = {0};
    int rc = recordcheck_validate(key, rec, &err);
    OK(rc == WA_ERR_FORMAT, "%s: rejected (rc %d)", what, rc);
    OK(strstr(err.msg, want) != NULL, "%s: message \"%s\" names \"%s\"", what, err.msg, want);
    OK(strchr(err.msg, '\n') == NULL, "%s: one line", what);
    json_decref(rec);
}

static void passes(const char *what, const char *key, json_t *rec)
{
    struct wa_error err = {0};
    OK(recordcheck_validate(key, rec, &err) == 0, "%s: accepted (%s)", what, err.msg);
    json_decref(rec);
}

/* The scanned record with one field set: path is "a" or "a.b" (top-level
 * or inside an object), or "binaries[0].x" / "binaries[0].targets.sm_86.x". */
static json_t *with(const char *path, json_t *value)
{
    json_t *rec = load(SCANNED);
    json_t *o = rec;
    char *p = xstrdup(path), *save = NULL;
    char *tok = strtok_r(p, ".", &save);
    while (tok) {
        char *next = strtok_r(NULL, ".", &save);
        if (strcmp(tok, "binaries[0]") == 0) {
            o = json_array_get(json_object_get(o, "binaries"), 0);
        } else if (!next) {
            if (value)
                json_object_set_new(o, tok, value);
            else
                json_object_del(o, tok);
        } else {
            o = json_object_get(o, tok);
        }
        tok = next;
    }
    free(p);
    return rec;
}

/* n target names: "compute_<first>" ... (n of them), as a JSON array. */
static json_t *ptx_names(size_t first, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "compute_%zu", first + i);
        json_array_append_new(a, json_string(name));
    }
    return a;
}

/* The cap on distinct targets (RECORDCHECK_TARGETS_MAX): a wheel of
 * 65,000 PTX-only containers gave a record naming 65,000 targets that
 * passed, and `build` then took minutes on it. */
static void target_caps(void)
{
    const size_t max = RECORDCHECK_TARGETS_MAX;
    INT_EQ(max, 512, "the cap");
    passes("500 distinct targets in a list", SCANNED, with("binaries[0].ptx", ptx_names(1, 500)));
    fails("513 distinct targets in a list", SCANNED, with("binaries[0].ptx", ptx_names(1, max + 1)),
          "binaries[0].ptx: more than 512 distinct targets");
    fails("65,000 distinct targets in a list", SCANNED, with("ptx", ptx_names(1, 65000)),
          "ptx: more than 512 distinct targets");
    {
        json_t *a = json_array();
        for (size_t i = 0; i < 5000; i++)
            json_array_append_new(a, json_string("compute_90"));
        passes("one target 5,000 times (one distinct target)", SCANNED, with("ptx", a));
    }
    {
        json_t *o = json_object();
        for (size_t i = 0; i <= max; i++) {
            char name[32];
            snprintf(name, sizeof name, "sm_%zu", i + 1);
            json_object_set_new(o, name, json_object());
        }
        fails("513 targets in binaries[0].targets", SCANNED, with("binaries[0].targets", o),
              "binaries[0].targets: more than 512 distinct targets");
    }
    /* 300 + 300 distinct targets in two lists: each list passes, the
     * record does not. */
    {
        json_t *rec = load(SCANNED);
        json_t *b0 = json_array_get(json_object_get(rec, "binaries"), 0);
        json_t *b1 = json_deep_copy(b0);
        json_object_set_new(b0, "ptx", ptx_names(1, 300));
        json_object_set_new(b1, "ptx", ptx_names(301, 300));
        json_array_append_new(json_object_get(rec, "binaries"), b1);
        fails("600 distinct targets in two binaries", SCANNED, rec,
              "more than 512 distinct targets in the record");
    }
    /* One target per module set, 65,000 sets: what the hostile wheel's
     * record held besides its lists. */
    {
        json_t *sets = json_array();
        for (size_t i = 0; i < 65000; i++) {
            char name[32];
            snprintf(name, sizeof name, "compute_%zu", i + 1);
            json_array_append_new(sets, json_pack("{s:i,s:[s]}", "modules", 1, "targets", name));
        }
        fails("65,000 module sets of one distinct target each", SCANNED,
              with("binaries[0].module_sets", sets),
              "more than 512 distinct targets in the record");
    }
    /* The same 512 targets in every list of the record: 512 in each list
     * and 512 in all, which passes. */
    {
        json_t *rec = load(SCANNED);
        json_t *b0 = json_array_get(json_object_get(rec, "binaries"), 0);
        json_object_set_new(rec, "ptx", ptx_names(1, max));
        json_object_set_new(rec, "sass", json_array());
        json_object_set_new(b0, "ptx", ptx_names(1, max));
        json_object_set_new(b0, "sass", json_array());
        json_object_set_new(b0, "module_sets",
                            json_pack("[{s:i,s:o}]", "modules", 1, "targets", ptx_names(1, max)));
        json_object_set_new(b0, "targets", json_object());
        passes("the same 512 targets in every list", SCANNED, rec);
    }
}

static void field_rules(void)
{
    passes("the scanned record", SCANNED, load(SCANNED));
    passes("the inferred record", INFERRED, load(INFERRED));

    /* The report that started this: markup in a variant. */
    {
        struct wa_error err = {0};
        json_t *rec = with("variant", json_string("rocm6<b>INJ</b>"));
        OK(recordcheck_validate(SCANNED, rec, &err) == WA_ERR_FORMAT, "markup in variant");
        STR_EQ(err.msg, "variant \"rocm6<b>INJ</b>\" is not a variant id", "variant message");
        json_decref(rec);
    }
    fails("variant 7", SCANNED, with("variant", json_integer(7)),
          "variant is an integer, not a string");
    fails("no variant", SCANNED, with("variant", NULL), "variant is missing");
    static const char *const bad_variants[] = {
        "cu12y", "cu1",    "cu1280",     "rocm6", "rocm6.", "rocm6.4.1.2", "rocm6..4", "rocm6.4a",
        "",      "cu 128", "cu128/../x", "-x",    "a\"b",   "cu1x",        "cu123x",   NULL};
    for (const char *const *v = bad_variants; *v; v++)
        fails(*v, SCANNED, with("variant", json_string(*v)), "variant");
    static const char *const good_variants[] = {"cpu",       "xpu",    "cu92",    "cu128",
                                                "cu12x",     "cu13x",  "rocm6.4", "rocm7.14",
                                                "rocm6.2.4", "simple", "nightly", NULL};
    for (const char *const *v = good_variants; *v; v++) {
        OK(recordcheck_variant_valid(*v), "variant %s is valid", *v);
        passes(*v, SCANNED, with("variant", json_string(*v)));
    }

    /* The key: the file's, in the record too. */
    fails("key differs", SCANNED, with("key", json_string(OTHER_KEY)),
          "the record's \"key\" is not the key it is stored under (" SCANNED ")");
    fails("file name not a key", "evil", load(SCANNED), "\"evil\" is not a record key");
    fails("upper-case key", "DBB3EF635357A2EB037F857BF739F5307F725EC56D2808C2AEE868A0B38CB2C7",
          load(SCANNED), "is not a record key");
    fails("no key", SCANNED, with("key", NULL), "key is missing");
    fails("not an object", SCANNED, json_array(), "the record is an array, not an object");
    fails("status", SCANNED, with("status", json_string("done")), "status \"done\"");

    /* wheel.* */
    fails("no wheel", SCANNED, with("wheel", NULL), "wheel is missing");
    fails("wheel a string", SCANNED, with("wheel", json_string("x")), "wheel is a string");
    static const char *const bad_projects[] = {"Torch",  "torch_x", "-torch", "torch--x",
                                               "torch-", "tor ch",  "<b>",    NULL};
    for (const char *const *p = bad_projects; *p; p++)
        fails(*p, SCANNED, with("wheel.normalized_name", json_string(*p)), "wheel.normalized_name");
    fails("normalized name of another project", SCANNED,
          with("wheel.normalized_name", json_string("torchvision")),
          "is not the normalized form of wheel.project");
    fails("project", SCANNED, with("wheel.project", json_string("tor ch")), "wheel.project");
    fails("public version markup", SCANNED, with("wheel.public_version", json_string("2.9<b>")),
          "wheel.public_version \"2.9<b>\" is not a version");
    fails("public version not a number", SCANNED, with("wheel.public_version", json_string("v2")),
          "wheel.public_version");
    fails("public version with a label", SCANNED,
          with("wheel.public_version", json_string("2.9.0+cu130")), "wheel.public_version");
    fails("version of another release", SCANNED, with("wheel.version", json_string("2.9.1+cu130")),
          "wheel.version");
    fails("platform id", SCANNED, with("wheel.platform_id", json_string("linux x86")),
          "wheel.platform_id");
    fails("platform id path", SCANNED, with("wheel.platform_id", json_string("../x")),
          "wheel.platform_id");
    fails("platform tag", SCANNED, with("wheel.platform", json_string("manylinux<script>")),
          "wheel.platform");
    fails("python tag", SCANNED, with("wheel.python", json_integer(3)), "wheel.python");

    /* File names and URLs. */
    static const char *const bad_files[] = {"../torch-2.9.0-cp312-cp312-linux_x86_64.whl",
                                            "a\\torch-2.9.0-cp312-cp312-any.whl",
                                            "torch.whl",
                                            "torch-2.9.0-cp312-cp312-manylinux_x86_64<b>.whl",
                                            "torch-2.9.0-cp312-cp312-linux_x86_64.zip",
                                            NULL};
    for (const char *const *f = bad_files; *f; f++)
        fails(*f, SCANNED, with("filename", json_string(*f)), "is not a wheel file name");
    static const char *const bad_urls[] = {
        "javascript:alert(1)", "https://h/a b.whl", "https://h/a\x01.whl",    "//h/x.whl",
        "ftp://h/x.whl",       "https:///x.whl",    "https://h/\xc2\x9b.whl", NULL};
    for (const char *const *u = bad_urls; *u; u++)
        fails(*u, SCANNED, with("url", json_string(*u)), "url");
    fails("index_url", SCANNED, with("index_url", json_string("file:///etc/passwd")),
          "index_url \"file:///etc/passwd\" is not an index URL");
    passes("url with quotes and markup (percent-encoded on pages)", SCANNED,
           with("url", json_string("https://h/x.whl?\"><script>")));

    /* Hashes and keys. */
    fails("sha256", SCANNED, with("sha256", json_string("abc")), "sha256 \"abc\"");
    fails("index_sha256", SCANNED, with("index_sha256", json_string(OTHER_KEY "00")),
          "index_sha256");
    {
        json_t *rec = load(INFERRED);
        json_object_set_new(rec, "inferred_from", json_string("../../x"));
        fails("inferred_from ../../x", INFERRED, rec,
              "inferred_from \"../../x\" is not a record key");
    }

    /* Dates, numbers, booleans. */
    fails("scanned_at month 13", SCANNED, with("scanned_at", json_string("2026-13-01")),
          "scanned_at");
    fails("scanned_at words", SCANNED, with("scanned_at", json_string("yesterday")),
          "scanned_at \"yesterday\" is not a date (YYYY-MM-DD)");
    fails("scanned_at a number", SCANNED, with("scanned_at", json_integer(20261101)),
          "scanned_at is an integer, not a string");
    passes("upload_time", SCANNED, with("upload_time", json_string("2025-08-06T18:00:00.123Z")));
    fails("upload_time", SCANNED, with("upload_time", json_string("soon")), "upload_time");
    fails("size -1", SCANNED, with("size", json_integer(-1)), "size is -1, not between 0");
    fails("size real", SCANNED, with("size", json_real(1.5)), "size is a real number");
    fails("size string", SCANNED, with("size", json_string("3")), "size is a string");
    fails("sha256_verified", SCANNED, with("sha256_verified", json_string("yes")),
          "sha256_verified");
    fails("yanked a number", SCANNED, with("yanked", json_integer(5)), "yanked is an integer");
    fails("yanked with a newline", SCANNED, with("yanked", json_string("a\nb")), "yanked");
    passes("yanked with markup (escaped on pages)", SCANNED,
           with("yanked", json_string("<img src=x onerror=alert(4)>")));
    fails("requires_python escape", SCANNED, with("requires_python", json_string("\x1b[31m")),
          "requires_python \"\\x1b[31m\"");
    fails("index", SCANNED, with("index", json_string("a/b")), "index");
    fails("variant_source", SCANNED, with("variant_source", json_string("guess")),
          "variant_source");

    /* Targets. */
    fails("sass name", SCANNED, with("sass", json_pack("[s]", "sm_9x")),
          "sass \"sm_9x\" is not a target name");
    fails("sass kind", SCANNED, with("sass", json_pack("[s]", "compute_90")),
          "is not a SASS target");
    fails("sass not canonical", SCANNED, with("sass", json_pack("[s]", "sm_090")),
          "sass \"sm_090\"");
    fails("sass number", SCANNED, with("sass", json_pack("[i]", 90)), "sass[0] is an integer");
    fails("gfx feature", SCANNED, with("gfx", json_pack("[s]", "gfx90a:xnack")), "gfx");
    passes("gfx", SCANNED, with("gfx", json_pack("[ss]", "gfx90a:xnack-", "gfx11-generic")));

    /* Binaries. */
    fails("binaries a string", SCANNED, with("binaries", json_string("x")),
          "binaries is a string, not an array");
    fails("path number", SCANNED, with("binaries[0].path", json_integer(7)),
          "binaries[0].path is an integer");
    fails("path missing", SCANNED, with("binaries[0].path", NULL), "binaries[0].path is missing");
    fails("path empty", SCANNED, with("binaries[0].path", json_string("")),
          "binaries[0].path is empty");
    fails("path C1", SCANNED, with("binaries[0].path", json_string("a\xc2\x85.so")),
          "binaries[0].path");
    fails("path NUL", SCANNED, with("binaries[0].path", json_stringn("a\0b.so", 6)),
          "binaries[0].path");
    passes("path with quotes and markup (escaped on pages)", SCANNED,
           with("binaries[0].path", json_string("a\"><script>x</script>/lib x'.so")));
    fails("modules", SCANNED, with("binaries[0].modules", json_integer(-3)),
          "binaries[0].modules is -3");
    fails("modules huge", SCANNED, with("binaries[0].modules", json_integer((json_int_t)1 << 40)),
          "binaries[0].modules");
    fails("target stats name", SCANNED, with("binaries[0].targets", json_pack("{s:{}}", "sm_90<")),
          "binaries[0].targets \"sm_90<\" is not a target name");
    fails("target bytes", SCANNED, with("binaries[0].targets.sm_86.bytes", json_string("x")),
          "binaries[0].targets.sm_86.bytes is a string");
    fails("target isa", SCANNED, with("binaries[0].targets.compute_120.isa", json_string("9.0.1")),
          "binaries[0].targets.compute_120.isa");
    fails("codec", SCANNED, with("binaries[0].targets.sm_86.codecs", json_pack("[s]", "zs td")),
          "binaries[0].targets.sm_86.codecs");
    fails("module set target", SCANNED,
          with("binaries[0].module_sets",
               json_pack("[{s:i,s:[s]}]", "modules", 1, "targets", "gfx90a:xnack")),
          "binaries[0].module_sets[0].targets");
    fails("compression", SCANNED, with("binaries[0].compression", json_pack("{s:i}", "zstd", -1)),
          "binaries[0].compression.zstd is -1");
    fails("declared", SCANNED,
          with("binaries[0].declared", json_pack("{s:[s]}", "sass", "compute_50")),
          "binaries[0].declared.sass");
    fails("warnings", SCANNED, with("binaries[0].warnings", json_pack("[s]", "a\x07")),
          "binaries[0].warnings[0]");
    fails("arch flags", SCANNED, with("binaries[0].arch_flags", json_pack("[i]", 1)),
          "binaries[0].arch_flags[0] is an integer");
    fails("format", SCANNED, with("binaries[0].format", json_string("<elf>")),
          "binaries[0].format");

    /* URLs never hold a fragment: the crawler strips them, and the simple
     * indexes append "#sha256=" (a second '#' broke the link). */
    fails("url with a fragment", SCANNED, with("url", json_string("https://h/x.whl#frag")),
          "url \"https://h/x.whl#frag\" is not an http(s) URL");
    fails("url with an empty fragment", SCANNED, with("url", json_string("https://h/x.whl#")),
          "url");
    fails("url with a sha256 fragment", SCANNED,
          with("url", json_string("https://h/x.whl#sha256=" OTHER_KEY)), "url");
    fails("index_url with a fragment", SCANNED,
          with("index_url", json_string("https://h/cu126/#x")), "index_url");
    OK(!recordcheck_url_valid("https://h/#"), "recordcheck_url_valid refuses '#'");
    passes("url with %23 (an escaped '#', part of the path)", SCANNED,
           with("url", json_string("https://h/x%23y.whl")));

    target_caps();

    /* A target object holds the scanner's keys only. */
    {
        json_t *rec = load(SCANNED);
        json_t *t = json_object_get(json_array_get(json_object_get(rec, "binaries"), 0), "targets");
        const char *name = json_object_iter_key(json_object_iter(t));
        OK(name != NULL, "the fixture's first binary has targets");
        if (name) {
            json_object_set_new(json_object_get(t, name), "evil", json_true());
            fails("unknown key in a target object", SCANNED, rec, "has an unknown key \"evil\"");
        } else {
            json_decref(rec);
        }
    }

    /* A long hostile value is cut, and control characters are escaped. */
    {
        char big[300];
        memset(big, 'a', sizeof big - 1);
        big[sizeof big - 1] = '\0';
        big[3] = '\x1b';
        struct wa_error err = {0};
        json_t *rec = with("requires_python", json_string(big));
        recordcheck_validate(SCANNED, rec, &err);
        OK(strlen(err.msg) < 200 && strstr(err.msg, "\\x1b") && strstr(err.msg, "...") &&
               !strchr(err.msg, '\x1b'),
           "long value cut and escaped: %s", err.msg);
        json_decref(rec);
        /* Too long is said as such, never as "not one line of text". */
        rec = with("variant", json_string(big));
        recordcheck_validate(SCANNED, rec, &err);
        STR_EQ(err.msg, "variant is 299 bytes long; at most 64 are allowed", "too long, said so");
        json_decref(rec);
    }
}

/* Writes rec (or text when rec is NULL) as records/<name>.json of db. */
static void put_record(const char *db, const char *name, json_t *rec, const char *text)
{
    char *dir = fsutil_join(db, "records");
    fsutil_mkdirs(dir, NULL);
    char *file = xasprintf("%s.json", name);
    char *path = fsutil_join(dir, file);
    char *s = rec ? db_dump(rec) : xstrdup(text);
    OK(fsutil_write_atomic(path, s, strlen(s), 0, NULL) == 0, "write %s", path);
    free(s);
    free(path);
    free(file);
    free(dir);
    json_decref(rec);
}

static int find_skip(const struct dbview *v, const char *name, const char *reason)
{
    for (size_t i = 0; i < v->nskipped; i++) {
        const char *f = v->skipped[i].file;
        size_t fl = strlen(f), nl = strlen(name);
        if (fl >= nl && strcmp(f + fl - nl, name) == 0 && strstr(v->skipped[i].reason, reason))
            return 1;
    }
    return 0;
}

struct refusals {
    char what[8][512];
    char why[8][512];
    size_t n;
};

static void note_refused(void *ud, const char *what, const char *why)
{
    struct refusals *r = ud;
    if (r->n < 8) {
        snprintf(r->what[r->n], sizeof r->what[0], "%s", what);
        snprintf(r->why[r->n], sizeof r->why[0], "%s", why);
    }
    r->n++;
}

static int refused_with(const struct refusals *r, const char *name, const char *reason)
{
    for (size_t i = 0; i < r->n && i < 8; i++) {
        size_t fl = strlen(r->what[i]), nl = strlen(name);
        if (fl >= nl && strcmp(r->what[i] + fl - nl, name) == 0 && strstr(r->why[i], reason))
            return 1;
    }
    return 0;
}

static void rm_rf(const char *dir)
{
    char *cmd = xasprintf("rm -rf '%s'", dir);
    OK(system(cmd) == 0, "clean %s", dir);
    free(cmd);
}

/* Importing a folder of records stores the valid ones and refuses the
 * others, each with its file and the reason; none of them reaches the
 * view. */
static void import_refuses(const char *work, const struct tables *t)
{
    char *dir = fsutil_join(work, "records-in");
    char *cache = fsutil_join(work, "import-db");
    rm_rf(dir);
    rm_rf(cache);
    put_record(dir, SCANNED, load(SCANNED), NULL);
    json_t *rec = load(SCANNED);
    json_object_set_new(rec, "key", json_string(OTHER_KEY));
    json_object_set_new(rec, "variant", json_string("rocm6<b>INJ</b>"));
    put_record(dir, OTHER_KEY, rec, NULL);
    rec = load(SCANNED);
    json_object_set_new(rec, "key", json_string(OTHER_KEY));
    put_record(dir, "4444444444444444444444444444444444444444444444444444444444444444", rec, NULL);
    put_record(dir, "evil", load(SCANNED), NULL);
    put_record(dir, "2222222222222222222222222222222222222222222222222222222222222222", NULL,
               "{\"key\": \n");
    rec = load(INFERRED);
    json_object_set_new(
        rec, "key",
        json_string("3333333333333333333333333333333333333333333333333333333333333333"));
    json_object_set_new(rec, "inferred_from", json_string("../../x"));
    put_record(dir, "3333333333333333333333333333333333333333333333333333333333333333", rec, NULL);

    struct db *db;
    struct wa_error err = {0};
    OK(db_open(cache, 0, &db, &err) == 0, "open %s: %s", cache, err.msg);
    struct dbmerge_stats st;
    struct refusals r = {0};
    OK(db_import(db, dir, &st, note_refused, NULL, &r, &err) == 0, "import: %s", err.msg);
    INT_EQ(st.added, 1, "one record stored");
    INT_EQ(st.refused, 5, "five files refused");
    INT_EQ(r.n, 5, "five refusals reported");
    OK(refused_with(&r, "/records/" OTHER_KEY ".json",
                    "variant \"rocm6<b>INJ</b>\" is not a variant id"),
       "refused: markup in the variant");
    OK(refused_with(&r, "/4444444444444444444444444444444444444444444444444444444444444444.json",
                    "the record's \"key\" is not the key it is stored under"),
       "refused: the key that differs from its file name");
    OK(refused_with(&r, "/evil.json", "\"evil\" is not a record key"), "refused: evil.json");
    OK(refused_with(&r, "/2222222222222222222222222222222222222222222222222222222222222222.json",
                    "line 2"),
       "refused: unparsable JSON, with the parse error");
    OK(refused_with(&r, "/3333333333333333333333333333333333333333333333333333333333333333.json",
                    "inferred_from \"../../x\" is not a record key"),
       "refused: inferred_from ../../x");
    for (size_t i = 0; i < r.n && i < 8; i++)
        OK(strstr(r.why[i], dir) == NULL, "reason %s does not repeat the path", r.why[i]);
    INT_EQ(db_count_records(db), 1, "the database holds the valid record only");
    OK(db_check(db, &err) == 0, "integrity_check: %s", err.msg);
    db_close(db);

    struct dbview v;
    OK(dbview_build(cache, t, 0, &v, &err) == 0, "view: %s", err.msg);
    INT_EQ(v.records, 1, "one record in the view");
    INT_EQ(v.nskipped, 0, "nothing to skip");
    dbview_free(&v);
    free(dir);
    free(cache);
}

static void run_sql_on(const char *path, const char *sql)
{
    sqlite3 *h;
    OK(sqlite3_open(path, &h) == SQLITE_OK, "open %s", path);
    char *msg = NULL;
    OK(sqlite3_exec(h, sql, NULL, NULL, &msg) == SQLITE_OK, "%s", msg ? msg : "");
    sqlite3_free(msg);
    sqlite3_close(h);
}

/* A database edited by hand past the checks: the view leaves the wheels
 * whose ids would become paths or markup out, and says which and why. */
static void view_skips(const char *work, const struct tables *t)
{
    char *cache = fsutil_join(work, "import-db");
    char *path = fsutil_join(cache, DB_FILE);
    sqlite3 *h;
    OK(sqlite3_open(path, &h) == SQLITE_OK, "open %s", path);
    const char *sql =
        /* copies of a good row, edited (whatever the schema's columns) */
        "CREATE TEMP TABLE copy AS SELECT * FROM wheels WHERE key = '" SCANNED "';"
        "UPDATE copy SET key = '" OTHER_KEY "', variant = 'rocm6<b>INJ</b>';"
        "INSERT INTO wheels SELECT * FROM copy;"
        "INSERT INTO records SELECT '" OTHER_KEY "', record FROM records"
        "  WHERE key = '" SCANNED "';"
        "UPDATE copy SET key = 'evil', variant = (SELECT variant FROM wheels"
        "  WHERE key = '" SCANNED "');"
        "INSERT INTO wheels SELECT * FROM copy;"
        "INSERT INTO records SELECT 'evil', record FROM records WHERE key = '" SCANNED "';"
        "UPDATE copy SET key = '2222222222222222222222222222222222222222222222222222222222222222';"
        "INSERT INTO wheels SELECT * FROM copy;"
        "INSERT INTO records VALUES"
        "  ('2222222222222222222222222222222222222222222222222222222222222222', '{\"key\": ');"
        /* its binaries: an escape sequence in a path (a build never reads
         * the record's text above; it reads these rows, and checks them) */
        "CREATE TEMP TABLE bcopy AS SELECT * FROM binaries WHERE wheel = '" SCANNED "';"
        "UPDATE bcopy SET wheel = "
        "'2222222222222222222222222222222222222222222222222222222222222222',"
        "  path = path || char(27) || '[2J';"
        "INSERT INTO binaries SELECT * FROM bcopy;";
    char *msg = NULL;
    OK(sqlite3_exec(h, sql, NULL, NULL, &msg) == SQLITE_OK, "hand edits: %s", msg ? msg : "");
    sqlite3_free(msg);
    sqlite3_close(h);

    struct dbview v;
    struct wa_error err = {0};
    OK(dbview_build(cache, t, 0, &v, &err) == 0, "view of an edited database: %s", err.msg);
    INT_EQ(v.records, 1, "one valid record");
    INT_EQ(v.nskipped, 3, "three wheels skipped");
    OK(find_skip(&v, "wheel " OTHER_KEY, "the variant is not a variant id"),
       "skipped: markup in the variant");
    OK(find_skip(&v, "wheel evil", "the key is not a record key"), "skipped: key evil");
    OK(find_skip(&v, "wheel 2222222222222222222222222222222222222222222222222222222222222222",
                 "a binary's path is not one line of text"),
       "skipped: a control character in a binary's path");
    for (size_t i = 0; i < v.nskipped; i++)
        OK(strncmp(v.skipped[i].file, path, strlen(path)) == 0, "%s names the database",
           v.skipped[i].file);
    dbview_free(&v);
    /* query's view reads one row per group (builds), not whole records:
     * the ids of those rows are still checked.  "evil" and the unparsable
     * record share a group with a valid wheel; the bad variant has one of
     * its own. */
    OK(dbview_build(cache, t, DBVIEW_CODE_ONLY, &v, &err) == 0, "code-only view: %s", err.msg);
    INT_EQ(v.nskipped, 1, "code-only: the group with the bad variant skipped");
    dbview_free(&v);
    /* A code column edited into garbage decodes to what parses of it. */
    run_sql_on(path, "UPDATE wheels SET code = '7 sm_80 sm_9x ;;; 2|x junk= =8.8 compute_90=abc "
                     "compute_80=7.0 |;' WHERE variant = 'cu130'");
    OK(dbview_build(cache, t, DBVIEW_CODE_ONLY, &v, &err) == 0, "garbage code: %s", err.msg);
    int found = 0;
    for (size_t i = 0; i < v.nrows; i++)
        if (strcmp(v.rows[i].variant, "cu130") == 0 && v.rows[i].status == VIEW_VERIFIED &&
            strcmp(v.rows[i].platform, "linux-x86_64") == 0 && v.rows[i].nsass == 1 &&
            v.rows[i].code.nisas == 1)
            found = 1;
    OK(found, "the row keeps sm_80 and compute_80's ISA from the garbage");
    OK(find_skip(&v, "wheel " OTHER_KEY, "the variant is not a variant id"),
       "code-only: skipped for its variant");
    dbview_free(&v);
    free(path);
    free(cache);
}

/* The fixture's records as a database in work/site-db. */
static char *import_fixture(const char *work)
{
    char *cache = fsutil_join(work, "site-db");
    rm_rf(cache);
    struct db *db;
    struct wa_error err = {0};
    OK(db_open(cache, 0, &db, &err) == 0, "open %s: %s", cache, err.msg);
    struct dbmerge_stats st;
    OK(db_import(db, site_db, &st, NULL, NULL, NULL, &err) == 0, "import the fixture: %s", err.msg);
    INT_EQ(st.refused, 0, "every fixture record imports");
    db_close(db);
    return cache;
}

/* The release grid, as the GPU and device pages render it
 * (templates/relgrid.mustache over sitedata_grid's type), escapes what it
 * takes from the view, even if a value got past the checks. */
static void relgrid_escapes(const struct tables *t, const char *templates)
{
    struct dbview v;
    struct wa_error err = {0};
    OK(dbview_build(site_cache, t, 0, &v, &err) == 0, "view of the fixture: %s", err.msg);
    int changed = 0;
    for (size_t r = 0; r < v.nrows; r++) {
        struct dbview_row *row = &v.rows[r];
        if (strcmp(row->variant, "rocm6.4") == 0 && strcmp(row->release, "2.9") == 0) {
            free(row->variant);
            row->variant = xstrdup("rocm6.4<b>INJ</b>");
            free(row->release);
            row->release = xstrdup("2.9\"><script>x</script>");
            changed++;
        }
    }
    OK(changed > 0, "the fixture has a torch 2.9 rocm6.4 row");
    struct sitedata d;
    sitedata_begin(&v, t, NULL, &d);
    struct relgrid g;
    relgrid_make(&d.grid, 0x1100, "linux-x86_64", 0, NULL, &g);
    struct tmpl_set *set = tmpl_set_new(tmpl_dir_loader, (void *)templates);
    const struct tmpl *tp = NULL;
    struct strbuf b = STRBUF_INIT;
    OK(tmpl_set_get(set, "relgrid", &tp, &err) == 0, "load relgrid: %s", err.msg);
    struct tmpl_value ctx;
    sitedata_grid_value(&g, &ctx);
    OK(tp && tmpl_render_values(set, tp, &ctx, 1, &b, &err) == 0, "render the grid: %s", err.msg);
    const char *html = b.buf ? b.buf : "";
    OK(!strstr(html, "<b>") && !strstr(html, "<script>"), "no markup from the data in the grid");
    OK(strstr(html, ">rocm6.4&lt;b&gt;INJ&lt;/b&gt;</th>") != NULL,
       "the variant heading is escaped");
    OK(strstr(html, ">2.9&quot;&gt;&lt;script&gt;x&lt;/script&gt;</th>") != NULL,
       "the release heading is escaped");
    OK(strstr(html, "<caption id=\"grid-linux-x86_64\">torch on Linux x86_64, release by ROCm "
                    "variant") != NULL,
       "the caption names the platform and ROCm");
    /* one cell per release and variant, and one heading per release */
    size_t cells = 0, heads = 0;
    for (const char *q = html; (q = strstr(q, "<td")) != NULL; q++)
        cells++;
    for (const char *q = html; (q = strstr(q, "<th scope=\"row\">")) != NULL; q++)
        heads++;
    OK(g.nrel > 1 && g.nvar > 0, "the gfx1100 grid has releases and variants");
    INT_EQ((long long)cells, (long long)(g.nrel * g.nvar), "a cell per release and variant");
    INT_EQ((long long)heads, (long long)g.nrel, "a heading per release");
    strbuf_free(&b);
    tmpl_set_free(set);
    relgrid_free(&g);
    sitedata_free(&d);
    dbview_free(&v);
}

static void ids(void)
{
    static const char *const cases[][2] = {
        {"torch-2.9", "torch-2-9"},
        {"cu128-linux-x86_64", "cu128-linux-x86_64"},
        {"rocm6.4-linux-x86_64", "rocm6-4-linux-x86_64"},
        {"a\"><script>x</script>/libx.so", "a-script-x-script-libx-so"},
        {"my lib's \"x\".so", "my-lib-s-x-so"},
        {"", "x"},
        {"\xc3\xa9t\xc3\xa9", "-t-"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *id = sitedata_id(cases[i][0]);
        STR_EQ(id, cases[i][1], cases[i][0]);
        free(id);
    }
}

/* Path segments are injective: two values never share a page. */
static void segments(void)
{
    static const char *const cases[][2] = {
        {"torch", "torch"},
        {"2.9.0", "2.9.0"},
        {"nvidia-cudnn-cu12", "nvidia-cudnn-cu12"},
        {"1!2.0", "1_212.0"},
        {"1_2.0", "1_5f2.0"},
        {"1_212.0", "1_5f212.0"},
        {"2.9.0+cu130", "2.9.0_2bcu130"},
        {"a/b", "a_2fb"},
        {".", "_2e"},
        {"..", "_2e."},
        {".x", "_2ex"},
        {"", "_"},
        {"_", "_5f"},
        {"\xc2\x9b", "_c2_9b"},
    };
    size_t n = sizeof cases / sizeof cases[0];
    char *got[sizeof cases / sizeof cases[0]];
    for (size_t i = 0; i < n; i++) {
        got[i] = sitedata_segment(cases[i][0]);
        STR_EQ(got[i], cases[i][1], cases[i][0]);
        OK(strcspn(got[i], "/\\") == strlen(got[i]) && strcmp(got[i], ".") && strcmp(got[i], ".."),
           "%s: a safe segment", got[i]);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t k = i + 1; k < n; k++)
            OK(strcmp(got[i], got[k]) != 0, "\"%s\" and \"%s\" have different segments",
               cases[i][0], cases[k][0]);
    for (size_t i = 0; i < n; i++)
        free(got[i]);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_recordcheck SITE_DB DATA_DIR WORK_DIR\n");
        return 2;
    }
    site_db = argv[1];
    json_object_seed(1);
    fixture_records_pass();
    field_rules();
    ids();
    segments();
    struct tables t;
    struct wa_error err = {0};
    if (tables_load(argv[2], &t, &err) < 0) {
        OK(0, "tables: %s", err.msg);
        return harness_done();
    }
    fsutil_mkdirs(argv[3], NULL);
    fsutil_mkdirs(argv[3], NULL);
    import_refuses(argv[3], &t);
    view_skips(argv[3], &t);
    site_cache = import_fixture(argv[3]);
    char *templates = fsutil_join(argv[2], "../templates");
    relgrid_escapes(&t, templates);
    free(templates);
    free(site_cache);
    tables_free(&t);
    return harness_done();
}
