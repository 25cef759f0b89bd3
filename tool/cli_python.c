/*
 * cli_python: asking a Python interpreter something (where its
 * site-packages are, which version it is), without a shell and with a
 * deadline; shared by doctor and query.
 */
#include "cli_python.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_pyfind.h"
#include "tables.h"

/* How long an interpreter may take to answer. */
#define PYTHON_TIMEOUT_S 30

/* Milliseconds left of PYTHON_TIMEOUT_S since t0. */
static long ms_left(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return PYTHON_TIMEOUT_S * 1000L -
           ((now.tv_sec - t0->tv_sec) * 1000L + (now.tv_nsec - t0->tv_nsec) / 1000000L);
}

/* Runs python -c CODE without a shell and reads what it prints (at most
 * n - 1 bytes) into buf.  Returns its exit status (127: it could not be
 * started; 128: a signal ended it), or -1 after printing why (no pipe or
 * process, or it did not finish within PYTHON_TIMEOUT_S and was killed). */
int cli_python_run(const char *python, const char *code, char *buf, size_t n,
                   const struct cli_python_ask *ask)
{
    int fds[2];
    if (pipe(fds) != 0) {
        cli_warn("%s: cannot run %s: %s", ask->who, python, strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0); /* its own group: a timeout stops whatever it started */
        int null = open("/dev/null", O_RDWR);
        dup2(fds[1], 1);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 2);
        }
        close(fds[0]);
        close(fds[1]);
        execlp(python, python, "-c", code, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    if (pid > 0)
        setpgid(pid, pid); /* as the child does: whichever runs first */
    if (pid < 0) {
        close(fds[0]);
        cli_warn("%s: cannot run %s: %s", ask->who, python, strerror(errno));
        return -1;
    }
    size_t len = 0;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int timed_out = 0, exited = 0, status = 0;
    for (;;) {
        long left = ms_left(&t0);
        if (left <= 0) {
            timed_out = !exited;
            break;
        }
        /* Once the interpreter has ended, what is left in the pipe is read
         * and no more is waited for: a child it left behind may hold the
         * pipe open for good. */
        if (!exited && waitpid(pid, &status, WNOHANG) == pid)
            exited = 1;
        struct pollfd pf = {fds[0], POLLIN, 0};
        int k = poll(&pf, 1, exited ? 0 : (int)(left < 100 ? left : 100));
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 || (k == 0 && exited))
            break;
        if (k == 0)
            continue;
        char tmp[4096];
        ssize_t r = read(fds[0], tmp, sizeof tmp);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        size_t take = (size_t)r < n - 1 - len ? (size_t)r : n - 1 - len;
        memcpy(buf + len, tmp, take);
        len += take;
    }
    buf[len] = '\0';
    close(fds[0]);
    /* Its output closed, it may still not end (a program that closes its
     * standard output and sleeps): the same deadline holds. */
    while (!timed_out && !exited && waitpid(pid, &status, WNOHANG) == 0) {
        if (ms_left(&t0) <= 0)
            timed_out = 1;
        else
            poll(NULL, 0, 20);
    }
    if (timed_out) {
        kill(-pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    if (timed_out) {
        cli_warn("%s: %s did not %s within %d s and was stopped%s", ask->who, python, ask->what,
                 PYTHON_TIMEOUT_S, ask->hint);
        return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128; /* killed by a signal */
}

int cli_python_version(const char *python, const char *who, uint16_t *version, int *free_threaded,
                       char *how, size_t nhow)
{
    /* Where the environment writes the version down, it is read, and an
     * interpreter asked before is not asked again (cli_pyfind). */
    struct cli_pyfind f;
    int rc = cli_pyfind(python, &f);
    if (rc == 0)
        rc = cli_pyfind_recall(&f);
    if (rc == 1) {
        *version = f.version;
        *free_threaded = f.free_threaded;
        if (how)
            snprintf(how, nhow, "%s", f.how);
        return 0;
    }
    if (rc < 0) {
        cli_warn("%s: %s did not say which Python it is (exit 127): not found", who, python);
        return -1;
    }
    char buf[256];
    struct cli_python_ask ask = {who, "say its version", "; give --python X.Y"};
    int st = cli_python_run(f.path,
                            "import sys; print('%d.%d%s' % (sys.version_info[0], "
                            "sys.version_info[1], 't' if 't' in getattr(sys, 'abiflags', '') "
                            "else ''))",
                            buf, sizeof buf, &ask);
    if (st == -1)
        return -1;
    buf[strcspn(buf, "\r\n")] = '\0';
    if (st != 0 || tables_python_parse(buf, version, free_threaded) < 0) {
        cli_warn("%s: %s did not say which Python it is (exit %d)%s", who, python, st,
                 st == 127 ? ": not found" : "");
        return -1;
    }
    f.version = *version;
    f.free_threaded = *free_threaded;
    cli_pyfind_remember(&f);
    if (how)
        snprintf(how, nhow, "%s, asked its version", f.how);
    return 0;
}
