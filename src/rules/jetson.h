/*
 * jetson: NVIDIA's own PyTorch builds for Jetson, per JetPack release
 * (data/jetson_pytorch.csv).  The download.pytorch.org and PyPI wheels do
 * not run on a Jetson's L4T (JetPack 7's Thor aside, which runs the SBSA
 * wheels): a Jetson GPU's answer is which JetPack it runs and where
 * NVIDIA publishes the torch built for that JetPack.
 */
#ifndef WHEELARCH_JETSON_H
#define WHEELARCH_JETSON_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "tables_types.h"

#define JETSON_MAX_DEVICES 8

struct jetson_build {
    char *jetpack;    /* "6.1 and 6.2" */
    char *l4t;        /* "R36.4" */
    char *cuda;       /* "12.6" */
    char *python;     /* "3.10" */
    char *torch;      /* "2.4.0;2.5.0;2.6.0rc1": the versions NVIDIA built */
    char *torch_text; /* the same in words: "2.4.0, 2.5.0, 2.6.0rc1" */
    char *index_url;  /* a pip index of NVIDIA's builds, or "" */
    char *where;      /* the page or folder with the wheels */
    char *source;
    char *checked_on;
    uint16_t devices[JETSON_MAX_DEVICES]; /* the compute capabilities of the Jetsons it runs on */
    size_t ndevices;
};

/* Loads data/jetson_pytorch.csv from dir into t (t->jetson).  A missing
 * file is no error.  Errors name the file and line: a device that is not
 * X.Y, a URL that is not https, a checked_on that is not a date. */
int jetson_load(const char *dir, struct tables *t, struct wa_error *err);
void jetson_free(struct jetson_build *j, size_t n);

/* Whether build b runs on compute capability cc. */
int jetson_runs_on(const struct jetson_build *b, uint16_t cc);

/* Whether GPU g runs JetPack, so that NVIDIA's builds for Jetson are its
 * answer: a Jetson module, or a Tegra chip as a Jetson's CUDA names it
 * ("NVIDIA Tegra X1" on a Jetson Nano).  Not the Tegra parts of NVIDIA's
 * DRIVE and IGX systems, which run DRIVE OS and IGX OS.  NULL (only a
 * compute capability known): yes. */
int jetson_takes_jetpack(const struct gpu *g);

#endif
