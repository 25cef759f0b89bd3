/*
 * pyversion: a Python version as people write it ("3.12", "3.13t", "2.7"),
 * as a number (major * 100 + minor) and whether it is a free-threaded
 * build.  The one parser of the form: the data tables, the vendor table
 * and the command line all read Pythons through it.
 */
#ifndef WHEELARCH_PYVERSION_H
#define WHEELARCH_PYVERSION_H

#include <stddef.h>
#include <stdint.h>

/* "3.12" -> 312, 0; "3.13t" -> 313, 1.  Returns 0, or -1 when s is not
 * one (major 2 or 3, a minor of one or two digits without a leading 0,
 * an optional "t"). */
int pyversion_parse(const char *s, uint16_t *version, int *free_threaded);
/* "3.12" or "3.13t" into buf (16 bytes are enough). */
void pyversion_format(uint16_t version, int free_threaded, char *buf, size_t n);

#endif
