/*
 * multigpu: one recommendation for every GPU of a machine (multigpu.h).
 */
#include "multigpu.h"

#include <stdlib.h>
#include <string.h>

#include "dotver.h"
#include "strbuf.h"
#include "xalloc.h"

/* The entry of result r's variants for id, or NULL. */
static json_t *variant_of(const json_t *r, const char *id)
{
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(r, "variants"), i, x)
    {
        const char *v = json_string_value(json_object_get(x, "variant"));
        if (v && strcmp(v, id) == 0)
            return x;
    }
    return NULL;
}

static const char *verdict_of(const json_t *x)
{
    const char *v = json_string_value(json_object_get(x, "verdict"));
    return v ? v : "";
}

static int runs(const json_t *x)
{
    return x && (strcmp(verdict_of(x), "native") == 0 || strcmp(verdict_of(x), "ptx-jit") == 0);
}

/* The toolkit version of a variant entry: its CUDA, or the ROCm of
 * "rocm6.4"; "" for none (cpu). */
static const char *toolkit_of(const json_t *x)
{
    const char *cuda = json_string_value(json_object_get(x, "cuda"));
    const char *id = json_string_value(json_object_get(x, "variant"));
    if (cuda)
        return cuda;
    if (id && strncmp(id, "rocm", 4) == 0)
        return id + 4;
    return "";
}

/* >0 when variant entry a's toolkit is newer than b's. */
static int newer(const json_t *a, const json_t *b)
{
    return dotver_cmp_str(toolkit_of(a), toolkit_of(b));
}

static char *release_pin(const json_t *r)
{
    const char *rel = json_string_value(json_object_get(r, "version"));
    return xasprintf("%s.*", rel ? rel : "0");
}

/* An answer for variant entry x of the first result when no GPU's own
 * recommendation is that variant. */
static json_t *answer_from(const json_t *r0, const json_t *x, const char *verdict)
{
    const char *project = json_string_value(json_object_get(r0, "project"));
    const char *url = json_string_value(json_object_get(x, "index_url"));
    char *pin = release_pin(r0);
    json_t *a = json_object();
    json_object_set(a, "index", json_object_get(x, "variant"));
    json_object_set(a, "index_url", json_object_get(x, "index_url"));
    json_object_set(a, "version", json_object_get(x, "version"));
    json_object_set(a, "release", json_object_get(r0, "version"));
    json_object_set_new(a, "pin", json_string(pin));
    json_object_set_new(a, "verdict", json_string(verdict));
    json_object_set(a, "min_driver", json_object_get(x, "min_driver"));
    json_object_set(a, "status", json_object_get(x, "status"));
    json_object_set_new(a, "commands",
                        query_commands(project ? project : "torch", pin, url ? url : ""));
    free(pin);
    return a;
}

json_t *multigpu_run(const struct dbview *v, const struct multigpu_gpu *gpus, size_t n,
                     struct wa_error *err)
{
    json_t **res = xcalloc(n ? n : 1, sizeof *res);
    for (size_t i = 0; i < n; i++) {
        res[i] = query_run(v, &gpus[i].o, err);
        if (!res[i]) {
            for (size_t k = 0; k < i; k++)
                json_decref(res[k]);
            free(res);
            return NULL;
        }
    }
    /* The best variant that runs on every GPU: native on the most of
     * them, then the newest toolkit. */
    /* within what the driver supports natively first, as query prefers */
    const char *dcuda =
        json_string_value(json_object_get(json_object_get(res[0], "driver"), "cuda"));
    const json_t *best = NULL;
    size_t best_native = 0;
    int best_within = 0;
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(res[0], "variants"), i, x)
    {
        const char *id = json_string_value(json_object_get(x, "variant"));
        size_t native = 0;
        int ok = 1;
        for (size_t g = 0; id && g < n && ok; g++) {
            const json_t *y = variant_of(res[g], id);
            ok = runs(y);
            if (ok && strcmp(verdict_of(y), "native") == 0)
                native++;
        }
        if (!id || !ok)
            continue;
        const char *cuda = json_string_value(json_object_get(x, "cuda"));
        int within = !dcuda || !cuda || dotver_cmp_str(cuda, dcuda) <= 0;
        if (!best || native > best_native ||
            (native == best_native &&
             (within > best_within || (within == best_within && newer(x, best) > 0)))) {
            best = x;
            best_native = native;
            best_within = within;
        }
    }
    json_t *out = json_object();
    json_object_set(out, "project", json_object_get(res[0], "project"));
    json_object_set(out, "version", json_object_get(res[0], "version"));
    json_object_set(out, "platform", json_object_get(res[0], "platform"));
    json_t *list = json_array();
    for (size_t g = 0; g < n; g++) {
        json_t *e = json_object();
        json_object_set_new(e, "label", json_string(gpus[g].label));
        json_object_set_new(e, "count", json_integer((json_int_t)gpus[g].count));
        json_object_set(e, "result", res[g]);
        json_array_append_new(list, e);
    }
    json_object_set_new(out, "gpus", list);
    struct strbuf why = STRBUF_INIT;
    const char *decided = NULL;
    if (best) {
        const char *id = json_string_value(json_object_get(best, "variant"));
        json_t *rec = NULL;
        for (size_t g = 0; g < n && !rec; g++) {
            json_t *own = json_object_get(res[g], "recommendation");
            const char *oid = json_string_value(json_object_get(own, "index"));
            if (oid && strcmp(oid, id) == 0)
                rec = json_deep_copy(own);
        }
        if (!rec)
            rec = answer_from(res[0], best, best_native == n ? "native" : "ptx-jit");
        if (best_native < n)
            json_object_set_new(rec, "verdict", json_string("ptx-jit"));
        json_object_set_new(out, "recommendation", rec);
        /* Who decided: the GPU that rules out the newest variant better
         * than the one chosen. */
        const json_t *ruled = NULL;
        json_array_foreach(json_object_get(res[0], "variants"), i, x)
        {
            if (newer(x, best) > 0 && (!ruled || newer(x, ruled) > 0)) {
                const char *xid = json_string_value(json_object_get(x, "variant"));
                for (size_t g = 0; xid && g < n; g++)
                    if (!runs(variant_of(res[g], xid))) {
                        ruled = x;
                        break;
                    }
            }
        }
        strbuf_addf(&why,
                    "%s has %s code for every GPU of this machine, the newest CUDA among such%s",
                    id, best_native == n ? "native" : "native or PTX",
                    dcuda ? " that this driver supports natively" : "");
        if (ruled) {
            const char *rid = json_string_value(json_object_get(ruled, "variant"));
            for (size_t g = 0; g < n && !decided; g++) {
                const json_t *y = variant_of(res[g], rid);
                if (!runs(y)) {
                    decided = gpus[g].label;
                    const char *r = json_string_value(json_object_get(y, "reason"));
                    strbuf_addf(&why, "; %s decided it (%s: %s)", decided, rid,
                                r ? r : "no code for it");
                }
            }
        }
    } else {
        json_object_set_new(out, "recommendation", json_null());
        strbuf_addf(&why, "no variant of %s %s runs on every GPU of this machine:",
                    json_string_value(json_object_get(res[0], "project")),
                    json_string_value(json_object_get(res[0], "version")));
        for (size_t g = 0; g < n; g++) {
            const char *own = json_string_value(
                json_object_get(json_object_get(res[g], "recommendation"), "index"));
            strbuf_addf(&why, "%s %s: %s", g ? ";" : "", gpus[g].label, own ? own : "none of them");
        }
        strbuf_adds(&why, " (--gpu-index N answers for one GPU)");
    }
    json_object_set_new(out, "decided_by", decided ? json_string(decided) : json_null());
    json_object_set_new(out, "reason", json_string(why.buf ? why.buf : ""));
    strbuf_free(&why);
    for (size_t g = 0; g < n; g++)
        json_decref(res[g]);
    free(res);
    return out;
}
