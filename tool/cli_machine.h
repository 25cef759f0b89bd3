/*
 * cli_machine: the GPUs a command answers for (see cli_machine.c).
 */
#ifndef WHEELARCH_CLI_MACHINE_H
#define WHEELARCH_CLI_MACHINE_H

#include <jansson.h>
#include <stddef.h>

#include "cli.h"
#include "dotver.h"
#include "multigpu.h"
#include "tables.h"

/* Distinct devices with their counts, and what was detected (NULL when the
 * GPUs were given). */
struct machine {
    struct multigpu_gpu *gpus; /* labels point into labels[] */
    size_t n;
    char **labels;
    json_t *detected;
    char *driver;     /* detected or WHEELARCH_DRIVER, or NULL */
    char *driver_how; /* "via NVML", "WHEELARCH_DRIVER" */
    char *line;       /* "detected: 2 × ... via NVML, driver 570.86.15" */
    char *rocm;       /* the installed ROCm detected ("6.4.1"), or NULL */
};

/* Fills m from --cc (ccs), the --gpu list (names), WHEELARCH_GPUS or
 * detection, then the command's --gpu-index.  Returns 0 or an exit status
 * (the error printed).  Caller frees m with machine_free either way. */
int choose_gpus(const struct cli_command *cmd, const struct cli_args *a, const struct tables *t,
                const char **names, size_t nnames, const char *ccs, struct machine *m);
void machine_free(struct machine *m);

/* Parses a driver version as NVIDIA writes it: numbers joined by single
 * dots ("570.86.15"), at most four of at most five digits, the first from
 * 100 to 999, nothing before or after.  A branch alone ("580") is any
 * driver of that branch, read as its newest (580.99999.99999), as the GPU
 * pages' driver box reads it: every R580 driver supports CUDA 13.0, so
 * "580" must not mean "older than 580.65.06".  Returns 0, or -1 (dv
 * zeroed). */
int machine_driver_parse(const char *s, struct dotver *dv);

/* The shipped tables (paths_data_dir).  Returns 0, or WA_EXIT_FAILURE
 * with the error printed. */
int machine_load_tables(struct tables *t);

/* The command's --platform, else this machine's; NULL after a usage error
 * when --platform is not one of linux-x86_64, linux-aarch64,
 * windows-x86_64 (the caller returns WA_EXIT_USAGE). */
const char *machine_platform(const struct cli_command *cmd, const struct cli_args *a);

/* choose_gpus with the command's own --gpu and --cc (not both), then the
 * driver: --driver, else the detected one or WHEELARCH_DRIVER; *driver is
 * its text (NULL when none) and *dv its parse.  0 or an exit status. */
int machine_from_args(const struct cli_command *cmd, const struct cli_args *a,
                      const struct tables *t, struct machine *m, const char **driver,
                      struct dotver *dv);

#endif
