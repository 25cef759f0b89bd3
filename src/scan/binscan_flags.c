/*
 * binscan_flags: nvcc arch-flag strings ("-gencode;arch=compute_90,...")
 * picked up outside fatbin containers by a substring search that carries
 * across chunk boundaries.
 */
#include "binscan_state.h"

#include <string.h>

#include "xalloc.h"

/* ---- arch-flag strings -------------------------------------------------- */

static int printable(uint8_t c)
{
    return c >= 0x20 && c < 0x7F;
}

void binscan_grab_finish(struct binscan *bs)
{
    bs->grabbing = 0;
    const char *s = strbuf_str(&bs->grab);
    if (bs->grab.len >= ARCH_FLAGS_MAX || !strstr(s, "arch=") || !strstr(s, "code="))
        return;
    struct binscan_result *r = &bs->r;
    for (size_t i = 0; i < r->narch_flags; i++)
        if (strcmp(r->arch_flags[i], s) == 0)
            return;
    if (r->narch_flags >= BINSCAN_MAX_ARCH_FLAGS)
        return;
    r->arch_flags = xgrow(r->arch_flags, &bs->cap_flags, r->narch_flags + 1, sizeof *r->arch_flags);
    r->arch_flags[r->narch_flags++] = xstrdup(s);
}

/* Appends printable bytes from p[i..n) to the string being grabbed; returns
 * the index after the string, or n if it may go on in the next chunk. */
static size_t grab_continue(struct binscan *bs, const uint8_t *p, size_t i, size_t n)
{
    size_t j = i;
    while (j < n && printable(p[j]))
        j++;
    if (bs->grab.len < ARCH_FLAGS_MAX)
        strbuf_add(&bs->grab, p + i, j - i < ARCH_FLAGS_MAX ? j - i : ARCH_FLAGS_MAX);
    if (j < n) {
        binscan_grab_finish(bs);
        return j;
    }
    return n;
}

static void grab_start(struct binscan *bs, const uint8_t *p, size_t at)
{
    bs->gncarry = 0;
    size_t s = at;
    while (s > 0 && at - s < ARCH_FLAGS_LOOKBEHIND && printable(p[s - 1]))
        s--;
    strbuf_reset(&bs->grab);
    strbuf_add(&bs->grab, p + s, at - s);
    bs->grabbing = 1;
}

void binscan_grab_scan(struct binscan *bs, const uint8_t *p, size_t n)
{
    if (n == 0)
        return;
    size_t i = 0;
    if (bs->grabbing) {
        i = grab_continue(bs, p, 0, n);
        if (bs->grabbing)
            return;
    } else if (bs->gncarry) {
        uint8_t tmp[2 * NEEDLE_LEN];
        size_t take = n < NEEDLE_LEN - 1 ? n : NEEDLE_LEN - 1;
        memcpy(tmp, bs->gcarry, bs->gncarry);
        memcpy(tmp + bs->gncarry, p, take);
        const uint8_t *m = memmem(tmp, bs->gncarry + take, gencode_needle, NEEDLE_LEN);
        if (m && (size_t)(m - tmp) < bs->gncarry) {
            strbuf_reset(&bs->grab);
            strbuf_add(&bs->grab, m, bs->gncarry - (size_t)(m - tmp));
            bs->grabbing = 1;
            bs->gncarry = 0;
            i = grab_continue(bs, p, 0, n);
            if (bs->grabbing)
                return;
        }
    }
    while (i < n) {
        const uint8_t *m = memmem(p + i, n - i, gencode_needle, NEEDLE_LEN);
        if (!m)
            break;
        size_t at = (size_t)(m - p);
        grab_start(bs, p, at);
        i = grab_continue(bs, p, at, n);
        if (bs->grabbing)
            return;
    }
    /* Keep the last NEEDLE_LEN-1 bytes of everything searched so far. */
    uint8_t tmp[2 * NEEDLE_LEN];
    size_t tail = n < NEEDLE_LEN - 1 ? n : NEEDLE_LEN - 1;
    memcpy(tmp, bs->gcarry, bs->gncarry);
    memcpy(tmp + bs->gncarry, p + n - tail, tail);
    size_t all = bs->gncarry + tail;
    size_t keep = all < NEEDLE_LEN - 1 ? all : NEEDLE_LEN - 1;
    memcpy(bs->gcarry, tmp + all - keep, keep);
    bs->gncarry = keep;
}

void binscan_grab_break(struct binscan *bs)
{
    if (bs->grabbing)
        binscan_grab_finish(bs);
    bs->gncarry = 0;
}
