/*
 * cudaverify: asks the NVIDIA driver itself whether installed GPU code
 * loads (`doctor --verify`).
 *
 * libcuda.so.1 is loaded at run time with dlopen (never linked).  For each
 * fatbin container (a module) of a library's .nv_fatbin sections, every
 * SASS entry is handed to cuModuleLoadData on its own: one that loads
 * means the module runs natively.  A module none of whose SASS loads has
 * its PTX handed over the same way, and the driver's JIT compile is
 * timed.  The static verdict of the same module (compat_sass_runs /
 * compat_ptx_jits for the device's compute capability) is kept beside the
 * driver's, and each module where they differ is a disagreement: the
 * physical check of the compatibility rules.
 */
#ifndef WHEELARCH_CUDAVERIFY_H
#define WHEELARCH_CUDAVERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "tables.h"

/* At most this many modules of one file are handed to the driver (a
 * large library holds thousands; the count checked is reported). */
#define CUDAVERIFY_MAX_MODULES 512

struct cudaverify;

/* What the driver did with a file's (or a distribution's) modules. */
struct cudaverify_counts {
    size_t modules; /* loadable fatbin containers found */
    size_t checked; /* of them, handed to the driver */
    size_t native;  /* a SASS entry loaded */
    size_t jit;     /* no SASS loaded, the PTX did */
    size_t none;    /* nothing loaded */
    double jit_seconds;
    /* the static verdict of the checked modules */
    size_t static_native, static_jit, static_none;
    size_t disagreements;
    char first_disagreement[256]; /* "" when none */
    size_t unreadable;            /* entries that could not be decompressed */
};

/* Loads the driver and makes a context on device `ordinal` (0: the
 * first).  Returns 0, or -1 with why (one line) when there is no driver,
 * no GPU or no such device; nothing is left loaded then. */
int cudaverify_open(int ordinal, struct cudaverify **out, char *why, size_t n);
/* The device: its name, compute capability (61, 120) and the driver's
 * CUDA version (12080). */
const char *cudaverify_device_name(const struct cudaverify *v);
uint16_t cudaverify_device_cc(const struct cudaverify *v);
int cudaverify_driver_cuda(const struct cudaverify *v);
/* Checks the modules of one file (ELF with .nv_fatbin sections, or a bare
 * fatbin), adding to *c.  Returns 0, or -1 with err set when the file
 * cannot be read. */
int cudaverify_file(struct cudaverify *v, const struct tables *t, const char *path,
                    struct cudaverify_counts *c, struct wa_error *err);
void cudaverify_close(struct cudaverify *v);

#endif
