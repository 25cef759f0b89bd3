/*
 * scanreport: a scan result as the public JSON object and as text.
 *
 * The JSON is a public interface (scan --json, crawl --json, database
 * records): keys "input", "wheel", "sha256", "sass", "ptx", "binaries" (each
 * with "path", "format", "sass", "ptx", "modules", "targets") and "error"
 * keep their meaning; keys may be added.  Target lists are sorted by
 * architecture number, then suffix (sm_90 < sm_90a < sm_100 < sm_100f).
 *
 * Per binary, a "module" is one fatbin container registered with the CUDA
 * runtime (about one translation unit); "modules" counts them, and each
 * target says in how many it appears.  Containers that only hold nvlink's
 * kernel-less stubs, relocatable (-rdc) containers and containers outside
 * the fatbin sections (loaded by the library itself) are counted apart.
 */
#ifndef WHEELARCH_SCANREPORT_H
#define WHEELARCH_SCANREPORT_H

#include <jansson.h>

#include "scan.h"
#include "strbuf.h"

/* A new JSON object for r (caller owns the reference). */
json_t *scanreport_json(const struct scan_result *r);

/* The JSON object of a parsed wheel file name (caller owns the reference). */
json_t *scanreport_wheel_json(const struct wheel_name *w);

/* The JSON object of one binary (caller owns the reference). */
json_t *scanreport_binary_json(const char *path, const struct binscan_result *br);

/* Appends the text summary of r: for a wheel a heading line and one
 * indented line per binary with GPU code; for a binary one line. */
void scanreport_text(const struct scan_result *r, struct strbuf *out);

#endif
