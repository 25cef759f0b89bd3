/*
 * shellcmd: a command people paste, held as data (its argument vectors)
 * and written as the one line that bash, zsh, dash, fish, PowerShell and
 * cmd all split back into exactly those vectors.
 *
 * The rule (docs/commands.md says why each character is where it is):
 *   - an argument is made of printable ASCII without " $ ` \ ! % (each of
 *     them means something inside double quotes in one of the six shells);
 *     a command with any other argument has no line (shellcmd_line gives
 *     NULL) and is not printed;
 *   - an argument of letters, digits and _ . / : - (and '=' after its first
 *     character) is written as it is, except one starting with '-' that
 *     holds more than letters, digits and '-' (PowerShell splits such
 *     arguments at a '.');
 *   - every other argument, and every requirement with more than a
 *     project's name ("torch==2.14.*": its '*', '<', '>' and '[' are glob
 *     or redirection characters), is written inside double quotes, which all six shells strip and
 * none expands for the characters allowed above;
 *   - steps (a command that runs only when the one before succeeded) are
 *     joined with " && " (bash, zsh, dash, fish 3, cmd, PowerShell 7).
 *
 * A zero-initialised struct shellcmd is empty; shellcmd_free releases it
 * and leaves it empty.  Every string a shellcmd holds is its own.
 */
#ifndef WHEELARCH_SHELLCMD_H
#define WHEELARCH_SHELLCMD_H

#include <stddef.h>

struct shellcmd {
    size_t n;             /* arguments, over all steps */
    char **arg;           /* owned, n of them */
    unsigned char *flags; /* per argument: SHELLCMD_QUOTE, SHELLCMD_STEP */
    size_t cap;
    int bad;  /* an argument outside the rule was added: no line */
    int then; /* the next argument starts a step */
};

enum {
    SHELLCMD_QUOTE = 1, /* a requirement: quoted unless a name alone */
    SHELLCMD_STEP = 2   /* starts a step after the first */
};

/* Appends one argument (the program's name first), written bare where the
 * rule allows it. */
void shellcmd_add(struct shellcmd *c, const char *arg);
/* Appends a requirement ("torch==2.14.*", "torch>=2.8,<2.9"): written
 * inside double quotes unless it is a project's name alone ("torch"). */
void shellcmd_add_requirement(struct shellcmd *c, const char *req);
/* Ends the current step: the next argument is the next step's program,
 * run only when this step succeeded. */
void shellcmd_then(struct shellcmd *c);

/* Whether arg is an argument the rule can write at all. */
int shellcmd_arg_ok(const char *arg);

/* The line, for every shell alike; caller frees.  NULL when the command is
 * empty or an argument is outside the rule. */
char *shellcmd_line(const struct shellcmd *c);

/* The number of steps (0 for an empty command), and step k's arguments:
 * *argc of them from *argv (borrowed from c). */
size_t shellcmd_steps(const struct shellcmd *c);
void shellcmd_step(const struct shellcmd *c, size_t k, char *const **argv, size_t *argc);

/* dst becomes a copy of src (dst's old content is not freed). */
void shellcmd_copy(struct shellcmd *dst, const struct shellcmd *src);
void shellcmd_free(struct shellcmd *c);

#endif
