/*
 * feed_answer: what every feed file shares: its meta, and a device's
 * answer on a platform as gpus.json, the device files (api/v1/gpu/<id>.json)
 * and the home filter's answers carry it.  Every function returns a new
 * reference the caller owns.
 */
#ifndef WHEELARCH_FEED_ANSWER_H
#define WHEELARCH_FEED_ANSWER_H

#include <jansson.h>

#include "dbview_types.h"
#include "schedule.h"
#include "tables_types.h"

struct answer_result;
struct sitedata;

/* The feed's meta: {"api-version", "data-as-of" (the newest scan, else the
 * day the declared data was last checked), "declared-checked-on",
 * "wheels-read", "generator"}. */
json_t *feed_meta_new(const struct dbview *v, const struct tables *t);
/* Adds the data's freshness to meta: "data-through" (the newest torch
 * version the site has) and "overdue" (the release due and absent, or
 * null). */
void feed_meta_set_freshness(json_t *meta, const struct freshness *f);
/* A copy of the build's meta (d->meta), for one file. */
json_t *feed_meta_copy(const struct sitedata *d);

/* An answer as the feed carries it (gpus.json's "recommendations"); null
 * for NULL. */
json_t *feed_answer_json(const struct answer_result *r);
/* r's driver tables per Python, for a page's script ({"3.12": rows,
 * "3.13": "3.12" (the same as that one's), "3.9": 0 (the same as
 * by_driver)}). */
json_t *feed_py_tables_json(const struct answer_result *r);
/* The commands of the rows of r's py_tables, made by the one command
 * writer: {"<index URL> <pin>": {"pip", "uv", "argv", ...}} (a page's
 * Python switch shows them). */
json_t *feed_py_commands_json(const struct tables *tb, const struct answer_result *r);

#endif
