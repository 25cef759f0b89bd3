/* libFuzzer target: target names, nvcc arch-flag strings, wheel names,
 * GPU names and device codes through the resolver (gpuname.c) over a small
 * table of real names, and pasted error texts (explain.c). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "gpuname.h"
#include "tables.h"
#include "target.h"
#include "wheelname.h"

static struct gpu gpus[] = {
    {.name = "GeForce GTX 1080 Ti", .cc = 61},
    {.name = "GeForce GTX 1080", .cc = 61},
    {.name = "GeForce RTX 3060 Laptop GPU", .cc = 86},
    {.name = "GeForce GT 730", .cc = 35, .other_cc = {30, 21}, .nother = 2},
    {.name = "Tesla K40c", .cc = 35},
    {.name = "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", .cc = 120},
    {.name = "AMD Radeon RX 7900 XTX", .cc = 0x1100, .amd = 1},
    {.name = "AMD Instinct MI300X", .cc = 0x942, .amd = 1},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    memcpy(s, data, size);
    s[size] = '\0';
    struct explain_facts ef;
    explain_parse((const char *)data, size, &ef);
    struct target t[64];
    target_parse(s, &t[0]);
    target_parse_gencode(s, t, 64);
    struct wheel_name w;
    if (wheelname_parse(s, &w, NULL) == 0)
        (void)wheelname_platform_id(w.platform);
    wheelname_free(&w);
    struct tables tb = {0};
    tb.gpus = gpus;
    tb.ngpus = sizeof gpus / sizeof gpus[0];
    struct gpuname_result r;
    gpuname_resolve(&tb, s, &r);
    uint16_t cc;
    (void)gpuname_parse_code(s, 1, &cc);
    free(s);
    return 0;
}
