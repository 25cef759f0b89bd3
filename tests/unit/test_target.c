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

int main(void)
{
    roundtrip("sm_50", TARGET_SASS, 50, 0);
    roundtrip("sm_90a", TARGET_SASS, 90, 'a');
    roundtrip("sm_100f", TARGET_SASS, 100, 'f');
    roundtrip("sm_121a", TARGET_SASS, 121, 'a');
    roundtrip("compute_90", TARGET_PTX, 90, 0);
    roundtrip("compute_120f", TARGET_PTX, 120, 'f');
    roundtrip("lto_80", TARGET_LTO, 80, 0);

    static const char *const bad[] = {"",     "sm_",       "sm_90b", "sm_90aa", "compute", "sm90",
                                      "sm_0", "sm_999999", "gfx90a", "sm_-1",   "SM_90"};
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
