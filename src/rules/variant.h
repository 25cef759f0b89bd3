/*
 * variant: which GPU build of a project a wheel is.
 *
 * A variant id names the toolkit a wheel was built for: "cu128" (CUDA
 * 12.8), "cu12x" (any CUDA 12: the project builds one wheel per CUDA major,
 * as CuPy, JAX's plugins and NVIDIA's library wheels do), "rocm6.4", "cpu";
 * any other id is an index's name ("simple") and says nothing about a
 * toolkit.  Projects say which build a wheel is in different ways; the
 * shipped table data/variant_rules.csv (struct tables' variant_rules) holds
 * each project's rule, and variant_decide applies them in one order:
 *
 *   1. a "name" rule: the project's name decides ("cupy-cuda12x" -> cu12x);
 *   2. the local version label: "+cu128", "+rocm6.4", "+cpu.cxx11.abi",
 *      a dotted CUDA version ("+cu12.8.torch2.8", "+cu.12.8.torch.2.11" ->
 *      cu128); with a "label-major" rule also "+cu12torch2.8cxx11abiTRUE"
 *      -> cu12x;
 *   3. the folder of the file's URL ("/whl/cu129/torch-...whl");
 *   4. the index's id, when it is a variant id (".../whl/cu121/");
 *   5. a "release" rule: what plain `pip install` gets for that release and
 *      platform (data/pytorch_releases.csv's pypi_default); a "fixed" rule:
 *      the variant the project's rule names (from its min_version on); a
 *      "version-major" rule: the version's major is the CUDA major (CUDA
 *      13's NVIDIA wheels, nvidia-cublas 13.0.0.19 -> cu13x);
 *   6. else the index's id ("simple"): unknown.
 *
 * How it was decided is kept with the record ("name", "label", "url",
 * "index", "release", "rule"): variant_how says it in words.
 */
#ifndef WHEELARCH_VARIANT_H
#define WHEELARCH_VARIANT_H

#include <stddef.h>

#include "tables.h"
#include "wheelname.h"

/* Whether the n bytes at s are a variant id of a toolkit: "cpu", "xpu",
 * "cu" and 2 or 3 digits, "cu" and 2 digits and "x", "rocm" and a version
 * of 2 or 3 numbers. */
int variant_token(const char *s, size_t n);

/* The variant of a wheel: its parsed name, its URL (may be NULL) and the id
 * of the index that listed it.  t may be NULL: then only the rules that
 * need no table (2, 3, 4, 6).  *how is set to a static string (above).
 * Caller frees the result. */
char *variant_decide(const struct tables *t, const struct wheel_name *wn, const char *url,
                     const char *index_id, const char **how);

/* Whether how is one of variant_decide's answers (records are checked
 * with it). */
int variant_how_valid(const char *how);

/* How a variant was decided, in words for a page: "its local version
 * label", "the project's name" ... (static; "" for an unknown how). */
const char *variant_how_words(const char *how);

/* The variant rule of a project (its first row in the table that matches
 * the name and version), or NULL. */
const struct variant_rule *variant_rule_of(const struct tables *t, const char *project,
                                           const char *version);

#endif
