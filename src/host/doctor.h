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
 * The result is a struct doctor_result; its JSON (doctor_json.h) is a
 * public interface (`wheelarch doctor --json`, documented in README.md),
 * with "exit": 0 when every
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
#include "installcmd.h"
#include "multigpu.h"
#include "tables.h"
#include "verifyrun.h"

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
    const char *rocm;     /* the installed ROCm ("6.4.1"), or NULL */
    /* Also ask the NVIDIA driver (cudaverify.h): each distribution's
     * modules loaded natively, by JIT only, or not at all, beside the
     * static verdict; "verify" in the report. */
    int verify;
    /* Seconds the driver may take per file before its process is stopped
     * (0: VERIFYRUN_TIMEOUT_DEFAULT). */
    int verify_timeout;
};

/* One GPU's verdict on a distribution. */
struct doctor_gpu_verdict {
    const char *gpu; /* the GPU's label (borrowed from the options) */
    size_t count;    /* GPUs of this kind */
    int verdict;     /* enum compat_verdict */
    char *reason;
    char *min_driver; /* the code's driver floor on this OS, or NULL */
};

/* What replaces an installed build that does not run natively: a build
 * of it that runs better (query's answer for its release, else its
 * newest), and/or the driver that makes this one run. */
struct doctor_fix {
    int has_build;              /* index ... commands are set */
    char *index, *index_url;    /* "cu129" and its URL (NULL: the default) */
    char *version;              /* the release the commands pin ("2.8") */
    int verdict;                /* enum compat_verdict, on the machine's GPUs */
    struct installcmd commands; /* uninstall and install; no lines when unsafe */
    char *driver;               /* the NVIDIA driver that runs this build, or NULL */
};

/* An installed distribution with GPU code, judged. */
struct doctor_dist {
    char *name, *version, *variant;
    const char *variant_source; /* how the variant was found (static) */
    char *site;                 /* printable */
    size_t gpu_files;
    char **libraries; /* the pinned GPU libraries judged with it: "cuDNN 9.10.2.21" */
    size_t nlibraries;
    struct doctor_gpu_verdict *verdicts; /* one per GPU kind, in the options' order */
    size_t nverdicts;
    int verdict; /* the worst */
    int has_fix; /* fix is set (verdict not native, and something helps) */
    struct doctor_fix fix;
    /* --verify: the driver's counts for it (borrowed from the result's
     * verify), or why it has none (verify_failed); both NULL when not asked
     * or the driver was not usable. */
    const struct verifyrun_counts *verify;
    const char *verify_failed;
    /* its code as wheel-variant properties, in the terms of the index's
     * variant metadata (variantprops_of_row; owned), and whether the
     * machine's (the result's machine) select them */
    json_t *properties;
    int selected;
};

/* What could not be checked: a distribution without a readable RECORD
 * (why NULL), or one a limit or an unreadable METADATA cut short (version
 * NULL when the .dist-info gives none; name "(the folder)" for the folder's
 * own limit).  Strings printable. */
struct doctor_unchecked {
    char *name, *version, *site, *why;
};

/* The report.  Owned; free with doctor_result_free. */
struct doctor_result {
    char **site_packages; /* printable */
    size_t nsite_packages;
    char *platform;
    struct doctor_dist *dists; /* those with GPU code of their own, in folder order */
    size_t ndists;
    size_t installed;        /* distributions listed */
    size_t without_gpu_code; /* of them, with no GPU files */
    struct doctor_unchecked *without_record, *incomplete;
    size_t nwithout_record, nincomplete;
    int exit;     /* DOCTOR_EXIT_* */
    int verified; /* --verify ran: verify is its result */
    struct verifyrun_result verify;
    /* the wheel-variant properties the machine supports (hostvariants;
     * owned): what `wheelarch variants` prints */
    json_t *machine;
};

/* Runs the checks into r.  Returns 0, or -1 with err set (r empty) when no
 * site-packages folder can be read. */
int doctor_run(const struct doctor_options *o, struct doctor_result *r, struct wa_error *err);
void doctor_result_free(struct doctor_result *r);

/* The path of one RECORD line ("a/b.so,sha256=...,123", quoted when it
 * holds a comma), or NULL.  Caller frees. */
char *doctor_record_path(const char *line);

#endif
