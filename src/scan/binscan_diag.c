/*
 * binscan_diag: a scan's warnings (kept, each once, up to a limit) and
 * its first error.  Called by every part of binscan (binscan_state.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "binscan_state.h"
#include "warnlist.h"
void binscan_warnf(struct binscan *bs, const char *fmt, ...)
{
    struct binscan_result *r = &bs->r;
    va_list ap;
    va_start(ap, fmt);
    if (warnlist_addv(&r->warnings, &r->nwarnings, &bs->cap_warnings, BINSCAN_MAX_WARNINGS, fmt,
                      ap) < 0)
        r->warnings_dropped++;
    va_end(ap);
}

int binscan_fail(struct binscan *bs, int code, const char *fmt, ...)
{
    if (bs->failed)
        return bs->err.code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(bs->err.msg, sizeof bs->err.msg, fmt, ap);
    va_end(ap);
    bs->err.code = code;
    bs->failed = 1;
    return code;
}
