/*
 * A stand-in for the C library's rename(2) and renameat2(2), loaded with
 * LD_PRELOAD by tests/update/test_out_dir.py: while WHEELARCH_TEST_FAIL_RENAME
 * is set, both fail with EXDEV (as a folder on another file system, a
 * mount point, would make them fail), so the test reaches the code that
 * runs when a build's last step, the swap of the output folder, fails.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

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
