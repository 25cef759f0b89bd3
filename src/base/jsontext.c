/*
 * jsontext: json_dumps's bytes, written straight into a strbuf.
 */
#include "jsontext.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define FAST_FLAGS (JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY)

struct writer {
    struct strbuf *sb;
    size_t flags;
};

/* -1: not for the fast path (json_dumps decides) */
static int put_value(struct writer *w, const json_t *v, int depth);

static void put_integer(struct strbuf *sb, json_int_t i)
{
    char digits[20];
    if (i < 0)
        strbuf_addc(sb, '-');
    /* unsigned, so that the most negative value has a magnitude */
    unsigned long long u = i < 0 ? 0ull - (unsigned long long)i : (unsigned long long)i;
    strbuf_add(sb, digits, strbuf_decimal(u, digits));
}

static int key_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int put_member(struct writer *w, const char *key, const json_t *value, int depth, int first)
{
    int compact = (w->flags & JSON_COMPACT) != 0;
    if (!first)
        strbuf_add(w->sb, ", ", compact ? 1 : 2);
    if (strbuf_add_json(w->sb, key) < 0)
        return -1;
    strbuf_add(w->sb, ": ", compact ? 1 : 2);
    return put_value(w, value, depth + 1);
}

static int put_object(struct writer *w, const json_t *v, int depth)
{
    size_t n = json_object_size(v);
    strbuf_addc(w->sb, '{');
    const char *key;
    void *it;
    if (!(w->flags & JSON_SORT_KEYS) || n < 2) {
        int first = 1;
        for (it = json_object_iter((json_t *)v); it; it = json_object_iter_next((json_t *)v, it)) {
            key = json_object_iter_key(it);
            if (json_object_iter_key_len(it) != strlen(key))
                return -1;
            if (put_member(w, key, json_object_iter_value(it), depth, first) < 0)
                return -1;
            first = 0;
        }
    } else {
        const char *stack[32];
        const char **keys = n <= 32 ? stack : xmalloc(n * sizeof *keys);
        size_t k = 0;
        int rc = 0;
        for (it = json_object_iter((json_t *)v); it && k < n;
             it = json_object_iter_next((json_t *)v, it)) {
            key = json_object_iter_key(it);
            if (json_object_iter_key_len(it) != strlen(key)) {
                rc = -1;
                break;
            }
            keys[k++] = key;
        }
        if (rc == 0) {
            qsort(keys, k, sizeof *keys, key_cmp);
            for (size_t i = 0; i < k && rc == 0; i++)
                rc = put_member(w, keys[i], json_object_get(v, keys[i]), depth, i == 0);
        }
        if (keys != stack)
            free(keys);
        if (rc < 0)
            return -1;
    }
    strbuf_addc(w->sb, '}');
    return 0;
}

static int put_container(struct writer *w, const json_t *v, int depth)
{
    if (json_is_object(v))
        return put_object(w, v, depth);
    size_t n = json_array_size(v);
    strbuf_addc(w->sb, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            strbuf_add(w->sb, ", ", w->flags & JSON_COMPACT ? 1 : 2);
        if (put_value(w, json_array_get(v, i), depth + 1) < 0)
            return -1;
    }
    strbuf_addc(w->sb, ']');
    return 0;
}

static int put_value(struct writer *w, const json_t *v, int depth)
{
    struct strbuf *sb = w->sb;
    if (depth > JSONTEXT_MAX_DEPTH)
        return -1;
    switch (json_typeof(v)) {
    case JSON_OBJECT:
    case JSON_ARRAY:
        return put_container(w, v, depth);
    case JSON_STRING:
        return strbuf_add_json_n(sb, json_string_value(v), json_string_length(v));
    case JSON_INTEGER:
        put_integer(sb, json_integer_value(v));
        return 0;
    case JSON_TRUE:
        strbuf_add(sb, "true", 4);
        return 0;
    case JSON_FALSE:
        strbuf_add(sb, "false", 5);
        return 0;
    case JSON_NULL:
        strbuf_add(sb, "null", 4);
        return 0;
    default: /* reals: json_dumps's own formatting */
        return -1;
    }
}

int jsontext_append(struct strbuf *sb, const json_t *v, size_t flags)
{
    if (!v)
        return -1;
    size_t mark = sb->len;
    int container = json_is_object(v) || json_is_array(v);
    if (!container && !(flags & JSON_ENCODE_ANY))
        return -1;
    if (!(flags & ~(size_t)FAST_FLAGS)) {
        struct writer w = {sb, flags};
        if (put_value(&w, v, 0) == 0)
            return 0;
    }
    /* not for the fast path: what json_dumps writes, or its refusal */
    sb->len = mark;
    if (sb->buf)
        sb->buf[mark] = '\0';
    char *s = json_dumps(v, flags);
    if (!s)
        return -1;
    strbuf_adds(sb, s);
    free(s);
    return 0;
}

char *jsontext_dumps(const json_t *v, size_t flags)
{
    struct strbuf sb = STRBUF_INIT;
    if (jsontext_append(&sb, v, flags) < 0) {
        strbuf_free(&sb);
        return NULL;
    }
    if (!sb.buf)
        return xstrdup("");
    return strbuf_detach(&sb, NULL);
}

json_t *jsontext_str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}
