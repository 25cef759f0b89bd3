/*
 * A stand-in for NVIDIA's libnvidia-ml.so.1 with the calls wheelarch makes
 * (hostgpu.c), for detection tests on machines without a GPU.  Its devices
 * come from the environment:
 *   FAKE_NVML_GPUS    "NAME:MAJOR.MINOR;NAME:MAJOR.MINOR..." (may be empty)
 *   FAKE_NVML_DRIVER  "570.86.15"
 *   FAKE_NVML_CUDA    12080 (nvmlSystemGetCudaDriverVersion_v2's number)
 *   FAKE_NVML_FAIL    "init": nvmlInit_v2 fails as without a loaded driver
 * Return codes as NVML's: 0 success, 1 uninitialized, 2 invalid argument,
 * 7 insufficient size, 9 driver not loaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GPUS 16

struct fake_gpu {
    char name[96];
    int major, minor;
};

static struct fake_gpu gpus[MAX_GPUS];
static unsigned int ngpus;
static int ready;

int nvmlInit_v2(void)
{
    const char *fail = getenv("FAKE_NVML_FAIL");
    if (fail && strcmp(fail, "init") == 0)
        return 9;
    ngpus = 0;
    const char *s = getenv("FAKE_NVML_GPUS");
    while (s && *s && ngpus < MAX_GPUS) {
        const char *end = strchr(s, ';');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        const char *colon = memchr(s, ':', n);
        if (colon) {
            struct fake_gpu *g = &gpus[ngpus++];
            snprintf(g->name, sizeof g->name, "%.*s", (int)(colon - s), s);
            if (sscanf(colon + 1, "%d.%d", &g->major, &g->minor) != 2)
                ngpus--;
        }
        s = end ? end + 1 : s + n;
    }
    ready = 1;
    return 0;
}

int nvmlShutdown(void)
{
    if (!ready)
        return 1;
    ready = 0;
    return 0;
}

int nvmlDeviceGetCount_v2(unsigned int *n)
{
    if (!ready)
        return 1;
    if (!n)
        return 2;
    *n = ngpus;
    return 0;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int i, void **dev)
{
    if (!ready)
        return 1;
    if (i >= ngpus || !dev)
        return 2;
    *dev = &gpus[i];
    return 0;
}

int nvmlDeviceGetName(void *dev, char *name, unsigned int len)
{
    const struct fake_gpu *g = dev;
    if (!ready)
        return 1;
    if (!g || !name)
        return 2;
    if (strlen(g->name) + 1 > len)
        return 7;
    memcpy(name, g->name, strlen(g->name) + 1);
    return 0;
}

int nvmlDeviceGetCudaComputeCapability(void *dev, int *major, int *minor)
{
    const struct fake_gpu *g = dev;
    if (!ready)
        return 1;
    if (!g || !major || !minor)
        return 2;
    *major = g->major;
    *minor = g->minor;
    return 0;
}

int nvmlSystemGetDriverVersion(char *version, unsigned int len)
{
    const char *d = getenv("FAKE_NVML_DRIVER");
    if (!ready)
        return 1;
    if (!d)
        d = "570.86.15";
    if (strlen(d) + 1 > len)
        return 7;
    memcpy(version, d, strlen(d) + 1);
    return 0;
}

int nvmlSystemGetCudaDriverVersion_v2(int *v)
{
    const char *c = getenv("FAKE_NVML_CUDA");
    if (!ready)
        return 1;
    *v = c ? atoi(c) : 12080;
    return 0;
}
