/*
 * sitedata_impl: what the files of sitedata share (sitedata.c: helpers, the
 * newest rows, recommendations, the entry points; sitedata_feeds.c,
 * sitedata_gpus.c, sitedata_home.c, sitedata_releases.c: one kind of page
 * or document each).  Not for other modules.
 */
#ifndef WHEELARCH_SITEDATA_IMPL_H
#define WHEELARCH_SITEDATA_IMPL_H

#include "sitedata.h"

struct strmap;

/* The platforms the site covers, in the order pages show them. */
#define SITEDATA_NPLATFORMS 3
extern const char *const sitedata_platforms[SITEDATA_NPLATFORMS];

/* The answers for one device, cached per (device, Arm host). */
struct recs {
    uint16_t cc;
    int arm_host;
    json_t *by_platform; /* {"linux-x86_64": result or null} */
};

/* Helpers (sitedata.c) and the builders of each kind of document. */
const char *sitedata_platform_name(const char *id);
void sitedata_set_page_id(json_t *o, const char *key, struct strmap *used, const char *prefix,
                          const char *raw);
void sitedata_set_href(json_t *o, const char *key, const char *url);
char *sitedata_release_path(const char *project, const char *version);
void sitedata_rocm_of(const struct dbview_row *row, char *buf, size_t n);
json_t *sitedata_cc_json(uint16_t cc);
long sitedata_newest_row(const struct sitedata *d, const char *project, const char *release,
                         const char *variant, const char *platform);
/* Whether view row r is the newest of its (project, release, variant,
 * platform): sitedata_newest_row of its own fields, without a lookup. */
int sitedata_is_newest(const struct sitedata *d, size_t r);
json_t *sitedata_answer_of(json_t *r);
json_t *sitedata_stack_for(struct sitedata *d, const char *const *names, size_t n, uint16_t cc,
                           int arm_host, const char *platform);
json_t *sitedata_recs_for(struct sitedata *d, struct recs *cache, size_t *ncache, uint16_t cc,
                          int arm_host);
json_t *sitedata_meta_copy(const struct sitedata *d);
char *sitedata_script_json(json_t *v);
void sitedata_build_gpus(struct sitedata *d);
void sitedata_gpus_free(struct sitedata *d);
void sitedata_build_home(struct sitedata *d);
void sitedata_build_matrix_page(struct sitedata *d);
void sitedata_build_changes(struct sitedata *d);

#endif
