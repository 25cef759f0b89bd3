/* libFuzzer target: AMD kernel archives — the MessagePack reader walked
 * over the input as it is, the archive scanner (kpack) fed in chunks whose
 * sizes come from the input, and the streaming binary scanner that runs it
 * (binscan) with its report. */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "binscan.h"
#include "kpack.h"
#include "msgpack.h"
#include "scanreport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned seed = data[0] | (unsigned)data[1] << 8;
    int known = seed & 1;
    data += 2;
    size -= 2;

    /* the reader alone: every value of the input, until one fails */
    struct msgpack m;
    msgpack_init(&m, data, size);
    for (int k = 0; k < 64 && msgpack_skip(&m) == 0; k++)
        ;

    struct kpack *kp = kpack_new(known ? size : UINT64_MAX);
    struct binscan *bs = binscan_new(known ? size : BINSCAN_SIZE_UNKNOWN);
    size_t off = 0;
    int rk = 0, rb = 0;
    while (off < size && (rk == 0 || rb == 0)) {
        seed = seed * 1103515245u + 12345u;
        size_t chunk = 1 + (seed >> 16) % 700;
        if (chunk > size - off)
            chunk = size - off;
        if (rk == 0)
            rk = kpack_feed(kp, data + off, chunk, off, NULL);
        if (rb == 0)
            rb = binscan_feed(bs, data + off, chunk, NULL);
        off += chunk;
    }
    if (rk == 0)
        kpack_finish(kp, NULL);
    if (rb == 0 && binscan_finish(bs, NULL) == 0) {
        json_t *o = scanreport_binary_json("fuzz", binscan_result(bs));
        char *s = json_dumps(o, JSON_COMPACT);
        free(s);
        json_decref(o);
    }
    kpack_free(kp);
    binscan_free(bs);
    return 0;
}
