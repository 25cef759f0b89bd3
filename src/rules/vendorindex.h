/*
 * vendorindex: builds a vendor publishes on its own index rather than on
 * download.pytorch.org (data/vendor_indexes.csv): NVIDIA's Windows on Arm
 * builds for RTX Spark, AMD's ROCm 10 builds on its whl-next index.  Each
 * row is one project's version of one variant on one platform: where it
 * is, who publishes it, whether its index holds its dependencies (else
 * they come from PyPI and the index is an extra one), whether it is a
 * preview, and whether its GPU code comes by an install extra named for
 * the GPU (AMD's torch[device-gfx1100]) rather than in the wheel itself.
 */
#ifndef WHEELARCH_VENDORINDEX_H
#define WHEELARCH_VENDORINDEX_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "tables_types.h"

struct vendor_build {
    char *project;   /* "torch", PEP 503-normalised */
    char *version;   /* "2.14.0": the published public version */
    char *release;   /* "2.14": its major.minor */
    char *platform;  /* "windows-arm64" */
    char *variant;   /* "cu134": the version's local label */
    char *index_url; /* "https://pypi.nvidia.com/nvtorch_oot/", with its '/' */
    char *vendor;    /* "NVIDIA" */
    /* the index holds only the vendor's projects: installers add it to
     * PyPI (--extra-index-url) and pin the exact version with its label */
    int extra;
    int preview; /* the vendor's or wheelarch's word for it is a preview */
    char *note;  /* one sentence on what it is, shown with its answers */
    char *line;  /* the note as query says it: "a preview: NVIDIA's own ..." */
    /* query's note where every declared row of an answer is the vendor's
     * (all: every row is declared; some: some are) */
    char *declared_all, *declared_some;
    /* the install extra that adds one GPU target's code, "{gfx}" standing
     * for the target ("device-{gfx}"), or NULL when the wheel carries its
     * GPU code itself */
    char *gpu_extra;
    /* the package such an extra installs, "{gfx}" standing for the target
     * ("amd-torch-device-{gfx}"): crawled, its kernel archives are the
     * build's measured GPU code; NULL when none is named */
    char *gpu_package;
    /* the Pythons the vendor builds it for, ascending ("3.10" ... "3.14"),
     * free-threaded ones marked; npythons 0: as the release's own table */
    uint16_t pythons[16];
    uint8_t pythons_ft[16];
    size_t npythons;
    char *source;
};

/* Loads data/vendor_indexes.csv from dir into t (t->vendor).  A missing
 * file is no error.  Errors name the file and line: a version that is not
 * X.Y.Z or X.Y.Z.W, a gpu_extra without "{gfx}", an index URL outside indexurl's grammar, an
 * unknown install or status, a row twice. */
int vendorindex_load(const char *dir, struct tables *t, struct wa_error *err);
void vendorindex_free(struct vendor_build *b, size_t n);

/* The row of project's release (major.minor) for variant on platform, or
 * NULL: download.pytorch.org publishes it, if anyone does. */
const struct vendor_build *vendorindex_find(const struct tables *t, const char *project,
                                            const char *release, const char *platform,
                                            const char *variant);

/* The extra of b that installs the code for target gfx ("device-gfx1100"),
 * or NULL when b has no such extras.  Caller frees. */
char *vendorindex_extra(const struct vendor_build *b, const char *gfx);

/* The vendor row whose gpu_package pattern name fits
 * ("amd-torch-device-gfx1100"), of project owner (NULL: any), or NULL. */
const struct vendor_build *vendorindex_gpu_package(const struct tables *t, const char *owner,
                                                   const char *name);

/* Whether b is on the index at url (with or without its trailing '/'). */
int vendorindex_at_url(const struct vendor_build *b, const char *url);

/* Some row of project on the index at url (with or without its trailing
 * '/'; project NULL: any project), or NULL when it is no vendor's index. */
const struct vendor_build *vendorindex_of_url(const struct tables *t, const char *project,
                                              const char *url);

#endif
