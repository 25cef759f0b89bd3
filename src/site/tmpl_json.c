/*
 * tmpl_json: jansson values read by templates through a tmpl_type.
 */
#include "tmpl_json.h"

static void json_get(const struct tmpl_value *v, const char *name, size_t len,
                     struct tmpl_value *out)
{
    tmpl_json_value(json_object_getn((json_t *)v->p, name, len), out);
}

static size_t json_len(const struct tmpl_value *v)
{
    return json_array_size((json_t *)v->p);
}

static void json_at(const struct tmpl_value *v, size_t i, struct tmpl_value *out)
{
    tmpl_json_value(json_array_get((json_t *)v->p, i), out);
}

static const struct tmpl_type object_type = {json_get, NULL, NULL, NULL, 0};
static const struct tmpl_type array_type = {NULL, json_len, json_at, NULL, 0};

void tmpl_json_value(json_t *j, struct tmpl_value *out)
{
    out->type = NULL;
    out->p = j;
    switch (j ? json_typeof(j) : (json_type)-1) {
    case JSON_OBJECT:
        tmpl_value_typed(TMPL_OBJECT, &object_type, j, 0, out);
        break;
    case JSON_ARRAY:
        tmpl_value_typed(TMPL_ARRAY, &array_type, j, 0, out);
        break;
    case JSON_STRING:
        out->kind = TMPL_STRING;
        out->s = json_string_value(j);
        out->n = json_string_length(j);
        break;
    case JSON_INTEGER:
        tmpl_value_int((long long)json_integer_value(j), out);
        break;
    case JSON_REAL:
        out->kind = TMPL_REAL;
        out->d = json_real_value(j);
        break;
    case JSON_TRUE:
        tmpl_value_bool(1, out);
        break;
    case JSON_FALSE:
        tmpl_value_bool(0, out);
        break;
    case JSON_NULL:
        out->kind = TMPL_NULL;
        break;
    default:
        out->kind = TMPL_MISSING;
        break;
    }
}

int tmpl_json_render(struct tmpl_set *s, const struct tmpl *t, json_t *data, struct strbuf *out,
                     struct wa_error *err)
{
    struct tmpl_value v;
    tmpl_json_value(data, &v);
    return tmpl_render_values(s, t, &v, data ? 1 : 0, out, err);
}

int tmpl_json_render_name(struct tmpl_set *s, const char *name, json_t *data, struct strbuf *out,
                          struct wa_error *err)
{
    const struct tmpl *t;
    int rc = tmpl_set_get(s, name, &t, err);
    return rc != 0 ? rc : tmpl_json_render(s, t, data, out, err);
}
