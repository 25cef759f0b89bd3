/*
 * explain: the error and warning texts people paste, read into what they
 * say about the GPU, the driver and the installed build.
 *
 * explain_parse reads any text (a traceback, torch's warnings, nvidia-smi's
 * output, rocminfo's) and fills a struct explain_facts: which known
 * messages it holds (enum explain_message), the GPU's name and device code
 * where the text gives them, the arch list of the installed torch where a
 * warning prints it, the driver and its CUDA from nvidia-smi's header, and
 * the installed torch version.  docs/explain.md lists the messages, the
 * exact texts they are recognised by, and what each means.  The text is
 * untrusted: every read is bounded, nothing is kept from it but the fields
 * below (each cut to its size), and it is never echoed raw.
 *
 * Ownership: a struct explain_facts is plain data; it owns nothing.
 */
#ifndef WHEELARCH_EXPLAIN_H
#define WHEELARCH_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

/* The messages recognised, as bits of explain_facts.messages. */
enum explain_message {
    EXPLAIN_NOT_COMPATIBLE = 1 << 0,          /* "X with CUDA capability sm_61 is not compatible
                                               * with the current PyTorch installation" */
    EXPLAIN_TOO_OLD = 1 << 1,                 /* "Found GPU0 X which is of cuda capability 3.5.
                                               * PyTorch no longer supports this GPU" */
    EXPLAIN_CC_TABLE = 1 << 2,                /* torch 2.11 on: "Found GPU0 X which is of compute
                                               * capability (CC) 6.1. The following list shows ..." */
    EXPLAIN_NO_KERNEL = 1 << 3,               /* "no kernel image is available for execution on the
                                               * device" */
    EXPLAIN_PTX_TOOLCHAIN = 1 << 4,           /* "the provided PTX was compiled with an unsupported
                                               * toolchain" */
    EXPLAIN_DRIVER_INSUFFICIENT = 1 << 5,     /* "CUDA driver version is insufficient for CUDA
                                               * runtime version" */
    EXPLAIN_NO_CUDA = 1 << 6,                 /* "Torch not compiled with CUDA enabled" */
    EXPLAIN_INVALID_DEVICE_FUNCTION = 1 << 7, /* HIP/CUDA "invalid device function" */
    EXPLAIN_HSA_OVERRIDE = 1 << 8,            /* HSA_OVERRIDE_GFX_VERSION=X.Y.Z set */
    EXPLAIN_NVIDIA_SMI = 1 << 9, /* nvidia-smi's header or table, or --query-gpu lines */
};

#define EXPLAIN_ARCH_MAX 48

struct explain_facts {
    unsigned messages; /* enum explain_message bits */
    char gpu_name[96]; /* as the text names it ("NVIDIA GeForce GTX 1080 Ti"), or "" */
    uint16_t cc;       /* compute capability (61) or AMD processor (0x1030); 0: none */
    int cc_from;       /* enum explain_message the device code was read from */
    uint16_t min_cc;   /* EXPLAIN_TOO_OLD: the build's lowest capability */
    /* The installed build's targets as the warning lists them ("sm_75",
     * "compute_120"; EXPLAIN_CC_TABLE: "sm_75" per listed CC). */
    char arch[EXPLAIN_ARCH_MAX][16];
    size_t narch;
    char driver[32];    /* "535.104.05" (nvidia-smi's Driver Version), or "" */
    char cuda[16];      /* "12.2" (nvidia-smi's CUDA Version: what the driver supports) */
    char torch[48];     /* the installed torch, "2.14.0+cu130", where a warning names it */
    char csv_line[160]; /* a `nvidia-smi --query-gpu=name,compute_cap` line, or "" */
};

/* Reads text (n bytes, not necessarily NUL-terminated) into f (zeroed
 * first).  Returns the number of messages recognised (the bits set). */
int explain_parse(const char *text, size_t n, struct explain_facts *f);

/* The message bit as a short name ("not-compatible", "no-kernel-image"). */
const char *explain_message_name(unsigned bit);

#endif
