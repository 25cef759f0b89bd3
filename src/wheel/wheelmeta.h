/*
 * wheelmeta: what a wheel's METADATA file says about the distributions it
 * needs (core metadata, the email-header format of PEP 566/643).
 *
 * Only the header block is read (it ends at the first empty line); each
 * "Requires-Dist:" field, with its continuation lines joined, becomes one
 * requirement string as written ("nvidia-cudnn-cu12==9.10.2.21;
 * platform_system == \"Linux\""), whitespace trimmed.  The text is
 * untrusted: fields are bounded (WHEELMETA_MAX_FIELD bytes; longer ones are
 * left out), so is their number (WHEELMETA_MAX_REQUIRES), and a field that
 * holds a control character or bytes that are not UTF-8 is left out.
 *
 * Ownership: wheelmeta_requires fills a list the caller frees with
 * wheelmeta_free.
 */
#ifndef WHEELARCH_WHEELMETA_H
#define WHEELARCH_WHEELMETA_H

#include <stddef.h>

#define WHEELMETA_MAX_SIZE (1u << 20) /* METADATA bytes read at most */
#define WHEELMETA_MAX_FIELD 1000
#define WHEELMETA_MAX_REQUIRES 500

/* Whether a wheel member is its METADATA file: "NAME.dist-info/METADATA" at
 * the top of the archive. */
int wheelmeta_is_member(const char *name);

/* The Requires-Dist values of METADATA text (n bytes, not terminated),
 * in file order.  Returns how many (also in *n_out). */
size_t wheelmeta_requires(const char *text, size_t n, char ***out, size_t *n_out);

void wheelmeta_free(char **list, size_t n);

/* The next requirement of a list kept one per line (the database's
 * `requires` column: Requires-Dist values hold no line breaks): a copy in
 * *line (caller frees), *p moved past it.  Returns 1, or 0 at the end
 * (NULL or "" is an empty list). */
int wheelmeta_next_requirement(const char **p, char **line);

/* The distribution a requirement names, PEP 503-normalised
 * ("nvidia-cudnn-cu12" for "nvidia_cudnn_cu12==9.10.2.21; ..."), and the
 * version it pins with "==" or "===" ("9.10.2.21"), or NULL when it pins
 * none.  Returns 0, or -1 when it names no distribution.  Caller frees. */
int wheelmeta_requirement(const char *req, char **name, char **pinned);

/* The extra a requirement belongs to: its marker's `extra == "NAME"`
 * (PEP 685-normalised: "device-gfx1100") into buf (n bytes).  Returns 0,
 * or -1 when it names none (buf then ""). */
int wheelmeta_requirement_extra(const char *req, char *buf, size_t n);

/* Whether a requirement's environment marker (after ';') can hold on a
 * platform id ("linux-x86_64"): comparisons of platform_system,
 * platform_machine and sys_platform with '==' / '!=' are evaluated, joined
 * by "and"; "extra == ..." (an optional dependency) never holds; anything
 * else (python_version, "or", parentheses) is taken to hold.  No marker:
 * it holds. */
int wheelmeta_marker_applies(const char *req, const char *platform_id);

#endif
