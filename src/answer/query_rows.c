/*
 * query_rows: what a row offers a query: whether it is for the GPU's
 * vendor, and the Pythons its wheels fit (read from their file names);
 * and whether a Tegra device runs an SBSA system.
 */
#include "query_state.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "wheelname.h"
/* Whether a row is for the GPU's vendor: ROCm variants for AMD GPUs, the
 * others (CUDA, cpu) for NVIDIA ones. */
int qi_row_fits(const struct dbview_row *r, uint16_t cc)
{
    int rocm = tables_variant_rocm(r->variant, NULL);
    return cc >= TABLES_AMD_MIN ? rocm : !rocm;
}

/* "cp312" -> 312 (major one digit, minor the rest); 0 when not one. */
static uint16_t cp_version(const char *s, size_t len)
{
    if (len < 4 || len > 6 || s[0] != 'c' || s[1] != 'p' || s[2] < '0' || s[2] > '9')
        return 0;
    unsigned minor = 0;
    for (size_t i = 3; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        minor = minor * 10 + (unsigned)(s[i] - '0');
    }
    return minor < 100 ? (uint16_t)((unsigned)(s[2] - '0') * 100 + minor) : 0;
}

static void wheel_py_read(const struct wheel_name *w, struct wheel_py *p)
{
    memset(p, 0, sizeof *p);
    p->abi_none = strcmp(w->abi, "none") == 0;
    p->abi3 = strcmp(w->abi, "abi3") == 0;
    size_t al = strlen(w->abi);
    if (al > 1 && w->abi[al - 1] == 't')
        p->abi_ft = cp_version(w->abi, al - 1);
    for (const char *t = w->python; *t && p->n < 16;) {
        size_t len = strcspn(t, ".");
        if (len == 3 && (strncmp(t, "py3", 3) == 0 || strncmp(t, "py2", 3) == 0)) {
            p->tag[p->n].any = 1;
            p->tag[p->n++].py = (uint16_t)((t[2] - '0') * 100);
        } else {
            uint16_t v = cp_version(t, len);
            if (v)
                p->tag[p->n++].py = v;
        }
        t += len;
        if (*t == '.')
            t++;
    }
}

/* The Python tags of a wheel file name; -1 when it is not a wheel's name. */
int qi_wheel_py_of(const char *filename, struct wheel_py *p)
{
    struct wheel_name w;
    struct wa_error err;
    if (wheelname_parse(filename, &w, &err) < 0)
        return -1;
    wheel_py_read(&w, p);
    wheelname_free(&w);
    return 0;
}

/* Whether a wheel fits the Python: cpXY (or cpXYt for a free-threaded
 * one), abi3 from its cpXY on, py3/py2.py3 for any. */
int qi_wheel_fits(const struct wheel_py *p, uint16_t py, int ft)
{
    for (size_t i = 0; i < p->n; i++) {
        uint16_t v = p->tag[i].py;
        int fits = 0;
        if (p->tag[i].any)
            fits = v / 100 == py / 100 && p->abi_none;
        else if (v == py) /* cpXY: its ABI says free-threaded or not */
            fits = (p->abi_ft == py) == (ft != 0);
        else if (!ft && p->abi3 && v / 100 == py / 100 && v % 100 <= py % 100)
            fits = 1;
        if (fits)
            return 1;
    }
    return 0;
}

/* The bit of a Python in a row's mask: 2.7, 3.0 to 3.20, 3.0t to 3.20t;
 * -1 for another. */
int qi_pymask_bit(uint16_t py, int ft)
{
    if (py == 207 && !ft)
        return 0;
    if (py / 100 == 3 && py % 100 <= 20)
        return 1 + py % 100 + (ft ? 21 : 0);
    return -1;
}

void qi_row_pymask(const struct dbview_row *r, uint64_t *mask, unsigned char *known)
{
    *mask = 0;
    *known = 0;
    for (size_t i = 0; i < r->nwheels; i++) {
        struct wheel_py wp;
        if (qi_wheel_py_of(r->wheels[i].filename, &wp) < 0)
            continue;
        *known = 1;
        for (int ft = 0; ft < 2; ft++)
            for (uint16_t py = 300; py <= 320; py++)
                if (qi_wheel_fits(&wp, py, ft))
                    *mask |= (uint64_t)1 << qi_pymask_bit(py, ft);
        if (qi_wheel_fits(&wp, 207, 0))
            *mask |= 1;
    }
}

/* Whether a row's version names a whole release (a declared row's
 * "2.8"), pinned as "2.8.*" unless a later patch changed its list. */
int qi_declared_whole(const struct dbview_row *r)
{
    struct dotver d;
    return r->status == VIEW_DECLARED && !(dotver_parse(r->version, &d) == 0 && d.n >= 3);
}

int query_tegra_sbsa(uint16_t cc)
{
    return cc == 101 || cc == 110; /* Thor: JetPack 7 is an SBSA system */
}
