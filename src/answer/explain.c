/*
 * explain: reading pasted error texts into facts (explain.h).
 *
 * Two views of the text: a flat one (every run of white space one space,
 * so that a warning wrapped or joined differently still matches) for the
 * messages, and its lines for nvidia-smi's table and --query-gpu output.
 * Every scan is bounded by the text's length; fields are cut to their size.
 */
#include "explain.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuname.h"
#include "xalloc.h"

/* at most this much of a paste is read (a long traceback fits) */
#define EXPLAIN_TEXT_MAX (4u << 20)

/* Case-insensitive search of needle in [h, end); NULL when absent. */
static const char *find_ci(const char *h, const char *end, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = h; p && (size_t)(end - p) >= n; p++) {
        size_t i = 0;
        while (i < n && tolower((unsigned char)p[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return p;
    }
    return NULL;
}

/* Copies [a, b) into dst (size n) with its ends trimmed of spaces and
 * quotes, control characters as spaces. */
static void copy_field(char *dst, size_t n, const char *a, const char *b)
{
    while (a < b && (isspace((unsigned char)*a) || *a == '"' || *a == '\'' || *a == '`'))
        a++;
    while (b > a && (isspace((unsigned char)b[-1]) || b[-1] == '"' || b[-1] == '\'' ||
                     b[-1] == '`' || b[-1] == ','))
        b--;
    size_t k = 0;
    for (; a < b && k + 1 < n; a++)
        dst[k++] = (unsigned char)*a < 0x20 || *a == 0x7f ? ' ' : *a;
    dst[k] = '\0';
}

/* "6.1" or "61" at p: the capability as 61; 0 when none. */
static uint16_t read_cc(const char *p, const char *end, int dotted)
{
    unsigned major = 0, minor = 0;
    int nd = 0;
    while (p < end && isdigit((unsigned char)*p) && nd < 3) {
        major = major * 10 + (unsigned)(*p++ - '0');
        nd++;
    }
    if (!nd)
        return 0;
    if (!dotted)
        return major >= 10 && major < 1000 ? (uint16_t)major : 0;
    if (p >= end || *p != '.' || p + 1 >= end || !isdigit((unsigned char)p[1]))
        return 0;
    minor = (unsigned)(p[1] - '0');
    if (major == 0 || major > 99)
        return 0;
    return (uint16_t)(major * 10 + minor);
}

/* The GPU's name that ends at `end` (just before " with CUDA capability" or
 * " which is of"): back to the start of the sentence, after the last ": ",
 * ". " or "GPUn " that precedes it, within 96 bytes. */
static void name_before(const char *start, const char *end, char *dst, size_t n)
{
    const char *a = end - 96 > start ? end - 96 : start;
    for (const char *p = end - 1; p > a; p--) {
        if ((p[0] == ':' || p[0] == '.') && p[1] == ' ') {
            a = p + 2;
            break;
        }
        if (p[0] == '(' || p[0] == '\n') {
            a = p + 1;
            break;
        }
    }
    copy_field(dst, n, a, end);
}

static void set_cc(struct explain_facts *f, uint16_t cc, unsigned from)
{
    if (!cc || (f->cc && f->cc_from && f->cc_from < (int)from))
        return; /* the first and surest source keeps it */
    f->cc = cc;
    f->cc_from = (int)from;
}

static void add_arch(struct explain_facts *f, const char *a, size_t len)
{
    if (f->narch >= EXPLAIN_ARCH_MAX || len == 0 || len >= sizeof f->arch[0])
        return;
    for (size_t i = 0; i < f->narch; i++)
        if (strlen(f->arch[i]) == len && memcmp(f->arch[i], a, len) == 0)
            return;
    memcpy(f->arch[f->narch], a, len);
    f->arch[f->narch][len] = '\0';
    f->narch++;
}

/* The name in "Found GPU0 NAME" that ends at p (" which is of ..."), into
 * f->gpu_name unless a name was read already. */
static void found_gpu_name(const char *s, const char *p, struct explain_facts *f)
{
    const char *g = find_ci(p - 120 > s ? p - 120 : s, p, "Found GPU");
    const char *a = g ? g + strlen("Found GPU") : (p - 96 > s ? p - 96 : s);
    while (g && a < p && isdigit((unsigned char)*a))
        a++;
    if (!f->gpu_name[0])
        copy_field(f->gpu_name, sizeof f->gpu_name, a, p);
}

/* The messages that carry fields, in the flat text. */
static void read_torch_warnings(const char *s, const char *end, const char *ls, const char *le,
                                struct explain_facts *f)
{
    const char *p;
    /* _check_cubins: "NAME with CUDA capability sm_61 is not compatible with the current
     * PyTorch installation. The current PyTorch install supports CUDA capabilities sm_75
     * ... compute_120." */
    if ((p = find_ci(s, end, " with CUDA capability sm_")) != NULL &&
        find_ci(p, end, "not compatible with the current PyTorch install")) {
        f->messages |= EXPLAIN_NOT_COMPATIBLE;
        /* the name from the line it is on (the flat view joins lines) */
        const char *lp = find_ci(ls, le, " with CUDA capability sm_");
        if (!f->gpu_name[0])
            name_before(lp ? ls : s, lp ? lp : p, f->gpu_name, sizeof f->gpu_name);
        set_cc(f, read_cc(p + strlen(" with CUDA capability sm_"), end, 0), EXPLAIN_NOT_COMPATIBLE);
        const char *q = find_ci(p, end, "supports CUDA capabilities ");
        if (q) {
            q += strlen("supports CUDA capabilities ");
            while (q < end) {
                const char *w = q;
                while (w < end && (isalnum((unsigned char)*w) || *w == '_'))
                    w++;
                size_t len = (size_t)(w - q);
                if (len < 4 || (strncmp(q, "sm_", 3) != 0 && strncmp(q, "compute_", 8) != 0))
                    break;
                add_arch(f, q, len);
                if (w >= end || *w != ' ')
                    break;
                q = w + 1;
            }
        }
    }
    /* _check_capability (before 2.11): "Found GPU0 NAME which is of cuda capability 3.5.
     * PyTorch no longer supports this GPU because it is too old. The minimum cuda
     * capability supported by this library is 3.7." */
    if ((p = find_ci(s, end, " which is of cuda capability ")) != NULL) {
        f->messages |= EXPLAIN_TOO_OLD;
        found_gpu_name(s, p, f);
        set_cc(f, read_cc(p + strlen(" which is of cuda capability "), end, 1), EXPLAIN_TOO_OLD);
        const char *m = find_ci(p, end, "minimum cuda capability supported by this library is ");
        if (m)
            f->min_cc = read_cc(m + strlen("minimum cuda capability supported by this library is "),
                                end, 1);
    }
    /* torch 2.11 on: "Found GPU0 NAME which is of compute capability (CC) 6.1. The following
     * list shows the CCs this version of PyTorch was built for ...: - 7.5 which supports
     * hardware CC >=7.5,<8.0 ..." */
    if ((p = find_ci(s, end, " which is of compute capability (CC) ")) != NULL) {
        f->messages |= EXPLAIN_CC_TABLE;
        found_gpu_name(s, p, f);
        set_cc(f, read_cc(p + strlen(" which is of compute capability (CC) "), end, 1),
               EXPLAIN_CC_TABLE);
        const char *q = p;
        while ((q = find_ci(q, end, " which supports hardware CC")) != NULL) {
            /* "- 7.5 which supports": the CC before it */
            const char *d = q;
            while (d > p && d[-1] != '-' && q - d < 8)
                d--;
            while (d < q && *d == ' ')
                d++;
            uint16_t cc = read_cc(d, q, 1);
            if (cc) {
                char a2[16];
                int k = snprintf(a2, sizeof a2, "sm_%u", cc);
                if (k > 0)
                    add_arch(f, a2, (size_t)k);
            }
            q += strlen(" which supports hardware CC");
        }
    }
    const char *t;
    if ((t = find_ci(s, end, "Your installed torch==")) != NULL)
        t += strlen("Your installed torch==");
    else if ((t = find_ci(s, end, "builds for release ")) != NULL)
        t += strlen("builds for release ");
    if (t) {
        const char *w = t;
        while (w < end && (isalnum((unsigned char)*w) || *w == '.' || *w == '+') &&
               w - t < (long)sizeof f->torch - 1)
            w++;
        while (w > t && w[-1] == '.')
            w--;
        copy_field(f->torch, sizeof f->torch, t, w);
    }
}

/* nvidia-smi's header ("Driver Version: 535.104.05   CUDA Version: 12.2"),
 * its table rows ("|   0  NVIDIA GeForce GTX 1080 Ti     Off |"), `-L`
 * ("GPU 0: NAME (UUID: ...)") and --query-gpu=name,compute_cap lines. */
static void read_nvidia_smi(const char *s, const char *end, struct explain_facts *f)
{
    const char *p;
    if ((p = find_ci(s, end, "Driver Version: ")) != NULL) {
        p += strlen("Driver Version: ");
        const char *w = p;
        while (w < end && (isdigit((unsigned char)*w) || *w == '.'))
            w++;
        if (w > p) {
            copy_field(f->driver, sizeof f->driver, p, w);
            f->messages |= EXPLAIN_NVIDIA_SMI;
        }
    }
    if ((p = find_ci(s, end, "CUDA Version: ")) != NULL) {
        p += strlen("CUDA Version: ");
        const char *w = p;
        while (w < end && (isdigit((unsigned char)*w) || *w == '.'))
            w++;
        copy_field(f->cuda, sizeof f->cuda, p, w);
    }
    for (const char *line = s; line < end;) {
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        if (!eol)
            eol = end;
        const char *a = line;
        while (a < eol && (*a == ' ' || *a == '\t'))
            a++;
        /* a table row: "| N  NAME  Off |" (the name ends at two spaces) */
        if (a < eol && *a == '|' && !f->gpu_name[0]) {
            const char *q = a + 1;
            while (q < eol && *q == ' ')
                q++;
            const char *d = q;
            while (q < eol && isdigit((unsigned char)*q))
                q++;
            if (q > d && q - d <= 2 && q + 2 < eol && q[0] == ' ' && q[1] == ' ') {
                while (q < eol && *q == ' ')
                    q++;
                const char *n0 = q, *n1 = NULL;
                for (const char *r = q; r + 1 < eol; r++)
                    if (r[0] == ' ' && r[1] == ' ') {
                        n1 = r;
                        break;
                    }
                if (n1 && n1 > n0 && isalpha((unsigned char)*n0) &&
                    (find_ci(n1, eol, " On ") || find_ci(n1, eol, " Off ") ||
                     find_ci(n1, eol, " On|") || find_ci(n1, eol, " Off|"))) {
                    copy_field(f->gpu_name, sizeof f->gpu_name, n0, n1);
                    f->messages |= EXPLAIN_NVIDIA_SMI;
                }
            }
        }
        /* nvidia-smi -L: "GPU 0: NAME (UUID: GPU-...)" */
        if (!f->gpu_name[0] && eol - a > 7 && strncmp(a, "GPU ", 4) == 0) {
            const char *c = memchr(a, ':', (size_t)(eol - a));
            const char *u = c ? find_ci(c, eol, " (UUID:") : NULL;
            if (c && u && u > c + 1) {
                copy_field(f->gpu_name, sizeof f->gpu_name, c + 1, u);
                f->messages |= EXPLAIN_NVIDIA_SMI;
            }
        }
        /* --query-gpu=name,compute_cap: "NAME, 6.1" */
        const char *comma = memchr(a, ',', (size_t)(eol - a));
        if (comma && !f->csv_line[0] && !memchr(comma + 1, ',', (size_t)(eol - comma - 1))) {
            const char *v = comma + 1;
            while (v < eol && *v == ' ')
                v++;
            const char *w = v;
            while (w < eol && (isdigit((unsigned char)*w) || *w == '.'))
                w++;
            while (w < eol && isspace((unsigned char)*w))
                w++;
            uint16_t cc = read_cc(v, eol, 1);
            if (cc && w == eol && comma > a) {
                copy_field(f->csv_line, sizeof f->csv_line, a, eol);
                if (!f->gpu_name[0])
                    copy_field(f->gpu_name, sizeof f->gpu_name, a, comma);
                set_cc(f, cc, EXPLAIN_NVIDIA_SMI);
                f->messages |= EXPLAIN_NVIDIA_SMI;
            }
        }
        line = eol + 1;
    }
}

/* ROCm: HSA_OVERRIDE_GFX_VERSION=10.3.0 (the processor it pretends),
 * a gfx name anywhere ("Name: gfx1100"), "invalid device function". */
static void read_rocm(const char *s, const char *end, struct explain_facts *f)
{
    const char *p;
    if (find_ci(s, end, "invalid device function"))
        f->messages |= EXPLAIN_INVALID_DEVICE_FUNCTION;
    if ((p = find_ci(s, end, "HSA_OVERRIDE_GFX_VERSION")) != NULL)
        f->messages |= EXPLAIN_HSA_OVERRIDE;
    /* the real processor: the first gfx name of the text */
    for (p = s; (p = find_ci(p, end, "gfx")) != NULL; p += 3) {
        if (p > s && isalnum((unsigned char)p[-1]))
            continue;
        char name[16];
        size_t k = 0;
        while (p + k < end && k < sizeof name - 1 && isalnum((unsigned char)p[k]))
            name[k] = (char)tolower((unsigned char)p[k]), k++;
        name[k] = '\0';
        uint16_t code;
        if (k >= 6 && gpuname_parse_code(name, 0, &code) == 0) {
            if (!f->cc || f->cc < 0x600)
                set_cc(f, code, EXPLAIN_INVALID_DEVICE_FUNCTION);
            break;
        }
    }
}

int explain_parse(const char *text, size_t n, struct explain_facts *f)
{
    memset(f, 0, sizeof *f);
    if (!text)
        return 0;
    if (n > EXPLAIN_TEXT_MAX)
        n = EXPLAIN_TEXT_MAX;
    /* the flat view: white space collapsed, NULs and controls as spaces */
    char *flat = xmalloc(n + 1), *lines = xmalloc(n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)text[i];
        lines[i] = ch == '\r' || (ch < 0x20 && ch != '\n' && ch != '\t') ? ' ' : (char)ch;
        int space = ch < 0x20 || ch == ' ' || ch == 0x7f;
        if (space) {
            if (k && flat[k - 1] != ' ')
                flat[k++] = ' ';
        } else {
            flat[k++] = (char)ch;
        }
    }
    flat[k] = lines[n] = '\0';
    const char *fe = flat + k;
    if (find_ci(flat, fe, "no kernel image is available for execution on the device"))
        f->messages |= EXPLAIN_NO_KERNEL;
    if (find_ci(flat, fe, "the provided PTX was compiled with an unsupported toolchain"))
        f->messages |= EXPLAIN_PTX_TOOLCHAIN;
    if (find_ci(flat, fe, "CUDA driver version is insufficient for CUDA runtime version"))
        f->messages |= EXPLAIN_DRIVER_INSUFFICIENT;
    if (find_ci(flat, fe, "Torch not compiled with CUDA enabled"))
        f->messages |= EXPLAIN_NO_CUDA;
    read_torch_warnings(flat, fe, lines, lines + n, f);
    read_nvidia_smi(lines, lines + n, f);
    read_rocm(flat, fe, f);
    free(flat);
    free(lines);
    int count = 0;
    for (unsigned b = f->messages; b; b &= b - 1)
        count++;
    return count;
}

const char *explain_message_name(unsigned bit)
{
    switch (bit) {
    case EXPLAIN_NOT_COMPATIBLE:
        return "not-compatible";
    case EXPLAIN_TOO_OLD:
        return "too-old";
    case EXPLAIN_CC_TABLE:
        return "capability-table";
    case EXPLAIN_NO_KERNEL:
        return "no-kernel-image";
    case EXPLAIN_PTX_TOOLCHAIN:
        return "ptx-unsupported-toolchain";
    case EXPLAIN_DRIVER_INSUFFICIENT:
        return "driver-insufficient";
    case EXPLAIN_NO_CUDA:
        return "not-compiled-with-cuda";
    case EXPLAIN_INVALID_DEVICE_FUNCTION:
        return "invalid-device-function";
    case EXPLAIN_HSA_OVERRIDE:
        return "hsa-override";
    case EXPLAIN_NVIDIA_SMI:
        return "nvidia-smi";
    default:
        return "unknown";
    }
}
