/*
 * dbview_read: the wheels and builds the database holds, read into the
 * view's rows (ids checked again, strings pooled).
 */
#include "dbview_code.h"
#include "dbview_state.h"
#include "dbview_row.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "db_indexes.h"
#include "db_records.h"
#include "wheelkey.h"
#include "recordcheck.h"
#include "recqueue.h"
#include "record.h"
#include "strbuf.h"
#include "strmap.h"
#include "strpool.h"
#include "vendorindex.h"
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

static int put_registered(void *ud, const char *id, const char *url)
{
    (void)id;
    strmap_put(ud, url, 1);
    return 0;
}

int dbvi_index_trust_load(struct reading *x, struct db *db, struct wa_error *err)
{
    x->index_trust = strmap_new();
    return db_each_index(db, put_registered, x->index_trust, err);
}

const char *dbvi_index_wrong(struct reading *x, const char *url, char *buf, size_t n)
{
    if (!url)
        return NULL;
    size_t ok;
    if (!strmap_get(x->index_trust, url, &ok)) {
        /* not registered as it is: the declared form of any id */
        ok = db_index_declared(NULL, url);
        strmap_put(x->index_trust, url, ok);
    }
    if (ok)
        return NULL;
    db_index_untrusted_text(NULL, url, buf, n);
    return buf;
}

int dbvi_read_wheel(void *ud, const struct record_row *w, struct wa_error *err)
{
    struct reading *x = ud;
    struct dbview *v = x->v;
    char trust[900];
    const char *why = ids_wrong(w->key, w->project, w->variant, w->version, w->platform, w->status);
    if (!why)
        why = dbvi_index_wrong(x, w->index_url, trust, sizeof trust);
    if (!why && w->binaries_wrong)
        why = w->binaries_wrong; /* an edit by hand */
    /* the whole record of a wheel with binaries, for on_record */
    struct record full = {0};
    int have_full = 0;
    if (!why && w->binaries && x->on_record) {
        if (record_of_row(w, &full) < 0)
            why = "the file name or the target unions do not parse";
        else
            have_full = 1;
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
        recbinaries_free(&r->binaries);
        free(r->source_key);
        r->source_key = NULL;
        free(r->requires);
        r->requires = xstrdup_or_null(w->requires);
        if (st == VIEW_INFERRED && !w->code && w->inferred_from) {
            /* A compact inferred record: the code is its source's. */
            r->source_key = xstrdup(w->inferred_from);
        } else {
            dbview_row_apply_code(r, w->code);
            if (w->binaries)
                dbvi_own_binaries(w->binaries, &r->binaries);
        }
        r->status = st;
        free(r->wheelarch_version);
        r->wheelarch_version = w->wheelarch_version ? xstrdup(w->wheelarch_version) : NULL;
        free(r->index_url);
        r->index_url = w->index_url ? xstrdup(w->index_url) : NULL;
    }
    if (!have_full)
        return 0;
    full.binaries = *w->binaries; /* taken */
    memset(w->binaries, 0, sizeof *w->binaries);
    if (x->rq)
        return recqueue_put(x->rq, &full, err); /* it takes the record */
    return x->on_record(x->ud, 0, &full, err);  /* it takes the record */
}

/* The project asked about, a GPU library it may pin, or a package one of
 * its vendor builds takes its GPU code from (amd-torch-device-gfx1100 for
 * torch; vendorindex.h) (or any, when none was asked about). */
static int project_read(const struct reading *x, const char *project)
{
    return !x->project || strcmp(x->project, project) == 0 ||
           tables_gpu_library(x->v->t, project) ||
           vendorindex_gpu_package(x->v->t, x->project, project);
}

/* Whether dbvi_read_build makes a row of b, and so reads the file names
 * of its wheels: a project read, on the platform asked about; others
 * count only their version, or nothing. */
int dbvi_build_wants_files(void *ud, const struct db_build *b)
{
    const struct reading *x = ud;
    return project_read(x, b->project) && (!x->platform || strcmp(x->platform, b->platform) == 0);
}

/* One group of the database (builds) into a row of its own: the view
 * without wheels that query reads. */
int dbvi_read_build(void *ud, const struct db_build *b, struct wa_error *err)
{
    (void)err;
    struct reading *x = ud;
    struct dbview *v = x->v;
    char trust[900];
    const char *why =
        ids_wrong(b->best, b->project, b->variant, b->version, b->platform, b->status);
    if (!why)
        why = dbvi_index_wrong(x, b->index_url, trust, sizeof trust);
    if (why) {
        dbvi_skip(v, x->skip_cap, x->dbpath, b->best, why);
        return 0;
    }
    /* another project: not asked about, unless a GPU library it may pin */
    if (!project_read(x, b->project))
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
    r->requires = xstrdup_or_null(b->requires);
    /* the wheels' file names alone: which Pythons the build has wheels
     * for is the answer engine's to judge, as from the whole view */
    for (const char *f = b->filenames; f && *f;) {
        size_t n = strcspn(f, "\n");
        r->wheels = xgrow(r->wheels, &r->capwheels, r->nwheels + 1, sizeof *r->wheels);
        struct record_wheel *w = &r->wheels[r->nwheels++];
        memset(w, 0, sizeof *w);
        w->filename = xstrndup(f, n);
        w->url = xstrdup("");
        w->key = xstrdup("");
        w->size = -1;
        w->sha256_verified = -1;
        f += n + (f[n] == '\n');
    }
    return 0;
}
