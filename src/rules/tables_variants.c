/*
 * tables_variants: variant names ("cu128", "cu12x", "rocm6.4"): which CUDA
 * or ROCm they are built with, and their order.
 */
#include "tables_variants.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tables_variant_rocm(const char *variant, struct dotver *rocm)
{
    if (strncmp(variant, "rocm", 4) != 0 || variant[4] < '0' || variant[4] > '9')
        return 0;
    if (rocm && dotver_parse(variant + 4, rocm) < 0)
        rocm->n = 0;
    return 1;
}

/* 0 for cpu and the like, 1 for CUDA, 2 for ROCm, with its version. */
static int variant_rank(const char *variant, struct dotver *v)
{
    if (tables_variant_cuda(variant, v) == 0)
        return 1;
    if (tables_variant_rocm(variant, v) && v->n)
        return 2;
    return 0;
}

int tables_variant_cmp(const char *a, const char *b)
{
    struct dotver x, y;
    int rx = variant_rank(a, &x), ry = variant_rank(b, &y);
    if (rx != ry)
        return rx - ry;
    int c = rx ? dotver_cmp(&x, &y) : 0;
    return c ? c : strcmp(a, b);
}

void tables_variant_cuda_text(const char *variant, char *buf, size_t n)
{
    struct dotver c;
    if (n == 0)
        return;
    buf[0] = '\0';
    if (tables_variant_cuda(variant, &c) < 0)
        return;
    if (variant[strlen(variant) - 1] == 'x')
        snprintf(buf, n, "%ld.x", c.f[0]);
    else
        snprintf(buf, n, "%ld.%ld", c.f[0], c.f[1]);
}

int tables_variant_cuda(const char *variant, struct dotver *cuda)
{
    memset(cuda, 0, sizeof *cuda);
    if (!variant || strncmp(variant, "cu", 2) != 0 || !isdigit((unsigned char)variant[2]))
        return -1;
    const char *d = variant + 2;
    size_t n = strspn(d, "0123456789");
    long v = strtol(d, NULL, 10);
    if (n == 2 && d[2] == 'x' && d[3] == '\0') { /* "12x": any 12.x, judged as 12.0 */
        cuda->n = 2;
        cuda->f[0] = v;
        cuda->f[1] = 0;
        return 0;
    }
    if (n < 2 || n > 3 || d[n] != '\0')
        return -1;
    cuda->n = 2; /* "128" -> 12.8, "92" -> 9.2 */
    cuda->f[0] = v / 10;
    cuda->f[1] = v % 10;
    return 0;
}
