/*
 * recordcmp: two struct records compared field by field and binary by
 * binary, for the tests that hold two constructors of struct record to
 * one meaning (test_record_trip: the JSON's and the view's; test_record_scan:
 * the JSON's and the scan's).
 */
#ifndef WHEELARCH_TEST_RECORDCMP_H
#define WHEELARCH_TEST_RECORDCMP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "recbinary.h"
#include "record.h"

/* Fields compared so far, over all calls (a test prints it: a comparison
 * that compares nothing cannot fail). */
static size_t recordcmp_fields_checked;

static inline int recordcmp_same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Strings that are absent and empty read alike: a column keeps NULL for
 * "" (the URL of a record that has none). */
static inline int recordcmp_same_text(const char *a, const char *b)
{
    return recordcmp_same(a && *a ? a : NULL, b && *b ? b : NULL);
}

static inline int recordcmp_same_targets(const struct recbinary_targets *a,
                                         const struct recbinary_targets *b)
{
    char *x = recbinary_targets_text(a), *y = recbinary_targets_text(b);
    int ok = recordcmp_same(x, y);
    free(x);
    free(y);
    return ok;
}

/* Two binaries alike in every field: lists, sets, compression, lines, the
 * declared targets, and each target by name with its counts, codecs and
 * ISA. */
static inline int recordcmp_same_binary(const struct recbinary *x, const struct recbinary *y)
{
    char *t[2][6];
    const struct recbinary *b[2] = {x, y};
    for (int i = 0; i < 2; i++) {
        t[i][0] = recbinary_sets_text(b[i]);
        t[i][1] = recbinary_compression_text(b[i]);
        t[i][2] = recbinary_lines_text(&b[i]->arch_flags);
        t[i][3] = recbinary_lines_text(&b[i]->warnings);
        t[i][4] = b[i]->declared ? recbinary_targets_text(&b[i]->declared_sass) : NULL;
        t[i][5] = b[i]->declared ? recbinary_targets_text(&b[i]->declared_ptx) : NULL;
    }
    int ok = recordcmp_same(x->path, y->path) && recordcmp_same(x->format, y->format) &&
             x->size == y->size && x->modules == y->modules &&
             x->dlink_modules == y->dlink_modules && x->library_modules == y->library_modules &&
             x->bundled == y->bundled && x->declared == y->declared && x->ntargets == y->ntargets &&
             recordcmp_same_targets(&x->sass, &y->sass) &&
             recordcmp_same_targets(&x->ptx, &y->ptx) && recordcmp_same_targets(&x->lto, &y->lto) &&
             recordcmp_same_targets(&x->gfx, &y->gfx);
    for (int k = 0; k < 6; k++)
        ok = ok && recordcmp_same(t[0][k], t[1][k]);
    for (size_t k = 0; ok && k < x->ntargets; k++) {
        char n[2][TARGET_NAME_MAX];
        target_format(&x->targets[k].t, n[0], sizeof n[0]);
        target_format(&y->targets[k].t, n[1], sizeof n[1]);
        json_t *a = recbinary_target_json(&x->targets[k]),
               *c = recbinary_target_json(&y->targets[k]);
        ok = strcmp(n[0], n[1]) == 0 && json_equal(a, c);
        json_decref(a);
        json_decref(c);
    }
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 6; k++)
            free(t[i][k]);
    return ok;
}

/* The fields of two records that differ, by name, into out ("" when
 * none). */
static inline void recordcmp_differences(const struct record *a, const struct record *b, char *out,
                                         size_t n)
{
    out[0] = '\0';
#define CHECK(cond, name)                                                                          \
    do {                                                                                           \
        recordcmp_fields_checked++;                                                                \
        if (!(cond))                                                                               \
            snprintf(out + strlen(out), n - strlen(out), " %s", name);                             \
    } while (0)
#define SAME(f) CHECK(recordcmp_same(a->f, b->f), #f)
    SAME(key);
    CHECK(a->scanned == b->scanned, "status");
    CHECK(recordcmp_same_text(a->url, b->url), "url");
    SAME(filename);
    SAME(index_url);
    SAME(variant);
    SAME(variant_source);
    SAME(indexes);
    SAME(index);
    SAME(name.filename);
    SAME(name.project);
    SAME(name.normalized);
    SAME(name.version);
    SAME(name.public_version);
    SAME(name.local);
    SAME(name.build);
    SAME(name.python);
    SAME(name.abi);
    SAME(name.platform);
    SAME(platform);
    SAME(sha256);
    CHECK(a->sha256_verified == b->sha256_verified, "sha256_verified");
    CHECK(a->size == b->size, "size");
    SAME(upload_time);
    SAME(requires_python);
    SAME(scanned_at);
    SAME(inferred_from);
    SAME(wheelarch_version);
    CHECK(a->yanked == b->yanked, "yanked");
    SAME(yanked_reason);
    CHECK(recordcmp_same_targets(&a->sass, &b->sass), "sass");
    CHECK(recordcmp_same_targets(&a->ptx, &b->ptx), "ptx");
    CHECK(recordcmp_same_targets(&a->gfx, &b->gfx), "gfx");
    SAME(code);
    SAME(requires);
    CHECK(a->binaries.listed == b->binaries.listed, "binaries.listed");
    CHECK(a->binaries.n == b->binaries.n, "binaries.n");
    for (size_t i = 0; i < a->binaries.n && i < b->binaries.n; i++) {
        char name[48];
        snprintf(name, sizeof name, "binaries[%zu]", i);
        CHECK(recordcmp_same_binary(&a->binaries.v[i], &b->binaries.v[i]), name);
    }
#undef SAME
#undef CHECK
}

#endif
