/*
 * cudaverify: the driver's own answer for installed GPU code.
 */
#include "cudaverify.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "codec.h"
#include "compat.h"
#include "elf.h"
#include "fatbin.h"
#include "target.h"
#include "xalloc.h"

/* CUDA driver API, as declared in cuda.h (CUresult is an int enum;
 * CUdevice an int; contexts and modules are pointers). */
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76
/* The most one entry may inflate to here. */
#define MAX_ENTRY (512u << 20)

struct cudaverify {
    void *lib;
    int (*module_load)(void **module, const void *image);
    int (*module_unload)(void *module);
    int (*ctx_release)(int device);
    int device;
    char name[256];
    uint16_t cc;
    int driver_cuda;
    struct codec *codec;
};

typedef int (*cu_uint_fn)(unsigned);
typedef int (*cu_intp_fn)(int *);
typedef int (*cu_get_fn)(int *, int);
typedef int (*cu_attr_fn)(int *, int, int);
typedef int (*cu_name_fn)(char *, int, int);
typedef int (*cu_retain_fn)(void **, int);
typedef int (*cu_ptr_fn)(void *);
typedef int (*cu_load_fn)(void **, const void *);
typedef int (*cu_int_fn)(int);

/* dlsym returns void *; POSIX guarantees the conversion to a function
 * pointer works, C does not say, hence the memcpy (as hostgpu.c). */
#define SYM(var, type, lib, name, alt)                                                             \
    type var = NULL;                                                                               \
    do {                                                                                           \
        void *s_ = dlsym(lib, name);                                                               \
        if (!s_ && *(alt))                                                                         \
            s_ = dlsym(lib, alt);                                                                  \
        memcpy(&var, &s_, sizeof var);                                                             \
    } while (0)

int cudaverify_open(int ordinal, struct cudaverify **out, char *why, size_t n)
{
    *out = NULL;
    /* every module loaded in full at cuModuleLoadData, as before CUDA
     * 12.2's lazy loading: a kernel the device cannot run is refused then */
    setenv("CUDA_MODULE_LOADING", "EAGER", 0);
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, n, "no NVIDIA driver (libcuda.so.1 cannot be loaded)");
        return -1;
    }
    SYM(init, cu_uint_fn, lib, "cuInit", "");
    SYM(count, cu_intp_fn, lib, "cuDeviceGetCount", "");
    SYM(get, cu_get_fn, lib, "cuDeviceGet", "");
    SYM(attr, cu_attr_fn, lib, "cuDeviceGetAttribute", "");
    SYM(name, cu_name_fn, lib, "cuDeviceGetName", "");
    SYM(retain, cu_retain_fn, lib, "cuDevicePrimaryCtxRetain", "");
    SYM(set, cu_ptr_fn, lib, "cuCtxSetCurrent", "");
    SYM(version, cu_intp_fn, lib, "cuDriverGetVersion", "");
    SYM(load, cu_load_fn, lib, "cuModuleLoadData", "");
    SYM(unload, cu_ptr_fn, lib, "cuModuleUnload", "");
    SYM(release, cu_int_fn, lib, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease");
    struct cudaverify *v = xcalloc(1, sizeof *v);
    v->lib = lib;
    v->module_load = load;
    v->module_unload = unload;
    v->ctx_release = release;
    int rc, ndev = 0, major = 0, minor = 0;
    void *ctx = NULL;
    if (!init || !count || !get || !attr || !name || !retain || !set || !version ||
        !v->module_load || !v->module_unload || !v->ctx_release) {
        snprintf(why, n, "libcuda.so.1 lacks the calls needed (not an NVIDIA driver?)");
    } else if ((rc = init(0)) != 0) {
        snprintf(why, n, "the NVIDIA driver reports no usable GPU (cuInit: error %d)", rc);
    } else if (count(&ndev) != 0 || ordinal >= ndev) {
        snprintf(why, n, "the NVIDIA driver sees %d GPU%s, none numbered %d", ndev,
                 ndev == 1 ? "" : "s", ordinal);
    } else if (get(&v->device, ordinal) != 0 ||
               attr(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, v->device) != 0 ||
               attr(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, v->device) != 0 ||
               major < 1 || major > 99 || minor < 0 || minor > 9) {
        snprintf(why, n, "the NVIDIA driver does not say GPU %d's compute capability", ordinal);
    } else if ((rc = retain(&ctx, v->device)) != 0 || (rc = set(ctx)) != 0) {
        snprintf(why, n, "no context on GPU %d (error %d)", ordinal, rc);
    } else {
        if (name(v->name, (int)sizeof v->name, v->device) != 0)
            snprintf(v->name, sizeof v->name, "GPU %d", ordinal);
        v->name[sizeof v->name - 1] = '\0';
        /* the driver's bytes: printable ASCII only (a terminal never gets a
         * control character, JSON never a string that is not UTF-8) */
        wa_printable_ascii(v->name);
        v->cc = (uint16_t)(major * 10 + minor);
        if (version(&v->driver_cuda) != 0)
            v->driver_cuda = 0;
        v->codec = codec_new();
        *out = v;
        return 0;
    }
    dlclose(lib);
    free(v);
    return -1;
}

const char *cudaverify_device_name(const struct cudaverify *v)
{
    return v->name;
}

uint16_t cudaverify_device_cc(const struct cudaverify *v)
{
    return v->cc;
}

int cudaverify_driver_cuda(const struct cudaverify *v)
{
    return v->driver_cuda;
}

void cudaverify_close(struct cudaverify *v)
{
    if (!v)
        return;
    v->ctx_release(v->device);
    codec_free(v->codec);
    /* the driver stays mapped: unloading libcuda while its threads run
     * is not safe */
    free(v);
}

struct entry {
    struct target t;
    int elf;                /* SASS; else PTX */
    const uint8_t *payload; /* in the file */
    size_t len;             /* stored bytes */
    size_t size;            /* decompressed size (len when stored plainly) */
    int codec;
};

/* The entry's bytes as the driver takes them (PTX ends in a NUL): a new
 * buffer, or NULL when it cannot be decompressed. */
static uint8_t *entry_bytes(struct cudaverify *v, const struct entry *e, size_t *n)
{
    size_t size = e->codec ? e->size : e->len;
    if (size == 0 || size > MAX_ENTRY)
        return NULL;
    uint8_t *b = xmalloc(size + 1);
    if (e->codec == FATBIN_CODEC_NONE) {
        memcpy(b, e->payload, size);
    } else {
        size_t got = 0;
        if (codec_decode_prefix(v->codec, e->codec, e->payload, e->len, b, size, &got) < 0 ||
            got != size) {
            free(b);
            return NULL;
        }
    }
    b[size] = '\0';
    *n = size;
    return b;
}

/* Whether the driver loads the entry: 1 yes, 0 no, -1 it could not be
 * decompressed. */
static int driver_loads(struct cudaverify *v, const struct entry *e)
{
    size_t n;
    uint8_t *b = entry_bytes(v, e, &n);
    if (!b)
        return -1;
    void *mod = NULL;
    int ok = v->module_load(&mod, b) == 0;
    if (ok && mod)
        v->module_unload(mod);
    free(b);
    return ok;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *const outcome_name[] = {"native", "PTX JIT only", "nothing"};

/* One container: the static verdict and the driver's. */
static void check_module(struct cudaverify *v, const struct tables *t, const char *path,
                         size_t index, const struct entry *es, size_t ne,
                         struct cudaverify_counts *c)
{
    int stat_native = 0, stat_jit = 0;
    for (size_t i = 0; i < ne; i++) {
        if (es[i].elf)
            stat_native |= compat_sass_runs(t, &es[i].t, v->cc);
        else
            stat_jit |= compat_ptx_jits(t, &es[i].t, v->cc);
    }
    int want = stat_native ? 0 : stat_jit ? 1 : 2;
    int got = 2;
    for (size_t i = 0; i < ne && got == 2; i++)
        if (es[i].elf) {
            int r = driver_loads(v, &es[i]);
            c->unreadable += r < 0;
            if (r == 1)
                got = 0;
        }
    for (size_t i = 0; i < ne && got == 2; i++)
        if (!es[i].elf) {
            double t0 = now_s();
            int r = driver_loads(v, &es[i]);
            c->jit_seconds += now_s() - t0;
            c->unreadable += r < 0;
            if (r == 1)
                got = 1;
        }
    c->checked++;
    c->native += got == 0;
    c->jit += got == 1;
    c->none += got == 2;
    c->static_native += want == 0;
    c->static_jit += want == 1;
    c->static_none += want == 2;
    if (got != want && c->disagreements++ == 0) {
        const char *base = strrchr(path, '/');
        snprintf(c->first_disagreement, sizeof c->first_disagreement,
                 "%s module %zu: the rules say %s, the driver loaded %s", base ? base + 1 : path,
                 index, outcome_name[want], outcome_name[got]);
    }
}

/* The containers in p[0..n) (a .nv_fatbin section or a bare fatbin). */
static void walk(struct cudaverify *v, const struct tables *t, const char *path, const uint8_t *p,
                 size_t n, struct cudaverify_counts *c)
{
    struct wa_error err;
    for (size_t pos = 0; pos + FATBIN_HEADER_SIZE <= n;) {
        struct fatbin_header h;
        if (fatbin_parse_header(p + pos, n - pos, &h, &err) != 0) {
            pos += 8;
            continue;
        }
        size_t end = h.fat_size > n - pos - FATBIN_HEADER_SIZE
                         ? n
                         : pos + FATBIN_HEADER_SIZE + (size_t)h.fat_size;
        struct entry es[128];
        size_t ne = 0;
        for (size_t e_off = pos + FATBIN_HEADER_SIZE; e_off + FATBIN_ENTRY_MIN_HEADER <= end;) {
            struct fatbin_entry e;
            if (fatbin_parse_entry(p + e_off, end - e_off, &e, &err) != 0 ||
                e.header_size > end - e_off || e.padded_size > end - e_off - e.header_size)
                break;
            struct target tg;
            if (ne < 128 && fatbin_entry_target(&e, &tg) == 0 &&
                (tg.kind == TARGET_SASS || tg.kind == TARGET_PTX)) {
                struct entry *x = &es[ne++];
                x->t = tg;
                x->elf = tg.kind == TARGET_SASS;
                x->payload = p + e_off + e.header_size;
                x->codec = fatbin_entry_codec(&e);
                x->len = x->codec ? e.compressed_size : (size_t)e.padded_size;
                x->size = x->codec ? (size_t)e.uncompressed_size : x->len;
            }
            e_off += e.header_size + (size_t)e.padded_size;
        }
        if (ne) {
            c->modules++;
            if (c->checked < CUDAVERIFY_MAX_MODULES)
                check_module(v, t, path, c->modules, es, ne, c);
        }
        pos = end > pos ? (end + 7) & ~(size_t)7 : pos + 8;
    }
}

int cudaverify_file(struct cudaverify *v, const struct tables *t, const char *path,
                    struct cudaverify_counts *c, struct wa_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return wa_error_set(err, WA_ERR_IO, "%s: %s", path, fd < 0 ? strerror(e) : "not a file");
    }
    if (st.st_size < 64) {
        close(fd);
        return 0;
    }
    size_t size = (size_t)st.st_size;
    const uint8_t *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return wa_error_set(err, WA_ERR_IO, "%s: %s", path, strerror(errno));
    struct elf_header h;
    struct wa_error e2;
    if (elf_parse_header(p, size, &h, &e2) == 0) {
        uint64_t tabsz = elf_section_table_size(&h);
        if (h.shoff < size && tabsz <= size - h.shoff) {
            const uint8_t *tab = p + h.shoff;
            struct elf_section s0, names;
            if (h.shnum == 0 || h.shstrndx == 0xFFFF) {
                if (elf_parse_section(tab, (size_t)tabsz, &h, 0, &s0, &e2) == 0)
                    elf_fix_counts(&h, &s0);
                tabsz = elf_section_table_size(&h);
            }
            if (tabsz <= size - h.shoff &&
                elf_parse_section(tab, (size_t)tabsz, &h, h.shstrndx, &names, &e2) == 0 &&
                names.offset < size && names.size <= size - names.offset) {
                for (uint32_t i = 0; i < h.shnum; i++) {
                    struct elf_section s;
                    if (elf_parse_section(tab, (size_t)tabsz, &h, i, &s, &e2) != 0 ||
                        s.type == ELF_SHT_NOBITS || s.name >= names.size || s.offset >= size ||
                        s.size > size - s.offset)
                        continue;
                    const char *nm = (const char *)p + names.offset + s.name;
                    size_t room = (size_t)(names.size - s.name);
                    /* .nv_fatbin holds what the runtime loads;
                     * __nv_relfatbin is for device linking only */
                    if (room > 10 && strncmp(nm, ".nv_fatbin", 11) == 0)
                        walk(v, t, path, p + s.offset, (size_t)s.size, c);
                }
            }
        }
    } else {
        struct fatbin_header fh;
        if (fatbin_parse_header(p, size, &fh, &e2) == 0)
            walk(v, t, path, p, size, c);
    }
    munmap((void *)p, size);
    return 0;
}
