/*
 * cli_python: asking a Python interpreter something, without a shell and
 * within PYTHON_TIMEOUT_S seconds.
 */
#ifndef WHEELARCH_CLI_PYTHON_H
#define WHEELARCH_CLI_PYTHON_H

#include <stddef.h>
#include <stdint.h>

/* For the messages: the command, what was asked ("say its version") and
 * what to do instead ("; give --python X.Y"). */
struct cli_python_ask {
    const char *who, *what, *hint;
};

/* Runs python -c CODE (python found on PATH when it has no '/') and reads
 * what it prints (at most n - 1 bytes) into buf.  Returns its exit status
 * (127: it could not be started; 128: a signal ended it), or -1 after
 * printing why (no pipe or process, or no end within the deadline: then
 * it and whatever it started are killed). */
int cli_python_run(const char *python, const char *code, char *buf, size_t n,
                   const struct cli_python_ask *ask);

/* The interpreter's version (tables_python_parse's form), read where its
 * environment says it (cli_pyfind) or remembered from asking it before,
 * else asked (and remembered); how (n bytes, may be NULL) says how it was
 * found, for the answer's first line.  -1 after printing why. */
int cli_python_version(const char *python, const char *who, uint16_t *version, int *free_threaded,
                       char *how, size_t n);

#endif
