/* libFuzzer target: AMD GPU code — offload bundle tables, compressed bundle
 * headers, entry ids and code object headers read from memory, then the
 * streaming binary scanner (hipscan inside binscan, with its zlib and zstd
 * inflaters) fed in chunks whose sizes come from the input itself. */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "binscan.h"
#include "offload.h"
#include "scanreport.h"
#include "target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned seed = data[0] | (unsigned)data[1] << 8;
    int known = seed & 1;
    data += 2;
    size -= 2;

    struct offload_entry *e;
    size_t ne, tsize, need;
    if (offload_bundle_table(data, size, size, &e, &ne, &tsize, &need, NULL) == 0) {
        for (size_t i = 0; i < ne; i++) {
            struct target t;
            if (offload_parse_id(e[i].id, &t) == 0) {
                char name[TARGET_NAME_MAX];
                target_format(&t, name, sizeof name);
            }
            if (e[i].size && e[i].offset < size) {
                struct offload_object o;
                offload_object_header(data + e[i].offset, size - (size_t)e[i].offset, &o);
            }
        }
        free(e);
    }
    struct offload_ccob h;
    offload_ccob_header(data, size, size, &h, &need, NULL);
    char id[128];
    size_t idn = size < sizeof id - 1 ? size : sizeof id - 1;
    memcpy(id, data, idn);
    id[idn] = '\0';
    struct target t;
    offload_parse_id(id, &t);

    struct binscan *bs = binscan_new(known ? size : BINSCAN_SIZE_UNKNOWN);
    size_t off = 0;
    int rc = 0;
    while (off < size && rc == 0) {
        seed = seed * 1103515245u + 12345u;
        size_t chunk = 1 + (seed >> 16) % 700;
        if (chunk > size - off)
            chunk = size - off;
        rc = binscan_feed(bs, data + off, chunk, NULL);
        off += chunk;
    }
    if (rc == 0 && binscan_finish(bs, NULL) == 0) {
        json_t *o = scanreport_binary_json("fuzz", binscan_result(bs));
        char *s = json_dumps(o, JSON_COMPACT);
        free(s);
        json_decref(o);
    }
    binscan_free(bs);
    return 0;
}
