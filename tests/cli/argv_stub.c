/*
 * argv_stub: stands in for pip and uv (and the test's markers) in
 * tests/cli/test_shells.py, which runs the commands wheelarch prints in
 * real shells: it appends the arguments it was given to the file named by
 * $ARGV_LOG, so the test sees exactly what a program receives.
 *
 * Each call is one record: its program's name (argv[0] without folders),
 * then each argument, each followed by a NUL byte, and a 0x1e byte ending
 * the record.  It exits 0, so `a && b` runs both steps.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    const char *log = getenv("ARGV_LOG");
    if (!log)
        return 97;
    int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd < 0)
        return 98;
    size_t n = 2;
    for (int i = 0; i < argc; i++)
        n += strlen(argv[i]) + 1;
    char *buf = malloc(n);
    if (!buf)
        return 99;
    const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    size_t k = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = i ? argv[i] : name;
        size_t l = strlen(a) + 1;
        memcpy(buf + k, a, l);
        k += l;
    }
    buf[k++] = 0x1e;
    /* one write: O_APPEND keeps records whole */
    int rc = write(fd, buf, k) == (ssize_t)k ? 0 : 96;
    close(fd);
    free(buf);
    return rc;
}
