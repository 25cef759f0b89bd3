/*
 * Unit tests of the site's helpers for values that come from indexes: safe
 * path segments, safe hrefs, and the outdir contract (atomic swap,
 * hard links for unchanged files, a no-op rebuild that creates nothing).
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"
#include "dbmerge.h"
#include "fsutil.h"
#include "harness.h"
#include "outdir.h"
#include "sitedata.h"
#include "sitejob.h"
#include "sitestamp.h"

static void segment(const char *in, const char *want)
{
    char *s = sitedata_segment(in);
    STR_EQ(s, want, in);
    free(s);
}

static void href(const char *in, const char *want)
{
    char *s = sitedata_href(in);
    if (want)
        STR_EQ(s, want, in);
    else
        OK(s == NULL, "%s: want NULL, got %s", in, s);
    free(s);
}

static void put(struct outdir *o, const char *path, const char *text)
{
    INT_EQ(outdir_put(o, path, text, strlen(text), NULL), 0, path);
}

static ino_t inode(const char *dir, const char *rel)
{
    char *p = fsutil_join(dir, rel);
    struct stat st;
    ino_t ino = stat(p, &st) == 0 ? st.st_ino : 0;
    free(p);
    return ino;
}

static void outdir_cases(const char *work)
{
    char *dir = fsutil_join(work, "out");
    char *tmp = fsutil_join(work, "out.tmp");
    outdir_remove_tree(dir);
    struct outdir *o;
    struct outdir_stats st;
    INT_EQ(outdir_begin(dir, &o, NULL), 0, "begin a first build");
    put(o, "index.html", "home");
    put(o, "gpu/a/index.html", "a");
    put(o, "gpu/b/index.html", "b");
    struct wa_error err = {0};
    OK(outdir_put(o, "gpu/a/index.html", "x", 1, &err) < 0, "a path written twice is an error");
    OK(outdir_put(o, "../escape", "x", 1, &err) < 0, "a path with .. is refused");
    OK(outdir_put(o, "/abs", "x", 1, &err) < 0, "an absolute path is refused");
    INT_EQ(outdir_commit(o, &st, NULL), 0, "commit");
    INT_EQ(st.written, 4, "first build: all written (three pages and the marker)");
    OK(st.swapped, "first build: moved into place");
    ino_t home = inode(dir, "index.html"), a = inode(dir, "gpu/a/index.html");

    /* Nothing changed: nothing created, nothing swapped. */
    INT_EQ(outdir_begin(dir, &o, NULL), 0, "begin a rebuild");
    put(o, "gpu/b/index.html", "b");
    put(o, "index.html", "home");
    char *gpudir = fsutil_join(tmp, "gpu");
    OK(!fsutil_exists(gpudir), "no folder created while nothing differs");
    put(o, "gpu/a/index.html", "a");
    INT_EQ(outdir_commit(o, &st, NULL), 0, "commit the rebuild");
    INT_EQ(st.written, 0, "rebuild: nothing written");
    INT_EQ(st.unchanged, 4, "rebuild: all unchanged");
    OK(!st.swapped, "rebuild: not swapped");
    OK(inode(dir, "index.html") == home, "rebuild: same inode");
    OK(!fsutil_exists(tmp), "rebuild: no temporary folder left");

    /* One change, one removal: swapped, the unchanged files hard-linked. */
    INT_EQ(outdir_begin(dir, &o, NULL), 0, "begin a changing build");
    put(o, "index.html", "home");
    put(o, "gpu/a/index.html", "a2");
    INT_EQ(outdir_commit(o, &st, NULL), 0, "commit the change");
    INT_EQ(st.written, 1, "change: one written");
    INT_EQ(st.unchanged, 2, "change: one unchanged, and the marker");
    INT_EQ(st.removed, 1, "change: one removed");
    OK(st.swapped, "change: swapped");
    OK(inode(dir, "index.html") == home, "change: the unchanged file keeps its inode");
    OK(inode(dir, "gpu/a/index.html") != a, "change: the changed file is new");
    OK(inode(dir, "gpu/b/index.html") == 0, "change: the removed file is gone");

    /* Only a removal also swaps. */
    INT_EQ(outdir_begin(dir, &o, NULL), 0, "begin a removing build");
    put(o, "index.html", "home");
    INT_EQ(outdir_commit(o, &st, NULL), 0, "commit the removal");
    OK(st.swapped && st.removed == 1 && st.written == 0, "removal only: swapped");
    OK(inode(dir, "gpu/a/index.html") == 0 && inode(dir, "index.html") == home,
       "removal only: result");

    /* Abort leaves the old tree. */
    INT_EQ(outdir_begin(dir, &o, NULL), 0, "begin an aborted build");
    put(o, "index.html", "other");
    outdir_abort(o);
    OK(inode(dir, "index.html") == home && !fsutil_exists(tmp), "abort: old tree whole, tmp gone");
    free(gpudir);
    outdir_remove_tree(dir);
    free(dir);
    free(tmp);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char *p = fsutil_join(dir, name);
    OK(fsutil_write_atomic(p, text, strlen(text), 0, NULL) == 0, "write %s", p);
    free(p);
}

/* A rebuild is skipped when the stamp's inputs are equal: each input that
 * changes the site must change them, and nothing else may. */
static void stamp_cases(const char *work, const char *site_db)
{
    char *root = fsutil_join(work, "stamp");
    char *tmpl = fsutil_join(root, "templates"), *data = fsutil_join(root, "data"),
         *cache = fsutil_join(root, "cache");
    fsutil_mkdirs(tmpl, NULL);
    fsutil_mkdirs(data, NULL);
    fsutil_mkdirs(cache, NULL);
    char *dbfile = fsutil_join(cache, DB_FILE);
    remove(dbfile); /* an earlier run's */
    free(dbfile);
    write_file(tmpl, "page.mustache", "{{title}}");
    write_file(data, "notes.csv", "a,b\n1,2\n");
    struct site_options o = {.cache_dir = cache,
                             .out_dir = root,
                             .templates_dir = tmpl,
                             .data_dir = data,
                             .nightlies = 30,
                             .today = "2026-11-28"};
    char *base = sitestamp_inputs(&o);
    OK(base && strlen(base) == 64, "inputs hashed: %s", base ? base : "(none)");
    char *again = sitestamp_inputs(&o);
    STR_EQ(again, base, "the same inputs, the same hash");
    free(again);
    /* each change, then back */
    const char *what[] = {"base URL",           "nightlies",       "PEP 691 JSON",
                          "a template's bytes", "a new data file", "the database"};
    for (int k = 0; k < 6; k++) {
        struct site_options m = o;
        if (k == 0)
            m.base_url = "https://example.org/w";
        else if (k == 1)
            m.nightlies = 10;
        else if (k == 2)
            m.simple_json = 1;
        else if (k == 3)
            write_file(tmpl, "page.mustache", "{{title}}!");
        else if (k == 4)
            write_file(data, "more.csv", "x\n");
        else {
            struct db *db = NULL;
            struct dbmerge_stats st;
            struct wa_error err = {0};
            OK(db_open(cache, 0, &db, &err) == 0 &&
                   db_import(db, site_db, &st, NULL, NULL, NULL, &err) == 0,
               "records stored: %s", err.msg);
            db_close(db);
        }
        char *h = sitestamp_inputs(&m);
        OK(h && strcmp(h, base) != 0, "%s changed: the inputs differ", what[k]);
        if (k == 3)
            write_file(tmpl, "page.mustache", "{{title}}");
        if (k == 4) {
            char *p = fsutil_join(data, "more.csv");
            remove(p);
            free(p);
        }
        if (k < 5) {
            char *back = sitestamp_inputs(&o);
            STR_EQ(back, base, "and back: the same hash again");
            free(back);
        }
        free(h);
    }
    /* the database unchanged since: the same hash; one more write: another */
    char *with_db = sitestamp_inputs(&o);
    char *same = sitestamp_inputs(&o);
    STR_EQ(same, with_db, "the database unchanged: the same hash");
    free(same);
    free(with_db);
    free(base);
    free(tmpl);
    free(data);
    free(cache);
    free(root);
}

int main(int argc, char **argv)
{
    segment("torch", "torch");
    segment("2.9.0+cu130", "2.9.0_2bcu130");
    segment("a/b", "a_2fb");
    segment("..", "_2e.");
    segment(".", "_2e");
    segment("", "_");
    segment("<script>", "_3cscript_3e");
    segment("x y\n", "x_20y_0a");

    href("https://download.pytorch.org/whl/cu128/torch-2.8.0%2Bcu128-cp312.whl",
         "https://download.pytorch.org/whl/cu128/torch-2.8.0%2Bcu128-cp312.whl");
    href("https://h/x.whl?\"><script>", "https://h/x.whl?%22%3E%3Cscript%3E");
    href("http://h/a b{c}|^`\\", "http://h/a%20b%7Bc%7D%7C%5E%60%5C");
    href("https://h/100%.whl", "https://h/100%25.whl");
    href("https://h/\xc3\xa9", "https://h/%C3%A9");
    href("javascript:alert(1)", NULL);
    href("/whl/x.whl", NULL);
    href("file:///etc/passwd", NULL);
    href(NULL, NULL);

    if (argc > 1) {
        fsutil_mkdirs(argv[1], NULL);
        outdir_cases(argv[1]);
        if (argc > 2)
            stamp_cases(argv[1], argv[2]);
    }
    return harness_done();
}
