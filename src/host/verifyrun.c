/*
 * verifyrun: the driver's checks in a child process, and the parent's
 * reading of them (verifyrun.h).
 */
#include "verifyrun.h"

#include <errno.h>
#include <fcntl.h>
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
            send_line(fd, json_pack("{s:I,s:s}", "item", (json_int_t)i, "file", items[i].paths[k]));
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

/* What the child was doing when it stopped, for the failure line. */
static char *doing(const struct verifyrun_item *items, long item, const char *file)
{
    if (item < 0)
        return xstrdup("starting the driver (cuInit) and its context");
    char *f = xstrdup(file ? file : "?");
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

json_t *verifyrun(const struct tables *t, const struct verifyrun_item *items, size_t n,
                  int timeout_s)
{
    json_t *out = json_object();
    json_t *res = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(res, json_null());
    json_object_set_new(out, "items", res);
    int fds[2];
    if (pipe(fds) < 0) {
        json_object_set_new(out, "device",
                            json_pack("{s:b,s:s}", "available", 0, "why",
                                      "cannot make a pipe for the driver's process"));
        return out;
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
        json_object_set_new(out, "device", json_pack("{s:b,s:s}", "available", 0, "why", why));
        return out;
    }
    if (pid == 0) {
        close(fds[0]);
        /* a doctor stopped (Ctrl-C, a CI timeout) takes a hung driver with it */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() == 1)
            _exit(3);
        child(fds[1], t, items, n);
    }
    close(fds[1]);
    struct strbuf buf = {0};
    long item = -1; /* the item whose file is being loaded */
    char *file = NULL;
    int done = 0, timed_out = 0, garbled = 0, reaped = 0, status = 0;
    double deadline = now_s() + timeout_s;
    for (;;) {
        /* whole lines first */
        char *nl;
        while (!garbled && buf.len && (nl = memchr(buf.buf, '\n', buf.len)) != NULL) {
            size_t k = (size_t)(nl - buf.buf);
            json_t *o = json_loadb(buf.buf, k, 0, NULL);
            memmove(buf.buf, nl + 1, buf.len - k - 1);
            buf.len -= k + 1;
            if (!json_is_object(o)) {
                garbled = 1;
                json_decref(o);
                break;
            }
            json_t *dev = json_object_get(o, "device");
            json_t *it = json_object_get(o, "item");
            if (json_is_true(json_object_get(o, "done"))) {
                done = 1;
            } else if (json_is_object(dev)) {
                json_object_set(out, "device", dev);
            } else if (json_is_integer(it) && json_integer_value(it) >= 0 &&
                       (size_t)json_integer_value(it) < n) {
                json_t *counts = json_object_get(o, "counts");
                const char *f = json_string_value(json_object_get(o, "file"));
                if (json_is_object(counts)) {
                    json_array_set(res, (size_t)json_integer_value(it), counts);
                    item = -2; /* between items */
                } else if (f) {
                    item = (long)json_integer_value(it);
                    free(file);
                    file = xstrdup(f);
                    deadline = now_s() + timeout_s; /* the limit is per file */
                }
            } else {
                garbled = 1;
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
            if (reaped)
                break; /* the child is gone and what it wrote is read */
            if (waitpid(pid, &status, WNOHANG) == pid) {
                reaped = 1;
                /* what it wrote last is already in the pipe: one more look */
                int fl = fcntl(fds[0], F_GETFL);
                if (fl >= 0)
                    fcntl(fds[0], F_SETFL, fl | O_NONBLOCK);
            }
            continue;
        }
        char chunk[8192];
        ssize_t got = read(fds[0], chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break; /* the child is gone; or, reaped, all it wrote is read */
        if (buf.len + (size_t)got > LINE_MAX_BYTES) {
            garbled = 1;
            break;
        }
        strbuf_add(&buf, chunk, (size_t)got);
    }
    close(fds[0]);
    if (!reaped) {
        if (!done || timed_out || garbled)
            kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    if (!done || garbled) {
        char *what = item == -2 ? xstrdup("between two distributions") : doing(items, item, file);
        char *msg;
        if (timed_out)
            msg = xasprintf("no answer from the driver within %d s while %s; stopped", timeout_s,
                            what);
        else if (garbled)
            msg = xasprintf("the driver's process wrote something that is not wheelarch's while "
                            "%s; stopped",
                            what);
        else if (WIFSIGNALED(status))
            msg = xasprintf("the driver's process was killed by signal %d (%s) while %s",
                            WTERMSIG(status), strsignal(WTERMSIG(status)), what);
        else
            msg = xasprintf("the driver's process ended (exit status %d) before it finished, "
                            "while %s",
                            WIFEXITED(status) ? WEXITSTATUS(status) : -1, what);
        json_object_set_new(out, "failed", json_string(msg));
        if (item >= 0)
            json_object_set_new(out, "failed_item", json_integer(item));
        free(msg);
        free(what);
    }
    if (!json_object_get(out, "device"))
        json_object_set_new(out, "device",
                            json_pack("{s:b,s:s}", "available", 0, "why",
                                      json_string_value(json_object_get(out, "failed"))));
    free(file);
    strbuf_free(&buf);
    return out;
}
