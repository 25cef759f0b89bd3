/*
 * cli_crawl: `wheelarch crawl` — options, the progress display, the outage
 * count and the summary around crawl_run.
 *
 * Exit status: 0 all read; 3 some wheels or index pages failed (a hiccup);
 * 6 no index answered, in up to --outages-allowed runs in a row; 7 no index
 * answered for more runs in a row than that (an outage).  The runs in a row
 * are counted in DIR/outages, removed by the first run an index answers.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "workers.h"
#include "config.h"
#include "indexurl.h"
#include "crawl.h"
#include "fsutil.h"
#include "paths.h"
#include "tables.h"

struct display {
    int json;
    int quiet;
    int tty; /* progress bar on stderr */
    int bar_shown;
    double last_log;
    struct crawl_progress last;
};

static void fmt_bytes(char *buf, size_t n, double b)
{
    static const char *const units[] = {"B", "kB", "MB", "GB", "TB"};
    int u = 0;
    while (b >= 1000 && u < 4) {
        b /= 1000;
        u++;
    }
    snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", b, units[u]);
}

static void fmt_duration(char *buf, size_t n, double s)
{
    if (s < 0 || s > 1e7)
        snprintf(buf, n, "?");
    else if (s < 60)
        snprintf(buf, n, "%.0fs", s);
    else if (s < 3600)
        snprintf(buf, n, "%dm%02ds", (int)s / 60, (int)s % 60);
    else
        snprintf(buf, n, "%dh%02dm", (int)s / 3600, ((int)s % 3600) / 60);
}

static int term_width(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20)
        return ws.ws_col;
    return 80;
}

static void clear_bar(struct display *d)
{
    if (d->bar_shown) {
        fputs("\r\033[K", stderr);
        d->bar_shown = 0;
    }
}

static void draw_bar(struct display *d)
{
    const struct crawl_progress *p = &d->last;
    char bytes[32], rate[32], eta[32], line[512];
    fmt_bytes(bytes, sizeof bytes, (double)p->bytes);
    fmt_bytes(rate, sizeof rate, p->elapsed > 0 ? (double)p->bytes / p->elapsed : 0);
    double left = p->done ? p->elapsed * (double)(p->total - p->done) / (double)p->done : -1;
    fmt_duration(eta, sizeof eta, p->done < p->total ? left : 0);
    int n = snprintf(line, sizeof line, "[%zu/%zu wheels] %s  %s/s  ETA %s  %s", p->done, p->total,
                     bytes, rate, eta, p->current ? p->current : "");
    int w = term_width() - 1;
    if (n > w && w > 0)
        line[w] = '\0';
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
    d->bar_shown = 1;
}

static void on_progress(void *ud, const struct crawl_progress *p)
{
    struct display *d = ud;
    d->last = *p;
    if (d->last.current) {
        /* The pointer is only valid during the call. */
        static char cur[256];
        snprintf(cur, sizeof cur, "%s", p->current);
        d->last.current = cur;
    }
    if (d->quiet)
        return;
    if (d->tty) {
        draw_bar(d);
    } else if (p->total && p->elapsed - d->last_log >= 10) {
        char bytes[32];
        fmt_bytes(bytes, sizeof bytes, (double)p->bytes);
        fprintf(stderr, "wheelarch: %zu/%zu wheels done, %s read\n", p->done, p->total, bytes);
        d->last_log = p->elapsed;
    }
}

static void on_event(void *ud, const struct crawl_event *e)
{
    struct display *d = ud;
    if (d->json) {
        char *s = json_dumps(e->line, JSON_COMPACT);
        clear_bar(d);
        printf("%s\n", s);
        fflush(stdout);
        free(s);
    }
    if (d->quiet || e->status == CRAWL_KNOWN)
        return;
    char bytes[32];
    fmt_bytes(bytes, sizeof bytes, (double)e->bytes);
    clear_bar(d);
    switch (e->status) {
    case CRAWL_SCANNED:
        cli_warn("scanned %s (%s read)", e->filename, bytes);
        break;
    case CRAWL_INFERRED:
        cli_warn("inferred %s", e->filename);
        break;
    case CRAWL_FAILED:
        cli_warn("%s: %s", e->filename, e->error);
        break;
    }
    if (d->tty)
        draw_bar(d);
}

static void on_warning(void *ud, const char *msg)
{
    struct display *d = ud;
    clear_bar(d);
    cli_warn("%s", msg);
    if (d->tty && d->last.total)
        draw_bar(d);
}

static void on_waiting(void *ud, const char *lock_path, long pid)
{
    struct display *d = ud;
    clear_bar(d);
    cli_print_waiting(NULL, lock_path, pid);
}

static void today(char buf[16])
{
    cli_today(buf, 0);
}

/* --plan: a table per project on stdout (or one JSON object), the pages
 * read on stderr.  Exit status as a crawl's for the pages. */
/* No index answered: every page read failed (a crawl with no page to read
 * counts as answered: its configuration asked for nothing). */
static int none_answered(const struct crawl_summary *sum)
{
    return sum->pages > 0 && sum->pages_failed == sum->pages;
}

static int print_plan(const struct crawl_summary *sum, int as_json)
{
    struct crawl_plan_row t = {0};
    json_t *rows = json_array();
    if (!as_json)
        printf("%-22s %8s %8s %8s %8s %12s\n", "project", "listed", "known", "to read", "to infer",
               "bytes to read");
    for (size_t i = 0; i < sum->nplan; i++) {
        const struct crawl_plan_row *r = &sum->plan[i];
        t.listed += r->listed;
        t.known += r->known;
        t.to_scan += r->to_scan;
        t.to_infer += r->to_infer;
        t.unusable += r->unusable;
        t.bytes += r->bytes;
        t.unsized += r->unsized;
        char b[32];
        fmt_bytes(b, sizeof b, (double)r->bytes);
        if (as_json)
            json_array_append_new(
                rows, json_pack("{s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "project", r->project,
                                "listed", (json_int_t)r->listed, "known", (json_int_t)r->known,
                                "to_read", (json_int_t)r->to_scan, "to_infer",
                                (json_int_t)r->to_infer, "unusable", (json_int_t)r->unusable,
                                "bytes", (json_int_t)r->bytes, "unsized", (json_int_t)r->unsized));
        else
            printf("%-22s %8zu %8zu %8zu %8zu %12s%s\n", r->project, r->listed, r->known,
                   r->to_scan, r->to_infer, b, r->unsized ? " +" : "");
    }
    char b[32];
    fmt_bytes(b, sizeof b, (double)t.bytes);
    if (as_json) {
        json_t *o = json_pack("{s:o,s:I,s:I}", "plan", rows, "pages", (json_int_t)sum->pages,
                              "pages_failed", (json_int_t)sum->pages_failed);
        char *text = json_dumps(o, JSON_COMPACT);
        printf("%s\n", text);
        free(text);
        json_decref(o);
    } else {
        json_decref(rows);
        printf("%-22s %8zu %8zu %8zu %8zu %12s%s\n", "total", t.listed, t.known, t.to_scan,
               t.to_infer, b, t.unsized ? " +" : "");
        if (none_answered(sum))
            printf("No index page answered (%zu failed): the totals are empty because nothing "
                   "could be read, not because nothing is to do.\n",
                   sum->pages_failed);
        else if (sum->pages_failed)
            printf("%zu of %zu index pages failed: their wheels are not counted above.\n",
                   sum->pages_failed, sum->pages);
        if (t.unsized)
            printf("+ %zu of the wheels to read have no size on their index (PEP 503 HTML pages "
                   "give none).\n",
                   t.unsized);
        printf("A wheel to read costs at most its size: by Range, only its zip directory, the "
               "members that can hold GPU code and its METADATA; whole, once, when those are 90%% "
               "of it or more.\n");
    }
    fprintf(stderr,
            "wheelarch: plan from %zu index pages (%zu unchanged, %zu missing, %zu failed)\n",
            sum->pages, sum->pages_unchanged, sum->pages_missing, sum->pages_failed);
    if (sum->below_floor)
        fprintf(stderr, "wheelarch: %zu wheel%s older than their project's min_version left out\n",
                sum->below_floor, sum->below_floor == 1 ? "" : "s");
    if (none_answered(sum))
        return WA_EXIT_FAILURE;
    return sum->pages_failed ? WA_EXIT_PARTIAL : WA_EXIT_OK;
}

/* The outage count: runs in a row in which no index answered, kept in
 * the database folder as a decimal number and a newline. */
#define OUTAGES_MAX 1000000

/* The count as it stands: 0 when there is none; a file that holds no
 * count is said once and read as 0. */
static long read_outages(const char *path, int say)
{
    char *text = NULL;
    size_t len = 0;
    struct wa_error err;
    long n = 0;
    if (fsutil_read(path, 64, &text, &len, NULL, &err) == 0 && text) {
        size_t digits = strspn(text, "0123456789");
        if (digits > 0 && digits <= 7 && (text[digits] == '\n' || text[digits] == '\0') &&
            strlen(text) <= digits + 1)
            n = strtol(text, NULL, 10);
        else if (say)
            cli_warn("%s holds no count of runs without an answer; counting from this run", path);
    } else if (say && fsutil_exists(path)) {
        cli_warn("%s: %s; counting from this run", path, err.msg);
    }
    free(text);
    return n > OUTAGES_MAX ? OUTAGES_MAX : n;
}

/* The new count (the file written atomically), or 0 after a run that
 * reached an index (the file removed); -1 when it cannot be kept, said in
 * a line: the caller counts that as an outage, never as a hiccup (a
 * count that cannot grow would keep an outage green for ever). */
static long count_outage(const char *cache, int outage)
{
    char *path = fsutil_join(cache, "outages");
    long n = 0;
    if (outage) {
        n = read_outages(path, 1);
        if (n < OUTAGES_MAX)
            n++;
        char buf[32];
        int k = snprintf(buf, sizeof buf, "%ld\n", n);
        struct wa_error err;
        if (fsutil_write_atomic(path, buf, (size_t)k, 0, &err) < 0) {
            cli_warn("%s; the count of runs without an answer cannot be kept, so this one counts "
                     "as an outage",
                     err.msg);
            n = -1;
        }
    } else if (remove(path) < 0 && errno != ENOENT) {
        cli_warn("%s: %s; the count of runs without an answer stays", path, strerror(errno));
    }
    free(path);
    return n;
}

const char *cli_status_word(int rc)
{
    switch (rc) {
    case WA_EXIT_OK:
        return "ok";
    case WA_EXIT_PARTIAL:
        return "partial";
    case WA_EXIT_UNREACHED:
        return "unreached";
    case WA_EXIT_OUTAGE:
        return "outage";
    default:
        return "failed";
    }
}

/* {"summary": {...}}: the counts of one crawl, its exit status and the
 * outage count; rc and status are set by the caller's last word. */
static json_t *summary_json(const char *command, const struct crawl_summary *sum, int rc,
                            long outages, long allowed)
{
    json_t *o = json_pack(
        "{s:s,s:i,s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "command", command, "exit",
        rc, "status", cli_status_word(rc), "wheels", (json_int_t)sum->wheels, "scanned",
        (json_int_t)sum->scanned, "inferred", (json_int_t)sum->inferred, "known",
        (json_int_t)sum->known, "failed", (json_int_t)sum->failed, "bytes", (json_int_t)sum->bytes,
        "pages", (json_int_t)sum->pages, "pages_unchanged", (json_int_t)sum->pages_unchanged,
        "pages_missing", (json_int_t)sum->pages_missing, "pages_failed",
        (json_int_t)sum->pages_failed, "outages_in_a_row", (json_int_t)outages, "outages_allowed",
        (json_int_t)allowed);
    if (outages < 0) /* the count could not be kept */
        json_object_set_new(o, "outages_in_a_row", json_null());
    return json_pack("{s:o}", "summary", o);
}

void cli_print_summary(json_t *summary)
{
    char *s = json_dumps(summary, JSON_COMPACT);
    printf("%s\n", s);
    fflush(stdout);
    free(s);
}

int cli_crawl_step(const struct cli_command *cmd, const struct cli_args *a)
{
    int json = cli_get_opt(cmd, a, "json") != NULL;
    json_t *summary = NULL;
    int rc = cli_crawl_run(cmd, a, json, json ? &summary : NULL);
    if (summary) {
        cli_print_summary(summary);
        json_decref(summary);
    }
    return rc;
}

int cli_crawl_run(const struct cli_command *cmd, const struct cli_args *ap, int json_events,
                  json_t **summary)
{
    if (summary)
        *summary = NULL;
    const struct cli_args a = *ap;
    int rc = WA_EXIT_USAGE;
    struct config cfg;
    memset(&cfg, 0, sizeof cfg);
    struct tables tables;
    int have_tables = 0;
    const char **idx, **proj;
    size_t nidx = cli_get_list(cmd, &a, "index", &idx);
    size_t nproj = cli_get_list(cmd, &a, "project", &proj);
    const char *config_path = cli_get(cmd, &a, "config");
    struct wa_error err;
    if (config_path || !(nidx && nproj)) {
        const char *p = config_path ? config_path : "wheelarch.json";
        if (!config_path && !fsutil_exists(p)) {
            rc = cli_usage_error(cmd, "no wheelarch.json here; give --config FILE, or --index "
                                      "and --project");
            goto out;
        }
        if (config_load(p, &cfg, &err) < 0) {
            cli_warn("%s: %s", p, err.msg);
            rc = WA_EXIT_USAGE;
            goto out;
        }
    } else {
        http_options_default(&cfg.http);
    }
    cfg.http.proxied = http_proxy_from_env(environ); /* libcurl reads the same variables */
    for (size_t i = 0; i < nidx; i++) {
        char q[200], shown[INDEXURL_MAX + 1];
        struct wa_error ue;
        indexurl_redact(idx[i], shown, sizeof shown); /* its user info never printed */
        if (config_index_url_check(idx[i], &ue) < 0) {
            rc = cli_usage_error(cmd, "--index %s: %s", wa_quote(q, sizeof q, shown, 160), ue.msg);
            goto out;
        }
    }
    for (size_t i = 0; i < nproj; i++)
        if (!config_project_name_valid(proj[i])) {
            rc = cli_usage_error(cmd,
                                 "--project \"%s\" is not a project name (letters, digits, "
                                 "\".\", \"_\" and \"-\")",
                                 proj[i]);
            goto out;
        }
    if (nidx)
        config_set_indexes(&cfg, idx, nidx);
    if (nproj)
        config_set_projects(&cfg, proj, nproj);
    /* The projects' variant rules (data/variant_rules.csv). */
    if (tables_load(paths_data_dir(), &tables, &err) < 0) {
        cli_warn("%s", err.msg);
        rc = WA_EXIT_USAGE;
        goto out;
    }
    have_tables = 1;
    struct crawl_options o = {0};
    o.cfg = &cfg;
    o.tables = &tables;
    o.cache_dir = cli_get(cmd, &a, "cache") ? cli_get(cmd, &a, "cache") : "cache";
    o.all = cli_get(cmd, &a, "all") != NULL;
    o.bundled = cli_get(cmd, &a, "bundled") != NULL;
    o.plan = cli_get_opt(cmd, &a, "plan") != NULL;
    const char *jobs = cli_get(cmd, &a, "jobs");
    o.jobs = cfg.jobs > 0 ? cfg.jobs : (int)workers_cpus();
    double num;
    long allowed = 2;
    const char *oa = cli_get_opt(cmd, &a, "outages-allowed");
    if (oa) {
        if ((rc = cli_number(cmd, "outages-allowed", oa, 0, 10000, 1, &num)) != 0)
            goto out;
        allowed = (long)num;
    }
    if (jobs) {
        if ((rc = cli_number(cmd, "jobs", jobs, 1, 256, 1, &num)) != 0)
            goto out;
        o.jobs = (int)num;
    }
    const char *timeout = cli_get(cmd, &a, "timeout");
    if (timeout) {
        if ((rc = cli_number(cmd, "timeout", timeout, 0.001, 3600, 0, &num)) != 0)
            goto out;
        cfg.http.stall_timeout_ms = (long)(num * 1000);
        cfg.http.connect_timeout_ms = (long)(num * 1000);
    }
    const char *shard = cli_get_opt(cmd, &a, "shard");
    if (shard && crawl_parse_shard(shard, &o.shard_k, &o.shard_n) < 0) {
        rc = cli_usage_error(cmd, "--shard wants K/N with 1 <= K <= N");
        goto out;
    }
    char day[16];
    today(day);
    o.today = day;

    struct display d = {0};
    d.json = json_events;
    d.quiet = cli_get(cmd, &a, "quiet") != NULL;
    d.tty =
        isatty(STDERR_FILENO) && !d.quiet && getenv("TERM") && strcmp(getenv("TERM"), "dumb") != 0;
    o.no_wait = cli_get_opt(cmd, &a, "no-wait") != NULL;
    struct crawl_observer obs = {on_event, on_progress, on_warning, on_waiting, &d, d.json};
    struct crawl_summary sum;
    if (crawl_run(&o, &obs, &sum, &err) < 0) {
        clear_bar(&d);
        cli_warn("%s", err.msg);
        rc = err.code == WA_ERR_BUSY    ? CLI_STEP_BUSY
             : err.code == WA_ERR_USAGE ? WA_EXIT_USAGE /* a lock path that is not ours */
                                        : WA_EXIT_FAILURE;
        if (summary && rc != WA_EXIT_USAGE) {
            /* a crawl that could not run: the count as it stands */
            struct crawl_summary none;
            memset(&none, 0, sizeof none);
            char *path = fsutil_join(o.cache_dir, "outages");
            *summary = summary_json(cmd->name, &none, rc == CLI_STEP_BUSY ? WA_EXIT_FAILURE : rc,
                                    read_outages(path, 0), allowed);
            free(path);
            json_object_set_new(json_object_get(*summary, "summary"), "error",
                                json_string(err.msg));
        }
        goto out;
    }
    clear_bar(&d);
    if (o.plan) {
        rc = print_plan(&sum, d.json);
        crawl_summary_free(&sum);
        goto out;
    }
    char bytes[32];
    fmt_bytes(bytes, sizeof bytes, (double)sum.bytes);
    fprintf(stderr,
            "wheelarch: %zu wheels: %zu scanned, %zu inferred, %zu already known, %zu failed; "
            "%s downloaded; %zu index pages (%zu unchanged, %zu missing, %zu failed)\n",
            sum.wheels, sum.scanned, sum.inferred, sum.known, sum.failed, bytes, sum.pages,
            sum.pages_unchanged, sum.pages_missing, sum.pages_failed);
    if (sum.below_floor)
        fprintf(stderr, "wheelarch: %zu wheel%s older than their project's min_version left out\n",
                sum.below_floor, sum.below_floor == 1 ? "" : "s");
    for (size_t i = 0; i < sum.nfailures; i++)
        cli_warn("  failed %s: %s", sum.failures[i].filename, sum.failures[i].error);
    int unanswered = none_answered(&sum);
    long outages = count_outage(o.cache_dir, unanswered);
    if (unanswered) {
        rc = outages < 0 || outages > allowed ? WA_EXIT_OUTAGE : WA_EXIT_UNREACHED;
        if (outages < 0)
            cli_warn("no index answered (an outage: the runs in a row cannot be counted)");
        else
            cli_warn("no index answered: %ld run%s in a row (%s; exit 7 after %ld, "
                     "--outages-allowed)",
                     outages, outages == 1 ? "" : "s",
                     rc == WA_EXIT_OUTAGE ? "an outage" : "exit 6", allowed);
    } else if (sum.failed || sum.pages_failed) {
        rc = WA_EXIT_PARTIAL;
    } else {
        rc = WA_EXIT_OK;
    }
    if (summary)
        *summary = summary_json(cmd->name, &sum, rc, outages, allowed);
    crawl_summary_free(&sum);
out:
    if (have_tables)
        tables_free(&tables);
    config_free(&cfg);
    return rc;
}

int cli_crawl(int argc, char **argv)
{
    return cli_run_step("crawl", argc, argv, cli_crawl_step);
}
