/*
 * site_feeds: the second thread of a build: the feed documents under
 * api/v1/, the SQLite feed, the PEP 825 variant files and the simple
 * indexes, each written and freed before the next is made.
 */
#include "site_feeds.h"
#include "site_simple.h"

#include <pthread.h>
#include <stdlib.h>

#include "feeddb.h"
#include "pepvariants.h"
#include "strbuf.h"
#include "tmpl_set.h"
#include "workers.h"
#include "xalloc.h"
#include "sitedata_feeds.h"
#include "sitedata_simple.h"
#include "sitedata_types.h"

struct pepfile {
    struct ctx *c;
    struct wa_error *err;
};

static int put_pepvariants(void *ud, const char *file, json_t *doc, json_t *draft)
{
    struct pepfile *pf = ud;
    char *path = xasprintf("api/v1/variants/%s", file);
    int rc = sitei_put_json(pf->c, path, doc, pf->err);
    free(path);
    if (rc == 0) {
        path = xasprintf("api/v1/variants/%s/%s", PEPVARIANTS_DRAFT_DIR, file);
        rc = sitei_put_json(pf->c, path, draft, pf->err);
        free(path);
    }
    return rc;
}

static int feed_step(struct ctx *c, struct sitedata *d, enum feed_step step, struct wa_error *err)
{
    int rc = 0;
    switch (step) {
    case FEED_SIMPLE:
        sitedata_build_simple(d);
        return sitei_simple(c, d, err);
    case FEED_MATRIX_JSON: {
        struct strbuf m = STRBUF_INIT;
        sitedata_matrix_json(d, &m);
        rc = sitei_put(c, "api/v1/matrix.json", m.buf ? m.buf : "", m.len, err);
        strbuf_free(&m);
        return rc;
    }
    case FEED_SQLITE: {
        unsigned char *db;
        size_t n;
        rc = feeddb_make(d, &db, &n, err);
        if (rc == 0)
            rc = sitei_put(c, "api/v1/wheelarch.sqlite", (const char *)db, n, err);
        free(db);
        return rc;
    }
    case FEED_VARIANTS:
        d->variants = sitedata_build_variants(d);
        rc = sitei_put_json(c, "api/v1/variants.json", d->variants, err);
        json_decref(d->variants);
        d->variants = NULL;
        return rc;
    case FEED_INDEX_TABLE: {
        struct strbuf it = STRBUF_INIT;
        sitedata_index_table_json(d, &it);
        rc = sitei_put(c, "api/v1/index-table.json", it.buf ? it.buf : "", it.len, err);
        strbuf_free(&it);
        return rc;
    }
    case FEED_PEP: {
        /* PEP 825 index metadata per (project, version), and their list */
        struct pepfile pf = {c, err};
        json_t *vindex = NULL;
        rc = pepvariants_each(d->v, d->t, put_pepvariants, &pf, &vindex);
        if (rc == 0)
            rc = sitei_put_json(c, "api/v1/variants/index.json", vindex, err);
        json_decref(vindex);
        if (rc == 0) {
            json_t *formats = pepvariants_formats();
            rc = sitei_put_json(c, "api/v1/variants/formats.json", formats, err);
            json_decref(formats);
        }
        return rc;
    }
    case FEED_CSV:
        sitedata_build_csv(d);
        rc = sitei_put(c, "api/v1/matrix.csv", d->csv.buf ? d->csv.buf : "", d->csv.len, err);
        strbuf_free(&d->csv);
        return rc;
    case FEED_SCHEMA: {
        char *file = xasprintf("%s/schema.json", c->o->templates_dir);
        json_error_t je;
        json_t *schema = json_load_file(file, JSON_REJECT_DUPLICATES, &je);
        free(file);
        if (!schema)
            return wa_error_set(err, WA_ERR_FORMAT, "templates/schema.json: line %d: %s", je.line,
                                je.text);
        if (c->base_url[0]) {
            char *id = xasprintf("%s/api/v1/schema.json", c->base_url);
            json_object_set_new(schema, "$id", json_string(id));
            free(id);
        }
        rc = sitei_put_json(c, "api/v1/schema.json", schema, err);
        json_decref(schema);
        return rc;
    }
    default:
        return 0;
    }
}

/* Takes steps until none is left; a failure stops the other thread's too. */
int sitei_feeds_work(struct feed_steps *fs, struct ctx *c, struct sitedata *d, struct wa_error *err)
{
    for (;;) {
        pthread_mutex_lock(&fs->mu);
        int step = fs->next < FEED_STEPS ? fs->next++ : -1;
        pthread_mutex_unlock(&fs->mu);
        if (step < 0)
            return 0;
        int rc = feed_step(c, d, (enum feed_step)step, err);
        if (rc < 0) {
            pthread_mutex_lock(&fs->mu);
            fs->next = FEED_STEPS;
            pthread_mutex_unlock(&fs->mu);
            return rc;
        }
    }
}

static void feeds_run(void *arg)
{
    struct feeds_job *j = arg;
    j->rc = sitei_feeds_work(&j->steps, &j->c, j->d, &j->err);
    if (j->rc == 0)
        j->rc = sitei_release_pages(&j->c, j->d, &j->releases, &j->err);
}

void sitei_feeds_start(struct feeds_job *j, const struct ctx *c, struct sitedata *d)
{
    sitei_ctx_for_thread(&j->c, c); /* its pages left out join the main list after */
    j->d = d;
    pthread_mutex_init(&j->steps.mu, NULL);
    j->steps.next = 0;
    pthread_mutex_init(&j->releases.mu, NULL);
    j->releases.next = 0;
    workers_spawn(&j->task, feeds_run, j);
}

/* Takes the feeds' steps left (on c's thread, with helper's templates and
 * lists), waits for the feeds' thread; returns rc, or the first error of
 * the steps when rc is 0. */
int sitei_feeds_join(struct feeds_job *j, struct ctx *helper, int rc, struct wa_error *err)
{
    struct wa_error mine;
    int mrc = 0;
    if (rc == 0)
        mrc = sitei_feeds_work(&j->steps, helper, j->d, &mine);
    else { /* stop the feeds' thread at its next step or page */
        pthread_mutex_lock(&j->steps.mu);
        j->steps.next = FEED_STEPS;
        pthread_mutex_unlock(&j->steps.mu);
        pthread_mutex_lock(&j->releases.mu);
        j->releases.next = j->d->v->nrows + 1;
        pthread_mutex_unlock(&j->releases.mu);
    }
    workers_join(&j->task);
    pthread_mutex_destroy(&j->steps.mu);
    pthread_mutex_destroy(&j->releases.mu);
    tmpl_set_free(j->c.tmpls);
    j->c.tmpls = NULL;
    strbuf_free(&j->c.page);
    rc = sitei_first_error(rc, err, mrc, &mine);
    return sitei_first_error(rc, err, j->rc, &j->err);
}
