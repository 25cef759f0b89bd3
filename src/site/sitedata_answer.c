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
#include "vendorindex.h"
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
 * provenance, and source and checked_on where the value keeps them. */
enum { KEEP_SOURCE = 1, KEEP_CHECKED = 2 };

static const struct declared *declared_of(const struct dbview_row *r)
{
    return r->status == VIEW_DECLARED ? r->declared : NULL;
}

static void row_status(const struct dbview_row *r, struct tmpl_value *out)
{
    tmpl_value_str(dbview_status_name(r->status), out);
}

static void row_confidence(const struct dbview_row *r, struct tmpl_value *out)
{
    sitedata_or_null(dbview_row_confidence(r), out);
}

static void row_provenance(const struct dbview_row *r, struct tmpl_value *out)
{
    tmpl_value_str(dbview_row_provenance(r), out);
}

static void row_source(const struct dbview_row *r, struct tmpl_value *out)
{
    const struct declared *dc = declared_of(r);
    sitedata_or_null(dc ? dc->source : NULL, out);
}

static void row_checked_on(const struct dbview_row *r, struct tmpl_value *out)
{
    const struct declared *dc = declared_of(r);
    sitedata_or_null(dc ? dc->checked_on : NULL, out);
}

/* An install's commands: p is the struct answer_commands, at whether the
 * commands with the companions are kept. */
static void commands_pip(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_commands *c = v->p;
    tmpl_value_str(c->install.pip_line ? c->install.pip_line : "", out);
}

static void commands_uv(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_commands *c = v->p;
    tmpl_value_str(c->install.uv_line ? c->install.uv_line : "", out);
}

static void commands_uv_min_version(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_commands *c = v->p;
    if (c->install.uv_from)
        tmpl_value_str(c->install.uv_from, out);
}

/* The command with the companions, where kept: NULL otherwise. */
static const struct installcmd *with_companions(const struct tmpl_value *v)
{
    const struct answer_commands *c = v->p;
    return v->at && c->with_companions.pip_line ? &c->with_companions : NULL;
}

static void commands_pip_with_companions(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct installcmd *with = with_companions(v);
    if (with)
        tmpl_value_str(with->pip_line, out);
}

static void commands_uv_with_companions(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct installcmd *with = with_companions(v);
    if (with)
        tmpl_value_str(with->uv_line, out);
}

static const struct tmpl_field commands_fields[] = {
    TMPL_GET("pip", commands_pip),
    TMPL_GET("uv", commands_uv),
    TMPL_GET("uv_min_version", commands_uv_min_version),
    TMPL_GET("pip_with_companions", commands_pip_with_companions),
    TMPL_GET("uv_with_companions", commands_uv_with_companions),
};

static const struct tmpl_type commands_type = TMPL_FIELDS(commands_fields);

/* torch's companions: p is the install. */
static void companions_torchaudio(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_install *i = v->p;
    sitedata_or_null(i->torchaudio, out);
}

static void companions_note(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_install *i = v->p;
    sitedata_or_null(i->companion_note, out);
}

static const struct tmpl_field companions_fields[] = {
    TMPL_STR("torchvision", struct answer_install, torchvision),
    TMPL_GET("torchaudio", companions_torchaudio),
    TMPL_GET("note", companions_note),
};

static const struct tmpl_type companions_type = TMPL_FIELDS(companions_fields);

/* The vendor of a build on its own index (vendorindex.h): p is its row. */
static const struct tmpl_field vendor_fields[] = {
    TMPL_STR("name", struct vendor_build, vendor),
    TMPL_BOOL("preview", struct vendor_build, preview),
    TMPL_STR("note", struct vendor_build, note),
};

static const struct tmpl_type vendor_type = TMPL_FIELDS(vendor_fields);

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

/* An install (answer_install_json, as the feed slims it): the
 * recommendation and the fallback keep everything and add their Pythons
 * in words; a driver-table line drops the reason, the companions and the
 * checked date; a stack's answer drops the source.  Three types share one
 * table; install_of tells them apart by the value's type:
 *   answer_type        p is the page's platform, at 0 (recommendation), 1
 *                      (fallback) or 2 (newest release with code)
 *   line_type          p is the answer, at the driver table's line
 *   stack_answer_type  p is the stack entry
 * (C gives the three objects distinct addresses; a build that folds equal
 * constants, -fmerge-all-constants or a linker's --icf=all, would break
 * this, and the site's tests would show it.) */
enum install_kind { INSTALL_ANSWER, INSTALL_DRIVER_LINE, INSTALL_STACK };

static const struct tmpl_type answer_type, line_type, stack_answer_type;

struct install_view {
    const struct answer_result *r;
    const struct answer_install *i;
    enum install_kind kind;
    int keep;                 /* KEEP_SOURCE, KEEP_CHECKED */
    const char *python_words; /* its Pythons in words, or NULL */
};

static struct install_view install_of(const struct tmpl_value *v)
{
    struct install_view w = {0};
    if (v->type == &answer_type) {
        const struct sitedata_gpu_platform *x = v->p;
        w.r = x->res;
        w.i = v->at == 0 ? w.r->recommendation : v->at == 1 ? w.r->fallback : w.r->newest_with_code;
        w.kind = INSTALL_ANSWER;
        w.keep = KEEP_SOURCE | KEEP_CHECKED;
        w.python_words = v->at < 2 ? x->python_text[v->at] : NULL;
    } else if (v->type == &line_type) {
        w.r = v->p;
        w.i = &w.r->by_driver[v->at];
        w.kind = INSTALL_DRIVER_LINE;
    } else {
        const struct stack_entry *e = v->p;
        w.r = e->res;
        w.i = answer_runs(e->res);
        w.kind = INSTALL_STACK;
        w.keep = KEEP_CHECKED;
    }
    return w;
}

static const struct answer_install *install(const struct tmpl_value *v)
{
    return install_of(v).i;
}

static void install_status(const struct tmpl_value *v, struct tmpl_value *out)
{
    row_status(install(v)->row, out);
}

static void install_confidence(const struct tmpl_value *v, struct tmpl_value *out)
{
    row_confidence(install(v)->row, out);
}

static void install_provenance(const struct tmpl_value *v, struct tmpl_value *out)
{
    row_provenance(install(v)->row, out);
}

static void install_source(const struct tmpl_value *v, struct tmpl_value *out)
{
    struct install_view w = install_of(v);
    if (w.keep & KEEP_SOURCE)
        row_source(w.i->row, out);
}

static void install_checked_on(const struct tmpl_value *v, struct tmpl_value *out)
{
    struct install_view w = install_of(v);
    if (w.keep & KEEP_CHECKED)
        row_checked_on(w.i->row, out);
}

static void install_index(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(install(v)->row->variant, out);
}

static void install_index_url(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(install(v)->index_url, out);
}

static void install_version(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(install(v)->row->version, out);
}

static void install_release(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(install(v)->row->release, out);
}

static void install_pin(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(install(v)->pin, out);
}

/* The pin in words: "2.8" for 2.8.*, "1.3.0". */
static void install_pin_text(const struct tmpl_value *v, struct tmpl_value *out)
{
    const char *pin = install(v)->pin;
    size_t n = strlen(pin);
    tmpl_value_strf(out, "%.*s", (int)(n >= 2 && strcmp(pin + n - 2, ".*") == 0 ? n - 2 : n), pin);
}

static void install_verdict(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(compat_verdict_name(install(v)->res.verdict), out);
}

static void install_label(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(compat_verdict_label(install(v)->res.verdict), out);
}

static void install_symbol(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(grid_verdict_symbol(install(v)->res.verdict), out);
}

static void install_reason(const struct tmpl_value *v, struct tmpl_value *out)
{
    struct install_view w = install_of(v);
    if (w.kind != INSTALL_DRIVER_LINE)
        tmpl_value_str(w.i->reason ? w.i->reason : "", out);
}

/* In the driver table the floor is the decision. */
static void install_min_driver(const struct tmpl_value *v, struct tmpl_value *out)
{
    sitedata_or_null(answer_install_min_driver(install(v)), out);
}

static void install_full_driver(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_install *i = install(v);
    if (!i->floor[0] && i->res.full_driver[0])
        tmpl_value_str(i->res.full_driver, out);
}

static void install_python_versions(const struct tmpl_value *v, struct tmpl_value *out)
{
    pythons(&install(v)->pythons, out);
}

static void install_commands(const struct tmpl_value *v, struct tmpl_value *out)
{
    struct install_view w = install_of(v);
    sitedata_object(&commands_type, &w.i->commands, w.kind != INSTALL_DRIVER_LINE, out);
}

static void install_companions_omitted(const struct tmpl_value *v, struct tmpl_value *out)
{
    struct install_view w = install_of(v);
    if (w.kind != INSTALL_DRIVER_LINE)
        sitedata_or_null(w.i->companions_omitted, out);
}

static void install_companions(const struct tmpl_value *v, struct tmpl_value *out)
{
    struct install_view w = install_of(v);
    if (w.i->torchvision && w.kind != INSTALL_DRIVER_LINE)
        sitedata_object(&companions_type, w.i, 0, out);
}

static void install_vendor(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct vendor_build *b = install(v)->row->vendor;
    if (b)
        sitedata_object(&vendor_type, b, 0, out);
}

static void install_fallback(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_install *i = install(v);
    if (i->floor[0])
        tmpl_value_bool(i->fallback, out);
}

static void install_python_text(const struct tmpl_value *v, struct tmpl_value *out)
{
    struct install_view w = install_of(v);
    if (w.python_words)
        tmpl_value_str(w.python_words, out);
}

static void install_uninstall_command(const struct tmpl_value *v, struct tmpl_value *out)
{
    if (install_of(v).kind == INSTALL_ANSWER)
        tmpl_value_str(installcmd_fixed_line(INSTALLCMD_UNINSTALL_TORCH), out);
}

static void install_arch_list_command(const struct tmpl_value *v, struct tmpl_value *out)
{
    if (install_of(v).kind == INSTALL_ANSWER)
        tmpl_value_str(installcmd_fixed_line(INSTALLCMD_ARCH_LIST), out);
}

/* The driver from which the driver table gives this very build: what the
 * headline names, so that it and the table agree (an answer's only). */
static void install_table_driver(const struct tmpl_value *v, struct tmpl_value *out)
{
    struct install_view w = install_of(v);
    const char *f = w.kind == INSTALL_ANSWER ? sitedata_table_driver(w.r, w.i) : NULL;
    if (f)
        tmpl_value_str(f, out);
}

static const struct tmpl_field install_fields[] = {
    TMPL_GET("status", install_status),
    TMPL_GET("confidence", install_confidence),
    TMPL_GET("provenance", install_provenance),
    TMPL_GET("source", install_source),
    TMPL_GET("checked_on", install_checked_on),
    TMPL_GET("index", install_index),
    TMPL_GET("index_url", install_index_url),
    TMPL_GET("version", install_version),
    TMPL_GET("release", install_release),
    TMPL_GET("pin", install_pin),
    TMPL_GET("pin_text", install_pin_text),
    TMPL_GET("verdict", install_verdict),
    TMPL_GET("label", install_label),
    TMPL_GET("symbol", install_symbol),
    TMPL_GET("reason", install_reason),
    TMPL_GET("min_driver", install_min_driver),
    TMPL_GET("full_driver", install_full_driver),
    TMPL_GET("python_versions", install_python_versions),
    TMPL_GET("commands", install_commands),
    TMPL_GET("companions_omitted", install_companions_omitted),
    TMPL_GET("companions", install_companions),
    TMPL_GET("vendor_index", install_vendor),
    TMPL_GET("fallback", install_fallback),
    TMPL_GET("python_text", install_python_text),
    TMPL_GET("uninstall_command", install_uninstall_command),
    TMPL_GET("arch_list_command", install_arch_list_command),
    TMPL_GET("table_driver", install_table_driver),
};

static const struct tmpl_type answer_type = TMPL_FIELDS(install_fields);
static const struct tmpl_type line_type = TMPL_FIELDS(install_fields);
static const struct tmpl_type stack_answer_type = TMPL_FIELDS(install_fields);

static size_t lines_len(const struct tmpl_value *v)
{
    return ((const struct answer_result *)v->p)->nby_driver;
}

static void lines_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    sitedata_object(&line_type, v->p, i, out);
}

static const struct tmpl_type lines_type = {NULL, lines_len, lines_at, NULL, 0};

/* Plain `pip install torch`: p is the page's platform.  A row that judged
 * it speaks for its provenance (its confidence included); none: no
 * provenance. */
static const struct answer_pypi *pypi_of(const struct tmpl_value *v)
{
    return &((const struct sitedata_gpu_platform *)v->p)->res->pypi;
}

static void pypi_status(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_pypi *py = pypi_of(v);
    if (py->row)
        row_status(py->row, out);
}

static void pypi_confidence(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_pypi *py = pypi_of(v);
    if (py->row)
        row_confidence(py->row, out);
    else
        sitedata_or_null(py->confidence, out);
}

static void pypi_provenance(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_pypi *py = pypi_of(v);
    if (py->row)
        row_provenance(py->row, out);
    else
        tmpl_value_str("", out); /* no build speaks for it */
}

static void pypi_checked_on(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_pypi *py = pypi_of(v);
    if (py->row)
        row_checked_on(py->row, out);
}

static void pypi_command(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_pypi *py = pypi_of(v);
    tmpl_value_str(py->command.pip_line ? py->command.pip_line : "", out);
}

static void pypi_verdict(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_pypi *py = pypi_of(v);
    tmpl_value_str(py->unknown ? NULL : compat_verdict_name(py->verdict), out);
}

static void pypi_label(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_pypi *py = pypi_of(v);
    tmpl_value_str(py->row ? compat_verdict_label(py->verdict) : "no GPU code", out);
}

static void pypi_symbol(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_pypi *py = pypi_of(v);
    if (!py->unknown)
        tmpl_value_str(grid_verdict_symbol(py->verdict), out);
}

static void pypi_runs(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_bool(pypi_of(v)->runs, out);
}

static void pypi_min_driver(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_pypi *py = pypi_of(v);
    sitedata_or_null(py->row ? py->min_driver : NULL, out);
}

static void pypi_python_wheel(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_pypi *py = pypi_of(v);
    if (py->python_wheel < 0)
        out->kind = TMPL_NULL;
    else
        tmpl_value_bool(py->python_wheel, out);
}

static void pypi_has_answer(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_platform *x = v->p;
    tmpl_value_bool(answer_runs(x->res) != NULL, out);
}

/* "a cu130 build"; not "a cpu build", "a none build" */
static void pypi_names_gpu_build(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_pypi *py = pypi_of(v);
    tmpl_value_bool(strcmp(py->build, "cpu") != 0 && strcmp(py->build, "none") != 0, out);
}

static void pypi_release(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(pypi_of(v)->release, out);
}

static void pypi_build(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(pypi_of(v)->build, out);
}

static void pypi_reason(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(pypi_of(v)->reason, out);
}

static const struct tmpl_field pypi_fields[] = {
    TMPL_GET("status", pypi_status),
    TMPL_GET("confidence", pypi_confidence),
    TMPL_GET("provenance", pypi_provenance),
    TMPL_GET("checked_on", pypi_checked_on),
    TMPL_GET("release", pypi_release),
    TMPL_GET("build", pypi_build),
    TMPL_GET("command", pypi_command),
    TMPL_GET("verdict", pypi_verdict),
    TMPL_GET("label", pypi_label),
    TMPL_GET("symbol", pypi_symbol),
    TMPL_GET("runs", pypi_runs),
    TMPL_GET("min_driver", pypi_min_driver),
    TMPL_GET("python_wheel", pypi_python_wheel),
    TMPL_GET("reason", pypi_reason),
    TMPL_GET("has_answer", pypi_has_answer),
    TMPL_GET("names_gpu_build", pypi_names_gpu_build),
};

static const struct tmpl_type pypi_type = TMPL_FIELDS(pypi_fields);

/* The newest release with native code, per variant: p is the answer, at
 * the entry. */
static const struct answer_native *native_of(const struct tmpl_value *v)
{
    return &((const struct answer_result *)v->p)->last_native[v->at];
}

static void native_status(const struct tmpl_value *v, struct tmpl_value *out)
{
    row_status(native_of(v)->row, out);
}

static void native_confidence(const struct tmpl_value *v, struct tmpl_value *out)
{
    row_confidence(native_of(v)->row, out);
}

static void native_provenance(const struct tmpl_value *v, struct tmpl_value *out)
{
    row_provenance(native_of(v)->row, out);
}

static void native_variant(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(native_of(v)->row->variant, out);
}

static void native_version(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(native_of(v)->row->version, out);
}

static void native_release(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(native_of(v)->row->release, out);
}

static void native_pin(const struct tmpl_value *v, struct tmpl_value *out)
{
    tmpl_value_str(native_of(v)->pin, out);
}

static const struct tmpl_field native_fields[] = {
    TMPL_GET("status", native_status),
    TMPL_GET("confidence", native_confidence),
    TMPL_GET("provenance", native_provenance),
    TMPL_GET("variant", native_variant),
    TMPL_GET("version", native_version),
    TMPL_GET("release", native_release),
    TMPL_GET("pin", native_pin),
};

static const struct tmpl_type native_type = TMPL_FIELDS(native_fields);

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

static void source_build_last_toolkit(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_source_build *b = v->p;
    sitedata_or_null(b->last_toolkit, out);
}

static void source_build_steps(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_source_build *b = v->p;
    sitedata_array(&steps_type, b, 0, out);
}

static const struct tmpl_field source_build_fields[] = {
    TMPL_GET("last_toolkit", source_build_last_toolkit),
    TMPL_CHARS("arch_list", struct answer_source_build, arch_list),
    TMPL_GET("steps", source_build_steps),
};

static const struct tmpl_type source_build_type = TMPL_FIELDS(source_build_fields);

/* Where these wheels are not the answer (Jetson, an Arm host): p is the
 * struct answer_guidance. */
static void guidance_url(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_guidance *g = v->p;
    sitedata_or_null(g->url, out);
}

static const struct tmpl_field guidance_fields[] = {
    TMPL_STR("kind", struct answer_guidance, kind),
    TMPL_STR("label", struct answer_guidance, label),
    TMPL_STR("text", struct answer_guidance, text),
    TMPL_GET("url", guidance_url),
};

static const struct tmpl_type guidance_type = TMPL_FIELDS(guidance_fields);

/* The versions a stack's "together" pins, by project name: p is the stack
 * entry.  A map keyed by the data (the project), so no field table. */
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
static void together_index(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct stack_entry *e = v->p;
    tmpl_value_str(e->together.index, out);
}

static void together_index_url(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct stack_entry *e = v->p;
    tmpl_value_str(e->together.index_url, out);
}

static void together_versions(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct stack_entry *e = v->p;
    sitedata_object(&versions_type, e, 0, out);
}

static void together_commands(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct stack_entry *e = v->p;
    sitedata_object(&commands_type, &e->together.commands, 1, out);
}

static const struct tmpl_field together_fields[] = {
    TMPL_GET("index", together_index),
    TMPL_GET("index_url", together_index_url),
    TMPL_GET("versions", together_versions),
    TMPL_GET("commands", together_commands),
};

static const struct tmpl_type together_type = TMPL_FIELDS(together_fields);

/* Another project with torch on this GPU: p is the entry. */
static void entry_project(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct stack_entry *e = v->p;
    const struct answer_result *r = e->res;
    tmpl_value_str(r->project, out);
}

static void entry_release(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct stack_entry *e = v->p;
    const struct answer_result *r = e->res;
    tmpl_value_str(r->version, out);
}

static void entry_answer(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct stack_entry *e = v->p;
    const struct answer_result *r = e->res;
    if (answer_runs(r))
        sitedata_object(&stack_answer_type, e, 0, out);
    else
        out->kind = TMPL_NULL;
}

static void entry_is_fallback(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct stack_entry *e = v->p;
    const struct answer_result *r = e->res;
    tmpl_value_bool(answer_runs(r) && !r->recommendation, out);
}

static void entry_note(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct stack_entry *e = v->p;
    if (e->note)
        tmpl_value_str(e->note, out);
}

static void entry_together(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct stack_entry *e = v->p;
    if (e->has_together)
        sitedata_object(&together_type, e, 0, out);
}

static const struct tmpl_field entry_fields[] = {
    TMPL_GET("project", entry_project),         TMPL_GET("release", entry_release),
    TMPL_GET("newest", entry_release),          TMPL_GET("answer", entry_answer),
    TMPL_GET("is_fallback", entry_is_fallback), TMPL_GET("note", entry_note),
    TMPL_GET("together", entry_together),
};

static const struct tmpl_type entry_type = TMPL_FIELDS(entry_fields);

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

/* ---- a platform's answer: the getters the GPU page's platform rows name */

/* An install of the platform's answer (0 recommendation, 1 fallback, 2
 * the newest release with code), or null where it has none. */
static void answer_install_value(const struct tmpl_value *v, size_t at, struct tmpl_value *out)
{
    const struct answer_result *r = ((const struct sitedata_gpu_platform *)v->p)->res;
    const struct answer_install *i = at == 0   ? r->recommendation
                                     : at == 1 ? r->fallback
                                               : r->newest_with_code;
    if (i)
        sitedata_object(&answer_type, v->p, at, out);
    else
        out->kind = TMPL_NULL;
}

void sitedata_answer_recommendation(const struct tmpl_value *v, struct tmpl_value *out)
{
    answer_install_value(v, 0, out);
}

void sitedata_answer_fallback(const struct tmpl_value *v, struct tmpl_value *out)
{
    answer_install_value(v, 1, out);
}

void sitedata_answer_newest_with_code(const struct tmpl_value *v, struct tmpl_value *out)
{
    answer_install_value(v, 2, out);
}

static const struct answer_result *result_of(const struct tmpl_value *v)
{
    return ((const struct sitedata_gpu_platform *)v->p)->res;
}

void sitedata_answer_by_driver(const struct tmpl_value *v, struct tmpl_value *out)
{
    sitedata_array(&lines_type, result_of(v), 0, out);
}

void sitedata_answer_pypi(const struct tmpl_value *v, struct tmpl_value *out)
{
    if (result_of(v)->pypi.present)
        sitedata_object(&pypi_type, v->p, 0, out);
    else
        out->kind = TMPL_NULL;
}

void sitedata_answer_last_native(const struct tmpl_value *v, struct tmpl_value *out)
{
    sitedata_array(&natives_type, result_of(v), 0, out);
}

static void source_build_value(const struct answer_source_build *b, struct tmpl_value *out)
{
    if (b->present)
        sitedata_object(&source_build_type, b, 0, out);
    else
        out->kind = TMPL_NULL;
}

void sitedata_answer_way_forward(const struct tmpl_value *v, struct tmpl_value *out)
{
    source_build_value(&result_of(v)->source_build, out);
}

void sitedata_answer_self_build(const struct tmpl_value *v, struct tmpl_value *out)
{
    source_build_value(&result_of(v)->self_build, out);
}

void sitedata_answer_guidance(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct answer_guidance *g = &result_of(v)->guidance;
    if (g->kind)
        sitedata_object(&guidance_type, g, 0, out);
    else
        out->kind = TMPL_NULL;
}

void sitedata_answer_stack(const struct tmpl_value *v, struct tmpl_value *out)
{
    const struct sitedata_gpu_platform *x = v->p;
    if (x->dev->nshown[x->p])
        sitedata_array(&stack_type, x, 0, out);
}

void sitedata_guidance_value(const struct answer_guidance *g, struct tmpl_value *out)
{
    sitedata_object(&guidance_type, g, 0, out);
}
