/* Unit tests: fatbin container and entry headers, one field at a time. */
#include "fatbin.h"
#include "harness.h"
#include "synth.h"

static void entry_bytes(struct strbuf *b, uint16_t kind, uint32_t hs, uint64_t padded,
                        uint32_t csize, uint64_t flags, uint32_t arch)
{
    strbuf_reset(b);
    put16(b, kind);
    put16(b, 0x0101);
    put32(b, hs);
    put64(b, padded);
    put32(b, csize);
    put32(b, 0);
    put16(b, 0);
    put16(b, 9);
    put32(b, arch);
    put32(b, 0);
    put32(b, 0);
    put64(b, flags);
    put64(b, 0);
    put64(b, csize ? 4096 : 0);
}

int main(void)
{
    struct strbuf b = STRBUF_INIT;
    struct fatbin_header h;
    struct fatbin_entry e;
    struct target t;

    put32(&b, FATBIN_MAGIC);
    put16(&b, 1);
    put16(&b, 16);
    put64(&b, 0x100);
    OK(fatbin_parse_header((uint8_t *)b.buf, b.len, &h, NULL) == 0, "valid header");
    INT_EQ(h.fat_size, 0x100, "fat size");
    OK(fatbin_parse_header((uint8_t *)b.buf, 15, &h, NULL) == WA_ERR_TRUNCATED, "short header");
    b.buf[4] = 2;
    OK(fatbin_parse_header((uint8_t *)b.buf, b.len, &h, NULL) == WA_ERR_FORMAT, "version 2");
    b.buf[4] = 1;
    b.buf[6] = 0x20;
    OK(fatbin_parse_header((uint8_t *)b.buf, b.len, &h, NULL) == WA_ERR_FORMAT, "header size");

    entry_bytes(&b, 2, 0x40, 0x100, 0, 0x100011, 90);
    OK(fatbin_parse_entry((uint8_t *)b.buf, b.len, &e, NULL) == 0, "ELF entry");
    OK(fatbin_entry_target(&e, &t) == 0 && t.kind == TARGET_SASS && t.arch == 90 && t.suffix == 'a',
       "sm_90a from flag 0x100000");
    INT_EQ(fatbin_entry_codec(&e), FATBIN_CODEC_NONE, "uncompressed");

    entry_bytes(&b, 1, 0x50, 0x228, 0x223, 0x208011, 100);
    OK(fatbin_parse_entry((uint8_t *)b.buf, b.len, &e, NULL) == 0, "zstd PTX entry");
    OK(fatbin_entry_target(&e, &t) == 0 && t.kind == TARGET_PTX && t.suffix == 'f',
       "compute_100f from flag 0x200000");
    INT_EQ(fatbin_entry_codec(&e), FATBIN_CODEC_ZSTD, "zstd");
    STR_EQ(fatbin_codec_name(fatbin_entry_codec(&e)), "zstd", "codec name");

    static const struct {
        uint64_t flags;
        int codec;
    } codecs[] = {{0x1011, FATBIN_CODEC_ZLIB},
                  {0x2011, FATBIN_CODEC_LZ4},
                  {0x4011, FATBIN_CODEC_LZ4FRAME},
                  {0x8011, FATBIN_CODEC_ZSTD}};
    for (int i = 0; i < 4; i++) {
        entry_bytes(&b, 2, 0x40, 0x100, 0x80, codecs[i].flags, 80);
        OK(fatbin_parse_entry((uint8_t *)b.buf, b.len, &e, NULL) == 0, "codec %d", i);
        INT_EQ(fatbin_entry_codec(&e), codecs[i].codec, "codec from flags");
    }

    entry_bytes(&b, 8, 0x40, 0x100, 0x80, 0x18011, 80);
    OK(fatbin_parse_entry((uint8_t *)b.buf, b.len, &e, NULL) == 0 &&
           fatbin_entry_target(&e, &t) == 0 && t.kind == TARGET_LTO,
       "LTO entry");

    /* Each broken field is refused. */
    entry_bytes(&b, 2, 0x44, 0x100, 0, 0x11, 80);
    OK(fatbin_parse_entry((uint8_t *)b.buf, b.len, &e, NULL) < 0,
       "header size not a multiple of 8");
    entry_bytes(&b, 2, 0x800, 0x100, 0, 0x11, 80);
    OK(fatbin_parse_entry((uint8_t *)b.buf, b.len, &e, NULL) < 0, "header size too large");
    entry_bytes(&b, 2, 0x40, 0x101, 0, 0x11, 80);
    OK(fatbin_parse_entry((uint8_t *)b.buf, b.len, &e, NULL) < 0, "padded size odd");
    entry_bytes(&b, 2, 0x40, 0x100, 0x200, 0x8011, 80);
    OK(fatbin_parse_entry((uint8_t *)b.buf, b.len, &e, NULL) < 0, "compressed > padded");
    entry_bytes(&b, 2, 0x40, 0x100, 0x80, 0x11, 80);
    OK(fatbin_parse_entry((uint8_t *)b.buf, b.len, &e, NULL) < 0, "compressed without codec");
    entry_bytes(&b, 2, 0x40, 0x100, 0, 0x8011, 80);
    OK(fatbin_parse_entry((uint8_t *)b.buf, b.len, &e, NULL) < 0, "codec without size");
    entry_bytes(&b, 2, 0x40, 0x100, 0x80, 0xA011, 80);
    OK(fatbin_parse_entry((uint8_t *)b.buf, b.len, &e, NULL) < 0, "two codecs");
    entry_bytes(&b, 0, 0x40, 0x100, 0, 0x11, 80);
    OK(fatbin_parse_entry((uint8_t *)b.buf, b.len, &e, NULL) < 0, "kind 0");
    entry_bytes(&b, 2, 0x40, 0x100, 0, 0x11, 80);
    b.buf[2] = 2;
    OK(fatbin_parse_entry((uint8_t *)b.buf, b.len, &e, NULL) < 0, "entry version");
    OK(fatbin_parse_entry((uint8_t *)b.buf, 0x3F, &e, NULL) == WA_ERR_TRUNCATED, "short entry");

    /* Identifier and options inside the header. */
    entry_bytes(&b, 1, 0x60, 0x100, 0, 0x11, 80);
    set32(&b, 0x20, 0x40);
    set32(&b, 0x24, 8);
    set32(&b, 0x14, 0x48);
    strbuf_add(&b, "kern.cu\0", 8);
    put32(&b, 0x50);
    put32(&b, 8);
    strbuf_add(&b, " -O2 \0\0\0", 8);
    OK(fatbin_parse_entry((uint8_t *)b.buf, b.len, &e, NULL) == 0, "entry with tail");
    const uint8_t *s;
    size_t n;
    OK(fatbin_entry_identifier((uint8_t *)b.buf, b.len, &e, &s, &n) == 0 && n == 7 &&
           memcmp(s, "kern.cu", 7) == 0,
       "identifier");
    OK(fatbin_entry_options((uint8_t *)b.buf, b.len, &e, &s, &n) == 0 && n == 5 &&
           memcmp(s, " -O2 ", 5) == 0,
       "options");
    set32(&b, 0x24, 0x1000);
    fatbin_parse_entry((uint8_t *)b.buf, b.len, &e, NULL);
    OK(fatbin_entry_identifier((uint8_t *)b.buf, b.len, &e, &s, &n) < 0,
       "identifier out of bounds");
    strbuf_free(&b);
    return harness_done();
}
