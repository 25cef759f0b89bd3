/*
 * verifyrun: the driver's checks in a child process, and the parent's
 * reading of them (verifyrun.h).
 */
#include "verifyrun.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compat.h"
#include "cudaverify.h"
#include "error.h"
#include "fsutil.h"
#include "strbuf.h"
#include "xalloc.h"

/* A line from the child longer than this is not one of ours. */
#define LINE_MAX_BYTES (1u << 20)

static json_t *counts_json(const struct cudaverify_counts *c, json_t *errors)
{
    return json_pack("{s:I,s:I,s:I,s:I,s:I,s:f,s:{s:I,s:I,s:I},s:I,s:s?,s:I,s:o}", "modules",
                     (json_int_t)c->modules, "checked", (json_int_t)c->checked, "native",
                     (json_int_t)c->native, "jit", (json_int_t)c->jit, "none", (json_int_t)c->none,
                     "jit_seconds", c->jit_seconds, "static", "native",
                     (json_int_t)c->static_native, "jit", (json_int_t)c->static_jit, "none",
                     (json_int_t)c->static_none, "disagreements", (json_int_t)c->disagreements,
                     "first_disagreement", c->disagreements ? c->first_disagreement : NULL,
                     "unreadable", (json_int_t)c->unreadable, "errors", errors);
}

/* One JSON line to the parent (the object is consumed).  A parent gone is
 * the end of the child. */
static void send_line(int fd, json_t *o)
{
    char *s = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (!s)
        _exit(3);
    char *line = xasprintf("%s\n", s);
    free(s);
    size_t len = strlen(line), off = 0;
    while (off < len) {
        ssize_t w = write(fd, line + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(3);
        off += (size_t)w;
    }
    free(line);
}

static void child(int fd, const struct tables *t, const struct verifyrun_item *items, size_t n)
{
    /* the driver's own messages on stdout would corrupt doctor --json */
    dup2(STDERR_FILENO, STDOUT_FILENO);
    struct cudaverify *cv = NULL;
    char why[256];
    if (cudaverify_open(0, &cv, why, sizeof why) < 0) {
        send_line(fd, json_pack("{s:{s:b,s:s}}", "device", "available", 0, "why", why));
        send_line(fd, json_pack("{s:b}", "done", 1));
        _exit(0);
    }
    char ccs[16];
    compat_cc_string(cudaverify_device_cc(cv), ccs, sizeof ccs);
    send_line(fd, json_pack("{s:{s:b,s:s,s:s,s:i}}", "device", "available", 1, "device",
                            cudaverify_device_name(cv), "compute_capability", ccs, "driver_cuda",
                            cudaverify_driver_cuda(cv)));
    for (size_t i = 0; i < n; i++) {
        struct cudaverify_counts c;
        memset(&c, 0, sizeof c);
        json_t *errors = json_array();
        for (size_t k = 0; k < items[i].npaths; k++) {
            send_line(fd, json_pack("{s:I,s:I}", "item", (json_int_t)i, "file", (json_int_t)k));
            char *full = fsutil_join(items[i].site, items[i].paths[k]);
            struct wa_error err;
            if (cudaverify_file(cv, t, full, &c, &err) < 0 && json_array_size(errors) < 3)
                json_array_append_new(errors, json_string(err.msg));
            free(full);
        }
        send_line(fd,
                  json_pack("{s:I,s:o}", "item", (json_int_t)i, "counts", counts_json(&c, errors)));
    }
    send_line(fd, json_pack("{s:b}", "done", 1));
    cudaverify_close(cv);
    _exit(0);
}

/* What the child was doing when it stopped, for the failure line: item
 * -1 before the device, n after the last item. */
static char *doing(const struct verifyrun_item *items, size_t n, long item, size_t k)
{
    if (item < 0)
        return xstrdup("starting the driver (cuInit) and its context");
    if ((size_t)item >= n)
        return xstrdup("closing the driver after the last distribution");
    if (k >= items[item].npaths)
        return xstrdup("between two distributions");
    char *f = xstrdup(items[item].paths[k]);
    wa_printable_ascii(f);
    char *label = xstrdup(items[item].label);
    wa_printable_ascii(label);
    char *s = xasprintf("loading the modules of %s (%s)", f, label);
    free(f);
    free(label);
    return s;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A string of the child's, as the report may show it: printable ASCII, at
 * most 300 bytes (whatever the driver wrote into the pipe); NULL when v is
 * not a string.  Caller frees. */
static char *clean_string(json_t *v)
{
    const char *s = json_string_value(v);
    if (!s)
        return NULL;
    char buf[301];
    snprintf(buf, sizeof buf, "%s", s);
    wa_printable_ascii(buf);
    return xstrdup(buf);
}

static int count_of(json_t *o, const char *key, long long *out)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > (1LL << 40))
        return -1;
    *out = (long long)json_integer_value(v);
    return 0;
}

static void device_free(struct verifyrun_device *d)
{
    free(d->name);
    free(d->compute_capability);
    free(d->why);
    memset(d, 0, sizeof *d);
}

/* The device line read into d, each field checked; -1 (d empty) when it
 * is not one. */
static int clean_device(json_t *j, struct verifyrun_device *d)
{
    memset(d, 0, sizeof *d);
    if (!json_is_object(j) || !json_is_boolean(json_object_get(j, "available")))
        return -1;
    if (!json_is_true(json_object_get(j, "available"))) {
        d->why = clean_string(json_object_get(j, "why"));
        return d->why ? 0 : -1;
    }
    d->available = 1;
    d->name = clean_string(json_object_get(j, "device"));
    d->compute_capability = clean_string(json_object_get(j, "compute_capability"));
    unsigned a, b;
    char tail;
    if (!d->name || !d->compute_capability || count_of(j, "driver_cuda", &d->driver_cuda) < 0 ||
        sscanf(d->compute_capability, "%u.%u%c", &a, &b, &tail) != 2) {
        device_free(d);
        return -1;
    }
    return 0;
}

static void counts_free(struct verifyrun_counts *c)
{
    free(c->first_disagreement);
    for (size_t i = 0; i < c->nerrors; i++)
        free(c->errors[i]);
    memset(c, 0, sizeof *c);
}

/* An item's counts read into c, each checked; -1 (c empty) when they are
 * not counts. */
static int clean_counts(json_t *j, struct verifyrun_counts *c)
{
    memset(c, 0, sizeof *c);
    json_t *st = json_object_get(j, "static");
    if (count_of(j, "modules", &c->modules) < 0 || count_of(j, "checked", &c->checked) < 0 ||
        count_of(j, "native", &c->native) < 0 || count_of(j, "jit", &c->jit) < 0 ||
        count_of(j, "none", &c->none) < 0 || count_of(j, "unreadable", &c->unreadable) < 0 ||
        count_of(j, "disagreements", &c->disagreements) < 0 ||
        count_of(st, "native", &c->static_native) < 0 || count_of(st, "jit", &c->static_jit) < 0 ||
        count_of(st, "none", &c->static_none) < 0 ||
        !json_is_number(json_object_get(j, "jit_seconds")) ||
        !json_is_array(json_object_get(j, "errors"))) {
        memset(c, 0, sizeof *c);
        return -1;
    }
    c->reached = 1;
    c->jit_seconds = json_number_value(json_object_get(j, "jit_seconds"));
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(j, "errors"), i, e)
    {
        char *one = clean_string(e);
        if (one && i < 3)
            c->errors[c->nerrors++] = one;
        else
            free(one);
    }
    if (c->disagreements)
        c->first_disagreement = clean_string(json_object_get(j, "first_disagreement"));
    return 0;
}

void verifyrun_result_free(struct verifyrun_result *r)
{
    device_free(&r->device);
    for (size_t i = 0; i < r->n; i++)
        counts_free(&r->items[i]);
    free(r->items);
    free(r->failed);
    memset(r, 0, sizeof *r);
}

/* Whether the child has ended, without reaping it: a zombie keeps its
 * process group, which the parent kills last. */
static int child_ended(pid_t pid)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    return waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

/* Waits up to `seconds` for the child to end by itself. */
static int wait_ended(pid_t pid, double seconds)
{
    double until = now_s() + seconds;
    while (!child_ended(pid)) {
        if (now_s() >= until)
            return 0;
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return 1;
}

void verifyrun(const struct tables *t, const struct verifyrun_item *items, size_t n, int timeout_s,
               struct verifyrun_result *out)
{
    memset(out, 0, sizeof *out);
    out->items = xcalloc(n + 1, sizeof *out->items);
    out->n = n;
    out->failed_item = -1;
    int fds[2];
    if (pipe(fds) < 0) {
        out->device.why = xstrdup("cannot make a pipe for the driver's process");
        return;
    }
    /* nothing buffered may be written twice by a child that calls exit() */
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        char why[128];
        snprintf(why, sizeof why, "cannot start a process for the driver: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        out->device.why = xstrdup(why);
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        /* a group of its own, so that what the driver starts is stopped
         * with it and a signal it sends its group misses doctor; and a
         * doctor stopped (Ctrl-C, a CI timeout) takes a hung driver along */
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() == 1)
            _exit(3);
        child(fds[1], t, items, n);
    }
    setpgid(pid, pid); /* the same, whichever of the two runs first */
    close(fds[1]);
    /* The child's lines in the one order it writes them: the device; per
     * item, a line per file (k = 0, 1, ...) and its counts; "done".  A line
     * out of that order was not written by wheelarch. */
    struct strbuf buf = {0};
    long item = -1; /* -1: the device is next; n: "done" is next */
    size_t k = 0;   /* the file of `item` next; npaths: its counts */
    int loading = 0, available = 0;
    int done = 0, timed_out = 0, garbled = 0, eof = 0;
    double deadline = now_s() + timeout_s;
    while (!done && !garbled && !eof) {
        char *nl;
        while (!done && !garbled && buf.len && (nl = memchr(buf.buf, '\n', buf.len)) != NULL) {
            size_t len = (size_t)(nl - buf.buf);
            json_t *o = json_loadb(buf.buf, len, 0, NULL);
            memmove(buf.buf, nl + 1, buf.len - len - 1);
            buf.len -= len + 1;
            json_t *it = json_object_get(o, "item");
            json_t *f = json_object_get(o, "file");
            json_t *counts = json_object_get(o, "counts");
            if (!json_is_object(o)) {
                garbled = 1;
            } else if (item == -1) {
                if (clean_device(json_object_get(o, "device"), &out->device) < 0) {
                    garbled = 1;
                } else {
                    available = out->device.available;
                    item = available ? 0 : (long)n;
                    k = 0;
                }
            } else if ((size_t)item >= n) {
                if (json_is_true(json_object_get(o, "done")) && json_object_size(o) == 1)
                    done = 1;
                else
                    garbled = 1;
            } else if (!json_is_integer(it) || json_integer_value(it) != item) {
                garbled = 1;
            } else if (k < items[item].npaths) {
                if (json_is_integer(f) && (size_t)json_integer_value(f) == k && !counts) {
                    loading = 1;
                    deadline = now_s() + timeout_s; /* the limit is per file */
                    k++;
                } else {
                    garbled = 1;
                }
            } else {
                if (!counts || f || clean_counts(counts, &out->items[item]) < 0) {
                    garbled = 1;
                } else {
                    item++;
                    k = 0;
                    loading = 0;
                }
            }
            json_decref(o);
        }
        if (done || garbled)
            break;
        double left = deadline - now_s();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd pfd = {fds[0], POLLIN, 0};
        /* at most half a second at a time: a child that died while a
         * process it started holds the pipe open sends no end of file */
        int r = poll(&pfd, 1, left > 0.5 ? 500 : (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0) {
            if (child_ended(pid)) {
                /* what it wrote last is in the pipe already: one more look */
                int fl = fcntl(fds[0], F_GETFL);
                if (fl >= 0)
                    fcntl(fds[0], F_SETFL, fl | O_NONBLOCK);
                char chunk[8192];
                ssize_t got;
                while ((got = read(fds[0], chunk, sizeof chunk)) > 0 &&
                       buf.len + (size_t)got <= LINE_MAX_BYTES)
                    strbuf_add(&buf, chunk, (size_t)got);
                eof = buf.len == 0 || memchr(buf.buf, '\n', buf.len) == NULL;
            }
            continue;
        }
        char chunk[8192];
        ssize_t got = read(fds[0], chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            eof = 1;
            break;
        }
        if (buf.len + (size_t)got > LINE_MAX_BYTES) {
            garbled = 1;
            break;
        }
        strbuf_add(&buf, chunk, (size_t)got);
    }
    close(fds[0]);
    /* After "done" the driver's teardown gets a few seconds; after an end
     * of the pipe, the child a moment to end by itself (so that its own
     * end is reported, not the kill); else it is stopped now. */
    int ended = done ? wait_ended(pid, 5) : eof ? wait_ended(pid, 2) : child_ended(pid);
    kill(-pid, SIGKILL); /* the child if it lives, and all it started */
    kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!done) {
        size_t kf = loading ? k - 1 : item >= 0 && (size_t)item < n ? items[item].npaths : 0;
        char *what = doing(items, n, item, kf);
        char *msg;
        if (timed_out)
            msg = xasprintf("no answer from the driver within %d s while %s; stopped", timeout_s,
                            what);
        else if (garbled)
            msg = xasprintf("the driver's process wrote something that is not wheelarch's while "
                            "%s; stopped",
                            what);
        else if (!ended)
            msg = xasprintf("the driver's process closed its end of the pipe before it finished, "
                            "while %s; stopped",
                            what);
        else if (WIFSIGNALED(status))
            msg = xasprintf("the driver's process was killed by signal %d (%s) while %s",
                            WTERMSIG(status), strsignal(WTERMSIG(status)), what);
        else
            msg = xasprintf("the driver's process ended (exit status %d) before it finished, "
                            "while %s",
                            WIFEXITED(status) ? WEXITSTATUS(status) : -1, what);
        out->failed = msg;
        if (item >= 0 && (size_t)item < n)
            out->failed_item = item;
        free(what);
    }
    if (!out->device.available && !out->device.why) /* no device line came */
        out->device.why = xstrdup(out->failed ? out->failed : "no answer from the driver");
    strbuf_free(&buf);
}
