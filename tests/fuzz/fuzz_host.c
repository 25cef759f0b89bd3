/* libFuzzer target: what the user's machine says, which doctor and query
 * read: the driver's /proc file, nvidia-smi's CSV lines, RECORD lines of
 * installed distributions, and WHEELARCH_GPUS.  Any bytes must parse
 * without reading out of bounds, and what comes out must be well formed:
 * a driver version is digits and dots, an nvidia-smi device has a name and
 * a dotted compute capability, a RECORD path is non-empty. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"
#include "hostgpu.h"

static void dotted(const char *s)
{
    if (!s || !*s)
        abort();
    for (; *s; s++)
        if (!(*s == '.' || (*s >= '0' && *s <= '9')))
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    char *d = hostgpu_proc_driver(text);
    if (d)
        dotted(d);
    free(d);
    for (const char *p = text; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char *line = malloc(n + 1);
        memcpy(line, p, n);
        line[n] = '\0';
        struct hostgpu g;
        char *drv = NULL;
        if (hostgpu_smi_line(line, &g, &drv) == 0) {
            if (!g.name || !*g.name)
                abort();
            dotted(g.code);
            dotted(drv);
            free(g.name);
            free(drv);
        }
        char *path = doctor_record_path(line);
        if (path && !*path)
            abort();
        free(path);
        free(line);
        p = eol ? eol + 1 : NULL;
    }
    struct hostgpu_info info;
    memset(&info, 0, sizeof info);
    struct wa_error err;
    if (hostgpu_override(&info, text, "WHEELARCH_GPUS", &err) == 0 && info.ngpus == 0)
        abort();
    hostgpu_free(&info);
    if (size >= 4) {
        char gfx[16];
        unsigned long v =
            (unsigned long)data[0] | (unsigned long)data[1] << 8 | (unsigned long)data[2] << 16;
        if (hostgpu_gfx_name(v, gfx, sizeof gfx) == 0 && strncmp(gfx, "gfx", 3) != 0)
            abort();
    }
    free(text);
    return 0;
}
