/*
 * A stand-in for NVIDIA's libcuda.so.1 with the calls `doctor --verify`
 * makes (src/host/cudaverify.c), for tests on machines without a GPU.  It
 * loads a module as a driver would decide from the module itself:
 *   a cubin (ELF): its SM from e_flags (ABI 7: bits 0-7; ABI 8: bits
 *     8-15) runs on a device of the same major and a minor not below it;
 *   PTX text: its ".target sm_XY" compiles for a device of capability XY
 *     or newer.
 * The device comes from the environment:
 *   FAKE_CUDA_CC       "8.6" (unset: cuInit fails with CUDA_ERROR_NO_DEVICE)
 *   FAKE_CUDA_NO_SASS  "1": every cubin is refused (a planted
 *                      disagreement with the rules)
 *   FAKE_CUDA_FAULT    how a broken driver fails, "WHAT:WHERE" with WHAT
 *                      crash (SIGSEGV), abort, exit0 (exit(0): a driver
 *                      ending the process as if all went well), hang, or
 *                      chatter (text on stdout, then go on), forkcrash (start
 *                      a process that sleeps 30 s holding every file the
 *                      caller had open, then crash), forge (write "done"
 *                      as wheelarch's child would into every pipe it has
 *                      open, then exit 0), termgroup (SIGTERM to its whole
 *                      process group), and WHERE init (cuInit), load (the
 *                      first cuModuleLoadData) or close (the context's
 *                      release, after the last module)
 * Return codes as the driver's: 0 success, 100 no device, 101 invalid
 * device, 209 no binary for GPU, 218 invalid PTX.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cc_major, cc_minor, ready;

/* FAKE_CUDA_FAULT at this place, when it names it. */
static void fault(const char *where)
{
    const char *f = getenv("FAKE_CUDA_FAULT");
    const char *colon = f ? strchr(f, ':') : NULL;
    if (!colon || strcmp(colon + 1, where) != 0)
        return;
    size_t n = (size_t)(colon - f);
    if (n == 5 && strncmp(f, "crash", 5) == 0)
        raise(SIGSEGV);
    if (n == 5 && strncmp(f, "abort", 5) == 0)
        abort();
    if (n == 5 && strncmp(f, "exit0", 5) == 0)
        exit(0);
    if (n == 4 && strncmp(f, "hang", 4) == 0)
        for (;;)
            pause();
    if (n == 9 && strncmp(f, "forkcrash", 9) == 0) {
        if (fork() == 0) {
            sleep(30);
            _exit(0);
        }
        raise(SIGSEGV);
    }
    if (n == 5 && strncmp(f, "forge", 5) == 0) {
        for (int fd = 3; fd < 64; fd++) {
            struct stat st;
            if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) && write(fd, "{\"done\":true}\n", 14) < 0)
                continue;
        }
        _exit(0);
    }
    if (n == 9 && strncmp(f, "termgroup", 9) == 0) {
        kill(0, SIGTERM);
        for (;;)
            pause();
    }
    if (n == 7 && strncmp(f, "chatter", 7) == 0) {
        printf("fake driver: chatter on stdout\n");
        fflush(stdout);
    }
}

int cuInit(unsigned flags)
{
    (void)flags;
    fault("init");
    const char *s = getenv("FAKE_CUDA_CC");
    if (!s || sscanf(s, "%d.%d", &cc_major, &cc_minor) != 2)
        return 100;
    ready = 1;
    return 0;
}

int cuDriverGetVersion(int *v)
{
    *v = 13000;
    return 0;
}

int cuDeviceGetCount(int *n)
{
    *n = ready ? 1 : 0;
    return ready ? 0 : 3;
}

int cuDeviceGet(int *dev, int ordinal)
{
    if (!ready || ordinal != 0)
        return 101;
    *dev = 0;
    return 0;
}

int cuDeviceGetAttribute(int *v, int attr, int dev)
{
    (void)dev;
    if (attr == 75)
        *v = cc_major;
    else if (attr == 76)
        *v = cc_minor;
    else
        return 1;
    return 0;
}

int cuDeviceGetName(char *name, int len, int dev)
{
    (void)dev;
    /* FAKE_CUDA_NAME: the bytes a driver might give (control characters,
     * not UTF-8) */
    const char *raw = getenv("FAKE_CUDA_NAME");
    if (raw)
        snprintf(name, (size_t)len, "%s", raw);
    else
        snprintf(name, (size_t)len, "Fake GPU %d.%d", cc_major, cc_minor);
    return 0;
}

static int token;

int cuDevicePrimaryCtxRetain(void **ctx, int dev)
{
    (void)dev;
    *ctx = &token;
    return 0;
}

int cuDevicePrimaryCtxRelease_v2(int dev)
{
    (void)dev;
    fault("close");
    return 0;
}

int cuCtxSetCurrent(void *ctx)
{
    return ctx == &token ? 0 : 201;
}

int cuModuleLoadData(void **mod, const void *image)
{
    const unsigned char *p = image;
    int dev = cc_major * 10 + cc_minor;
    fault("load");
    if (memcmp(p, "\x7f" "ELF", 4) == 0) {
        const char *no = getenv("FAKE_CUDA_NO_SASS");
        if (no && strcmp(no, "1") == 0)
            return 209;
        uint32_t flags;
        memcpy(&flags, p + 48, 4);
        unsigned sm = p[8] >= 8 ? (flags >> 8) & 0xff : flags & 0xff;
        if ((int)sm / 10 != cc_major || (int)sm % 10 > cc_minor)
            return 209;
        *mod = &token;
        return 0;
    }
    const char *t = strstr((const char *)p, ".target sm_");
    int sm = t ? atoi(t + 11) : 0;
    if (!sm || sm > dev)
        return 218;
    *mod = &token;
    return 0;
}

int cuModuleUnload(void *mod)
{
    return mod == &token ? 0 : 400;
}
