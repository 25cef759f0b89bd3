/* Unit tests: jsontext writes what jansson's json_dumps writes, for random
 * values and the edge cases its fast path hands back to jansson. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "harness.h"
#include "jsontext.h"

static unsigned long long rng = 0x9e3779b97f4a7c15ull;

static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* Short strings from an alphabet with the bytes that need escapes,
 * multi-byte UTF-8 and (rarely) bytes that are not UTF-8. */
static void random_text(char *s, size_t cap, int allow_bad)
{
    static const char *const pieces[] = {
        "a",
        "Z",
        "0",
        " ",
        "\"",
        "\\",
        "/",
        "\n",
        "\t",
        "\x01",
        "\x1f",
        "\x7f",
        "caf\xc3\xa9",
        "\xe2\x9c\x93",
        "<",
        "&",
        "\xf0\x9f\x98\x80",
        "sm_86",
        "cu128",
        "torch",
        "\r",
        "\b",
        "\f",
    };
    size_t len = 0, n = rnd(6);
    s[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        const char *p = pieces[rnd(sizeof pieces / sizeof *pieces)];
        if (allow_bad && rnd(40) == 0)
            p = rnd(2) ? "\xc0\xaf" : "\xed\xa0\x80";
        size_t pl = strlen(p);
        if (len + pl + 1 > cap)
            break;
        memcpy(s + len, p, pl + 1);
        len += pl;
    }
}

static json_t *random_value(int depth, int allow_odd)
{
    char s[64];
    unsigned kind = depth > 5 ? 2 + rnd(6) : rnd(8);
    switch (kind) {
    case 0: {
        json_t *o = json_object();
        unsigned n = rnd(40) == 0 ? 40 : rnd(6);
        for (unsigned i = 0; i < n; i++) {
            random_text(s, sizeof s, 0);
            json_object_set_new(o, s, random_value(depth + 1, allow_odd));
        }
        return o;
    }
    case 1: {
        json_t *a = json_array();
        unsigned n = rnd(6);
        for (unsigned i = 0; i < n; i++)
            json_array_append_new(a, random_value(depth + 1, allow_odd));
        return a;
    }
    case 2:
        random_text(s, sizeof s, 0);
        return json_string(s);
    case 3: {
        static const json_int_t ints[] = {0, 1, -1, 9, 10, -10, 2147483648LL, INT64_MAX, INT64_MIN};
        return json_integer(rnd(2) ? ints[rnd(9)] : (json_int_t)rnd(100000) - 50000);
    }
    case 4:
        return rnd(2) ? json_true() : json_false();
    case 5:
        return json_null();
    case 6:
        if (allow_odd) {
            static const double reals[] = {0.5, -1e300, 3.0, 1.0 / 3, 1e-7, 123456789.125};
            return json_real(reals[rnd(6)]);
        }
        return json_string("plain");
    default:
        if (allow_odd) {
            random_text(s, sizeof s, 1);
            if (rnd(4) == 0)
                return json_stringn("a\0b", 3);
            return json_string_nocheck(s);
        }
        return json_integer(7);
    }
}

static const size_t flag_sets[] = {
    0,
    JSON_COMPACT,
    JSON_SORT_KEYS,
    JSON_COMPACT | JSON_SORT_KEYS,
    JSON_ENCODE_ANY,
    JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY,
    JSON_INDENT(2) | JSON_SORT_KEYS | JSON_ENCODE_ANY, /* not the fast path's */
};

static int same_as_jansson(const json_t *v, size_t flags)
{
    char *want = json_dumps(v, flags);
    char *got = jsontext_dumps(v, flags);
    int same = (!want && !got) || (want && got && strcmp(want, got) == 0);
    if (!same)
        fprintf(stderr, "flags %#zx:\n  jansson  %s\n  jsontext %s\n", flags,
                want ? want : "(NULL)", got ? got : "(NULL)");
    free(want);
    free(got);
    return same;
}

static void random_values(void)
{
    int bad = 0;
    for (int i = 0; i < 20000; i++) {
        json_t *v = random_value(0, i % 3 == 0);
        for (size_t f = 0; f < sizeof flag_sets / sizeof *flag_sets; f++)
            if (!same_as_jansson(v, flag_sets[f]))
                bad++;
        json_decref(v);
    }
    INT_EQ(bad, 0, "random values written unlike json_dumps");
}

static void edges(void)
{
    json_t *v = json_string("x");
    OK(jsontext_dumps(v, JSON_COMPACT) == NULL, "a string without JSON_ENCODE_ANY: NULL");
    OK(same_as_jansson(v, JSON_ENCODE_ANY), "a string with JSON_ENCODE_ANY");
    json_decref(v);

    /* an appended value keeps what the buffer had; a refused one leaves it */
    struct strbuf sb = STRBUF_INIT;
    strbuf_adds(&sb, "x=");
    json_t *o = json_pack("{s:i,s:[b,n]}", "b", 1, "a", 1, 0);
    OK(jsontext_append(&sb, o, JSON_COMPACT | JSON_SORT_KEYS) == 0 &&
           strcmp(strbuf_str(&sb), "x={\"a\":[true,null],\"b\":1}") == 0,
       "appended: %s", strbuf_str(&sb));
    json_object_set_new(o, "c", json_string_nocheck("\xff"));
    OK(jsontext_append(&sb, o, JSON_COMPACT) < 0, "a value with a non-UTF-8 string is refused");
    OK(strcmp(strbuf_str(&sb), "x={\"a\":[true,null],\"b\":1}") == 0,
       "and the buffer is as it was");
    strbuf_free(&sb);
    json_decref(o);

    /* deeper than the fast path goes: json_dumps's answer */
    json_t *root = json_array(), *cur = root;
    for (int d = 0; d < JSONTEXT_MAX_DEPTH + 50; d++) {
        json_t *next = json_array();
        json_array_append_new(cur, next);
        cur = next;
    }
    OK(same_as_jansson(root, JSON_COMPACT), "nesting past JSONTEXT_MAX_DEPTH");
    json_decref(root);

    /* a cycle: NULL, as json_dumps */
    json_t *a = json_array(), *b = json_array();
    json_array_append(a, b);
    json_array_append(b, a);
    OK(jsontext_dumps(a, JSON_COMPACT) == NULL, "a cycle gives NULL");
    json_array_clear(b);
    json_decref(a);
    json_decref(b);

    /* values referenced from several places (written once, then copied):
     * big and small, nested in each other, in arrays and objects */
    json_t *big = json_pack("{s:[s,s,s],s:{s:i,s:s}}", "sass", "sm_80", "sm_86", "sm_90", "meta",
                            "n", 12, "why", "a reason long enough to be worth remembering");
    json_t *small = json_pack("[i]", 1);
    json_t *outer = json_pack("{s:O,s:O}", "big", big, "small", small);
    json_t *doc = json_array();
    for (int k = 0; k < 5; k++) {
        json_array_append(doc, big);
        json_array_append(doc, small);
        json_array_append(doc, outer);
        json_t *holder = json_object();
        json_object_set(holder, "again", outer);
        json_object_set(holder, "big", big);
        json_array_append_new(doc, holder);
    }
    for (size_t f = 0; f < sizeof flag_sets / sizeof *flag_sets; f++)
        OK(same_as_jansson(doc, flag_sets[f]), "shared values, flags %#zx", flag_sets[f]);
    json_decref(doc);
    json_decref(outer);
    json_decref(small);
    json_decref(big);

    /* a key with a NUL byte goes to jansson */
    o = json_object();
    json_object_setn_new(o, "k\0ey", 4, json_integer(1));
    json_object_set_new(o, "a", json_integer(2));
    OK(same_as_jansson(o, JSON_COMPACT | JSON_SORT_KEYS), "a key with a NUL byte");
    json_decref(o);
}

int main(void)
{
    random_values();
    edges();
    return harness_done();
}
