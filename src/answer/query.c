/*
 * query: verdicts per variant and a recommendation.
 */
#include "query.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "compat.h"
#include "strbuf.h"
#include "verdict.h"
#include "wheelname.h"
#include "strmap.h"
#include "xalloc.h"

json_t *query_differences(const struct dbview *v, const char *project, const char *version,
                          const char *platform)
{
    json_t *out = json_array();
    for (size_t i = 0; i < v->nrows; i++) {
        const struct dbview_row *r = &v->rows[i];
        if (strcmp(r->project, project) != 0 || json_array_size(r->differences) == 0)
            continue;
        if (platform && strcmp(r->platform, platform) != 0)
            continue;
        if (version && strcmp(r->version, version) != 0 && strcmp(r->release, version) != 0)
            continue;
        json_t *x = json_object();
        json_object_set_new(x, "project", json_string(r->project));
        json_object_set_new(x, "version", json_string(r->version));
        json_object_set_new(x, "variant", json_string(r->variant));
        json_object_set_new(x, "platform", json_string(r->platform));
        json_object_set_new(x, "status", json_string(dbview_status_name(r->status)));
        json_object_set_new(x, "declared", json_string(r->declared ? r->declared->arch_list : ""));
        json_object_set_new(x, "differences", dbview_row_differences(r));
        json_array_append_new(out, x);
    }
    return out;
}

const char *query_this_platform(void)
{
    struct utsname u;
    if (uname(&u) != 0)
        return "linux-x86_64";
    if (strcmp(u.machine, "aarch64") == 0 || strcmp(u.machine, "arm64") == 0)
        return "linux-aarch64";
    return "linux-x86_64";
}

/* Whether a row is for the GPU's vendor: ROCm variants for AMD GPUs, the
 * others (CUDA, cpu) for NVIDIA ones. */
static int row_fits(const struct dbview_row *r, uint16_t cc)
{
    int rocm = tables_variant_rocm(r->variant, NULL);
    return cc >= TABLES_AMD_MIN ? rocm : !rocm;
}

const char *query_jetson_url = "https://docs.nvidia.com/deeplearning/frameworks/"
                               "install-pytorch-jetson-platform/index.html";

int query_tegra_sbsa(uint16_t cc)
{
    return cc == 101 || cc == 110; /* Thor: JetPack 7 is an SBSA system */
}

/* Everything one query works on: the rows of the project on the platform
 * for the GPU's vendor, ordered release (newest first), variant, version
 * (newest first), status (verified first); each release a run of rows. */
struct qctx {
    const struct dbview *v;
    const struct query_options *o;
    const struct dbview_row **rows;
    size_t n;
    /* each row judged without a driver: the caller's verdict
     * (query_options.judged) or its class's (own) */
    const struct compat_result **plain;
    struct compat_result *own;
    const char **releases; /* distinct, newest first */
    size_t *rel_start;     /* first row of each release; rel_start[nrel] = n */
    size_t nrel;
    int os;
    int amd;
    /* Rows alike for every question (the same code and CUDA version, see
     * compat_code_same): cls[i] is row i's class, first[k] the first row
     * of class k.  A driver's verdict is made once per class: the driver
     * table asks each floor of every release, mostly the same codes. */
    size_t *cls, *first, ncls;
    struct driver_memo *memo;
    /* With a Python asked for: per row, 1 when it has a wheel for it, 0
     * when it has none, -1 when not known (the data says nothing); NULL
     * when no Python was asked for. */
    signed char *py;
    /* With py: per release, whether any of its rows may have a wheel for
     * that Python (a release none of whose rows has is not looked into). */
    unsigned char *rel_py;
};

struct driver_memo {
    int set;
    struct dotver driver;      /* the driver res[] was judged with */
    unsigned gen, *gen_of;     /* res[k] is valid when gen_of[k] == gen */
    struct compat_result *res; /* per class */
};

/* A row with its release and version parsed once: a sort compares each
 * row about log n times, and parsing was most of a query's time. */
struct keyed_row {
    const struct dbview_row *r;
    struct dotver release, version;
    int release_ok, version_ok;
};

static int parsed_cmp(const struct dotver *x, int okx, const struct dotver *y, int oky)
{
    return !okx || !oky ? okx - oky : dotver_cmp(x, y); /* as dotver_cmp_str */
}

/* Newest release first, then variant preference, newest version, best
 * source. */
static int keyed_order(const void *a, const void *b)
{
    const struct keyed_row *x = a, *y = b;
    int c = parsed_cmp(&y->release, y->release_ok, &x->release, x->release_ok);
    if (!c)
        c = tables_variant_cmp(x->r->variant, y->r->variant);
    if (!c)
        c = parsed_cmp(&y->version, y->version_ok, &x->version, x->version_ok);
    if (!c)
        c = x->r->status - y->r->status;
    return c;
}

/* Sorts rows[0..n) in query order. */
static void sort_rows(const struct dbview_row **rows, size_t n)
{
    if (n < 2)
        return;
    struct keyed_row *k = xmalloc(n * sizeof *k);
    for (size_t i = 0; i < n; i++) {
        k[i].r = rows[i];
        k[i].release_ok = dotver_parse(rows[i]->release, &k[i].release) == 0;
        k[i].version_ok = dotver_parse(rows[i]->version, &k[i].version) == 0;
    }
    qsort(k, n, sizeof *k, keyed_order);
    for (size_t i = 0; i < n; i++)
        rows[i] = k[i].r;
    free(k);
}

struct query_order {
    struct strmap *lists; /* "project\x01platform" -> index in rows */
    size_t **rows;        /* per (project, platform): its rows, in query order */
    size_t *nrows;
    size_t **cls; /* per list: each row's class (dbview_row_classes) */
    size_t *ncls;
    size_t n, cap;
    /* per view row: the Pythons its wheels fit (pymask_bit), read once for
     * every query; pyknown 0 when it has no wheel to tell */
    uint64_t *pymask;
    unsigned char *pyknown;
};

static void row_pymask(const struct dbview_row *r, uint64_t *mask, unsigned char *known);

static void order_key(struct strbuf *k, const char *project, const char *platform)
{
    strbuf_set_joined(k, 1, project, platform, (char *)NULL);
}

struct query_order *query_order_new(const struct dbview *v)
{
    const struct dbview_row **rows = xmalloc((v->nrows + 1) * sizeof *rows);
    for (size_t i = 0; i < v->nrows; i++)
        rows[i] = &v->rows[i];
    sort_rows(rows, v->nrows);
    struct query_order *q = xcalloc(1, sizeof *q);
    q->lists = strmap_new();
    struct strbuf k = STRBUF_INIT;
    size_t capn = 0;
    for (size_t i = 0; i < v->nrows; i++) {
        order_key(&k, rows[i]->project, rows[i]->platform);
        size_t at;
        if (!strmap_get(q->lists, k.buf, &at)) {
            at = q->n++;
            q->rows = xgrow(q->rows, &q->cap, q->n, sizeof *q->rows);
            q->nrows = xgrow(q->nrows, &capn, q->n, sizeof *q->nrows);
            q->rows[at] = NULL;
            q->nrows[at] = 0;
            strmap_put(q->lists, k.buf, at);
        }
        if (q->nrows[at] % 64 == 0)
            q->rows[at] = xrealloc(q->rows[at], (q->nrows[at] + 64) * sizeof **q->rows);
        q->rows[at][q->nrows[at]++] = (size_t)(rows[i] - v->rows);
    }
    strbuf_free(&k);
    free(rows);
    /* The classes of each list, made once for all the queries that read
     * it (hashing every row's code per query was most of a query). */
    q->cls = xcalloc(q->n + 1, sizeof *q->cls);
    q->ncls = xcalloc(q->n + 1, sizeof *q->ncls);
    for (size_t l = 0; l < q->n; l++) {
        size_t n = q->nrows[l];
        const struct dbview_row **lr = xmalloc((n + 1) * sizeof *lr);
        for (size_t i = 0; i < n; i++)
            lr[i] = &v->rows[q->rows[l][i]];
        size_t *first = xmalloc((n + 1) * sizeof *first);
        q->cls[l] = xmalloc((n + 1) * sizeof **q->cls);
        q->ncls[l] = dbview_row_classes(lr, n, q->cls[l], first);
        free(first);
        free(lr);
    }
    q->pymask = xcalloc(v->nrows ? v->nrows : 1, sizeof *q->pymask);
    q->pyknown = xcalloc(v->nrows ? v->nrows : 1, 1);
    for (size_t i = 0; i < v->nrows; i++)
        if (v->rows[i].nwheels)
            row_pymask(&v->rows[i], &q->pymask[i], &q->pyknown[i]);
    return q;
}

void query_order_free(struct query_order *q)
{
    if (!q)
        return;
    for (size_t i = 0; i < q->n; i++) {
        free(q->rows[i]);
        free(q->cls[i]);
    }
    free(q->rows);
    free(q->nrows);
    free(q->cls);
    free(q->ncls);
    free(q->pymask);
    free(q->pyknown);
    strmap_free(q->lists);
    free(q);
}

/* The list of project on platform: its index, or -1. */
static long order_list(const struct query_order *q, const char *project, const char *platform)
{
    struct strbuf k = STRBUF_INIT;
    order_key(&k, project, platform);
    size_t at;
    int found = strmap_get(q->lists, k.buf, &at);
    strbuf_free(&k);
    return found ? (long)at : -1;
}

const size_t *query_order_rows(const struct query_order *q, const char *project,
                               const char *platform, size_t *n)
{
    long at = order_list(q, project, platform);
    *n = at >= 0 ? q->nrows[at] : 0;
    return at >= 0 ? q->rows[at] : NULL;
}

static void judge_one(const struct qctx *c, const struct dbview_row *r, int has_driver,
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
static const struct compat_result *judge_driver(const struct qctx *c, size_t i,
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
        judge_one(c, c->rows[c->first[k]], 1, driver, &m->res[k]);
        m->gen_of[k] = m->gen;
    }
    return &m->res[k]; /* valid until another driver is asked */
}

/* A wheel's Python tags and ABI, read once from its file name for the
 * Pythons a row is asked about. */
struct wheel_py {
    size_t n;
    struct {
        uint8_t any; /* py3, py2: any Python of that major version */
        uint16_t py; /* cpXY: major * 100 + minor; py3: 300 */
    } tag[16];
    int abi_none, abi3;
    uint16_t abi_ft; /* cpXYt (a free-threaded build): XY, else 0 */
};

/* "cp312" -> 312 (major one digit, minor the rest); 0 when not one. */
static uint16_t cp_version(const char *s, size_t len)
{
    if (len < 4 || len > 6 || s[0] != 'c' || s[1] != 'p' || s[2] < '0' || s[2] > '9')
        return 0;
    unsigned minor = 0;
    for (size_t i = 3; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        minor = minor * 10 + (unsigned)(s[i] - '0');
    }
    return minor < 100 ? (uint16_t)((unsigned)(s[2] - '0') * 100 + minor) : 0;
}

static void wheel_py_read(const struct wheel_name *w, struct wheel_py *p)
{
    memset(p, 0, sizeof *p);
    p->abi_none = strcmp(w->abi, "none") == 0;
    p->abi3 = strcmp(w->abi, "abi3") == 0;
    size_t al = strlen(w->abi);
    if (al > 1 && w->abi[al - 1] == 't')
        p->abi_ft = cp_version(w->abi, al - 1);
    for (const char *t = w->python; *t && p->n < 16;) {
        size_t len = strcspn(t, ".");
        if (len == 3 && (strncmp(t, "py3", 3) == 0 || strncmp(t, "py2", 3) == 0)) {
            p->tag[p->n].any = 1;
            p->tag[p->n++].py = (uint16_t)((t[2] - '0') * 100);
        } else {
            uint16_t v = cp_version(t, len);
            if (v)
                p->tag[p->n++].py = v;
        }
        t += len;
        if (*t == '.')
            t++;
    }
}

/* The Python tags of a wheel file name; -1 when it is not a wheel's name. */
static int wheel_py_of(const char *filename, struct wheel_py *p)
{
    struct wheel_name w;
    struct wa_error err;
    if (wheelname_parse(filename, &w, &err) < 0)
        return -1;
    wheel_py_read(&w, p);
    wheelname_free(&w);
    return 0;
}

/* Whether a wheel fits the Python: cpXY (or cpXYt for a free-threaded
 * one), abi3 from its cpXY on, py3/py2.py3 for any. */
static int wheel_fits(const struct wheel_py *p, uint16_t py, int ft)
{
    for (size_t i = 0; i < p->n; i++) {
        uint16_t v = p->tag[i].py;
        int fits = 0;
        if (p->tag[i].any)
            fits = v / 100 == py / 100 && p->abi_none;
        else if (v == py) /* cpXY: its ABI says free-threaded or not */
            fits = (p->abi_ft == py) == (ft != 0);
        else if (!ft && p->abi3 && v / 100 == py / 100 && v % 100 <= py % 100)
            fits = 1;
        if (fits)
            return 1;
    }
    return 0;
}

/* The bit of a Python in a row's mask: 2.7, 3.0 to 3.20, 3.0t to 3.20t;
 * -1 for another. */
static int pymask_bit(uint16_t py, int ft)
{
    if (py == 207 && !ft)
        return 0;
    if (py / 100 == 3 && py % 100 <= 20)
        return 1 + py % 100 + (ft ? 21 : 0);
    return -1;
}

static void row_pymask(const struct dbview_row *r, uint64_t *mask, unsigned char *known)
{
    *mask = 0;
    *known = 0;
    for (size_t i = 0; i < r->nwheels; i++) {
        struct wheel_py wp;
        if (wheel_py_of(r->wheels[i].filename, &wp) < 0)
            continue;
        *known = 1;
        for (int ft = 0; ft < 2; ft++)
            for (uint16_t py = 300; py <= 320; py++)
                if (wheel_fits(&wp, py, ft))
                    *mask |= (uint64_t)1 << pymask_bit(py, ft);
        if (wheel_fits(&wp, 207, 0))
            *mask |= 1;
    }
}

/* Whether a row's version names a whole release (a declared row's
 * "2.8"), pinned as "2.8.*" unless a later patch changed its list. */
static int declared_whole(const struct dbview_row *r)
{
    struct dotver d;
    return r->status == VIEW_DECLARED && !(dotver_parse(r->version, &d) == 0 && d.n >= 3);
}

static int later_patch(const struct qctx *c, const struct dbview_row *r);

/* Whether row r has a wheel for each of n Pythons (out[k]: 1, 0, or -1
 * when nothing says): from its wheels' tags when the view holds them (each
 * file name parsed once), else from the release's supported versions in
 * the data. */
static void row_pythons(const struct qctx *c, const struct dbview_row *r,
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
        while (k < n && pymask_bit(pys[k].python, pys[k].free_threaded) >= 0)
            k++;
        if (k == n) { /* else a Python past the mask: the wheels are read */
            for (k = 0; k < n; k++)
                out[k] = (signed char)((m >> pymask_bit(pys[k].python, pys[k].free_threaded)) & 1);
            left = 0;
        }
    }
    for (size_t i = 0; i < r->nwheels && left; i++) {
        struct wheel_py wp;
        if (wheel_py_of(r->wheels[i].filename, &wp) < 0)
            continue;
        for (size_t k = 0; k < n; k++)
            if (out[k] != 1) {
                out[k] = (signed char)wheel_fits(&wp, pys[k].python, pys[k].free_threaded);
                left -= out[k] == 1;
            }
    }
    /* the version its command will pin (set_pin): an exact version asked
     * for; "X.Y.0" for a declared list a later patch changed; else the
     * whole release of a declared row */
    struct dotver d;
    const char *ver = r->version;
    char buf[64];
    int whole = declared_whole(r);
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
            later = later_patch(c, r);
        if (whole && later) {
            snprintf(buf, sizeof buf, "%s.0", r->version);
            ver = buf;
            whole = 0;
        }
        out[k] = (signed char)tables_python_has(c->v->t, r->project, ver, r->platform, whole,
                                                pys[k].python, pys[k].free_threaded);
    }
}

/* c->rel_py from c->py. */
static void set_rel_py(struct qctx *c)
{
    if (!c->rel_py)
        c->rel_py = xmalloc(c->nrel ? c->nrel : 1);
    for (size_t k = 0; k < c->nrel; k++) {
        c->rel_py[k] = 0;
        for (size_t i = c->rel_start[k]; i < c->rel_start[k + 1] && !c->rel_py[k]; i++)
            c->rel_py[k] = c->py[i] != 0;
    }
}

static void qctx_init(struct qctx *c, const struct dbview *v, const struct query_options *o)
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
        long l = order_list(o->order, o->project, o->platform);
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
            !row_fits(r, o->cc))
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
        sort_rows(c->rows, c->n);
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
                judge_one(c, r, 0, NULL, &c->own[c->cls[i]]);
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
            row_pythons(c, c->rows[i], &(struct query_python){o->python, o->python_free_threaded},
                        1, &c->py[i]);
        set_rel_py(c);
    }
}

static void qctx_free(struct qctx *c)
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
static size_t pick(const struct qctx *c, size_t k, const char *exact, size_t *out, size_t max)
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

/* The best of judged rows: native first, then PTX JIT; then variants the
 * driver supports natively, the newest CUDA (or ROCm) among them; then
 * those that need minor-version compatibility, the oldest CUDA (the least
 * ahead of the driver).  Returns the position in idx or -1. */
static int best_of(const struct qctx *c, const size_t *idx, const struct compat_result *const *res,
                   size_t n, const struct toolkit *driver_cuda, int python)
{
    int best = -1;
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
        int tb = driver_tier(rb, driver_cuda), ti = driver_tier(ri, driver_cuda);
        int cmp = dotver_cmp(&ri->cuda, &rb->cuda);
        struct dotver vi, vb;
        if (cmp == 0 && tables_variant_rocm(ri->variant, &vi) &&
            tables_variant_rocm(rb->variant, &vb))
            cmp = dotver_cmp(&vi, &vb); /* the newest ROCm */
        if (v < res[best]->verdict ||
            (v == res[best]->verdict && (ti < tb || (ti == tb && (ti == 0 ? cmp > 0 : cmp < 0)))))
            best = (int)i;
    }
    return best;
}

/* One decision: the row to install and its verdict. */
struct choice {
    long row; /* index into c->rows, -1: nothing runs */
    struct compat_result res;
    int fallback; /* from another release than the one asked about */
    char pin[64]; /* the version to pin: "2.8.*", "1.3.0", "2.8.1" */
    int tier;     /* 1: runs through minor-version compatibility */
};

/* Decides within release k (versions fitting exact); returns 1 when a row
 * runs (and, with python, has a wheel for the Python asked about). */
static int decide_release(const struct qctx *c, size_t k, const char *exact, int has_driver,
                          const struct dotver *driver, const struct toolkit *dcuda, int python,
                          struct choice *a)
{
    size_t idx[64];
    const struct compat_result *res[64];
    size_t n = pick(c, k, exact, idx, 64);
    for (size_t i = 0; i < n; i++) {
        /* A driver can only make a row that runs fail ("driver too old"),
         * never make one run: rows that do not run without one are not
         * judged again (the search for the last release that runs reads
         * every release). */
        int v = c->plain[idx[i]]->verdict;
        res[i] = has_driver && (v == COMPAT_NATIVE || v == COMPAT_PTX_JIT)
                     ? judge_driver(c, idx[i], driver)
                     : c->plain[idx[i]];
    }
    int b = best_of(c, idx, res, n, dcuda, python);
    if (b < 0)
        return 0;
    a->row = (long)idx[b];
    a->res = *res[b];
    a->tier = driver_tier(c->rows[idx[b]], dcuda);
    return 1;
}

/* The position of a release in c->releases, c->nrel when absent. */
static size_t release_index(const struct qctx *c, const char *release)
{
    size_t k = 0;
    while (k < c->nrel && strcmp(c->releases[k], release) != 0)
        k++;
    return k;
}

/* The version requirement: an exact version as given or crawled; a
 * declared list that a later patch changed pins the patch it covers
 * ("1.3" before "1.3.1" -> 1.3.0); else the whole release. */
static void set_pin(const struct qctx *c, const char *exact, struct choice *a)
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
    snprintf(a->pin, sizeof a->pin, later_patch(c, r) ? "%s.0" : "%s.*", r->version);
}

/* Whether a later version of row r's release and variant is in the view
 * (a patch that changed its list): r then stands for X.Y.0 only. */
static int later_patch(const struct qctx *c, const struct dbview_row *r)
{
    size_t k = release_index(c, r->release);
    for (size_t i = c->rel_start[k]; k < c->nrel && i < c->rel_start[k + 1]; i++)
        if (strcmp(c->rows[i]->variant, r->variant) == 0 &&
            dotver_cmp_str(c->rows[i]->version, r->version) > 0)
            return 1;
    return 0;
}

/* Versions of release k that a declared or crawled row names, newest
 * first (at most max). */
static size_t release_versions(const struct qctx *c, size_t k, const char **out, size_t max)
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
static void answer_from(const struct qctx *c, size_t rk, const char *exact, int has_driver,
                        const struct dotver *driver, int python, size_t from, struct choice *a);

static void answer_for_py(const struct qctx *c, size_t rk, const char *exact, int has_driver,
                          const struct dotver *driver, int python, struct choice *a)
{
    answer_from(c, rk, exact, has_driver, driver, python, 0, a);
}

/* answer_for_py looking at releases from index `from` on (besides the asked
 * one): a lower driver never runs a newer release than a higher one did. */
static void answer_from(const struct qctx *c, size_t rk, const char *exact, int has_driver,
                        const struct dotver *driver, int python, size_t from, struct choice *a)
{
    memset(a, 0, sizeof *a);
    a->row = -1;
    const struct toolkit *dcuda = has_driver ? tables_driver_cuda(c->v->t, driver, c->os) : NULL;
    if (decide_release(c, rk, exact, has_driver, driver, dcuda, python, a)) {
        set_pin(c, exact, a);
        return;
    }
    /* newest first: a newer release, another patch of the asked one (a
     * later patch may have dropped the GPU: 1.3.1 after 1.3.0), an older
     * release */
    for (size_t k = from; k < c->nrel; k++) {
        if (python && c->py && c->rel_py && !c->rel_py[k])
            continue; /* no row of it has a wheel for the Python */
        const char *vers[32];
        size_t nv = release_versions(c, k, vers, 32);
        for (size_t j = 0; j < nv; j++)
            if (!(k == rk && (exact ? strcmp(vers[j], exact) == 0 : j == 0)) &&
                decide_release(c, k, vers[j], has_driver, driver, dcuda, python, a)) {
                a->fallback = 1;
                set_pin(c, j ? vers[j] : NULL, a);
                return;
            }
    }
}

static void answer_for(const struct qctx *c, size_t rk, const char *exact, int has_driver,
                       const struct dotver *driver, struct choice *a)
{
    answer_for_py(c, rk, exact, has_driver, driver, 1, a);
}

static char *index_url_no_slash(const char *u)
{
    size_t n = strlen(u);
    while (n > 0 && u[n - 1] == '/')
        n--;
    return xstrndup(u, n);
}

static void pythons_add(struct answer_pythons *p, uint16_t v, int ft)
{
    if (p->n < ANSWER_PYTHONS_MAX)
        tables_python_format(v, ft, p->v[p->n++], sizeof p->v[0]);
}

/* The Python versions row r's release has wheels for ("3.10", ...,
 * "3.13t"), whole: for a release pin; none when the data does not say. */
static void fill_pythons(const struct qctx *c, const struct dbview_row *r, int whole,
                         struct answer_pythons *p)
{
    uint16_t vs[32];
    p->n = 0;
    for (int ft = 0; ft < 2; ft++) {
        size_t n =
            tables_python_versions(c->v->t, r->project, r->version, r->platform, whole, ft, vs, 32);
        for (size_t i = 0; i < n; i++)
            pythons_add(p, vs[i], ft);
    }
}

/* Whether a pin names a whole release ("2.8.*"). */
static int pin_whole(const char *pin)
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
    int whole = pin_whole(in->pin);
    snprintf(ver, sizeof ver, "%.*s", (int)(strlen(in->pin) - (whole ? 2 : 0)), in->pin);
    const struct companion *k = tables_companion(c->v->t, ver);
    if (!k)
        return;
    in->torchvision = companion_pin(k->torchvision, whole);
    in->torchaudio = k->torchaudio ? companion_pin(k->torchaudio, whole) : NULL;
    in->companion_note = k->notes;
    const char *ta = in->torchaudio;
    in->commands.pip_with_companions =
        ta ? xasprintf("pip install torch==%s torchvision==%s torchaudio==%s --index-url %s",
                       in->pin, in->torchvision, ta, in->index_url)
           : xasprintf("pip install torch==%s torchvision==%s --index-url %s", in->pin,
                       in->torchvision, in->index_url);
    in->commands.uv_with_companions = xasprintf("uv %s", in->commands.pip_with_companions);
}

/* The install of choice a, with why it was chosen (copied). */
static void fill_install(const struct qctx *c, const struct choice *a, const char *reason,
                         struct answer_install *in)
{
    memset(in, 0, sizeof *in);
    const struct dbview_row *r = c->rows[a->row];
    in->row = r;
    in->index_url = index_url_no_slash(r->index_url);
    snprintf(in->pin, sizeof in->pin, "%s", a->pin);
    in->res = a->res;
    in->fallback = a->fallback;
    in->tier = a->tier;
    in->reason = xstrdup(reason);
    fill_pythons(c, r, pin_whole(a->pin), &in->pythons);
    answer_commands_make(&in->commands, c->o->project, a->pin, in->index_url);
    add_companions(c, in);
}

static struct answer_install *new_install(const struct qctx *c, const struct choice *a,
                                          const char *reason)
{
    struct answer_install *in = xmalloc(sizeof *in);
    fill_install(c, a, reason, in);
    return in;
}

static const char *why_chosen(const struct qctx *c, const struct choice *a, int has_driver)
{
    if (a->res.verdict != COMPAT_NATIVE)
        return "no variant has native code; this one's PTX is compiled at first start";
    if (a->tier)
        return "native code for this GPU; its CUDA is newer than the driver's and runs through "
               "CUDA minor-version compatibility (update the driver to use a newer variant "
               "fully)";
    if (c->amd)
        return "native code for this GPU, the newest ROCm among such variants";
    if (has_driver)
        return "native code for this GPU, the newest CUDA this driver supports";
    return "native code for this GPU, the newest CUDA among such variants";
}

struct floor {
    struct dotver d;
    const char *text; /* as the table writes it: "525.60.13" */
};

static int cmp_floor_desc(const void *a, const void *b)
{
    return dotver_cmp(&((const struct floor *)b)->d, &((const struct floor *)a)->d);
}

static void add_floor(struct floor *t, size_t *n, size_t max, const struct dotver *d,
                      const char *text)
{
    if (!d || !d->n || !text || *n >= max)
        return;
    for (size_t i = 0; i < *n; i++)
        if (dotver_cmp(&t[i].d, d) == 0)
            return;
    t[*n].d = *d;
    t[*n].text = text;
    (*n)++;
}

/* "driver >= X -> this answer": the answer at every driver floor the rows
 * involve (minor-version floors, each variant's own toolkit driver, the
 * driver of each PTX ISA), newest floor first, equal neighbours merged.
 * The same decision as `query --driver X`, tabulated. */
static void by_driver(const struct qctx *c, size_t rk, const char *exact, int light,
                      struct answer_install **rows, size_t *nrows)
{
    struct floor floors[128];
    size_t nf = 0;
    const struct tables *t = c->v->t;
    for (size_t i = 0; i < c->n; i++) {
        const struct dbview_row *r = c->rows[i];
        /* rows of one class (one CUDA version and code) give the same
         * floors: its first row stands for them */
        if (!r->cuda.n || c->first[c->cls[i]] != i)
            continue;
        const struct minor_compat *mc = tables_minor_compat(t, (int)r->cuda.f[0]);
        if (mc)
            add_floor(floors, &nf, 128, &mc->min_driver[c->os], mc->min_driver_text[c->os]);
        const struct toolkit *k = tables_toolkit(t, &r->cuda);
        if (k)
            add_floor(floors, &nf, 128, &k->min_driver[c->os], k->min_driver_text[c->os]);
        for (size_t p = 0; p < r->code.nisas; p++) {
            const struct ptx_isa *pi = tables_cuda_of_isa(t, &r->code.isas[p].isa);
            const struct toolkit *pk = pi ? tables_toolkit(t, &pi->cuda) : NULL;
            if (pk)
                add_floor(floors, &nf, 128, &pk->min_driver[c->os], pk->min_driver_text[c->os]);
        }
    }
    const struct toolkit *gf = tables_first_toolkit(t, c->o->cc);
    if (gf)
        add_floor(floors, &nf, 128, &gf->min_driver[c->os], gf->min_driver_text[c->os]);
    qsort(floors, nf, sizeof *floors, cmp_floor_desc);
    struct answer_install *out = xcalloc(nf ? nf : 1, sizeof *out);
    size_t nout = 0;
    long last_row = -2;
    size_t from = 0; /* the floors go down: so does the release that runs */
    for (size_t i = 0; i < nf; i++) {
        struct choice a;
        answer_from(c, rk, exact, 1, &floors[i].d, 1, from, &a);
        if (a.row >= 0 && a.fallback)
            from = release_index(c, c->rows[a.row]->release);
        struct answer_install *prev = nout ? &out[nout - 1] : NULL;
        if (a.row == last_row && prev && strcmp(a.pin, prev->pin) == 0) {
            /* the same answer for an older driver: lower the floor */
            snprintf(prev->floor, sizeof prev->floor, "%s", floors[i].text);
            continue;
        }
        if (a.row < 0)
            break; /* below this floor nothing runs */
        struct answer_install *x = &out[nout++];
        if (light) { /* the variant, pin, index and verdict only */
            x->row = c->rows[a.row];
            x->index_url = index_url_no_slash(x->row->index_url);
            snprintf(x->pin, sizeof x->pin, "%s", a.pin);
            x->res = a.res;
            x->fallback = a.fallback;
            x->tier = a.tier;
        } else {
            fill_install(c, &a, why_chosen(c, &a, 1), x);
        }
        snprintf(x->floor, sizeof x->floor, "%s", floors[i].text);
        last_row = a.row;
    }
    *rows = out;
    *nrows = nout;
}

/* The driver table again for each Python of o->table_pythons: the rows'
 * wheels judged for that Python in place of the one asked about; each row
 * with its variant, pin, index and verdict only (no reason, commands or
 * Python versions). */
static void python_tables(struct qctx *c, size_t rk, const char *exact, struct answer_result *out)
{
    const struct query_options *o = c->o;
    size_t np = o->ntable_pythons;
    if (!np)
        return;
    signed char *saved = c->py;
    signed char *all = xmalloc((c->n ? c->n : 1) * np); /* row i, Python k: all[i * np + k] */
    signed char *py = xmalloc(c->n ? c->n : 1);
    for (size_t i = 0; i < c->n; i++)
        row_pythons(c, c->rows[i], o->table_pythons, np, &all[i * np]);
    out->py_tables = xcalloc(np, sizeof *out->py_tables);
    for (size_t k = 0; k < np; k++) {
        struct answer_py_table *t = &out->py_tables[out->npy_tables++];
        t->python = o->table_pythons[k].python;
        t->free_threaded = o->table_pythons[k].free_threaded;
        /* the same rows as an earlier Python's, or every row (nothing
         * says a row lacks a wheel for it): the same table, not made again */
        const struct answer_install *same = NULL;
        size_t nsame = 0;
        int every = 1, none = 1;
        for (size_t i = 0; i < c->n && (every || none); i++) {
            every &= all[i * np + k] != 0;
            none &= all[i * np + k] == 0;
        }
        if (none && c->n) { /* no row has a wheel for it: an empty table */
            t->rows = xcalloc(1, sizeof *t->rows);
            continue;
        }
        if (every) {
            same = out->by_driver;
            nsame = out->nby_driver;
        }
        for (size_t j = 0; j < k && !same; j++) {
            size_t i = 0;
            while (i < c->n && (all[i * np + k] != 0) == (all[i * np + j] != 0))
                i++;
            if (i == c->n) {
                same = out->py_tables[j].rows;
                nsame = out->py_tables[j].nrows;
            }
        }
        if (same || every) {
            t->rows = xcalloc(nsame ? nsame : 1, sizeof *t->rows);
            for (size_t i = 0; i < nsame; i++)
                answer_install_copy(&t->rows[i], &same[i]);
            t->nrows = nsame;
            continue;
        }
        for (size_t i = 0; i < c->n; i++)
            py[i] = all[i * np + k];
        c->py = py;
        set_rel_py(c);
        by_driver(c, rk, exact, 1, &t->rows, &t->nrows);
    }
    c->py = saved;
    if (saved)
        set_rel_py(c);
    free(py);
    free(all);
}

/* What plain `pip install <project>` from PyPI gets on this platform for
 * release k, and whether it runs. */
static void pypi_answer(const struct qctx *c, size_t k, const char *exact, int applies,
                        struct answer_pypi *p)
{
    memset(p, 0, sizeof *p);
    p->python_wheel = -1;
    const struct release_info *ri =
        tables_release(c->v->t, c->o->project, c->releases[k], c->o->platform);
    if (!ri || !ri->pypi_default[0])
        return;
    p->present = 1;
    p->release = c->releases[k];
    p->build = ri->pypi_default;
    p->confidence = ri->pypi_confidence;
    p->command = xasprintf("pip install %s==%s.*", c->o->project, c->releases[k]);
    const char *why = "";
    p->verdict = COMPAT_UNSUPPORTED;
    int no_wheel = 0; /* it runs, but has no wheel for the Python asked about */
    if (!applies)
        why = "PyPI's wheels are not built for this GPU's system";
    else if (strcmp(ri->pypi_default, "cpu") == 0)
        why = "PyPI's wheel for this platform is a CPU-only build";
    else if (strcmp(ri->pypi_default, "none") == 0)
        why = "PyPI has no wheel of this release for this platform";
    else if (c->amd)
        why = "PyPI's wheel is a CUDA build; ROCm builds come only from download.pytorch.org";
    else {
        size_t idx[64];
        size_t n = pick(c, k, exact, idx, 64);
        for (size_t i = 0; i < n; i++)
            if (strcmp(c->rows[idx[i]]->variant, ri->pypi_default) == 0) {
                /* judged like any row: with the driver, when one is given
                 * (an H100 with 535 does not run PyPI's cu130 build) */
                const struct compat_result *res =
                    c->o->has_driver ? judge_driver(c, idx[i], &c->o->driver) : c->plain[idx[i]];
                p->row = c->rows[idx[i]];
                p->verdict = res->verdict;
                why = res->reason;
                no_wheel = c->py && c->py[idx[i]] == 0;
                /* the build's own driver floor, so a reader with another
                 * driver can judge it again (the site's driver box) */
                snprintf(p->min_driver, sizeof p->min_driver, "%s", res->min_driver);
            }
        if (!p->row) {
            why = "the arch list of that build is not in the data";
            p->unknown = 1;
        }
    }
    int code_runs = p->row && (p->verdict == COMPAT_NATIVE || p->verdict == COMPAT_PTX_JIT);
    if (code_runs && no_wheel) {
        char py[16];
        tables_python_format(c->o->python, c->o->python_free_threaded, py, sizeof py);
        p->reason =
            xasprintf("%s %s has no wheel for Python %s", c->o->project, c->releases[k], py);
    } else {
        p->reason = xstrdup(why);
    }
    p->runs = code_runs && !no_wheel;
    p->python_wheel = !c->py || !p->row ? -1 : !no_wheel;
}

/* Per variant, the newest version whose code runs natively on the GPU:
 * what to pin when a release drops it. */
struct native_row {
    size_t i;            /* index into c->rows */
    const char *variant; /* its variant, the sort key */
};

static int native_row_cmp(const void *a, const void *b)
{
    return tables_variant_cmp(((const struct native_row *)a)->variant,
                              ((const struct native_row *)b)->variant);
}

static void last_native(const struct qctx *c, struct answer_result *out)
{
    struct native_row seen[256];
    size_t nseen = 0;
    for (size_t i = 0; i < c->n && nseen < 256; i++) {
        if (c->plain[i]->verdict != COMPAT_NATIVE)
            continue;
        size_t k;
        for (k = 0; k < nseen; k++)
            if (strcmp(seen[k].variant, c->rows[i]->variant) == 0)
                break;
        if (k == nseen) /* rows are newest release first: the first one found wins */
            seen[nseen++] = (struct native_row){i, c->rows[i]->variant};
    }
    qsort(seen, nseen, sizeof *seen, native_row_cmp); /* cu118 < cu126 < rocm6.4 */
    out->last_native = xcalloc(nseen ? nseen : 1, sizeof *out->last_native);
    for (size_t k = 0; k < nseen; k++) {
        struct choice a;
        memset(&a, 0, sizeof a);
        a.row = (long)seen[k].i;
        set_pin(c, NULL, &a);
        out->last_native[k].row = c->rows[seen[k].i];
        snprintf(out->last_native[k].pin, sizeof out->last_native[k].pin, "%s", a.pin);
    }
    out->nlast_native = nseen;
}

/* Where to go when no official build of any release has code for the GPU:
 * a source build, and a check of whatever wheel one finds. */
static void source_build(const struct qctx *c, struct answer_source_build *x)
{
    x->present = 1;
    compat_cc_string(c->o->cc, x->arch_list, sizeof x->arch_list);
    const char *ccs = x->arch_list;
    if (c->amd) {
        x->steps[x->nsteps++] =
            xasprintf("Build %s from source with ROCm and PYTORCH_ROCM_ARCH=%s, if your ROCm "
                      "release still supports this processor",
                      c->o->project, ccs);
    } else {
        const char *lt = tables_last_toolkit(c->v->t, c->o->cc);
        x->steps[x->nsteps++] =
            lt ? xasprintf("Build %s from source with CUDA %s or older (the newest toolkit "
                           "that still compiles for compute capability %s) and "
                           "TORCH_CUDA_ARCH_LIST=\"%s\"",
                           c->o->project, lt, ccs, ccs)
               : xasprintf("Build %s from source with TORCH_CUDA_ARCH_LIST=\"%s\"", c->o->project,
                           ccs);
        x->last_toolkit = lt;
    }
    x->steps[x->nsteps++] = xstrdup("Before installing a self-built or community wheel, check "
                                    "that it has code for this GPU: wheelarch scan <wheel file "
                                    "or URL>");
}

static void guidance(const struct qctx *c, int tegra, int arm_only, struct answer_guidance *g)
{
    memset(g, 0, sizeof *g);
    if (arm_only && !tegra) {
        g->kind = "arm-host";
        g->label = "Arm system";
        g->text = "This GPU comes only in Arm systems (NVIDIA Grace): only the Linux aarch64 "
                  "wheels apply to it";
        return;
    }
    if (!tegra)
        return;
    g->kind = "jetson";
    g->label = "Jetson";
    if (query_tegra_sbsa(c->o->cc))
        g->text = strcmp(c->o->platform, "linux-aarch64") == 0
                      ? "Jetson Thor runs JetPack 7, an SBSA system: download.pytorch.org's "
                        "linux-aarch64 wheels apply, judged below"
                      : "Jetson Thor is an integrated GPU in an Arm system: only linux-aarch64 "
                        "wheels apply to it";
    else
        g->text = "This is a Jetson (Tegra) GPU. The aarch64 wheels on PyPI and "
                  "download.pytorch.org are SBSA builds for Arm servers and do not run on "
                  "Jetson's L4T/JetPack; x86_64 and Windows wheels do not apply. Install NVIDIA's "
                  "PyTorch for Jetson, built for your JetPack release, and check it with "
                  "wheelarch scan before installing";
    g->url = query_tegra_sbsa(c->o->cc) ? NULL : query_jetson_url;
}

/* The newest release (and within it the newest patch) whose code runs on
 * the GPU on this platform, whatever the driver: what an update of the
 * driver can reach.  0 when no release in the data has code for it. */
static int newest_with_code(const struct qctx *c, struct choice *a)
{
    memset(a, 0, sizeof *a);
    a->row = -1;
    for (size_t k = 0; k < c->nrel; k++) {
        const char *vers[32];
        size_t nv = release_versions(c, k, vers, 32);
        for (size_t j = 0; j < nv; j++)
            if (decide_release(c, k, vers[j], 0, NULL, NULL, 0, a)) {
                set_pin(c, j ? vers[j] : NULL, a);
                return 1;
            }
    }
    return 0;
}

/* The lowest driver with which release k (versions fitting exact) runs,
 * into out; 0 when none is known (its rows need no driver this one lacks,
 * or have no code). */
static int driver_for_release(const struct qctx *c, size_t k, const char *exact, char *out,
                              size_t n)
{
    size_t idx[64];
    size_t m = pick(c, k, exact, idx, 64);
    struct dotver best = {0};
    int have = 0;
    for (size_t i = 0; i < m; i++) {
        int code = c->plain[idx[i]]->code;
        if ((code != COMPAT_NATIVE && code != COMPAT_PTX_JIT) || (c->py && c->py[idx[i]] == 0))
            continue;
        const struct compat_result *r = judge_driver(c, idx[i], &c->o->driver);
        struct dotver d;
        if (!r->driver_blocks || !r->needed_driver[0] || dotver_parse(r->needed_driver, &d) < 0)
            continue;
        if (!have || dotver_cmp(&d, &best) < 0) {
            best = d;
            snprintf(out, n, "%s", r->needed_driver);
            have = 1;
        }
    }
    return have;
}

static struct answer_change *new_change(struct answer_result *out, int kind)
{
    out->change = xrealloc(out->change, (out->nchange + 1) * sizeof *out->change);
    struct answer_change *x = &out->change[out->nchange++];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    return x;
}

/* Another Python: when a newer release than the one that runs as things
 * are (or the asked one) would run, but has no wheel for this Python;
 * names the versions it has wheels for and how to get one.  Tried with
 * the driver given, then with a driver update as well. */
static void python_step(const struct qctx *c, size_t rk, const char *exact,
                        const struct choice *runs, struct answer_result *out)
{
    struct choice np;
    const struct query_options *o = c->o;
    int with_driver = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && !o->has_driver)
            break;
        answer_for_py(c, rk, exact, pass == 0 && o->has_driver, &o->driver, 0, &np);
        if (np.row < 0 || c->py[np.row] != 0)
            continue;
        if (runs->row >= 0 && !(runs->fallback && !np.fallback) &&
            dotver_cmp_str(c->rows[np.row]->release, c->rows[runs->row]->release) <= 0)
            continue;
        with_driver = pass == 1;
        goto found;
    }
    return;
found:;
    const struct dbview_row *r = c->rows[np.row];
    uint16_t vs[32];
    size_t n = tables_python_versions(c->v->t, r->project, r->version, r->platform,
                                      pin_whole(np.pin), o->python_free_threaded, vs, 32);
    if (!n) /* free-threaded builds none: a regular one */
        n = tables_python_versions(c->v->t, r->project, r->version, r->platform, pin_whole(np.pin),
                                   0, vs, 32);
    if (!n)
        return;
    /* the supported version nearest to the one in use */
    uint16_t pick = o->python < vs[0] ? vs[0] : vs[n - 1];
    for (size_t i = 0; i < n; i++)
        if (vs[i] == o->python)
            pick = vs[i];
    struct answer_change *x = new_change(out, ANSWER_CHANGE_PYTHON);
    struct strbuf list = STRBUF_INIT;
    int ft =
        o->python_free_threaded && tables_python_has(c->v->t, r->project, r->version, r->platform,
                                                     pin_whole(np.pin), pick, 1) == 1;
    for (size_t i = 0; i < n; i++) {
        pythons_add(&x->pythons, vs[i], ft);
        strbuf_addf(&list, "%s%s", i ? ", " : "", x->pythons.v[x->pythons.n - 1]);
    }
    char mine[16];
    tables_python_format(o->python, o->python_free_threaded, mine, sizeof mine);
    tables_python_format(pick, ft, x->python, sizeof x->python);
    const char *want = x->python;
    char drv[64] = "";
    if (with_driver && np.res.min_driver[0]) {
        snprintf(drv, sizeof drv, " and an NVIDIA driver %s or newer", np.res.min_driver);
        snprintf(x->min_driver, sizeof x->min_driver, "%s", np.res.min_driver);
    }
    /* how to get one: uv makes environments of Python 3.7 and later
     * (free-threaded ones too); conda of regular builds */
    char how[160];
    if (ft)
        snprintf(how, sizeof how, "`uv venv --python %s`", want);
    else if (pick < 307)
        snprintf(how, sizeof how, "`conda create -n %s python=%s`", o->project, want);
    else
        snprintf(how, sizeof how, "`uv venv --python %s` or `conda create -n %s python=%s`", want,
                 o->project, want);
    x->text = xasprintf("use another Python%s: %s %s has wheels for Python %s, not %s (get one "
                        "with %s)",
                        drv, o->project, np.pin, list.buf ? list.buf : "", mine, how);
    x->release = r->release;
    snprintf(x->pin, sizeof x->pin, "%s", np.pin);
    strbuf_free(&list);
}

/* What to change, in order of cost (the first entry is the cheapest that
 * helps): a driver update (naming what it unlocks), another release that
 * runs as things are, a source build only when no official build of any
 * release has code.  Nothing when the asked release runs as it is. */
static void change_steps(const struct qctx *c, size_t rk, const char *exact,
                         const struct choice *runs, const struct choice *code,
                         struct answer_result *out)
{
    const char *project = c->o->project;
    char drv[32];
    /* A driver update: for the asked release when its code runs here, else
     * for the newest release that has code. */
    if (c->o->has_driver && code->row >= 0) {
        size_t k = rk;
        const char *ex = exact;
        if (!driver_for_release(c, k, ex, drv, sizeof drv)) {
            k = release_index(c, c->rows[code->row]->release);
            ex = NULL;
        }
        if (k < c->nrel && driver_for_release(c, k, ex, drv, sizeof drv) &&
            (runs->row < 0 || dotver_cmp_str(c->releases[k], c->rows[runs->row]->release) > 0)) {
            struct answer_change *x = new_change(out, ANSWER_CHANGE_DRIVER);
            x->text = xasprintf("update the NVIDIA driver to %s or newer: %s %s then runs "
                                "on this GPU",
                                drv, project, k == rk && ex ? ex : c->releases[k]);
            snprintf(x->min_driver, sizeof x->min_driver, "%s", drv);
            x->release = c->releases[k];
        }
    }
    if (c->py)
        python_step(c, rk, exact, runs, out);
    if (runs->row >= 0 && runs->fallback) {
        const struct dbview_row *r = c->rows[runs->row];
        char *u = index_url_no_slash(r->index_url);
        struct answer_change *x = new_change(out, ANSWER_CHANGE_RELEASE);
        answer_commands_make(&x->commands, project, runs->pin, u);
        x->text = xasprintf("use a release that runs as things are: %s %s from the %s "
                            "index (%s)",
                            project, runs->pin, r->variant, x->commands.pip);
        x->release = r->release;
        snprintf(x->pin, sizeof x->pin, "%s", runs->pin);
        x->index = r->variant;
        free(u);
    }
    if (code->row < 0) {
        char ccs[16];
        compat_cc_string(c->o->cc, ccs, sizeof ccs);
        struct answer_change *x = new_change(out, ANSWER_CHANGE_SOURCE);
        x->text = xasprintf("no official %s build of any release has code for %s: build it "
                            "from source (see below)",
                            project, ccs);
    }
}

int query_applies(uint16_t cc, int tegra, int arm_host, const char *platform)
{
    if (arm_host && strcmp(platform, "linux-aarch64") != 0)
        return 0;
    if (!tegra)
        return 1;
    return query_tegra_sbsa(cc) && strcmp(platform, "linux-aarch64") == 0;
}

static void add_note(struct answer_result *out, const char *s)
{
    if (out->nnotes < ANSWER_NOTES_MAX)
        out->notes[out->nnotes++] = s;
}

/* Why another release than the one asked about, in the order they block:
 * the asked one has no code for the GPU, or no wheel for this Python, or
 * not with this driver (never a claim that it is the last with code while
 * a newer one has some).  New string. */
static char *why_fallback(const struct qctx *c, size_t rk, const char *exact, const char *release,
                          const struct choice *a)
{
    const struct query_options *o = c->o;
    struct choice t;
    const char *blocked;
    char pyb[96];
    const struct toolkit *dc =
        o->has_driver ? tables_driver_cuda(c->v->t, &o->driver, c->os) : NULL;
    if (!decide_release(c, rk, exact, 0, NULL, NULL, 0, &t)) {
        blocked = "has no variant for this GPU";
    } else if (c->py && !decide_release(c, rk, exact, 0, NULL, NULL, 1, &t)) {
        char pys[16];
        tables_python_format(o->python, o->python_free_threaded, pys, sizeof pys);
        int drv_too = o->has_driver && !decide_release(c, rk, exact, 1, &o->driver, dc, 0, &t);
        snprintf(pyb, sizeof pyb, "has no wheel for Python %s%s", pys,
                 drv_too ? " (and needs a newer driver than this one)" : "");
        blocked = pyb;
    } else {
        blocked = "does not run with this driver";
    }
    const char *cond = o->has_driver && o->has_python ? " with this driver and Python"
                       : o->has_driver                ? " with this driver"
                       : o->has_python                ? " with this Python"
                                                      : "";
    if (strcmp(c->rows[a->row]->release, c->releases[rk < c->nrel ? rk : 0]) == 0)
        /* another patch of the asked release */
        return xasprintf("%s %s (its newest patch, as the rows above show) %s; %s %s, another "
                         "patch of it, runs%s",
                         o->project, exact ? exact : release, blocked, o->project, a->pin, cond);
    return xasprintf("%s %s %s; %s %s is the newest release that runs%s", o->project,
                     exact ? exact : release, blocked, o->project, c->rows[a->row]->version,
                     o->has_driver && o->has_python ? " with this driver and Python"
                     : o->has_driver                ? " with this driver"
                     : o->has_python                ? " with this Python"
                                                    : "");
}

struct answer_result *query_answer(const struct dbview *v, const struct query_options *o,
                                   struct wa_error *err)
{
    size_t project_rows = 0;
    for (size_t i = 0; i < v->nrows && !project_rows; i++)
        if (strcmp(v->rows[i].project, o->project) == 0)
            project_rows++;
    if (project_rows == 0 && v->elsewhere == 0) {
        wa_error_set(err, WA_ERR_USAGE, "no data about project %s (crawl it first)", o->project);
        return NULL;
    }
    struct qctx c;
    qctx_init(&c, v, o);
    if (c.nrel == 0) {
        qctx_free(&c);
        wa_error_set(err, WA_ERR_USAGE, "no %s%s wheels for %s in the data%s", o->project,
                     o->cc >= TABLES_AMD_MIN ? " ROCm" : "", o->platform,
                     o->cc >= TABLES_AMD_MIN ? " (PyTorch builds ROCm wheels for Linux x86_64 only)"
                                             : "");
        return NULL;
    }
    char *release = o->version ? dotver_release(o->version) : xstrdup(c.releases[0]);
    const char *exact = NULL;
    struct dotver ov;
    if (o->version && dotver_parse(o->version, &ov) == 0 && ov.n >= 3)
        exact = o->version;
    size_t rk = release_index(&c, release);
    size_t idx[64];
    size_t n = rk < c.nrel ? pick(&c, rk, exact, idx, 64) : 0;
    if (n == 0) {
        wa_error_set(err, WA_ERR_USAGE, "no %s %s for %s in the data (releases: %s ... %s)",
                     o->project, o->version ? o->version : release, o->platform,
                     c.releases[c.nrel - 1], c.releases[0]);
        free(release);
        qctx_free(&c);
        return NULL;
    }
    struct answer_result *out = xcalloc(1, sizeof *out);
    int amd = c.amd;
    int tegra = !amd && ((o->gpu && o->gpu->tegra) || tables_is_tegra(o->cc));
    int arm_host = o->arm_host || (o->gpu && o->gpu->arm_host);
    int applies = query_applies(o->cc, tegra, arm_host, o->platform);

    out->gpu_name = o->gpu ? o->gpu->name : NULL;
    out->architecture = o->gpu ? o->gpu->architecture : NULL;
    out->amd = amd;
    out->tegra = tegra;
    out->cc = o->cc;
    compat_cc_string(o->cc, out->device, sizeof out->device);
    if (amd) {
        struct target dev;
        tables_amd_device(v->t, o->cc, &dev);
        if (o->xnack != TARGET_FEAT_ANY && dev.xnack != TARGET_FEAT_ANY)
            dev.xnack = (uint8_t)o->xnack;
        target_format(&dev, out->gfx_target, sizeof out->gfx_target);
    }
    out->has_driver = o->has_driver;
    if (o->has_driver) {
        out->driver_text = o->driver_text;
        const struct toolkit *k = tables_driver_cuda(v->t, &o->driver, c.os);
        if (k)
            snprintf(out->driver_cuda, sizeof out->driver_cuda, "%ld.%ld", k->cuda.f[0],
                     k->cuda.f[1]);
    }
    out->has_python = o->has_python;
    out->python = o->python;
    out->python_free_threaded = o->python_free_threaded;
    out->python_source = o->python_source;
    out->project = o->project;
    out->platform = o->platform;
    out->version = xstrdup(exact ? exact : release);
    out->applies = applies;
    out->rows = xcalloc(n, sizeof *out->rows);
    out->nrows = n;
    for (size_t i = 0; i < n; i++) {
        const struct dbview_row *r = c.rows[idx[i]];
        struct answer_row *x = &out->rows[i];
        struct compat_result res;
        if (o->has_driver)
            judge_one(&c, r, 1, &o->driver, &res);
        else
            res = *c.plain[idx[i]];
        x->row = r;
        x->index_url = index_url_no_slash(r->index_url);
        if (r->cuda.n)
            tables_variant_cuda_text(r->variant, x->cuda, sizeof x->cuda);
        /* platform, code, Python and driver apart, the headline the first
         * that blocks (verdict.h) */
        verdict_judge(&res, applies, c.py ? c.py[idx[i]] : -1, &x->v);
        fill_pythons(&c, r, declared_whole(r), &x->pythons);
    }

    struct choice code = {.row = -1};
    if (applies) {
        struct choice a;
        answer_for(&c, rk, exact, o->has_driver, &o->driver, &a);
        newest_with_code(&c, &code);
        if (a.row >= 0 && !a.fallback) {
            out->recommendation = new_install(&c, &a, why_chosen(&c, &a, o->has_driver));
        } else if (a.row >= 0) {
            char *why = why_fallback(&c, rk, exact, release, &a);
            out->fallback = new_install(&c, &a, why);
            free(why);
        } else {
            add_note(out, code.row < 0 ? "no release in the data runs on this GPU"
                          : o->has_driver && o->has_python
                              ? "no release in the data runs with this driver and Python; see "
                                "what to change"
                          : o->has_driver ? "no release in the data runs with this driver; see "
                                            "what to change"
                                          : "no release in the data has a wheel for this Python; "
                                            "see what to change");
        }
        if (code.row >= 0)
            out->newest_with_code = new_install(&c, &code,
                                                "the newest release with code for this GPU, "
                                                "whatever the driver");
        if (!(a.row >= 0 && !a.fallback))
            change_steps(&c, rk, exact, &a, &code, out);
        if (!amd) {
            by_driver(&c, rk, exact, 0, &out->by_driver, &out->nby_driver);
            python_tables(&c, rk, exact, out);
        }
        last_native(&c, out);
        if (code.row < 0)
            source_build(&c, &out->source_build);
    }
    pypi_answer(&c, rk, exact, applies, &out->pypi);
    guidance(&c, tegra, arm_host && !applies, &out->guidance);
    if (amd)
        add_note(out, "ROCm wheels are Linux x86_64 only and need the amdgpu kernel driver of a "
                      "matching ROCm release; AMD code objects have no JIT, so only exact "
                      "processor (or generic target) matches run");
    int declared = 0;
    for (size_t i = 0; i < n; i++)
        declared += c.rows[idx[i]]->status == VIEW_DECLARED;
    if (declared)
        add_note(out, declared == (int)n ? "every row here is declared: taken from PyTorch's "
                                           "published build configuration, not read from the "
                                           "wheels"
                                         : "rows marked declared come from PyTorch's published "
                                           "build configuration, not from reading the wheels");
    free(release);
    qctx_free(&c);
    return out;
}

json_t *query_run(const struct dbview *v, const struct query_options *o, struct wa_error *err)
{
    struct answer_result *a = query_answer(v, o, err);
    if (!a)
        return NULL;
    json_t *j = answer_json(a);
    answer_free(a);
    return j;
}
