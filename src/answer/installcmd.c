/*
 * installcmd: pip's and uv's install commands from one index (installcmd.h).
 */
#include "installcmd.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "indexurl.h"
#include "uvbackend.h"
#include "vendorindex.h"
#include "xalloc.h"

static const char PYTORCH_ROOT[] = INDEXURL_PYTORCH_ROOT;

int installcmd_uv_backend(const struct tables *t, const char *index_url, char *buf, size_t n)
{
    size_t root = sizeof PYTORCH_ROOT - 1;
    if (!index_url || strncmp(index_url, PYTORCH_ROOT, root) != 0)
        return -1;
    const char *id = index_url + root;
    size_t k = strcspn(id, "/");
    if (!k || k >= n || (id[k] && strcmp(id + k, "/") != 0))
        return -1;
    memcpy(buf, id, k);
    buf[k] = '\0';
    return uvbackend_find(t, 0, buf) ? 0 : -1;
}

/* The uv release uv's form of these projects from backend needs, or NULL
 * when uv does not route one of them there. */
static const char *uv_needs(const struct tables *t, const char *backend,
                            const struct installcmd_req *r, size_t n)
{
    const struct uv_backend_entry *newest = uvbackend_find(t, 0, backend);
    for (size_t i = 0; i < n && newest; i++) {
        const struct uv_backend_entry *p = uvbackend_find(t, 1, r[i].project);
        if (!p)
            return NULL;
        if (dotver_cmp(&p->from, &newest->from) > 0)
            newest = p;
    }
    return newest ? newest->uv_from : NULL;
}

/* Whether the published version v fits pin: "2.14.*" (its release),
 * "2.14.0" (itself), or NULL (any). */
static int pin_fits(const char *pin, const char *v)
{
    if (!pin)
        return 1;
    size_t n = strlen(pin);
    if (n >= 2 && strcmp(pin + n - 2, ".*") == 0)
        return strncmp(v, pin, n - 1) == 0; /* "2.14." */
    return strcmp(pin, v) == 0;
}

/* On a vendor's index (vendorindex.h) a requirement is pinned to the
 * vendor's exact version with its label ("torch==2.14.0+cu134"): on an
 * extra index the installer also reads PyPI, and nothing else keeps it
 * from taking a build of the same release from there; on an index of its
 * own a vendor keeps builds for several toolkits, and "2.13.*" takes the
 * one whose label sorts last by PEP 440's rules, where "rocm7.14.0" is
 * above "rocm10.0.0" (alphanumeric local segments compare as text).  Of
 * the vendor's versions that fit the pin, the newest; NULL when it has
 * none (the pin stands). */
static char *vendor_pin(const struct tables *t, const char *index_url,
                        const struct installcmd_req *r)
{
    const struct vendor_build *best = NULL;
    struct dotver bv = {0};
    for (size_t i = 0; t && i < t->nvendor; i++) {
        const struct vendor_build *b = &t->vendor[i];
        struct dotver v;
        if (strcmp(b->project, r->project) == 0 && vendorindex_at_url(b, index_url) &&
            pin_fits(r->pin, b->version) && dotver_parse(b->version, &v) == 0 &&
            (!best || dotver_cmp(&v, &bv) > 0)) {
            best = b;
            bv = v;
        }
    }
    return best ? xasprintf("%s+%s", best->version, best->variant) : NULL;
}

static void add_requirements(struct shellcmd *s, const struct tables *t, const char *vendor_url,
                             const struct installcmd_req *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *exact = vendor_url ? vendor_pin(t, vendor_url, &r[i]) : NULL;
        const char *pin = exact ? exact : r[i].pin;
        char *name =
            r[i].extra ? xasprintf("%s[%s]", r[i].project, r[i].extra) : xstrdup(r[i].project);
        char *req = pin ? xasprintf("%s==%s", name, pin) : xstrdup(name);
        shellcmd_add_requirement(s, req);
        free(req);
        free(name);
        free(exact);
    }
}

int installcmd_make(struct installcmd *c, const struct tables *t, const struct installcmd_req *r,
                    size_t n, const char *index_url, int flags)
{
    memset(c, 0, sizeof *c);
    if (!n || (index_url && !indexurl_valid(index_url)))
        return -1;
    char backend[32];
    if (installcmd_uv_backend(t, index_url, backend, sizeof backend) == 0)
        c->uv_from = uv_needs(t, backend, r, n);
    /* a vendor's index: exact pins; one that holds its own projects only
     * is added to PyPI */
    const struct vendor_build *vb = index_url ? vendorindex_of_url(t, NULL, index_url) : NULL;
    const char *vendor_url = vb ? index_url : NULL;
    const char *index_flag = vb && vb->extra ? "--extra-index-url" : "--index-url";

    if (flags & INSTALLCMD_REPLACE) {
        shellcmd_add(&c->pip, "pip");
        shellcmd_add(&c->pip, "uninstall");
        shellcmd_add(&c->pip, "-y");
        for (size_t i = 0; i < n; i++)
            shellcmd_add(&c->pip, r[i].project);
        shellcmd_then(&c->pip);
    }
    shellcmd_add(&c->pip, "pip");
    shellcmd_add(&c->pip, "install");
    add_requirements(&c->pip, t, vendor_url, r, n);
    if (index_url) {
        shellcmd_add(&c->pip, index_flag);
        shellcmd_add(&c->pip, index_url);
    }

    shellcmd_add(&c->uv, "uv");
    shellcmd_add(&c->uv, "pip");
    shellcmd_add(&c->uv, "install");
    if (flags & INSTALLCMD_REPLACE)
        for (size_t i = 0; i < n; i++) {
            shellcmd_add(&c->uv, "--reinstall-package");
            shellcmd_add(&c->uv, r[i].project);
        }
    add_requirements(&c->uv, t, vendor_url, r, n);
    if (c->uv_from) {
        shellcmd_add(&c->uv, "--torch-backend");
        shellcmd_add(&c->uv, backend);
    } else if (index_url) {
        shellcmd_add(&c->uv, index_flag);
        shellcmd_add(&c->uv, index_url);
    }
    c->pip_line = shellcmd_line(&c->pip);
    c->uv_line = shellcmd_line(&c->uv);
    if (!c->pip_line || !c->uv_line) {
        installcmd_free(c);
        return -1;
    }
    return 0;
}

static struct shellcmd fixed[INSTALLCMD_NFIXED];
static char *fixed_lines[INSTALLCMD_NFIXED];
static pthread_once_t fixed_once = PTHREAD_ONCE_INIT;

static void make_fixed(void)
{
    static const char *const argv[INSTALLCMD_NFIXED][8] = {
        {"pip", "uninstall", "-y", "torch", "torchvision", "torchaudio", NULL},
        {"python", "-c", "import torch; print(torch.cuda.get_arch_list())", NULL}};
    for (int k = 0; k < INSTALLCMD_NFIXED; k++) {
        for (const char *const *a = argv[k]; *a; a++)
            shellcmd_add(&fixed[k], *a);
        fixed_lines[k] = shellcmd_line(&fixed[k]);
    }
}

const struct shellcmd *installcmd_fixed(int which)
{
    pthread_once(&fixed_once, make_fixed);
    return &fixed[which];
}

const char *installcmd_fixed_line(int which)
{
    pthread_once(&fixed_once, make_fixed);
    return fixed_lines[which] ? fixed_lines[which] : "";
}

void installcmd_copy(struct installcmd *dst, const struct installcmd *src)
{
    shellcmd_copy(&dst->pip, &src->pip);
    shellcmd_copy(&dst->uv, &src->uv);
    dst->pip_line = src->pip_line ? xstrdup(src->pip_line) : NULL;
    dst->uv_line = src->uv_line ? xstrdup(src->uv_line) : NULL;
    dst->uv_from = src->uv_from;
}

void installcmd_free(struct installcmd *c)
{
    shellcmd_free(&c->pip);
    shellcmd_free(&c->uv);
    free(c->pip_line);
    free(c->uv_line);
    memset(c, 0, sizeof *c);
}
