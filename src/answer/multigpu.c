/*
 * multigpu: one recommendation for every GPU of a machine (multigpu.h).
 */
#include "multigpu.h"

#include <stdlib.h>
#include <string.h>

#include "answer_json.h"
#include "dotver.h"
#include "strbuf.h"
#include "vendorindex.h"
#include "xalloc.h"

/* The toolkit version of a row: its CUDA, or the ROCm of "rocm6.4"; ""
 * for none (cpu). */
static const char *toolkit_of(const struct answer_row *x)
{
    if (x->cuda[0])
        return x->cuda;
    if (strncmp(x->row->variant, "rocm", 4) == 0)
        return x->row->variant + 4;
    return "";
}

/* >0 when row a's toolkit is newer than b's. */
static int newer(const struct answer_row *a, const struct answer_row *b)
{
    return dotver_cmp_str(toolkit_of(a), toolkit_of(b));
}

static int runs_on(const struct multigpu_result *m, size_t g, const char *variant)
{
    const struct answer_row *y = answer_row_of(m->res[g], variant);
    return y && y->v.runs;
}

/* An install of row x of the first GPU's answer, when no GPU's own
 * recommendation is that variant. */
static struct answer_install *install_of(const struct dbview *v, const struct answer_result *r0,
                                         const struct answer_row *x)
{
    struct answer_install *in = xcalloc(1, sizeof *in);
    struct dotver d;
    in->row = x->row;
    in->index_url = xstrdup(x->index_url);
    if (dotver_parse(r0->version, &d) == 0 && d.n >= 3)
        snprintf(in->pin, sizeof in->pin, "%s", r0->version);
    else
        snprintf(in->pin, sizeof in->pin, "%s.*", r0->version);
    in->res = x->v.res;
    in->pythons = x->pythons;
    in->reason = xstrdup("");
    answer_commands_make(&in->commands, v->t, r0->project, in->pin, NULL, in->index_url);
    return in;
}

/* Where the install's GPU code comes by an extra per GPU (AMD's whl-next),
 * the extras of every GPU of the machine, once each
 * ("device-gfx1100,device-gfx1201"), and the commands remade with them:
 * one GPU's extra alone would leave the others without code. */
static void machine_extras(const struct dbview *v, const struct multigpu_result *m,
                           struct answer_install *in)
{
    if (!in->row->vendor || !in->row->vendor->gpu_extra)
        return;
    struct strbuf b = STRBUF_INIT;
    char(*each)[64] = xcalloc(m->n ? m->n : 1, sizeof *each); /* each GPU's extra */
    for (size_t g = 0; g < m->n; g++) {
        const struct answer_row *y = answer_row_of(m->res[g], in->row->variant);
        if (!y || !*answer_gpu_extra(y->row, &y->v.res, each[g], sizeof each[g]))
            continue;
        size_t k = 0;
        while (k < g && strcmp(each[k], each[g]) != 0)
            k++;
        if (k == g) /* not an earlier GPU's */
            strbuf_addf(&b, "%s%s", b.len ? "," : "", each[g]);
    }
    free(each);
    if (b.len && b.len < sizeof in->extra) {
        snprintf(in->extra, sizeof in->extra, "%s", strbuf_str(&b));
        answer_commands_free(&in->commands);
        answer_commands_make(&in->commands, v->t, m->res[0]->project, in->pin, in->extra,
                             in->index_url);
    }
    strbuf_free(&b);
}

/* What runs on GPU g as things are, in words: its variant, an older
 * release that runs, none with this driver or this Python (and what
 * would), none that has code for it. */
static void own_answer(const struct multigpu_result *m, size_t g, struct strbuf *b)
{
    const struct answer_result *r = m->res[g];
    const struct answer_change *c0 = r->nchange ? &r->change[0] : NULL;
    const struct answer_install *fb = r->fallback;
    char also[160] = "";
    if (fb)
        snprintf(also, sizeof also, "; %s %s from %s runs", r->project, fb->pin, fb->row->variant);
    if (r->recommendation)
        strbuf_adds(b, r->recommendation->row->variant);
    else if (c0 && c0->kind == ANSWER_CHANGE_DRIVER)
        strbuf_addf(b, "none with this driver (%s %s needs %s or newer%s)", r->project, c0->release,
                    c0->min_driver, also);
    else if (c0 && c0->kind == ANSWER_CHANGE_PYTHON)
        strbuf_addf(b, "none for this Python (%s %s has wheels for Python %s%s%s%s)", r->project,
                    c0->pin, c0->pythons.n ? c0->pythons.v[0] : "?",
                    c0->pythons.n > 1 ? " to " : "",
                    c0->pythons.n > 1 ? c0->pythons.v[c0->pythons.n - 1] : "", also);
    else if (fb)
        strbuf_addf(b, "none of this release (%s %s from %s runs)", r->project, fb->pin,
                    fb->row->variant);
    else if (r->newest_with_code)
        strbuf_addf(b, "none as things are (%s %s has code for it)", r->project,
                    r->newest_with_code->pin);
    else
        strbuf_adds(b, "none has code for it");
}

static struct multigpu_result *answer_at(const struct dbview *v, const struct multigpu_gpu *gpus,
                                         size_t n, int nested, struct wa_error *err);

static int cmp_release_desc(const void *a, const void *b)
{
    return dotver_cmp_str(*(const char *const *)b, *(const char *const *)a);
}

/* When no variant of the asked release runs on every GPU: the newest
 * older release in the data in which one variant runs on all of them. */
static void machine_fallback(const struct dbview *v, struct multigpu_result *m)
{
    const char *rel[128];
    size_t nrel = 0;
    const struct answer_result *r0 = m->res[0];
    for (size_t i = 0; i < v->nrows; i++) {
        const struct dbview_row *r = &v->rows[i];
        if (strcmp(r->project, r0->project) != 0 || strcmp(r->platform, r0->platform) != 0 ||
            dotver_cmp_str(r->release, r0->version) >= 0)
            continue;
        size_t k = 0;
        while (k < nrel && strcmp(rel[k], r->release) != 0)
            k++;
        if (k == nrel && nrel < 128)
            rel[nrel++] = r->release;
    }
    qsort(rel, nrel, sizeof *rel, cmp_release_desc);
    struct multigpu_gpu *at = xcalloc(m->n, sizeof *at);
    for (size_t k = 0; k < nrel && !m->fallback; k++) {
        for (size_t g = 0; g < m->n; g++) {
            at[g] = m->gpus[g];
            at[g].o.version = rel[k];
        }
        struct wa_error err;
        struct multigpu_result *r = answer_at(v, at, m->n, 1, &err);
        if (r && r->recommendation) {
            m->fallback = r->recommendation;
            r->recommendation = NULL;
            free(m->fallback->reason);
            m->fallback->reason =
                xasprintf("%s %s is the newest release with a variant that runs on every GPU of "
                          "this machine as things are (%s)",
                          m->res[0]->project, rel[k], r->reason);
            m->fallback->fallback = 1;
        }
        multigpu_free(r);
    }
    free(at);
}

struct multigpu_result *multigpu_answer(const struct dbview *v, const struct multigpu_gpu *gpus,
                                        size_t n, struct wa_error *err)
{
    return answer_at(v, gpus, n, 0, err);
}

static struct multigpu_result *answer_at(const struct dbview *v, const struct multigpu_gpu *gpus,
                                         size_t n, int nested, struct wa_error *err)
{
    struct multigpu_result *m = xcalloc(1, sizeof *m);
    m->gpus = gpus;
    m->n = n;
    m->res = xcalloc(n ? n : 1, sizeof *m->res);
    for (size_t i = 0; i < n; i++) {
        m->res[i] = query_answer(v, &gpus[i].o, err);
        if (!m->res[i]) {
            multigpu_free(m);
            return NULL;
        }
    }
    const struct answer_result *r0 = m->res[0];
    /* The best variant that runs on every GPU (with the driver and the
     * Python): native on the most of them, then within what the driver
     * supports natively (as query prefers), then the newest toolkit. */
    const char *dcuda = r0->driver_cuda[0] ? r0->driver_cuda : NULL;
    const struct answer_row *best = NULL;
    size_t best_native = 0;
    int best_within = 0;
    for (size_t i = 0; i < r0->nrows; i++) {
        const struct answer_row *x = &r0->rows[i];
        const char *id = x->row->variant;
        size_t native = 0;
        int ok = 1;
        for (size_t g = 0; g < n && ok; g++) {
            const struct answer_row *y = answer_row_of(m->res[g], id);
            ok = y && y->v.runs;
            if (ok && y->v.res.verdict == COMPAT_NATIVE)
                native++;
        }
        if (!ok)
            continue;
        int within = !dcuda || !x->cuda[0] || dotver_cmp_str(x->cuda, dcuda) <= 0;
        if (!best || native > best_native ||
            (native == best_native &&
             (within > best_within || (within == best_within && newer(x, best) > 0)))) {
            best = x;
            best_native = native;
            best_within = within;
        }
    }
    struct strbuf why = STRBUF_INIT;
    if (best) {
        const char *id = best->row->variant;
        for (size_t g = 0; g < n && !m->recommendation; g++) {
            const struct answer_install *own = m->res[g]->recommendation;
            if (own && strcmp(own->row->variant, id) == 0) {
                m->recommendation = xmalloc(sizeof *m->recommendation);
                answer_install_copy(m->recommendation, own);
            }
        }
        if (!m->recommendation)
            m->recommendation = install_of(v, r0, best);
        machine_extras(v, m, m->recommendation);
        /* JIT on one GPU makes the machine's verdict JIT */
        if (best_native < n)
            m->recommendation->res.verdict = COMPAT_PTX_JIT;
        /* Who decided: the GPU that rules out the newest variant better
         * than the one chosen. */
        const struct answer_row *ruled = NULL;
        for (size_t i = 0; i < r0->nrows; i++) {
            const struct answer_row *x = &r0->rows[i];
            if (newer(x, best) > 0 && (!ruled || newer(x, ruled) > 0))
                for (size_t g = 0; g < n; g++)
                    if (!runs_on(m, g, x->row->variant)) {
                        ruled = x;
                        break;
                    }
        }
        strbuf_addf(&why,
                    "%s has %s code for every GPU of this machine, the newest %s among such%s", id,
                    best_native == n ? "native" : "native or PTX",
                    strncmp(id, "rocm", 4) == 0 ? "ROCm" : "CUDA",
                    dcuda ? " that this driver supports natively" : "");
        if (ruled) {
            const char *rid = ruled->row->variant;
            for (size_t g = 0; g < n && !m->decided_by; g++) {
                const struct answer_row *y = answer_row_of(m->res[g], rid);
                if (!y || !y->v.runs) {
                    m->decided_by = gpus[g].label;
                    strbuf_addf(&why, "; %s decided it (%s: %s)", m->decided_by, rid,
                                y ? y->v.res.reason : "no code for it");
                }
            }
        }
    } else {
        strbuf_addf(&why, "no variant of %s %s runs on every GPU of this machine:", r0->project,
                    r0->version);
        for (size_t g = 0; g < n; g++) {
            strbuf_addf(&why, "%s %s: ", g ? ";" : "", gpus[g].label);
            own_answer(m, g, &why);
        }
        strbuf_adds(&why, " (--gpu-index N answers for one GPU)");
    }
    m->reason = strbuf_detach(&why, NULL);
    if (!best && !nested) {
        machine_fallback(v, m);
        if (!m->fallback) {
            char *r = xasprintf("%s; no older release in the data has a variant that runs on every "
                                "GPU either",
                                m->reason);
            free(m->reason);
            m->reason = r;
        }
    }
    return m;
}

void multigpu_free(struct multigpu_result *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        answer_free(m->res[i]);
    free(m->res);
    if (m->recommendation) {
        answer_install_free(m->recommendation);
        free(m->recommendation);
    }
    if (m->fallback) {
        answer_install_free(m->fallback);
        free(m->fallback);
    }
    free(m->reason);
    free(m);
}

json_t *multigpu_json(const struct multigpu_result *m)
{
    const struct answer_result *r0 = m->res[0];
    json_t *first = answer_json(r0);
    json_t *out = json_object();
    json_object_set_new(out, "schema_version", json_integer(QUERY_SCHEMA_VERSION));
    json_object_set_new(out, "project", json_string(r0->project));
    json_object_set_new(out, "version", json_string(r0->version));
    json_object_set_new(out, "platform", json_string(r0->platform));
    json_object_set(out, "driver", json_object_get(first, "driver"));
    json_object_set(out, "python", json_object_get(first, "python"));
    json_t *list = json_array();
    for (size_t g = 0; g < m->n; g++) {
        json_t *e = json_object();
        json_object_set_new(e, "label", json_string(m->gpus[g].label));
        json_object_set_new(e, "count", json_integer((json_int_t)m->gpus[g].count));
        json_object_set_new(e, "result", g ? answer_json(m->res[g]) : json_incref(first));
        json_array_append_new(list, e);
    }
    json_object_set_new(out, "gpus", list);
    json_object_set_new(out, "recommendation",
                        m->recommendation ? answer_install_json(r0, m->recommendation)
                                          : json_null());
    json_object_set_new(out, "fallback",
                        m->fallback ? answer_install_json(r0, m->fallback) : json_null());
    json_object_set_new(out, "decided_by",
                        m->decided_by ? json_string(m->decided_by) : json_null());
    json_object_set_new(out, "reason", json_string(m->reason));
    /* what to change, per GPU whose own answer needs it */
    json_t *change = json_array();
    if (!m->recommendation)
        for (size_t g = 0; g < m->n; g++)
            for (size_t k = 0; k < m->res[g]->nchange; k++) {
                json_t *y = answer_change_json(&m->res[g]->change[k]);
                json_object_set_new(y, "gpu", json_string(m->gpus[g].label));
                json_array_append_new(change, y);
            }
    json_object_set_new(out, "change", change);
    json_decref(first);
    return out;
}

json_t *multigpu_run(const struct dbview *v, const struct multigpu_gpu *gpus, size_t n,
                     struct wa_error *err)
{
    struct multigpu_result *m = multigpu_answer(v, gpus, n, err);
    if (!m)
        return NULL;
    json_t *j = multigpu_json(m);
    multigpu_free(m);
    return j;
}
