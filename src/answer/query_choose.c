/*
 * query_choose: the context of one query (its rows, verdicts and Pythons)
 * and the choice within a release: which row runs, its pin, its install
 * command and why it was chosen.
 */
#include "query_state.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "compat.h"
#include "strbuf.h"
#include "vendorindex.h"
#include "verdict.h"
#include "xalloc.h"

void qi_judge_one(const struct qctx *c, const struct dbview_row *r, int has_driver,
                  const struct dotver *driver, struct compat_result *res)
{
    struct compat_query q;
    memset(&q, 0, sizeof q);
    q.cc = c->o->cc;
    q.xnack = c->o->xnack;
    q.has_driver = has_driver;
    q.os = c->os;
    if (has_driver)
        q.driver = *driver;
    compat_judge(c->v->t, &q, &r->code, &r->cuda, res);
}

/* Row i judged with a driver: its class's verdict for that driver. */
const struct compat_result *qi_judge_driver(const struct qctx *c, size_t i,
                                            const struct dotver *driver)
{
    struct driver_memo *m = c->memo;
    if (!m->set || !dotver_same(&m->driver, driver)) {
        m->set = 1;
        m->driver = *driver;
        if (++m->gen == 0) { /* wrapped: forget everything */
            memset(m->gen_of, 0, (c->ncls ? c->ncls : 1) * sizeof *m->gen_of);
            m->gen = 1;
        }
    }
    size_t k = c->cls[i];
    if (m->gen_of[k] != m->gen) {
        qi_judge_one(c, c->rows[c->first[k]], 1, driver, &m->res[k]);
        m->gen_of[k] = m->gen;
    }
    return &m->res[k]; /* valid until another driver is asked */
}

/* Whether row r has a wheel for each of n Pythons (out[k]: 1, 0, or -1
 * when nothing says): from its wheels' tags when the view holds them (each
 * file name parsed once), else from the release's supported versions in
 * the data. */
void qi_row_pythons(const struct qctx *c, const struct dbview_row *r,
                    const struct query_python *pys, size_t n, signed char *out)
{
    const struct query_options *o = c->o;
    size_t left = n; /* Pythons not yet known to fit */
    for (size_t k = 0; k < n; k++)
        out[k] = -1;
    const struct query_order *q = o->order;
    if (q && q->pyknown[r - c->v->rows]) { /* the wheels read once for every query */
        uint64_t m = q->pymask[r - c->v->rows];
        size_t k = 0;
        while (k < n && qi_pymask_bit(pys[k].python, pys[k].free_threaded) >= 0)
            k++;
        if (k == n) { /* else a Python past the mask: the wheels are read */
            for (k = 0; k < n; k++)
                out[k] =
                    (signed char)((m >> qi_pymask_bit(pys[k].python, pys[k].free_threaded)) & 1);
            left = 0;
        }
    }
    for (size_t i = 0; i < r->nwheels && left; i++) {
        struct wheel_py wp;
        if (qi_wheel_py_of(r->wheels[i].filename, &wp) < 0)
            continue;
        for (size_t k = 0; k < n; k++)
            if (out[k] != 1) {
                out[k] = (signed char)qi_wheel_fits(&wp, pys[k].python, pys[k].free_threaded);
                left -= out[k] == 1;
            }
    }
    /* the version its command will pin (set_pin): an exact version asked
     * for; "X.Y.0" for a declared list a later patch changed; else the
     * whole release of a declared row */
    struct dotver d;
    const char *ver = r->version;
    char buf[64];
    int whole = qi_declared_whole(r);
    if (o->version && dotver_parse(o->version, &d) == 0 && d.n >= 3) {
        char *rel = dotver_release(o->version);
        if (strcmp(rel, r->release) == 0) {
            ver = o->version;
            whole = 0;
        }
        free(rel);
    }
    int later = -1; /* later_patch, asked once */
    for (size_t k = 0; k < n; k++) {
        if (out[k] >= 0)
            continue;
        if (whole && later < 0)
            later = qi_later_patch(c, r);
        if (whole && later) {
            snprintf(buf, sizeof buf, "%s.0", r->version);
            ver = buf;
            whole = 0;
        }
        out[k] = (signed char)tables_python_has(c->v->t, r->project, ver, r->platform, r->variant,
                                                whole, pys[k].python, pys[k].free_threaded);
    }
}

/* c->rel_py from c->py. */
void qi_set_rel_py(struct qctx *c)
{
    if (!c->rel_py)
        c->rel_py = xmalloc(c->nrel ? c->nrel : 1);
    for (size_t k = 0; k < c->nrel; k++) {
        c->rel_py[k] = 0;
        for (size_t i = c->rel_start[k]; i < c->rel_start[k + 1] && !c->rel_py[k]; i++)
            c->rel_py[k] = c->py[i] != 0;
    }
}

void qi_qctx_init(struct qctx *c, const struct dbview *v, const struct query_options *o)
{
    memset(c, 0, sizeof *c);
    c->v = v;
    c->o = o;
    c->os = tables_platform_os(o->platform);
    c->amd = o->cc >= TABLES_AMD_MIN;
    /* Nightlies and other pre-releases answer only when their release is
     * asked for: the default answer, the fallback to an older release,
     * the driver table and the newest release per variant are releases
     * (pip takes a pre-release only with --pre, and a nightly index is
     * not what someone fixing "no kernel image" should be sent to). */
    char *asked = o->version ? dotver_release(o->version) : NULL;
    size_t nread = v->nrows;
    const size_t *read = NULL, *read_cls = NULL; /* with an order: its list, its classes */
    if (o->order) {
        long l = qi_order_list(o->order, o->project, o->platform);
        nread = 0; /* no rows of the project on the platform: none to read */
        if (l >= 0) {
            nread = o->order->nrows[l];
            read = o->order->rows[l];
            read_cls = o->order->cls[l];
            c->ncls = o->order->ncls[l];
            c->cls = xmalloc((nread ? nread : 1) * sizeof *c->cls);
        }
    }
    for (size_t i = 0; i < nread; i++) {
        const struct dbview_row *r = &v->rows[read ? read[i] : i];
        /* an order's list holds only the project's rows on the platform */
        if ((!read &&
             (strcmp(r->project, o->project) != 0 || strcmp(r->platform, o->platform) != 0)) ||
            !qi_row_fits(r, o->cc))
            continue;
        /* a pre-release has a letter (dev, a, b, rc): most versions are
         * not parsed here at all */
        struct dotver rv;
        if (strpbrk(r->version, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") &&
            dotver_parse(r->version, &rv) == 0 && rv.pre && !(asked && !strcmp(r->release, asked)))
            continue;
        if (c->n % 64 == 0)
            c->rows = xrealloc(c->rows, (c->n + 64) * sizeof *c->rows);
        if (read_cls)
            c->cls[c->n] = read_cls[i];
        c->rows[c->n++] = r;
    }
    free(asked);
    if (!o->order) /* rows of one project and platform: no two tie */
        qi_sort_rows(c->rows, c->n);
    c->plain = xmalloc((c->n ? c->n : 1) * sizeof *c->plain);
    c->releases = xcalloc(c->n + 1, sizeof *c->releases);
    c->rel_start = xcalloc(c->n + 1, sizeof *c->rel_start);
    /* The classes (the order's, or made here); without the caller's
     * verdicts, each class is judged once, by its first row read. */
    if (read_cls) {
        c->first = xmalloc((c->ncls ? c->ncls : 1) * sizeof *c->first);
        for (size_t k = 0; k < c->ncls; k++)
            c->first[k] = SIZE_MAX; /* a class none of whose rows is read */
        for (size_t i = 0; i < c->n; i++)
            if (c->first[c->cls[i]] == SIZE_MAX)
                c->first[c->cls[i]] = i;
    } else {
        c->cls = xmalloc((c->n ? c->n : 1) * sizeof *c->cls);
        c->first = xmalloc((c->n ? c->n : 1) * sizeof *c->first);
        c->ncls = dbview_row_classes(c->rows, c->n, c->cls, c->first);
    }
    if (!o->judged)
        c->own = xmalloc((c->ncls ? c->ncls : 1) * sizeof *c->own);
    for (size_t i = 0; i < c->n; i++) {
        const struct dbview_row *r = c->rows[i];
        if (o->judged) {
            c->plain[i] = &o->judged[o->judged_index[r - v->rows]];
        } else {
            if (c->first[c->cls[i]] == i)
                qi_judge_one(c, r, 0, NULL, &c->own[c->cls[i]]);
            c->plain[i] = &c->own[c->cls[i]];
        }
        if (i == 0 || strcmp(c->rows[i]->release, c->rows[i - 1]->release) != 0) {
            c->releases[c->nrel] = c->rows[i]->release;
            c->rel_start[c->nrel++] = i;
        }
    }
    c->memo = xcalloc(1, sizeof *c->memo);
    c->memo->gen_of = xcalloc(c->ncls ? c->ncls : 1, sizeof *c->memo->gen_of);
    c->memo->res = xmalloc((c->ncls ? c->ncls : 1) * sizeof *c->memo->res);
    c->rel_start[c->nrel] = c->n;
    /* after the releases: a row's pin depends on its release's patches */
    if (o->has_python) {
        c->py = xmalloc(c->n ? c->n : 1);
        for (size_t i = 0; i < c->n; i++)
            qi_row_pythons(c, c->rows[i],
                           &(struct query_python){o->python, o->python_free_threaded}, 1,
                           &c->py[i]);
        qi_set_rel_py(c);
    }
}

void qi_qctx_free(struct qctx *c)
{
    free(c->cls);
    free(c->first);
    if (c->memo) {
        free(c->memo->gen_of);
        free(c->memo->res);
        free(c->memo);
    }
    free(c->py);
    free(c->rel_py);
    free(c->rows);
    free(c->plain);
    free(c->own);
    free(c->releases);
    free(c->rel_start);
}

/* The rows of release k, one per variant: the first (best) row of each
 * variant whose version fits `exact` (NULL: any; a crawled row must be that
 * version, a declared row must not be a later patch).  Writes indexes into
 * c->rows. */
size_t qi_pick(const struct qctx *c, size_t k, const char *exact, size_t *out, size_t max)
{
    size_t n = 0;
    for (size_t i = c->rel_start[k]; i < c->rel_start[k + 1]; i++) {
        const struct dbview_row *r = c->rows[i];
        if (exact && (r->status == VIEW_DECLARED ? dotver_cmp_str(r->version, exact) > 0
                                                 : strcmp(r->version, exact) != 0))
            continue;
        if (exact && r->status == VIEW_DECLARED) {
            /* a variant published for another patch only (2.9.0's Windows
             * cu129): not for this version */
            const struct release_info *ri =
                tables_release_at(c->v->t, r->project, exact, r->platform);
            if (ri && ri->covered && !tables_release_has(ri, r->variant))
                continue;
        }
        if (n && strcmp(c->rows[out[n - 1]]->variant, r->variant) == 0)
            continue; /* a worse row of a variant already picked */
        if (n < max)
            out[n++] = i;
    }
    return n;
}

/* How well a variant fits a driver: 0 when its CUDA is within what the
 * driver supports natively (or no driver was given), 1 when it relies on
 * minor-version compatibility (runs, with a reduced feature set). */
static int driver_tier(const struct dbview_row *r, const struct toolkit *driver_cuda)
{
    if (!driver_cuda || !r->cuda.n)
        return 0;
    struct dotver mm = driver_cuda->cuda;
    mm.n = 2;
    return dotver_cmp(&r->cuda, &mm) > 0;
}

/* Whether a row's code is known only with low confidence: a declared
 * row whose arch list PyTorch's build configuration gives only loosely
 * (docs/answers.md). */
static int low_confidence(const struct dbview_row *r)
{
    const char *conf = dbview_row_confidence(r);
    return r->status == VIEW_DECLARED && conf && strcmp(conf, "low") == 0;
}

/* Whether row i (verdict vi) beats row b (verdict vb) on the verdict, the
 * driver's tier and the CUDA (or ROCm) version, confidence aside. */
static int ahead(const struct dbview_row *ri, int vi, const struct dbview_row *rb, int vb,
                 const struct toolkit *driver_cuda)
{
    if (vi != vb)
        return vi < vb;
    int tb = driver_tier(rb, driver_cuda), ti = driver_tier(ri, driver_cuda);
    int cmp = dotver_cmp(&ri->cuda, &rb->cuda);
    struct dotver x, y;
    if (cmp == 0 && tables_variant_rocm(ri->variant, &x) && tables_variant_rocm(rb->variant, &y))
        cmp = dotver_cmp(&x, &y); /* the newest ROCm */
    return ti < tb || (ti == tb && (ti == 0 ? cmp > 0 : cmp < 0));
}

/* The best of judged rows: native first, then PTX JIT; then a row known
 * with more than low confidence over one known only loosely (a declared
 * arch list PyTorch's configuration gives with low confidence is not the
 * first thing to install when a surer build has the same verdict); then
 * variants the driver supports natively, the newest CUDA (or ROCm) among
 * them; then those that need minor-version compatibility, the oldest CUDA
 * (the least ahead of the driver).  PyTorch's own build goes before a
 * vendor's of the same verdict and confidence (AMD's whl-next beside
 * download.pytorch.org): the vendor's is shown, and chosen where PyTorch
 * has none that runs.  Returns the position in idx or -1; *passed_low: a
 * low-confidence row with the same verdict would have won but for its
 * confidence; *passed_vendor: a vendor's row would have won but for being
 * a vendor's (then the vendor). */
static int best_of(const struct qctx *c, const size_t *idx, const struct compat_result *const *res,
                   size_t n, const struct toolkit *driver_cuda, int python, int *passed_low,
                   const struct vendor_build **passed_vendor)
{
    int best = -1;
    *passed_low = 0;
    *passed_vendor = NULL;
    for (size_t i = 0; i < n; i++) {
        int v = res[i]->verdict;
        if (v != COMPAT_NATIVE && v != COMPAT_PTX_JIT)
            continue;
        if (python && c->py && c->py[idx[i]] == 0)
            continue; /* no wheel for this Python */
        if (best < 0) {
            best = (int)i;
            continue;
        }
        const struct dbview_row *ri = c->rows[idx[i]], *rb = c->rows[idx[best]];
        int vb = res[best]->verdict, li = low_confidence(ri), lb = low_confidence(rb);
        int oi = ri->vendor != NULL, ob = rb->vendor != NULL;
        if (v != vb ? v < vb : li != lb ? lb : oi != ob ? ob : ahead(ri, v, rb, vb, driver_cuda))
            best = (int)i;
    }
    for (size_t i = 0; best >= 0 && i < n && !*passed_vendor; i++) {
        const struct dbview_row *ri = c->rows[idx[i]], *rb = c->rows[idx[best]];
        int v = res[i]->verdict;
        if (ri->vendor && !rb->vendor && v == res[best]->verdict &&
            low_confidence(ri) == low_confidence(rb) && !(python && c->py && c->py[idx[i]] == 0) &&
            ahead(ri, v, rb, res[best]->verdict, driver_cuda))
            *passed_vendor = ri->vendor;
    }
    for (size_t i = 0; best >= 0 && i < n; i++) {
        const struct dbview_row *ri = c->rows[idx[i]], *rb = c->rows[idx[best]];
        int v = res[i]->verdict;
        if (v == res[best]->verdict && low_confidence(ri) && !low_confidence(rb) &&
            !(python && c->py && c->py[idx[i]] == 0) &&
            ahead(ri, v, rb, res[best]->verdict, driver_cuda))
            *passed_low = 1;
    }
    return best;
}

/* Decides within release k (versions fitting exact); returns 1 when a row
 * runs (and, with python, has a wheel for the Python asked about). */
int qi_decide_release(const struct qctx *c, size_t k, const char *exact, int has_driver,
                      const struct dotver *driver, const struct toolkit *dcuda, int python,
                      struct choice *a)
{
    size_t idx[64];
    const struct compat_result *res[64];
    size_t n = qi_pick(c, k, exact, idx, 64);
    for (size_t i = 0; i < n; i++) {
        /* A driver can only make a row that runs fail ("driver too old"),
         * never make one run: rows that do not run without one are not
         * judged again (the search for the last release that runs reads
         * every release). */
        int v = c->plain[idx[i]]->verdict;
        res[i] = has_driver && (v == COMPAT_NATIVE || v == COMPAT_PTX_JIT)
                     ? qi_judge_driver(c, idx[i], driver)
                     : c->plain[idx[i]];
    }
    int passed_low;
    const struct vendor_build *passed_vendor;
    int b = best_of(c, idx, res, n, dcuda, python, &passed_low, &passed_vendor);
    if (b < 0)
        return 0;
    a->row = (long)idx[b];
    a->res = *res[b];
    a->tier = driver_tier(c->rows[idx[b]], dcuda);
    a->passed_low = passed_low;
    a->passed_vendor = passed_vendor;
    return 1;
}

/* The position of a release in c->releases, c->nrel when absent. */
size_t qi_release_index(const struct qctx *c, const char *release)
{
    size_t k = 0;
    while (k < c->nrel && strcmp(c->releases[k], release) != 0)
        k++;
    return k;
}

/* The version requirement: an exact version as given or crawled; a
 * declared list that a later patch changed pins the patch it covers
 * ("1.3" before "1.3.1" -> 1.3.0); else the whole release. */
void qi_set_pin(const struct qctx *c, const char *exact, struct choice *a)
{
    const struct dbview_row *r = c->rows[a->row];
    struct dotver d;
    if (exact && dotver_parse(exact, &d) == 0 && d.n >= 3) {
        snprintf(a->pin, sizeof a->pin, "%s", exact);
        return;
    }
    if (dotver_parse(r->version, &d) == 0 && d.n >= 3) {
        snprintf(a->pin, sizeof a->pin, "%s", r->version);
        return;
    }
    snprintf(a->pin, sizeof a->pin, qi_later_patch(c, r) ? "%s.0" : "%s.*", r->version);
}

/* Whether a later version of row r's release and variant is in the view
 * (a patch that changed its list): r then stands for X.Y.0 only. */
int qi_later_patch(const struct qctx *c, const struct dbview_row *r)
{
    size_t k = qi_release_index(c, r->release);
    for (size_t i = c->rel_start[k]; k < c->nrel && i < c->rel_start[k + 1]; i++)
        if (strcmp(c->rows[i]->variant, r->variant) == 0 &&
            dotver_cmp_str(c->rows[i]->version, r->version) > 0)
            return 1;
    return 0;
}

/* Versions of release k that a declared or crawled row names, newest
 * first (at most max). */
size_t qi_release_versions(const struct qctx *c, size_t k, const char **out, size_t max)
{
    size_t n = 0;
    for (size_t i = c->rel_start[k]; i < c->rel_start[k + 1]; i++) {
        const char *ver = c->rows[i]->version;
        size_t j;
        for (j = 0; j < n; j++)
            if (strcmp(out[j], ver) == 0)
                break;
        if (j == n && n < max)
            out[n++] = ver;
    }
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && dotver_cmp_str(out[j], out[j - 1]) > 0; j--) {
            const char *t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* The answer for release `rk` (and version `exact`), else the newest
 * other release (and within it the newest patch) that runs; with python,
 * only rows with a wheel for the Python asked about. */
void qi_answer_for_py(const struct qctx *c, size_t rk, const char *exact, int has_driver,
                      const struct dotver *driver, int python, struct choice *a)
{
    qi_answer_from(c, rk, exact, has_driver, driver, python, 0, a);
}

/* answer_for_py looking at releases from index `from` on (besides the asked
 * one): a lower driver never runs a newer release than a higher one did. */
const struct toolkit *qi_driver_cuda(const struct qctx *c, int has_driver,
                                     const struct dotver *driver)
{
    const struct arch_support *end = c->amd ? NULL : tables_driver_branch_end(c->v->t, c->o->cc);
    /* a driver of a later branch does not run the GPU: its last one is
     * what it can have */
    if (has_driver && !tables_driver_beyond(end, driver))
        return tables_driver_cuda(c->v->t, driver, c->os);
    return end ? tables_toolkit(c->v->t, &end->last_branch_cuda) : NULL;
}

void qi_answer_from(const struct qctx *c, size_t rk, const char *exact, int has_driver,
                    const struct dotver *driver, int python, size_t from, struct choice *a)
{
    memset(a, 0, sizeof *a);
    a->row = -1;
    const struct toolkit *dcuda = qi_driver_cuda(c, has_driver, driver);
    if (qi_decide_release(c, rk, exact, has_driver, driver, dcuda, python, a)) {
        qi_set_pin(c, exact, a);
        return;
    }
    /* newest first: a newer release, another patch of the asked one (a
     * later patch may have dropped the GPU: 1.3.1 after 1.3.0), an older
     * release */
    for (size_t k = from; k < c->nrel; k++) {
        if (python && c->py && c->rel_py && !c->rel_py[k])
            continue; /* no row of it has a wheel for the Python */
        const char *vers[32];
        size_t nv = qi_release_versions(c, k, vers, 32);
        for (size_t j = 0; j < nv; j++)
            if (!(k == rk && (exact ? strcmp(vers[j], exact) == 0 : j == 0)) &&
                qi_decide_release(c, k, vers[j], has_driver, driver, dcuda, python, a)) {
                a->fallback = 1;
                qi_set_pin(c, j ? vers[j] : NULL, a);
                return;
            }
    }
}

void qi_answer_for(const struct qctx *c, size_t rk, const char *exact, int has_driver,
                   const struct dotver *driver, struct choice *a)
{
    qi_answer_for_py(c, rk, exact, has_driver, driver, 1, a);
}

char *qi_index_url_no_slash(const char *u)
{
    size_t n = strlen(u);
    while (n > 0 && u[n - 1] == '/')
        n--;
    return xstrndup(u, n);
}

void qi_pythons_add(struct answer_pythons *p, uint16_t v, int ft)
{
    if (p->n < ANSWER_PYTHONS_MAX)
        tables_python_format(v, ft, p->v[p->n++], sizeof p->v[0]);
}

/* The Python versions row r's release has wheels for ("3.10", ...,
 * "3.13t"), whole: for a release pin; none when the data does not say. */
void qi_fill_pythons(const struct qctx *c, const struct dbview_row *r, int whole,
                     struct answer_pythons *p)
{
    uint16_t vs[32];
    p->n = 0;
    for (int ft = 0; ft < 2; ft++) {
        size_t n = tables_python_versions(c->v->t, r->project, r->version, r->platform, r->variant,
                                          whole, ft, vs, 32);
        for (size_t i = 0; i < n; i++)
            qi_pythons_add(p, vs[i], ft);
    }
}

/* Whether a pin names a whole release ("2.8.*"). */
int qi_pin_whole(const char *pin)
{
    size_t n = strlen(pin);
    return n >= 2 && strcmp(pin + n - 2, ".*") == 0;
}

/* A companion's requirement for a torch pin: "0.23.*" for a release pin,
 * the exact version for an exact one. */
static char *companion_pin(const char *version, int whole)
{
    struct dotver d;
    if (whole && dotver_parse(version, &d) == 0 && d.n >= 2)
        return xasprintf("%ld.%ld.*", d.f[0], d.f[1]);
    return xstrdup(version);
}

/* torch's answer installs its matching torchvision and torchaudio (as
 * pytorch.org's selector does), and the commands with them; nothing when
 * the data has no companions for the pin. */
static void add_companions(const struct qctx *c, struct answer_install *in)
{
    if (strcmp(c->o->project, "torch") != 0)
        return;
    char ver[64];
    int whole = qi_pin_whole(in->pin);
    snprintf(ver, sizeof ver, "%.*s", (int)(strlen(in->pin) - (whole ? 2 : 0)), in->pin);
    const struct companion *k = tables_companion(c->v->t, ver);
    if (!k)
        return;
    in->companion_note = k->notes;
    /* a companion is pinned only where the data says it has a wheel of
     * this index on this platform; else it is left out, and said so */
    const char *names[2] = {"torchvision", "torchaudio"};
    const char *versions[2] = {k->torchvision, k->torchaudio};
    char *pins[2] = {NULL, NULL};
    struct strbuf omitted = STRBUF_INIT;
    for (int i = 0; i < 2; i++) {
        if (!versions[i])
            continue;
        const char *why;
        if (tables_companion_has(c->v->t, names[i], versions[i], c->o->platform, in->row->variant,
                                 &why)) {
            pins[i] = companion_pin(versions[i], whole);
        } else {
            strbuf_addf(&omitted, "%s%s %s is not pinned: %s", omitted.len ? "; " : "", names[i],
                        versions[i], why);
        }
    }
    in->torchvision = pins[0];
    in->torchaudio = pins[1];
    in->companions_omitted = omitted.len ? xstrdup(strbuf_str(&omitted)) : NULL;
    strbuf_free(&omitted);
    struct installcmd_req reqs[3] = {{"torch", in->pin, in->extra[0] ? in->extra : NULL}};
    size_t nreq = 1;
    char *extras[2] = {NULL, NULL}; /* a companion's own extra for the GPU's code */
    for (int i = 0; i < 2; i++)
        if (pins[i]) {
            const struct dbview_row *r = in->row;
            char rel[32];
            const struct vendor_build *b =
                r->vendor && dotver_release_buf(versions[i], rel, sizeof rel) == 0
                    ? vendorindex_find(c->v->t, names[i], rel, r->platform, r->variant)
                    : NULL;
            char gfx[TARGET_NAME_MAX];
            if (b && in->res.has_via && in->res.via.kind == TARGET_GFX) {
                target_format(&in->res.via, gfx, sizeof gfx);
                extras[i] = vendorindex_extra(b, gfx);
            }
            reqs[nreq++] = (struct installcmd_req){names[i], pins[i], extras[i]};
        }
    if (nreq > 1)
        installcmd_make(&in->commands.with_companions, c->v->t, reqs, nreq, in->index_url, 0);
    free(extras[0]);
    free(extras[1]);
}

/* The install of choice a, with why it was chosen (copied). */
void qi_fill_install(const struct qctx *c, const struct choice *a, const char *reason,
                     struct answer_install *in)
{
    memset(in, 0, sizeof *in);
    const struct dbview_row *r = c->rows[a->row];
    in->row = r;
    in->index_url = qi_index_url_no_slash(r->index_url);
    snprintf(in->pin, sizeof in->pin, "%s", a->pin);
    in->res = a->res;
    in->fallback = a->fallback;
    in->tier = a->tier;
    in->reason = xstrdup(reason);
    qi_fill_pythons(c, r, qi_pin_whole(a->pin), &in->pythons);
    answer_gpu_extra(r, &a->res, in->extra, sizeof in->extra);
    answer_commands_make(&in->commands, c->v->t, c->o->project, a->pin, in->extra, in->index_url);
    add_companions(c, in);
}

struct answer_install *qi_new_install(const struct qctx *c, const struct choice *a,
                                      const char *reason)
{
    struct answer_install *in = xmalloc(sizeof *in);
    qi_fill_install(c, a, reason, in);
    return in;
}

/* Whether a variant of a's release with a newer CUDA than a's is supported
 * in full by driver d (its toolkit's own driver reached, not only the
 * minor-version-compatibility floor): then a is not "the newest CUDA this
 * driver supports", only the newest with native code. */
static int newer_loads(const struct qctx *c, const struct choice *a, const struct dotver *d)
{
    const struct dbview_row *r = c->rows[a->row];
    const struct arch_support *end = c->amd ? NULL : tables_driver_branch_end(c->v->t, c->o->cc);
    for (size_t i = 0; i < c->n; i++) {
        const struct dbview_row *x = c->rows[i];
        struct dotver floor;
        const struct compat_result *p = c->plain[i];
        const char *full = p->full_driver[0] ? p->full_driver : p->min_driver;
        const struct toolkit *own = x->cuda.n ? tables_toolkit(c->v->t, &x->cuda) : NULL;
        if (end && own && own->min_driver[c->os].n &&
            tables_driver_beyond(end, &own->min_driver[c->os]))
            continue; /* never in full on this GPU: its toolkit's driver is too new for it */
        if (x == r || strcmp(x->release, r->release) != 0 || !x->cuda.n || !r->cuda.n ||
            dotver_cmp(&x->cuda, &r->cuda) <= 0 || !full[0] || dotver_parse(full, &floor) != 0)
            continue;
        if (dotver_cmp(d, &floor) >= 0)
            return 1;
    }
    return 0;
}

/* Whether a variant of a's release with a newer CUDA than a's, and code
 * for the GPU, exists that runs only through minor-version compatibility
 * with the GPU's last driver branch. */
static int newer_code_beyond(const struct qctx *c, const struct choice *a,
                             const struct arch_support *end)
{
    const struct dbview_row *r = c->rows[a->row];
    for (size_t i = 0; i < c->n; i++) {
        const struct dbview_row *x = c->rows[i];
        int v = c->plain[i]->verdict;
        if (x != r && strcmp(x->release, r->release) == 0 && x->cuda.n && r->cuda.n &&
            (v == COMPAT_NATIVE || v == COMPAT_PTX_JIT) && dotver_cmp(&x->cuda, &r->cuda) > 0 &&
            (x->cuda.f[0] > end->last_branch_cuda.f[0] ||
             (x->cuda.f[0] == end->last_branch_cuda.f[0] && x->cuda.n > 1 &&
              x->cuda.f[1] > end->last_branch_cuda.f[1])))
            return 1;
    }
    return 0;
}

const char *qi_why_chosen(const struct qctx *c, const struct choice *a, const struct dotver *driver)
{
    if (a->res.verdict != COMPAT_NATIVE)
        return "no variant has native code; this one's PTX is compiled at first start";
    const struct arch_support *end = c->amd ? NULL : tables_driver_branch_end(c->v->t, c->o->cc);
    int at_end = end && (!driver || driver->f[0] >= end->last_branch);
    if (a->tier && at_end)
        return "native code for this GPU; its CUDA is newer than the last driver branch for this "
               "GPU supports, and it runs through CUDA minor-version compatibility";
    if (at_end && a->res.verdict == COMPAT_NATIVE && newer_code_beyond(c, a, end))
        return "native code for this GPU, the newest CUDA that the last driver branch for this "
               "GPU supports";
    if (a->tier)
        return "native code for this GPU; its CUDA is newer than the driver's and runs through "
               "CUDA minor-version compatibility (update the driver to use a newer variant "
               "fully)";
    if (a->passed_low)
        return c->amd ? "native code for this GPU, the newest ROCm among such variants known with "
                        "more than low confidence (a newer variant's arch list is only a "
                        "low-confidence reading of PyTorch's build configuration)"
                      : "native code for this GPU, the newest CUDA among such variants known with "
                        "more than low confidence (a newer variant's arch list is only a "
                        "low-confidence reading of PyTorch's build configuration)";
    if (c->amd && a->passed_vendor)
        return "native code for this GPU, the newest ROCm among PyTorch's own variants; a "
               "vendor's own index has a newer ROCm build for it too";
    if (c->amd)
        return "native code for this GPU, the newest ROCm among such variants";
    if (driver && newer_loads(c, a, driver))
        return "native code for this GPU, the newest CUDA among such variants; newer ones this "
               "driver supports have no native code for it";
    if (driver)
        return "native code for this GPU, the newest CUDA this driver supports";
    return "native code for this GPU, the newest CUDA among such variants";
}
