/*
 * schedule: announced release dates and the data's freshness.
 */
#include "schedule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datatable.h"
#include "csvfile.h"
#include "dotver.h"
#include "xalloc.h"

static const char FILE_NAME[] = "pytorch_release_schedule.csv";

int schedule_load(const char *dir, struct tables *t, struct wa_error *err)
{
    static const char *const cols[] = {"project", "release", "planned_date", "branch_cut", "status",
                                       "notes",   "source",  "checked_on",   NULL};
    int idx[8];
    struct csvfile c;
    int rc = datatable_open_optional(dir, FILE_NAME, cols, idx, &c, err);
    if (rc != 0)
        return rc < 0 ? rc : 0; /* no schedule: nothing is due */
    t->schedule = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->schedule);
    for (size_t r = 0; r < c.nrows && rc == 0; r++) {
        char *const *row = c.rows[r];
        struct dotver v;
        const char *st = row[idx[4]];
        if (dotver_parse(row[idx[1]], &v) < 0 || v.n != 2)
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: release \"%s\" is not X.Y",
                              FILE_NAME, r + 2, row[idx[1]]);
        else if (!datatable_is_date(row[idx[2]]))
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: planned_date \"%s\" is not a date",
                              FILE_NAME, r + 2, row[idx[2]]);
        else if (row[idx[3]][0] && !datatable_is_date(row[idx[3]]))
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: branch_cut \"%s\" is not a date",
                              FILE_NAME, r + 2, row[idx[3]]);
        else if (!datatable_is_date(row[idx[7]]))
            rc = wa_error_set(err, WA_ERR_FORMAT, "%s line %zu: checked_on \"%s\" is not a date",
                              FILE_NAME, r + 2, row[idx[7]]);
        else if (strcmp(st, "released") && strcmp(st, "scheduled") && strcmp(st, "cancelled"))
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "%s line %zu: status \"%s\" is not released, scheduled or cancelled",
                              FILE_NAME, r + 2, st);
        if (rc < 0)
            break;
        struct schedule *s = &t->schedule[t->nschedule++];
        s->project = xstrdup(row[idx[0]]);
        s->release = xstrdup(row[idx[1]]);
        s->planned = xstrdup(row[idx[2]]);
        s->branch_cut = xstrdup(row[idx[3]]);
        s->status = xstrdup(st);
        s->notes = xstrdup(row[idx[5]]);
        s->source = xstrdup(row[idx[6]]);
        s->checked_on = xstrdup(row[idx[7]]);
    }
    csvfile_free(&c);
    return rc;
}

void schedule_free(struct schedule *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(s[i].project);
        free(s[i].release);
        free(s[i].planned);
        free(s[i].branch_cut);
        free(s[i].status);
        free(s[i].notes);
        free(s[i].source);
        free(s[i].checked_on);
    }
    free(s);
}

size_t schedule_due(const char *dir, const char *today)
{
    struct tables t;
    memset(&t, 0, sizeof t);
    size_t n = 0;
    if (dir && today && schedule_load(dir, &t, NULL) == 0)
        for (size_t i = 0; i < t.nschedule; i++)
            n += strcmp(t.schedule[i].planned, today) < 0;
    schedule_free(t.schedule, t.nschedule);
    return n;
}

/* Only final versions count: a nightly of the next release (2.16.0.dev…)
 * or a release candidate is not that release. */
static void keep_newer(char *have, size_t n, const char *v)
{
    if (v && v[0] && v[strspn(v, "0123456789.")] == '\0' &&
        (!have[0] || dotver_cmp_str(v, have) > 0))
        snprintf(have, n, "%s", v);
}

/* Whether the data has release (X.Y) of torch: a release row, or a
 * version read of it or later. */
static int present(const struct tables *t, const char *release, const char *through)
{
    for (size_t i = 0; i < t->nreleases; i++)
        if (strcmp(t->releases[i].project, "torch") == 0 &&
            strcmp(t->releases[i].release, release) == 0)
            return 1;
    return through[0] && dotver_cmp_str(through, release) >= 0;
}

void schedule_freshness(const struct tables *t, const char *today, const char *newest_seen,
                        struct freshness *f)
{
    memset(f, 0, sizeof *f);
    for (size_t i = 0; i < t->ncompanions; i++)
        keep_newer(f->through, sizeof f->through, t->companions[i].torch);
    for (size_t i = 0; i < t->nreleases; i++)
        if (strcmp(t->releases[i].project, "torch") == 0)
            keep_newer(f->through, sizeof f->through, t->releases[i].version);
    keep_newer(f->through, sizeof f->through, newest_seen);
    if (!today || !today[0])
        return;
    for (size_t i = 0; i < t->nschedule; i++) {
        const struct schedule *s = &t->schedule[i];
        if (strcmp(s->project, "torch") || strcmp(s->status, "cancelled") == 0 ||
            strcmp(s->planned, today) >= 0 || present(t, s->release, f->through))
            continue;
        if (!f->overdue || dotver_cmp_str(s->release, f->overdue->release) > 0)
            f->overdue = s;
    }
    if (f->overdue)
        snprintf(f->sentence, sizeof f->sentence,
                 strcmp(f->overdue->status, "released") == 0
                     ? "torch %s was released on %s and this data does not include it yet (data "
                       "through torch %s): newer builds than the ones named here exist."
                     : "torch %s was announced for %s and this data does not include it yet (data "
                       "through torch %s): newer builds than the ones named here may exist.",
                 f->overdue->release, f->overdue->planned, f->through[0] ? f->through : "none");
    if (f->overdue)
        snprintf(f->brief, sizeof f->brief, "Data through torch %s; torch %s is not in it yet",
                 f->through[0] ? f->through : "none", f->overdue->release);
}
