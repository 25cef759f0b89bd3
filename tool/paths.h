/*
 * paths: where the shipped data tables and page templates are.
 *
 * In order: $WHEELARCH_DATA_DIR / $WHEELARCH_TEMPLATES_DIR; next to the
 * executable as installed (BIN/../share/wheelarch/{data,templates}); the
 * source tree the binary was built from; the configured install prefix.
 */
#ifndef WHEELARCH_PATHS_H
#define WHEELARCH_PATHS_H

/* A directory that exists, or NULL.  The string is static. */
const char *paths_data_dir(void);
const char *paths_templates_dir(void);

#endif
