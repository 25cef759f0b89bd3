/*
 * warnlist: a bounded list of distinct warning lines, as the scanners keep
 * them for a binary (binscan) or an offload bundle (hipscan).
 */
#ifndef WHEELARCH_WARNLIST_H
#define WHEELARCH_WARNLIST_H

#include <stdarg.h>
#include <stddef.h>

/* The longest warning kept; longer ones are cut. */
#define WARNLIST_LINE_MAX 255

/* Formats a warning and appends a copy to (*list)[0, *n) unless the list
 * holds it already (the same text) or holds max lines.  *cap is the
 * array's capacity (xgrow).  Returns 1 when added, 0 for a duplicate, -1
 * when the list is full (the warning is dropped). */
int warnlist_addv(char ***list, size_t *n, size_t *cap, size_t max, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));

#endif
