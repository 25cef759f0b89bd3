/*
 * sitedata_impl: what the files of sitedata share.  Not for other modules.
 * They call downwards only, in this order:
 *   sitedata.c          the entry points: which builder runs when
 *   sitedata_feeds.c, sitedata_simple.c, sitedata_gpus.c, sitedata_home.c,
 *   sitedata_changes.c, sitedata_release.c, sitedata_wheel.c, sitedata_matrix.c
 *                       one kind of page or document each
 *   sitedata_shared.c   what they ask of the shared data (the newest rows,
 *                       the answers per device)
 *   sitedata_text.c     names, paths, ids and links written from data
 */
#ifndef WHEELARCH_SITEDATA_IMPL_H
#define WHEELARCH_SITEDATA_IMPL_H

#include "query.h"
#include "sitedata.h"

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

/* The platforms the site covers, in the order pages show them. */
#define SITEDATA_NPLATFORMS 3
extern const char *const sitedata_platforms[SITEDATA_NPLATFORMS];

/* The answers for one device, cached per (device, Arm host). */
struct recs {
    uint16_t cc;
    int arm_host;
    json_t *by_platform; /* {"linux-x86_64": result or null} */
    /* With Pythons asked for: {"linux-x86_64": {"3.12": driver table, or 0
     * when it is the platform's own by_driver}}, else NULL. */
    json_t *py_tables;
};

/* sitedata_text.c */
const char *sitedata_platform_name(const char *id);
/* An id not yet used on a page (used: its ids so far): prefix + a slug of
 * raw, then "-2", "-3", ... while taken; caller frees.  set_page_id sets it
 * as o[key]. */
char *sitedata_page_id(struct strmap *used, const char *prefix, const char *raw);
void sitedata_set_page_id(json_t *o, const char *key, struct strmap *used, const char *prefix,
                          const char *raw);
void sitedata_set_href(json_t *o, const char *key, const char *url);
char *sitedata_release_path(const char *project, const char *version);
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
json_t *sitedata_answer_of(json_t *r);
json_t *sitedata_stack_for(struct sitedata *d, const char *const *names, size_t n, uint16_t cc,
                           int arm_host, const char *platform);
/* The answers for a device on every platform, made once per device in
 * cache; with pys (npys of them, may be 0), each platform's driver table
 * for each of those Pythons too (recs.py_tables).  Returns the entry. */
const struct recs *sitedata_recs_for(struct sitedata *d, struct recs *cache, size_t *ncache,
                                     uint16_t cc, int arm_host, const struct query_python *pys,
                                     size_t npys);
json_t *sitedata_meta_copy(const struct sitedata *d);

/* The builders of each kind of page or document (sitedata_<kind>.c). */
void sitedata_build_gpus(struct sitedata *d);
void sitedata_gpus_free(struct sitedata *d);
void sitedata_build_home(struct sitedata *d);
void sitedata_build_matrix_page(struct sitedata *d);
void sitedata_matrix_free(struct sitedata *d);
void sitedata_build_changes(struct sitedata *d);

/* sitedata_wheel.c: what the wheel and release pages' types share.
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
void sitedata_count(long long v, struct tmpl_value *out);
size_t *sitedata_target_order(const struct recbinary *b);
extern const struct tmpl_type sitedata_targets_type;
extern const struct tmpl_type sitedata_target_type;
extern const struct tmpl_type sitedata_lines_type;

#endif
