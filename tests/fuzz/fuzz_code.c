/* libFuzzer target: the database's code column (recbinaries_code's text:
 * "MODULES TARGET...;...|PTX=ISA ..."), which build and query parse for
 * every row they read and which a hand-edited database can hold anything
 * in.  Any text must parse without reading out of bounds, and what comes
 * out must be what the pages and verdicts rely on: sorted, unique unions
 * of the right kind, module sets of at least one module, an ISA only for
 * a PTX target. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dbview.h"
#include "target.h"

static void sorted_unique(const struct target *t, size_t n, int kind)
{
    for (size_t i = 0; i < n; i++) {
        if ((int)t[i].kind != kind)
            abort();
        if (i && target_cmp(&t[i - 1], &t[i]) >= 0)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    memcpy(s, data, size);
    s[size] = '\0';
    struct dbview_row r;
    memset(&r, 0, sizeof r);
    dbview_row_apply_code(&r, s);
    dbview_row_apply_code(&r, s); /* a second column adds to the first */
    sorted_unique(r.sass, r.nsass, TARGET_SASS);
    sorted_unique(r.ptx, r.nptx, TARGET_PTX);
    sorted_unique(r.gfx, r.ngfx, TARGET_GFX);
    for (size_t i = 0; i < r.code.nsets; i++)
        if (r.code.sets[i].modules < 1)
            abort();
    for (size_t i = 0; i < r.code.nisas; i++)
        if (r.code.isas[i].ptx.kind != TARGET_PTX)
            abort();
    compat_code_free(&r.code);
    free(r.sass);
    free(r.ptx);
    free(r.gfx);
    free(s);
    return 0;
}
