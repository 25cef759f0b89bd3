/*
 * tables_releases: lookups over the release tables (tables_types.h):
 * which variants a release publishes per platform, its Python versions,
 * torch's companions, GPU library wheels, and arch lists as written.
 */
#ifndef WHEELARCH_TABLES_RELEASES_H
#define WHEELARCH_TABLES_RELEASES_H

#include <stddef.h>
#include <stdint.h>

#include "tables_types.h"
#include "target.h"

/* A Python version as people write it ("3.12", "3.13t", "2.7") into
 * major * 100 + minor and whether it is a free-threaded build; -1 when it
 * is not one (major 2 or 3, minor below 100). */
int tables_python_parse(const char *s, uint16_t *version, int *free_threaded);
/* "3.12" or "3.13t" into buf (16 bytes are enough). */
void tables_python_format(uint16_t version, int free_threaded, char *buf, size_t n);

/* Whether `version` of project has an official wheel for Python py
 * (free-threaded or not) on platform: 1 yes, 0 no, -1 not known (the
 * data has no row for it).  whole_release: the version is a release pin
 * ("2.8.*"), which any patch of the release with such a wheel satisfies.
 * A row covers its release's patches from its own on (a patch row "1.7.1"
 * those after 1.7.1, the "1.7" row those before).  variant (or NULL):
 * a vendor's build of it (data/vendor_indexes.csv) that names its own
 * Pythons answers with those instead. */
int tables_python_has(const struct tables *t, const char *project, const char *version,
                      const char *platform, const char *variant, int whole_release, uint16_t py,
                      int free_threaded);
/* The Python versions (free-threaded ones when free_threaded) of the same
 * rows, ascending, into out (at most max); 0 when not known or none. */
size_t tables_python_versions(const struct tables *t, const char *project, const char *version,
                              const char *platform, const char *variant, int whole_release,
                              int free_threaded, uint16_t *out, size_t max);

/* The companions of a torch version ("2.8.0"), or NULL. */
const struct companion *tables_companion(const struct tables *t, const char *torch);
/* Whether companion project (torchvision, torchaudio) at version ("0.3.2",
 * "0.19" for a whole release) has a wheel of variant on platform: 1 yes
 * (or nothing says otherwise), 0 no, with *why set to a static or borrowed
 * reason in words. From torch 2.6 on the release table lists the
 * companions' variants per platform; before, the first version per
 * platform decides. */
int tables_companion_has(const struct tables *t, const char *project, const char *version,
                         const char *platform, const char *variant, const char **why);

/* The GPU library a distribution (normalised name) is ("cuDNN" for
 * nvidia-cudnn-cu12), or NULL when it is none. */
const char *tables_gpu_library(const struct tables *t, const char *project);

/* The release row of a project on a platform (its newest patch row), or NULL. */
const struct release_info *tables_release(const struct tables *t, const char *project,
                                          const char *release, const char *platform);
/* The release row that covers one version of a release: of its rows
 * ("2.9", "2.9.1"), the newest at or before version ("2.9.1" for 2.9.1 and
 * 2.9.2, "2.9" for 2.9.0), so that a variant published for one patch only
 * is known as such.  NULL when none. */
const struct release_info *tables_release_at(const struct tables *t, const char *project,
                                             const char *version, const char *platform);
/* Whether a release row lists a variant. */
int tables_release_has(const struct release_info *r, const char *variant);

/* Parses a TORCH_CUDA_ARCH_LIST ("5.0;6.0;9.0+PTX;9.0a") into targets. */
void tables_parse_arch_list(const char *list, struct target *sass, size_t *nsass, size_t maxs,
                            struct target *ptx, size_t *nptx, size_t maxp);

#endif
