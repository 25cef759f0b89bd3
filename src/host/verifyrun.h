/*
 * verifyrun: `doctor --verify`'s calls into the NVIDIA driver, made in a
 * child process.
 *
 * The driver is a library wheelarch does not control: one that crashes in
 * cuInit or cuModuleLoadData, hangs, or calls exit() would take doctor down
 * with it, or end it with status 0 and no report (a CI gate that passes
 * when it should not).  So a child makes every call (cudaverify.h) and
 * sends one JSON line per step over a pipe: the device, then each file as
 * it starts and each item's counts as it ends.  The parent reads them with
 * a time limit per file; a child that dies, ends early or goes silent is
 * reported as a failed verification naming what it was loading.  The
 * child's standard output goes to standard error, so a chatty driver
 * cannot corrupt `doctor --json`.
 */
#ifndef WHEELARCH_VERIFYRUN_H
#define WHEELARCH_VERIFYRUN_H

#include <stddef.h>

#include "tables.h"

/* One distribution to hand to the driver: its files with GPU code. */
struct verifyrun_item {
    const char *label;        /* "torch 2.8.0+cu126", for messages */
    const char *site;         /* the folder the paths are relative to */
    const char *const *paths; /* relative paths, npaths of them */
    size_t npaths;
};

/* Seconds one file may take (its modules' loads and PTX JITs) before the
 * child is stopped; doctor --verify-timeout sets another. */
#define VERIFYRUN_TIMEOUT_DEFAULT 600

/* What the device line said, each field checked. */
struct verifyrun_device {
    int available;
    char *name, *compute_capability; /* when available: "NVIDIA H100", "9.0" */
    long long driver_cuda;           /* when available: 13000 for CUDA 13.0 */
    char *why;                       /* when not available: one line */
};

/* One item's counts as the driver found them (cudaverify_counts, checked
 * on the way out of the child).  Strings are printable ASCII, at most 300
 * bytes. */
struct verifyrun_counts {
    int reached; /* 0: the child never came to this item (the rest is 0) */
    long long modules, checked, native, jit, none, unreadable, disagreements;
    double jit_seconds;
    long long static_native, static_jit, static_none;
    char *first_disagreement; /* NULL when there is none */
    char *errors[3];          /* the first files' errors */
    size_t nerrors;
};

/* What the driver's process reported.  Owned; free with
 * verifyrun_result_free. */
struct verifyrun_result {
    struct verifyrun_device device; /* when it failed first: not available, why = failed */
    struct verifyrun_counts *items; /* one per item given, in order */
    size_t n;
    /* When the child did not finish: one line saying how it ended (a
     * signal, an exit status, silence) and what it was loading; else NULL.
     * failed_item: the item it was in, else -1. */
    char *failed;
    long failed_item;
};

/* Runs the driver's checks of every item in a child on device 0 into r.
 * timeout_s: seconds allowed per file, > 0. */
void verifyrun(const struct tables *t, const struct verifyrun_item *items, size_t n, int timeout_s,
               struct verifyrun_result *r);
void verifyrun_result_free(struct verifyrun_result *r);

#endif
