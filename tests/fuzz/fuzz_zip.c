/* libFuzzer target: zip reading — end records, central directory, and
 * member streaming both with the central directory (a local file) and
 * without it (an HTTP body), with every member scanned. */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "scan.h"
#include "scanreport.h"
#include "zipdir.h"

static void stream(const uint8_t *data, size_t size, const struct zip_entry *ents, size_t n)
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
    scan_result_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    stream(data, size, NULL, 0);
    size_t tail = size < ZIP_TAIL_MAX ? size : ZIP_TAIL_MAX;
    struct zip_eocd eocd;
    if (zip_find_eocd(data + size - tail, tail, size, &eocd, NULL) != 0)
        return 0;
    if (eocd.need_eocd64) {
        if (eocd.eocd64_offset >= size ||
            zip_parse_eocd64(data + eocd.eocd64_offset, size - (size_t)eocd.eocd64_offset, size,
                             &eocd, NULL) != 0)
            return 0;
    }
    if (eocd.cd_offset > size || eocd.cd_size > size - eocd.cd_offset)
        return 0;
    struct zip_entry *ents;
    size_t n;
    if (zip_parse_cdir(data + eocd.cd_offset, (size_t)eocd.cd_size, &eocd, size, &ents, &n, NULL) !=
        0)
        return 0;
    stream(data, size, ents, n);
    zip_entries_free(ents, n);
    return 0;
}
