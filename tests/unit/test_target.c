/* Unit tests: target names, parsing and order. */
#include <stdlib.h>

#include "harness.h"
#include "target.h"

static void roundtrip(const char *s, int kind, int arch, char sfx)
{
    struct target t;
    char buf[TARGET_NAME_MAX];
    OK(target_parse(s, &t) == 0, "parse %s", s);
    INT_EQ(t.kind, kind, s);
    INT_EQ(t.arch, arch, s);
    INT_EQ(t.suffix, sfx, s);
    target_format(&t, buf, sizeof buf);
    STR_EQ(buf, s, "format");
}

/* An AMD target id parses, keeps its processor, generic flag and features,
 * and formats back to the same text. */
static void gfx(const char *s, unsigned arch, char sfx, int sramecc, int xnack)
{
    struct target t;
    INT_EQ(target_parse(s, &t), 0, s);
    INT_EQ(t.kind, TARGET_GFX, s);
    INT_EQ(t.arch, arch, s);
    INT_EQ(t.suffix, sfx, s);
    INT_EQ(t.sramecc, sramecc, s);
    INT_EQ(t.xnack, xnack, s);
    char buf[TARGET_NAME_MAX];
    target_format(&t, buf, sizeof buf);
    STR_EQ(buf, s, "gfx round trip");
}

int main(void)
{
    gfx("gfx90a", 0x90a, 0, 0, 0);
    gfx("gfx90a:xnack-", 0x90a, 0, 0, TARGET_FEAT_OFF);
    gfx("gfx90a:xnack+", 0x90a, 0, 0, TARGET_FEAT_ON);
    gfx("gfx906:sramecc+:xnack-", 0x906, 0, TARGET_FEAT_ON, TARGET_FEAT_OFF);
    gfx("gfx1030", 0x1030, 0, 0, 0);
    gfx("gfx1201", 0x1201, 0, 0, 0);
    gfx("gfx803", 0x803, 0, 0, 0);
    gfx("gfx9-generic", 0x900, 'g', 0, 0);
    gfx("gfx9-4-generic", 0x940, 'g', 0, 0);
    gfx("gfx10-1-generic", 0x1010, 'g', 0, 0);
    gfx("gfx10-3-generic", 0x1030, 'g', 0, 0);
    gfx("gfx11-generic", 0x1100, 'g', 0, 0);
    gfx("gfx12-generic", 0x1200, 'g', 0, 0);
    gfx("gfx9-generic:xnack-", 0x900, 'g', 0, TARGET_FEAT_OFF);
    {
        /* Features in either order; formatted sramecc first, as LLVM does. */
        struct target t;
        char buf[TARGET_NAME_MAX];
        INT_EQ(target_parse("gfx908:xnack-:sramecc+", &t), 0, "features in any order");
        target_format(&t, buf, sizeof buf);
        STR_EQ(buf, "gfx908:sramecc+:xnack-", "canonical feature order");
        static const char *const bad[] = {
            "gfx",           "gfx9",     "gfx90a:",     "gfx90a:xnack", "gfx90a:xnack-:xnack+",
            "gfx90a:foo+",   "gfx12345", "gfx-generic", "gfxzz0",       "gfx90a-generic",
            "gfx9--generic", "gfx1100 "};
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
            OK(target_parse(bad[i], &t) != 0, "rejects %s", bad[i]);
        /* Order: by generation, then generic after the processor of the same digits. */
        const char *order[] = {
            "gfx803",          "gfx900",        "gfx9-generic",  "gfx906", "gfx906:sramecc+:xnack-",
            "gfx90a",          "gfx90a:xnack-", "gfx90a:xnack+", "gfx942", "gfx1030",
            "gfx10-3-generic", "gfx1100",       "gfx11-generic", "gfx1201"};
        for (size_t i = 0; i + 1 < sizeof order / sizeof order[0]; i++)
            OK(target_name_cmp(order[i], order[i + 1]) < 0, "%s < %s", order[i], order[i + 1]);
        OK(target_name_cmp("sm_120", "gfx803") < 0, "CUDA targets before AMD ones");
    }

    roundtrip("sm_50", TARGET_SASS, 50, 0);
    roundtrip("sm_90a", TARGET_SASS, 90, 'a');
    roundtrip("sm_100f", TARGET_SASS, 100, 'f');
    roundtrip("sm_121a", TARGET_SASS, 121, 'a');
    roundtrip("compute_90", TARGET_PTX, 90, 0);
    roundtrip("compute_120f", TARGET_PTX, 120, 'f');
    roundtrip("lto_80", TARGET_LTO, 80, 0);

    static const char *const bad[] = {"",     "sm_",       "sm_90b", "sm_90aa", "compute", "sm90",
                                      "sm_0", "sm_999999", "gfx",    "sm_-1",   "SM_90"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct target t;
        OK(target_parse(bad[i], &t) != 0, "reject '%s'", bad[i]);
    }

    /* The order the JSON lists promise: number first, then suffix; never strings. */
    static const char *const ordered[] = {
        "sm_50",  "sm_61",  "sm_90",   "sm_90a",     "sm_100",     "sm_100a",     "sm_100f",
        "sm_103", "sm_120", "sm_121a", "compute_80", "compute_90", "compute_120", "lto_80"};
    size_t n = sizeof ordered / sizeof ordered[0];
    for (size_t i = 0; i + 1 < n; i++)
        OK(target_name_cmp(ordered[i], ordered[i + 1]) < 0, "%s < %s", ordered[i], ordered[i + 1]);
    OK(target_name_cmp("sm_90", "sm_100") < 0, "sm_90 < sm_100 (not as strings)");
    OK(target_name_cmp("sm_90", "bogus") < 0, "parsable names sort first");

    struct target t[6];
    const char *in[6] = {"sm_100f", "sm_90a", "sm_90", "sm_100f", "sm_100", "sm_90"};
    for (int i = 0; i < 6; i++)
        target_parse(in[i], &t[i]);
    size_t m = target_sort_unique(t, 6);
    INT_EQ(m, 4, "unique count");
    char buf[TARGET_NAME_MAX];
    const char *want[4] = {"sm_90", "sm_90a", "sm_100", "sm_100f"};
    for (size_t i = 0; i < m && i < 4; i++) {
        target_format(&t[i], buf, sizeof buf);
        STR_EQ(buf, want[i], "sorted");
    }
    /* Arch-flag strings as libtorch and nvcc users write them. */
    struct target g[32];
    size_t ng = target_parse_gencode(
        "-gencode;arch=compute_50,code=sm_50;-gencode;arch=compute_90a,code=sm_90a;"
        "-gencode;arch=compute_90,code=[sm_90,compute_90]",
        g, 32);
    const char *gw[] = {"sm_50", "sm_90", "sm_90a", "compute_90"};
    INT_EQ(ng, 4, "gencode count");
    for (size_t i = 0; i < ng && i < 4; i++) {
        target_format(&g[i], buf, sizeof buf);
        STR_EQ(buf, gw[i], "gencode target");
    }
    ng = target_parse_gencode(
        "-arch=sm_80 -gencode arch=compute_100f,code=\"sm_100f,compute_100f\"", g, 32);
    const char *gw2[] = {"sm_80", "sm_100f", "compute_80", "compute_100f"};
    INT_EQ(ng, 4, "shorthand count");
    for (size_t i = 0; i < ng && i < 4; i++) {
        target_format(&g[i], buf, sizeof buf);
        STR_EQ(buf, gw2[i], "shorthand target");
    }
    INT_EQ(target_parse_gencode("code=", g, 32), 0, "empty code=");
    INT_EQ(target_parse_gencode("code=[sm_80,", g, 1), 1, "bounded by max");
    return harness_done();
}
