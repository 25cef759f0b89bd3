/*
 * crawl_record: the record of a wheel scanned or inferred, and the line
 * each wheel gets on the observer.
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
#include "record.h"
#include "scan.h"
#include "scanreport.h"
#include "version.h"
#include "wheelfetch.h"
#include "xalloc.h"
#include "jsontext.h"

/* The wheel's identity as the record module takes it (borrowed from w). */
static struct record_identity identity_of(const struct cwheel *w)
{
    struct record_identity id = {w->key,           w->url,
                                 w->filename,      w->sha256,
                                 w->upload_time,   w->requires_python,
                                 w->yanked,        (const char *const *)w->indexes,
                                 w->nindexes,      w->index_url,
                                 &w->wn,           w->variant,
                                 w->variant_source};
    return id;
}

static void set_identity(json_t *o, const struct cwheel *w)
{
    struct record_identity id = identity_of(w);
    record_set_identity(o, &id);
}

int crawli_store_scanned(struct crawl *c, const struct cwheel *w, const struct scan_result *r,
                         const struct wheelfetch_stats *st, json_t **rec, struct wa_error *e)
{
    *rec = NULL;
    struct record_identity id = identity_of(w);
    struct record_fetch f = {st->range_mode, st->bytes, st->size, (unsigned)st->requests,
                             st->sha256_checked};
    struct record rr;
    int rc = record_of_scan(r, &id, &f, c->o->today, &rr, e);
    if (rc < 0)
        return rc;
    /* the JSON only for its text (records.record, `db export`) and the
     * crawl's lines: nothing is read back from it */
    json_t *o = record_scanned(scanreport_json(r), r->sha256, &id, &f, c->o->today);
    char *text = record_text(o);
    rc = db_write_record(c->db, &rr, text, e);
    free(text);
    record_free(&rr);
    if (rc < 0)
        json_decref(o);
    else
        *rec = o;
    return rc;
}

/* The --json line of an inferred wheel w: the full scan object of its
 * source under its own identity and record (rec), with nothing of how the
 * source was read.  Where rec does not say them (record_json's records),
 * its input is its URL and its index_sha256 the index's. */
json_t *crawli_inferred_line(const struct cwheel *w, const json_t *rec, json_t *from)
{
    json_t *o = json_deep_copy(from);
    json_object_del(o, "members");
    json_object_del(o, "binaries_read");
    json_object_set_new(o, "input", json_string(w->url));
    json_object_set_new(o, "index_sha256", jsontext_str_or_null(w->sha256));
    json_object_update(o, (json_t *)rec);
    json_object_set_new(o, "fetch", json_null());
    return o;
}

/* Emits one wheel's outcome.  Caller holds the lock. */
void crawli_emit(struct crawl *c, const struct cwheel *w, int status, json_t *rec,
                 const char *error, uint64_t bytes)
{
    json_t *line = NULL;
    if (!c->lines) {
        /* no line wanted */
    } else if (rec) {
        line = json_deep_copy(rec);
        if (status == CRAWL_KNOWN)
            json_object_set_new(line, "record_status",
                                json_string(w->known_scanned ? "scanned" : "inferred"));
    } else {
        line = json_object();
        set_identity(line, w);
        json_object_set_new(line, "sha256", jsontext_str_or_null(w->sha256));
        json_object_set_new(line, "sass", json_array());
        json_object_set_new(line, "ptx", json_array());
        json_object_set_new(line, "binaries", json_array());
    }
    static const char *const names[] = {"scanned", "inferred", "known", "failed"};
    if (line) {
        json_object_set_new(line, "status", json_string(names[status]));
        json_object_set_new(line, "error", jsontext_str_or_null(error));
    }
    struct crawl_event ev = {status, w->filename, w->url, error, bytes, line};
    switch (status) {
    case CRAWL_SCANNED:
        c->sum->scanned++;
        break;
    case CRAWL_INFERRED:
        c->sum->inferred++;
        break;
    case CRAWL_KNOWN:
        c->sum->known++;
        break;
    case CRAWL_FAILED:
        c->sum->failed++;
        c->sum->failures =
            xrealloc(c->sum->failures, (c->sum->nfailures + 1) * sizeof *c->sum->failures);
        c->sum->failures[c->sum->nfailures].filename = xstrdup(w->filename);
        c->sum->failures[c->sum->nfailures].error = xstrdup(error ? error : "failed");
        c->sum->nfailures++;
        break;
    }
    c->done++;
    if (c->obs && c->obs->event)
        c->obs->event(c->obs->ud, &ev);
    crawli_progress(c, 0);
    json_decref(line);
}

int crawli_infer_rest(struct crawl *c, const struct group *g, const char *source, json_t *from)
{
    struct record src;
    struct wa_error e;
    if (db_get_record(c->db, source, &src, &e) < 0)
        return -1;
    for (size_t i = 0; i < g->n; i++) {
        struct cwheel *w = &c->w[g->wheels[i]];
        if (w->known || w->failed)
            continue;
        struct record_identity id = identity_of(w);
        struct record r;
        int rc = record_of_inferred(&id, &src, c->o->today, &r, &e);
        json_t *rec = rc == 0 ? record_json(&r) : NULL;
        if (rc == 0) {
            char *text = record_text(rec);
            rc = db_write_record(c->db, &r, text, &e);
            free(text);
            record_free(&r);
        }
        if (rc < 0) {
            crawli_emit(c, w, CRAWL_FAILED, NULL, e.msg, 0);
        } else {
            w->known = 1;
            json_t *line = c->lines && from ? crawli_inferred_line(w, rec, from) : NULL;
            crawli_emit(c, w, CRAWL_INFERRED, line ? line : rec, NULL, 0);
            json_decref(line);
        }
        json_decref(rec);
    }
    record_free(&src);
    return 0;
}
