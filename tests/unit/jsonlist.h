/*
 * jsonlist: checks of JSON arrays of strings for the unit tests that read
 * value lists (PEP 825 properties, feeds).
 */
#ifndef WHEELARCH_TEST_JSONLIST_H
#define WHEELARCH_TEST_JSONLIST_H

#include <jansson.h>
#include <string.h>

/* Whether the list holds the string value. */
static inline int jsonlist_has(json_t *list, const char *value)
{
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v)
    {
        if (json_is_string(v) && strcmp(json_string_value(v), value) == 0)
            return 1;
    }
    return 0;
}

/* Whether the list's strings are in strictly increasing byte order: sorted,
 * each once. */
static inline int jsonlist_sorted_unique(json_t *list)
{
    for (size_t i = 1; i < json_array_size(list); i++)
        if (strcmp(json_string_value(json_array_get(list, i - 1)),
                   json_string_value(json_array_get(list, i))) >= 0)
            return 0;
    return 1;
}

#endif
