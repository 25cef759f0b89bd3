/*
 * answer_json: an answer as JSON (answer_json.h, docs/answers.md).
 */
#include "answer_json.h"

#include <stdio.h>
#include <string.h>

#include "jetson.h"
#include "tables_releases.h"
#include "target.h"
#include "vendorindex.h"

/* s as a JSON string, or null when it is NULL or "" (a feed says null for
 * a field it has no value for). */
static json_t *nonempty_or_null(const char *s)
{
    return s && *s ? json_string(s) : json_null();
}

/* Provenance of a row: status, the same in words, and for a declared row
 * its confidence, source and the date it was checked. */
static void set_provenance(json_t *x, const struct dbview_row *r)
{
    json_object_set_new(x, "status", json_string(dbview_status_name(r->status)));
    const struct declared *d = r->status == VIEW_DECLARED ? r->declared : NULL;
    json_object_set_new(x, "confidence", nonempty_or_null(dbview_row_confidence(r)));
    json_object_set_new(x, "provenance", json_string(dbview_row_provenance(r)));
    json_object_set_new(x, "source", nonempty_or_null(d ? d->source : NULL));
    json_object_set_new(x, "checked_on", nonempty_or_null(d ? d->checked_on : NULL));
    json_object_set_new(x, "scanned_at", nonempty_or_null(r->scanned_at));
    /* only where a vendor publishes the build on its own index */
    if (r->vendor) {
        json_t *v = json_object();
        json_object_set_new(v, "name", json_string(r->vendor->vendor));
        json_object_set_new(v, "preview", json_boolean(r->vendor->preview));
        json_object_set_new(v, "note", json_string(r->vendor->note));
        json_object_set_new(v, "version",
                            json_sprintf("%s+%s", r->vendor->version, r->vendor->variant));
        json_object_set_new(v, "gpu_extra", nonempty_or_null(r->vendor->gpu_extra));
        json_object_set_new(x, "vendor", v);
    }
}

/* ["3.10", ..., "3.13t"], null when the data does not say. */
static json_t *pythons_json(const struct answer_pythons *p)
{
    if (!p->n)
        return json_null();
    json_t *out = json_array();
    for (size_t i = 0; i < p->n; i++)
        json_array_append_new(out, json_string(p->v[i]));
    return out;
}

json_t *answer_argv_json(const struct shellcmd *s)
{
    json_t *steps = json_array();
    for (size_t k = 0; k < shellcmd_steps(s); k++) {
        char *const *argv;
        size_t argc;
        shellcmd_step(s, k, &argv, &argc);
        json_t *a = json_array();
        for (size_t i = 0; i < argc; i++)
            json_array_append_new(a, json_string(argv[i]));
        json_array_append_new(steps, a);
    }
    return steps;
}

/* c's lines under pip<suffix> and uv<suffix> of x, their argument vectors
 * under the same keys of argv, and the uv release its uv line needs. */
static void installcmd_json(const struct installcmd *c, const char *suffix, json_t *x, json_t *argv)
{
    char key[64];
    snprintf(key, sizeof key, "pip%s", suffix);
    json_object_set_new(x, key, nonempty_or_null(c->pip_line));
    json_object_set_new(argv, key, c->pip_line ? answer_argv_json(&c->pip) : json_null());
    snprintf(key, sizeof key, "uv%s", suffix);
    json_object_set_new(x, key, nonempty_or_null(c->uv_line));
    json_object_set_new(argv, key, c->uv_line ? answer_argv_json(&c->uv) : json_null());
    snprintf(key, sizeof key, "uv%s_min_version", suffix);
    json_object_set_new(x, key, nonempty_or_null(c->uv_from));
}

json_t *answer_installcmd_json(const struct installcmd *c)
{
    json_t *x = json_object(), *argv = json_object();
    installcmd_json(c, "", x, argv);
    json_object_set_new(x, "argv", argv);
    return x;
}

json_t *answer_commands_json(const struct answer_commands *c)
{
    json_t *x = json_object(), *argv = json_object();
    installcmd_json(&c->install, "", x, argv);
    if (c->with_companions.pip_line)
        installcmd_json(&c->with_companions, "_with_companions", x, argv);
    json_object_set_new(x, "argv", argv);
    return x;
}

/* A row's verdict: platform, code, Python and driver apart, the headline
 * the first that blocks. */
static void verdict_json(const struct answer_result *a, const struct verdict *v, json_t *x)
{
    const struct compat_result *r = &v->res;
    char label[48];
    json_object_set_new(x, "min_driver", nonempty_or_null(r->min_driver));
    json_object_set_new(x, "verdict", json_string(compat_verdict_name(r->verdict)));
    json_object_set_new(
        x, "label",
        json_string(verdict_label(v, a->python, a->python_free_threaded, label, sizeof label)));
    json_object_set_new(x, "reason", json_string(r->reason));
    json_object_set_new(x, "code", json_string(compat_verdict_name(v->code)));
    json_object_set_new(x, "code_reason", json_string(r->code_reason));
    json_object_set_new(x, "driver_blocks", json_boolean(v->driver_blocks));
    json_object_set_new(x, "needed_driver", nonempty_or_null(r->needed_driver));
    json_object_set_new(x, "python_wheel", v->python < 0 ? json_null() : json_boolean(v->python));
    json_object_set_new(x, "blocked_by", nonempty_or_null(verdict_block_name(v->blocked_by)));
    json_object_set_new(x, "runs", json_boolean(v->runs));
    if (r->has_via) {
        char name[TARGET_NAME_MAX];
        target_format(&r->via, name, sizeof name);
        json_object_set_new(x, "via", json_string(name));
    } else {
        json_object_set_new(x, "via", json_null());
    }
}

static json_t *row_json(const struct answer_result *a, const struct answer_row *ar)
{
    const struct dbview_row *r = ar->row;
    json_t *x = json_object();
    json_object_set_new(x, "variant", json_string(r->variant));
    json_object_set_new(x, "version", json_string(r->version));
    json_object_set_new(x, "index_url", json_string(ar->index_url));
    set_provenance(x, r);
    json_object_set_new(x, "cuda", nonempty_or_null(ar->cuda));
    verdict_json(a, &ar->v, x);
    json_object_set_new(x, "python_versions", pythons_json(&ar->pythons));
    json_object_set_new(x, "modules", json_integer((json_int_t)ar->v.res.modules));
    json_object_set_new(x, "differences", dbview_row_differences(r));
    return x;
}

json_t *answer_install_json(const struct answer_result *a, const struct answer_install *i)
{
    (void)a;
    const struct dbview_row *r = i->row;
    json_t *x = json_object();
    json_object_set_new(x, "index", json_string(r->variant));
    json_object_set_new(x, "index_url", json_string(i->index_url));
    json_object_set_new(x, "version", json_string(r->version));
    json_object_set_new(x, "release", json_string(r->release));
    json_object_set_new(x, "pin", json_string(i->pin));
    json_object_set_new(x, "extra", nonempty_or_null(i->extra));
    json_object_set_new(x, "verdict", json_string(compat_verdict_name(i->res.verdict)));
    json_object_set_new(x, "label", json_string(compat_verdict_label(i->res.verdict)));
    json_object_set_new(x, "reason", json_string(i->reason ? i->reason : ""));
    /* in the driver table the floor is the decision */
    json_object_set_new(x, "min_driver", nonempty_or_null(answer_install_min_driver(i)));
    if (!i->floor[0] && i->res.full_driver[0])
        json_object_set_new(x, "full_driver", json_string(i->res.full_driver));
    set_provenance(x, r);
    json_object_set_new(x, "python_versions", pythons_json(&i->pythons));
    json_object_set_new(x, "commands", answer_commands_json(&i->commands));
    if (i->torchvision || i->torchaudio || i->companions_omitted) {
        json_t *k = json_object();
        json_object_set_new(k, "torchvision", nonempty_or_null(i->torchvision));
        json_object_set_new(k, "torchaudio", nonempty_or_null(i->torchaudio));
        json_object_set_new(k, "note", nonempty_or_null(i->companion_note));
        /* a companion the data has no wheel of here, and why */
        json_object_set_new(k, "omitted", nonempty_or_null(i->companions_omitted));
        json_object_set_new(x, "companions", k);
    }
    if (i->floor[0])
        json_object_set_new(x, "fallback", json_boolean(i->fallback));
    return x;
}

static json_t *install_or_null(const struct answer_result *a, const struct answer_install *i)
{
    return i ? answer_install_json(a, i) : json_null();
}

json_t *answer_change_json(const struct answer_change *s)
{
    static const char *const kinds[] = {"driver", "python", "release", "source"};
    json_t *x = json_object();
    json_object_set_new(x, "kind", json_string(kinds[s->kind]));
    switch (s->kind) {
    case ANSWER_CHANGE_DRIVER:
        json_object_set_new(x, "min_driver", json_string(s->min_driver));
        json_object_set_new(x, "release", json_string(s->release));
        break;
    case ANSWER_CHANGE_PYTHON:
        json_object_set_new(x, "release", json_string(s->release));
        json_object_set_new(x, "pin", json_string(s->pin));
        json_object_set_new(x, "python", json_string(s->python));
        json_object_set_new(x, "python_versions", pythons_json(&s->pythons));
        json_object_set_new(x, "min_driver", nonempty_or_null(s->min_driver));
        break;
    case ANSWER_CHANGE_RELEASE:
        json_object_set_new(x, "release", json_string(s->release));
        json_object_set_new(x, "pin", json_string(s->pin));
        json_object_set_new(x, "index", json_string(s->index));
        break;
    default:
        break;
    }
    json_object_set_new(x, "text", json_string(s->text));
    if (s->kind == ANSWER_CHANGE_RELEASE)
        json_object_set_new(x, "commands", answer_commands_json(&s->commands));
    return x;
}

json_t *answer_pypi_json(const struct answer_pypi *p)
{
    if (!p->present)
        return json_null();
    json_t *x = json_object();
    json_object_set_new(x, "release", json_string(p->release));
    json_object_set_new(x, "build", json_string(p->build));
    json_object_set_new(x, "confidence", nonempty_or_null(p->confidence));
    json_object_set_new(x, "command", nonempty_or_null(p->command.pip_line));
    json_object_set_new(x, "commands", answer_installcmd_json(&p->command));
    json_object_set_new(x, "verdict",
                        p->unknown ? json_null() : json_string(compat_verdict_name(p->verdict)));
    json_object_set_new(x, "label",
                        json_string(p->row ? compat_verdict_label(p->verdict) : "no GPU code"));
    json_object_set_new(x, "runs", json_boolean(p->runs));
    json_object_set_new(x, "min_driver", p->row ? nonempty_or_null(p->min_driver) : json_null());
    json_object_set_new(x, "python_wheel",
                        p->python_wheel < 0 ? json_null() : json_boolean(p->python_wheel));
    json_object_set_new(x, "python_versions", pythons_json(&p->pythons));
    json_object_set_new(x, "reason", json_string(p->reason));
    if (p->row)
        set_provenance(x, p->row);
    else
        json_object_set_new(x, "provenance", json_string("")); /* no build speaks for it */
    return x;
}

json_t *answer_native_json(const struct answer_native *n)
{
    const struct dbview_row *r = n->row;
    json_t *x = json_object();
    json_object_set_new(x, "variant", json_string(r->variant));
    json_object_set_new(x, "version", json_string(r->version));
    json_object_set_new(x, "release", json_string(r->release));
    json_object_set_new(x, "pin", json_string(n->pin));
    set_provenance(x, r);
    return x;
}

json_t *answer_source_build_json(const struct answer_source_build *b)
{
    if (!b->present)
        return json_null();
    json_t *x = json_object();
    json_object_set_new(x, "last_toolkit", nonempty_or_null(b->last_toolkit));
    json_object_set_new(x, "arch_list", json_string(b->arch_list));
    json_t *steps = json_array();
    for (size_t i = 0; i < b->nsteps; i++)
        json_array_append_new(steps, json_string(b->steps[i]));
    json_object_set_new(x, "steps", steps);
    return x;
}

json_t *answer_guidance_json(const struct answer_guidance *g)
{
    if (!g->kind)
        return json_null();
    json_t *x = json_object();
    json_object_set_new(x, "kind", json_string(g->kind));
    json_object_set_new(x, "label", json_string(g->label));
    json_object_set_new(x, "text", json_string(g->text));
    json_object_set_new(x, "url", nonempty_or_null(g->url));
    if (strcmp(g->kind, "jetson") == 0) {
        /* NVIDIA's own builds for this Jetson, newest JetPack first */
        json_t *builds = json_array();
        for (size_t i = 0; i < g->njetson; i++) {
            const struct jetson_build *b = g->jetson[i];
            json_t *o = json_object(), *torch = json_array();
            json_object_set_new(o, "jetpack", json_string(b->jetpack));
            json_object_set_new(o, "l4t", json_string(b->l4t));
            json_object_set_new(o, "cuda", json_string(b->cuda));
            json_object_set_new(o, "python", json_string(b->python));
            for (const char *p = b->torch; *p;) {
                size_t n = strcspn(p, ";");
                json_array_append_new(torch, json_stringn(p, n));
                p += n + (p[n] == ';');
            }
            json_object_set_new(o, "torch", torch);
            json_object_set_new(o, "index_url",
                                b->index_url[0] ? json_string(b->index_url) : json_null());
            json_object_set_new(o, "where", json_string(b->where));
            json_object_set_new(o, "commands",
                                g->jetson_commands[i].pip_line
                                    ? answer_installcmd_json(&g->jetson_commands[i])
                                    : json_null());
            json_object_set_new(o, "source", json_string(b->source));
            json_object_set_new(o, "checked_on", json_string(b->checked_on));
            json_array_append_new(builds, o);
        }
        json_object_set_new(x, "jetson_builds", builds);
    }
    return x;
}

static json_t *gpu_json(const struct answer_result *a)
{
    json_t *g = json_object();
    json_object_set_new(g, "name", nonempty_or_null(a->gpu_name));
    json_object_set_new(g, "vendor", json_string(a->amd ? "amd" : "nvidia"));
    json_object_set_new(g, "compute_capability", a->amd ? json_null() : json_string(a->device));
    json_object_set_new(g, "gfx", a->amd ? json_string(a->device) : json_null());
    json_object_set_new(g, "gfx_target", a->amd ? json_string(a->gfx_target) : json_null());
    json_object_set_new(g, "device", json_string(a->device)); /* "8.6" or "gfx1100" */
    json_object_set_new(g, "architecture", nonempty_or_null(a->architecture));
    json_object_set_new(g, "tegra", json_boolean(a->tegra));
    /* NVIDIA's last driver branch for it: no answer needs a later one */
    if (a->last_branch[0]) {
        json_t *b = json_object();
        json_object_set_new(b, "branch", json_string(a->last_branch));
        json_object_set_new(b, "cuda", json_string(a->last_branch_cuda));
        json_object_set_new(g, "last_driver_branch", b);
    } else {
        json_object_set_new(g, "last_driver_branch", json_null());
    }
    return g;
}

json_t *answer_json(const struct answer_result *a)
{
    json_t *out = json_object();
    json_object_set_new(out, "schema_version", json_integer(QUERY_SCHEMA_VERSION));
    json_object_set_new(out, "gpu", gpu_json(a));
    if (a->has_driver) {
        json_t *d = json_object();
        json_object_set_new(d, "version", json_string(a->driver_text));
        json_object_set_new(d, "cuda", nonempty_or_null(a->driver_cuda));
        json_object_set_new(d, "beyond_last_branch", json_boolean(a->driver_beyond_branch));
        json_object_set_new(out, "driver", d);
    } else {
        json_object_set_new(out, "driver", json_null());
    }
    if (a->has_python) {
        json_t *py = json_object();
        char pys[16];
        tables_python_format(a->python, 0, pys, sizeof pys);
        json_object_set_new(py, "version", json_string(pys));
        json_object_set_new(py, "free_threaded", json_boolean(a->python_free_threaded));
        json_object_set_new(py, "source", nonempty_or_null(a->python_source));
        json_object_set_new(out, "python", py);
    } else {
        json_object_set_new(out, "python", json_null());
    }
    json_object_set_new(out, "project", json_string(a->project));
    json_object_set_new(out, "version", json_string(a->version));
    json_object_set_new(out, "platform", json_string(a->platform));
    json_object_set_new(out, "applies", json_boolean(a->applies));
    json_t *rows = json_array();
    for (size_t i = 0; i < a->nrows; i++)
        json_array_append_new(rows, row_json(a, &a->rows[i]));
    json_object_set_new(out, "variants", rows);
    json_t *rec = install_or_null(a, a->recommendation);
    json_t *fb = install_or_null(a, a->fallback);
    json_object_set_new(out, "recommendation", rec);
    json_object_set_new(out, "fallback", fb);
    /* the three questions apart: the newest release with code whatever the
     * driver, the newest that runs as things are, and what to change */
    json_object_set_new(out, "newest_with_code", install_or_null(a, a->newest_with_code));
    json_object_set_new(out, "newest_that_runs", json_incref(json_is_object(rec) ? rec : fb));
    json_t *change = json_array();
    for (size_t i = 0; i < a->nchange; i++)
        json_array_append_new(change, answer_change_json(&a->change[i]));
    json_object_set_new(out, "change", change);
    json_t *bd = json_array();
    for (size_t i = 0; i < a->nby_driver; i++)
        json_array_append_new(bd, answer_install_json(a, &a->by_driver[i]));
    json_object_set_new(out, "by_driver", bd);
    json_object_set_new(out, "pypi", answer_pypi_json(&a->pypi));
    json_t *ln = json_array();
    for (size_t i = 0; i < a->nlast_native; i++)
        json_array_append_new(ln, answer_native_json(&a->last_native[i]));
    json_object_set_new(out, "last_native", ln);
    json_object_set_new(out, "way_forward", answer_source_build_json(&a->source_build));
    json_object_set_new(out, "build_from_source", answer_source_build_json(&a->self_build));
    json_object_set_new(out, "guidance", answer_guidance_json(&a->guidance));
    json_t *notes = json_array();
    for (size_t i = 0; i < a->nnotes; i++)
        json_array_append_new(notes, json_string(a->notes[i]));
    json_object_set_new(out, "notes", notes);
    return out;
}
