/* libFuzzer target: the streaming binary scanner (fatbin containers and
 * entries, ELF/PE structure, payload prefixes, arch-flag strings), fed in
 * chunks whose sizes come from the input itself, and the JSON report. */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "binscan.h"
#include "fatbin.h"
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

    struct fatbin_entry e;
    struct fatbin_header h;
    fatbin_parse_header(data, size, &h, NULL);
    if (fatbin_parse_entry(data, size, &e, NULL) == 0) {
        const uint8_t *s;
        size_t n;
        struct target t;
        fatbin_entry_target(&e, &t);
        fatbin_entry_identifier(data, size, &e, &s, &n);
        fatbin_entry_options(data, size, &e, &s, &n);
    }

    struct binscan *bs = binscan_new(known ? size : BINSCAN_SIZE_UNKNOWN);
    size_t off = 0;
    int rc = 0;
    while (off < size && rc == 0) {
        seed = seed * 1103515245u + 12345u;
        size_t chunk = 1 + (seed >> 16) % 300;
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
