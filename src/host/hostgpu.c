/*
 * hostgpu: this machine's GPUs, from NVML, /proc, nvidia-smi and the KFD
 * topology (see hostgpu.h).
 */
#include "hostgpu.h"

#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xalloc.h"

/* Bytes read at most from one /proc or /sys file or from nvidia-smi. */
#define HOSTGPU_MAX_TEXT (64 * 1024)
/* Devices taken at most from one source. */
#define HOSTGPU_MAX_DEVICES 64

static void note(struct hostgpu_info *in, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void note(struct hostgpu_info *in, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    in->notes = xrealloc(in->notes, (in->nnotes + 1) * sizeof *in->notes);
    in->notes[in->nnotes++] = xstrdup(buf);
}

static struct hostgpu *add_gpu(struct hostgpu_info *in, int vendor, const char *name,
                               const char *code, const char *via)
{
    in->gpus = xrealloc(in->gpus, (in->ngpus + 1) * sizeof *in->gpus);
    struct hostgpu *g = &in->gpus[in->ngpus++];
    memset(g, 0, sizeof *g);
    g->vendor = vendor;
    g->name = xstrdup(name);
    wa_printable_ascii(g->name);
    snprintf(g->code, sizeof g->code, "%s", code);
    g->xnack = -1;
    g->via = via;
    return g;
}

/* The text of ROOT/path (at most HOSTGPU_MAX_TEXT bytes), or NULL. */
static char *read_text(const char *root, const char *path)
{
    char *full = xasprintf("%s%s", root ? root : "", path);
    FILE *f = fopen(full, "rb");
    free(full);
    if (!f)
        return NULL;
    char *buf = xmalloc(HOSTGPU_MAX_TEXT + 1);
    size_t n = fread(buf, 1, HOSTGPU_MAX_TEXT, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* Whether s is a driver version: digits and dots, at least one dot. */
static int version_like(const char *s, size_t n)
{
    int dots = 0;
    if (n == 0 || n > 24 || !isdigit((unsigned char)s[0]) || !isdigit((unsigned char)s[n - 1]))
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.')
            dots++;
        else if (!isdigit((unsigned char)s[i]))
            return 0;
    }
    return dots >= 1 && dots <= 3;
}

char *hostgpu_proc_driver(const char *text)
{
    const char *p = text ? strstr(text, "Kernel Module") : NULL;
    if (!p)
        return NULL;
    /* the first word after it that is a version ("for x86_64" may come first) */
    const char *eol = strchr(p, '\n');
    if (!eol)
        eol = p + strlen(p);
    for (p += 13; p < eol;) {
        while (p < eol && isspace((unsigned char)*p))
            p++;
        const char *w = p;
        while (p < eol && !isspace((unsigned char)*p))
            p++;
        if (version_like(w, (size_t)(p - w)))
            return xstrndup(w, (size_t)(p - w));
    }
    return NULL;
}

static char *trimmed(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return xstrndup(s, n);
}

int hostgpu_smi_line(const char *line, struct hostgpu *gpu, char **driver)
{
    const char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
    if (!c1 || !c2)
        return -1;
    char *name = trimmed(line, (size_t)(c1 - line));
    char *cc = trimmed(c1 + 1, (size_t)(c2 - c1 - 1));
    char *drv = trimmed(c2 + 1, strlen(c2 + 1));
    int ok = *name && strlen(name) < 200 && version_like(cc, strlen(cc)) && strlen(cc) < 8 &&
             version_like(drv, strlen(drv));
    if (ok) {
        memset(gpu, 0, sizeof *gpu);
        gpu->vendor = HOSTGPU_NVIDIA;
        wa_printable_ascii(name);
        gpu->name = name;
        snprintf(gpu->code, sizeof gpu->code, "%s", cc);
        gpu->xnack = -1;
        gpu->via = "nvidia-smi";
        *driver = drv;
    } else {
        free(name);
        free(drv);
    }
    free(cc);
    return ok ? 0 : -1;
}

/* ---- NVML ----------------------------------------------------------------- */

typedef int (*nvml_void_fn)(void);
typedef int (*nvml_count_fn)(unsigned int *);
typedef int (*nvml_handle_fn)(unsigned int, void **);
typedef int (*nvml_name_fn)(void *, char *, unsigned int);
typedef int (*nvml_cc_fn)(void *, int *, int *);
typedef int (*nvml_driver_fn)(char *, unsigned int);
typedef int (*nvml_cuda_fn)(int *);

/* Returns 1 when NVML answered (its devices and driver are in `in`). */
static int from_nvml(const struct hostgpu_options *o, struct hostgpu_info *in)
{
    const char *lib = o->nvml_library ? o->nvml_library : "libnvidia-ml.so.1";
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        note(in, "NVML (%s): not installed", lib);
        return 0;
    }
    /* dlsym returns void *; POSIX guarantees the conversion to a function
     * pointer works, C does not say, hence the memcpy. */
#define SYM(var, type, name)                                                                       \
    type var = NULL;                                                                               \
    do {                                                                                           \
        void *s_ = dlsym(h, name);                                                                 \
        memcpy(&var, &s_, sizeof var);                                                             \
    } while (0)
    SYM(init, nvml_void_fn, "nvmlInit_v2");
    SYM(shutdown, nvml_void_fn, "nvmlShutdown");
    SYM(count, nvml_count_fn, "nvmlDeviceGetCount_v2");
    SYM(handle, nvml_handle_fn, "nvmlDeviceGetHandleByIndex_v2");
    SYM(getname, nvml_name_fn, "nvmlDeviceGetName");
    SYM(getcc, nvml_cc_fn, "nvmlDeviceGetCudaComputeCapability");
    SYM(getdriver, nvml_driver_fn, "nvmlSystemGetDriverVersion");
    SYM(getcuda, nvml_cuda_fn, "nvmlSystemGetCudaDriverVersion_v2");
#undef SYM
    if (!init || !shutdown || !count || !handle || !getname || !getcc || !getdriver) {
        note(in, "NVML (%s): lacks a function wheelarch uses", lib);
        dlclose(h);
        return 0;
    }
    int rc = init();
    if (rc != 0) {
        note(in, "NVML: nvmlInit_v2 failed (error %d): is the NVIDIA driver loaded?", rc);
        dlclose(h);
        return 0;
    }
    char buf[96];
    if (getdriver(buf, sizeof buf) == 0) {
        buf[sizeof buf - 1] = '\0';
        if (version_like(buf, strlen(buf))) {
            in->driver = xstrdup(buf);
            in->driver_via = "NVML";
        }
    }
    int cuda = 0;
    if (getcuda && getcuda(&cuda) == 0 && cuda >= 1000 && cuda < 100000)
        in->driver_cuda = xasprintf("%d.%d", cuda / 1000, cuda % 1000 / 10);
    unsigned int n = 0;
    if (count(&n) != 0)
        n = 0;
    if (n > HOSTGPU_MAX_DEVICES)
        n = HOSTGPU_MAX_DEVICES;
    for (unsigned int i = 0; i < n; i++) {
        void *dev = NULL;
        int major = 0, minor = 0;
        if (handle(i, &dev) != 0 || getname(dev, buf, sizeof buf) != 0 ||
            getcc(dev, &major, &minor) != 0 || major < 1 || major > 99 || minor < 0 || minor > 9) {
            note(in, "NVML: device %u did not answer", i);
            continue;
        }
        buf[sizeof buf - 1] = '\0';
        char code[16];
        snprintf(code, sizeof code, "%d.%d", major, minor);
        add_gpu(in, HOSTGPU_NVIDIA, buf, code, "NVML");
    }
    shutdown();
    dlclose(h);
    return 1;
}

/* ---- without NVML: /proc and nvidia-smi ---------------------------------------- */

static void from_proc(const struct hostgpu_options *o, struct hostgpu_info *in)
{
    char *text = read_text(o->sysroot, "/proc/driver/nvidia/version");
    if (!text)
        return;
    char *d = hostgpu_proc_driver(text);
    if (d && !in->driver) {
        in->driver = d;
        in->driver_via = "/proc/driver/nvidia/version";
    } else {
        free(d);
    }
    free(text);
}

static void from_smi(const struct hostgpu_options *o, struct hostgpu_info *in)
{
    const char *smi = o->nvidia_smi ? o->nvidia_smi : "nvidia-smi";
    if (!*smi)
        return;
    /* The command is the caller's (a fixed name or a path it chose);
     * stderr goes away so that "command not found" is a note, not noise. */
    char *cmd = xasprintf("'%s' --query-gpu=name,compute_cap,driver_version "
                          "--format=csv,noheader 2>/dev/null",
                          smi);
    if (strchr(smi, '\'')) {
        free(cmd);
        return;
    }
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (!p) {
        note(in, "nvidia-smi: cannot run it");
        return;
    }
    char line[512];
    size_t total = 0, found = 0;
    while (fgets(line, sizeof line, p) && total < HOSTGPU_MAX_TEXT && found < HOSTGPU_MAX_DEVICES) {
        total += strlen(line);
        if (!strchr(line, '\n') && !feof(p)) {
            /* longer than any device's line: skip all of it */
            int ch;
            while ((ch = fgetc(p)) != EOF && ch != '\n')
                total++;
            continue;
        }
        struct hostgpu g;
        char *drv = NULL;
        if (hostgpu_smi_line(line, &g, &drv) < 0)
            continue;
        in->gpus = xrealloc(in->gpus, (in->ngpus + 1) * sizeof *in->gpus);
        in->gpus[in->ngpus++] = g;
        found++;
        if (!in->driver) {
            in->driver = drv;
            in->driver_via = "nvidia-smi";
        } else {
            free(drv);
        }
    }
    int st = pclose(p);
    if (!found)
        note(in, "nvidia-smi: %s",
             st == 0 ? "listed no GPU with a compute capability (it needs driver 510 or newer)"
                     : "not installed or failed");
}

/* ---- AMD: the KFD topology ------------------------------------------------------ */

int hostgpu_gfx_name(unsigned long v, char *out, size_t n)
{
    unsigned long major = v / 10000, minor = v / 100 % 100, step = v % 100;
    if (v == 0 || major < 6 || major > 99 || minor > 15 || step > 15)
        return -1;
    snprintf(out, n, "gfx%lu%lx%lx", major, minor, step);
    return 0;
}

static int cmp_node(const void *a, const void *b)
{
    return atoi(*(char *const *)a) - atoi(*(char *const *)b);
}

static void from_kfd(const struct hostgpu_options *o, struct hostgpu_info *in)
{
    char *dir = xasprintf("%s/sys/class/kfd/kfd/topology/nodes", o->sysroot ? o->sysroot : "");
    DIR *d = opendir(dir);
    free(dir);
    if (!d)
        return;
    char **nodes = NULL;
    size_t nn = 0;
    struct dirent *e;
    while ((e = readdir(d)) && nn < 4 * HOSTGPU_MAX_DEVICES) {
        if (!isdigit((unsigned char)e->d_name[0]) || strlen(e->d_name) > 6)
            continue;
        nodes = xrealloc(nodes, (nn + 1) * sizeof *nodes);
        nodes[nn++] = xstrdup(e->d_name);
    }
    closedir(d);
    if (nn > 1)
        qsort(nodes, nn, sizeof *nodes, cmp_node);
    for (size_t i = 0; i < nn; i++) {
        char *path = xasprintf("/sys/class/kfd/kfd/topology/nodes/%s/properties", nodes[i]);
        char *props = read_text(o->sysroot, path);
        free(path);
        const char *p = props ? strstr(props, "gfx_target_version ") : NULL;
        char gfx[16];
        if (p && (p == props || p[-1] == '\n') &&
            hostgpu_gfx_name(strtoul(p + 19, NULL, 10), gfx, sizeof gfx) == 0) {
            path = xasprintf("/sys/class/kfd/kfd/topology/nodes/%s/name", nodes[i]);
            char *name = read_text(o->sysroot, path);
            free(path);
            char *nm = name ? trimmed(name, strcspn(name, "\n")) : NULL;
            struct hostgpu *g = add_gpu(in, HOSTGPU_AMD, nm && *nm && strlen(nm) < 200 ? nm : gfx,
                                        gfx, "KFD topology");
            g->xnack = o->xnack;
            free(nm);
            free(name);
        }
        free(props);
        free(nodes[i]);
    }
    free(nodes);
    char *ver = read_text(o->sysroot, "/opt/rocm/.info/version");
    if (ver) {
        size_t n = strspn(ver, "0123456789.");
        if (version_like(ver, n))
            in->rocm = xstrndup(ver, n);
        free(ver);
    }
}

int hostgpu_detect(const struct hostgpu_options *o, struct hostgpu_info *out)
{
    memset(out, 0, sizeof *out);
    if (!from_nvml(o, out)) {
        from_proc(o, out);
        from_smi(o, out);
    }
    from_kfd(o, out);
    return 0;
}

int hostgpu_override(struct hostgpu_info *info, const char *list, const char *via,
                     struct wa_error *err)
{
    for (size_t i = 0; i < info->ngpus; i++)
        free(info->gpus[i].name);
    free(info->gpus);
    info->gpus = NULL;
    info->ngpus = 0;
    for (const char *p = list;;) {
        size_t n = strcspn(p, ",");
        char *item = trimmed(p, n);
        if (!*item || strlen(item) >= 100) {
            free(item);
            return wa_error_set(err, WA_ERR_USAGE,
                                "%s: \"%s\" has an empty or overlong entry (a comma-separated "
                                "list of GPU names, compute capabilities or gfx ids)",
                                via, list);
        }
        int amd = strncmp(item, "gfx", 3) == 0;
        add_gpu(info, amd ? HOSTGPU_AMD : HOSTGPU_NVIDIA, item, "", via);
        free(item);
        if (!p[n])
            break;
        p += n + 1;
    }
    return 0;
}

void hostgpu_free(struct hostgpu_info *info)
{
    for (size_t i = 0; i < info->ngpus; i++)
        free(info->gpus[i].name);
    free(info->gpus);
    free(info->driver);
    free(info->driver_cuda);
    free(info->rocm);
    for (size_t i = 0; i < info->nnotes; i++)
        free(info->notes[i]);
    free(info->notes);
    memset(info, 0, sizeof *info);
}
