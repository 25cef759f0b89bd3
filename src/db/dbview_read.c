/*
 * dbview_read: the wheels and builds the database holds, read into the
 * view's rows (ids checked again, strings pooled).
 */
#include "dbview_impl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "db.h"
#include "jsontext.h"
#include "wheelkey.h"
#include "fsutil.h"
#include "recordcheck.h"
#include "recqueue.h"
#include "record.h"
#include "strbuf.h"
#include "observed.h"
#include "strmap.h"
#include "strpool.h"
#include "wheelmeta.h"
#include "xalloc.h"

/* Why a row read from the database cannot be used, or NULL.  Records
 * were checked when they were stored; the fields that become ids and
 * paths are checked again, so a hand-edited database cannot reach the
 * pages with them. */
static const char *ids_wrong(const char *key, const char *project, const char *variant,
                             const char *version, const char *platform, const char *status)
{
    if (!key || !wheelkey_valid(key))
        return "the key is not a record key";
    if (!project || !recordcheck_project_valid(project))
        return "the project is not a normalized project name";
    if (!variant || !recordcheck_variant_valid(variant))
        return "the variant is not a variant id";
    if (!version || !platform || !status)
        return "a required field is missing";
    return NULL;
}

/* Replaces each string of w by a copy in sp, side by side. */
static void pool_wheel_strings(struct strpool *sp, struct record_wheel *w)
{
    char **fields[] = {&w->filename,     &w->url,        &w->key,           &w->sha256,
                       &w->upload_time,  &w->scanned_at, &w->inferred_from, &w->requires_python,
                       &w->yanked_reason};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        *fields[i] = strpool_dup(sp, *fields[i]);
    w->pooled = 1;
}

void dbvi_compact_strings(struct dbview *v)
{
    if (!v->strings)
        return;
    struct strpool *sp = strpool_new();
    for (size_t r = 0; r < v->nrows; r++)
        for (size_t k = 0; k < v->rows[r].nwheels; k++)
            if (v->rows[r].wheels[k].pooled)
                pool_wheel_strings(sp, &v->rows[r].wheels[k]);
    strpool_free(v->strings);
    v->strings = sp;
}

/* Whether to read a wheel: not when it is an older nightly than the view
 * keeps (then its record is not even fetched). */
int dbvi_want_wheel(void *ud, const char *project, const char *version)
{
    struct reading *x = ud;
    /* a nightly's version has "dev" (any case): most are not parsed */
    if (!x->dropped || !project || !version || !strpbrk(version, "dD") ||
        !dbview_is_nightly(version))
        return 1;
    strbuf_set_joined(&x->gk, '|', project, version, (char *)NULL); /* as dropped_nightlies */
    size_t one;
    return !strmap_get(x->dropped, x->gk.buf, &one);
}

static char *opt_dup(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

int dbvi_read_wheel(void *ud, const struct db_wheel *w, struct wa_error *err)
{
    struct reading *x = ud;
    struct dbview *v = x->v;
    const char *why = ids_wrong(w->key, w->project, w->variant, w->version, w->platform, w->status);
    json_t *rec = NULL;
    struct record full = {0}; /* the whole record: scanned wheels only */
    struct wa_error e;
    long tag = -1; /* with x->rq: the row whose binaries this record gives */
    if (!why && w->record && !x->rq) {
        json_error_t je;
        json_t *parsed = NULL;
        if (recordcheck_text(w->record, strlen(w->record), &e) < 0) /* an edit by hand */
            why = e.msg;
        else if (!(parsed = jsontext_loads(w->record, JSON_REJECT_DUPLICATES, &je)))
            why = "the record is not JSON";
        else if (record_read(w->key, parsed, &full, &e) < 0)
            why = e.msg;
        else
            rec = full.scan;
        json_decref(parsed);
    }
    if (why) {
        dbvi_skip(v, x->skip_cap, x->dbpath, w->key, why);
        return 0;
    }
    v->records++;
    int st = strcmp(w->status, "scanned") == 0 ? VIEW_VERIFIED : VIEW_INFERRED;
    struct strbuf *gk = &x->gk;
    strbuf_set_joined(gk, '|', w->project, w->version, w->variant, w->platform, (char *)NULL);
    size_t at;
    struct dbview_row *r;
    if (!strmap_get(x->by_key, gk->buf, &at)) {
        r = dbvi_new_row(v, x->cap, w->project, w->version, NULL, w->variant, w->platform,
                         VIEW_DECLARED + 1 /* nothing yet */);
        strmap_put(x->by_key, gk->buf, v->nrows - 1);
    } else {
        r = &v->rows[at];
    }
    r->wheels = xgrow(r->wheels, &r->capwheels, r->nwheels + 1, sizeof *r->wheels);
    struct record_wheel *line = &r->wheels[r->nwheels++];
    if (!v->strings)
        v->strings = strpool_new();
    /* the database's strings (borrowed for a moment: pool_wheel_strings
     * puts copies in their place, side by side in the view's pool) */
    *line = (struct record_wheel){
        .filename = (char *)(w->filename ? w->filename : ""),
        .url = (char *)(w->url ? w->url : ""),
        .key = (char *)w->key,
        .sha256 = (char *)w->sha256,
        .scanned = st == VIEW_VERIFIED,
        .upload_time = (char *)w->upload_time,
        .scanned_at = (char *)w->scanned_at,
        .inferred_from = (char *)w->inferred_from,
        .requires_python = (char *)w->requires_python,
        .size = w->size,
        .sha256_verified = w->sha256_verified,
        .yanked = w->yanked,
        .yanked_reason = (char *)w->yanked_reason,
    };
    pool_wheel_strings(v->strings, line);
    dbvi_newer(&r->scanned_at, w->scanned_at);
    dbvi_newer(&v->data_date, w->scanned_at);
    if (st < r->status) {
        /* A better source for the GPU code: verified beats inferred. */
        compat_code_free(&r->code);
        free(r->sass);
        free(r->ptx);
        free(r->gfx);
        r->sass = r->ptx = r->gfx = NULL;
        r->nsass = r->nptx = r->ngfx = 0;
        free(r->binaries);
        r->binaries = NULL;
        free(r->source_key);
        r->source_key = NULL;
        free(r->requires);
        r->requires = opt_dup(w->requires);
        if (st == VIEW_INFERRED && !w->code && w->inferred_from) {
            /* A compact inferred record: the code is its source's. */
            r->source_key = xstrdup(w->inferred_from);
        } else {
            dbview_row_apply_code(r, w->code);
            if (rec)
                r->binaries = dbvi_binaries_of(rec);
            else if (x->rq && w->record)
                tag = (long)(r - v->rows);
        }
        if (x->rq) {
            /* binaries only from this wheel's record, if it has one */
            x->want = xgrow(x->want, &x->capwant, v->nrows, sizeof *x->want);
            while (x->nwant < v->nrows)
                x->want[x->nwant++] = 0;
            x->want[r - v->rows] = 0;
        }
        r->status = st;
        free(r->wheelarch_version);
        r->wheelarch_version = w->wheelarch_version ? xstrdup(w->wheelarch_version) : NULL;
        free(r->index_url);
        r->index_url = w->index_url ? xstrdup(w->index_url) : NULL;
    }
    if (x->rq && w->record) {
        unsigned long seq;
        int qrc = recqueue_put(x->rq, w->key, w->record, tag, &seq, err);
        if (tag >= 0)
            x->want[tag] = seq;
        return qrc;
    }
    if (rec && x->on_record)
        return x->on_record(x->ud, 0, &full, err); /* it takes the record */
    record_free(&full);
    return 0;
}

/* One group of the database (builds) into a row of its own: the view
 * without wheels that query reads. */
int dbvi_read_build(void *ud, const struct db_build *b, struct wa_error *err)
{
    (void)err;
    struct reading *x = ud;
    struct dbview *v = x->v;
    const char *why =
        ids_wrong(b->best, b->project, b->variant, b->version, b->platform, b->status);
    if (why) {
        dbvi_skip(v, x->skip_cap, x->dbpath, b->best, why);
        return 0;
    }
    /* another project: not asked about, unless a GPU library it may pin */
    if (x->project && strcmp(x->project, b->project) != 0 && !tables_gpu_library(v->t, b->project))
        return 0;
    if (x->platform && strcmp(x->platform, b->platform) != 0) {
        /* Another platform: only its version counts (declared rows of a
         * release show under its newest crawled version, see build_view). */
        v->elsewhere++;
        if (x->ew_project && strcmp(x->ew_project, b->project) == 0 &&
            strcmp(x->ew_version, b->version) == 0)
            return 0;
        free(x->ew_project);
        free(x->ew_version);
        x->ew_project = xstrdup(b->project);
        x->ew_version = xstrdup(b->version);
        char *release = dotver_release(b->version), pk[512];
        dbvi_decl_key(pk, sizeof pk, b->project, release, "", "");
        free(release);
        size_t at;
        if (!strmap_get(x->elsewhere, pk, &at)) {
            x->ew_versions = xgrow(x->ew_versions, &x->capew, x->new + 1, sizeof *x->ew_versions);
            x->ew_versions[x->new] = xstrdup(b->version);
            strmap_put(x->elsewhere, pk, x->new ++);
        } else if (dotver_cmp_str(b->version, x->ew_versions[at]) > 0) {
            free(x->ew_versions[at]);
            x->ew_versions[at] = xstrdup(b->version);
        }
        return 0;
    }
    struct dbview_row *r =
        dbvi_new_row(v, x->cap, b->project, b->version, NULL, b->variant, b->platform,
                     strcmp(b->status, "scanned") == 0 ? VIEW_VERIFIED : VIEW_INFERRED);
    dbvi_newer(&r->scanned_at, b->scanned_at);
    dbvi_newer(&v->data_date, b->scanned_at);
    if (r->status == VIEW_INFERRED && !b->code && b->inferred_from)
        r->source_key = xstrdup(b->inferred_from);
    else
        dbview_row_apply_code(r, b->code);
    r->wheelarch_version = b->wheelarch_version ? xstrdup(b->wheelarch_version) : NULL;
    r->index_url = b->index_url ? xstrdup(b->index_url) : NULL;
    r->requires = opt_dup(b->requires);
    return 0;
}
