/*
 * recbinary: a scanned wheel's binaries as a type, their columns' text
 * forms, their checks on reading, and their JSON at the edges.
 */
#include "recbinary.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dotver.h"
#include "fatbin.h"
#include "recordcheck.h"
#include "scanreport.h"
#include "strbuf.h"
#include "xalloc.h"

#define COUNT_MAX RECORDCHECK_COUNT_MAX /* modules, entries */
#define BYTES_MAX RECORDCHECK_BYTES_MAX /* sizes in bytes */

static void add_targets(struct strbuf *sb, const struct recbinary_targets *l);

/* ---- bundled libraries ---------------------------------------------------- */

int recbinary_is_bundled(const char *path)
{
    /* NVIDIA's libraries as torch wheels bundle them (Windows DLLs, older
     * Linux wheels): their kernels cover other GPUs than torch's own. */
    static const char *const prefixes[] = {
        "cudnn",     "cublas",      "cufft",         "curand",    "cusolver",   "cusparse",
        "nccl",      "nvrtc",       "nvjitlink",     "cupti",     "cudart",     "nvtoolsext",
        "cufile",    "nvshmem",     "nvperf",        "libcudnn",  "libcublas",  "libcufft",
        "libcurand", "libcusolver", "libcusparse",   "libnccl",   "libnvrtc",   "libnvjitlink",
        "libcupti",  "libcudart",   "libnvtoolsext", "libcufile", "libnvshmem", "libnvperf",
        "zluda",     NULL};
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (const char *const *p = prefixes; *p; p++)
        if (strncasecmp(base, *p, strlen(*p)) == 0)
            return 1;
    return 0;
}

int recbinary_is_library_project(const char *project)
{
    return project && strncmp(project, "nvidia-", 7) == 0;
}

int recbinary_bundles_libraries(json_t *rec)
{
    json_t *w = json_object_get(rec, "wheel");
    return !recbinary_is_library_project(json_string_value(json_object_get(w, "normalized_name")));
}
/* ---- from a record ------------------------------------------------------ */

static long long int_or_unsaid(json_t *v)
{
    return json_is_integer(v) && json_integer_value(v) >= 0 ? (long long)json_integer_value(v) : -1;
}

void recbinary_targets_of(json_t *arr, struct recbinary_targets *l)
{
    l->v = xmalloc((json_array_size(arr) ? json_array_size(arr) : 1) * sizeof *l->v);
    l->n = 0;
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x)
    {
        const char *s = json_string_value(x);
        if (s && target_parse(s, &l->v[l->n]) == 0)
            l->n++;
    }
}

static void lines_of(json_t *arr, struct recbinary_lines *l)
{
    l->v = xmalloc((json_array_size(arr) ? json_array_size(arr) : 1) * sizeof *l->v);
    l->n = 0;
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x)
    {
        if (json_is_string(x))
            l->v[l->n++] = xstrdup(json_string_value(x));
    }
}

static int target_by_name(const void *a, const void *b)
{
    char x[TARGET_NAME_MAX], y[TARGET_NAME_MAX];
    target_format(&((const struct recbinary_target *)a)->t, x, sizeof x);
    target_format(&((const struct recbinary_target *)b)->t, y, sizeof y);
    return strcmp(x, y);
}

static int codec_by_name(const void *a, const void *b)
{
    return strcmp(((const struct recbinary_codec *)a)->codec,
                  ((const struct recbinary_codec *)b)->codec);
}

static void codecs_of(json_t *arr, struct recbinary_target *t)
{
    t->codecs_said = json_is_array(arr);
    t->codecs = xmalloc((json_array_size(arr) ? json_array_size(arr) : 1) * sizeof *t->codecs);
    t->ncodecs = 0;
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x)
    {
        if (json_is_string(x))
            t->codecs[t->ncodecs++] = xstrdup(json_string_value(x));
    }
}

static void binary_of(json_t *o, int bundles, struct recbinary *b)
{
    memset(b, 0, sizeof *b);
    const char *path = json_string_value(json_object_get(o, "path"));
    b->path = xstrdup(path);
    const char *format = json_string_value(json_object_get(o, "format"));
    b->format = format ? xstrdup(format) : NULL;
    b->size = int_or_unsaid(json_object_get(o, "size"));
    b->modules = int_or_unsaid(json_object_get(o, "modules"));
    b->dlink_modules = int_or_unsaid(json_object_get(o, "dlink_modules"));
    b->library_modules = int_or_unsaid(json_object_get(o, "library_modules"));
    b->bundled = bundles && recbinary_is_bundled(path);
    recbinary_targets_of(json_object_get(o, "sass"), &b->sass);
    recbinary_targets_of(json_object_get(o, "ptx"), &b->ptx);
    recbinary_targets_of(json_object_get(o, "lto"), &b->lto);
    recbinary_targets_of(json_object_get(o, "gfx"), &b->gfx);

    json_t *ts = json_object_get(o, "targets");
    b->targets = xcalloc(json_object_size(ts) ? json_object_size(ts) : 1, sizeof *b->targets);
    const char *name;
    json_t *tv;
    json_object_foreach(ts, name, tv)
    {
        struct recbinary_target *t = &b->targets[b->ntargets];
        if (target_parse(name, &t->t) != 0)
            continue;
        t->modules = int_or_unsaid(json_object_get(tv, "modules"));
        t->library_modules = int_or_unsaid(json_object_get(tv, "library_modules"));
        t->entries = int_or_unsaid(json_object_get(tv, "entries"));
        t->bytes = int_or_unsaid(json_object_get(tv, "bytes"));
        t->uncompressed_bytes = int_or_unsaid(json_object_get(tv, "uncompressed_bytes"));
        codecs_of(json_object_get(tv, "codecs"), t);
        const char *isa = json_string_value(json_object_get(tv, "isa"));
        if (isa && strlen(isa) < sizeof t->isa)
            strcpy(t->isa, isa);
        b->ntargets++;
    }
    if (b->ntargets > 1)
        qsort(b->targets, b->ntargets, sizeof *b->targets, target_by_name);

    json_t *sets = json_object_get(o, "module_sets");
    b->sets = xcalloc(json_array_size(sets) ? json_array_size(sets) : 1, sizeof *b->sets);
    size_t i;
    json_t *s;
    json_array_foreach(sets, i, s)
    {
        if (!json_is_object(s))
            continue;
        b->sets[b->nsets].modules = int_or_unsaid(json_object_get(s, "modules"));
        recbinary_targets_of(json_object_get(s, "targets"), &b->sets[b->nsets].targets);
        b->nsets++;
    }

    json_t *comp = json_object_get(o, "compression");
    b->compression =
        xcalloc(json_object_size(comp) ? json_object_size(comp) : 1, sizeof *b->compression);
    const char *codec;
    json_t *cnt;
    json_object_foreach(comp, codec, cnt)
    {
        if (strlen(codec) >= sizeof b->compression->codec || !json_is_integer(cnt))
            continue;
        strcpy(b->compression[b->ncompression].codec, codec);
        b->compression[b->ncompression++].entries = (long long)json_integer_value(cnt);
    }
    if (b->ncompression > 1)
        qsort(b->compression, b->ncompression, sizeof *b->compression, codec_by_name);

    json_t *decl = json_object_get(o, "declared");
    b->declared = json_is_object(decl);
    recbinary_targets_of(json_object_get(decl, "sass"), &b->declared_sass);
    recbinary_targets_of(json_object_get(decl, "ptx"), &b->declared_ptx);
    lines_of(json_object_get(o, "arch_flags"), &b->arch_flags);
    lines_of(json_object_get(o, "warnings"), &b->warnings);
}

void recbinaries_of(json_t *rec, struct recbinaries *out)
{
    json_t *bins = json_object_get(rec, "binaries");
    int bundles = recbinary_bundles_libraries(rec);
    out->v = xcalloc(json_array_size(bins) ? json_array_size(bins) : 1, sizeof *out->v);
    out->n = 0;
    out->listed = json_is_array(bins);
    size_t i;
    json_t *o;
    json_array_foreach(bins, i, o)
    {
        if (json_is_string(json_object_get(o, "path")))
            binary_of(o, bundles, &out->v[out->n++]);
    }
}

/* ---- from a scan -------------------------------------------------------- */

/* A record's binaries made from the scan, as binary_of reads them from
 * scanreport_binary_json's objects: the same numbers (scanreport_summarize),
 * the same cleaned text (scanreport_clean_text), targets named as the JSON
 * names them and read back from those names.  On the way each value is
 * held to the rule recordcheck_validate holds it to in the JSON, with its
 * message: a scan is of a file from elsewhere, and may hold what no record
 * may (a path of 60,000 bytes, a PTX ISA 4000.0, 65,000 targets). */

#define FIELD_MAX 160 /* a field path in a message */

struct targetbuf {
    struct recbinary_targets l;
    size_t cap;
};

static void push_target(struct targetbuf *b, const struct target *t)
{
    b->l.v = xgrow(b->l.v, &b->cap, b->l.n + 1, sizeof *b->l.v);
    b->l.v[b->l.n++] = *t;
}

/* How many distinct targets l holds. */
static size_t distinct(const struct recbinary_targets *l)
{
    struct target *v = xmalloc((l->n ? l->n : 1) * sizeof *v);
    if (l->n)
        memcpy(v, l->v, l->n * sizeof *v);
    size_t n = target_sort_unique(v, l->n);
    free(v);
    return n;
}

/* Appends t as the record names it (the target its name reads as) to b,
 * and to all, the targets of the whole record. */
static int add_target(struct targetbuf *b, struct targetbuf *all, const struct target *t,
                      const char *field, int kind, struct wa_error *err)
{
    struct target n;
    int rc = recordcheck_check_target(t, field, kind, &n, err);
    if (rc < 0)
        return rc;
    push_target(b, &n);
    push_target(all, &n);
    return 0;
}

/* The targets of kind of a binary's summary: its "sass", "ptx", "lto" or
 * "gfx" list. */
static int list_of_scan(const struct scanreport_summary *s, int kind, const char *field,
                        struct recbinary_targets *out, struct targetbuf *all, struct wa_error *err)
{
    struct targetbuf b = {{NULL, 0}, 0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < s->nt; i++)
        if (s->t[i].t.kind == kind)
            rc = add_target(&b, all, &s->t[i].t, field, kind, err);
    *out = b.l;
    if (rc == 0 && distinct(out) > RECORDCHECK_TARGETS_MAX)
        rc = recordcheck_too_many(field, 0, err);
    return rc;
}

/* A set's targets from its key (names joined by spaces). */
static int set_of_scan(const struct scanreport_set *x, const char *field, struct recbinary_set *set,
                       struct targetbuf *all, struct wa_error *err)
{
    struct targetbuf b = {{NULL, 0}, 0};
    set->modules = (long long)x->count;
    int rc = recordcheck_check_int(set->modules, field, COUNT_MAX, err);
    char f[FIELD_MAX];
    snprintf(f, sizeof f, "%.140s.targets", field);
    for (const char *k = x->key; rc == 0 && *k;) {
        size_t len = strcspn(k, " ");
        char name[TARGET_NAME_MAX];
        struct target t;
        snprintf(name, sizeof name, "%.*s", (int)len, k);
        rc = len < sizeof name ? recordcheck_check_target_name(name, f, -1, &t, err)
                               : recordcheck_check_target_name(k, f, -1, &t, err);
        if (rc == 0) {
            push_target(&b, &t);
            push_target(all, &t);
        }
        k += len + (k[len] == ' ');
    }
    set->targets = b.l;
    if (rc == 0 && distinct(&set->targets) > RECORDCHECK_TARGETS_MAX)
        rc = recordcheck_too_many(f, 0, err);
    return rc;
}

/* One target's counts, codecs and ISA, held to the rules of its fields. */
static int target_of_scan(const struct scanreport_target *x, const char *field,
                          struct recbinary_target *t, struct wa_error *err)
{
    t->modules = (long long)x->modules;
    t->library_modules = x->library_modules ? (long long)x->library_modules : -1;
    t->entries = (long long)x->entries;
    t->bytes = (long long)x->bytes;
    t->uncompressed_bytes = (long long)x->ubytes;
    t->codecs_said = 1;
    t->codecs = xmalloc(FATBIN_CODEC_COUNT * sizeof *t->codecs);
    t->ncodecs = 0;
    for (int c = 0; c < FATBIN_CODEC_COUNT; c++)
        if (x->codecs & (1u << c))
            t->codecs[t->ncodecs++] = xstrdup(fatbin_codec_name(c));
    t->isa[0] = '\0';
    if (x->t.kind == TARGET_PTX)
        scanreport_isa_text(x, t->isa);
    static const char *const names[] = {"modules", "library_modules", "entries", "bytes",
                                        "uncompressed_bytes"};
    const long long v[] = {t->modules, t->library_modules, t->entries, t->bytes,
                           t->uncompressed_bytes};
    char f[FIELD_MAX];
    int rc = 0;
    for (int k = 0; rc == 0 && k < 5; k++) {
        snprintf(f, sizeof f, "%.120s.%s", field, names[k]);
        if (v[k] >= 0) /* library_modules: not said when none */
            rc = recordcheck_check_int(v[k], f, k < 3 ? COUNT_MAX : BYTES_MAX, err);
    }
    snprintf(f, sizeof f, "%.120s.isa", field);
    if (rc == 0 && t->isa[0])
        rc = recordcheck_check_text(t->isa, f, 16, recordcheck_isa_valid, "a PTX ISA version", err);
    return rc;
}

static void target_free(struct recbinary_target *t)
{
    for (size_t k = 0; k < t->ncodecs; k++)
        free(t->codecs[k]);
    free(t->codecs);
}

/* The "targets" object: by name, a name given twice the last one's (as a
 * JSON object's key set again). */
static int targets_of_scan(const struct scanreport_summary *s, const char *field,
                           struct recbinary *b, struct targetbuf *all, struct wa_error *err)
{
    b->targets = xcalloc(s->nt ? s->nt : 1, sizeof *b->targets);
    for (size_t i = 0; i < s->nt; i++) {
        struct target n;
        int rc = recordcheck_check_target(&s->t[i].t, field, -1, &n, err);
        if (rc < 0)
            return rc;
        push_target(all, &n);
        size_t k = 0;
        while (k < b->ntargets && target_cmp(&b->targets[k].t, &n) != 0)
            k++;
        if (k == b->ntargets)
            b->ntargets++;
        else
            target_free(&b->targets[k]);
        b->targets[k].t = n;
        char name[TARGET_NAME_MAX], f[FIELD_MAX];
        target_format(&n, name, sizeof name);
        snprintf(f, sizeof f, "%.100s.%s", field, name);
        if ((rc = target_of_scan(&s->t[i], f, &b->targets[k], err)) < 0)
            return rc;
    }
    if (b->ntargets > RECORDCHECK_TARGETS_MAX)
        return recordcheck_too_many(field, 0, err);
    if (b->ntargets > 1)
        qsort(b->targets, b->ntargets, sizeof *b->targets, target_by_name);
    return 0;
}

/* Lines of text from the binary, cleaned, each held to the rule of free
 * text. */
static int lines_of_scan(char *const *v, size_t n, const char *extra, const char *field,
                         struct recbinary_lines *l, struct wa_error *err)
{
    l->v = xmalloc((n + 1) * sizeof *l->v);
    l->n = 0;
    for (size_t i = 0; i < n; i++)
        l->v[l->n++] = scanreport_clean_text(v[i]);
    if (extra)
        l->v[l->n++] = xstrdup(extra);
    for (size_t i = 0; i < l->n; i++) {
        char f[FIELD_MAX];
        snprintf(f, sizeof f, "%.130s[%zu]", field, i);
        int rc =
            recordcheck_check_text(l->v[i], f, RECORDCHECK_TEXT_MAX, NULL, "one line of text", err);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* Binary i of a scan, in the order recordcheck checks its fields. */
static int binary_of_scan(const struct scan_binary *sb, size_t i, int bundles, struct recbinary *b,
                          struct targetbuf *all, struct wa_error *err)
{
    const struct binscan_result *br = binscan_result(sb->bs);
    struct scanreport_summary s;
    scanreport_summarize(br, &s);
    memset(b, 0, sizeof *b);
    char f[32], g[FIELD_MAX];
    snprintf(f, sizeof f, "binaries[%zu]", i);
    b->path = scanreport_clean_text(sb->path);
    b->format = xstrdup(binscan_format_name(br->format));
    b->size = (long long)(json_int_t)br->size; /* unknown (UINT64_MAX): -1, refused */
    b->modules = (long long)s.exec;
    b->dlink_modules = (long long)s.dlink;
    b->library_modules = (long long)s.library;
    b->bundled = bundles && recbinary_is_bundled(b->path);
    snprintf(g, sizeof g, "%s.path", f);
    int rc = recordcheck_check_text(b->path, g, RECORDCHECK_PATH_MAX, NULL, "a member path", err);
    if (rc == 0 && !b->path[0])
        rc = wa_error_set(err, WA_ERR_FORMAT, "%s is empty", g);
    snprintf(g, sizeof g, "%s.format", f);
    if (rc == 0)
        rc = recordcheck_check_text(b->format, g, 16, recordcheck_codec_valid, "a binary format",
                                    err);
    static const char *const counts[] = {"modules", "dlink_modules", "library_modules"};
    const long long cv[] = {b->modules, b->dlink_modules, b->library_modules};
    for (int k = 0; rc == 0 && k < 3; k++) {
        snprintf(g, sizeof g, "%s.%s", f, counts[k]);
        rc = recordcheck_check_int(cv[k], g, COUNT_MAX, err);
    }
    snprintf(g, sizeof g, "%s.size", f);
    if (rc == 0)
        rc = recordcheck_check_int(b->size, g, BYTES_MAX, err);
    static const char *const lists[] = {"sass", "ptx", "lto", "gfx"};
    struct recbinary_targets *lv[] = {&b->sass, &b->ptx, &b->lto, &b->gfx};
    for (int k = 0; k < 4; k++) {
        snprintf(g, sizeof g, "%s.%s", f, lists[k]);
        if (rc == 0)
            rc = list_of_scan(&s, k, g, lv[k], all, err);
    }
    b->sets = xcalloc(s.nsets ? s.nsets : 1, sizeof *b->sets);
    for (size_t k = 0; rc == 0 && k < s.nsets; k++) {
        snprintf(g, sizeof g, "%s.module_sets[%zu]", f, k);
        rc = set_of_scan(&s.sets[k], g, &b->sets[b->nsets++], all, err);
    }
    snprintf(g, sizeof g, "%s.targets", f);
    if (rc == 0)
        rc = targets_of_scan(&s, g, b, all, err);
    b->compression = xcalloc(FATBIN_CODEC_COUNT, sizeof *b->compression);
    for (int c = 0; rc == 0 && c < FATBIN_CODEC_COUNT; c++) {
        if (!s.codec_entries[c])
            continue;
        struct recbinary_codec *x = &b->compression[b->ncompression++];
        snprintf(x->codec, sizeof x->codec, "%s", fatbin_codec_name(c));
        x->entries = (long long)s.codec_entries[c];
        snprintf(g, sizeof g, "%s.compression.%s", f, x->codec);
        rc = recordcheck_check_int(x->entries, g, COUNT_MAX, err);
    }
    if (b->ncompression > 1)
        qsort(b->compression, b->ncompression, sizeof *b->compression, codec_by_name);
    b->declared = br->narch_flags > 0;
    struct target d[SCANREPORT_DECLARED_MAX];
    size_t nd = scanreport_declared(br, d);
    struct targetbuf ds = {{NULL, 0}, 0}, dp = {{NULL, 0}, 0};
    for (size_t k = 0; rc == 0 && k < nd; k++) {
        snprintf(g, sizeof g, "%s.declared.%s", f, d[k].kind == TARGET_PTX ? "ptx" : "sass");
        if (d[k].kind == TARGET_SASS || d[k].kind == TARGET_PTX)
            rc = add_target(d[k].kind == TARGET_SASS ? &ds : &dp, all, &d[k], g, d[k].kind, err);
    }
    b->declared_sass = ds.l;
    b->declared_ptx = dp.l;
    char dropped[SCANREPORT_DROPPED_MAX];
    int more = scanreport_dropped_text(br, dropped);
    snprintf(g, sizeof g, "%s.arch_flags", f);
    if (rc == 0)
        rc = lines_of_scan(br->arch_flags, br->narch_flags, NULL, g, &b->arch_flags, err);
    snprintf(g, sizeof g, "%s.warnings", f);
    if (rc == 0)
        rc =
            lines_of_scan(br->warnings, br->nwarnings, more ? dropped : NULL, g, &b->warnings, err);
    scanreport_summary_free(&s);
    return rc;
}

int recbinaries_of_scan(const struct scan_result *scan, int bundles, struct recbinaries *out,
                        struct wa_error *err)
{
    out->v = xcalloc(scan->nbins ? scan->nbins : 1, sizeof *out->v);
    out->n = 0;
    out->listed = 1;
    struct targetbuf all = {{NULL, 0}, 0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < scan->nbins; i++)
        rc = binary_of_scan(&scan->bins[i], i, bundles, &out->v[out->n++], &all, err);
    if (rc == 0 && distinct(&all.l) > RECORDCHECK_TARGETS_MAX)
        rc = recordcheck_too_many(NULL, 1, err);
    free(all.l.v);
    if (rc < 0)
        recbinaries_free(out);
    return rc;
}

static void lines_free(struct recbinary_lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

static void binary_free(struct recbinary *b)
{
    free(b->path);
    free(b->format);
    free(b->sass.v);
    free(b->ptx.v);
    free(b->lto.v);
    free(b->gfx.v);
    for (size_t i = 0; i < b->ntargets; i++)
        target_free(&b->targets[i]);
    free(b->targets);
    for (size_t i = 0; i < b->nsets; i++)
        free(b->sets[i].targets.v);
    free(b->sets);
    free(b->compression);
    free(b->declared_sass.v);
    free(b->declared_ptx.v);
    lines_free(&b->arch_flags);
    lines_free(&b->warnings);
}

void recbinaries_free(struct recbinaries *b)
{
    for (size_t i = 0; i < b->n; i++)
        binary_free(&b->v[i]);
    free(b->v);
    b->v = NULL;
    b->n = 0;
}

static void targets_copy(const struct recbinary_targets *a, struct recbinary_targets *b)
{
    b->n = a->n;
    b->v = xmalloc((a->n ? a->n : 1) * sizeof *b->v);
    if (a->n)
        memcpy(b->v, a->v, a->n * sizeof *a->v);
}

static void lines_copy(const struct recbinary_lines *a, struct recbinary_lines *b)
{
    b->n = a->n;
    b->v = xmalloc((a->n ? a->n : 1) * sizeof *b->v);
    for (size_t i = 0; i < a->n; i++)
        b->v[i] = xstrdup(a->v[i]);
}

void recbinary_copy(const struct recbinary *a, struct recbinary *b)
{
    *b = *a;
    b->path = xstrdup(a->path);
    b->format = a->format ? xstrdup(a->format) : NULL;
    targets_copy(&a->sass, &b->sass);
    targets_copy(&a->ptx, &b->ptx);
    targets_copy(&a->lto, &b->lto);
    targets_copy(&a->gfx, &b->gfx);
    b->targets = xmalloc((a->ntargets ? a->ntargets : 1) * sizeof *b->targets);
    for (size_t i = 0; i < a->ntargets; i++) {
        b->targets[i] = a->targets[i];
        b->targets[i].codecs = xmalloc((a->targets[i].ncodecs ? a->targets[i].ncodecs : 1) *
                                       sizeof *b->targets[i].codecs);
        for (size_t k = 0; k < a->targets[i].ncodecs; k++)
            b->targets[i].codecs[k] = xstrdup(a->targets[i].codecs[k]);
    }
    b->sets = xmalloc((a->nsets ? a->nsets : 1) * sizeof *b->sets);
    for (size_t i = 0; i < a->nsets; i++) {
        b->sets[i].modules = a->sets[i].modules;
        targets_copy(&a->sets[i].targets, &b->sets[i].targets);
    }
    b->compression = xmalloc((a->ncompression ? a->ncompression : 1) * sizeof *b->compression);
    if (a->ncompression)
        memcpy(b->compression, a->compression, a->ncompression * sizeof *a->compression);
    targets_copy(&a->declared_sass, &b->declared_sass);
    targets_copy(&a->declared_ptx, &b->declared_ptx);
    lines_copy(&a->arch_flags, &b->arch_flags);
    lines_copy(&a->warnings, &b->warnings);
}

int recbinary_is_own(const struct recbinary *b)
{
    return !b->bundled && b->nsets > 0;
}

char *recbinaries_code(const struct recbinaries *b)
{
    if (!b->listed)
        return NULL;
    struct strbuf sets = STRBUF_INIT, isas = STRBUF_INIT;
    for (size_t i = 0; i < b->n; i++) {
        const struct recbinary *x = &b->v[i];
        if (!recbinary_is_own(x))
            continue;
        for (size_t k = 0; k < x->nsets; k++) {
            if (sets.len)
                strbuf_addc(&sets, ';');
            strbuf_addf(&sets, "%lld", x->sets[k].modules > 0 ? x->sets[k].modules : 1);
            if (x->sets[k].targets.n)
                strbuf_addc(&sets, ' ');
            add_targets(&sets, &x->sets[k].targets);
        }
        for (size_t k = 0; k < x->ntargets; k++) {
            const struct recbinary_target *t = &x->targets[k];
            struct dotver isa;
            if (t->t.kind != TARGET_PTX || !t->isa[0] || dotver_parse(t->isa, &isa) != 0)
                continue;
            char name[TARGET_NAME_MAX];
            target_format(&t->t, name, sizeof name);
            strbuf_addf(&isas, "%s%s=%s", isas.len ? " " : "", name, t->isa);
        }
    }
    if (isas.len) {
        strbuf_addc(&sets, '|');
        strbuf_adds(&sets, strbuf_str(&isas));
    }
    strbuf_free(&isas);
    return strbuf_detach(&sets, NULL);
}

/* ---- checks on reading ---------------------------------------------------- */

#define SAID(v, max) ((v) >= -1 && (v) <= (max))

static int lists_ok(const struct recbinary_lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (!recordcheck_line_valid(l->v[i], RECORDCHECK_TEXT_MAX))
            return 0;
    return 1;
}

const char *recbinary_wrong(const struct recbinary *b)
{
    if (!b->path || !b->path[0] || !recordcheck_line_valid(b->path, RECORDCHECK_PATH_MAX))
        return "a binary's path is not one line of text";
    if (b->format && !recordcheck_codec_valid(b->format))
        return "a binary's format is not a format name";
    if (!SAID(b->size, BYTES_MAX) || !SAID(b->modules, COUNT_MAX) ||
        !SAID(b->dlink_modules, COUNT_MAX) || !SAID(b->library_modules, COUNT_MAX))
        return "a binary's size or module count is out of range";
    for (size_t i = 0; i < b->ntargets; i++) {
        const struct recbinary_target *t = &b->targets[i];
        if (!SAID(t->modules, COUNT_MAX) || !SAID(t->library_modules, COUNT_MAX) ||
            !SAID(t->entries, COUNT_MAX) || !SAID(t->bytes, BYTES_MAX) ||
            !SAID(t->uncompressed_bytes, BYTES_MAX))
            return "a target's counts are out of range";
        if (t->isa[0] && !recordcheck_isa_valid(t->isa))
            return "a target's PTX ISA is not a version";
        for (size_t k = 0; k < t->ncodecs; k++)
            if (!recordcheck_codec_valid(t->codecs[k]))
                return "a target's codec is not a codec name";
    }
    for (size_t i = 0; i < b->nsets; i++)
        if (!SAID(b->sets[i].modules, COUNT_MAX))
            return "a module set's count is out of range";
    for (size_t i = 0; i < b->ncompression; i++)
        if (!recordcheck_codec_valid(b->compression[i].codec) ||
            !SAID(b->compression[i].entries, COUNT_MAX) || b->compression[i].entries < 0)
            return "a binary's compression is not codec counts";
    if (!lists_ok(&b->arch_flags) || !lists_ok(&b->warnings))
        return "a binary's arch flags or warnings are not lines of text";
    return NULL;
}

/* ---- the columns' text forms ------------------------------------------- */

static void add_targets(struct strbuf *sb, const struct recbinary_targets *l)
{
    for (size_t i = 0; i < l->n; i++) {
        char name[TARGET_NAME_MAX];
        target_format(&l->v[i], name, sizeof name);
        if (i)
            strbuf_addc(sb, ' ');
        strbuf_adds(sb, name);
    }
}

char *recbinary_targets_text(const struct recbinary_targets *l)
{
    struct strbuf sb = STRBUF_INIT;
    strbuf_adds(&sb, "");
    add_targets(&sb, l);
    return strbuf_detach(&sb, NULL);
}

/* Parses the names in s[0, len) separated by single spaces. */
static int parse_targets_n(const char *s, size_t len, int kind, struct recbinary_targets *out)
{
    size_t cap = 1;
    for (size_t i = 0; i < len; i++)
        cap += s[i] == ' ';
    out->v = xmalloc(cap * sizeof *out->v);
    out->n = 0;
    const char *p = s, *end = s + len;
    while (p < end) {
        const char *sp = memchr(p, ' ', (size_t)(end - p));
        size_t n = sp ? (size_t)(sp - p) : (size_t)(end - p);
        char name[TARGET_NAME_MAX];
        if (n == 0 || n >= sizeof name)
            return -1;
        memcpy(name, p, n);
        name[n] = '\0';
        struct target t;
        char canon[TARGET_NAME_MAX];
        if (target_parse(name, &t) != 0)
            return -1;
        target_format(&t, canon, sizeof canon);
        if (strcmp(canon, name) != 0 || (kind >= 0 && t.kind != kind))
            return -1;
        out->v[out->n++] = t;
        p += n + (sp ? 1 : 0);
        if (sp && p == end)
            return -1; /* a trailing space */
    }
    return 0;
}

int recbinary_targets_parse(const char *s, int kind, struct recbinary_targets *out)
{
    return parse_targets_n(s ? s : "", s ? strlen(s) : 0, kind, out);
}

char *recbinary_lines_text(const struct recbinary_lines *l)
{
    struct strbuf sb = STRBUF_INIT;
    strbuf_adds(&sb, "");
    for (size_t i = 0; i < l->n; i++) {
        strbuf_adds(&sb, l->v[i]);
        strbuf_addc(&sb, '\n');
    }
    return strbuf_detach(&sb, NULL);
}

void recbinary_lines_parse(const char *s, struct recbinary_lines *out)
{
    size_t cap = 1;
    for (const char *p = s ? s : ""; *p; p++)
        cap += *p == '\n';
    out->v = xmalloc(cap * sizeof *out->v);
    out->n = 0;
    for (const char *p = s ? s : ""; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p); /* the last may lack its newline */
        out->v[out->n++] = xstrndup(p, n);
        p += n + (nl ? 1 : 0);
    }
}

static void add_count(struct strbuf *sb, long long v)
{
    if (v < 0)
        strbuf_addc(sb, '-');
    else
        strbuf_addf(sb, "%lld", v);
}

/* A count as add_count writes it, up to `stop`; -2 when it is not one. */
static long long parse_count(const char **p, char stop)
{
    const char *s = *p;
    if (*s == '-') {
        *p = s + 1;
        return **p == stop ? -1 : -2;
    }
    if (*s < '0' || *s > '9')
        return -2;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno || *end != stop)
        return -2;
    *p = end;
    return v;
}

char *recbinary_sets_text(const struct recbinary *b)
{
    struct strbuf sb = STRBUF_INIT;
    strbuf_adds(&sb, "");
    for (size_t i = 0; i < b->nsets; i++) {
        if (i)
            strbuf_addc(&sb, ';');
        add_count(&sb, b->sets[i].modules);
        strbuf_addc(&sb, ' ');
        add_targets(&sb, &b->sets[i].targets);
    }
    return strbuf_detach(&sb, NULL);
}

int recbinary_sets_parse(const char *s, struct recbinary *b)
{
    size_t cap = 1;
    for (const char *p = s ? s : ""; *p; p++)
        cap += *p == ';';
    b->sets = xcalloc(cap, sizeof *b->sets);
    b->nsets = 0;
    if (!s || !*s)
        return 0;
    for (const char *p = s;;) {
        struct recbinary_set *set = &b->sets[b->nsets];
        set->modules = parse_count(&p, ' ');
        if (set->modules < -1)
            return -1;
        p++;
        const char *semi = strchr(p, ';');
        size_t n = semi ? (size_t)(semi - p) : strlen(p);
        b->nsets++; /* freed with the binary, even when it fails */
        if (parse_targets_n(p, n, -1, &set->targets) < 0)
            return -1;
        if (!semi)
            return 0;
        p = semi + 1;
    }
}

char *recbinary_compression_text(const struct recbinary *b)
{
    struct strbuf sb = STRBUF_INIT;
    strbuf_adds(&sb, "");
    for (size_t i = 0; i < b->ncompression; i++)
        strbuf_addf(&sb, "%s%s=%lld", i ? " " : "", b->compression[i].codec,
                    b->compression[i].entries);
    return strbuf_detach(&sb, NULL);
}

int recbinary_compression_parse(const char *s, struct recbinary *b)
{
    size_t cap = 1;
    for (const char *p = s ? s : ""; *p; p++)
        cap += *p == ' ';
    b->compression = xcalloc(cap, sizeof *b->compression);
    b->ncompression = 0;
    if (!s || !*s)
        return 0;
    for (const char *p = s;;) {
        const char *eq = strchr(p, '=');
        struct recbinary_codec *c = &b->compression[b->ncompression];
        if (!eq || (size_t)(eq - p) >= sizeof c->codec || eq == p)
            return -1;
        memcpy(c->codec, p, (size_t)(eq - p));
        c->codec[eq - p] = '\0';
        p = eq + 1;
        const char *sp = strchr(p, ' ');
        c->entries = parse_count(&p, sp ? ' ' : '\0');
        if (c->entries < 0)
            return -1;
        b->ncompression++;
        if (!sp)
            return 0;
        p++;
    }
}

char *recbinary_codecs_text(const struct recbinary_target *t)
{
    if (!t->codecs_said)
        return NULL;
    struct strbuf sb = STRBUF_INIT;
    strbuf_adds(&sb, "");
    for (size_t i = 0; i < t->ncodecs; i++) {
        if (i)
            strbuf_addc(&sb, ' ');
        strbuf_adds(&sb, t->codecs[i]);
    }
    return strbuf_detach(&sb, NULL);
}

int recbinary_codecs_parse(const char *s, struct recbinary_target *t)
{
    t->codecs_said = s != NULL;
    size_t cap = 1;
    for (const char *p = s ? s : ""; *p; p++)
        cap += *p == ' ';
    t->codecs = xmalloc(cap * sizeof *t->codecs);
    t->ncodecs = 0;
    if (!s || !*s)
        return 0;
    for (const char *p = s;;) {
        const char *sp = strchr(p, ' ');
        size_t n = sp ? (size_t)(sp - p) : strlen(p);
        if (n == 0)
            return -1;
        t->codecs[t->ncodecs++] = xstrndup(p, n);
        if (!sp)
            return 0;
        p = sp + 1;
    }
}

/* ---- JSON --------------------------------------------------------------- */

json_t *recbinary_targets_json(const struct recbinary_targets *l)
{
    json_t *a = json_array();
    for (size_t i = 0; i < l->n; i++) {
        char name[TARGET_NAME_MAX];
        target_format(&l->v[i], name, sizeof name);
        json_array_append_new(a, json_string(name));
    }
    return a;
}

json_t *recbinary_target_json(const struct recbinary_target *t)
{
    json_t *o = json_object();
    if (t->bytes >= 0)
        json_object_set_new(o, "bytes", json_integer((json_int_t)t->bytes));
    if (t->codecs_said) {
        json_t *c = json_array();
        for (size_t i = 0; i < t->ncodecs; i++)
            json_array_append_new(c, json_string(t->codecs[i]));
        json_object_set_new(o, "codecs", c);
    }
    if (t->entries >= 0)
        json_object_set_new(o, "entries", json_integer((json_int_t)t->entries));
    if (t->isa[0])
        json_object_set_new(o, "isa", json_string(t->isa));
    if (t->library_modules >= 0)
        json_object_set_new(o, "library_modules", json_integer((json_int_t)t->library_modules));
    if (t->modules >= 0)
        json_object_set_new(o, "modules", json_integer((json_int_t)t->modules));
    if (t->uncompressed_bytes >= 0)
        json_object_set_new(o, "uncompressed_bytes",
                            json_integer((json_int_t)t->uncompressed_bytes));
    return o;
}

static json_t *lines_json(const struct recbinary_lines *l)
{
    json_t *a = json_array();
    for (size_t i = 0; i < l->n; i++)
        json_array_append_new(a, json_string(l->v[i]));
    return a;
}

static void set_count(json_t *o, const char *k, long long v)
{
    if (v >= 0)
        json_object_set_new(o, k, json_integer((json_int_t)v));
}

/* One binary as the record's "binaries" entry, as binary_of reads it. */
static json_t *binary_json(const struct recbinary *b)
{
    json_t *o = json_object();
    json_object_set_new(o, "path", json_string(b->path));
    if (b->format)
        json_object_set_new(o, "format", json_string(b->format));
    set_count(o, "size", b->size);
    set_count(o, "modules", b->modules);
    set_count(o, "dlink_modules", b->dlink_modules);
    set_count(o, "library_modules", b->library_modules);
    json_object_set_new(o, "sass", recbinary_targets_json(&b->sass));
    json_object_set_new(o, "ptx", recbinary_targets_json(&b->ptx));
    json_object_set_new(o, "lto", recbinary_targets_json(&b->lto));
    json_object_set_new(o, "gfx", recbinary_targets_json(&b->gfx));
    json_t *ts = json_object();
    for (size_t i = 0; i < b->ntargets; i++) {
        char name[TARGET_NAME_MAX];
        target_format(&b->targets[i].t, name, sizeof name);
        json_object_set_new(ts, name, recbinary_target_json(&b->targets[i]));
    }
    json_object_set_new(o, "targets", ts);
    json_t *sets = json_array();
    for (size_t i = 0; i < b->nsets; i++) {
        json_t *s = json_object();
        set_count(s, "modules", b->sets[i].modules);
        json_object_set_new(s, "targets", recbinary_targets_json(&b->sets[i].targets));
        json_array_append_new(sets, s);
    }
    json_object_set_new(o, "module_sets", sets);
    json_t *comp = json_object();
    for (size_t i = 0; i < b->ncompression; i++)
        json_object_set_new(comp, b->compression[i].codec,
                            json_integer((json_int_t)b->compression[i].entries));
    json_object_set_new(o, "compression", comp);
    if (b->declared) {
        json_t *d = json_object();
        json_object_set_new(d, "sass", recbinary_targets_json(&b->declared_sass));
        json_object_set_new(d, "ptx", recbinary_targets_json(&b->declared_ptx));
        json_object_set_new(o, "declared", d);
    }
    json_object_set_new(o, "arch_flags", lines_json(&b->arch_flags));
    json_object_set_new(o, "warnings", lines_json(&b->warnings));
    return o;
}

json_t *recbinaries_json(const struct recbinaries *b)
{
    json_t *a = json_array();
    for (size_t i = 0; i < b->n; i++)
        json_array_append_new(a, binary_json(&b->v[i]));
    return a;
}
