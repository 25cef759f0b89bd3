/* Unit tests: strbuf, strmap, error helpers and atomic file writes. */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "db.h"
#include "dotver.h"
#include "wheelkey.h"
#include "error.h"
#include "fsutil.h"
#include "harness.h"
#include "http.h"
#include "netaddr.h"
#include "outdir.h"
#include "strbuf.h"
#include "strmap.h"
#include "strpool.h"
#include "sha256.h"
#include "lockfile.h"
#include "warnlist.h"
#include "workers.h"
#include "xalloc.h"

/* workers: every index runs once, a spawned task runs before its join. */
static void mark(void *ud, unsigned i)
{
    ((int *)ud)[i]++;
}

static void set_flag(void *ud)
{
    *(int *)ud = 1;
}

static void workers(void)
{
    OK(workers_cpus() >= 1, "at least one CPU");
    int hits[9] = {0};
    workers_run(9, mark, hits);
    int all = 1;
    for (int i = 0; i < 9; i++)
        all &= hits[i] == 1;
    OK(all, "workers_run runs each index exactly once");
    workers_run(0, mark, hits);
    INT_EQ(hits[0], 1, "workers_run(0) runs nothing");
    int flag = 0;
    struct workers_task t;
    workers_spawn(&t, set_flag, &flag);
    workers_join(&t);
    INT_EQ(flag, 1, "a spawned task has run when joined");
}

/* wa_printable_ascii: text for JSON and terminals. */
static void printable(void)
{
    char s[] = "GeForce \xe9\x1b[2J\x7f ok";
    wa_printable_ascii(s);
    OK(strcmp(s, "GeForce ??[2J? ok") == 0, "non-ASCII and controls become '?': %s", s);
    wa_printable_ascii(NULL);
}

/* http_proxy_from_env: the variables libcurl reads, set and not empty. */
static void proxies(void)
{
    char *none[] = {"PATH=/usr/bin", "http_proxyx=1", "NO_PROXY=*", NULL};
    char *empty[] = {"http_proxy=", "HTTPS_PROXY=", NULL};
    char *one[] = {"PATH=/usr/bin", "https_proxy=http://127.0.0.1:3128", NULL};
    char *all[] = {"ALL_PROXY=socks5://127.0.0.1:1080", NULL};
    OK(!http_proxy_from_env(none), "no proxy variable: not proxied");
    OK(!http_proxy_from_env(empty), "empty proxy variables: not proxied (libcurl ignores them)");
    OK(http_proxy_from_env(one), "https_proxy set: proxied");
    OK(http_proxy_from_env(all), "ALL_PROXY set: proxied");
    OK(!http_proxy_from_env(NULL), "no environment: not proxied");
}

/* dotver_release: the unit versions are grouped by. */
static void releases(void)
{
    static const char *const cases[][2] = {
        {"2.8.1", "2.8"},     {"2.8", "2.8"},
        {"2", "2"},           {"0.24.0", "0.24"},
        {"0.0.33", "0.0.33"}, {"0.0.33.post1", "0.0.33"},
        {"13.6.0", "13.6"},   {"2.10.0.dev20261120", "2.10"},
        {"0.0", "0.0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *r = dotver_release(cases[i][0]);
        OK(strcmp(r, cases[i][1]) == 0, "release of %s: %s, want %s", cases[i][0], r, cases[i][1]);
        free(r);
        char buf[16];
        OK(dotver_release_buf(cases[i][0], buf, sizeof buf) == 0 && strcmp(buf, cases[i][1]) == 0,
           "release of %s into a buffer: %s", cases[i][0], buf);
    }
    /* a buffer too small is refused, never cut; not a version: as written */
    char small[4], buf[32];
    OK(dotver_release_buf("2.10.0", small, sizeof small) == -1, "2.10 does not fit 4 bytes");
    OK(dotver_release_buf("2.1.0", small, sizeof small) == 0 && strcmp(small, "2.1") == 0,
       "2.1 fits 4 bytes: %s", small);
    OK(dotver_release_buf("nightly", buf, sizeof buf) == 0 && strcmp(buf, "nightly") == 0,
       "not a version: as written");
    char *big = dotver_release("123456789.987654321.1");
    OK(strcmp(big, "123456789.987654321") == 0, "long fields: %s", big);
    free(big);
    struct dotver v;
    dotver_parse("12", &v);
    OK(dotver_format_fields(&v, 2, buf, sizeof buf) == 0 && strcmp(buf, "12.0") == 0,
       "a missing field is 0: %s", buf);
    dotver_parse("580.65.06", &v);
    OK(dotver_format_fields(&v, 3, buf, sizeof buf) == 0 && strcmp(buf, "580.65.6") == 0,
       "fields as numbers: %s", buf);
}

/* strbuf_add_json writes what jansson's json_dumps writes, or refuses
 * what json_string refuses. */
static void json_same(const char *s, const char *what)
{
    struct strbuf b = STRBUF_INIT;
    json_t *j = json_string(s);
    int rc = strbuf_add_json(&b, s);
    OK(strbuf_utf8_valid(s) == (j != NULL), "%s: strbuf_utf8_valid agrees with json_string", what);
    if (!j) {
        OK(rc < 0 && b.len == 0, "%s: refused, as jansson refuses it", what);
    } else {
        char *want = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT);
        OK(rc == 0 && strcmp(strbuf_str(&b), want) == 0, "%s: %s, jansson %s", what, strbuf_str(&b),
           want);
        free(want);
    }
    json_decref(j);
    strbuf_free(&b);
}

static void json_strings(void)
{
    char s[8];
    for (int c = 1; c < 256; c++) {
        char what[32];
        snprintf(s, sizeof s, "a%cb", c);
        snprintf(what, sizeof what, "byte 0x%02x", c);
        json_same(s, what);
    }
    /* the same bytes at every place of a longer string: the writer and
     * the check look at 8 bytes at a time */
    for (int c = 1; c < 256; c++)
        for (int at = 0; at < 20; at++) {
            char t[32], what[48];
            memset(t, 'x', 23);
            t[23] = '\0';
            t[at] = (char)c;
            if (c >= 0xc2 && c <= 0xdf && at < 22)
                t[at + 1] = (char)0xa9; /* a two-byte sequence, whole */
            snprintf(what, sizeof what, "byte 0x%02x at %d", c, at);
            json_same(t, what);
        }
    json_same("", "empty");
    json_same("torch-2.9.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl", "a wheel name");
    json_same("https://x/a%2Bb?q=\"<>&/", "a URL with quotes and a slash");
    json_same("caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80", "two-, three- and four-byte UTF-8");
    json_same("\xc0\xaf", "an overlong '/'");
    json_same("\xed\xa0\x80", "a surrogate");
    json_same("\xf4\x90\x80\x80", "past U+10FFFF");
    json_same("\xe2\x9c", "a truncated sequence");
    json_same("\xf5\x80\x80\x80", "a lead byte past F4");
    json_same("\x1f\x7f\t\n", "control characters and DEL");
}

/* strpool: every string copied whole and still there after thousands
 * more, short and long ones (a long one gets a block of its own). */
/* strbuf_decimal: what printf's %llu writes. */
static void decimal(void)
{
    static const unsigned long long cases[] = {0, 7, 10, 99, 100, 4294967296ull, ULLONG_MAX};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char got[21], want[32];
        got[strbuf_decimal(cases[i], got)] = '\0';
        snprintf(want, sizeof want, "%llu", cases[i]);
        STR_EQ(got, want, "strbuf_decimal");
    }
}

/* strbuf_set_joined: the fields with the separator between, anew. */
static void joined(void)
{
    struct strbuf k = STRBUF_INIT;
    strbuf_adds(&k, "old");
    strbuf_set_joined(&k, '|', "torch", "2.9", "cu128", (char *)NULL);
    STR_EQ(strbuf_str(&k), "torch|2.9|cu128", "three fields");
    strbuf_set_joined(&k, 1, "a", "", "b", (char *)NULL);
    OK(k.len == 4 && memcmp(k.buf, "a\1\1b", 4) == 0, "an empty field between two");
    strbuf_set_joined(&k, '|', (char *)NULL);
    STR_EQ(strbuf_str(&k), "", "no field");
    strbuf_free(&k);
}

static void pool(void)
{
    struct strpool *p = strpool_new();
    OK(strpool_dup(p, NULL) == NULL, "strpool_dup(NULL) is NULL");
    enum { N = 20000 };
    char **got = xcalloc(N, sizeof *got);
    char want[200000];
    int bad = 0;
    for (int i = 0; i < N; i++) {
        size_t n = i % 997 == 0 ? (size_t)(70000 + i % 5) : (size_t)(i % 113);
        memset(want, 'a' + i % 26, n);
        want[n] = '\0';
        got[i] = strpool_dup(p, want);
        bad += got[i] == want || strcmp(got[i], want) != 0;
    }
    for (int i = 0; i < N; i++) {
        size_t n = i % 997 == 0 ? (size_t)(70000 + i % 5) : (size_t)(i % 113);
        bad +=
            strlen(got[i]) != n || (n && (got[i][0] != 'a' + i % 26 || got[i][n - 1] != got[i][0]));
    }
    INT_EQ(bad, 0, "pooled strings that differ from their source");
    free(got);
    strpool_free(p);
    strpool_free(NULL);
}

static int add_warning(char ***l, size_t *n, size_t *cap, size_t max, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int add_warning(char ***l, size_t *n, size_t *cap, size_t max, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = warnlist_addv(l, n, cap, max, fmt, ap);
    va_end(ap);
    return rc;
}

/* The scanners' warnings: distinct, bounded, one line each cut short. */
static void warnings(void)
{
    char **l = NULL;
    size_t n = 0, cap = 0;
    INT_EQ(add_warning(&l, &n, &cap, 3, "a %d", 1), 1, "a first warning is added");
    INT_EQ(add_warning(&l, &n, &cap, 3, "a %d", 1), 0, "the same text again is not");
    char big[600];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    INT_EQ(add_warning(&l, &n, &cap, 3, "%s", big), 1, "a long one is added");
    INT_EQ((long)strlen(l[1]), WARNLIST_LINE_MAX, "cut to WARNLIST_LINE_MAX bytes");
    INT_EQ(add_warning(&l, &n, &cap, 3, "b"), 1, "a third");
    INT_EQ(add_warning(&l, &n, &cap, 3, "c"), -1, "a fourth is dropped: the list is full");
    INT_EQ((long)n, 3, "three kept");
    STR_EQ(l[0], "a 1", "in the order added");
    for (size_t i = 0; i < n; i++)
        free(l[i]);
    free(l);
}

/* SHA-256 of known texts (FIPS 180-2's examples), whole and in pieces. */
static void hashes(void)
{
    static const struct {
        const char *text, *hex;
    } v[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        char hex[SHA256_HEX_SIZE];
        struct sha256 *h = sha256_new();
        size_t n = strlen(v[i].text);
        sha256_update(h, v[i].text, n / 2);
        sha256_update(h, v[i].text + n / 2, n - n / 2);
        sha256_final_hex(h, hex);
        sha256_free(h);
        STR_EQ(hex, v[i].hex, v[i].text);
    }
}

/* One writer at a time: a second lock of the same folder (another open
 * file, as another process would have) is refused at once without wait,
 * and granted once the first is released; a lock path that is a link is
 * refused. */
static void locks(const char *work)
{
    char *dir = fsutil_join(work, "locked");
    fsutil_mkdirs(dir, NULL);
    struct lockfile *a = NULL, *b = NULL;
    struct wa_error err = {0};
    OK(lockfile_acquire(dir, 0, NULL, NULL, &a, &err) == 0, "first lock: %s", err.msg);
    OK(lockfile_acquire(dir, 0, NULL, NULL, &b, &err) == WA_ERR_BUSY && b == NULL,
       "second lock refused while held: %s", err.msg);
    lockfile_release(a);
    OK(lockfile_acquire(dir, 0, NULL, NULL, &b, &err) == 0, "granted after release: %s", err.msg);
    lockfile_release(b);
    char *other = fsutil_join(work, "linked");
    fsutil_mkdirs(other, NULL);
    char *lp = lockfile_path(other);
    remove(lp);
    OK(symlink("/etc/passwd", lp) == 0, "a lock file that is a link");
    OK(lockfile_acquire(other, 0, NULL, NULL, &b, &err) == WA_ERR_USAGE,
       "a lock path that is a link is refused: %s", err.msg);
    remove(lp);
    free(lp);
    free(other);
    free(dir);
}

int main(int argc, char **argv)
{
    warnings();
    hashes();
    pool();
    decimal();
    joined();
    workers();
    json_strings();
    releases();
    proxies();
    printable();
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
    /* The same value on every run and machine (no seed), since crawl
     * --shard picks a machine's wheels by it: FNV-1a 64's scheme with the
     * offset basis 1469598103934665603 (the standard one, ...6037, without
     * its last digit; kept, as changing it would move wheels between
     * shards). */
    OK(strmap_hash("torch|2.8.0+cu128|cu128|linux-x86_64") == UINT64_C(0x97340ed2e844db5e),
       "stable hash");
    OK(strmap_hash("") == UINT64_C(1469598103934665603), "offset basis");

    struct wa_error e;
    wa_error_set(&e, WA_ERR_FORMAT, "bad %s", "thing");
    wa_error_prefix(&e, "lib/x.so");
    STR_EQ(e.msg, "lib/x.so: bad thing", "error prefix");
    char small[8];
    wa_strlcpy(small, "abcdefghij", sizeof small);
    STR_EQ(small, "abcdefg", "strlcpy truncates");
    wa_strlcat(small, "xyz", sizeof small);
    STR_EQ(small, "abcdefg", "strlcat on a full buffer");

    char q[32];
    STR_EQ(wa_quote(q, sizeof q, "a\x1b[2J\"b\\", 100), "a\\x1b[2J\\\"b\\\\", "quote escapes");
    STR_EQ(wa_quote(q, sizeof q, "abcdefghijklmnopqrstuvwxyz0123456789", 100),
           "abcdefghijklmnopqrstuvwxyz01...", "quote cuts to the buffer");
    STR_EQ(wa_quote(q, sizeof q, "abcdefgh", 3), "abc...", "quote cuts at max_src");
    /* C1 controls (U+0080..U+009F, C2 80..C2 9F): U+009B is CSI to some
     * terminals, so both bytes are escaped; other characters are kept. */
    STR_EQ(wa_quote(q, sizeof q, "a\xc2\x9b!b", 100), "a\\xc2\\x9b!b", "quote escapes U+009B");
    STR_EQ(wa_quote(q, sizeof q, "\xc2\x80\xc2\x9f", 100), "\\xc2\\x80\\xc2\\x9f",
           "quote escapes U+0080 and U+009F");
    STR_EQ(wa_quote(q, sizeof q, "\xc2\xa0\xc3\xa9\xe2\x80\x9b", 100),
           "\xc2\xa0\xc3\xa9\xe2\x80\x9b", "quote keeps U+00A0, U+00E9 and U+201B");

    /* Record keys: the one check every path built from index data passes. */
    static const char hex64[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    OK(wheelkey_valid(hex64), "sha256 key");
    char *uk = wheelkey_make(NULL, "https://h/x.whl");
    OK(uk && strncmp(uk, "url-", 4) == 0 && wheelkey_valid(uk), "url key");
    free(uk);
    char upper[65];
    for (int i = 0; i < 64; i++)
        upper[i] = (char)(hex64[i] >= 'a' ? hex64[i] - 32 : hex64[i]);
    upper[64] = '\0';
    OK(!wheelkey_valid(upper), "uppercase is not a key");
    char *lk = wheelkey_make(upper, "u");
    STR_EQ(lk, hex64, "db_key lowercases an uppercase sha256");
    free(lk);
    static const char *const bad_keys[] = {
        "././././././././././././././././././././././././../../../pwn/x",
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde",
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0",
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg",
        "url-../0123456789abcdef0123456789abcdef0123456789abcdef01234567",
        "",
        NULL};
    for (const char *const *k = bad_keys; *k; k++) {
        OK(!wheelkey_valid(*k), "not a key: %s", *k);
        OK(wheelkey_make(*k, "u") == NULL, "wheelkey_make refuses sha256 %s", *k);
        OK(!wheelkey_sha256_valid(*k), "not a sha256: %s", *k);
    }
    OK(!wheelkey_valid(NULL), "NULL is not a key");

    /* Address classes for the redirect policy. */
    INT_EQ(netaddr_classify_text("127.0.0.1"), NETADDR_LOOPBACK, "127.0.0.1");
    INT_EQ(netaddr_classify_text("127.200.1.1"), NETADDR_LOOPBACK, "127/8");
    INT_EQ(netaddr_classify_text("10.1.2.3"), NETADDR_PRIVATE, "10/8");
    INT_EQ(netaddr_classify_text("172.31.255.255"), NETADDR_PRIVATE, "172.16/12");
    INT_EQ(netaddr_classify_text("172.32.0.1"), NETADDR_PUBLIC, "172.32 is public");
    INT_EQ(netaddr_classify_text("192.168.0.1"), NETADDR_PRIVATE, "192.168/16");
    INT_EQ(netaddr_classify_text("169.254.169.254"), NETADDR_LINK_LOCAL, "metadata service");
    INT_EQ(netaddr_classify_text("100.64.0.1"), NETADDR_PRIVATE, "CGNAT");
    INT_EQ(netaddr_classify_text("0.0.0.0"), NETADDR_UNSPECIFIED, "0.0.0.0");
    INT_EQ(netaddr_classify_text("224.0.0.1"), NETADDR_SPECIAL, "multicast");
    INT_EQ(netaddr_classify_text("151.101.0.223"), NETADDR_PUBLIC, "public v4");
    INT_EQ(netaddr_classify_text("::1"), NETADDR_LOOPBACK, "::1");
    INT_EQ(netaddr_classify_text("[::1]"), NETADDR_LOOPBACK, "[::1]");
    INT_EQ(netaddr_classify_text("::"), NETADDR_UNSPECIFIED, "::");
    INT_EQ(netaddr_classify_text("::ffff:127.0.0.1"), NETADDR_LOOPBACK, "v4-mapped loopback");
    INT_EQ(netaddr_classify_text("::ffff:8.8.8.8"), NETADDR_PUBLIC, "v4-mapped public");
    INT_EQ(netaddr_classify_text("64:ff9b::a00:1"), NETADDR_PRIVATE, "NAT64 of 10.0.0.1");
    INT_EQ(netaddr_classify_text("2002:7f00:1::"), NETADDR_LOOPBACK, "6to4 of 127.0.0.1");
    INT_EQ(netaddr_classify_text("fd00::1"), NETADDR_PRIVATE, "unique local");
    INT_EQ(netaddr_classify_text("fe80::1%eth0"), NETADDR_LINK_LOCAL, "link-local with zone");
    INT_EQ(netaddr_classify_text("ff02::1"), NETADDR_SPECIAL, "v6 multicast");
    INT_EQ(netaddr_classify_text("2606:4700::1111"), NETADDR_PUBLIC, "public v6");
    INT_EQ(netaddr_classify_text("download.pytorch.org"), -1, "a name is not numeric");
    OK(netaddr_host_is_local("localhost") && netaddr_host_is_local("LOCALHOST.") &&
           netaddr_host_is_local("a.localhost") && netaddr_host_is_local("127.0.0.1") &&
           netaddr_host_is_local("[::1]") && netaddr_host_is_local("10.0.0.7"),
       "local hosts");
    OK(!netaddr_host_is_local("download.pytorch.org") && !netaddr_host_is_local("localhost.evil") &&
           !netaddr_host_is_local("8.8.8.8"),
       "public hosts");
    struct sockaddr_in6 s6;
    memset(&s6, 0, sizeof s6);
    s6.sin6_family = AF_INET6;
    inet_pton(AF_INET6, "::ffff:169.254.169.254", &s6.sin6_addr);
    INT_EQ(netaddr_classify((struct sockaddr *)&s6, sizeof s6), NETADDR_LINK_LOCAL,
           "sockaddr v4-mapped metadata address");

    if (argc > 1) {
        char *dir = xasprintf("%s/test_util", argv[1]);
        mkdir(argv[1], 0777);
        OK(fsutil_mkdirs(dir, &e) == 0, "mkdirs");
        locks(dir);
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

        /* outdir_put_first: a page path made from data that an earlier page
         * already took is left out (1), the first file stays; outdir_put
         * still calls a second write an error. */
        char *out = fsutil_join(dir, "site");
        struct outdir *o;
        OK(outdir_begin(out, &o, &e) == 0, "outdir begin");
        INT_EQ(outdir_put_first(o, "release/torch/1.0/index.html", "first", 5, &e), 0,
               "first page at a path");
        INT_EQ(outdir_put_first(o, "release/torch/1.0/index.html", "second", 6, &e), 1,
               "second page at the path left out");
        INT_EQ(outdir_put_first(o, "release/torch/2.0/index.html", "other", 5, &e), 0,
               "a page at another path");
        OK(outdir_put(o, "release/torch/1.0/index.html", "third", 5, &e) < 0 &&
               strstr(e.msg, "written twice"),
           "outdir_put of a taken path is an error: %s", e.msg);
        OK(outdir_put_first(o, "../x", "x", 1, &e) < 0, "outdir_put_first checks the path");
        struct outdir_stats ost;
        OK(outdir_commit(o, &ost, &e) == 0, "outdir commit: %s", e.msg);
        INT_EQ(ost.files, 3, "two files in the tree, and the marker");
        char *page = fsutil_join(out, "release/torch/1.0/index.html");
        char *pd = NULL;
        size_t pl = 0;
        OK(fsutil_read(page, 100, &pd, &pl, NULL, &e) == 0 && pl == 5 &&
               memcmp(pd, "first", 5) == 0,
           "the first page stays");
        free(pd);

        /* The folder is replaced by another while a build runs: the swap
         * sees it is not the one the build began with, and leaves it. */
        OK(outdir_begin(out, &o, &e) == 0, "outdir begin a second build: %s", e.msg);
        OK(outdir_put(o, "index.html", "new", 3, &e) == 0, "a page");
        char *moved = xasprintf("%s.moved", out), *theirs = fsutil_join(out, "theirs.txt");
        OK(rename(out, moved) == 0 && mkdir(out, 0777) == 0 &&
               fsutil_write_atomic(theirs, "x", 1, 0, &e) == 0,
           "another folder put in its place");
        OK(outdir_commit(o, &ost, &e) < 0 && strstr(e.msg, "was replaced by another"),
           "the swap refused: %s", e.msg);
        OK(fsutil_exists(theirs), "the folder put in place keeps its file");
        char *tmpdir = outdir_tmp_path(out);
        OK(!fsutil_exists(tmpdir), "the new tree is removed");
        free(tmpdir);
        outdir_remove_tree(moved);
        free(moved);
        free(theirs);
        outdir_remove_tree(out);
        free(page);
        free(out);
        free(dir);
    }
    return harness_done();
}
