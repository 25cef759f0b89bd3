/*
 * Unit tests: answer_json, the one JSON writer of an answer (`query
 * --json`).  Over every GPU class of the data, three platforms, no driver
 * and two drivers, with and without a Python, the JSON must say what the
 * typed answer says, field by field:
 *
 * - schema_version, the driver and the Python asked about (null when
 *   none), the project, version and platform;
 * - one entry per variant of the release, in order, with its verdict,
 *   label, what blocks it (null when nothing does) and whether it runs;
 * - the recommendation, fallback and newest with code (null when none),
 *   with their index, pin and a pip command naming both;
 *   newest_that_runs is the recommendation, else the fallback;
 * - one entry per driver floor and per step of what to change;
 * - the text is valid JSON and reads back equal.
 *
 * usage: test_answer_json DATA_DIR
 */
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "answer_json.h"
#include "dbview.h"
#include "harness.h"
#include "query.h"
#include "tables.h"
#include "vendorindex.h"
#include "verdict.h"

static struct tables T;
static struct dbview V;
static size_t answers, variants, installs;

static int str_is(json_t *x, const char *key, const char *want)
{
    json_t *v = json_object_get(x, key);
    return want ? json_is_string(v) && strcmp(json_string_value(v), want) == 0 : json_is_null(v);
}

/* Whether the data has ROCm builds for platform: PyTorch's on Linux
 * x86_64, a vendor's (vendorindex.h) elsewhere. */
static int rocm_on(const char *platform)
{
    if (strcmp(platform, "linux-x86_64") == 0)
        return 1;
    for (size_t i = 0; i < T.nvendor; i++)
        if (strncmp(T.vendor[i].variant, "rocm", 4) == 0 &&
            strcmp(T.vendor[i].platform, platform) == 0)
            return 1;
    return 0;
}

static void check_install(json_t *x, const struct answer_install *i, const char *project,
                          const char *what)
{
    if (!i) {
        OK(json_is_null(x), "%s: null when there is none", what);
        return;
    }
    installs++;
    OK(str_is(x, "index", i->row->variant) && str_is(x, "pin", i->pin) &&
           str_is(x, "index_url", i->index_url) &&
           str_is(x, "verdict", compat_verdict_name(i->res.verdict)),
       "%s: index, pin, URL and verdict as the answer has them", what);
    const char *pip = json_string_value(json_object_get(json_object_get(x, "commands"), "pip"));
    char want[512], flag[600];
    const struct vendor_build *vb = i->row->vendor;
    if (vb) { /* a vendor's index: its exact version (beside PyPI on an extra one), and
               * the extra that brings the GPU's code where its wheels have such */
        char extra[80] = "";
        if (vb->gpu_extra) {
            OK(i->extra[0] && strncmp(i->extra, "device-", 7) == 0 && i->res.has_via,
               "%s: %s's build names the extra with the GPU's code (%s)", what, vb->vendor,
               i->extra);
            char gfx[32];
            target_format(&i->res.via, gfx, sizeof gfx);
            char *pattern = vendorindex_extra(vb, gfx);
            STR_EQ(i->extra, pattern ? pattern : "",
                   "the extra is the pattern's for the target that runs");
            free(pattern);
            snprintf(extra, sizeof extra, "[%s]", i->extra);
        } else {
            OK(!i->extra[0], "%s: no extra where the wheel carries its code", what);
        }
        if (vb->npythons) { /* the vendor's own Pythons, not the release's */
            size_t k = 0;
            for (size_t j = 0; j < vb->npythons; j++) {
                char py[16];
                tables_python_format(vb->pythons[j], vb->pythons_ft[j], py, sizeof py);
                k += k < i->pythons.n && strcmp(i->pythons.v[k], py) == 0;
            }
            OK(i->pythons.n == 0 || (k == vb->npythons && k == i->pythons.n),
               "%s: the Pythons are %s's own (%zu of %zu)", what, vb->vendor, k, vb->npythons);
        }
        snprintf(want, sizeof want, "%s%s==%s+%s", project, extra, vb->version, vb->variant);
        snprintf(flag, sizeof flag, "%s %s", vb->extra ? "--extra-index-url" : "--index-url",
                 i->index_url);
        OK(strncmp(vb->version, i->pin, strlen(i->pin) - (i->pin[strlen(i->pin) - 1] == '*')) == 0,
           "%s: the vendor's %s fits the pin %s", what, vb->version, i->pin);
    } else {
        OK(!i->extra[0], "%s: no extra on PyTorch's index", what);
        snprintf(want, sizeof want, "%s==%s", project, i->pin);
        snprintf(flag, sizeof flag, "--index-url %s", i->index_url);
    }
    OK(pip && strstr(pip, want) && strstr(pip, flag), "%s: the pip command installs %s from %s: %s",
       what, want, flag, pip ? pip : "(none)");
}

static void check(const struct answer_result *a, const char *what)
{
    answers++;
    json_t *j = answer_json(a);
    INT_EQ(json_integer_value(json_object_get(j, "schema_version")), QUERY_SCHEMA_VERSION, what);
    OK(a->has_driver ? str_is(json_object_get(j, "driver"), "version", a->driver_text)
                     : json_is_null(json_object_get(j, "driver")),
       "%s: the driver asked about", what);
    OK(a->has_python == json_is_object(json_object_get(j, "python")), "%s: the Python asked about",
       what);
    OK(str_is(j, "project", a->project) && str_is(j, "version", a->version) &&
           str_is(j, "platform", a->platform) &&
           json_is_true(json_object_get(j, "applies")) == (a->applies != 0),
       "%s: project, version, platform, applies", what);
    json_t *vs = json_object_get(j, "variants");
    INT_EQ(json_array_size(vs), a->nrows, "one entry per variant");
    for (size_t i = 0; i < a->nrows && i < json_array_size(vs); i++) {
        const struct answer_row *r = &a->rows[i];
        json_t *x = json_array_get(vs, i);
        char label[64];
        answer_row_label(a, r, label, sizeof label);
        variants++;
        OK(str_is(x, "variant", r->row->variant) && str_is(x, "label", label) &&
               str_is(x, "verdict", compat_verdict_name(r->v.res.verdict)) &&
               str_is(x, "code", compat_verdict_name(r->v.code)) &&
               str_is(x, "blocked_by", verdict_block_name(r->v.blocked_by)) &&
               json_is_true(json_object_get(x, "runs")) == (r->v.runs != 0),
           "%s, %s: verdict, label, block and runs as judged", what, r->row->variant);
    }
    check_install(json_object_get(j, "recommendation"), a->recommendation, a->project, what);
    check_install(json_object_get(j, "fallback"), a->fallback, a->project, what);
    check_install(json_object_get(j, "newest_with_code"), a->newest_with_code, a->project, what);
    OK(json_equal(json_object_get(j, "newest_that_runs"),
                  json_object_get(j, a->recommendation ? "recommendation" : "fallback")),
       "%s: newest_that_runs is the recommendation, else the fallback", what);
    json_t *bd = json_object_get(j, "by_driver");
    INT_EQ(json_array_size(bd), a->nby_driver, "one entry per driver floor");
    for (size_t i = 0; i < a->nby_driver && i < json_array_size(bd); i++)
        OK(a->by_driver[i].floor[0]
               ? str_is(json_array_get(bd, i), "min_driver", a->by_driver[i].floor)
               : json_is_null(json_object_get(json_array_get(bd, i), "min_driver")),
           "%s: driver floor %zu is %s (AMD: none, null)", what, i, a->by_driver[i].floor);
    json_t *ch = json_object_get(j, "change");
    INT_EQ(json_array_size(ch), a->nchange, "one entry per step");
    static const char *const kinds[] = {"driver", "python", "release", "source"};
    for (size_t i = 0; i < a->nchange && i < json_array_size(ch); i++)
        OK(str_is(json_array_get(ch, i), "kind", kinds[a->change[i].kind]) &&
               str_is(json_array_get(ch, i), "text", a->change[i].text),
           "%s: step %zu", what, i);
    char *text = json_dumps(j, JSON_COMPACT);
    json_t *back = text ? json_loads(text, 0, NULL) : NULL;
    OK(back && json_equal(back, j), "%s: valid JSON that reads back equal", what);
    json_decref(back);
    free(text);
    json_decref(j);
}

int main(int argc, char **argv)
{
    struct wa_error err;
    if (argc < 2 || tables_load(argv[1], &T, &err) < 0 ||
        dbview_build(NULL, &T, DBVIEW_CODE_ONLY, &V, &err) < 0) {
        fprintf(stderr, "usage: test_answer_json DATA_DIR\n");
        return 2;
    }
    struct query_order *order = query_order_new(&V);
    static const char *const platforms[] = {"linux-x86_64", "linux-aarch64", "windows-x86_64",
                                            "windows-arm64"};
    static const char *const drivers[] = {NULL, "470.256.02", "580.65.06"};
    uint16_t seen[512];
    size_t nseen = 0;
    for (size_t g = 0; g < T.ngpus; g++) {
        const struct gpu *gp = &T.gpus[g];
        size_t k = 0;
        while (k < nseen && seen[k] != gp->cc)
            k++;
        if (k < nseen || nseen == 512)
            continue; /* one GPU per device */
        seen[nseen++] = gp->cc;
        for (size_t p = 0; p < sizeof platforms / sizeof platforms[0]; p++)
            for (size_t d = 0; d < 3; d++)
                for (int y = 0; y < 2; y++) {
                    struct query_options o;
                    memset(&o, 0, sizeof o);
                    o.gpu = gp;
                    o.cc = gp->cc;
                    o.arm_host = gp->arm_host;
                    o.project = "torch";
                    o.platform = platforms[p];
                    o.order = order;
                    if (drivers[d]) {
                        dotver_parse(drivers[d], &o.driver);
                        o.has_driver = 1;
                        o.driver_text = drivers[d];
                    }
                    if (y) {
                        tables_python_parse("3.12", &o.python, &o.python_free_threaded);
                        o.has_python = 1;
                    }
                    char what[256];
                    snprintf(what, sizeof what, "%s on %s, driver %s, Python %s", gp->name,
                             platforms[p], drivers[d] ? drivers[d] : "none", y ? "3.12" : "any");
                    if (gp->amd && d > 0)
                        continue; /* no NVIDIA driver for an AMD GPU */
                    struct answer_result *a = query_answer(&V, &o, &err);
                    if (gp->amd && !rocm_on(platforms[p])) {
                        /* no ROCm build for the platform: said, not answered */
                        OK(!a && strstr(err.msg, platforms[p]),
                           "%s: refused, naming the platform (%s)", what, a ? "answered" : err.msg);
                        answer_free(a);
                        continue;
                    }
                    if (gp->amd && p > 0 && a)
                        /* beyond Linux x86_64 only a vendor's index has ROCm builds */
                        for (size_t w = 0; w < a->nrows; w++)
                            OK(a->rows[w].row->vendor != NULL, "%s: ROCm row %s is a vendor's",
                               what, a->rows[w].row->variant);
                    OK(a != NULL, "%s: answered (%s)", what, a ? "" : err.msg);
                    if (a) {
                        check(a, what);
                        answer_free(a);
                    }
                }
    }
    printf("%zu answers, %zu variant entries, %zu installs\n", answers, variants, installs);
    OK(answers > 100 && installs > 100, "answers checked");
    query_order_free(order);
    dbview_free(&V);
    tables_free(&T);
    return harness_done();
}
