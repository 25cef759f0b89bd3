/*
 * site_simple: the PEP 503/691 simple indexes (simple/), one page per
 * project and per GPU architecture.  Called by site_feeds.  Not for other
 * modules.
 */
#ifndef WHEELARCH_SITE_SIMPLE_H
#define WHEELARCH_SITE_SIMPLE_H

#include "error.h"
#include "site_render.h"
#include "sitedata.h"

int sitei_simple(struct ctx *c, struct sitedata *d, struct wa_error *err);

#endif
