/*
 * sitedata_changes: the changes page's data and the Atom feed's
 * (changes/, changes.atom).
 */
#ifndef WHEELARCH_SITEDATA_CHANGES_H
#define WHEELARCH_SITEDATA_CHANGES_H

#include <stddef.h>

#include "sitedata_types.h"

/* The changes page's data (d->changes), and the Atom feed's: the feed's
 * own fields (borrowed) and, per entry, its id, link and time (made by the
 * caller, one per change, borrowed).  Template values borrowing d and f. */
struct tmpl_value;
struct sitedata_atom {
    const struct sitedata *d;
    const char *self, *alternate, *feed_id, *updated;
    char **entry_ids, **links, **times;
};
void sitedata_changes_value(const struct sitedata *d, struct tmpl_value *out);
void sitedata_atom_value(const struct sitedata_atom *f, struct tmpl_value *out);

#endif
