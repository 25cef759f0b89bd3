/*
 * uvbackend: what `uv pip install --torch-backend ID` knows
 * (data/uv_torch_backends.csv): the index ids it maps to
 * https://download.pytorch.org/whl/ID and the projects it fetches from
 * there, each with the first uv release that has it.  An install whose
 * index is such an id and whose projects are all such projects gets uv's
 * own form, `uv pip install "torch==2.14.*" --torch-backend cu126`, which
 * fetches torch from PyTorch's index and everything else from PyPI.
 */
#ifndef WHEELARCH_UVBACKEND_H
#define WHEELARCH_UVBACKEND_H

#include <stddef.h>

#include "dotver.h"
#include "error.h"
#include "tables_types.h"

struct uv_backend_entry {
    int package;   /* 0: a backend (index id), 1: a project uv routes */
    char *name;    /* "cu126", "rocm6.2.4"; "torch" (PEP 503-normalised) */
    char *uv_from; /* "0.6.9" */
    struct dotver from;
};

/* Loads data/uv_torch_backends.csv from dir into t (t->uv).  A missing file
 * is no error (no answer then has uv's own form).  Errors name the file
 * and line: an unknown kind, a version that is not X.Y.Z, a name twice. */
int uvbackend_load(const char *dir, struct tables *t, struct wa_error *err);
void uvbackend_free(struct uv_backend_entry *e, size_t n);

/* The entry of a backend (package 0) or a project (package 1), or NULL
 * when uv has none. */
const struct uv_backend_entry *uvbackend_find(const struct tables *t, int package,
                                              const char *name);

#endif
