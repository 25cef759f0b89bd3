/* Unit tests: strbuf, strmap, error helpers and atomic file writes. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "fsutil.h"
#include "harness.h"
#include "strbuf.h"
#include "strmap.h"
#include "xalloc.h"

int main(int argc, char **argv)
{
    struct strbuf b = STRBUF_INIT;
    STR_EQ(strbuf_str(&b), "", "empty strbuf");
    strbuf_grow(&b, 0);
    STR_EQ(strbuf_str(&b), "", "grown but empty strbuf is an empty string");
    strbuf_addf(&b, "%d-%s", 12, "ab");
    strbuf_addc(&b, '!');
    STR_EQ(strbuf_str(&b), "12-ab!", "addf/addc");
    size_t n;
    char *s = strbuf_detach(&b, &n);
    INT_EQ(n, 6, "detach length");
    free(s);
    OK(b.buf == NULL && b.len == 0, "detached buffer is empty");

    struct strmap *m = strmap_new();
    char key[32];
    for (size_t i = 0; i < 5000; i++) {
        snprintf(key, sizeof key, "k%zu", i);
        strmap_put(m, key, i * 3);
    }
    strmap_put(m, "k7", 7);
    INT_EQ(strmap_count(m), 5000, "map count");
    size_t v = 0;
    OK(strmap_get(m, "k4999", &v) && v == 4999 * 3, "map get");
    OK(strmap_get(m, "k7", &v) && v == 7, "map replace");
    OK(!strmap_get(m, "nope", &v), "map miss");
    strmap_free(m);
    OK(strmap_hash("torch|2.8.0+cu128|cu128|linux-x86_64") ==
           strmap_hash("torch|2.8.0+cu128|cu128|linux-x86_64"),
       "stable hash");

    struct wa_error e;
    wa_error_set(&e, WA_ERR_FORMAT, "bad %s", "thing");
    wa_error_prefix(&e, "lib/x.so");
    STR_EQ(e.msg, "lib/x.so: bad thing", "error prefix");
    char small[8];
    wa_strlcpy(small, "abcdefghij", sizeof small);
    STR_EQ(small, "abcdefg", "strlcpy truncates");
    wa_strlcat(small, "xyz", sizeof small);
    STR_EQ(small, "abcdefg", "strlcat on a full buffer");

    if (argc > 1) {
        char *dir = xasprintf("%s/test_util", argv[1]);
        mkdir(argv[1], 0777);
        OK(fsutil_mkdirs(dir, &e) == 0, "mkdirs");
        char *sub = fsutil_join(dir, "a/b/c");
        OK(fsutil_mkdirs(sub, &e) == 0 && fsutil_exists(sub), "nested mkdirs");
        char *f = fsutil_join(dir, "file.json");
        OK(fsutil_write_atomic(f, "one", 3, 1, &e) == 0, "write");
        OK(fsutil_write_atomic(f, "two!", 4, 0, &e) == 0, "overwrite");
        char *data;
        size_t len;
        OK(fsutil_read(f, 100, &data, &len, NULL, &e) == 0 && len == 4 && strcmp(data, "two!") == 0,
           "read back");
        free(data);
        OK(fsutil_read(f, 2, &data, &len, NULL, &e) == WA_ERR_LIMIT, "read limit");
        int missing = 0;
        char *nf = fsutil_join(dir, "none");
        OK(fsutil_read(nf, 10, &data, &len, &missing, &e) == WA_ERR_IO && missing, "missing file");
        /* A temporary file of a dead process is cleaned; one of ours too. */
        char *tmp = fsutil_join(dir, ".tmp-999999999-1-x.json");
        fsutil_write_atomic(tmp, "x", 1, 0, &e);
        fsutil_clean_temp(dir);
        OK(!fsutil_exists(tmp), "stale temporary file removed");
        OK(fsutil_exists(f), "real file kept");
        free(tmp);
        free(nf);
        free(f);
        free(sub);
        free(dir);
    }
    return harness_done();
}
