/*
 * scanreport: aggregate binscan results per target and render them.
 */
#include "scanreport.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin.h"
#include "strbuf.h"
#include "target.h"
#include "xalloc.h"
#include "jsontext.h"

/* Cleaned as scanreport.h says: byte by byte, a valid sequence kept whole. */
char *scanreport_clean_text(const char *s)
{
    static const char hex[] = "0123456789abcdef";
    struct strbuf b = STRBUF_INIT;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t len = 0;
        if (*p >= 0x20 && *p < 0x7f)
            len = 1;
        else if (*p >= 0xC2 && *p <= 0xDF)
            len = 2;
        else if (*p >= 0xE0 && *p <= 0xEF)
            len = 3;
        else if (*p >= 0xF0 && *p <= 0xF4)
            len = 4;
        int ok = len > 0;
        for (size_t k = 1; ok && k < len; k++)
            ok = (p[k] & 0xC0) == 0x80;
        if (ok && len == 3)
            ok = !(p[0] == 0xE0 && p[1] < 0xA0) && !(p[0] == 0xED && p[1] >= 0xA0) &&
                 /* U+FFFE, U+FFFF: no record, page or XML feed may hold them */
                 !(p[0] == 0xEF && p[1] == 0xBF && p[2] >= 0xBE);
        if (ok && len == 4)
            ok = !(p[0] == 0xF0 && p[1] < 0x90) && !(p[0] == 0xF4 && p[1] >= 0x90);
        if (ok && len == 2)
            ok = !(p[0] == 0xC2 && p[1] <= 0x9F); /* C1: both bytes escaped */
        if (ok) {
            strbuf_add(&b, p, len);
            p += len;
        } else {
            char esc[4] = {'\\', 'x', hex[*p >> 4], hex[*p & 15]};
            strbuf_add(&b, esc, 4);
            p++;
        }
    }
    return strbuf_detach(&b, NULL);
}

/* Sums of sizes a file declares, kept below 2^63 so they fit the JSON
 * integer (the readers cap each size; this caps the sum of many). */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
    uint64_t max = (uint64_t)INT64_MAX;
    return a > max || b > max - a ? max : a + b;
}

static json_t *text_json(const char *s)
{
    char *c = scanreport_clean_text(s);
    json_t *v = json_string(c);
    free(c);
    return v;
}

static struct scanreport_target *tstat_get(struct scanreport_summary *s, const struct target *t)
{
    for (size_t i = 0; i < s->nt; i++)
        if (target_cmp(&s->t[i].t, t) == 0)
            return &s->t[i];
    s->t = xgrow(s->t, &s->capt, s->nt + 1, sizeof *s->t);
    struct scanreport_target *x = &s->t[s->nt++];
    memset(x, 0, sizeof *x);
    x->t = *t;
    return x;
}

static int tstat_cmp(const void *a, const void *b)
{
    return target_cmp(&((const struct scanreport_target *)a)->t,
                      &((const struct scanreport_target *)b)->t);
}

static int modset_cmp(const void *a, const void *b)
{
    const struct scanreport_set *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(x->key, y->key);
}

void scanreport_summarize(const struct binscan_result *br, struct scanreport_summary *s)
{
    memset(s, 0, sizeof *s);
    struct target *ts = NULL;
    size_t capts = 0;
    for (size_t m = 0; m < br->nmodules; m++) {
        const struct binscan_module *mod = &br->modules[m];
        size_t nts = 0;
        for (size_t k = 0; k < mod->nentries; k++) {
            const struct binscan_entry *e = &br->entries[mod->first_entry + k];
            if (e->codec < FATBIN_CODEC_COUNT)
                s->codec_entries[e->codec]++;
            if (!e->has_target)
                continue;
            ts = xgrow(ts, &capts, nts + 1, sizeof *ts);
            ts[nts++] = e->target;
            if (mod->cls == BINSCAN_CLASS_EXEC || mod->cls == BINSCAN_CLASS_LIBRARY) {
                struct scanreport_target *x = tstat_get(s, &e->target);
                x->entries++;
                x->bytes = sat_add(x->bytes, e->payload_size);
                x->ubytes = sat_add(x->ubytes, e->uncompressed_size);
                x->codecs |= 1u << e->codec;
                if (e->target.kind == TARGET_PTX &&
                    (e->code_major > x->isa_major ||
                     (e->code_major == x->isa_major && e->code_minor > x->isa_minor))) {
                    x->isa_major = e->code_major;
                    x->isa_minor = e->code_minor;
                }
            }
        }
        nts = target_sort_unique(ts, nts);
        switch (mod->cls) {
        case BINSCAN_CLASS_EXEC:
        case BINSCAN_CLASS_LIBRARY: {
            int exec = mod->cls == BINSCAN_CLASS_EXEC;
            if (exec)
                s->exec++;
            else
                s->library++;
            if (exec && mod->amd)
                s->exec_amd++;
            for (size_t i = 0; i < nts; i++) {
                struct scanreport_target *x = tstat_get(s, &ts[i]);
                if (exec)
                    x->modules++;
                else
                    x->library_modules++;
            }
            if (exec) {
                struct strbuf key = STRBUF_INIT;
                for (size_t i = 0; i < nts; i++) {
                    char name[TARGET_NAME_MAX];
                    target_format(&ts[i], name, sizeof name);
                    if (i)
                        strbuf_addc(&key, ' ');
                    strbuf_adds(&key, name);
                }
                size_t j;
                for (j = 0; j < s->nsets; j++)
                    if (strcmp(s->sets[j].key, strbuf_str(&key)) == 0)
                        break;
                if (j == s->nsets) {
                    s->sets = xgrow(s->sets, &s->capsets, s->nsets + 1, sizeof *s->sets);
                    s->sets[s->nsets].key = strbuf_detach(&key, NULL);
                    s->sets[s->nsets++].count = 1;
                } else {
                    s->sets[j].count++;
                    strbuf_free(&key);
                }
            }
            break;
        }
        case BINSCAN_CLASS_RELOCATABLE:
            s->relocatable++;
            for (size_t i = 0; i < nts; i++) {
                s->reloc = xgrow(s->reloc, &s->capreloc, s->nreloc + 1, sizeof *s->reloc);
                s->reloc[s->nreloc++] = ts[i];
            }
            break;
        case BINSCAN_CLASS_DLINK:
            s->dlink++;
            break;
        }
    }
    free(ts);
    if (s->nt > 1)
        qsort(s->t, s->nt, sizeof *s->t, tstat_cmp);
    s->nreloc = target_sort_unique(s->reloc, s->nreloc);
    if (s->nsets > 1)
        qsort(s->sets, s->nsets, sizeof *s->sets, modset_cmp);
}

void scanreport_summary_free(struct scanreport_summary *s)
{
    free(s->t);
    free(s->reloc);
    for (size_t i = 0; i < s->nsets; i++)
        free(s->sets[i].key);
    free(s->sets);
}

void scanreport_isa_text(const struct scanreport_target *x, char *buf)
{
    snprintf(buf, SCANREPORT_ISA_MAX, "%u.%u", x->isa_major, x->isa_minor);
}

size_t scanreport_declared(const struct binscan_result *br, struct target *d)
{
    return br->narch_flags ? target_parse_gencode(br->arch_flags[0], d, SCANREPORT_DECLARED_MAX)
                           : 0;
}

int scanreport_dropped_text(const struct binscan_result *br, char *buf)
{
    buf[0] = '\0';
    if (!br->warnings_dropped)
        return 0;
    snprintf(buf, SCANREPORT_DROPPED_MAX, "%zu more warnings not shown", br->warnings_dropped);
    return 1;
}

static json_t *target_list(const struct scanreport_target *t, size_t n, int kind)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        if (t[i].t.kind != kind)
            continue;
        char name[TARGET_NAME_MAX];
        target_format(&t[i].t, name, sizeof name);
        json_array_append_new(a, json_string(name));
    }
    return a;
}

static json_t *plain_target_list(const struct target *t, size_t n, int kind)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        if (t[i].kind != kind)
            continue;
        char name[TARGET_NAME_MAX];
        target_format(&t[i], name, sizeof name);
        json_array_append_new(a, json_string(name));
    }
    return a;
}

static json_t *codec_list(unsigned mask)
{
    json_t *a = json_array();
    for (int c = 0; c < FATBIN_CODEC_COUNT; c++)
        if (mask & (1u << c))
            json_array_append_new(a, json_string(fatbin_codec_name(c)));
    return a;
}

json_t *scanreport_binary_json(const char *path, const struct binscan_result *br)
{
    struct scanreport_summary s;
    scanreport_summarize(br, &s);
    json_t *o = json_object();
    json_object_set_new(o, "path", text_json(path));
    json_object_set_new(o, "format", json_string(binscan_format_name(br->format)));
    json_object_set_new(o, "size", json_integer((json_int_t)br->size));
    json_object_set_new(o, "sass", target_list(s.t, s.nt, TARGET_SASS));
    json_object_set_new(o, "ptx", target_list(s.t, s.nt, TARGET_PTX));
    json_object_set_new(o, "lto", target_list(s.t, s.nt, TARGET_LTO));
    json_object_set_new(o, "gfx", target_list(s.t, s.nt, TARGET_GFX));
    json_object_set_new(o, "modules", json_integer((json_int_t)s.exec));
    json_object_set_new(o, "library_modules", json_integer((json_int_t)s.library));
    json_object_set_new(o, "dlink_modules", json_integer((json_int_t)s.dlink));

    json_t *targets = json_object();
    for (size_t i = 0; i < s.nt; i++) {
        const struct scanreport_target *x = &s.t[i];
        char name[TARGET_NAME_MAX];
        target_format(&x->t, name, sizeof name);
        json_t *t = json_object();
        json_object_set_new(t, "modules", json_integer((json_int_t)x->modules));
        if (x->library_modules)
            json_object_set_new(t, "library_modules", json_integer((json_int_t)x->library_modules));
        json_object_set_new(t, "entries", json_integer((json_int_t)x->entries));
        json_object_set_new(t, "bytes", json_integer((json_int_t)x->bytes));
        json_object_set_new(t, "uncompressed_bytes", json_integer((json_int_t)x->ubytes));
        json_object_set_new(t, "codecs", codec_list(x->codecs));
        if (x->t.kind == TARGET_PTX) {
            char isa[SCANREPORT_ISA_MAX];
            scanreport_isa_text(x, isa);
            json_object_set_new(t, "isa", json_string(isa));
        }
        json_object_set_new(targets, name, t);
    }
    json_object_set_new(o, "targets", targets);

    json_t *sets = json_array();
    for (size_t i = 0; i < s.nsets; i++) {
        json_t *set = json_object();
        json_object_set_new(set, "modules", json_integer((json_int_t)s.sets[i].count));
        json_t *names = json_array();
        const char *k = s.sets[i].key;
        while (*k) {
            const char *sp = strchr(k, ' ');
            size_t len = sp ? (size_t)(sp - k) : strlen(k);
            json_array_append_new(names, json_stringn(k, len));
            k += len + (sp ? 1 : 0);
        }
        json_object_set_new(set, "targets", names);
        json_array_append_new(sets, set);
    }
    json_object_set_new(o, "module_sets", sets);

    json_t *comp = json_object();
    int compressed = 0;
    for (int c = 0; c < FATBIN_CODEC_COUNT; c++) {
        if (!s.codec_entries[c])
            continue;
        json_object_set_new(comp, fatbin_codec_name(c),
                            json_integer((json_int_t)s.codec_entries[c]));
        if (c != FATBIN_CODEC_NONE)
            compressed = 1;
    }
    json_object_set_new(o, "compressed", json_boolean(compressed));
    json_object_set_new(o, "compression", comp);

    json_t *flags = json_array();
    for (size_t i = 0; i < br->narch_flags; i++)
        json_array_append_new(flags, text_json(br->arch_flags[i]));
    json_object_set_new(o, "arch_flags", flags);
    if (br->narch_flags) {
        struct target d[SCANREPORT_DECLARED_MAX];
        size_t nd = scanreport_declared(br, d);
        json_t *decl = json_object();
        json_object_set_new(decl, "sass", plain_target_list(d, nd, TARGET_SASS));
        json_object_set_new(decl, "ptx", plain_target_list(d, nd, TARGET_PTX));
        json_object_set_new(o, "declared", decl);
    }

    json_t *sections = json_object();
    for (size_t m = 0; m < br->nmodules; m++) {
        const char *name = br->modules[m].section[0] ? br->modules[m].section : "(unknown)";
        if (br->format == BINSCAN_FORMAT_FATBIN)
            name = "(file)";
        char *key = scanreport_clean_text(name);
        json_t *c = json_object_get(sections, key);
        json_object_set_new(sections, key, json_integer(c ? json_integer_value(c) + 1 : 1));
        free(key);
    }
    json_object_set_new(o, "sections", sections);

    if (s.relocatable) {
        json_t *rel = json_object();
        json_object_set_new(rel, "modules", json_integer((json_int_t)s.relocatable));
        json_object_set_new(rel, "sass", plain_target_list(s.reloc, s.nreloc, TARGET_SASS));
        json_object_set_new(rel, "ptx", plain_target_list(s.reloc, s.nreloc, TARGET_PTX));
        json_object_set_new(rel, "lto", plain_target_list(s.reloc, s.nreloc, TARGET_LTO));
        json_object_set_new(o, "relocatable", rel);
    }

    json_t *warn = json_array();
    for (size_t i = 0; i < br->nwarnings; i++)
        json_array_append_new(warn, text_json(br->warnings[i]));
    char dropped[SCANREPORT_DROPPED_MAX];
    if (scanreport_dropped_text(br, dropped))
        json_array_append_new(warn, json_string(dropped));
    json_object_set_new(o, "warnings", warn);
    scanreport_summary_free(&s);
    return o;
}

/* Sorted union of the names in one list key across binaries. */
static json_t *union_list(json_t *bins, const char *key)
{
    struct target *t = NULL;
    size_t n = 0, cap = 0;
    size_t i;
    json_t *b;
    json_array_foreach(bins, i, b)
    {
        size_t j;
        json_t *v;
        json_array_foreach(json_object_get(b, key), j, v)
        {
            struct target x;
            if (target_parse(json_string_value(v), &x) == 0) {
                t = xgrow(t, &cap, n + 1, sizeof *t);
                t[n++] = x;
            }
        }
    }
    n = target_sort_unique(t, n);
    json_t *a = json_array();
    for (i = 0; i < n; i++) {
        char name[TARGET_NAME_MAX];
        target_format(&t[i], name, sizeof name);
        json_array_append_new(a, json_string(name));
    }
    free(t);
    return a;
}

json_t *scanreport_wheel_json(const struct wheel_name *w)
{
    json_t *wj = json_object();
    json_object_set_new(wj, "filename", json_string(w->filename));
    json_object_set_new(wj, "project", json_string(w->project));
    json_object_set_new(wj, "normalized_name", json_string(w->normalized));
    json_object_set_new(wj, "version", json_string(w->version));
    json_object_set_new(wj, "public_version", json_string(w->public_version));
    json_object_set_new(wj, "local", jsontext_str_or_null(w->local));
    json_object_set_new(wj, "build", jsontext_str_or_null(w->build));
    json_object_set_new(wj, "python", json_string(w->python));
    json_object_set_new(wj, "abi", json_string(w->abi));
    json_object_set_new(wj, "platform", json_string(w->platform));
    json_object_set_new(wj, "platform_id", json_string(wheelname_platform_id(w->platform)));
    return wj;
}

json_t *scanreport_json(const struct scan_result *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "input", text_json(r->input));
    const char *kind = r->kind == SCAN_KIND_ZIP      ? "zip"
                       : r->kind == SCAN_KIND_BINARY ? "binary"
                                                     : "unknown";
    json_object_set_new(o, "kind", json_string(kind));
    if (r->has_wheel_name) {
        json_object_set_new(o, "wheel", scanreport_wheel_json(&r->wheel));
    } else {
        json_object_set_new(o, "wheel", json_null());
    }
    json_object_set_new(o, "size", json_integer((json_int_t)r->size));
    json_object_set_new(o, "sha256", r->sha256[0] ? json_string(r->sha256) : json_null());
    json_t *bins = json_array();
    for (size_t i = 0; i < r->nbins; i++)
        json_array_append_new(
            bins, scanreport_binary_json(r->bins[i].path, binscan_result(r->bins[i].bs)));
    json_object_set_new(o, "sass", union_list(bins, "sass"));
    json_object_set_new(o, "ptx", union_list(bins, "ptx"));
    json_object_set_new(o, "lto", union_list(bins, "lto"));
    json_object_set_new(o, "gfx", union_list(bins, "gfx"));
    if (r->kind == SCAN_KIND_ZIP) {
        json_object_set_new(o, "members", json_integer((json_int_t)r->members));
        json_object_set_new(o, "binaries_read", json_integer((json_int_t)r->binaries_read));
        /* the wheel's Requires-Dist (null: no METADATA read) */
        json_t *req = json_null();
        if (r->has_metadata) {
            req = json_array();
            for (size_t i = 0; i < r->nrequires; i++)
                json_array_append_new(req, text_json(r->requires[i]));
        }
        json_object_set_new(o, "requires_dist", req);
    }
    json_object_set_new(o, "binaries", bins);
    json_object_set_new(o, "error", r->failed ? text_json(r->error.msg) : json_null());
    return o;
}

/* ---- text --------------------------------------------------------------- */

/* Text from a file, cleaned as for JSON (scanreport_clean_text). */
static void add_clean(struct strbuf *out, const char *s)
{
    char *c = scanreport_clean_text(s);
    strbuf_adds(out, c);
    free(c);
}

static void text_binary(const char *path, const struct binscan_result *br, struct strbuf *out)
{
    struct scanreport_summary s;
    scanreport_summarize(br, &s);
    add_clean(out, path);
    if (s.nt == 0 && s.nreloc == 0) {
        strbuf_adds(out, "  no GPU code");
        if (br->narch_flags) {
            strbuf_adds(out, "  arch flags ");
            add_clean(out, br->arch_flags[0]);
        }
        strbuf_addc(out, '\n');
        scanreport_summary_free(&s);
        return;
    }
    static const char *const heads[] = {"sass", "ptx", "lto", "gfx"};
    for (int kind = TARGET_SASS; kind <= TARGET_GFX; kind++) {
        /* "(n/N)": N counts the modules of the same vendor. */
        size_t of = kind == TARGET_GFX ? s.exec_amd : s.exec - s.exec_amd;
        int first = 1;
        for (size_t i = 0; i < s.nt; i++) {
            const struct scanreport_target *x = &s.t[i];
            if (x->t.kind != kind)
                continue;
            char name[TARGET_NAME_MAX];
            target_format(&x->t, name, sizeof name);
            strbuf_addf(out, "%s%s", first ? "  " : " ", first ? heads[kind] : "");
            if (first)
                strbuf_addc(out, ' ');
            first = 0;
            strbuf_adds(out, name);
            if (x->modules == 0 && x->library_modules)
                strbuf_adds(out, "(lib)");
            else if (x->modules < of)
                strbuf_addf(out, "(%zu/%zu)", x->modules, of);
            if (kind == TARGET_PTX) {
                char isa[SCANREPORT_ISA_MAX];
                scanreport_isa_text(x, isa);
                strbuf_addf(out, " (ISA %s)", isa);
            }
        }
    }
    if (s.nreloc) {
        strbuf_adds(out, "  relocatable");
        for (size_t i = 0; i < s.nreloc; i++) {
            char name[TARGET_NAME_MAX];
            target_format(&s.reloc[i], name, sizeof name);
            strbuf_addf(out, " %s", name);
        }
    }
    if (br->narch_flags) {
        struct target d[SCANREPORT_DECLARED_MAX];
        size_t nd = scanreport_declared(br, d);
        strbuf_adds(out, "  declared");
        for (size_t i = 0; i < nd; i++) {
            char name[TARGET_NAME_MAX];
            target_format(&d[i], name, sizeof name);
            strbuf_addf(out, " %s", name);
        }
    }
    int first = 1;
    for (int c = 1; c < FATBIN_CODEC_COUNT; c++) {
        if (!s.codec_entries[c])
            continue;
        strbuf_addf(out, "%s%s", first ? "  compressed " : ",", fatbin_codec_name(c));
        first = 0;
    }
    strbuf_addc(out, '\n');
    scanreport_summary_free(&s);
}

void scanreport_text(const struct scan_result *r, struct strbuf *out)
{
    if (r->kind != SCAN_KIND_ZIP) {
        for (size_t i = 0; i < r->nbins; i++)
            text_binary(r->bins[i].path, binscan_result(r->bins[i].bs), out);
        return;
    }
    add_clean(out, r->input);
    if (r->has_wheel_name) {
        const struct wheel_name *w = &r->wheel;
        strbuf_addf(out, ": %s %s", w->project, w->public_version);
        if (w->local)
            strbuf_addf(out, " (%s)", w->local);
        strbuf_addf(out, " %s", wheelname_platform_id(w->platform));
    }
    if (r->nbins == 0)
        strbuf_addf(out, ", no GPU code in %zu members\n", r->members);
    else
        strbuf_addf(out, ", %zu of %zu members hold GPU code\n", r->nbins, r->members);
    for (size_t i = 0; i < r->nbins; i++) {
        strbuf_adds(out, "  ");
        text_binary(r->bins[i].path, binscan_result(r->bins[i].bs), out);
    }
}
