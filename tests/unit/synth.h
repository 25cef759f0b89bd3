/*
 * synth: build small synthetic fatbins, cubin headers, ELF and PE wrappers
 * in memory, so unit tests can exercise each header field and each error
 * path by construction.  Real nvcc output is tested from the fixtures.
 */
#ifndef WHEELARCH_TEST_SYNTH_H
#define WHEELARCH_TEST_SYNTH_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

static inline void put16(struct strbuf *b, uint16_t v)
{
    uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    strbuf_add(b, x, 2);
}

static inline void put32(struct strbuf *b, uint32_t v)
{
    put16(b, (uint16_t)v);
    put16(b, (uint16_t)(v >> 16));
}

static inline void put64(struct strbuf *b, uint64_t v)
{
    put32(b, (uint32_t)v);
    put32(b, (uint32_t)(v >> 32));
}

static inline void pad_to(struct strbuf *b, size_t align)
{
    while (b->len % align)
        strbuf_addc(b, 0);
}

static inline void set32(struct strbuf *b, size_t off, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b->buf[off + i] = (char)(v >> (8 * i));
}

static inline void set64(struct strbuf *b, size_t off, uint64_t v)
{
    set32(b, off, (uint32_t)v);
    set32(b, off + 4, (uint32_t)(v >> 32));
}

/* A 64-byte cubin ELF header: ABI 8 puts the SM in e_flags bits 8-15. */
static inline void synth_cubin(struct strbuf *b, unsigned sm, int abi, int stub, size_t total)
{
    size_t start = b->len;
    strbuf_add(b,
               "\x7f"
               "ELF\x02\x01\x01",
               7);
    strbuf_addc(b, abi >= 8 ? 0x41 : 0x33);
    strbuf_addc(b, (char)abi);
    while (b->len - start < 16)
        strbuf_addc(b, 0);
    put16(b, 2);   /* ET_EXEC */
    put16(b, 190); /* EM_CUDA */
    put32(b, abi >= 8 ? 1 : 124);
    put64(b, 0);
    put64(b, 0);
    put64(b, 0);
    uint32_t flags =
        abi >= 8 ? ((stub ? 0x05u : 0x06u) << 24) | (sm << 8) | 0x02u : (sm << 16) | 0x500u | sm;
    put32(b, flags);
    put16(b, 64);
    put16(b, 56);
    put16(b, 0);
    put16(b, 64);
    put16(b, 0);
    put16(b, 0);
    while (b->len - start < total)
        strbuf_addc(b, 0);
}

struct synth_entry {
    uint16_t kind; /* 1 PTX, 2 ELF, 8 LTO */
    uint32_t arch;
    uint64_t flags; /* 0x11 = 64-bit linux */
    uint16_t cv_major, cv_minor;
    const void *payload;
    size_t payload_len;
    uint32_t header_size; /* 0 = 0x40 */
};

/* Appends one container with the given entries; returns its offset. */
static inline size_t synth_fatbin(struct strbuf *b, const struct synth_entry *e, size_t n)
{
    pad_to(b, 8);
    size_t start = b->len;
    put32(b, 0xBA55ED50u);
    put16(b, 1);
    put16(b, 16);
    put64(b, 0); /* fat size, set below */
    for (size_t i = 0; i < n; i++) {
        uint32_t hs = e[i].header_size ? e[i].header_size : 0x40;
        size_t padded = (e[i].payload_len + 7) & ~(size_t)7;
        size_t es = b->len;
        put16(b, e[i].kind);
        put16(b, 0x0101);
        put32(b, hs);
        put64(b, padded);
        put32(b, 0);
        put32(b, 0);
        put16(b, e[i].cv_minor);
        put16(b, e[i].cv_major);
        put32(b, e[i].arch);
        put32(b, 0);
        put32(b, 0);
        put64(b, e[i].flags ? e[i].flags : 0x11);
        put64(b, 0);
        put64(b, 0);
        while (b->len - es < hs)
            strbuf_addc(b, 0);
        strbuf_add(b, e[i].payload, e[i].payload_len);
        pad_to(b, 8);
    }
    set64(b, start + 8, b->len - start - 16);
    return start;
}

/* Wraps `body` in a minimal ELF64 shared object with sections: null,
 * .shstrtab, .rodata (the body), and optionally a named section for the
 * body (e.g. ".nv_fatbin").  The section table sits at the end. */
static inline void synth_elf(struct strbuf *out, const struct strbuf *body, const char *secname)
{
    static const char shstr_fixed[] = "\0.shstrtab\0";
    struct strbuf shstr = STRBUF_INIT;
    strbuf_add(&shstr, shstr_fixed, sizeof shstr_fixed - 1);
    size_t name_off = shstr.len;
    strbuf_add(&shstr, secname, strlen(secname) + 1);

    strbuf_add(out,
               "\x7f"
               "ELF\x02\x01\x01\x00",
               8);
    while (out->len < 16)
        strbuf_addc(out, 0);
    put16(out, 3);  /* ET_DYN */
    put16(out, 62); /* x86-64 */
    put32(out, 1);
    put64(out, 0);
    put64(out, 0);
    put64(out, 0); /* e_shoff, set below */
    put32(out, 0);
    put16(out, 64);
    put16(out, 56);
    put16(out, 0);
    put16(out, 64);
    put16(out, 3);
    put16(out, 1);
    pad_to(out, 8);
    size_t body_off = out->len;
    strbuf_add(out, body->buf, body->len);
    size_t shstr_off = out->len;
    strbuf_add(out, shstr.buf, shstr.len);
    pad_to(out, 8);
    size_t shoff = out->len;
    set64(out, 0x28, shoff);
    /* section 0 */
    for (int i = 0; i < 64; i++)
        strbuf_addc(out, 0);
    /* .shstrtab */
    put32(out, 1);
    put32(out, 3);
    put64(out, 0);
    put64(out, 0);
    put64(out, shstr_off);
    put64(out, shstr.len);
    put32(out, 0);
    put32(out, 0);
    put64(out, 1);
    put64(out, 0);
    /* body */
    put32(out, (uint32_t)name_off);
    put32(out, 1);
    put64(out, 2);
    put64(out, body_off);
    put64(out, body_off);
    put64(out, body->len);
    put32(out, 0);
    put32(out, 0);
    put64(out, 8);
    put64(out, 0);
    strbuf_free(&shstr);
}

/* Wraps `body` in a minimal PE32+ DLL with one section `secname` (8 chars
 * at most) holding it. */
static inline void synth_pe(struct strbuf *out, const struct strbuf *body, const char *secname)
{
    strbuf_add(out, "MZ", 2);
    while (out->len < 0x3C)
        strbuf_addc(out, 0);
    put32(out, 0x80);
    while (out->len < 0x80)
        strbuf_addc(out, 0);
    strbuf_add(out, "PE\0\0", 4);
    put16(out, 0x8664);
    put16(out, 1); /* sections */
    put32(out, 0);
    put32(out, 0); /* symbol table */
    put32(out, 0);
    put16(out, 240); /* optional header size */
    put16(out, 0x2022);
    size_t opt = out->len;
    put16(out, 0x20B);
    while (out->len < opt + 24)
        strbuf_addc(out, 0);
    put64(out, 0x180000000ull);
    while (out->len < opt + 240)
        strbuf_addc(out, 0);
    char name[8] = {0};
    memcpy(name, secname, strlen(secname) < 8 ? strlen(secname) : 8);
    strbuf_add(out, name, 8);
    put32(out, (uint32_t)body->len);
    put32(out, 0x1000);
    put32(out, (uint32_t)((body->len + 511) & ~(size_t)511));
    put32(out, 0x400);
    put32(out, 0);
    put32(out, 0);
    put16(out, 0);
    put16(out, 0);
    put32(out, 0x40000040);
    while (out->len < 0x400)
        strbuf_addc(out, 0);
    strbuf_add(out, body->buf, body->len);
    pad_to(out, 512);
}

#endif
