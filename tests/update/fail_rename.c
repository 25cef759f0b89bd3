/*
 * A stand-in for the C library's rename(2) and renameat2(2), loaded with
 * LD_PRELOAD by tests/update/test_out_dir.py:
 *   - while WHEELARCH_TEST_FAIL_RENAME is set, both fail with EXDEV (as a
 *     folder on another file system, a mount point, would make them fail),
 *     so the test reaches the code that runs when a build's last step, the
 *     swap of the output folder, fails;
 *   - with WHEELARCH_TEST_REPLACE=DIR, the first mkdir(2) of a folder
 *     inside DIR.tmp (the build is under way) first moves DIR to DIR.moved
 *     and makes a new DIR holding a file of someone else's, as a person (or
 *     a race) would while the site was being built.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int rename(const char *from, const char *to)
{
    if (getenv("WHEELARCH_TEST_FAIL_RENAME")) {
        errno = EXDEV;
        return -1;
    }
    int (*real)(const char *, const char *) =
        (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    return real(from, to);
}

int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned int flags)
{
    if (getenv("WHEELARCH_TEST_FAIL_RENAME")) {
        errno = EXDEV;
        return -1;
    }
    int (*real)(int, const char *, int, const char *, unsigned int) =
        (int (*)(int, const char *, int, const char *, unsigned int))dlsym(RTLD_NEXT,
                                                                          "renameat2");
    return real(fromfd, from, tofd, to, flags);
}

int mkdir(const char *path, mode_t mode)
{
    int (*real)(const char *, mode_t) = (int (*)(const char *, mode_t))dlsym(RTLD_NEXT, "mkdir");
    const char *replace = getenv("WHEELARCH_TEST_REPLACE");
    static int replaced;
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp/", replace ? replace : "");
    if (replace && !replaced && strncmp(path, tmp, strlen(tmp)) == 0) {
        replaced = 1;
        char moved[4096], file[4096];
        snprintf(moved, sizeof moved, "%s.moved", replace);
        snprintf(file, sizeof file, "%s/thesis.tex", replace);
        int (*real_rename)(const char *, const char *) =
            (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
        if (real_rename(replace, moved) == 0 && real(replace, 0777) == 0) {
            FILE *f = fopen(file, "w");
            if (f) {
                fputs("someone's work\n", f);
                fclose(f);
            }
        }
    }
    return real(path, mode);
}
