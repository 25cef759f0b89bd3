/* libFuzzer target: zip reading — end records, central directory, and
 * member streaming both with the central directory (a local file) and
 * without it (an HTTP body), with every member scanned.  The directory is
 * read twice: from memory here, and by scan_read_zip_directory from a
 * file descriptor (a memfd holding the input), as `wheelarch scan` reads a
 * local wheel.
 *
 * Built for libFuzzer (WHEELARCH_LIBFUZZER), it also has a structure-aware
 * mutator: half the mutations set a field of a zip record (sizes, offsets,
 * counts, lengths) to a value at an edge (0, all ones, 2^64 - 16, the
 * offset of another record, the file size) or turn the archive into a
 * ZIP64 one (a locator before the end record, whose fields then say
 * 0xFFFF / 0xFFFFFFFF); the other half are libFuzzer's own.  Byte-level
 * mutations alone rarely hit an 8-byte offset with a value near 2^64.
 *
 * Every scan also goes both ways into a crawler's record (abort()
 * otherwise): record_of_scan and record_of_json of its JSON
 * (record_scanned) both take it and make one record, field by field
 * (recordcmp.h), or both refuse it. */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../unit/recordcmp.h"
#include "record.h"
#include "scan.h"
#include "scanreport.h"
#include "zipdir.h"

static void both_routes(const struct scan_result *r)
{
    static const char fn[] = "torch-2.9.0+cu128-cp312-cp312-manylinux_2_28_x86_64.whl";
    static const char key[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    static const char *const indexes[] = {"cu128"};
    struct wheel_name wn;
    if (wheelname_parse(fn, &wn, NULL) < 0)
        abort();
    struct record_identity id = {
        .key = key,
        .url = "https://download.pytorch.org/whl/cu128/torch.whl",
        .filename = fn,
        .indexes = indexes,
        .nindexes = 1,
        .index_url = "https://download.pytorch.org/whl/cu128/",
        .name = &wn,
        .variant = "cu128",
        .variant_source = "label",
    };
    struct record_fetch f = {1, 100, r->size, 2, 0};
    json_t *rec = record_scanned(scanreport_json(r), r->sha256, &id, &f, "2026-11-20");
    struct record a, b;
    int ra = record_of_json(key, rec, &a, NULL),
        rb = record_of_scan(r, &id, &f, "2026-11-20", &b, NULL);
    if ((ra == 0) != (rb == 0))
        abort();
    if (ra == 0) {
        char diff[2048];
        recordcmp_differences(&a, &b, diff, sizeof diff);
        if (diff[0])
            abort();
        record_free(&a);
        record_free(&b);
    }
    json_decref(rec);
    wheelname_free(&wn);
}

static void stream(const uint8_t *data, size_t size, const struct zipdir_entry *ents, size_t n)
{
    struct scan_result *r = scan_result_new("fuzz");
    struct scan_wheel *sw = scan_wheel_new(r, ents, n, 1);
    size_t off = 0;
    int rc = 0;
    unsigned seed = (unsigned)size;
    while (off < size && rc == 0) {
        seed = seed * 1103515245u + 12345u;
        size_t chunk = 1 + (seed >> 16) % 4096;
        if (chunk > size - off)
            chunk = size - off;
        rc = scan_wheel_feed(sw, data + off, chunk, NULL);
        off += chunk;
    }
    if (rc == 0)
        scan_wheel_finish(sw, 1, NULL);
    scan_wheel_free(sw);
    json_t *o = scanreport_json(r);
    json_decref(o);
    both_routes(r);
    scan_result_free(r);
}

/* The directory as scan_file reads it, through pread on a descriptor. */
static void from_fd(const uint8_t *data, size_t size)
{
    static int fd = -2;
    if (fd == -2)
        fd = memfd_create("fuzz_zip", 0);
    if (fd < 0 || ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
        return;
    struct zipdir_entry *ents;
    size_t n;
    if (scan_read_zip_directory(fd, size, &ents, &n, NULL) != 0)
        return;
    stream(data, size, ents, n);
    zipdir_entries_free(ents, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    stream(data, size, NULL, 0);
    from_fd(data, size);
    size_t tail = size < ZIP_TAIL_MAX ? size : ZIP_TAIL_MAX;
    struct zipdir_eocd eocd;
    if (zipdir_find_eocd(data + size - tail, tail, size, &eocd, NULL) != 0)
        return 0;
    if (eocd.need_eocd64) {
        if (eocd.eocd64_offset >= size ||
            zipdir_parse_eocd64(data + eocd.eocd64_offset, size - (size_t)eocd.eocd64_offset, size,
                                &eocd, NULL) != 0)
            return 0;
    }
    if (eocd.cd_offset > size || eocd.cd_size > size - eocd.cd_offset)
        return 0;
    struct zipdir_entry *ents;
    size_t n;
    if (zipdir_parse_cdir(data + eocd.cd_offset, (size_t)eocd.cd_size, &eocd, size, &ents, &n,
                          NULL) != 0)
        return 0;
    stream(data, size, ents, n);
    zipdir_entries_free(ents, n);
    return 0;
}

#ifdef WHEELARCH_LIBFUZZER
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

/* The fields worth lying in, by record (the two bytes after "PK"). */
static const struct {
    uint16_t kind;
    uint8_t off, width;
} fields[] = {
    {0x0304, 6, 2},  {0x0304, 8, 2},  {0x0304, 18, 4}, {0x0304, 22, 4}, {0x0304, 26, 2},
    {0x0304, 28, 2}, {0x0102, 8, 2},  {0x0102, 10, 2}, {0x0102, 20, 4}, {0x0102, 24, 4},
    {0x0102, 28, 2}, {0x0102, 30, 2}, {0x0102, 32, 2}, {0x0102, 42, 4}, {0x0506, 4, 2},
    {0x0506, 8, 2},  {0x0506, 10, 2}, {0x0506, 12, 4}, {0x0506, 16, 4}, {0x0506, 20, 2},
    {0x0606, 4, 8},  {0x0606, 16, 4}, {0x0606, 24, 8}, {0x0606, 32, 8}, {0x0606, 40, 8},
    {0x0606, 48, 8}, {0x0607, 4, 4},  {0x0607, 8, 8},  {0x0607, 16, 4}, {0x0708, 4, 4},
    {0x0708, 8, 4},  {0x0708, 12, 4}, {0x0708, 8, 8},  {0x0708, 16, 8},
};

#define MAX_RECORDS 64

static uint32_t next_rand(uint32_t *r)
{
    *r ^= *r << 13;
    *r ^= *r >> 17;
    *r ^= *r << 5;
    return *r;
}

static uint16_t kind_at(const uint8_t *p)
{
    return (uint16_t)(p[2] << 8 | p[3]);
}

static size_t find_records(const uint8_t *data, size_t size, size_t *pos)
{
    size_t n = 0;
    for (size_t i = 0; i + 4 <= size && n < MAX_RECORDS; i++) {
        if (data[i] != 'P' || data[i + 1] != 'K')
            continue;
        uint16_t k = kind_at(data + i);
        if (k == 0x0304 || k == 0x0102 || k == 0x0506 || k == 0x0606 || k == 0x0607 || k == 0x0708)
            pos[n++] = i;
    }
    return n;
}

static void put(uint8_t *p, uint64_t v, unsigned width)
{
    for (unsigned i = 0; i < width; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(const uint8_t *p, unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* A value at an edge for a field of `width` bytes now holding `old`. */
static uint64_t edge_value(uint32_t *r, unsigned width, uint64_t old, size_t size,
                           const size_t *pos, size_t npos)
{
    uint64_t max = width == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * width)) - 1;
    uint64_t rec = npos ? pos[next_rand(r) % npos] : 0;
    switch (next_rand(r) % 16) {
    case 0:
        return 0;
    case 1:
        return 1;
    case 2:
        return max;
    case 3:
        return max - 1;
    case 4:
        return max - 15;
    case 5:
        return max - 55;
    case 6:
        return UINT64_C(1) << (8 * width - 1);
    case 7:
        return size;
    case 8:
        return size - 1;
    case 9:
        return rec;
    case 10:
        return rec + 1;
    case 11:
        return rec - 1;
    case 12:
        return rec - 56;
    case 13:
        return rec - 20;
    case 14:
        return old + 1;
    default:
        return old - 1;
    }
}

/* Inserts a ZIP64 locator (and sometimes a ZIP64 end record) before the
 * last end record and makes the end record ask for them. */
static size_t make_zip64(uint8_t *data, size_t size, size_t max_size, uint32_t *r,
                         const size_t *pos, size_t npos)
{
    size_t eocd = SIZE_MAX;
    for (size_t i = npos; i-- > 0;)
        if (kind_at(data + pos[i]) == 0x0506 && pos[i] + 22 <= size) {
            eocd = pos[i];
            break;
        }
    int record = next_rand(r) % 2;
    size_t add = 20 + (record ? 56 : 0);
    if (eocd == SIZE_MAX || size + add > max_size)
        return 0;
    memmove(data + eocd + add, data + eocd, size - eocd);
    uint8_t *p = data + eocd;
    uint64_t rec_off = eocd;
    if (record) {
        const uint8_t *e = p + add;
        memset(p, 0, 56);
        put(p, 0x06064b50u, 4);
        put(p + 4, 44, 8);
        put(p + 24, get(e + 8, 2), 8);
        put(p + 32, get(e + 10, 2), 8);
        put(p + 40, get(e + 12, 4), 8);
        put(p + 48, get(e + 16, 4), 8);
        p += 56;
    }
    put(p, 0x07064b50u, 4);
    put(p + 4, 0, 4);
    put(p + 8, next_rand(r) % 2 ? rec_off : edge_value(r, 8, rec_off, size + add, pos, npos), 8);
    put(p + 16, 1, 4);
    uint8_t *e = p + 20;
    switch (next_rand(r) % 3) {
    case 0:
        put(e + 8, 0xFFFF, 2);
        put(e + 10, 0xFFFF, 2);
        break;
    case 1:
        put(e + 12, 0xFFFFFFFFu, 4);
        break;
    default:
        put(e + 16, 0xFFFFFFFFu, 4);
        break;
    }
    return size + add;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    uint32_t r = seed | 1;
    size_t pos[MAX_RECORDS];
    size_t npos = find_records(data, size, pos);
    uint32_t what = next_rand(&r) % 8;
    if (npos == 0 || what >= 4)
        return LLVMFuzzerMutate(data, size, max_size);
    if (what == 0) {
        size_t n = make_zip64(data, size, max_size, &r, pos, npos);
        if (n)
            return n;
    }
    /* A field of one record, or 8 bytes anywhere (ZIP64 extra fields). */
    for (int tries = 0; tries < 8; tries++) {
        size_t at = pos[next_rand(&r) % npos];
        unsigned k = next_rand(&r) % (sizeof fields / sizeof fields[0]);
        if (fields[k].kind != kind_at(data + at))
            continue;
        size_t off = at + fields[k].off;
        if (off + fields[k].width > size)
            continue;
        uint64_t old = get(data + off, fields[k].width);
        put(data + off, edge_value(&r, fields[k].width, old, size, pos, npos), fields[k].width);
        return size;
    }
    if (size >= 8) {
        size_t off = next_rand(&r) % (size - 7);
        put(data + off, edge_value(&r, 8, get(data + off, 8), size, pos, npos), 8);
        return size;
    }
    return LLVMFuzzerMutate(data, size, max_size);
}
#endif
