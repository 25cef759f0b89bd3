/*
 * dbview_json: the view's rows written as JSON (the feed's row objects and
 * their differences) and the citation of a source.
 */
#include "dbview_json.h"
#include "dbview_row.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "target.h"
#include "strbuf.h"
#include "observed.h"
#include "xalloc.h"

static json_t *targets_json(const struct target *t, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        char name[TARGET_NAME_MAX];
        target_format(&t[i], name, sizeof name);
        json_array_append_new(a, json_string(name));
    }
    return a;
}

void dbview_isa_format(const struct compat_code_isa *x, char *name, char *isa)
{
    target_format(&x->ptx, name, TARGET_NAME_MAX);
    snprintf(isa, 16, "%ld.%ld", x->isa.f[0], x->isa.n > 1 ? x->isa.f[1] : 0);
}

json_t *dbview_isa_json(const struct compat_code *code)
{
    json_t *isa = json_object();
    for (size_t i = 0; i < code->nisas; i++) {
        char name[TARGET_NAME_MAX], iv[16];
        dbview_isa_format(&code->isas[i], name, iv);
        json_object_set_new(isa, name, json_string(iv));
    }
    return isa;
}

/* The published get_arch_list() outputs of the wheels a declared row
 * covers: [{wheel, printed, url, agrees, reason}] (reason: why the
 * declared list stands where they differ, else null). */
static json_t *observed_json(const struct tables *t, const struct declared *d)
{
    json_t *a = json_array();
    for (size_t i = 0; t && i < t->nobserved; i++) {
        const struct observed *o = &t->observed[i];
        if (o->declared != d)
            continue;
        json_t *x = json_object();
        json_object_set_new(x, "wheel", json_sprintf("%s+%s", o->version, o->variant));
        json_object_set_new(x, "printed", json_string(o->printed));
        json_object_set_new(x, "url", json_string(o->url));
        json_object_set_new(x, "agrees", json_boolean(o->agrees));
        json_object_set_new(x, "reason", o->reason ? json_string(o->reason) : json_null());
        json_array_append_new(a, x);
    }
    return a;
}

json_t *dbview_min_driver_json(const struct tables *t, const struct dotver *cuda)
{
    const struct minor_compat *mc = tables_minor_compat(t, (int)cuda->f[0]);
    static const char *const keys[TABLES_NOS] = {"linux", "windows", "windows-arm64"};
    json_t *md = json_object();
    for (int os = 0; os < TABLES_NOS; os++)
        if (mc && mc->min_driver_text[os])
            json_object_set_new(md, keys[os], json_string(mc->min_driver_text[os]));
    return md;
}

json_t *dbview_row_json(const struct dbview *v, const struct dbview_row *r)
{
    const struct tables *t = v->t;
    json_t *o = json_object();
    json_object_set_new(o, "project", json_string(r->project));
    json_object_set_new(o, "version", json_string(r->version));
    json_object_set_new(o, "release", json_string(r->release));
    json_object_set_new(o, "variant", json_string(r->variant));
    json_object_set_new(o, "platform", json_string(r->platform));
    json_object_set_new(o, "status", json_string(dbview_status_name(r->status)));
    json_object_set_new(o, "index_url", json_string(r->index_url));
    if (r->cuda.n) {
        char cuda[16];
        tables_variant_cuda_text(r->variant, cuda, sizeof cuda);
        json_object_set_new(o, "cuda", json_string(cuda));
        json_object_set_new(o, "min_driver", dbview_min_driver_json(t, &r->cuda));
    } else {
        json_object_set_new(o, "cuda", json_null());
        json_object_set_new(o, "min_driver", json_null());
    }
    if (tables_variant_rocm(r->variant, NULL)) {
        json_object_set_new(o, "rocm", json_string(r->variant + 4)); /* "6.4" */
    } else {
        json_object_set_new(o, "rocm", json_null());
    }
    json_object_set_new(o, "sass", targets_json(r->sass, r->nsass));
    json_object_set_new(o, "ptx", targets_json(r->ptx, r->nptx));
    json_object_set_new(o, "gfx", targets_json(r->gfx, r->ngfx));
    if (r->nextras) { /* which extra brings which targets, as crawled */
        json_t *x = json_object();
        for (size_t i = 0; i < r->nextras; i++)
            json_object_set_new(x, r->extras[i].name,
                                targets_json(r->extras[i].gfx, r->extras[i].ngfx));
        json_object_set_new(o, "extras", x);
    }
    json_object_set_new(o, "ptx_isa", dbview_isa_json(&r->code));
    json_object_set_new(o, "modules", json_integer((json_int_t)r->code.modules));
    json_t *sets = json_array();
    for (size_t i = 0; i < r->code.nsets; i++) {
        json_t *s = json_object();
        json_object_set_new(s, "modules", json_integer((json_int_t)r->code.sets[i].modules));
        json_object_set_new(s, "targets", targets_json(r->code.sets[i].targets, r->code.sets[i].n));
        json_array_append_new(sets, s);
    }
    json_object_set_new(o, "module_sets", sets);
    if (r->declared) {
        json_t *d = json_object();
        json_object_set_new(d, "arch_list", json_string(r->declared->arch_list));
        json_object_set_new(d, "sass", targets_json(r->declared->sass, r->declared->nsass));
        json_object_set_new(d, "ptx", targets_json(r->declared->ptx, r->declared->nptx));
        json_object_set_new(d, "gfx", targets_json(r->declared->gfx, r->declared->ngfx));
        json_object_set_new(d, "source", json_string(r->declared->source));
        json_object_set_new(d, "citation", dbview_citation(r->declared->source));
        json_object_set_new(d, "confidence", json_string(r->declared->confidence));
        json_object_set_new(d, "observed", observed_json(v->t, r->declared));
        json_object_set_new(o, "declared", d);
    } else {
        json_object_set_new(o, "declared", json_null());
    }
    json_object_set_new(o, "differences", dbview_row_differences(r));
    json_object_set_new(o, "scanned_at", r->scanned_at ? json_string(r->scanned_at) : json_null());
    json_object_set_new(o, "wheelarch_version",
                        r->wheelarch_version ? json_string(r->wheelarch_version) : json_null());
    return o;
}

json_t *dbview_row_differences(const struct dbview_row *r)
{
    json_t *a = json_array();
    for (size_t i = 0; i < r->ndifferences; i++)
        json_array_append_new(a, json_string(r->differences[i]));
    return a;
}

/* A git ref worth linking: a commit, a tag, a release branch or main. */
static int linkable_ref(const char *ref, size_t n)
{
    size_t hex = 0;
    while (hex < n && isxdigit((unsigned char)ref[hex]))
        hex++;
    if (hex == n && n >= 7 && n <= 40)
        return 1;
    if (n >= 2 && ref[0] == 'v' && isdigit((unsigned char)ref[1]))
        return 1;
    if ((n > 8 && strncmp(ref, "release/", 8) == 0) || (n == 4 && strncmp(ref, "main", 4) == 0) ||
        (n == 6 && strncmp(ref, "master", 6) == 0))
        return 1;
    return 0;
}

static int path_char(int c)
{
    return isalnum(c) || c == '.' || c == '_' || c == '-' || c == '/';
}

int dbview_citation_parse(const char *source, struct dbview_citation *c)
{
    c->text = c->url = NULL;
    /* "owner/repo:ref:path [notes]", "owner/repo:path@ref (notes)",
     * "owner/repo:path"; the first such reference in the text */
    const char *s = source ? source : "";
    for (const char *p = s; *p; p++) {
        if (p != s && path_char((unsigned char)p[-1]))
            continue;
        const char *slash = p;
        while (*slash &&
               (isalnum((unsigned char)*slash) || *slash == '-' || *slash == '_' || *slash == '.'))
            slash++;
        if (*slash != '/' || slash == p)
            continue;
        const char *colon = slash + 1;
        while (*colon &&
               (isalnum((unsigned char)*colon) || *colon == '-' || *colon == '_' || *colon == '.'))
            colon++;
        if (*colon != ':' || colon == slash + 1)
            continue;
        /* two fields after the repository: ref then path, or path[@ref] */
        const char *a = colon + 1, *ae = a;
        while (*ae && (path_char((unsigned char)*ae) || *ae == '@'))
            ae++;
        const char *b = NULL, *be = NULL;
        if (*ae == ':') {
            b = ae + 1;
            be = b;
            while (*be && path_char((unsigned char)*be))
                be++;
        }
        const char *ref = NULL, *path = a, *pe = ae;
        size_t nref = 0;
        if (b && be > b && linkable_ref(a, (size_t)(ae - a))) {
            ref = a;
            nref = (size_t)(ae - a);
            path = b;
            pe = be;
        } else {
            const char *at = memchr(a, '@', (size_t)(ae - a));
            if (at) {
                pe = at;
                const char *re = at + 1;
                while (re < ae && path_char((unsigned char)*re))
                    re++;
                if (linkable_ref(at + 1, (size_t)(re - at - 1))) {
                    ref = at + 1;
                    nref = (size_t)(re - at - 1);
                }
            }
        }
        if (pe == path || !memchr(path, '.', (size_t)(pe - path)))
            continue; /* not a file */
        struct strbuf t = STRBUF_INIT;
        strbuf_addf(&t, "%.*s %.*s", (int)(colon - p), p, (int)(pe - path), path);
        if (ref) /* a commit by its first 12 digits, as git shows it */
            strbuf_addf(&t, " at %.*s", (int)(nref == 40 ? 12 : nref), ref);
        c->text = strbuf_detach(&t, NULL);
        if (ref)
            c->url = xasprintf("https://github.com/%.*s/blob/%.*s/%.*s", (int)(colon - p), p,
                               (int)nref, ref, (int)(pe - path), path);
        return 1;
    }
    return 0;
}

json_t *dbview_citation(const char *source)
{
    struct dbview_citation c;
    if (!dbview_citation_parse(source, &c))
        return json_null();
    json_t *o = json_object();
    json_object_set_new(o, "text", json_string(c.text));
    json_object_set_new(o, "url", c.url ? json_string(c.url) : json_null());
    free(c.text);
    free(c.url);
    return o;
}
