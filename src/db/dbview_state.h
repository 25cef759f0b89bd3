/*
 * dbview_state: what the files of dbview share.  Not for other modules.
 * They call downwards only, in this order:
 *   dbview.c       the view's life: building it (declared rows, records,
 *                  nightlies, libraries), sorting, freeing
 *   dbview_read.c  the wheels and builds read from the database into rows
 *   dbview_code.c  a row's GPU code: from records, from the declared list,
 *                  their differences
 *   dbview_json.c  rows written as JSON for the feed and the pages
 *   dbview_row.c   a row made, named and compared; a record left out
 */
#ifndef WHEELARCH_DBVIEW_STATE_H
#define WHEELARCH_DBVIEW_STATE_H

#include <jansson.h>

#include "db.h"
#include "dbview_types.h"
#include "indexurl.h"
#include "recqueue.h"
#include "strbuf.h"
#include "strmap.h"

#define DEFAULT_INDEX_ROOT INDEXURL_PYTORCH_ROOT

struct reading {
    struct dbview *v;
    int flags;
    const char *project, *platform; /* only rows of these (NULL: all) */
    /* the newest version per "project|release" of the project's rows on
     * other platforms, which are left out */
    struct strmap *elsewhere;
    char **ew_versions;
    size_t new, capew;
    size_t *cap, *skip_cap;
    struct strmap *by_key;
    const char *dbpath;
    dbview_record_fn on_record;
    void *ud;
    struct strmap *dropped; /* "project|version" of nightlies left out, or NULL */
    /* the project and version of the last build read on another platform:
     * builds come in (project, version, ...) order, so the next ones of
     * that version change nothing */
    char *ew_project, *ew_version;
    /* with on_record: the records go to it beside this thread
     * (recqueue.h) */
    struct recqueue *rq;
    struct strbuf gk; /* a map key, remade for each wheel */
    /* index URLs judged (db_index_trusted): URL -> 1 trusted, 0 not; the
     * registered ones are put in first */
    struct strmap *index_trust;
};

/* dbview_read.c: NULL when a row's index URL may reach a command, else
 * why not (for dbvi_skip; into buf). */
const char *dbvi_index_wrong(struct reading *x, const char *url, char *buf, size_t n);
/* Fills x->index_trust with the database's registered indexes. */
int dbvi_index_trust_load(struct reading *x, struct db *db, struct wa_error *err);

void dbvi_skip(struct dbview *v, size_t *cap, const char *dbpath, const char *key,
               const char *reason);
void dbvi_own_binaries(const struct recbinaries *all, struct recbinaries *out);
void dbvi_code_from_declared(struct dbview_row *r, const struct tables *t,
                             const struct declared *d);
const char *dbvi_decl_key(char *buf, size_t n, const char *project, const char *release,
                          const char *variant, const char *platform);
void dbvi_differences(struct dbview_row *r);
struct dbview_row *dbvi_new_row(struct dbview *v, size_t *cap, const char *project,
                                const char *version, const char *release, const char *variant,
                                const char *platform, int status);
void dbvi_newer(char **dst, const char *s);
void dbvi_compact_strings(struct dbview *v);

int dbvi_read_build(void *ud, const struct db_build *b, struct wa_error *err);
int dbvi_build_wants_files(void *ud, const struct db_build *b);

int dbvi_read_wheel(void *ud, const struct record_row *w, struct wa_error *err);

int dbvi_want_wheel(void *ud, const char *project, const char *version);

/* dbview_row.c: the index a row that no record placed installs from: its
 * vendor's (data/vendor_indexes.csv) where a vendor publishes that build,
 * else its variant's on download.pytorch.org. */
char *dbvi_default_index_url(const struct tables *t, const struct dbview_row *r);

#endif
