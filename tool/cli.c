/*
 * cli: option parsing, help text and diagnostics shared by the commands.
 */
#include "datatable.h"
#include "cli.h"

#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fsutil.h"
#include "outdir.h"
#include "strbuf.h"
#include "xalloc.h"

/* Writes "wheelarch: " and the formatted message as one line, in one
 * write: names from indexes, wheels and records may hold control
 * characters or bytes that are not UTF-8, which are printed as \xNN,
 * never raw: C0, DEL and C1 (U+0080..U+009F, each byte: some terminals
 * act on U+009B as on ESC [), and every byte of an invalid sequence. */
__attribute__((format(printf, 1, 0))) static void warn_line(const char *fmt, va_list ap)
{
    char buf[4096];
    vsnprintf(buf, sizeof buf, fmt, ap);
    struct strbuf out = STRBUF_INIT;
    strbuf_adds(&out, "wheelarch: ");
    for (const unsigned char *p = (const unsigned char *)buf; *p;) {
        size_t k = *p < 0x80 ? 1 : strbuf_utf8_len(p);
        int c1 = k == 2 && p[0] == 0xc2 && p[1] <= 0x9f;
        if (*p < 0x20 || *p == 0x7f || k == 0 || c1) {
            for (size_t i = 0; i < (k ? k : 1); i++)
                strbuf_addf(&out, "\\x%02x", p[i]);
            p += k ? k : 1;
        } else {
            strbuf_add(&out, p, k);
            p += k;
        }
    }
    strbuf_addc(&out, '\n');
    fwrite(out.buf, 1, out.len, stderr);
    strbuf_free(&out);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    warn_line(fmt, ap);
    va_end(ap);
}

void cli_warn_at(const char *where, const char *msg)
{
    size_t n = strlen(where);
    if (strncmp(msg, where, n) == 0 && (msg[n] == ':' || msg[n] == '/'))
        cli_warn("%s", msg); /* the message names it already */
    else
        cli_warn("%s: %s", where, msg);
}

void cli_warn_quota(struct cli_quota *q, const char *fmt, ...)
{
    if (q->shown >= CLI_QUOTA_LINES) {
        q->hidden++;
        return;
    }
    q->shown++;
    va_list ap;
    va_start(ap, fmt);
    warn_line(fmt, ap);
    va_end(ap);
}

void cli_quota_end(struct cli_quota *q, const char *what)
{
    if (q->hidden)
        cli_warn("... and %zu more %s, not shown", q->hidden, what);
    q->shown = q->hidden = 0;
}

void cli_print_retry(void *ud, const struct http_retry *r)
{
    (void)ud;
    char line[WA_ERROR_MSG_SIZE + 300];
    http_retry_text(r, line, sizeof line);
    cli_warn("%s", line);
}

const char *cli_today(char *buf, int source_date_epoch)
{
    const char *env = getenv("WHEELARCH_TODAY");
    if (env && datatable_is_date(env)) {
        snprintf(buf, 16, "%s", env);
        return buf;
    }
    const char *sde = source_date_epoch ? getenv("SOURCE_DATE_EPOCH") : NULL;
    char *end = NULL;
    long long secs = sde && *sde ? strtoll(sde, &end, 10) : -1;
    time_t now = secs >= 0 && end && !*end ? (time_t)secs : time(NULL);
    struct tm tm;
    if (!gmtime_r(&now, &tm)) { /* out of range: the clock instead */
        now = time(NULL);
        gmtime_r(&now, &tm);
    }
    strftime(buf, 16, "%Y-%m-%d", &tm);
    return buf;
}

void cli_print_waiting(void *ud, const char *lock_path, long holder_pid)
{
    (void)ud;
    if (holder_pid)
        cli_warn("waiting for process %ld, which holds %s (use --no-wait to fail instead)",
                 holder_pid, lock_path);
    else
        cli_warn("waiting for another process, which holds %s (use --no-wait to fail instead)",
                 lock_path);
}

int cli_check_out_dir(const struct cli_command *cmd, const char *cache_dir, const char *out_dir)
{
    char *tmp = outdir_tmp_path(out_dir);
    int bad = fsutil_paths_overlap(cache_dir, out_dir) || fsutil_paths_overlap(cache_dir, tmp);
    free(tmp);
    if (bad)
        return cli_usage_error(cmd,
                               "--out %s and --cache %s overlap: the output folder is replaced "
                               "whole, so it must not be, hold or lie inside the database",
                               out_dir, cache_dir);
    /* Checked again under the lock, when the build starts (outdir_begin). */
    struct wa_error err;
    if (outdir_check_ours(out_dir, &err) < 0) {
        cli_warn("%s", err.msg);
        return err.code == WA_ERR_USAGE ? WA_EXIT_USAGE : WA_EXIT_FAILURE;
    }
    return 0;
}

int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    warn_line(fmt, ap);
    va_end(ap);
    if (cmd)
        fprintf(stderr, "usage: wheelarch %s %s\nTry 'wheelarch %s --help'.\n", cmd->name,
                cmd->synopsis, cmd->name);
    else
        fputs("Try 'wheelarch --help'.\n", stderr);
    return WA_EXIT_USAGE;
}

int cli_number(const struct cli_command *cmd, const char *option, const char *s, double min,
               double max, int integer, double *out)
{
    /* Plain decimal digits only: strtod would take "nan", "inf", "0x10",
     * "1e9", " 5" and "+5", and NaN passes every comparison. */
    size_t digits = strspn(s, "0123456789"), n = strlen(s);
    int plain =
        digits > 0 && (digits == n || (!integer && s[digits] == '.' && digits + 1 < n &&
                                       strspn(s + digits + 1, "0123456789") == n - digits - 1));
    double v = plain && n <= 30 ? strtod(s, NULL) : NAN;
    if (!(v >= min && v <= max)) {
        char q[100];
        return cli_usage_error(cmd, "--%s %s: want %s from %.10g to %.10g", option,
                               wa_quote(q, sizeof q, s, 40),
                               integer ? "a whole number" : "a number", min, max);
    }
    *out = v;
    return 0;
}

const struct cli_command *cli_find_command(const char *name)
{
    for (const struct cli_command *c = cli_commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

static size_t option_count(const struct cli_command *cmd)
{
    size_t n = 0;
    while (cmd->options && cmd->options[n].name)
        n++;
    return n;
}

static void option_label(const struct cli_option *o, char *buf, size_t n)
{
    if (o->short_name)
        snprintf(buf, n, "-%c, --%s%s%s", o->short_name, o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
    else
        snprintf(buf, n, "    --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

void cli_print_help(FILE *f, const struct cli_command *cmd)
{
    if (!cmd) {
        fputs("wheelarch - which GPUs each PyTorch wheel really runs on, read from its "
              "binaries\n\nusage: wheelarch COMMAND [OPTIONS] [ARGS]\n"
              "       wheelarch --version | --help\n\ncommands:\n",
              f);
        for (const struct cli_command *c = cli_commands; c->name; c++)
            fprintf(f, "  %-8s %s\n", c->name, c->summary);
        fputs("\nRun 'wheelarch COMMAND --help' for a command's options.\n"
              "Exit codes: 0 ok, 1 failure, 2 usage error, 3 partial (some inputs failed).\n",
              f);
        return;
    }
    fprintf(f, "usage: wheelarch %s %s\n\n%s\n", cmd->name, cmd->synopsis, cmd->summary);
    if (cmd->details)
        fprintf(f, "\n%s\n", cmd->details);
    fputs("\noptions:\n", f);
    for (size_t i = 0; i < option_count(cmd); i++) {
        char label[96];
        option_label(&cmd->options[i], label, sizeof label);
        fprintf(f, "  %-26s %s\n", label, cmd->options[i].help);
    }
    fprintf(f, "  %-26s %s\n", "-h, --help", "show this help");
    if (cmd->example)
        fprintf(f, "\nexample:\n  %s\n", cmd->example);
}

void cli_print_markdown(FILE *f)
{
    for (const struct cli_command *c = cli_commands; c->name; c++) {
        fprintf(f, "### `wheelarch %s`\n\n```\nwheelarch %s %s\n```\n\n%s\n", c->name, c->name,
                c->synopsis, c->summary);
        if (c->details)
            fprintf(f, "\n%s\n", c->details);
        fputs("\n| option | meaning |\n|---|---|\n", f);
        for (size_t i = 0; i < option_count(c); i++) {
            char label[96];
            option_label(&c->options[i], label, sizeof label);
            const char *l = label;
            while (*l == ' ')
                l++;
            fprintf(f, "| `%s` | %s |\n", l, c->options[i].help);
        }
        if (c->example)
            fprintf(f, "\nExample: `%s`\n", c->example);
        fputc('\n', f);
    }
}

/* Text for a roff line: backslashes escaped, '-' as a real minus, and a
 * leading '.' or '\'' made literal. */
static void roff_text(FILE *f, const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", f);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
    }
}

void cli_print_man(FILE *f, const char *version)
{
    fprintf(f, ".TH WHEELARCH 1 \"\" \"wheelarch %s\" \"User Commands\"\n", version);
    fputs(".SH NAME\nwheelarch \\- which GPUs each PyTorch wheel really runs on, read from its "
          "binaries\n.SH SYNOPSIS\n",
          f);
    for (const struct cli_command *c = cli_commands; c->name; c++) {
        fprintf(f, ".B wheelarch %s\n", c->name);
        roff_text(f, c->synopsis);
        fputs("\n.br\n", f);
    }
    fputs(".B wheelarch\n\\-\\-version | \\-\\-help\n", f);
    fputs(".SH DESCRIPTION\nwheelarch reads the GPU architectures (SASS sm_XY, PTX compute_XY) out "
          "of "
          "the CUDA binaries in wheels, records them for every wheel of PyTorch-style package "
          "indexes, judges which wheel runs on which GPU, and publishes the result as a static "
          "website, a JSON feed and GPU-aware package indexes.\n",
          f);
    fputs(".SH COMMANDS\n", f);
    for (const struct cli_command *c = cli_commands; c->name; c++) {
        fprintf(f, ".SS wheelarch %s\n", c->name);
        roff_text(f, c->summary);
        fputc('\n', f);
        if (c->details) {
            fputs(".PP\n", f);
            roff_text(f, c->details);
            fputc('\n', f);
        }
        for (size_t i = 0; i < option_count(c); i++) {
            const struct cli_option *o = &c->options[i];
            fputs(".TP\n", f);
            if (o->short_name)
                fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
            fprintf(f, "\\fB\\-\\-");
            roff_text(f, o->name);
            fputs("\\fR", f);
            if (o->arg) {
                fputs(" \\fI", f);
                roff_text(f, o->arg);
                fputs("\\fR", f);
            }
            fputc('\n', f);
            roff_text(f, o->help);
            fputc('\n', f);
        }
        if (c->example) {
            fputs(".PP\nExample:\n.PP\n.RS\n.nf\n", f);
            roff_text(f, c->example);
            fputs("\n.fi\n.RE\n", f);
        }
    }
    fputs(".SH EXIT STATUS\n0 success; 1 failure; 2 usage or configuration error; 3 partial: some "
          "inputs failed and were left as they were, the rest was done.\n"
          ".SH FILES\n.TP\n.I wheelarch.json\nthe configuration (indexes and projects to crawl)\n"
          ".TP\n.I cache/\nthe database folder: wheelarch.db (SQLite: records, failures, the "
          "journal, the HTTP cache)\n.TP\n.I site/\nthe "
          "generated website, feed and indexes\n.TP\n.I cache.lock, site.lock\nthe locks that keep "
          "one crawl per database and one build per output folder\n.TP\n.I "
          "share/wheelarch/templates, share/wheelarch/data\n"
          "templates and shipped tables, found beside the installed binary\n"
          ".SH ENVIRONMENT\n.TP\n.B WHEELARCH_DATA_DIR, WHEELARCH_TEMPLATES_DIR\nuse these folders "
          "instead of the installed ones\n",
          f);
}

static int find_long(const struct cli_command *cmd, const char *name, size_t len)
{
    for (size_t i = 0; i < option_count(cmd); i++)
        if (strlen(cmd->options[i].name) == len && strncmp(cmd->options[i].name, name, len) == 0)
            return (int)i;
    return -1;
}

static int find_short(const struct cli_command *cmd, char c)
{
    for (size_t i = 0; i < option_count(cmd); i++)
        if (cmd->options[i].short_name == c)
            return (int)i;
    return -1;
}

static void set_value(const struct cli_command *cmd, struct cli_args *a, int i, const char *v)
{
    a->values[i] = v;
    if (cmd->options[i].repeat) {
        a->lists[i] = xrealloc(a->lists[i], (a->counts[i] + 1) * sizeof *a->lists[i]);
        a->lists[i][a->counts[i]++] = v;
    }
}

static int parse_into(const struct cli_command *cmd, int argc, char **argv, struct cli_args *a)
{
    size_t n = option_count(cmd);
    memset(a, 0, sizeof *a);
    a->nopts = n;
    a->values = xcalloc(n + 1, sizeof *a->values);
    a->lists = xcalloc(n + 1, sizeof *a->lists);
    a->counts = xcalloc(n + 1, sizeof *a->counts);
    a->rest = xcalloc((size_t)argc + 1, sizeof *a->rest);
    int only_operands = 0;
    for (int k = 1; k < argc; k++) {
        char *s = argv[k];
        if (only_operands || s[0] != '-' || strcmp(s, "-") == 0) {
            a->rest[a->nrest++] = s;
            continue;
        }
        if (strcmp(s, "--") == 0) {
            only_operands = 1;
            continue;
        }
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            a->help = 1;
            continue;
        }
        int i;
        const char *val = NULL;
        if (s[1] == '-') {
            const char *eq = strchr(s + 2, '=');
            size_t len = eq ? (size_t)(eq - s - 2) : strlen(s + 2);
            i = find_long(cmd, s + 2, len);
            if (i < 0)
                return cli_usage_error(cmd, "unknown option '%s'", s);
            if (eq) {
                if (!cmd->options[i].arg)
                    return cli_usage_error(cmd, "option '--%s' takes no value",
                                           cmd->options[i].name);
                val = eq + 1;
            }
        } else {
            i = find_short(cmd, s[1]);
            if (i < 0 || (s[2] != '\0' && !cmd->options[i].arg))
                return cli_usage_error(cmd, "unknown option '%s'", s);
            if (s[2] != '\0')
                val = s + 2;
        }
        if (cmd->options[i].arg && !val) {
            if (k + 1 >= argc)
                return cli_usage_error(cmd, "option '--%s' needs a value (%s)",
                                       cmd->options[i].name, cmd->options[i].arg);
            val = argv[++k];
        }
        /* An unset variable ("--out $SITE") must not mean a default, or
         * the current folder: no option takes an empty value. */
        if (cmd->options[i].arg && !*val)
            return cli_usage_error(cmd, "option '--%s' needs a value (%s), not an empty string",
                                   cmd->options[i].name, cmd->options[i].arg);
        if (!cmd->options[i].arg)
            val = "1";
        if (!cmd->options[i].repeat && a->values[i] && cmd->options[i].arg)
            return cli_usage_error(cmd, "option '--%s' given twice", cmd->options[i].name);
        set_value(cmd, a, i, val);
    }
    return 0;
}

int cli_parse(const struct cli_command *cmd, int argc, char **argv, struct cli_args *a)
{
    int rc = parse_into(cmd, argc, argv, a);
    if (rc != 0)
        cli_args_free(a); /* a usage error leaves nothing to free */
    return rc;
}

void cli_args_free(struct cli_args *a)
{
    if (!a->values)
        return;
    for (size_t i = 0; i < a->nopts; i++)
        free(a->lists[i]);
    free(a->lists);
    free(a->counts);
    free(a->values);
    free(a->rest);
    memset(a, 0, sizeof *a);
}

const char *cli_get(const struct cli_command *cmd, const struct cli_args *a, const char *name)
{
    int i = find_long(cmd, name, strlen(name));
    if (i < 0)
        abort();
    return a->values[i];
}

const char *cli_get_opt(const struct cli_command *cmd, const struct cli_args *a, const char *name)
{
    int i = find_long(cmd, name, strlen(name));
    return i < 0 ? NULL : a->values[i];
}

size_t cli_get_list(const struct cli_command *cmd, const struct cli_args *a, const char *name,
                    const char ***values)
{
    int i = find_long(cmd, name, strlen(name));
    if (i < 0)
        abort();
    *values = a->lists[i];
    return a->counts[i];
}

int cli_run_step(const char *name, int argc, char **argv,
                 int (*step)(const struct cli_command *cmd, const struct cli_args *a))
{
    const struct cli_command *cmd = cli_find_command(name);
    struct cli_args a;
    int rc = WA_EXIT_USAGE;
    if (cli_parse(cmd, argc, argv, &a) != 0)
        return rc;
    if (a.help) {
        cli_print_help(stdout, cmd);
        rc = WA_EXIT_OK;
    } else if (a.nrest > 0) {
        rc = cli_usage_error(cmd, "unexpected argument '%s'", a.rest[0]);
    } else {
        rc = step(cmd, &a);
        if (rc == CLI_STEP_BUSY)
            rc = WA_EXIT_FAILURE;
    }
    cli_args_free(&a);
    return rc;
}
