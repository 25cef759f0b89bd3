/*
 * verdict: a row judged on platform, code, Python and driver apart.
 */
#include "verdict.h"

#include <stdio.h>
#include <string.h>

#include "tables.h"
#include "target.h"

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

static json_t *str_or_null(const char *s)
{
    return s && *s ? json_string(s) : json_null();
}

void verdict_json(const struct verdict *v, uint16_t py, int python_free_threaded, json_t *x)
{
    const struct compat_result *r = &v->res;
    char label[48];
    json_object_set_new(x, "min_driver", str_or_null(r->min_driver));
    json_object_set_new(x, "verdict", json_string(compat_verdict_name(r->verdict)));
    json_object_set_new(
        x, "label", json_string(verdict_label(v, py, python_free_threaded, label, sizeof label)));
    json_object_set_new(x, "reason", json_string(r->reason));
    /* the constraints apart: what blocks, and what each says */
    json_object_set_new(x, "code", json_string(compat_verdict_name(v->code)));
    json_object_set_new(x, "code_reason", json_string(r->code_reason));
    json_object_set_new(x, "driver_blocks", json_boolean(v->driver_blocks));
    json_object_set_new(x, "needed_driver", str_or_null(r->needed_driver));
    json_object_set_new(x, "python_wheel", v->python < 0 ? json_null() : json_boolean(v->python));
    json_object_set_new(x, "blocked_by", str_or_null(verdict_block_name(v->blocked_by)));
    json_object_set_new(x, "runs", json_boolean(v->runs));
    if (r->has_via) {
        char name[TARGET_NAME_MAX];
        target_format(&r->via, name, sizeof name);
        json_object_set_new(x, "via", json_string(name));
    } else {
        json_object_set_new(x, "via", json_null());
    }
}
