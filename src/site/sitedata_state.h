/*
 * sitedata_state: what the files of sitedata share.  Not for other modules.
 * They call downwards only, in this order:
 *   sitedata.c          the entry points: which builder runs when
 *   sitedata_feeds.c, sitedata_simple.c, sitedata_home.c, sitedata_gpu_page.c,
 *   sitedata_changes.c, sitedata_release.c, sitedata_wheel.c, sitedata_matrix.c
 *                       one kind of page or document each
 *   sitedata_answer.c   an answer's parts as the GPU pages read them
 *   sitedata_gpus.c     what the GPU pages and the home page share: the
 *                       answers per device, and gpus.json
 *   sitedata_shared.c   what they ask of the shared data (the newest rows,
 *                       the answers per device)
 *   sitedata_text.c     names, paths, ids and links written from data
 */
#ifndef WHEELARCH_SITEDATA_STATE_H
#define WHEELARCH_SITEDATA_STATE_H

#include "query.h"
#include "relgrid.h"
#include "sitedata_types.h"

struct strmap;
struct record_wheel;

/* For lines written in C where a template would print the wheel's JSON
 * (record_wheel_json), and must print the same:
 * - sitedata_html_text: the text of a {{name}} whose value is s, escaped
 *   as the templates escape; nothing when s is NULL or not UTF-8 (json_string
 *   refuses it, so the key was missing, and no outer context has it);
 * - sitedata_wheel_href: the wheel's href (sitedata_href), NULL when its URL
 *   is not UTF-8 or not http(s); caller frees;
 * - sitedata_wheel_yanked: whether the JSON says yanked (a reason, or
 *   true), with *reason the reason to show, or NULL when there is none. */
void sitedata_html_text(struct strbuf *out, const char *s);
char *sitedata_wheel_href(const struct record_wheel *w);
int sitedata_wheel_yanked(const struct record_wheel *w, const char **reason);

/* The platforms the site covers (SITEDATA_NPLATFORMS, sitedata_types.h),
 * in the order pages show them. */
extern const char *const sitedata_platforms[SITEDATA_NPLATFORMS];

/* One device's answers (a compute capability or gfx processor, and
 * whether the GPU is Arm-hosted: GH200's rows are not its device code's),
 * made once for all the GPU pages of that device and the feed files
 * (feed_gpus, feed_device write them from it).  What it owns: the answers,
 * the stacks, the history and the grids. */
struct sitedata_run;
struct sitedata_history_group;
struct stack_result;
struct stack_entry;
struct sitedata_device {
    uint16_t cc;
    int arm_host; /* enum tables_host */
    /* the system its answers are for when not its code's own: "arm" (GPUs
     * sold only in Grace systems), "woa" (sold only in Windows on Arm PCs),
     * "drive" (Tegra parts of DRIVE and IGX systems, which do not run
     * JetPack); NULL */
    const char *host;
    /* per platform (sitedata_platforms): query's answer for torch, or
     * NULL where there is none */
    struct answer_result *res[SITEDATA_NPLATFORMS];
    int made; /* its answers are made (a device with GPUs) */
    /* some platform that applies has a driver table (the driver box reads
     * it from the device's feed file) */
    int has_drivers;
    /* the rest of the stack per platform: the entries a page shows (every
     * project but torch, where it applies), borrowed from stack[p] */
    struct stack_result *stack[SITEDATA_NPLATFORMS];
    const struct stack_entry **shown[SITEDATA_NPLATFORMS];
    size_t nshown[SITEDATA_NPLATFORMS];
    /* the history: runs of releases with one answer, grouped by project */
    struct sitedata_run *runs;
    size_t nruns;
    struct sitedata_history_group *groups;
    size_t ngroups;
    int declared_only; /* every row of the history is declared */
    /* per platform that applies, the release x variant grid a GPU page
     * shows (the newest releases, the answer's cell marked); no rows where
     * the platform has no grid */
    struct relgrid pgrid[SITEDATA_NPLATFORMS];
    char id[24];             /* "6.1", "gfx1100": its device page and feed file */
    const struct gpu **gpus; /* its GPUs, by name (borrowed from the tables) */
    size_t ngpus;
    int has_page; /* it has a device page and file: every device code's
                   * own (not Arm-host) device has */
};

/* One line of a GPU page's history: consecutive releases of one (project,
 * variant, platform), newest first, that got the same answer. */
struct sitedata_run {
    const char *project, *variant, *platform;
    size_t newest, oldest; /* view rows: the newest patch of each end's release */
    const char *newest_release, *oldest_release; /* their releases (borrowed) */
    char *newest_page, *oldest_page;             /* their release pages */
    size_t count;                                /* releases in the run */
    const struct compat_result *res;
    int status;
    const char *confidence; /* of declared rows, or NULL */
    const char *provenance;
    size_t seq; /* order of the run's start within its group */
};

/* The runs of one project (n of them, borrowed from the device's), with
 * the id of its table. */
struct sitedata_history_group {
    const char *project;
    char *anchor;
    const struct sitedata_run *runs;
    size_t n;
};

/* sitedata_text.c */
/* A grid as the table a page shows for platform k (its caption names the
 * platform and the vendor's kind of variant); caller frees. */
const char *sitedata_platform_name(const char *id);
/* An id not yet used on a page (used: its ids so far): prefix + a slug of
 * raw, then "-2", "-3", ... while taken; caller frees. */
char *sitedata_page_id(struct strmap *used, const char *prefix, const char *raw);
void sitedata_rocm_of(const struct dbview_row *row, char *buf, size_t n);
json_t *sitedata_cc_json(uint16_t cc);
/* JSON for a <script type="application/json"> element: "<" escaped so the
 * text can never close the element.  Caller frees. */
char *sitedata_script_json(json_t *v);

/* sitedata_shared.c */
/* The newest row of each (project, release, variant, platform): d->newest
 * and d->newest_of, made once by sitedata_begin. */
void sitedata_build_newest(struct sitedata *d);
long sitedata_newest_row(const struct sitedata *d, const char *project, const char *release,
                         const char *variant, const char *platform);
/* Whether view row r is the newest of its (project, release, variant,
 * platform): sitedata_newest_row of its own fields, without a lookup. */
int sitedata_is_newest(const struct sitedata *d, size_t r);
/* query's answer for torch on a device and platform, with the grid's
 * verdicts; with pys (npys, may be 0) each of those Pythons' driver table
 * too.  NULL when there is none.  Caller frees with answer_free. */
struct answer_result *sitedata_answer_for(struct sitedata *d, uint16_t cc, int arm_host,
                                          int not_jetpack, const char *platform,
                                          const struct query_python *pys, size_t npys);
/* The rest of the stack for a device on a platform (stack_answer_projects
 * of the names of stack_projects).  Caller frees with stack_free. */
struct stack_result *sitedata_stack_of(struct sitedata *d, const char *const *names, size_t n,
                                       uint16_t cc, int arm_host, const char *platform);

/* The builders of each kind of page or document (sitedata_<kind>.c). */
void sitedata_build_gpus(struct sitedata *d);
void sitedata_gpus_free(struct sitedata *d);
/* sitedata_answer.c: the parts of a platform's answer a template reads,
 * as field getters of a platform's value (p is its struct
 * sitedata_gpu_platform), for the GPU page's platform table: its installs
 * (null where it has none), the driver table, plain pip, the newest
 * release with native code per variant, the ways forward, the guidance
 * and the stack.  And guidance alone, as a value. */
struct sitedata_gpu_platform;
struct answer_guidance;
struct tmpl_value;
void sitedata_answer_recommendation(const struct tmpl_value *v, struct tmpl_value *out);
void sitedata_answer_fallback(const struct tmpl_value *v, struct tmpl_value *out);
void sitedata_answer_newest_with_code(const struct tmpl_value *v, struct tmpl_value *out);
void sitedata_answer_by_driver(const struct tmpl_value *v, struct tmpl_value *out);
void sitedata_answer_pypi(const struct tmpl_value *v, struct tmpl_value *out);
void sitedata_answer_last_native(const struct tmpl_value *v, struct tmpl_value *out);
void sitedata_answer_way_forward(const struct tmpl_value *v, struct tmpl_value *out);
void sitedata_answer_self_build(const struct tmpl_value *v, struct tmpl_value *out);
void sitedata_answer_guidance(const struct tmpl_value *v, struct tmpl_value *out);
void sitedata_answer_stack(const struct tmpl_value *v, struct tmpl_value *out);
void sitedata_guidance_value(const struct answer_guidance *g, struct tmpl_value *out);
/* The device of GPU page i (sitedata_gpus.c). */
const struct sitedata_device *sitedata_gpu_device(const struct sitedata *d, size_t i);

void sitedata_build_home(struct sitedata *d);
void sitedata_build_matrix_page(struct sitedata *d);
void sitedata_matrix_free(struct sitedata *d);
void sitedata_build_changes(struct sitedata *d);

/* sitedata_wheel.c: what the typed pages' types share (wheel, release, GPU).
 * - sitedata_name_is: whether the template's name (len bytes) is want;
 * - sitedata_count: a count as the record's JSON had it (missing when < 0);
 * - sitedata_target_order: b's targets' places in target order (SASS, PTX,
 *   gfx, each by architecture; records keep them by name); caller frees;
 * - the types of a struct recbinary_targets (names), a struct
 *   recbinary_target (name, modules, bytes, codecs, isa, ...) and a struct
 *   recbinary_lines (strings). */
struct recbinary;
struct tmpl_value;
int sitedata_name_is(const char *name, size_t len, const char *want);
/* s, or null where it is NULL or "" (as the feed's str_or_null writes it);
 * an object or an array of a type (tmpl_value_typed). */
struct tmpl_type;
void sitedata_or_null(const char *s, struct tmpl_value *out);
void sitedata_object(const struct tmpl_type *type, const void *p, size_t at,
                     struct tmpl_value *out);
void sitedata_array(const struct tmpl_type *type, const void *p, size_t at, struct tmpl_value *out);
void sitedata_count(long long v, struct tmpl_value *out);
size_t *sitedata_target_order(const struct recbinary *b);
extern const struct tmpl_type sitedata_targets_type;
extern const struct tmpl_type sitedata_target_type;
extern const struct tmpl_type sitedata_lines_type;

/* The driver from which r's driver table gives install i (a build of r),
 * when it is higher than i's own floor (the table names another build
 * between them), else NULL: what the pages name as the answer's driver. */
struct answer_result;
struct answer_install;
const char *sitedata_table_driver(const struct answer_result *r, const struct answer_install *i);

#endif
