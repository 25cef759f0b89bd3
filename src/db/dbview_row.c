/*
 * dbview_row: a row of the view made, named and compared; a record left
 * out of it, with why.
 */
#include "dbview_row.h"
#include "dbview_state.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "recordcheck.h"
#include "vendorindex.h"
#include "xalloc.h"

const char *dbview_status_name(int s)
{
    static const char *const n[] = {"verified", "inferred", "declared"};
    return s >= 0 && s <= VIEW_DECLARED ? n[s] : "unknown";
}

const char *dbview_row_confidence(const struct dbview_row *r)
{
    return r->status == VIEW_DECLARED && r->declared && r->declared->confidence[0]
               ? r->declared->confidence
               : NULL;
}

const char *dbview_row_provenance(const struct dbview_row *r)
{
    if (r->status == VIEW_VERIFIED)
        return r->nextras ? "verified (read from the wheel and the packages its extras install)"
                          : "verified (read from the wheel)";
    if (r->status == VIEW_INFERRED)
        return "inferred (read from a sibling wheel of the same build)";
    return r->declared && r->declared->provenance ? r->declared->provenance
                                                  : "declared (PyTorch's build configuration)";
}

int dbview_is_nightly(const char *version)
{
    struct dotver v;
    return version && dotver_parse(version, &v) == 0 && v.pre == 1; /* dev, as dotver reads it */
}

/* Notes that records/<key>.json was left out, and why. */
void dbvi_skip(struct dbview *v, size_t *cap, const char *dbpath, const char *key,
               const char *reason)
{
    v->skipped = xgrow(v->skipped, cap, v->nskipped + 1, sizeof *v->skipped);
    struct dbview_skip *s = &v->skipped[v->nskipped++];
    /* The key came from the database unchecked: shown quoted, so one with
     * control characters cannot reach a terminal as such. */
    char q[4200], k[300];
    recordcheck_quote(k, sizeof k, key ? key : "", 200);
    char *what = xasprintf("%s: wheel %s", dbpath, k);
    s->file = xstrdup(recordcheck_quote(q, sizeof q, what, 1000));
    s->reason = xstrdup(reason && reason[0] ? reason : "unreadable");
    free(what);
}

char *dbvi_default_index_url(const struct tables *t, const struct dbview_row *r)
{
    const struct vendor_build *b =
        vendorindex_find(t, r->project, r->release, r->platform, r->variant);
    return b ? xstrdup(b->index_url) : xasprintf("%s%s/", DEFAULT_INDEX_ROOT, r->variant);
}

/* A new row for (project, version, variant, platform) with status; its
 * release is `release`, or the version's major.minor when NULL. */
struct dbview_row *dbvi_new_row(struct dbview *v, size_t *cap, const char *project,
                                const char *version, const char *release, const char *variant,
                                const char *platform, int status)
{
    v->rows = xgrow(v->rows, cap, v->nrows + 1, sizeof *v->rows);
    struct dbview_row *r = &v->rows[v->nrows++];
    memset(r, 0, sizeof *r);
    r->project = xstrdup(project);
    r->version = xstrdup(version);
    r->release = release ? xstrdup(release) : dotver_release(version);
    r->variant = xstrdup(variant);
    r->platform = xstrdup(platform);
    r->status = status;
    tables_variant_cuda(variant, &r->cuda);
    return r;
}

void dbvi_newer(char **dst, const char *s)
{
    if (s && (!*dst || strcmp(s, *dst) > 0)) {
        free(*dst);
        *dst = xstrdup(s);
    }
}
