/*
 * sitestamp: what a site was built from, kept beside it (OUT.stamp, next
 * to OUT.lock), so that a rebuild with nothing changed is decided without
 * reading the database or rendering a page.  It stays out of the site so
 * that the site's bytes depend on the data alone.
 *
 * The inputs are the database's state (its id and its count of changes,
 * db_state), the bytes of every file under the templates and data
 * folders, the base URL and wheelarch's version; their sha256 stands for
 * them.  The stamp also keeps what the build reported (pages, records,
 * files, the records and pages it left out), so a rebuild that finds it
 * equal reports the same.
 */
#ifndef WHEELARCH_SITESTAMP_H
#define WHEELARCH_SITESTAMP_H

#include "error.h"
#include "sitejob.h"

/* The hash of the inputs of a build with options o, as 64 hex digits;
 * caller frees.  NULL when an input cannot be read (then build anyway). */
char *sitestamp_inputs(const struct site_options *o);

/* Whether o->out_dir holds a site built from `inputs` (the stamp says so
 * and the folder carries outdir's marker); if so fills *st as that build
 * reported it (the caller frees with site_stats_free). */
int sitestamp_matches(const char *out_dir, const char *inputs, struct site_stats *st);

/* Removes the stamp of out_dir (before its site is replaced); a file of
 * that name that is not a stamp is left alone. */
void sitestamp_remove(const char *out_dir);
/* Writes the stamp of the build of out_dir that reported *st (atomically;
 * a failure only costs the next rebuild its shortcut).  A file of that
 * name that is not a stamp is not replaced. */
void sitestamp_write(const char *out_dir, const char *inputs, const struct site_stats *st);

#endif
