/*
 * sitedata_wheel: a wheel page's data (wheel/<key>.html), typed over
 * its record.
 */
#ifndef WHEELARCH_SITEDATA_WHEEL_H
#define WHEELARCH_SITEDATA_WHEEL_H

#include <stddef.h>

#include "sitedata_types.h"

/* A scanned wheel's page data, typed: the record (borrowed) and what the
 * page derives from it.  The templates read it through
 * sitedata_wheel_value, field by field; no JSON tree is made. */
struct sitedata_wheel {
    const struct record *r;
    char *href;              /* the wheel's URL as a link, or NULL (not http(s)) */
    char *release_page;      /* release/<project>/<version>/ */
    const char *variant_how; /* how the variant was decided, in words ("" none) */
    size_t **order;          /* per binary: its targets' places in target order */
};
void sitedata_wheel_make(const struct record *r, struct sitedata_wheel *w);
void sitedata_wheel_free(struct sitedata_wheel *w);
/* The page as a template value (borrowing w, which must outlive it). */
struct tmpl_value;
void sitedata_wheel_value(const struct sitedata_wheel *w, struct tmpl_value *out);

#endif
