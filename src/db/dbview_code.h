/*
 * dbview_code: a row's GPU code from a database code column
 * (recbinaries_code's text), read as untrusted text.
 */
#ifndef WHEELARCH_DBVIEW_CODE_H
#define WHEELARCH_DBVIEW_CODE_H

#include "dbview_types.h"

/* Adds the code of a database code column (recbinaries_code's text) to row r:
 * its module sets, the SASS/PTX/gfx unions, the PTX ISAs.  Any text is
 * accepted (the column could have been edited by hand): what does not
 * parse is left out, every token is bounded. */
void dbview_row_apply_code(struct dbview_row *r, const char *code);

#endif
