/*
 * query_state: what the files of query share.  Not for other modules.  They
 * call downwards only, in this order:
 *   query.c         query_answer: the questions asked in order; the JSON
 *   query_steps.c   the parts of an answer beside the recommendation: the
 *                   driver table, per-Python tables, plain pip, the last
 *                   native release, a source build, what to change
 *   query_choose.c  the context of one query and the choice within a
 *                   release (verdicts per row, the recommendation, its
 *                   install command)
 *   query_order.c   the rows of each project and platform in query order,
 *                   made once per view
 *   query_rows.c    what a row offers: its vendor, the Pythons its wheels fit
 */
#ifndef WHEELARCH_QUERY_STATE_H
#define WHEELARCH_QUERY_STATE_H

#include <stdint.h>

#include "answer.h"
#include "compat.h"
#include "query_types.h"
#include "strbuf.h"
#include "strmap.h"

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

/* One decision: the row to install and its verdict. */
struct choice {
    long row; /* index into c->rows, -1: nothing runs */
    struct compat_result res;
    int fallback; /* from another release than the one asked about */
    char pin[64]; /* the version to pin: "2.8.*", "1.3.0", "2.8.1" */
    int tier;     /* 1: runs through minor-version compatibility */
    /* a newer variant with the same verdict on a vendor's index, passed
     * over for PyTorch's own (borrowed), or NULL */
    const struct vendor_build *passed_vendor;
    int passed_low; /* a newer variant with the same verdict, known only with
                     * low confidence, was passed over */
};

int qi_row_fits(const struct dbview_row *r, uint16_t cc);
void qi_sort_rows(const struct dbview_row **rows, size_t n);
long qi_order_list(const struct query_order *q, const char *project, const char *platform);
void qi_judge_one(const struct qctx *c, const struct dbview_row *r, int has_driver,
                  const struct dotver *driver, struct compat_result *res);
const struct compat_result *qi_judge_driver(const struct qctx *c, size_t i,
                                            const struct dotver *driver);
int qi_wheel_py_of(const char *filename, struct wheel_py *p);
int qi_wheel_fits(const struct wheel_py *p, uint16_t py, int ft);
int qi_pymask_bit(uint16_t py, int ft);
void qi_row_pymask(const struct dbview_row *r, uint64_t *mask, unsigned char *known);
int qi_declared_whole(const struct dbview_row *r);
void qi_row_pythons(const struct qctx *c, const struct dbview_row *r,
                    const struct query_python *pys, size_t n, signed char *out);
void qi_set_rel_py(struct qctx *c);
void qi_qctx_init(struct qctx *c, const struct dbview *v, const struct query_options *o);
void qi_qctx_free(struct qctx *c);
size_t qi_pick(const struct qctx *c, size_t k, const char *exact, size_t *out, size_t max);
/* The CUDA of the driver a choice is made for: the given driver's, else,
 * for a GPU whose drivers end at a branch, that branch's (a Kepler GPU has
 * at best R470: a CUDA 11.8 build runs on it through minor-version
 * compatibility); NULL for any driver. */
const struct toolkit *qi_driver_cuda(const struct qctx *c, int has_driver,
                                     const struct dotver *driver);
int qi_decide_release(const struct qctx *c, size_t k, const char *exact, int has_driver,
                      const struct dotver *driver, const struct toolkit *dcuda, int python,
                      struct choice *a);
size_t qi_release_index(const struct qctx *c, const char *release);
void qi_set_pin(const struct qctx *c, const char *exact, struct choice *a);
int qi_later_patch(const struct qctx *c, const struct dbview_row *r);
size_t qi_release_versions(const struct qctx *c, size_t k, const char **out, size_t max);
void qi_answer_for_py(const struct qctx *c, size_t rk, const char *exact, int has_driver,
                      const struct dotver *driver, int python, struct choice *a);
void qi_answer_from(const struct qctx *c, size_t rk, const char *exact, int has_driver,
                    const struct dotver *driver, int python, size_t from, struct choice *a);
void qi_answer_for(const struct qctx *c, size_t rk, const char *exact, int has_driver,
                   const struct dotver *driver, struct choice *a);
char *qi_index_url_no_slash(const char *u);
void qi_pythons_add(struct answer_pythons *p, uint16_t v, int ft);
void qi_fill_pythons(const struct qctx *c, const struct dbview_row *r, int whole,
                     struct answer_pythons *p);
int qi_pin_whole(const char *pin);
void qi_fill_install(const struct qctx *c, const struct choice *a, const char *reason,
                     struct answer_install *in);
struct answer_install *qi_new_install(const struct qctx *c, const struct choice *a,
                                      const char *reason);
/* Why a was chosen, in words; driver: the driver it was chosen for, or NULL
 * (any). */
const char *qi_why_chosen(const struct qctx *c, const struct choice *a,
                          const struct dotver *driver);
void qi_by_driver(const struct qctx *c, size_t rk, const char *exact, int light,
                  struct answer_install **rows, size_t *nrows);
void qi_python_tables(struct qctx *c, size_t rk, const char *exact, struct answer_result *out);
void qi_pypi_answer(const struct qctx *c, size_t k, const char *exact, int applies,
                    struct answer_pypi *p);
void qi_last_native(const struct qctx *c, struct answer_result *out);
/* Whether a Python was asked for and no release with code for the GPU
 * has a wheel for it, whatever the driver. */
int qi_python_blocks(const struct qctx *c, size_t rk, const char *exact);
/* The self-built way forward for a GPU whose official builds end before
 * today's releases or the Python asked about (code: the newest release
 * with code; python_blocks: no build with code has a wheel for the
 * Python). */
void qi_self_build(const struct qctx *c, const struct choice *code, int python_blocks,
                   struct answer_source_build *x);
void qi_source_build(const struct qctx *c, struct answer_source_build *x);
/* arm_only: the kind of Arm system (enum tables_host) the GPU comes only
 * in, when this platform is not that system's; 0 otherwise. */
void qi_guidance(const struct qctx *c, int tegra, int arm_only, struct answer_guidance *g);
int qi_newest_with_code(const struct qctx *c, struct choice *a);
/* python_blocks: qi_python_blocks, made once by the caller. */
void qi_change_steps(const struct qctx *c, size_t rk, const char *exact, const struct choice *runs,
                     const struct choice *code, int python_blocks, struct answer_result *out);

/* Whether a Tegra part runs an SBSA system (Thor) (query_rows.c). */
int query_tegra_sbsa(uint16_t cc);

#endif
