/*
 * sitedata_answer: the answer engine's answer (struct answer_result) as
 * the templates read it, field by field: its installs (recommendation,
 * fallback, newest with code, the driver table's lines), plain pip, the
 * newest release with native code per variant, the source build, the
 * guidance and the rest of the stack.  The names are the feed's
 * (api/v1/gpus.json's "recommendations", feed_answer_json); a
 * name is missing exactly where the feed leaves the key out and null
 * where the feed has null, so lookups fall through the template's
 * context stack as they did when the page was JSON.
 */
#include "sitedata_state.h"

#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "stack.h"
#include "tmpl.h"
#include "sitedata_types.h"

#define IS(want) sitedata_name_is(name, len, want)

/* A list of Python versions: p is the struct answer_pythons. */
static size_t pythons_len(const struct tmpl_value *v)
{
    return ((const struct answer_pythons *)v->p)->n;
}

static void pythons_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_str(((const struct answer_pythons *)v->p)->v[i], out);
}

static const struct tmpl_type pythons_type = {NULL, pythons_len, pythons_at, NULL, 0};

static void pythons(const struct answer_pythons *pv, struct tmpl_value *out)
{
    if (pv->n)
        sitedata_array(&pythons_type, pv, 0, out);
    else
        out->kind = TMPL_NULL;
}

/* A row's provenance (the feed's set_provenance): status, confidence,
 * provenance, and source and checked_on where `keep` has them.  Returns
 * whether name was one of them. */
enum { KEEP_SOURCE = 1, KEEP_CHECKED = 2 };
static int provenance(const struct dbview_row *r, int keep, const char *name, size_t len,
                      struct tmpl_value *out)
{
    const struct declared *dc = r->status == VIEW_DECLARED ? r->declared : NULL;
    if (IS("status"))
        tmpl_value_str(dbview_status_name(r->status), out);
    else if (IS("confidence"))
        sitedata_or_null(dbview_row_confidence(r), out);
    else if (IS("provenance"))
        tmpl_value_str(dbview_row_provenance(r), out);
    else if (IS("source") && (keep & KEEP_SOURCE))
        sitedata_or_null(dc ? dc->source : NULL, out);
    else if (IS("checked_on") && (keep & KEEP_CHECKED))
        sitedata_or_null(dc ? dc->checked_on : NULL, out);
    else
        return 0;
    return 1;
}

/* An install's commands: p is the struct answer_commands, at whether the
 * commands with the companions are kept. */
static void commands_get(const struct tmpl_value *v, const char *name, size_t len,
                         struct tmpl_value *out)
{
    const struct answer_commands *c = v->p;
    out->kind = TMPL_MISSING;
    const struct installcmd *with = &c->with_companions;
    if (IS("pip"))
        tmpl_value_str(c->install.pip_line ? c->install.pip_line : "", out);
    else if (IS("uv"))
        tmpl_value_str(c->install.uv_line ? c->install.uv_line : "", out);
    else if (IS("uv_min_version") && c->install.uv_from)
        tmpl_value_str(c->install.uv_from, out);
    else if (v->at && with->pip_line && IS("pip_with_companions"))
        tmpl_value_str(with->pip_line, out);
    else if (v->at && with->pip_line && IS("uv_with_companions"))
        tmpl_value_str(with->uv_line, out);
}

static const struct tmpl_type commands_type = {commands_get, NULL, NULL, NULL, 0};

/* torch's companions: p is the install. */
static void companions_get(const struct tmpl_value *v, const char *name, size_t len,
                           struct tmpl_value *out)
{
    const struct answer_install *i = v->p;
    out->kind = TMPL_MISSING;
    if (IS("torchvision"))
        tmpl_value_str(i->torchvision, out);
    else if (IS("torchaudio"))
        sitedata_or_null(i->torchaudio, out);
    else if (IS("note"))
        sitedata_or_null(i->companion_note, out);
}

static const struct tmpl_type companions_type = {companions_get, NULL, NULL, NULL, 0};

/* An install (answer_install_json, as the feed slims it): the
 * recommendation and the fallback keep everything and add their Pythons
 * in words; a driver-table line drops the reason, the companions and the
 * checked date; a stack's answer drops the source. */
enum install_kind { INSTALL_ANSWER, INSTALL_DRIVER_LINE, INSTALL_STACK };

static void install_field(const struct answer_install *i, enum install_kind kind,
                          const char *python_words, const char *name, size_t len,
                          struct tmpl_value *out)
{
    const struct dbview_row *r = i->row;
    out->kind = TMPL_MISSING;
    int keep = kind == INSTALL_ANSWER  ? KEEP_SOURCE | KEEP_CHECKED
               : kind == INSTALL_STACK ? KEEP_CHECKED
                                       : 0;
    if (provenance(r, keep, name, len, out))
        return;
    if (IS("index"))
        tmpl_value_str(r->variant, out);
    else if (IS("index_url"))
        tmpl_value_str(i->index_url, out);
    else if (IS("version"))
        tmpl_value_str(r->version, out);
    else if (IS("release"))
        tmpl_value_str(r->release, out);
    else if (IS("pin"))
        tmpl_value_str(i->pin, out);
    else if (IS("pin_text")) { /* the pin in words: "2.8" for 2.8.*, "1.3.0" */
        size_t n = strlen(i->pin);
        tmpl_value_strf(out, "%.*s", (int)(n >= 2 && strcmp(i->pin + n - 2, ".*") == 0 ? n - 2 : n),
                        i->pin);
    } else if (IS("verdict"))
        tmpl_value_str(compat_verdict_name(i->res.verdict), out);
    else if (IS("label"))
        tmpl_value_str(compat_verdict_label(i->res.verdict), out);
    else if (IS("symbol"))
        tmpl_value_str(grid_verdict_symbol(i->res.verdict), out);
    else if (IS("reason") && kind != INSTALL_DRIVER_LINE)
        tmpl_value_str(i->reason ? i->reason : "", out);
    else if (IS("min_driver")) /* in the driver table the floor is the decision */
        sitedata_or_null(answer_install_min_driver(i), out);
    else if (IS("full_driver") && !i->floor[0] && i->res.full_driver[0])
        tmpl_value_str(i->res.full_driver, out);
    else if (IS("python_versions"))
        pythons(&i->pythons, out);
    else if (IS("commands"))
        sitedata_object(&commands_type, &i->commands, kind != INSTALL_DRIVER_LINE, out);
    else if (IS("companions_omitted") && kind != INSTALL_DRIVER_LINE)
        sitedata_or_null(i->companions_omitted, out);
    else if (IS("companions") && i->torchvision && kind != INSTALL_DRIVER_LINE)
        sitedata_object(&companions_type, i, 0, out);
    else if (IS("fallback") && i->floor[0])
        tmpl_value_bool(i->fallback, out);
    else if (IS("python_text") && python_words)
        tmpl_value_str(python_words, out);
    else if (IS("uninstall_command") && kind == INSTALL_ANSWER)
        tmpl_value_str(installcmd_fixed_line(INSTALLCMD_UNINSTALL_TORCH), out);
    else if (IS("arch_list_command") && kind == INSTALL_ANSWER)
        tmpl_value_str(installcmd_fixed_line(INSTALLCMD_ARCH_LIST), out);
}

const char *sitedata_table_driver(const struct answer_result *r, const struct answer_install *i)
{
    for (size_t j = 0; i && j < r->nby_driver; j++)
        if (r->by_driver[j].row == i->row && strcmp(r->by_driver[j].pin, i->pin) == 0 &&
            r->by_driver[j].floor[0])
            return strcmp(r->by_driver[j].floor, answer_install_min_driver(i)) == 0
                       ? NULL /* the same driver: nothing to add */
                       : r->by_driver[j].floor;
    return NULL;
}

/* A platform's recommendation (at 0), fallback (1) or newest release with
 * code (2): p is the page's platform. */
static void answer_get(const struct tmpl_value *v, const char *name, size_t len,
                       struct tmpl_value *out)
{
    const struct sitedata_gpu_platform *x = v->p;
    const struct answer_result *r = x->res;
    const struct answer_install *i = v->at == 0   ? r->recommendation
                                     : v->at == 1 ? r->fallback
                                                  : r->newest_with_code;
    if (sitedata_name_is(name, len, "table_driver")) {
        /* the driver from which the driver table gives this very build:
         * what the headline names, so that it and the table agree */
        out->kind = TMPL_MISSING;
        const char *f = sitedata_table_driver(r, i);
        if (f)
            tmpl_value_str(f, out);
        return;
    }
    install_field(i, INSTALL_ANSWER, v->at < 2 ? x->python_text[v->at] : NULL, name, len, out);
}

static const struct tmpl_type answer_type = {answer_get, NULL, NULL, NULL, 0};

/* A line of the driver table: p is the answer, at the line. */
static void line_get(const struct tmpl_value *v, const char *name, size_t len,
                     struct tmpl_value *out)
{
    const struct answer_result *r = v->p;
    install_field(&r->by_driver[v->at], INSTALL_DRIVER_LINE, NULL, name, len, out);
}

static const struct tmpl_type line_type = {line_get, NULL, NULL, NULL, 0};

static size_t lines_len(const struct tmpl_value *v)
{
    return ((const struct answer_result *)v->p)->nby_driver;
}

static void lines_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    sitedata_object(&line_type, v->p, i, out);
}

static const struct tmpl_type lines_type = {NULL, lines_len, lines_at, NULL, 0};

/* Plain `pip install torch`: p is the page's platform. */
static void pypi_get(const struct tmpl_value *v, const char *name, size_t len,
                     struct tmpl_value *out)
{
    const struct sitedata_gpu_platform *x = v->p;
    const struct answer_pypi *py = &x->res->pypi;
    out->kind = TMPL_MISSING;
    /* a row that judged it speaks for its provenance (its confidence
     * included); none: no provenance */
    if (py->row && provenance(py->row, KEEP_CHECKED, name, len, out))
        return;
    if (IS("release"))
        tmpl_value_str(py->release, out);
    else if (IS("build"))
        tmpl_value_str(py->build, out);
    else if (IS("confidence"))
        sitedata_or_null(py->confidence, out);
    else if (IS("command"))
        tmpl_value_str(py->command.pip_line ? py->command.pip_line : "", out);
    else if (IS("verdict"))
        tmpl_value_str(py->unknown ? NULL : compat_verdict_name(py->verdict), out);
    else if (IS("label"))
        tmpl_value_str(py->row ? compat_verdict_label(py->verdict) : "no GPU code", out);
    else if (IS("symbol") && !py->unknown)
        tmpl_value_str(grid_verdict_symbol(py->verdict), out);
    else if (IS("runs"))
        tmpl_value_bool(py->runs, out);
    else if (IS("min_driver"))
        sitedata_or_null(py->row ? py->min_driver : NULL, out);
    else if (IS("python_wheel")) {
        if (py->python_wheel < 0)
            out->kind = TMPL_NULL;
        else
            tmpl_value_bool(py->python_wheel, out);
    } else if (IS("reason"))
        tmpl_value_str(py->reason, out);
    else if (IS("provenance"))
        tmpl_value_str("", out); /* no build speaks for it */
    else if (IS("has_answer"))
        tmpl_value_bool(answer_runs(x->res) != NULL, out);
    else if (IS("names_gpu_build")) /* "a cu130 build"; not "a cpu build", "a none build" */
        tmpl_value_bool(strcmp(py->build, "cpu") != 0 && strcmp(py->build, "none") != 0, out);
}

static const struct tmpl_type pypi_type = {pypi_get, NULL, NULL, NULL, 0};

/* The newest release with native code, per variant: p is the answer, at
 * the entry. */
static void native_get(const struct tmpl_value *v, const char *name, size_t len,
                       struct tmpl_value *out)
{
    const struct answer_native *n = &((const struct answer_result *)v->p)->last_native[v->at];
    out->kind = TMPL_MISSING;
    if (provenance(n->row, 0, name, len, out))
        return;
    if (IS("variant"))
        tmpl_value_str(n->row->variant, out);
    else if (IS("version"))
        tmpl_value_str(n->row->version, out);
    else if (IS("release"))
        tmpl_value_str(n->row->release, out);
    else if (IS("pin"))
        tmpl_value_str(n->pin, out);
}

static const struct tmpl_type native_type = {native_get, NULL, NULL, NULL, 0};

static size_t natives_len(const struct tmpl_value *v)
{
    return ((const struct answer_result *)v->p)->nlast_native;
}

static void natives_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    sitedata_object(&native_type, v->p, i, out);
}

static const struct tmpl_type natives_type = {NULL, natives_len, natives_at, NULL, 0};

/* What to do when no build has code: p is the struct answer_source_build. */
static size_t steps_len(const struct tmpl_value *v)
{
    return ((const struct answer_source_build *)v->p)->nsteps;
}

static void steps_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_value_str(((const struct answer_source_build *)v->p)->steps[i], out);
}

static const struct tmpl_type steps_type = {NULL, steps_len, steps_at, NULL, 0};

static void source_build_get(const struct tmpl_value *v, const char *name, size_t len,
                             struct tmpl_value *out)
{
    const struct answer_source_build *b = v->p;
    out->kind = TMPL_MISSING;
    if (IS("last_toolkit"))
        sitedata_or_null(b->last_toolkit, out);
    else if (IS("arch_list"))
        tmpl_value_str(b->arch_list, out);
    else if (IS("steps"))
        sitedata_array(&steps_type, b, 0, out);
}

static const struct tmpl_type source_build_type = {source_build_get, NULL, NULL, NULL, 0};

/* Where these wheels are not the answer (Jetson, an Arm host): p is the
 * struct answer_guidance. */
static void guidance_get(const struct tmpl_value *v, const char *name, size_t len,
                         struct tmpl_value *out)
{
    const struct answer_guidance *g = v->p;
    out->kind = TMPL_MISSING;
    if (IS("kind"))
        tmpl_value_str(g->kind, out);
    else if (IS("label"))
        tmpl_value_str(g->label, out);
    else if (IS("text"))
        tmpl_value_str(g->text, out);
    else if (IS("url"))
        sitedata_or_null(g->url, out);
}

static const struct tmpl_type guidance_type = {guidance_get, NULL, NULL, NULL, 0};

/* The versions a stack's "together" pins: p is the stack entry. */
static void versions_get(const struct tmpl_value *v, const char *name, size_t len,
                         struct tmpl_value *out)
{
    const struct stack_entry *e = v->p;
    out->kind = TMPL_MISSING;
    if (IS(e->res->project))
        tmpl_value_str(e->together.pin, out);
    else if (IS("torch"))
        tmpl_value_str(e->together.torch_pin, out);
}

static const struct tmpl_type versions_type = {versions_get, NULL, NULL, NULL, 0};

/* A companion that needs another torch: the one command for both. */
static void together_get(const struct tmpl_value *v, const char *name, size_t len,
                         struct tmpl_value *out)
{
    const struct stack_entry *e = v->p;
    out->kind = TMPL_MISSING;
    if (IS("index"))
        tmpl_value_str(e->together.index, out);
    else if (IS("index_url"))
        tmpl_value_str(e->together.index_url, out);
    else if (IS("versions"))
        sitedata_object(&versions_type, e, 0, out);
    else if (IS("commands"))
        sitedata_object(&commands_type, &e->together.commands, 1, out);
}

static const struct tmpl_type together_type = {together_get, NULL, NULL, NULL, 0};

/* A stack entry's answer: p is the entry. */
static void stack_answer_get(const struct tmpl_value *v, const char *name, size_t len,
                             struct tmpl_value *out)
{
    const struct stack_entry *e = v->p;
    install_field(answer_runs(e->res), INSTALL_STACK, NULL, name, len, out);
}

static const struct tmpl_type stack_answer_type = {stack_answer_get, NULL, NULL, NULL, 0};

/* Another project with torch on this GPU: p is the entry. */
static void entry_get(const struct tmpl_value *v, const char *name, size_t len,
                      struct tmpl_value *out)
{
    const struct stack_entry *e = v->p;
    const struct answer_result *r = e->res;
    out->kind = TMPL_MISSING;
    if (IS("project"))
        tmpl_value_str(r->project, out);
    else if (IS("release") || IS("newest"))
        tmpl_value_str(r->version, out);
    else if (IS("answer")) {
        if (answer_runs(r))
            sitedata_object(&stack_answer_type, e, 0, out);
        else
            out->kind = TMPL_NULL;
    } else if (IS("is_fallback"))
        tmpl_value_bool(answer_runs(r) && !r->recommendation, out);
    else if (IS("note") && e->note)
        tmpl_value_str(e->note, out);
    else if (IS("together") && e->has_together)
        sitedata_object(&together_type, e, 0, out);
}

static const struct tmpl_type entry_type = {entry_get, NULL, NULL, NULL, 0};

/* The stack a platform shows: p is the page's platform. */
static size_t stack_len(const struct tmpl_value *v)
{
    const struct sitedata_gpu_platform *x = v->p;
    return x->dev->nshown[x->p];
}

static void stack_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    const struct sitedata_gpu_platform *x = v->p;
    sitedata_object(&entry_type, x->dev->shown[x->p][i], 0, out);
}

static const struct tmpl_type stack_type = {NULL, stack_len, stack_at, NULL, 0};

int sitedata_answer_part(const struct sitedata_gpu_platform *x, const char *name, size_t len,
                         struct tmpl_value *out)
{
    const struct answer_result *r = x->res;
    if (IS("recommendation") || IS("fallback") || IS("newest_with_code")) {
        size_t at = IS("recommendation") ? 0 : IS("fallback") ? 1 : 2;
        const struct answer_install *i = at == 0   ? r->recommendation
                                         : at == 1 ? r->fallback
                                                   : r->newest_with_code;
        if (i)
            sitedata_object(&answer_type, x, at, out);
        else
            out->kind = TMPL_NULL;
    } else if (IS("by_driver"))
        sitedata_array(&lines_type, r, 0, out);
    else if (IS("pypi")) {
        if (r->pypi.present)
            sitedata_object(&pypi_type, x, 0, out);
        else
            out->kind = TMPL_NULL;
    } else if (IS("last_native"))
        sitedata_array(&natives_type, r, 0, out);
    else if (IS("way_forward")) {
        if (r->source_build.present)
            sitedata_object(&source_build_type, &r->source_build, 0, out);
        else
            out->kind = TMPL_NULL;
    } else if (IS("self_build")) {
        if (r->self_build.present)
            sitedata_object(&source_build_type, &r->self_build, 0, out);
        else
            out->kind = TMPL_NULL;
    } else if (IS("guidance")) {
        if (r->guidance.kind)
            sitedata_object(&guidance_type, &r->guidance, 0, out);
        else
            out->kind = TMPL_NULL;
    } else if (IS("stack") && x->dev->nshown[x->p])
        sitedata_array(&stack_type, x, 0, out);
    else
        return 0;
    return 1;
}

void sitedata_guidance_value(const struct answer_guidance *g, struct tmpl_value *out)
{
    sitedata_object(&guidance_type, g, 0, out);
}
