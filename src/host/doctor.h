/*
 * doctor: what is installed in a Python environment, and whether it runs on
 * this machine's GPUs.
 *
 * For each site-packages folder, every distribution (its *.dist-info:
 * METADATA's Name, Version and Requires-Dist; RECORD's files) is listed;
 * every installed file that can hold GPU code (*.so, *.so.N, *.dll, *.pyd,
 * inside the folder) is scanned with the same scanner as wheels, and the
 * distribution's own code is judged for each GPU with the compatibility
 * rules, together with the GPU libraries it pins that are installed
 * (nvidia-cudnn-cu12==9.10.2.21: their code joins the verdict and the
 * reason names them, as for wheels).  NVIDIA libraries bundled inside a
 * distribution are left out, as for wheels; a GPU library that another
 * installed distribution requires is judged with it, not alone.
 *
 * A distribution that does not run natively everywhere gets a fix: the
 * answer of query (the view: the database or the shipped declared lists)
 * for its project, release and the machine's GPUs, as commands that
 * replace the installed build.  Nothing here needs the network.
 *
 * The result is a JSON object, a public interface (`wheelarch doctor
 * --json`, documented in README.md), with "exit": 0 when every
 * distribution with GPU code runs natively on every GPU, 4 when one only
 * runs through PTX JIT (slow first start), 1 when one will fail, 5 when
 * nothing fails but something could not be checked ("incomplete"), 6
 * when --verify found the driver disagreeing with the rules; 1 too when
 * --verify's driver process crashed, ended early or went silent ("failed"
 * in "verify": a CI gate must not pass on a check that did not happen).
 */
#ifndef WHEELARCH_DOCTOR_H
#define WHEELARCH_DOCTOR_H

#include <jansson.h>
#include <stddef.h>

#include "dbview.h"
#include "error.h"
#include "multigpu.h"
#include "tables.h"

#define DOCTOR_EXIT_OK 0
#define DOCTOR_EXIT_FAIL 1
#define DOCTOR_EXIT_JIT 4
/* Nothing fails, but something could not be checked: a limit below was
 * hit, or a .dist-info's METADATA or RECORD could not be read ("incomplete"
 * in the report names each); or nothing was checked at all (no installed
 * distribution has GPU code: "distributions" is empty). */
#define DOCTOR_EXIT_INCOMPLETE 5
/* --verify: the driver loaded a module otherwise than the rules say (the
 * report names the first of each distribution): the static verdict of
 * this machine is not to be trusted. */
#define DOCTOR_EXIT_DISAGREE 6

/* Files scanned at most per distribution (each path once, however often
 * RECORD lists it), and distributions per folder; more is reported as a
 * limit hit, never dropped silently. */
#define DOCTOR_MAX_FILES 20000
#define DOCTOR_MAX_DISTS 20000

struct doctor_options {
    const char *const *site_dirs; /* site-packages folders, in order */
    size_t nsite_dirs;
    const struct tables *t;
    const struct dbview *v;          /* for fixes */
    const struct multigpu_gpu *gpus; /* the machine: query options per device (driver,
                                      * platform set), with labels */
    size_t ngpus;
    const char *platform; /* "linux-x86_64" ... */
    /* Also ask the NVIDIA driver (cudaverify.h): each distribution's
     * modules loaded natively, by JIT only, or not at all, beside the
     * static verdict; "verify" in the report. */
    int verify;
    /* Seconds the driver may take per file before its process is stopped
     * (0: VERIFYRUN_TIMEOUT_DEFAULT). */
    int verify_timeout;
};

/* Runs the checks.  Returns a new object, or NULL with err set when no
 * site-packages folder can be read. */
json_t *doctor_run(const struct doctor_options *o, struct wa_error *err);

/* The path of one RECORD line ("a/b.so,sha256=...,123", quoted when it
 * holds a comma), or NULL.  Caller frees. */
char *doctor_record_path(const char *line);

#endif
