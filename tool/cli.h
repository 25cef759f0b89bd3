/*
 * cli: what the commands share — exit codes, diagnostics, the option tables
 * that --help and README.md are generated from, and option parsing.
 *
 * Only the CLI prints or exits; the core returns errors.
 */
#ifndef WHEELARCH_CLI_H
#define WHEELARCH_CLI_H

#include <stdio.h>

#include "http.h"

enum wa_exit {
    WA_EXIT_OK = 0,
    WA_EXIT_FAILURE = 1, /* nothing useful done */
    WA_EXIT_USAGE = 2,   /* bad arguments or configuration */
    WA_EXIT_PARTIAL = 3, /* finished; some inputs failed and were left as they were */
    /* crawl, update: no index answered, in up to --outages-allowed runs in a
     * row (a hiccup; update still built the site) */
    WA_EXIT_UNREACHED = 6,
    /* crawl, update: no index answered, in more runs in a row than
     * --outages-allowed (an outage; update still built the site) */
    WA_EXIT_OUTAGE = 7,
};

/* query: the release asked about runs, but not natively (PTX JIT, or
 * kernels missing); the same number as doctor's "only PTX JIT". */
#define QUERY_EXIT_NOT_NATIVE 4

/* What a step returns (never an exit status) when --no-wait met a lock held
 * by another process: `update` stops there; cli_run_step exits 1. */
#define CLI_STEP_BUSY 100

struct cli_option {
    const char *name; /* long name without dashes */
    char short_name;  /* 0 if none */
    const char *arg;  /* argument placeholder, NULL for a flag */
    const char *help;
    int repeat; /* may be given more than once */
};

struct cli_command {
    const char *name;
    const char *synopsis; /* after "wheelarch NAME " */
    const char *summary;  /* one sentence */
    const char *details;  /* a paragraph, or NULL */
    const char *example;
    const struct cli_option *options;
    int (*run)(int argc, char **argv);
};

/* All commands, terminated by a zeroed entry. */
extern const struct cli_command cli_commands[];

/* Diagnostics on stderr, prefixed "wheelarch: ", one line written at once
 * (control characters and bytes that are not UTF-8 as \xNN). */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "where: msg", or msg alone when it starts with where already (a
 * message about cache/wheelarch.db under --cache cache). */
void cli_warn_at(const char *where, const char *msg);

/* Warnings of one kind that an input can repeat without bound (a refused
 * line of an import): the first CLI_QUOTA_LINES are printed, the rest
 * counted, and cli_quota_end prints how many were not shown. */
#define CLI_QUOTA_LINES 200
struct cli_quota {
    size_t shown, hidden;
};
void cli_warn_quota(struct cli_quota *q, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void cli_quota_end(struct cli_quota *q, const char *what);
/* 0, or a usage error (exit 2, printed) when the output folder (or its
 * DIR.tmp) is, holds or lies inside the database folder, or is a folder
 * wheelarch may not replace (outdir_check_ours). */
int cli_check_out_dir(const struct cli_command *cmd, const char *cache_dir, const char *out_dir);
/* A lockfile wait callback: one warning saying who holds the lock. */
void cli_print_waiting(void *ud, const char *lock_path, long holder_pid);

/* Today as YYYY-MM-DD into buf (16 bytes): WHEELARCH_TODAY when it is a
 * date (tests, and an operator replaying a day), else, when
 * source_date_epoch, SOURCE_DATE_EPOCH's day (reproducible builds'
 * convention for a build's "now"), else today in UTC.  Returns buf. */
const char *cli_today(char *buf, int source_date_epoch);
/* An http_client retry callback that prints the retry as one warning. */
void cli_print_retry(void *ud, const struct http_retry *r);

/* Usage error: prints the message and a pointer to --help, returns
 * WA_EXIT_USAGE. */
int cli_usage_error(const struct cli_command *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Reads s, the value of --option, as a number from min to max: decimal
 * digits with (unless integer) one '.', nothing else (no sign, exponent,
 * hex, inf or nan).  Returns 0 with *out, or WA_EXIT_USAGE after printing
 * a usage error naming the option and the range. */
int cli_number(const struct cli_command *cmd, const char *option, const char *s, double min,
               double max, int integer, double *out);

/* Prints the help of one command (or of everything when cmd is NULL). */
void cli_print_help(FILE *f, const struct cli_command *cmd);
/* Prints the command reference as Markdown (the README's "Commands"). */
void cli_print_markdown(FILE *f);
/* Prints the manual page (roff, man(7)) from the same table. */
void cli_print_man(FILE *f, const char *version);

/* Parsed options: values[i] holds the last value of option i ("1" for a
 * flag), lists[i] all values of a repeatable option. */
struct cli_args {
    const char **values;
    const char ***lists;
    size_t *counts;
    size_t nopts;
    char **rest; /* operands */
    int nrest;
    int help;
};

/* Parses argv[1..argc) (argv[0] is the command name) against cmd's options.
 * Returns 0 (free a with cli_args_free), or WA_EXIT_USAGE after printing a
 * usage error, a then holding nothing (cli_args_free on it is harmless). */
int cli_parse(const struct cli_command *cmd, int argc, char **argv, struct cli_args *a);
void cli_args_free(struct cli_args *a);
/* Index of option `name` in cmd's table (aborts if absent: a programming error). */
const char *cli_get(const struct cli_command *cmd, const struct cli_args *a, const char *name);
/* Like cli_get, for an option cmd may not have: NULL then. */
const char *cli_get_opt(const struct cli_command *cmd, const struct cli_args *a, const char *name);
size_t cli_get_list(const struct cli_command *cmd, const struct cli_args *a, const char *name,
                    const char ***values);

const struct cli_command *cli_find_command(const char *name);

/* Per-command entry points. */
int cli_scan(int argc, char **argv);
int cli_crawl(int argc, char **argv);
int cli_query(int argc, char **argv);
int cli_doctor(int argc, char **argv);
int cli_explain(int argc, char **argv);
int cli_variants(int argc, char **argv);
int cli_build(int argc, char **argv);
int cli_update(int argc, char **argv);
int cli_merge(int argc, char **argv);
int cli_db(int argc, char **argv);

/* Runs a command that takes options and no operands: parses argv, prints
 * --help, rejects operands, else returns step's exit status. */
int cli_run_step(const char *name, int argc, char **argv,
                 int (*step)(const struct cli_command *cmd, const struct cli_args *a));

/* The crawl and the build, reading their options from the parsed arguments
 * of any command that has them (crawl and update; build and update).
 * Return an exit status (enum wa_exit). */
int cli_crawl_step(const struct cli_command *cmd, const struct cli_args *a);
/* The crawl step as `update` runs it: no per-wheel JSON lines; *summary
 * (when not NULL) gets the summary object crawl --json prints last, the
 * caller's to free (NULL after a usage error). */
struct json_t;
int cli_crawl_run(const struct cli_command *cmd, const struct cli_args *a, int json_events,
                  struct json_t **summary);
/* The word the summary line gives an exit status: "ok", "partial",
 * "unreached", "outage" or "failed". */
const char *cli_status_word(int rc);
/* Prints a summary object as one JSON line on standard output. */
void cli_print_summary(struct json_t *summary);
int cli_build_step(const struct cli_command *cmd, const struct cli_args *a);

#endif
