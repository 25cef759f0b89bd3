/*
 * cli_pyfind: which Python a command names, read from where its
 * environment writes it down (pyenv's version files, a venv's pyvenv.cfg,
 * conda's package metadata, the interpreter's own file name) before any
 * interpreter is started, and what asking one learned, remembered by its
 * path, size and modification time.
 */
#ifndef WHEELARCH_CLI_PYFIND_H
#define WHEELARCH_CLI_PYFIND_H

#include <stddef.h>
#include <stdint.h>

/* What was found of an interpreter. */
struct cli_pyfind {
    uint16_t version;  /* tables_python_parse's form */
    int free_threaded; /* a free-threaded build (3.13t) */
    char how[600];     /* how it was found, for the answer's first line:
                        * "python3 on PATH is pyenv's 3.11.7, set by
                        * /root/.pyenv/version" */
    char path[4096];   /* the interpreter file to ask when nothing was read
                        * ("" when the command is not found) */
    int cacheable;     /* path is a real interpreter, not a shim: what
                        * asking it says may be remembered */
};

/* Finds python (a command looked up on PATH, or a path) and reads its
 * version without starting it where it can.  Returns 1 with f->version
 * set, 0 when it must be asked (f->path says what to ask; f->how how it
 * was found), -1 when it is not on PATH. */
int cli_pyfind(const char *python, struct cli_pyfind *f);

/* The version asking f->path said before, while the file is unchanged: 1
 * with f->version and f->how set, else 0.  cli_pyfind_remember stores
 * what it said now.  The file is python-versions in $XDG_CACHE_HOME/wheelarch/
 * or else ~/.cache/wheelarch/; nothing is stored or read when neither is
 * set, or for a shim (whose answer changes with the folder). */
int cli_pyfind_recall(struct cli_pyfind *f);
void cli_pyfind_remember(const struct cli_pyfind *f);

#endif
