/*
 * doctor_json: the doctor report as `doctor --json` prints it
 * (doctor_json.h).
 */
#include "doctor_json.h"

#include "answer_json.h"
#include "compat.h"

static json_t *unchecked_json(const struct doctor_unchecked *u, size_t n, int with_why)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *x = json_object();
        json_object_set_new(x, "name", json_string(u[i].name));
        json_object_set_new(x, "version", u[i].version ? json_string(u[i].version) : json_null());
        json_object_set_new(x, "site", json_string(u[i].site));
        if (with_why)
            json_object_set_new(x, "why", json_string(u[i].why));
        json_array_append_new(a, x);
    }
    return a;
}

static json_t *fix_json(const struct doctor_dist *d)
{
    const struct doctor_fix *f = &d->fix;
    if (!d->has_fix)
        return json_null();
    json_t *x = json_object();
    if (f->has_build) {
        json_object_set_new(x, "index", json_string(f->index));
        json_object_set_new(x, "index_url", json_string(f->index_url));
        json_object_set_new(x, "version", json_string(f->version));
        json_object_set_new(x, "verdict", json_string(compat_verdict_name(f->verdict)));
        json_object_set_new(x, "commands", answer_installcmd_json(&f->commands));
    }
    if (f->driver)
        json_object_set_new(x, "driver", json_string(f->driver));
    return x;
}

static json_t *counts_json(const struct verifyrun_counts *c)
{
    json_t *x = json_object();
    json_object_set_new(x, "modules", json_integer(c->modules));
    json_object_set_new(x, "checked", json_integer(c->checked));
    json_object_set_new(x, "native", json_integer(c->native));
    json_object_set_new(x, "jit", json_integer(c->jit));
    json_object_set_new(x, "none", json_integer(c->none));
    json_object_set_new(x, "unreadable", json_integer(c->unreadable));
    json_object_set_new(x, "disagreements", json_integer(c->disagreements));
    json_object_set_new(x, "jit_seconds", json_real(c->jit_seconds));
    json_object_set_new(x, "static",
                        json_pack("{s:I,s:I,s:I}", "native", (json_int_t)c->static_native, "jit",
                                  (json_int_t)c->static_jit, "none", (json_int_t)c->static_none));
    json_object_set_new(x, "first_disagreement",
                        c->first_disagreement ? json_string(c->first_disagreement) : json_null());
    json_t *errors = json_array();
    for (size_t i = 0; i < c->nerrors; i++)
        json_array_append_new(errors, json_string(c->errors[i]));
    json_object_set_new(x, "errors", errors);
    return x;
}

static json_t *dist_json(const struct doctor_dist *d)
{
    json_t *libs = json_array(), *vs = json_array();
    for (size_t i = 0; i < d->nlibraries; i++)
        json_array_append_new(libs, json_string(d->libraries[i]));
    for (size_t i = 0; i < d->nverdicts; i++) {
        const struct doctor_gpu_verdict *v = &d->verdicts[i];
        json_array_append_new(vs, json_pack("{s:s,s:I,s:s,s:s,s:s,s:s*}", "gpu", v->gpu, "count",
                                            (json_int_t)v->count, "verdict",
                                            compat_verdict_name(v->verdict), "label",
                                            compat_verdict_label(v->verdict), "reason", v->reason,
                                            "min_driver", v->min_driver));
    }
    json_t *x = json_pack("{s:s,s:s,s:s,s:s,s:s,s:I,s:o,s:o,s:s}", "name", d->name, "version",
                          d->version, "variant", d->variant, "variant_source", d->variant_source,
                          "site", d->site, "gpu_files", (json_int_t)d->gpu_files, "libraries", libs,
                          "verdicts", vs, "verdict", compat_verdict_name(d->verdict));
    if (!x)
        return NULL;
    json_object_set_new(x, "fix", fix_json(d));
    /* its code in the index's variant-metadata terms, and whether this
     * machine's properties select it */
    json_object_set(x, "variant_properties", d->properties);
    json_object_set_new(x, "selected_by_machine", json_boolean(d->selected));
    if (d->verify)
        json_object_set_new(x, "verify", counts_json(d->verify));
    else if (d->verify_failed)
        json_object_set_new(x, "verify", json_pack("{s:s}", "failed", d->verify_failed));
    return x;
}

/* The driver's device, with why the check failed when it did; null when
 * --verify was not asked. */
static json_t *verify_json(const struct doctor_result *r)
{
    if (!r->verified)
        return json_null();
    const struct verifyrun_device *d = &r->verify.device;
    json_t *x = d->available ? json_pack("{s:b,s:s,s:s,s:I}", "available", 1, "device", d->name,
                                         "compute_capability", d->compute_capability, "driver_cuda",
                                         (json_int_t)d->driver_cuda)
                             : json_pack("{s:b,s:s}", "available", 0, "why", d->why);
    if (x && r->verify.failed)
        json_object_set_new(x, "failed", json_string(r->verify.failed));
    return x;
}

json_t *doctor_result_json(const struct doctor_result *r)
{
    json_t *sites = json_array(), *list = json_array();
    for (size_t i = 0; i < r->nsite_packages; i++)
        json_array_append_new(sites, json_string(r->site_packages[i]));
    for (size_t i = 0; i < r->ndists; i++)
        json_array_append_new(list, dist_json(&r->dists[i]));
    json_t *out =
        json_pack("{s:o,s:s,s:o,s:I,s:I,s:o,s:o,s:i}", "site_packages", sites, "platform",
                  r->platform, "distributions", list, "installed", (json_int_t)r->installed,
                  "without_gpu_code", (json_int_t)r->without_gpu_code, "without_record",
                  unchecked_json(r->without_record, r->nwithout_record, 0), "incomplete",
                  unchecked_json(r->incomplete, r->nincomplete, 1), "exit", r->exit);
    if (out) {
        json_object_set_new(out, "verify", verify_json(r));
        json_object_set(out, "machine_variant_properties", r->machine);
    }
    return out;
}
