/*
 * crawl_isolate: the isolated pass: a wheel whose scan did not finish
 * last time is scanned alone in a child process, so that a crash or a
 * hang costs that wheel only; a crash is recorded and not retried.
 */
#include "crawl_state.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "db.h"
#include "http.h"
#include "record.h"
#include "version.h"
#include "wheelfetch.h"
/* Signals that mean the scanner itself failed, not that it was stopped. */
static int crash_signal(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGABRT ||
           sig == SIGSYS || sig == SIGTRAP;
}

/* The isolated pass: a wheel whose scan did not finish in an earlier run is
 * scanned again alone, in a child process, after everything else, so that
 * if it crashes or hangs it takes down nothing but itself.  A wheel whose
 * isolated scan crashes is recorded as such and not retried until wheelarch
 * changes (its version differs from the one that crashed). */
void crawli_run_group_isolated(struct crawl *c, const struct group *g)
{
    for (size_t i = 0; i < g->n; i++) {
        struct cwheel *w = &c->w[g->wheels[i]];
        if (w->known || w->failed)
            continue;
        struct wa_error e;
        if (crawli_journal_begin(c, w, 1, &e) < 0) {
            pthread_mutex_lock(&c->lock);
            crawli_settle_scan(c, g, w, e.code, NULL, e.msg, 0, 0);
            pthread_mutex_unlock(&c->lock);
            continue;
        }
        pthread_mutex_lock(&c->lock);
        c->current[0] = w->filename;
        crawli_progress(c, 1);
        c->current[0] = NULL;
        pthread_mutex_unlock(&c->lock);
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid == 0) {
            /* The child: no threads but this one; it stores the outcome
             * itself, through a connection of its own (an SQLite
             * connection must not cross a fork; the parent's is left
             * untouched), and dies with its parent. */
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (db_open(c->o->cache_dir, 0, &c->db, &e) < 0)
                _exit(4);
            struct http_client *hc = http_client_new(&c->o->cfg->http);
            http_client_on_retry(hc, crawli_on_retry, c);
            struct wheelfetch_stats st;
            json_t *rec = NULL;
            wa_error_clear(&e);
            int rc = crawli_scan_and_store(c, hc, w, NULL, NULL, &rec, &st, &e);
            if (rc < 0)
                crawli_record_failure(c, w, e.msg, st.http_status, NULL, 0);
            _exit(rc == 0 ? 0 : 3);
        }
        int status = 0, hung = 0;
        if (pid < 0) {
            wa_error_set(&e, WA_ERR_IO, "cannot start a process for the isolated scan: %s",
                         strerror(errno));
        } else {
            /* The network is bounded by http.h's rates; the scan by the
             * readers' limits.  A child that still runs this long hangs. */
            struct timespec t0, now;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            for (;;) {
                pid_t r = waitpid(pid, &status, WNOHANG);
                if (r == pid || (r < 0 && errno != EINTR))
                    break;
                clock_gettime(CLOCK_MONOTONIC, &now);
                if (now.tv_sec - t0.tv_sec >= c->isolated_timeout && !hung) {
                    hung = 1;
                    kill(pid, SIGKILL);
                }
                struct timespec tick = {0, 50 * 1000000L};
                nanosleep(&tick, NULL);
            }
        }
        json_t *rec = NULL;
        pthread_mutex_lock(&c->lock);
        int sig = pid > 0 && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
            db_read_record(c->db, w->key, &rec, &e) == 0) {
            unsigned long long bytes = record_fetch_bytes(rec);
            c->bytes += (uint64_t)bytes;
            crawli_settle_scan(c, g, w, 0, rec, NULL, 0, (uint64_t)bytes);
        } else if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 3) {
            crawli_settle_scan(c, g, w, WA_ERR_FORMAT, NULL, NULL, 0, 0); /* the child stored why */
        } else if (hung || sig) {
            /* A crash, a hang, or the third stop from outside condemns the
             * wheel; a stop from outside (a stop of the whole job, the OOM
             * killer) is not its fault as far as we know: retried alone. */
            int stopped = !hung && !crash_signal(sig);
            const char *kind = "crashed";
            char msg[300];
            if (hung)
                snprintf(msg, sizeof msg,
                         "scanning this wheel hung wheelarch %s (killed after %ld s alone); not "
                         "retried until wheelarch changes",
                         WHEELARCH_VERSION, c->isolated_timeout);
            else if (!stopped)
                snprintf(msg, sizeof msg,
                         "scanning this wheel crashed wheelarch %s (signal %d, %s); not retried "
                         "until wheelarch changes",
                         WHEELARCH_VERSION, sig, strsignal(sig));
            else if (crawli_isolated_stops(c, w->key) + 1 >= ISOLATED_STOPS_MAX)
                snprintf(msg, sizeof msg,
                         "the scan of this wheel alone was stopped %d times (last by signal %d); "
                         "not retried until wheelarch changes",
                         ISOLATED_STOPS_MAX, sig);
            else {
                kind = "unfinished";
                snprintf(msg, sizeof msg,
                         "the scan of this wheel alone was stopped (signal %d, %s); it will be "
                         "retried alone",
                         sig, strsignal(sig));
            }
            w->failed = 1;
            crawli_record_failure(c, w, msg, 0, kind, stopped);
            crawli_emit(c, w, CRAWL_FAILED, NULL, msg, 0);
            db_journal_end(c->db, w->key);
        } else {
            if (pid > 0)
                wa_error_set(&e, WA_ERR_IO, "the isolated scan ended with status %d",
                             WIFEXITED(status) ? WEXITSTATUS(status) : -1);
            crawli_settle_scan(c, g, w, WA_ERR_IO, NULL, e.msg, 0, 0);
        }
        pthread_mutex_unlock(&c->lock);
        int done = w->known && !c->o->all;
        json_decref(rec);
        if (done)
            break;
    }
}
