/*
 * binscan_diag: a scan's warnings (kept, each once, up to a limit) and
 * its first error.  Called by every part of binscan (binscan_impl.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "binscan_impl.h"
#include "xalloc.h"

void binscan_warnf(struct binscan *bs, const char *fmt, ...)
{
    struct binscan_result *r = &bs->r;
    if (r->nwarnings >= BINSCAN_MAX_WARNINGS) {
        r->warnings_dropped++;
        return;
    }
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < r->nwarnings; i++)
        if (strcmp(r->warnings[i], buf) == 0)
            return;
    r->warnings = xgrow(r->warnings, &bs->cap_warnings, r->nwarnings + 1, sizeof *r->warnings);
    r->warnings[r->nwarnings++] = xstrdup(buf);
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
