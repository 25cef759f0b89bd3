/*
 * tables_gpus: NVIDIA GPUs by name and compute capability (Tegra parts
 * among them) and AMD processors with their feature modes.
 */
#include "tables_gpus.h"
#include "tables_load.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "csvfile.h"
#include "datatable.h"
#include "strbuf.h"
#include "xalloc.h"

static const uint16_t tegra_ccs[] = {32, 53, 62, 72, 87, 101, 110};

int tables_is_tegra(uint16_t cc)
{
    for (size_t i = 0; i < sizeof tegra_ccs / sizeof tegra_ccs[0]; i++)
        if (tegra_ccs[i] == cc)
            return 1;
    return 0;
}

int tablesi_parse_cc(const char *s, uint16_t *cc)
{
    struct dotver v;
    if (dotver_parse(s, &v) < 0 || v.n < 2 || v.f[0] > 99 || v.f[1] > 9)
        return -1;
    *cc = (uint16_t)(v.f[0] * 10 + v.f[1]);
    return 0;
}

static char *slugify(const char *s)
{
    struct strbuf b = STRBUF_INIT;
    int dash = 0;
    for (; *s; s++) {
        if (isalnum((unsigned char)*s)) {
            if (dash && b.len)
                strbuf_addc(&b, '-');
            dash = 0;
            strbuf_addc(&b, (char)tolower((unsigned char)*s));
        } else {
            dash = 1;
        }
    }
    return strbuf_detach(&b, NULL);
}

int tablesi_load_gpus(const char *dir, struct tables *t, struct wa_error *err)
{
    struct csvfile c;
    static const char *const cols[] = {"name", "compute_capability", "architecture", "segment",
                                       NULL};
    int idx[4];
    int rc = datatable_load(dir, "gpus.csv", &c, err);
    if (rc < 0)
        return rc;
    if ((rc = datatable_need_cols(&c, "gpus.csv", cols, idx, err)) < 0)
        goto out;
    int other_col = csvfile_col(&c, "other_cc"), host_col = csvfile_col(&c, "host");
    t->gpus = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->gpus);
    for (size_t r = 0; r < c.nrows; r++) {
        struct gpu *g = &t->gpus[t->ngpus];
        if (tablesi_parse_cc(c.rows[r][idx[1]], &g->cc) < 0) {
            rc = wa_error_set(err, WA_ERR_FORMAT, "gpus.csv: row %zu: bad compute capability '%s'",
                              r + 2, c.rows[r][idx[1]]);
            goto out;
        }
        g->name = xstrdup(c.rows[r][idx[0]]);
        g->slug = slugify(g->name);
        g->architecture = xstrdup(c.rows[r][idx[2]]);
        g->segment = xstrdup(c.rows[r][idx[3]]);
        g->tegra = strcmp(g->segment, "jetson") == 0 || tables_is_tegra(g->cc);
        /* optional: the capabilities of other chips sold under this name */
        const char *other = other_col >= 0 ? c.rows[r][other_col] : "";
        while (*other && g->nother < TABLES_OTHER_CC_MAX) {
            char one[16];
            size_t n = strcspn(other, ";");
            snprintf(one, sizeof one, "%.*s", (int)(n < 15 ? n : 15), other);
            if (tablesi_parse_cc(one, &g->other_cc[g->nother]) < 0) {
                rc = wa_error_set(err, WA_ERR_FORMAT,
                                  "gpus.csv: row %zu: bad other_cc '%s' (want X.Y;X.Y)", r + 2,
                                  c.rows[r][other_col]);
                goto out;
            }
            g->nother++;
            other += n + (other[n] == ';');
        }
        /* optional: the one kind of Arm system the GPU is sold in:
         * "aarch64" (Grace, Linux) or "windows-arm64" (RTX Spark) */
        const char *host = host_col >= 0 ? c.rows[r][host_col] : "";
        if (!*host)
            g->arm_host = TABLES_HOST_ANY;
        else if (strcmp(host, "aarch64") == 0)
            g->arm_host = TABLES_HOST_LINUX_ARM;
        else if (strcmp(host, "windows-arm64") == 0)
            g->arm_host = TABLES_HOST_WINDOWS_ARM;
        else {
            rc = wa_error_set(err, WA_ERR_FORMAT,
                              "gpus.csv: row %zu: bad host '%s' (want empty, aarch64 or "
                              "windows-arm64)",
                              r + 2, host);
            goto out;
        }
        t->ngpus++;
    }
out:
    csvfile_free(&c);
    return rc;
}

static uint8_t feature_default(const char *s)
{
    return strcmp(s, "on") == 0    ? TARGET_FEAT_ON
           : strcmp(s, "off") == 0 ? TARGET_FEAT_OFF
                                   : TARGET_FEAT_ANY;
}

int tablesi_load_amd_targets(const char *dir, struct tables *t, struct wa_error *err)
{
    struct csvfile c;
    static const char *const cols[] = {"gfx", "family", "xnack", "sramecc", "generic", NULL};
    int idx[5];
    int rc = datatable_load(dir, "amdgpu_targets.csv", &c, err);
    if (rc < 0)
        return rc;
    if ((rc = datatable_need_cols(&c, "amdgpu_targets.csv", cols, idx, err)) < 0)
        goto out;
    t->amd = xcalloc(c.nrows ? c.nrows : 1, sizeof *t->amd);
    for (size_t r = 0; r < c.nrows; r++) {
        struct target x;
        if (target_parse(c.rows[r][idx[0]], &x) < 0 || x.kind != TARGET_GFX) {
            rc = wa_error_set(err, WA_ERR_FORMAT, "amdgpu_targets.csv: row %zu: bad processor '%s'",
                              r + 2, c.rows[r][idx[0]]);
            goto out;
        }
        struct amd_processor *p = &t->amd[t->namd++];
        p->arch = x.arch;
        p->generic = x.suffix == 'g';
        p->xnack = strcmp(c.rows[r][idx[2]], "yes") == 0;
        p->sramecc = strcmp(c.rows[r][idx[3]], "yes") == 0;
        p->family = xstrdup(c.rows[r][idx[1]]);
        const char *gen = c.rows[r][idx[4]];
        struct target g;
        if (!p->generic && gen[0] && target_parse(gen, &g) == 0 && g.suffix == 'g')
            p->covered_by = g.arch;
    }
out:
    csvfile_free(&c);
    return rc;
}

int tablesi_load_amd_gpus(const char *dir, struct tables *t, struct wa_error *err)
{
    struct csvfile c;
    static const char *const cols[] = {
        "name",         "gfx", "architecture", "segment", "xnack_default", "sramecc_default",
        "rocm_support", NULL};
    int idx[7];
    int rc = datatable_load(dir, "amd_gpus.csv", &c, err);
    if (rc < 0)
        return rc;
    if ((rc = datatable_need_cols(&c, "amd_gpus.csv", cols, idx, err)) < 0)
        goto out;
    t->gpus = xrealloc(t->gpus, (t->ngpus + c.nrows + 1) * sizeof *t->gpus);
    for (size_t r = 0; r < c.nrows; r++) {
        struct gpu *g = &t->gpus[t->ngpus];
        memset(g, 0, sizeof *g);
        if (target_parse(c.rows[r][idx[1]], &g->gfx) < 0 || g->gfx.kind != TARGET_GFX ||
            g->gfx.suffix || g->gfx.arch < TABLES_AMD_MIN) {
            rc = wa_error_set(err, WA_ERR_FORMAT, "amd_gpus.csv: row %zu: bad processor '%s'",
                              r + 2, c.rows[r][idx[1]]);
            goto out;
        }
        g->gfx.xnack = feature_default(c.rows[r][idx[4]]);
        g->gfx.sramecc = feature_default(c.rows[r][idx[5]]);
        g->amd = 1;
        g->cc = g->gfx.arch;
        g->name = xstrdup(c.rows[r][idx[0]]);
        g->slug = slugify(g->name);
        g->architecture = xstrdup(c.rows[r][idx[2]]);
        g->segment = xstrdup(c.rows[r][idx[3]]);
        g->rocm_support = xstrdup(c.rows[r][idx[6]]);
        t->ngpus++;
    }
out:
    csvfile_free(&c);
    return rc;
}

const struct amd_processor *tables_amd_processor(const struct tables *t, uint16_t arch, int generic)
{
    for (size_t i = 0; i < t->namd; i++)
        if (t->amd[i].arch == arch && t->amd[i].generic == (generic != 0))
            return &t->amd[i];
    return NULL;
}

int tables_amd_device(const struct tables *t, uint16_t cc, struct target *device)
{
    if (cc < TABLES_AMD_MIN)
        return -1;
    for (size_t i = 0; i < t->ngpus; i++)
        if (t->gpus[i].amd && t->gpus[i].cc == cc) {
            *device = t->gpus[i].gfx;
            return 0;
        }
    memset(device, 0, sizeof *device);
    device->kind = TARGET_GFX;
    device->arch = cc;
    const struct amd_processor *p = tables_amd_processor(t, cc, 0);
    if (p && p->xnack)
        device->xnack = TARGET_FEAT_OFF;
    if (p && p->sramecc)
        device->sramecc = TARGET_FEAT_ON;
    return 0;
}
