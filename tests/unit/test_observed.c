/*
 * test_observed: the declared arch lists held to the published
 * get_arch_list() outputs (data/observed_arch_lists.csv), and the data's
 * freshness against the release schedule.
 *
 * Usage: test_observed DATA_DIR
 *
 * First the shipped data: every observation must have a declared row that
 * agrees with it, or whose evidence names the disagreement ("differs from
 * observed 2.13.0+cu130: ...") and says why the declared list stands.
 * Then the rules on a copy of the data with rows of made-up releases
 * (9.x) appended: confidence steps, the provenance words, patch rows,
 * the errors of a bad observation, and when a scheduled release counts
 * as overdue.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datatable.h"
#include "harness.h"
#include "csvfile.h"
#include "fsutil.h"
#include "jetson.h"
#include "observed.h"
#include "schedule.h"
#include "tables.h"

static void shipped(const char *dir)
{
    struct tables t;
    struct wa_error err;
    if (tables_load(dir, &t, &err) < 0) {
        OK(0, "tables: %s", err.msg);
        return;
    }
    OK(t.nobserved >= 30, "at least 30 observations are shipped (%zu)", t.nobserved);
    size_t bad[512];
    size_t n = observed_check(&t, bad, sizeof bad / sizeof bad[0]);
    for (size_t i = 0; i < n && i < sizeof bad / sizeof bad[0]; i++) {
        char line[2048];
        observed_describe(&t.observed[bad[i]], line, sizeof line);
        OK(0, "observed and declared disagree and the declared row does not say why: %s", line);
    }
    /* every agreeing declared row says so in its provenance */
    size_t seen = 0, rocm = 0, platforms[3] = {0};
    for (size_t i = 0; i < t.nobserved; i++) {
        const struct observed *o = &t.observed[i];
        rocm += strncmp(o->variant, "rocm", 4) == 0;
        platforms[0] += strcmp(o->platform, "linux-x86_64") == 0;
        platforms[1] += strcmp(o->platform, "linux-aarch64") == 0;
        platforms[2] += strcmp(o->platform, "windows-x86_64") == 0;
        if (!o->agrees)
            continue;
        seen++;
        OK(o->declared->seen && strstr(o->declared->provenance, "seen in a published"),
           "%s %s+%s: agreement is named in the provenance (%s)", o->project, o->version,
           o->variant, o->declared->provenance);
    }
    OK(seen > 0, "some observations agree");
    OK(rocm > 0, "ROCm wheels are observed");
    OK(platforms[0] && platforms[1] && platforms[2], "all three platforms are observed");
    tables_free(&t);
}

static int append(const char *dir, const char *file, const char *text)
{
    char *p = fsutil_join(dir, file);
    FILE *f = fopen(p, "a");
    free(p);
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

static int put(const char *dir, const char *file, const char *text)
{
    char *p = fsutil_join(dir, file);
    int rc = fsutil_write_atomic(p, text, strlen(text), 0, NULL);
    free(p);
    return rc;
}

/* A copy of the data's CSV files in a new temporary folder. */
static char *copy_data(const char *from)
{
    char tmpl[] = "/tmp/test_observed.XXXXXX";
    if (!mkdtemp(tmpl))
        return NULL;
    DIR *d = opendir(from);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".csv"))
            continue;
        char *a = fsutil_join(from, e->d_name), *b = fsutil_join(tmpl, e->d_name);
        fsutil_copy_file(a, b, NULL);
        free(a);
        free(b);
    }
    if (d)
        closedir(d);
    return strdup(tmpl);
}

static void rm_data(char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *p = fsutil_join(dir, e->d_name);
        unlink(p);
        free(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
    free(dir);
}

static const struct declared *find(const struct tables *t, const char *version)
{
    for (size_t i = 0; i < t->ndeclared; i++)
        if (strcmp(t->declared[i].version, version) == 0 &&
            strcmp(t->declared[i].project, "torch") == 0)
            return &t->declared[i];
    return NULL;
}

static const char OBS_HEADER[] = "project,version,variant,platform,printed,url,notes,inferred\n";

/* A data file's bad row: the row, and the one-line error tables_load must
 * give for it. */
struct bad_row {
    const char *row, *want;
};

/* Each of rows, written alone under header as file in dir, fails
 * tables_load with exactly its error. */
static void bad_rows(const char *dir, const char *file, const char *header,
                     const struct bad_row *rows, size_t n)
{
    struct tables t;
    struct wa_error err;
    for (size_t i = 0; i < n; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s", header, rows[i].row);
        put(dir, file, text);
        int rc = tables_load(dir, &t, &err);
        OK(rc < 0 && strcmp(err.msg, rows[i].want) == 0, "%s: bad row %zu: got \"%s\"", file, i,
           rc < 0 ? err.msg : "(loaded)");
        if (rc == 0)
            tables_free(&t);
    }
}

static void rules(const char *data)
{
    char *dir = copy_data(data);
    OK(dir != NULL, "a copy of the data");
    if (!dir)
        return;
    OK(append(
           dir, "pytorch_arch_lists.csv",
           "torch,9.8,cu130,linux-x86_64,7.5;8.0;12.0+PTX,medium,test,,2026-11-28\n"
           "torch,9.8.1,cu130,linux-x86_64,7.5;8.0;12.0,low,test,,2026-11-28\n"
           "torch,9.9,cu130,linux-x86_64,7.5;8.0;12.0+PTX,low,test,"
           "\"differs from observed 9.9.0+cu130: the page printed a source build's list\","
           "2026-11-28\n"
           "torch,9.9,rocm7.2,linux-x86_64,gfx90a;gfx942;gfx1100,high,test,,2026-11-28\n"
           "torch,9.6,cu130,linux-x86_64,7.5;8.0,low,test,seen on https://a.example/9,2026-11-28\n"
           "torch,9.5,cu130,linux-x86_64,7.5;8.0,low,test,\"differs from observed 9.5.1+cu130:\","
           "2026-11-28\n"
           "torch,9.4,cu130,linux-x86_64,7.5;8.0,low,test,,2026-11-28\n") == 0,
       "rows appended");
    OK(put(dir, "observed_arch_lists.csv",
           "project,version,variant,platform,printed,url,notes,inferred\n"
           "torch,9.8.0,cu130,linux-x86_64,sm_75 sm_80 sm_120 compute_120,https://a.example/1,,\n"
           "torch,9.8.0,cu130,linux-x86_64,\"['sm_120', 'sm_75', 'sm_80', 'compute_120']\","
           "https://a.example/2#comment-1,python's own print,\n"
           "torch,9.8.0,cu130,linux-x86_64,sm_75 sm_80 sm_120 "
           "compute_120,https://a.example/2#comment-2,"
           "another comment of the same page,\n"
           "torch,9.8.0,cu130,linux-x86_64,sm_75 sm_80 sm_120 compute_120 "
           "sm_75,https://a.example/3,"
           "version not printed,version\n"
           "torch,9.8.2,cu130,linux-x86_64,sm_75 sm_80 sm_120,https://a.example/3,,\n"
           "torch,9.9.0,cu130,linux-x86_64,sm_75 sm_80 sm_120,https://a.example/4,,\n"
           "torch,9.9.1,cu130,linux-x86_64,sm_75 sm_86,https://a.example/5,,\n"
           "torch,9.9.0,rocm7.2,linux-x86_64,gfx90a gfx942 gfx1100,https://a.example/6,,\n"
           "torch,9.7.0,cu130,linux-x86_64,sm_75,https://a.example/7,,\n"
           "torch,9.6.0,cu130,linux-x86_64,sm_75 sm_80,https://a.example/9/,the page the row "
           "cites,\n"
           "torch,9.5.0,cu130,linux-x86_64,sm_75 sm_80,https://a.example/10,,\n"
           "torch,9.5.1,cu130,linux-x86_64,sm_75,https://a.example/11,no reason given,\n"
           "torch,9.4.0,cu130,linux-x86_64,sm_75 sm_80,https://a.example/12,,\n"
           "torch,9.4.1,cu130,linux-x86_64,sm_75 sm_80 compute_80,https://a.example/13,,\n") == 0,
       "observations written");
    struct tables t;
    struct wa_error err;
    if (tables_load(dir, &t, &err) < 0) {
        OK(0, "tables: %s", err.msg);
        rm_data(dir);
        return;
    }
    const struct declared *d98 = find(&t, "9.8"), *d981 = find(&t, "9.8.1"), *d99 = find(&t, "9.9");
    OK(d98 && d981 && d99, "the made-up rows load");
    if (d98 && d981 && d99) {
        INT_EQ(d98->nseen, 2,
               "9.8: two pages agree (one of them in two comments; a third "
               "with an inferred version adds nothing)");
        STR_EQ(d98->confidence, "high", "9.8: medium raised two steps");
        STR_EQ(d98->confidence_written, "medium", "9.8: the file's confidence kept");
        STR_EQ(d98->provenance,
               "declared (PyTorch's build configuration, high confidence; seen in a published "
               "get_arch_list() of 9.8.0+cu130)",
               "9.8: provenance names the observation");
        INT_EQ(d981->nseen, 1, "9.8.2 is covered by the 9.8.1 patch row");
        STR_EQ(d981->confidence, "medium-low", "9.8.1: low raised one step");
        STR_EQ(d99->confidence, "low", "9.9: a disagreement raises nothing");
        STR_EQ(d99->provenance, "declared (PyTorch's build configuration, low confidence)",
               "9.9: no observation named");
    }
    const struct declared *d96 = find(&t, "9.6"), *d95 = find(&t, "9.5"), *d94 = find(&t, "9.4");
    OK(d96 && d96->nseen == 0 && strcmp(d96->confidence, "low") == 0 && d96->seen,
       "a page the row already cites raises nothing, and is still named");
    OK(d95 && strcmp(d95->confidence, "low") == 0, "9.5: agreeing 9.5.0 does not raise a row that "
                                                   "9.5.1 contradicts");
    OK(d94 && strcmp(d94->confidence, "low") == 0 && !d94->seen,
       "9.4: a contradicted row is raised by none and names no observation");
    const struct declared *rocm = NULL;
    for (size_t i = 0; i < t.ndeclared; i++)
        if (strcmp(t.declared[i].version, "9.9") == 0 &&
            strcmp(t.declared[i].variant, "rocm7.2") == 0)
            rocm = &t.declared[i];
    OK(rocm && rocm->nseen == 1 && strcmp(rocm->confidence, "high") == 0,
       "a ROCm list agrees by its gfx targets, high stays high");
    size_t bad[16];
    size_t n = observed_check(&t, bad, 16), flagged = 0;
    for (size_t i = 0; i < n; i++) {
        const struct observed *o = &t.observed[bad[i]];
        if (strcmp(o->version, "9.9.1") == 0) {
            flagged |= 1;
            char line[1024];
            observed_describe(o, line, sizeof line);
            OK(strstr(line, "declared, not printed: sm_80 sm_120 compute_120") &&
                   strstr(line, "printed, not declared: sm_86"),
               "the difference is spelled out: %s", line);
        } else if (strcmp(o->version, "9.7.0") == 0) {
            flagged |= 2;
            OK(o->declared == NULL, "9.7.0 has no declared row");
        } else if (strcmp(o->version, "9.5.1") == 0) {
            flagged |= 4;
            OK(!o->explained, "9.5.1: naming the wheel without a reason explains nothing");
        } else if (strcmp(o->version, "9.4.1") == 0) {
            flagged |= 8;
        } else if (strncmp(o->version, "9.", 2) == 0) {
            OK(0, "%s+%s is not a disagreement left unexplained", o->version, o->variant);
        }
    }
    INT_EQ(flagged, 15, "the unexplained disagreements and the wheel without a row are listed");
    for (size_t i = 0; i < t.nobserved; i++)
        if (strcmp(t.observed[i].version, "9.9.0") == 0 &&
            strcmp(t.observed[i].variant, "cu130") == 0)
            OK(t.observed[i].explained, "9.9.0: the evidence names the disagreement");

    /* the schedule */
    tables_free(&t);
    OK(put(dir, "pytorch_release_schedule.csv",
           "project,release,planned_date,branch_cut,status,notes,source,checked_on\n"
           "torch,9.10,2026-01-01,,scheduled,,test,2026-11-28\n"
           "torch,9.11,2026-03-01,,cancelled,,test,2026-11-28\n"
           "torch,9.12,2026-06-01,,scheduled,,test,2026-11-28\n"
           "torch,9.13,2026-08-01,,released,,test,2026-11-28\n") == 0,
       "schedule written");
    if (tables_load(dir, &t, &err) < 0) {
        OK(0, "tables: %s", err.msg);
        rm_data(dir);
        return;
    }
    struct freshness f;
    schedule_freshness(&t, "2025-12-31", NULL, &f);
    OK(!f.overdue && !f.sentence[0], "nothing is due yet");
    schedule_freshness(&t, NULL, NULL, &f);
    OK(!f.overdue, "no day: nothing is judged");
    schedule_freshness(&t, "2026-01-02", NULL, &f);
    OK(f.overdue && strcmp(f.overdue->release, "9.10") == 0, "9.10 is due and absent");
    OK(strstr(f.sentence,
              "torch 9.10 was announced for 2026-01-01 and this data does not include it yet") !=
           NULL,
       "the banner names it: %s", f.sentence);
    schedule_freshness(&t, "2026-01-02", "9.10.0.dev20251201", &f);
    OK(f.overdue && strcmp(f.overdue->release, "9.10") == 0, "a nightly of the release is not it");
    schedule_freshness(&t, "2026-01-02", "9.10.0rc3", &f);
    OK(f.overdue != NULL, "a release candidate is not the release");
    schedule_freshness(&t, "2026-01-02", "9.11.0.dev20251230", &f);
    OK(f.overdue && strcmp(f.through, "9.11.0.dev20251230") != 0,
       "a nightly of the next release is not the data's newest (%s)", f.through);
    schedule_freshness(&t, "2026-04-01", NULL, &f);
    OK(f.overdue && strcmp(f.overdue->release, "9.10") == 0, "a cancelled release is not due");
    schedule_freshness(&t, "2026-07-01", NULL, &f);
    OK(f.overdue && strcmp(f.overdue->release, "9.12") == 0, "the newest due release is named");
    schedule_freshness(&t, "2026-07-01", "9.12.0", &f);
    OK(!f.overdue, "a release read from wheels is present");
    STR_EQ(f.through, "9.12.0", "data through the newest version read");
    schedule_freshness(&t, "2026-02-01", "9.10.1", &f);
    OK(!f.overdue, "a patch of the release counts as the release");
    schedule_freshness(&t, "2026-09-01", NULL, &f);
    OK(f.overdue &&
           strstr(f.sentence, "torch 9.13 was released on 2026-08-01 and this data does not "
                              "include it yet") &&
           strstr(f.sentence, "newer builds than the "
                              "ones named here exist."),
       "a release known to be out is said to be out: %s", f.sentence);
    INT_EQ(schedule_due(dir, "2026-07-01"), 3, "three rows due by July");
    OK(!datatable_is_date("2026-02-30") && !datatable_is_date("2025-02-29") &&
           datatable_is_date("2028-02-29") && !datatable_is_date("2026-04-31") &&
           datatable_is_date("2026-12-31"),
       "dates are checked against the calendar");
    INT_EQ(schedule_due(dir, "2026-01-01"), 0, "none due on the first day");
    tables_free(&t);

    /* bad rows: one line naming the file, the line and what is wrong */
    static const struct bad_row bads[] = {
        {"torch,9.8,cu130,linux-x86_64,sm_75,https://a.example/1,,\n",
         "observed_arch_lists.csv line 2: version \"9.8\" is not X.Y.Z"},
        {"torch,9.8.0rc1,cu130,linux-x86_64,sm_75,https://a.example/1,,\n",
         "observed_arch_lists.csv line 2: version \"9.8.0rc1\" is not X.Y.Z"},
        {"torch,9.8.0+cu130,cu130,linux-x86_64,sm_75,https://a.example/1,,\n",
         "observed_arch_lists.csv line 2: version \"9.8.0+cu130\" is not X.Y.Z"},
        {"torch,09.8.0,cu130,linux-x86_64,sm_75,https://a.example/1,,\n",
         "observed_arch_lists.csv line 2: version \"09.8.0\" is not X.Y.Z"},
        {"Torch,9.8.0,cu130,linux-x86_64,sm_75,https://a.example/1,,\n",
         "observed_arch_lists.csv line 2: project \"Torch\" is not torch, torchvision or "
         "torchaudio"},
        {"torch,9.8.0,cu130,linux-x86_64,sm_75,https://a.example/1,,guessed\n",
         "observed_arch_lists.csv line 2: inferred \"guessed\" is not version, platform or "
         "version;platform"},
        {"torch,9.8.0,cu130,linux-x86_64,compute_50 compute_52 compute_53 compute_60 compute_61 "
         "compute_62 compute_70 compute_72 compute_75,https://a.example/1,,\n",
         "observed_arch_lists.csv line 2: printed has more PTX targets than fit (8)"},
        {"torch,9.8.0,cu130,linux-riscv,sm_75,https://a.example/1,,\n",
         "observed_arch_lists.csv line 2: unknown platform \"linux-riscv\""},
        {"torch,9.8.0,cu130,linux-x86_64,sm_75 sm_9x,https://a.example/1,,\n",
         "observed_arch_lists.csv line 2: \"sm_9x\" in printed is not a GPU target"},
        {"torch,9.8.0,cu130,linux-x86_64,,https://a.example/1,,\n",
         "observed_arch_lists.csv line 2: printed lists no target"},
        {"torch,9.8.0,cu130,linux-x86_64,sm_75,ftp://a.example/1,,\n",
         "observed_arch_lists.csv line 2: url \"ftp://a.example/1\" is not http(s)"},
    };
    bad_rows(dir, "observed_arch_lists.csv", OBS_HEADER, bads, sizeof bads / sizeof bads[0]);
    put(dir, "observed_arch_lists.csv", OBS_HEADER);
    put(dir, "pytorch_release_schedule.csv",
        "project,release,planned_date,branch_cut,status,notes,source,checked_on\n"
        "torch,9.10,2026-13-01,,scheduled,,test,2026-11-28\n");
    OK(tables_load(dir, &t, &err) < 0 &&
           strcmp(err.msg, "pytorch_release_schedule.csv line 2: planned_date \"2026-13-01\" is "
                           "not a date") == 0,
       "a bad schedule date: %s", err.msg);
    put(dir, "pytorch_release_schedule.csv",
        "project,release,planned_date,branch_cut,status,notes,source,checked_on\n");

    /* NVIDIA's Jetson builds: the shipped rows (every Jetson the GPU
     * table has, Thor aside, which runs the SBSA wheels, has one; an
     * index or a page for each, https), and bad ones named */
    OK(tables_load(dir, &t, &err) == 0, "the shipped Jetson table loads: %s", err.msg);
    OK(t.njetson >= 4, "the shipped Jetson table has its rows (%zu)", t.njetson);
    for (size_t i = 0; i < t.ngpus; i++) {
        const struct gpu *g = &t.gpus[i];
        if (!g->tegra || g->cc == 110 || g->cc == 101 || g->cc < 53)
            continue; /* Thor: SBSA wheels; TK1 (3.2): no PyTorch build */
        size_t runs = 0;
        for (size_t k = 0; k < t.njetson; k++)
            runs += jetson_runs_on(&t.jetson[k], g->cc);
        OK(runs > 0, "%s (%u): NVIDIA's build for it is named", g->name, g->cc);
    }
    tables_free(&t);
    static const char JP_HEADER[] =
        "jetpack,l4t,cuda,python,torch,devices,index_url,where,source,checked_on\n";
    static const struct bad_row jbads[] = {
        {"6.1,R36.4,12.6,3.10,2.5.0,8.7;x,,https://a.example/,s,2026-11-28\n",
         "jetson_pytorch.csv line 2: devices \"8.7;x\" is not a list of X.Y"},
        {"6.1,R36.4,12.6,3.10,2.5.0,,,https://a.example/,s,2026-11-28\n",
         "jetson_pytorch.csv line 2: no devices"},
        {"6.1,R36.4,12.6,3.10,2.5.0,8.7,http://a.example/,https://a.example/,s,2026-11-28\n",
         "jetson_pytorch.csv line 2: index_url \"http://a.example/\" is not https"},
        {"6.1,R36.4,12.6,3.10,2.5.0,8.7,,javascript:x,s,2026-11-28\n",
         "jetson_pytorch.csv line 2: where \"javascript:x\" is not https"},
        {"6.1,R36.4,12.6,3.10,2.5.0,8.7,,https://a.example/,s,yesterday\n",
         "jetson_pytorch.csv line 2: checked_on \"yesterday\" is not a date"},
    };
    bad_rows(dir, "jetson_pytorch.csv", JP_HEADER, jbads, sizeof jbads / sizeof jbads[0]);
    char good[512];
    snprintf(good, sizeof good, "%s%s", JP_HEADER,
             "6.1,R36.4,12.6,3.10,2.4.0;2.5.0,8.7;7.2,https://i.example/jp6,https://a.example/,s,"
             "2026-11-28\n");
    put(dir, "jetson_pytorch.csv", good);
    OK(tables_load(dir, &t, &err) == 0, "a good Jetson row loads: %s", err.msg);
    if (t.njetson == 1) {
        STR_EQ(t.jetson[0].torch_text, "2.4.0, 2.5.0", "the versions in words");
        OK(jetson_runs_on(&t.jetson[0], 87) && jetson_runs_on(&t.jetson[0], 72) &&
               !jetson_runs_on(&t.jetson[0], 65),
           "runs on 8.7 and 7.2, not 6.5");
    } else {
        OK(0, "one Jetson row: %zu", t.njetson);
    }
    tables_free(&t);
    rm_data(dir);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_observed DATA_DIR\n");
        return 2;
    }
    shipped(argv[1]);
    rules(argv[1]);
    return harness_done();
}
