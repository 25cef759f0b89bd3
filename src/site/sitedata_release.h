/*
 * sitedata_release: a release page's data
 * (release/<project>/<version>/), typed over the view's rows.
 */
#ifndef WHEELARCH_SITEDATA_RELEASE_H
#define WHEELARCH_SITEDATA_RELEASE_H

#include <stddef.h>

#include "sitedata_types.h"
#include "dbview_json.h"

/* One release page's data (release/<project>/<version>/), typed: the view
 * rows of one project and version (borrowed from the view) and what the
 * page derives from each.  The templates read it through
 * sitedata_release_value; no JSON tree is made. */
struct sitedata_release_row {
    const struct dbview_row *row;
    const struct tables *tables;
    char cuda[16];                   /* "12.8" when the variant is CUDA's */
    const struct minor_compat *mc;   /* its driver floors, or NULL */
    char *index_href;                /* the index URL as a link, or NULL */
    char *section_id, *wheels_id;    /* ids unique in the page */
    char **table_ids;                /* per binary */
    size_t **order;                  /* per binary: its targets' places in target order */
    struct dbview_citation citation; /* of the declared row's source, if has_citation */
    int has_citation;
    char **hrefs, **pages; /* per wheel: its link, the wheel page its line links to (or NULL) */
    char *inferred_page;   /* the one wheel the inferred ones come from, or NULL */
};
struct sitedata_release {
    const struct sitedata *d;
    const char *project, *version, *release; /* borrowed from the view */
    char *path;                              /* release/<project>/<version>/ */
    struct sitedata_release_row *rows;
    size_t n;
};
/* The first view row after the page that starts at row `at` (the rows of
 * one project and version are adjacent): at < v->nrows. */
size_t sitedata_release_end(const struct dbview *v, size_t at);
/* Makes the page of view rows [at, end) (end from sitedata_release_end,
 * at < end) into *p.  One page at a time, so a site's pages never all sit
 * in memory; free each with sitedata_release_free. */
void sitedata_release_make(const struct sitedata *d, size_t at, size_t end,
                           struct sitedata_release *p);
void sitedata_release_free(struct sitedata_release *p);
/* The page as a template value (borrowing p, which must outlive it). */
struct tmpl_value;
void sitedata_release_value(const struct sitedata_release *p, struct tmpl_value *out);

#endif
