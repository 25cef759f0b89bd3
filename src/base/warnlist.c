/*
 * warnlist: bounded lists of distinct warnings.
 */
#include "warnlist.h"

#include <stdio.h>
#include <string.h>

#include "xalloc.h"

int warnlist_addv(char ***list, size_t *n, size_t *cap, size_t max, const char *fmt, va_list ap)
{
    if (*n >= max)
        return -1;
    char buf[WARNLIST_LINE_MAX + 1];
    vsnprintf(buf, sizeof buf, fmt, ap);
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*list)[i], buf) == 0)
            return 0;
    *list = xgrow(*list, cap, *n + 1, sizeof **list);
    (*list)[(*n)++] = xstrdup(buf);
    return 1;
}
