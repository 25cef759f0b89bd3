/*
 * cli_table: every command and option, with its help text.
 *
 * This table is the one place options are described: --help prints it and
 * README.md's command reference is generated from it (`wheelarch help
 * --markdown`); a test checks that the README matches.
 */
#include "cli.h"

#include <stddef.h>

static const struct cli_option scan_options[] = {
    {"json", 0, NULL, "print one JSON object per input per line (the public format)", 0},
    {"quiet", 'q', NULL, "print nothing for inputs without GPU code", 0},
    {NULL, 0, NULL, NULL, 0},
};

const struct cli_command cli_commands[] = {
    {"scan", "[--json] INPUT...",
     "Read the GPU architectures in wheels, ELF shared objects, PE DLLs and raw fatbins.",
     "INPUT is recognised by its content, not its name. Per binary: SASS targets (sm_XY, with "
     "the a/f suffixes), PTX targets (compute_XY) with their PTX ISA, how many fatbin modules "
     "carry each target and how many bytes it takes, the compression codecs, and the nvcc "
     "arch-flag string when the binary embeds one. Per wheel: the parsed file name, the sha256 "
     "and the members that hold GPU code. A target shown as sm_90a(2/343) is in 2 of the 343 "
     "modules. Exit status 0 when every input was read, 3 when some failed, 1 when all failed.",
     "wheelarch scan --json torch-2.8.0+cu128-cp312-cp312-manylinux_2_28_x86_64.whl", scan_options,
     cli_scan},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};
