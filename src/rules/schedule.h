/*
 * schedule: PyTorch's announced release dates
 * (data/pytorch_release_schedule.csv) and the freshness of the data
 * against them.
 *
 * A release that was due before today and that the data still lacks
 * (no pytorch_releases.csv row, no wheel read) is named wherever the
 * data is shown: the build warns, the site shows a banner, the feed's
 * meta says it, so a site whose data ends at 2.14 never presents 2.14 as
 * the newest release after 2.15 was due.
 */
#ifndef WHEELARCH_SCHEDULE_H
#define WHEELARCH_SCHEDULE_H

#include <stddef.h>

#include "error.h"
#include "tables_types.h"

struct schedule {
    char *project;    /* "torch" */
    char *release;    /* "2.15" */
    char *planned;    /* the announced release day, "2026-10-28" */
    char *branch_cut; /* "2026-10-05" or "" */
    char *status;     /* "released" (in the data), "scheduled", "cancelled" */
    char *notes;      /* what was announced: "CUDA 12.6/13.0/13.2/13.4" */
    char *source;
    char *checked_on;
};

/* Loads data/pytorch_release_schedule.csv from dir into t (t->schedule).
 * A missing file is no error.  Errors name the file and line: a date that
 * is not YYYY-MM-DD, a release that is not X.Y, an unknown status. */
int schedule_load(const char *dir, struct tables *t, struct wa_error *err);
void schedule_free(struct schedule *s, size_t n);

/* How many rows of dir's schedule are due before today (what a build's
 * stamp remembers, so that a date passing rebuilds the site); 0 when
 * today is NULL or the file cannot be read. */
size_t schedule_due(const char *dir, const char *today);

struct freshness {
    char through[32];               /* the newest torch version in the data: "2.14.1" */
    const struct schedule *overdue; /* the newest release due before today and
                                       absent from the data, or NULL */
    char sentence[320];             /* the banner; "" when nothing is overdue */
    char brief[96];                 /* the banner in one short line */
};

/* Judges the data on day today ("YYYY-MM-DD"; NULL or "": nothing is
 * overdue).  newest_seen: the newest torch version read from wheels (the
 * database), or NULL; the tables' own newest is the newest companion
 * version or release row.  A release counts as present when the tables
 * have a release row for it or newest_seen is of it or later. */
void schedule_freshness(const struct tables *t, const char *today, const char *newest_seen,
                        struct freshness *f);

#endif
