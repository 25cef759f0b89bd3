/*
 * sitedata_home: the home page.
 */
#include "sitedata_impl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "stack.h"
#include "strmap.h"
#include "xalloc.h"

/* ---- the home page ------------------------------------------------------- */

static const char *segment_title(const char *s)
{
    static const char *const map[][2] = {{"geforce", "GeForce"},
                                         {"workstation", "Workstation (Quadro, RTX A/Ada)"},
                                         {"datacenter", "Data center"},
                                         {"jetson", "Jetson"},
                                         {"radeon", "AMD Radeon"},
                                         {"radeon-pro", "AMD Radeon PRO"},
                                         {"instinct", "AMD Instinct"},
                                         {"apu", "AMD Ryzen APUs"},
                                         {"other", "Other"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i][0], s) == 0)
            return map[i][1];
    return s;
}

/* The instant answer of the home page's filter for one GPU on one
 * platform: the recommendation (or fallback) in short, its driver table
 * and the PyPI line, from the same answer the GPU page shows. */
static json_t *slim_home_answer(json_t *r)
{
    json_t *c = json_object();
    if (!json_is_object(r))
        return c;
    json_t *use = sitedata_answer_of(r);
    json_object_set(c, "release", json_object_get(r, "release"));
    if (use) {
        static const char *const keys[] = {"index",      "version",    "pin",
                                           "verdict",    "label",      "symbol",
                                           "provenance", "min_driver", "full_driver"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (json_object_get(use, keys[k]) && !json_is_null(json_object_get(use, keys[k])))
                json_object_set(c, keys[k], json_object_get(use, keys[k]));
        json_object_set(c, "pip", json_object_get(json_object_get(use, "commands"), "pip"));
        if (use != json_object_get(r, "recommendation"))
            json_object_set_new(c, "fallback", json_true());
    }
    json_t *bd = json_array();
    size_t k;
    json_t *e;
    json_array_foreach(json_object_get(r, "by_driver"), k, e)
    {
        json_t *y = json_object();
        json_object_set(y, "min_driver", json_object_get(e, "min_driver"));
        json_object_set(y, "index", json_object_get(e, "index"));
        json_object_set(y, "pin", json_object_get(e, "pin"));
        json_object_set(y, "pip", json_object_get(json_object_get(e, "commands"), "pip"));
        json_array_append_new(bd, y);
    }
    if (json_array_size(bd) > 1)
        json_object_set_new(c, "by_driver", bd);
    else
        json_decref(bd);
    json_t *py = json_object_get(r, "pypi");
    if (json_is_object(py) && json_is_false(json_object_get(py, "runs")))
        json_object_set(c, "pypi_no", json_object_get(py, "build"));
    else if (json_is_object(py) && json_is_true(json_object_get(py, "runs")))
        json_object_set(c, "pypi_yes", json_object_get(py, "build"));
    json_t *gd = json_object_get(r, "guidance");
    if (json_is_object(gd) && !json_is_true(json_object_get(r, "applies")))
        json_object_set(c, "guidance", json_object_get(gd, "text"));
    return c;
}

/* The home list's status of a GPU at a glance, from its Linux x86_64
 * answer: the newest release with native code, in text and symbol. */
static void glance(json_t *r, json_t *x)
{
    const char *cls = "x", *text = "\xe2\x9c\x97 none";
    char buf[64];
    json_t *rec = json_object_get(r, "recommendation");
    json_t *fb = json_object_get(r, "fallback");
    json_t *gd = json_object_get(r, "guidance");
    if (json_is_object(gd) && !json_is_true(json_object_get(r, "applies"))) {
        cls = "t";
        text = "Jetson wheels";
    } else if (json_is_object(rec)) {
        int native = strcmp(json_string_value(json_object_get(rec, "verdict")), "native") == 0;
        snprintf(buf, sizeof buf, "%s %s", native ? "\xe2\x9c\x93" : "\xe2\x89\x88",
                 json_string_value(json_object_get(r, "release")));
        cls = native ? "n" : "j";
        text = buf;
    } else if (json_is_object(fb)) {
        snprintf(buf, sizeof buf, "\xe2\x9c\x93 %s",
                 json_string_value(json_object_get(fb, "release")));
        cls = "o";
        text = buf;
    }
    json_object_set_new(x, "glance", json_string(text));
    json_object_set_new(x, "glance_class", json_string(cls));
}

/* strcmp, but runs of digits compare as numbers ("RTX 980" < "RTX 1080"). */
static int natural_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            while (*a == '0')
                a++;
            while (*b == '0')
                b++;
            size_t na = strspn(a, "0123456789"), nb = strspn(b, "0123456789");
            if (na != nb)
                return na < nb ? -1 : 1;
            int c = strncmp(a, b, na);
            if (c)
                return c;
            a += na;
            b += nb;
        } else {
            if (*a != *b)
                return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
            a++;
            b++;
        }
    }
    return *a ? 1 : *b ? -1 : 0;
}

/* A device code for ordering: compute capability 12.0 -> 120; AMD
 * processors after all NVIDIA ones, by their hex digits. */
static long device_order(json_t *g)
{
    const char *s = json_string_value(json_object_get(g, "device"));
    if (!s)
        return 0;
    if (strncmp(s, "gfx", 3) == 0)
        return 100000 + strtol(s + 3, NULL, 16);
    char *end;
    long major = strtol(s, &end, 10);
    return major * 10 + (*end == '.' ? strtol(end + 1, NULL, 10) : 0);
}

/* Newest architecture first, then names in descending natural order (RTX
 * 5090 before 5080), so the GPUs people most often look for come first. */
static int home_order(const void *a, const void *b)
{
    json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    long dx = device_order(x), dy = device_order(y);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    return -natural_cmp(json_string_value(json_object_get(x, "name")),
                        json_string_value(json_object_get(y, "name")));
}

void sitedata_build_home(struct sitedata *d)
{
    d->home = json_object();
    static const char *const plats[] = {"linux-x86_64", "linux-aarch64", "windows-x86_64"};
    /* GPUs grouped by segment, in table order within each. */
    static const char *const order[] = {"geforce",  "workstation", "datacenter",
                                        "jetson",   "radeon",      "radeon-pro",
                                        "instinct", "apu",         "other"};
    json_t *segs = json_array();
    json_t *answers = json_object();
    for (size_t s = 0; s < sizeof order / sizeof order[0]; s++) {
        json_t *gl = json_array();
        json_t *all = json_object_get(d->gpus, "gpus");
        json_t **seg_gpus = xcalloc(json_array_size(all) + 1, sizeof *seg_gpus);
        size_t n = 0, i;
        json_t *g;
        json_array_foreach(all, i, g)
        {
            if (strcmp(json_string_value(json_object_get(g, "segment")), order[s]) == 0)
                seg_gpus[n++] = g;
        }
        qsort(seg_gpus, n, sizeof *seg_gpus, home_order);
        for (i = 0; i < n; i++) {
            g = seg_gpus[i];
            json_t *recs = json_object_get(g, "recommendations");
            json_t *x = json_object();
            json_object_set(x, "name", json_object_get(g, "name"));
            json_object_set(x, "page", json_object_get(g, "page"));
            json_object_set(x, "cc", json_object_get(g, "device"));
            /* other chips sold under this name, for the filter */
            struct strbuf o = STRBUF_INIT;
            size_t k;
            json_t *od;
            json_array_foreach(json_object_get(g, "other_devices"), k, od)
                strbuf_addf(&o, "%s%s", k ? " " : "", json_string_value(od));
            if (o.len)
                json_object_set_new(x, "other", json_string(o.buf));
            strbuf_free(&o);
            int arm = json_is_true(json_object_get(g, "arm_host"));
            glance(json_object_get(recs, arm ? "linux-aarch64" : "linux-x86_64"), x);
            if (arm) {
                /* its status is Linux aarch64's, and its answers its own */
                char *gt = xasprintf("%s on Arm", json_string_value(json_object_get(x, "glance")));
                json_object_set_new(x, "glance", json_string(gt));
                free(gt);
                json_object_set_new(x, "arm", json_true());
            }
            json_array_append_new(gl, x);
            char *cc = xasprintf("%s%s", json_string_value(json_object_get(g, "device")),
                                 arm ? "/arm" : "");
            if (!json_object_get(answers, cc)) {
                json_t *per = json_object();
                for (size_t p = 0; p < 3; p++) {
                    json_t *r = json_object_get(recs, plats[p]);
                    if (json_is_object(r))
                        json_object_set_new(per, plats[p], slim_home_answer(r));
                }
                json_object_set_new(answers, cc, per);
            }
            free(cc);
        }
        free(seg_gpus);
        if (json_array_size(gl) == 0) {
            json_decref(gl);
            continue;
        }
        json_t *seg = json_object();
        json_object_set_new(seg, "id", json_string(order[s]));
        json_object_set_new(seg, "title", json_string(segment_title(order[s])));
        json_object_set_new(seg, "gpus", gl);
        json_array_append_new(segs, seg);
    }
    json_object_set_new(d->home, "segments", segs);
    /* assets/answers.js, loaded by the filter when it is first used */
    char *aj = sitedata_script_json(answers);
    d->answers_js = xasprintf("/* generated by wheelarch build: the filter's answers per device "
                              "code and platform (api/v1/gpus.json in short) */\n"
                              "window.wheelarchAnswers = %s;\n",
                              aj);
    free(aj);
    json_decref(answers);
    /* The newest three torch releases with their variants. */
    json_t *rels = json_array();
    const char *last = NULL;
    for (size_t r = 0; r < d->v->nrows && json_array_size(rels) < 4; r++) {
        const struct dbview_row *row = &d->v->rows[r];
        if (strcmp(row->project, "torch") != 0)
            continue;
        if (last && strcmp(last, row->release) == 0)
            continue;
        if (json_array_size(rels) == 3)
            break;
        last = row->release;
        json_t *x = json_object();
        json_object_set_new(x, "release", json_string(row->release));
        json_object_set_new(x, "version", json_string(row->version));
        char *page = sitedata_release_path(row->project, row->version);
        json_object_set_new(x, "page", json_string(page));
        free(page);
        json_t *vars = json_array();
        for (size_t k = r; k < d->v->nrows; k++) {
            const struct dbview_row *o = &d->v->rows[k];
            if (strcmp(o->project, "torch") != 0 || strcmp(o->release, row->release) != 0)
                break;
            if (strcmp(o->platform, "linux-x86_64") != 0)
                continue;
            json_t *vv = json_object();
            json_object_set_new(vv, "variant", json_string(o->variant));
            char sass[256] = "";
            const struct target *code = o->ngfx ? o->gfx : o->sass;
            size_t ncode = o->ngfx ? o->ngfx : o->nsass;
            if (ncode) {
                char a[TARGET_NAME_MAX], b[TARGET_NAME_MAX];
                target_format(&code[0], a, sizeof a);
                target_format(&code[ncode - 1], b, sizeof b);
                snprintf(sass, sizeof sass, "%s \xe2\x80\xa6 %s", a, b);
            }
            json_object_set_new(vv, "range", json_string(sass));
            json_object_set_new(vv, "status", json_string(dbview_status_name(o->status)));
            json_array_append_new(vars, vv);
        }
        json_object_set_new(x, "variants", vars);
        json_array_append_new(rels, x);
    }
    json_object_set_new(d->home, "releases", rels);
    if (json_array_size(rels))
        json_object_set(d->home, "newest", json_object_get(json_array_get(rels, 0), "release"));
    json_object_set_new(
        d->home, "gpu_count",
        json_integer((json_int_t)json_array_size(json_object_get(d->gpus, "gpus"))));
}
