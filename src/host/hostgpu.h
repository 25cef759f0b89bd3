/*
 * hostgpu: the GPUs and GPU drivers of the machine wheelarch runs on.
 *
 * NVIDIA, in this order of preference:
 *   1. NVML, loaded at run time with dlopen(o->nvml_library,
 *      "libnvidia-ml.so.1" by default): no build dependency, and a machine
 *      without the library has no NVIDIA driver.  Every device's name and
 *      compute capability, the driver's version and the newest CUDA it
 *      supports (nvmlSystemGetCudaDriverVersion_v2).
 *   2. Without NVML: the driver's version from ROOT/proc/driver/nvidia/version,
 *      and the devices from `nvidia-smi --query-gpu=name,compute_cap,
 *      driver_version --format=csv,noheader` (o->nvidia_smi; compute_cap
 *      needs driver 510 or newer).
 * AMD: every node of ROOT/sys/class/kfd/kfd/topology/nodes/N/properties
 * with a nonzero gfx_target_version (major * 10000 + minor * 100 +
 * stepping: 90010 is gfx90a), its name from the node's `name`; the ROCm
 * version from ROOT/opt/rocm/.info/version when installed.
 *
 * ROOT is o->sysroot ("" for "/"): tests point it at a fixture tree.  The
 * caller (the tool) reads the environment; this module never does.
 * Nothing here fails for want of a GPU: a machine without one gets an
 * empty list, and each source that could not be read leaves a note.
 *
 * Ownership: hostgpu_detect fills *out, freed with hostgpu_free.
 */
#ifndef WHEELARCH_HOSTGPU_H
#define WHEELARCH_HOSTGPU_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

enum hostgpu_vendor { HOSTGPU_NVIDIA = 1, HOSTGPU_AMD = 2 };

struct hostgpu {
    int vendor;
    char *name;      /* "NVIDIA GeForce GTX 1080 Ti", "gfx90a" when nothing better */
    char code[16];   /* "6.1", "gfx90a": what --cc takes */
    int xnack;       /* AMD: 1 on, 0 off, -1 not known */
    const char *via; /* "NVML", "nvidia-smi", "KFD topology", "WHEELARCH_GPUS" (static) */
};

struct hostgpu_info {
    struct hostgpu *gpus;
    size_t ngpus;
    char *driver;           /* NVIDIA driver version "570.86.15", or NULL */
    char *driver_cuda;      /* the newest CUDA it supports, "12.8" (NVML only), or NULL */
    const char *driver_via; /* "NVML", "/proc/driver/nvidia/version", "nvidia-smi", ... */
    char *rocm;             /* "6.4.1", or NULL */
    char **notes;           /* why a source said nothing ("NVML: not installed") */
    size_t nnotes;
};

struct hostgpu_options {
    const char *sysroot;      /* prefix of /proc, /sys and /opt paths; NULL or "" for none */
    const char *nvml_library; /* NULL: "libnvidia-ml.so.1" */
    const char *nvidia_smi;   /* NULL: "nvidia-smi" (found on PATH); "" to skip */
    int xnack;                /* AMD xnack mode when the caller knows it (HSA_XNACK), else -1 */
};

/* Detects this machine's GPUs and drivers.  Returns 0 (possibly with no
 * GPU).  Caller frees out with hostgpu_free. */
int hostgpu_detect(const struct hostgpu_options *o, struct hostgpu_info *out);

/* Replaces the GPUs of info with those of a list such as
 * "6.1,12.0,gfx90a" or GPU names ("GTX 1080 Ti,6.1"), each entry kept as
 * written (the caller resolves names), via "WHEELARCH_GPUS".  Returns 0,
 * or WA_ERR_USAGE for an empty entry. */
int hostgpu_override(struct hostgpu_info *info, const char *list, const char *via,
                     struct wa_error *err);

/* Parses gfx_target_version (90010) into "gfx90a"; returns 0, or -1 for 0
 * (a CPU node) or a value out of range. */
int hostgpu_gfx_name(unsigned long v, char *out, size_t n);

/* The NVIDIA driver version in the text of /proc/driver/nvidia/version
 * ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.86.15  ..."), or
 * NULL.  Caller frees. */
char *hostgpu_proc_driver(const char *text);

/* One line of nvidia-smi's CSV (name, compute_cap, driver_version) into
 * gpu (vendor, name, code) and *driver; returns 0 or -1. */
int hostgpu_smi_line(const char *line, struct hostgpu *gpu, char **driver);

void hostgpu_free(struct hostgpu_info *info);

#endif
