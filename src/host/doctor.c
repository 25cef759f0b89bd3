/*
 * doctor: installed distributions judged against this machine's GPUs
 * (doctor.h).
 */
#include "doctor.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compat.h"
#include "dotver.h"
#include "fsutil.h"
#include "query.h"
#include "recbinary.h"
#include "record.h"
#include "scan.h"
#include "scanreport.h"
#include "strbuf.h"
#include "strmap.h"
#include "variant.h"
#include "variantprops.h"
#include "hostvariants.h"
#include "verifyrun.h"
#include "wheelmeta.h"
#include "wheelname.h"
#include "xalloc.h"

/* RECORD files read at most (a torch RECORD is about 2 MB). */
#define DOCTOR_MAX_RECORD (64u << 20)

struct dist {
    char *name;    /* PEP 503-normalised */
    char *version; /* as METADATA says, local label included */
    const char *site;
    char **requires;
    size_t nrequires;
    json_t *rec; /* {"wheel": {...}, "binaries": [...]}: what recbinaries_of reads */
    size_t gpu_files;
    char *code;      /* recbinaries_code of rec's binaries, or NULL */
    int required_by; /* a GPU library another distribution pins */
    int no_record;   /* its RECORD is missing or unreadable: files unknown */
    char *limit;     /* a limit hit while checking it (the rest unchecked), or NULL */
};

static void dist_free(struct dist *d)
{
    free(d->name);
    free(d->version);
    wheelmeta_free(d->requires, d->nrequires);
    json_decref(d->rec);
    free(d->code);
    free(d->limit);
}

/* The whole of a regular file, NUL-terminated, or NULL when it cannot be
 * read or is larger than max bytes (*too_big set then). */
static char *slurp(const char *path, size_t max, size_t *len, int *too_big)
{
    char *data = NULL;
    size_t n = 0;
    struct wa_error e;
    *too_big = 0;
    /* fsutil_read: a FIFO would block, a device never end */
    if (fsutil_read(path, max, &data, &n, NULL, &e) < 0) {
        *too_big = e.code == WA_ERR_LIMIT;
        return NULL;
    }
    if (len)
        *len = n;
    return data;
}

/* Notes the first limit d hit (printf-style). */
static void dist_limit(struct dist *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void dist_limit(struct dist *d, const char *fmt, ...)
{
    if (d->limit)
        return;
    char buf[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    d->limit = xstrdup(buf);
}

/* A header's value in METADATA text ("Name", "Version"), up to the first
 * blank line; NULL when absent. */
static char *header(const char *text, const char *key)
{
    size_t kl = strlen(key);
    for (const char *p = text; p && *p && *p != '\n' && !(p[0] == '\r' && p[1] == '\n');) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        if (n > kl + 1 && strncasecmp(p, key, kl) == 0 && p[kl] == ':') {
            const char *v = p + kl + 1;
            while (*v == ' ' || *v == '\t')
                v++;
            size_t vl = (size_t)(p + n - v);
            while (vl && (v[vl - 1] == '\r' || v[vl - 1] == ' '))
                vl--;
            return vl ? xstrndup(v, vl) : NULL;
        }
        p = eol ? eol + 1 : NULL;
    }
    return NULL;
}

char *doctor_record_path(const char *line)
{
    if (!line || !*line)
        return NULL;
    if (*line != '"') {
        size_t n = strcspn(line, ",\r\n");
        return n ? xstrndup(line, n) : NULL;
    }
    struct strbuf b = STRBUF_INIT;
    for (const char *p = line + 1; *p; p++) {
        if (*p == '"') {
            if (p[1] != '"') {
                /* the closing quote ends the field; an empty path is none */
                if ((p[1] && p[1] != ',' && p[1] != '\r' && p[1] != '\n') || b.len == 0)
                    break;
                return strbuf_detach(&b, NULL);
            }
            p++;
        }
        strbuf_addc(&b, *p);
    }
    strbuf_free(&b); /* no closing quote, or nothing valid */
    return NULL;
}

/* Whether an installed file's path (relative to its folder) stays inside
 * the folder and can hold GPU code. */
static int wanted_path(const char *p)
{
    if (!p || !*p || p[0] == '/' || strncmp(p, "../", 3) == 0 || strstr(p, "/../"))
        return 0;
    return scan_member_is_wanted(p);
}

/* Scans the files of d listed in its RECORD into d->rec's binaries. */
static void scan_dist(struct dist *d, const char *infodir)
{
    char *rp = fsutil_join(infodir, "RECORD");
    size_t len = 0;
    int too_big;
    char *record = slurp(rp, DOCTOR_MAX_RECORD, &len, &too_big);
    free(rp);
    d->no_record = record == NULL && !too_big;
    if (too_big)
        dist_limit(d, "its RECORD is larger than %u MiB, so its files were not checked",
                   DOCTOR_MAX_RECORD >> 20);
    /* a file listed twice, or under two spellings ("a/./b.so", "a//b.so",
     * a link), is scanned once: by its real path */
    struct strmap *seen = strmap_new();
    json_t *bins = json_object_get(d->rec, "binaries");
    size_t files = 0;
    /* Links are followed wherever they lead, as Python's loader does
     * (Spack and Nix views, venvs of links); the RECORD path itself stays
     * inside the folder (wanted_path).  A listed file that cannot be read
     * or scanned is named: nobody knows what GPU code it holds. */
    struct strbuf unread = STRBUF_INIT;
    size_t nunread = 0;
    for (const char *p = record; p && *p;) {
        const char *eol = strchr(p, '\n');
        char *path = doctor_record_path(p);
        p = eol ? eol + 1 : NULL;
        if (!wanted_path(path)) {
            free(path);
            continue;
        }
        char *full = fsutil_join(d->site, path);
        char *real = realpath(full, NULL);
        int why = real ? 0 : errno;
        const char *id = real ? real : path;
        if (strmap_get(seen, id, NULL)) {
            free(real);
            free(full);
            free(path);
            continue;
        }
        if (files == DOCTOR_MAX_FILES) {
            dist_limit(d,
                       "its RECORD lists more than %d files that can hold GPU code; only the "
                       "first %d were checked",
                       DOCTOR_MAX_FILES, DOCTOR_MAX_FILES);
            free(real);
            free(full);
            free(path);
            break;
        }
        strmap_put(seen, id, 1);
        files++;
        struct stat st;
        const char *failed = NULL;
        char msg[200];
        /* the file itself, also when the listed path is a link to it (the
         * real path is what was marked seen) */
        if (!real) {
            failed = strerror(why);
        } else if (stat(real, &st) != 0) {
            failed = strerror(errno);
        } else if (!S_ISREG(st.st_mode)) {
            failed = "not a regular file";
        } else if (access(real, R_OK) != 0) {
            failed = strerror(errno);
        } else {
            struct scan_result *r = scan_file(real);
            /* a file of no binary kind (a METADATA, a text .so linker
             * script) holds no GPU code; any other failure is a file whose
             * code nobody knows */
            if (r && r->failed &&
                !(r->kind == SCAN_KIND_UNKNOWN && r->error.code == WA_ERR_FORMAT)) {
                snprintf(msg, sizeof msg, "%.150s", r->error.msg);
                failed = msg;
            }
            json_t *j = r && !r->failed ? scanreport_json(r) : NULL;
            size_t i;
            json_t *b;
            json_array_foreach(json_object_get(j, "binaries"), i, b)
            {
                if (!json_array_size(json_object_get(b, "module_sets")))
                    continue;
                json_object_set_new(b, "path", json_string(path));
                json_array_append(bins, b);
                d->gpu_files++;
            }
            json_decref(j);
            scan_result_free(r);
        }
        if (failed) {
            if (nunread < 3) {
                char *shown = xstrdup(path);
                wa_printable_ascii(shown);
                strbuf_addf(&unread, "%s%s (%s)", nunread ? ", " : "", shown, failed);
                free(shown);
            }
            nunread++;
        }
        free(real);
        free(full);
        free(path);
    }
    if (nunread)
        dist_limit(d, "%zu file%s its RECORD lists could not be read or scanned: %s%s", nunread,
                   nunread == 1 ? "" : "s", unread.buf, nunread > 3 ? ", ..." : "");
    strbuf_free(&unread);
    strmap_free(seen);
    free(record);
    struct recbinaries own;
    recbinaries_of(d->rec, &own);
    d->code = recbinaries_code(&own);
    recbinaries_free(&own);
}

/* A list of what could not be checked, growing. */
struct unchecked_list {
    struct doctor_unchecked *v;
    size_t n, cap;
};

/* Adds one (the strings copied, made printable; version and why may be
 * NULL). */
static void unchecked_add(struct unchecked_list *l, const char *name, const char *version,
                          const char *site, const char *why)
{
    l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof *l->v);
    struct doctor_unchecked *u = &l->v[l->n++];
    u->name = xstrdup(name);
    u->version = version ? xstrdup(version) : NULL;
    u->site = xstrdup(site);
    u->why = why ? xstrdup(why) : NULL;
    wa_printable_ascii(u->name);
    wa_printable_ascii(u->version);
    wa_printable_ascii(u->site);
}

/* Reads the distributions of one folder into *ds; what cannot be read is
 * added to incomplete. */
static void list_site(const char *site, struct dist **ds, size_t *n, size_t *cap,
                      struct unchecked_list *incomplete)
{
    DIR *dir = opendir(site);
    if (!dir)
        return;
    struct dirent *e;
    char **names = NULL;
    size_t nn = 0;
    int more = 0;
    while ((e = readdir(dir))) {
        size_t l = strlen(e->d_name);
        if (l > 10 && strcmp(e->d_name + l - 10, ".dist-info") == 0) {
            if (nn == DOCTOR_MAX_DISTS) {
                more = 1;
                break;
            }
            names = xrealloc(names, (nn + 1) * sizeof *names);
            names[nn++] = xstrdup(e->d_name);
        }
    }
    closedir(dir);
    if (more) {
        char why[160];
        snprintf(why, sizeof why,
                 "the folder holds more than %d .dist-info folders; only %d were checked",
                 DOCTOR_MAX_DISTS, DOCTOR_MAX_DISTS);
        unchecked_add(incomplete, "(the folder)", NULL, site, why);
    }
    for (size_t i = 0; i < nn; i++) {
        char *info = fsutil_join(site, names[i]);
        char *mp = fsutil_join(info, "METADATA");
        size_t len = 0;
        int too_big;
        char *meta = slurp(mp, WHEELMETA_MAX_SIZE, &len, &too_big);
        free(mp);
        char *name = meta ? header(meta, "Name") : NULL;
        char *version = meta ? header(meta, "Version") : NULL;
        wa_printable_ascii(name);
        wa_printable_ascii(version);
        if (!meta || !name || !version || strlen(name) >= 200 || strlen(version) >= 100) {
            char why[160];
            snprintf(why, sizeof why, "%s",
                     too_big ? "its METADATA is larger than 1 MiB; not read"
                     : !meta ? "its METADATA cannot be read"
                             : "its METADATA gives no usable Name and Version");
            unchecked_add(incomplete, names[i], NULL, site, why);
        } else {
            *ds = xgrow(*ds, cap, *n + 1, sizeof **ds);
            struct dist *d = &(*ds)[(*n)++];
            memset(d, 0, sizeof *d);
            d->name = wheelname_normalize(name);
            d->version = xstrdup(version);
            d->site = site;
            wheelmeta_requires(meta, len, &d->requires, &d->nrequires);
            d->rec = json_pack("{s:{s:s,s:s},s:[]}", "wheel", "normalized_name", d->name, "version",
                               d->version, "binaries");
            scan_dist(d, info);
        }
        free(name);
        free(version);
        free(meta);
        free(info);
        free(names[i]);
    }
    free(names);
}

/* The public version of v (without "+label"), copied. */
static char *public_of(const char *v)
{
    return xstrndup(v, strcspn(v, "+"));
}

/* The installed distribution name==pin (a GPU library), or NULL. */
static struct dist *installed(struct dist *ds, size_t n, const char *name, const char *pin)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(ds[i].name, name) != 0)
            continue;
        char *pub = public_of(ds[i].version);
        int same = strcmp(ds[i].version, pin) == 0 || strcmp(pub, pin) == 0;
        free(pub);
        if (same)
            return &ds[i];
    }
    return NULL;
}

static void row_free(struct dbview_row *r)
{
    compat_code_free(&r->code);
    free(r->sass);
    free(r->ptx);
    free(r->gfx);
}

/* The variant of an installed distribution (its label, its project's rule). */
static char *variant_of(const struct doctor_options *o, const struct dist *d, const char **how)
{
    /* a wheel name of this platform, for the rules that depend on it
     * (PyPI's unlabelled torch: the release's default per platform) */
    const char *tag = strcmp(o->platform, "linux-x86_64") == 0     ? "manylinux_2_28_x86_64"
                      : strcmp(o->platform, "linux-aarch64") == 0  ? "manylinux_2_28_aarch64"
                      : strcmp(o->platform, "windows-x86_64") == 0 ? "win_amd64"
                      : strcmp(o->platform, "windows-arm64") == 0  ? "win_arm64"
                                                                   : "any";
    char *fn = xasprintf("%s-%s-py3-none-%s.whl", d->name, d->version, tag);
    for (char *p = fn; *p && p < fn + strlen(d->name); p++)
        if (*p == '-')
            *p = '_';
    struct wheel_name wn;
    char *v = NULL;
    if (wheelname_parse(fn, &wn, NULL) == 0) {
        v = variant_decide(o->t, &wn, NULL, "installed", how);
        wheelname_free(&wn);
    }
    free(fn);
    if (!v) {
        v = xstrdup("installed");
        *how = "index";
    }
    return v;
}

/* The build that replaces the installed build of name: answer a, and the
 * commands that install it. */
static void fix_of(const struct tables *t, const char *name, const struct answer_install *a,
                   struct doctor_fix *f)
{
    f->has_build = 1;
    f->index = xstrdup(a->row->variant);
    f->index_url = a->index_url ? xstrdup(a->index_url) : NULL;
    f->version = xstrdup(a->row->version);
    f->verdict = a->res.verdict;
    /* pip keeps an installed build that satisfies the pin, whatever its
     * variant: uninstall first; uv reinstalls the package when asked */
    const struct installcmd_req req = {name, a->pin, a->extra[0] ? a->extra : NULL};
    installcmd_make(&f->commands, t, &req, 1, a->index_url, INSTALLCMD_REPLACE);
}

/* query's answer for name's release (else its newest) on the machine,
 * into f (has_build stays 0 when there is none). */
static void fix_for(const struct doctor_options *o, const struct dist *d, struct doctor_fix *f)
{
    int known = 0;
    for (size_t i = 0; i < o->v->nrows && !known; i++)
        known = strcmp(o->v->rows[i].project, d->name) == 0;
    if (!known || !o->ngpus)
        return;
    char *pub = public_of(d->version);
    char *rel = dotver_release(pub);
    free(pub);
    for (int attempt = 0; attempt < 2 && !f->has_build; attempt++) {
        struct multigpu_gpu *g = xcalloc(o->ngpus, sizeof *g);
        for (size_t i = 0; i < o->ngpus; i++) {
            g[i] = o->gpus[i];
            g[i].o.project = d->name;
            g[i].o.version = attempt == 0 ? rel : NULL;
            g[i].o.platform = o->platform;
        }
        struct wa_error err;
        struct answer_result *one = NULL;
        struct multigpu_result *all = NULL;
        const struct answer_install *a = NULL;
        if (o->ngpus == 1) {
            one = query_answer(o->v, &g[0].o, &err);
            a = one ? answer_runs(one) : NULL;
        } else {
            all = multigpu_answer(o->v, g, o->ngpus, &err);
            a = all ? (all->recommendation ? all->recommendation : all->fallback) : NULL;
        }
        if (a)
            fix_of(o->t, d->name, a, f);
        answer_free(one);
        multigpu_free(all);
        free(g);
    }
    free(rel);
}

/* Whether a distribution gets a verdict of its own (and so --verify's
 * counts): it has a record, GPU files and code, and no other distribution
 * with code pins it. */
static int judged_alone(const struct dist *d)
{
    return !d->no_record && d->gpu_files && d->code && !d->required_by;
}

/* --verify: every judged distribution's files with GPU code handed to the
 * driver in a child process (verifyrun.h), into r. */
static void verify_all(const struct doctor_options *o, const struct dist *ds, size_t n,
                       struct verifyrun_result *r)
{
    struct verifyrun_item *items = xcalloc(n + 1, sizeof *items);
    const char ***paths = xcalloc(n + 1, sizeof *paths);
    char **labels = xcalloc(n + 1, sizeof *labels);
    for (size_t i = 0; i < n; i++) {
        if (!judged_alone(&ds[i]))
            continue;
        json_t *bins = json_object_get(ds[i].rec, "binaries");
        paths[i] = xcalloc(json_array_size(bins) + 1, sizeof **paths);
        size_t k;
        json_t *b;
        json_array_foreach(bins, k, b)
        {
            const char *path = json_string_value(json_object_get(b, "path"));
            if (path)
                paths[i][items[i].npaths++] = path;
        }
        labels[i] = xasprintf("%s %s", ds[i].name, ds[i].version);
        items[i].label = labels[i];
        items[i].site = ds[i].site;
        items[i].paths = paths[i];
    }
    verifyrun(o->t, items, n, o->verify_timeout > 0 ? o->verify_timeout : VERIFYRUN_TIMEOUT_DEFAULT,
              r);
    for (size_t i = 0; i < n; i++) {
        free(paths[i]);
        free(labels[i]);
    }
    free(paths);
    free(labels);
    free(items);
}

static void unchecked_free(struct doctor_unchecked *u, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(u[i].name);
        free(u[i].version);
        free(u[i].site);
        free(u[i].why);
    }
    free(u);
}

static void judged_free(struct doctor_dist *d)
{
    free(d->name);
    free(d->version);
    free(d->variant);
    json_decref(d->properties);
    free(d->site);
    for (size_t i = 0; i < d->nlibraries; i++)
        free(d->libraries[i]);
    free(d->libraries);
    for (size_t i = 0; i < d->nverdicts; i++) {
        free(d->verdicts[i].reason);
        free(d->verdicts[i].min_driver);
    }
    free(d->verdicts);
    free(d->fix.index);
    free(d->fix.index_url);
    free(d->fix.version);
    free(d->fix.driver);
    if (d->fix.has_build)
        installcmd_free(&d->fix.commands);
}

void doctor_result_free(struct doctor_result *r)
{
    for (size_t i = 0; i < r->nsite_packages; i++)
        free(r->site_packages[i]);
    free(r->site_packages);
    free(r->platform);
    for (size_t i = 0; i < r->ndists; i++)
        judged_free(&r->dists[i]);
    free(r->dists);
    unchecked_free(r->without_record, r->nwithout_record);
    unchecked_free(r->incomplete, r->nincomplete);
    if (r->verified)
        verifyrun_result_free(&r->verify);
    json_decref(r->machine);
    memset(r, 0, sizeof *r);
}

/* The judged distribution d: its verdict per GPU with the GPU libraries
 * it pins, and its fix, into x.  Returns its worst verdict. */
static int judge(const struct doctor_options *o, struct dist *ds, size_t n, struct dist *d,
                 struct doctor_dist *x)
{
    int os = tables_platform_os(o->platform);
    struct dbview_row row;
    memset(&row, 0, sizeof row);
    dbview_row_apply_code(&row, d->code);
    struct dbview_row *lrows = xcalloc(d->nrequires + 1, sizeof *lrows);
    x->libraries = xcalloc(d->nrequires + 1, sizeof *x->libraries);
    for (size_t k = 0; k < d->nrequires; k++) {
        char *name, *pin;
        if (!wheelmeta_marker_applies(d->requires[k], o -> platform) ||
            wheelmeta_requirement(d->requires[k], &name, &pin) < 0)
            continue;
        const char *label = pin ? tables_gpu_library(o->t, name) : NULL;
        struct dist *lib = label ? installed(ds, n, name, pin) : NULL;
        if (lib && lib != d && lib->gpu_files && lib->code) {
            dbview_row_apply_code(&lrows[k], lib->code);
            char *origin = xasprintf("%s %s", label, pin);
            compat_code_add_library(&row.code, &lrows[k].code, origin);
            x->libraries[x->nlibraries++] = origin;
        }
        free(name);
        free(pin);
    }
    x->name = xstrdup(d->name);
    x->version = xstrdup(d->version);
    x->variant = variant_of(o, d, &x->variant_source);
    x->site = xstrdup(d->site);
    wa_printable_ascii(x->site);
    x->gpu_files = d->gpu_files;
    struct dotver cuda = {0};
    tables_variant_cuda(x->variant, &cuda);
    /* its properties, as the index's variant metadata would list its build */
    row.variant = x->variant;
    row.cuda = cuda;
    json_t *specific = NULL;
    x->properties = variantprops_of_row(&row, o->t, &specific);
    json_decref(specific);
    row.variant = NULL;
    x->verdicts = xcalloc(o->ngpus + 1, sizeof *x->verdicts);
    int worst = COMPAT_NATIVE;
    /* the driver the code needs where only the driver keeps it from
     * running (the highest over the GPUs) */
    char need_driver[32] = "";
    struct dotver need = {0};
    for (size_t g = 0; g < o->ngpus; g++) {
        struct compat_query q = {0};
        q.cc = o->gpus[g].o.cc;
        q.xnack = o->gpus[g].o.xnack;
        q.has_driver = o->gpus[g].o.has_driver;
        q.driver = o->gpus[g].o.driver;
        q.os = os;
        struct compat_result res;
        compat_judge(o->t, &q, &row.code, &cuda, &res);
        if (res.verdict > worst)
            worst = res.verdict;
        struct dotver nd;
        if (res.verdict == COMPAT_DRIVER_TOO_OLD && res.needed_driver[0] &&
            dotver_parse(res.needed_driver, &nd) == 0 && (!need.n || dotver_cmp(&nd, &need) > 0)) {
            need = nd;
            wa_strlcpy(need_driver, res.needed_driver, sizeof need_driver);
        }
        struct doctor_gpu_verdict *v = &x->verdicts[x->nverdicts++];
        v->gpu = o->gpus[g].label;
        v->count = o->gpus[g].count;
        v->verdict = res.verdict;
        v->reason = xstrdup(res.reason);
        v->min_driver = res.min_driver[0] ? xstrdup(res.min_driver) : NULL;
    }
    x->verdict = worst;
    if (worst != COMPAT_NATIVE)
        fix_for(o, d, &x->fix);
    if (need_driver[0] && worst == COMPAT_DRIVER_TOO_OLD)
        /* the code runs once the driver is updated: that is the fix, and
         * a build that runs with this driver the other way */
        x->fix.driver = xstrdup(need_driver);
    x->has_fix = x->fix.has_build || x->fix.driver;
    row_free(&row);
    for (size_t k = 0; k < d->nrequires; k++)
        row_free(&lrows[k]);
    free(lrows);
    return worst;
}

int doctor_run(const struct doctor_options *o, struct doctor_result *r, struct wa_error *err)
{
    memset(r, 0, sizeof *r);
    struct dist *ds = NULL;
    size_t n = 0, cap = 0, readable = 0;
    struct unchecked_list incomplete = {0}, unread = {0};
    for (size_t i = 0; i < o->nsite_dirs; i++) {
        struct stat st;
        if (stat(o->site_dirs[i], &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        readable++;
        list_site(o->site_dirs[i], &ds, &n, &cap, &incomplete);
    }
    if (!readable) {
        wa_error_set(err, WA_ERR_IO, "%s: no such site-packages folder",
                     o->nsite_dirs ? o->site_dirs[0] : "(none)");
        r->incomplete = incomplete.v;
        r->nincomplete = incomplete.n;
        doctor_result_free(r);
        free(ds);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (ds[i].limit)
            unchecked_add(&incomplete, ds[i].name, ds[i].version, ds[i].site, ds[i].limit);
    /* The GPU libraries another distribution with GPU code pins are judged
     * with it (one without code of its own, or a library pinned only by
     * such, is judged alone). */
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; ds[i].gpu_files && ds[i].code && k < ds[i].nrequires; k++) {
            char *name, *pin;
            if (!wheelmeta_marker_applies(ds[i].requires[k], o -> platform) ||
                wheelmeta_requirement(ds[i].requires[k], &name, &pin) < 0)
                continue;
            struct dist *lib =
                pin && tables_gpu_library(o->t, name) ? installed(ds, n, name, pin) : NULL;
            if (lib && lib != &ds[i])
                lib->required_by = 1;
            free(name);
            free(pin);
        }
    /* --verify: the driver, once, in a child, for every distribution */
    if (o->verify) {
        r->verified = 1;
        verify_all(o, ds, n, &r->verify);
    }
    /* the machine's properties, which select among builds as an installer
     * reading variant metadata would */
    uint16_t *codes = xcalloc(o->ngpus + 1, sizeof *codes);
    const struct dotver *driver = NULL;
    for (size_t g = 0; g < o->ngpus; g++) {
        codes[g] = o->gpus[g].o.cc;
        if (!driver && o->gpus[g].o.has_driver)
            driver = &o->gpus[g].o.driver;
    }
    r->machine = hostvariants_properties(o->t, codes, o->ngpus, driver,
                                         tables_platform_os(o->platform), o->rocm);
    free(codes);
    const char *verify_failed = r->verified ? r->verify.failed : NULL;
    int verify_usable = r->verified && r->verify.device.available;
    size_t disagree = 0;
    int worst_all = -1;
    r->dists = xcalloc(n + 1, sizeof *r->dists);
    for (size_t i = 0; i < n; i++) {
        struct dist *d = &ds[i];
        if (d->no_record) {
            /* not "without GPU code": nobody knows what it installed */
            unchecked_add(&unread, d->name, d->version, d->site, NULL);
            continue;
        }
        if (!d->gpu_files || !d->code || d->required_by) {
            r->without_gpu_code += !d->gpu_files;
            continue;
        }
        struct doctor_dist *x = &r->dists[r->ndists++];
        int worst = judge(o, ds, n, d, x);
        x->selected = variantprops_selects(r->machine, x->properties);
        if (worst > worst_all)
            worst_all = worst;
        if (verify_usable && r->verify.items[i].reached) {
            x->verify = &r->verify.items[i];
            disagree += (size_t)x->verify->disagreements;
        } else if (verify_usable && verify_failed) {
            x->verify_failed = r->verify.failed_item >= 0 && (size_t)r->verify.failed_item == i
                                   ? verify_failed
                                   : "not checked: the driver's process ended before it came "
                                     "to this one";
        }
    }
    r->incomplete = incomplete.v;
    r->nincomplete = incomplete.n;
    r->without_record = unread.v;
    r->nwithout_record = unread.n;
    r->installed = n;
    /* what will fail, then what could not be checked, then what is slow */
    /* nothing with GPU code (a CPU-only build, or another environment than
     * meant): nothing was checked, which is not "everything runs" */
    r->exit = verify_failed                           ? DOCTOR_EXIT_FAIL
              : disagree                              ? DOCTOR_EXIT_DISAGREE
              : worst_all > COMPAT_PTX_JIT            ? DOCTOR_EXIT_FAIL
              : r->nincomplete                        ? DOCTOR_EXIT_INCOMPLETE
              : r->ndists == 0 && !r->nwithout_record ? DOCTOR_EXIT_INCOMPLETE
              : worst_all == COMPAT_PTX_JIT           ? DOCTOR_EXIT_JIT
                                                      : DOCTOR_EXIT_OK;
    r->site_packages = xcalloc(o->nsite_dirs + 1, sizeof *r->site_packages);
    for (size_t i = 0; i < o->nsite_dirs; i++) {
        r->site_packages[i] = xstrdup(o->site_dirs[i]);
        wa_printable_ascii(r->site_packages[i]);
    }
    r->nsite_packages = o->nsite_dirs;
    r->platform = xstrdup(o->platform);
    wa_printable_ascii(r->platform);
    for (size_t i = 0; i < n; i++)
        dist_free(&ds[i]);
    free(ds);
    return 0;
}
