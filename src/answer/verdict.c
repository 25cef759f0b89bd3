/*
 * verdict: a row judged on platform, code, Python and driver apart.
 */
#include "verdict.h"

#include <stdio.h>
#include <string.h>

#include "tables_releases.h"
static int code_runs(int c)
{
    return c == COMPAT_NATIVE || c == COMPAT_PTX_JIT;
}

void verdict_judge(const struct compat_result *res, int applies, int python, struct verdict *v)
{
    memset(v, 0, sizeof *v);
    v->res = *res;
    v->applies = applies;
    v->code = res->code;
    v->python = python;
    v->driver_blocks = res->driver_blocks;
    v->blocked_by = !applies                                                      ? VERDICT_PLATFORM
                    : !code_runs(res->code)                                       ? VERDICT_CODE
                    : python == 0                                                 ? VERDICT_PYTHON
                    : res->driver_blocks || res->verdict == COMPAT_DRIVER_TOO_OLD ? VERDICT_DRIVER
                                                                                  : VERDICT_RUNS;
    v->runs = v->blocked_by == VERDICT_RUNS && code_runs(res->verdict);
}

const char *verdict_block_name(int b)
{
    static const char *const n[] = {NULL, "platform", "code", "python", "driver"};
    return b > 0 && b < VERDICT_BLOCKS ? n[b] : NULL;
}

const char *verdict_label(const struct verdict *v, uint16_t py, int python_free_threaded, char *buf,
                          size_t n)
{
    if (v->blocked_by == VERDICT_PLATFORM) {
        /* whatever its code says, these wheels are not for this system
         * (Jetson's L4T, an Arm-only GPU on x86_64 or Windows) */
        snprintf(buf, n, "not for this system");
    } else if (v->blocked_by == VERDICT_PYTHON) {
        char pys[16];
        tables_python_format(py, python_free_threaded, pys, sizeof pys);
        snprintf(buf, n, "no Python %s wheel", pys);
    } else {
        snprintf(buf, n, "%s", compat_verdict_label(v->res.verdict));
    }
    return buf;
}
