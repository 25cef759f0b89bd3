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

#include <jansson.h>
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

/* Runs the driver's checks of every item in a child on device 0.  Returns
 * a new object:
 *   "device": {"available": true, "device", "compute_capability",
 *              "driver_cuda"} or {"available": false, "why"};
 *   "items":  per item, its counts (modules, checked, native, jit, none,
 *             jit_seconds, static {native, jit, none}, disagreements,
 *             first_disagreement, unreadable, errors) or null when it was
 *             not reached;
 *   "failed": present when the child did not finish: one line saying how
 *             it ended (a signal, an exit status, silence) and what it was
 *             loading; "failed_item": that item's index, when it was in one.
 * timeout_s: seconds allowed per file, > 0. */
json_t *verifyrun(const struct tables *t, const struct verifyrun_item *items, size_t n,
                  int timeout_s);

#endif
