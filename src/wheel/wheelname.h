/*
 * wheelname: wheel file names (PEP 427, PEP 491, PEP 440 local labels).
 *
 * `torch-2.8.0+cu128-cp312-cp312-manylinux_2_28_x86_64.whl` parses to
 * project "torch", version "2.8.0+cu128", public version "2.8.0", local
 * label "cu128", python "cp312", abi "cp312", platform
 * "manylinux_2_28_x86_64".  Percent escapes (%2B from URLs) are decoded.
 */
#ifndef WHEELARCH_WHEELNAME_H
#define WHEELARCH_WHEELNAME_H

#include "error.h"

struct wheel_name {
    char *filename;       /* as given, decoded */
    char *project;        /* as in the file name */
    char *normalized;     /* PEP 503: lowercase, runs of -_. become - */
    char *version;        /* full version, local label included */
    char *public_version; /* version without the local label */
    char *local;          /* local label without '+', or NULL */
    char *build;          /* build tag, or NULL */
    char *python;         /* tags, possibly compressed sets such as "py2.py3" */
    char *abi;
    char *platform;
};

/* Parses a file name (a path's directories are ignored).  On success the
 * caller frees w with wheelname_free.  Returns 0 or WA_ERR_FORMAT. */
int wheelname_parse(const char *filename, struct wheel_name *w, struct wa_error *err);
void wheelname_free(struct wheel_name *w);

/* PEP 503 normalisation of a project name; caller frees. */
char *wheelname_normalize(const char *project);

/* Our platform id for a platform tag set: "linux-x86_64", "linux-aarch64",
 * "windows-x86_64", "windows-arm64", "macos-arm64", "macos-x86_64", "any",
 * or "other". */
const char *wheelname_platform_id(const char *platform_tag);

/* Decodes %XX escapes; caller frees. */
char *wheelname_percent_decode(const char *s);

#endif
