/*
 * crawl: read package indexes, scan new wheels, write records.
 *
 * For each configured index and project, the index page is fetched with a
 * conditional GET (validators and bodies cached in the database), parsed,
 * and its wheels collected; a file listed on several pages is one wheel.
 * Wheels of one (project, version, variant, platform) differ only in their
 * Python tags and carry the same GPU code, so by default one per group is
 * scanned and the others are recorded as inferred from it.  Wheels with a
 * record are "known" and cost no transfer.  Work runs on `jobs` threads,
 * each with its own HTTP connection; every record is written atomically as
 * soon as its wheel is done, so a crawl killed at any moment and run again
 * loses nothing and redoes nothing.  With a shard K/N only the groups whose
 * key hashes to K-1 modulo N are crawled.
 *
 * A crawl holds an exclusive lock on the database folder (lockfile.h)
 * from start to end.  Before a wheel is scanned it is noted in the
 * database's journal; a note left by a run that died (crashed, hung,
 * killed) makes that wheel failed for this run, and later runs scan it
 * again alone in a child process after all other work, so one wheel that
 * crashes the scanner can never make every run fail.
 *
 * The core prints nothing: results, progress and warnings go to an
 * observer, called with an internal lock held (from worker threads).  The
 * options, the observer and the summary are in crawl_types.h.
 */
#ifndef WHEELARCH_CRAWL_H
#define WHEELARCH_CRAWL_H

#include "config.h"
#include "crawl_types.h"
#include "error.h"

/* Runs a crawl.  Returns 0 when it ran (wheel and page failures are in the
 * summary), or an error that stopped it (the database folder unusable). */
struct db;

/* Registers cfg's indexes (its libraries index too) as ones db trusts:
 * their URLs may reach commands (db_index_trusted).  A crawl does it for
 * its own configuration; db import and merge for the one they are given. */
int crawl_trust_config(struct db *db, const struct config *cfg, struct wa_error *err);

int crawl_run(const struct crawl_options *o, const struct crawl_observer *obs,
              struct crawl_summary *sum, struct wa_error *err);
void crawl_summary_free(struct crawl_summary *sum);

/* Parses "K/N" (1 <= K <= N).  Returns 0 or -1. */
int crawl_parse_shard(const char *s, int *k, int *n);

#endif
