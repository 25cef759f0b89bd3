/*
 * scan: wheels and binaries, from a local file or pushed bytes.
 */
#include "scan.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"
#include "wheelmeta.h"
#include "xalloc.h"
#include "zipstream.h"

#define READ_CHUNK (1u << 20)

struct scan_result *scan_result_new(const char *input)
{
    struct scan_result *r = xcalloc(1, sizeof *r);
    r->input = xstrdup(input);
    return r;
}

void scan_result_free(struct scan_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nbins; i++) {
        free(r->bins[i].path);
        binscan_free(r->bins[i].bs);
    }
    free(r->bins);
    wheelmeta_free(r->requires, r->nrequires);
    wheelname_free(&r->wheel);
    free(r->input);
    free(r);
}

void scan_result_clear(struct scan_result *r)
{
    for (size_t i = 0; i < r->nbins; i++) {
        free(r->bins[i].path);
        binscan_free(r->bins[i].bs);
    }
    r->nbins = 0;
    r->members = 0;
    r->binaries_read = 0;
    wheelmeta_free(r->requires, r->nrequires);
    r->requires = NULL;
    r->nrequires = 0;
    r->has_metadata = 0;
    r->failed = 0;
    r->sha256[0] = '\0';
    wa_error_clear(&r->error);
}

void scan_result_set_name(struct scan_result *r, const char *filename)
{
    wheelname_free(&r->wheel);
    r->has_wheel_name = wheelname_parse(filename, &r->wheel, NULL) == 0;
}

static void add_binary(struct scan_result *r, const char *path, struct binscan *bs)
{
    r->bins = xgrow(r->bins, &r->capbins, r->nbins + 1, sizeof *r->bins);
    r->bins[r->nbins].path = xstrdup(path);
    r->bins[r->nbins].bs = bs;
    r->nbins++;
}

int scan_result_has_gpu_code(const struct scan_result *r)
{
    for (size_t i = 0; i < r->nbins; i++)
        if (binscan_result(r->bins[i].bs)->nmodules > 0)
            return 1;
    return 0;
}

int scan_member_is_candidate(const char *name)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    static const char *const exts[] = {".dll",   ".pyd",  ".exe", ".fatbin", ".cubin", ".dylib",
                                       ".kpack", ".node", ".so",  ".co",     ".hsaco", ".hipfb"};
    size_t n = strlen(base);
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        size_t e = strlen(exts[i]);
        if (n > e && strcmp(base + n - e, exts[i]) == 0)
            return 1;
    }
    /* libfoo.so.12, libfoo.so.12.4.5 */
    const char *so = strstr(base, ".so.");
    if (so && so > base) {
        for (const char *p = so + 4; *p; p++)
            if (!((*p >= '0' && *p <= '9') || *p == '.'))
                return 0;
        return 1;
    }
    return 0;
}

int scan_member_is_wanted(const char *name)
{
    return scan_member_is_candidate(name) || wheelmeta_is_member(name);
}

static void clear_requires(struct scan_result *r)
{
    wheelmeta_free(r->requires, r->nrequires);
    r->requires = NULL;
    r->nrequires = 0;
    r->has_metadata = 0;
}

/* ---- zip members -------------------------------------------------------- */

struct scan_wheel {
    struct scan_result *r;
    struct zipstream *zs;
    int sniff_all;
    struct binscan *cur; /* binscan of the member being read */
    char *cur_name;
    int cur_binary; /* the member is an ELF/PE/fatbin file */
    int in_meta;    /* the member is the wheel's METADATA, read into meta */
    struct strbuf meta;
    /* what r held at the last seek, for scan_wheel_restart */
    size_t mark_members, mark_binaries_read, mark_nbins;
};

static int member_begin(void *ud, const struct zipstream_member *m)
{
    struct scan_wheel *sw = ud;
    sw->r->members++;
    binscan_free(sw->cur);
    sw->cur = NULL;
    free(sw->cur_name);
    sw->cur_name = NULL;
    sw->cur_binary = 0;
    sw->in_meta = 0;
    size_t n = strlen(m->name);
    if (n > 0 && m->name[n - 1] == '/')
        return 0; /* a directory */
    if (wheelmeta_is_member(m->name)) {
        sw->in_meta = 1;
        strbuf_reset(&sw->meta);
        return 1;
    }
    if (!sw->sniff_all && !scan_member_is_candidate(m->name))
        return 0;
    sw->cur = binscan_new(m->usize == ZIPSTREAM_SIZE_UNKNOWN ? BINSCAN_SIZE_UNKNOWN : m->usize);
    sw->cur_name = xstrdup(m->name);
    return 1;
}

static int member_data(void *ud, const uint8_t *buf, size_t n, struct wa_error *err)
{
    struct scan_wheel *sw = ud;
    if (sw->in_meta) {
        size_t room = WHEELMETA_MAX_SIZE - sw->meta.len;
        strbuf_add(&sw->meta, buf, n < room ? n : room);
        return sw->meta.len >= WHEELMETA_MAX_SIZE; /* enough: the headers come first */
    }
    if (!sw->cur)
        return 1;
    int rc = binscan_feed(sw->cur, buf, n, err);
    if (rc < 0)
        return rc;
    int fmt = binscan_format(sw->cur);
    if (fmt == BINSCAN_FORMAT_UNKNOWN) {
        binscan_free(sw->cur);
        sw->cur = NULL;
        return 1;
    }
    if (fmt != BINSCAN_FORMAT_PENDING)
        sw->cur_binary = 1;
    return 0;
}

static int member_end(void *ud, struct wa_error *err)
{
    struct scan_wheel *sw = ud;
    if (sw->in_meta) {
        sw->in_meta = 0;
        clear_requires(sw->r);
        wheelmeta_requires(sw->meta.buf ? sw->meta.buf : "", sw->meta.len, &sw->r->requires,
                           &sw->r->nrequires);
        sw->r->has_metadata = 1;
        strbuf_free(&sw->meta);
        return 0;
    }
    if (!sw->cur)
        return 0;
    int rc = binscan_finish(sw->cur, err);
    if (rc < 0)
        return rc;
    const struct binscan_result *br = binscan_result(sw->cur);
    if (br->format == BINSCAN_FORMAT_UNKNOWN || br->format == BINSCAN_FORMAT_PENDING) {
        binscan_free(sw->cur);
        sw->cur = NULL;
        return 0;
    }
    sw->r->binaries_read++;
    if (br->nmodules > 0 || br->narch_flags > 0) {
        add_binary(sw->r, sw->cur_name, sw->cur);
    } else {
        binscan_free(sw->cur);
    }
    sw->cur = NULL;
    return 0;
}

static const struct zipstream_handler member_handler = {member_begin, member_data, member_end};

struct scan_wheel *scan_wheel_new(struct scan_result *r, const struct zipdir_entry *entries,
                                  size_t n, int sniff_all)
{
    struct scan_wheel *sw = xcalloc(1, sizeof *sw);
    sw->r = r;
    sw->sniff_all = sniff_all;
    sw->zs = zipstream_new(entries, n, &member_handler, sw);
    r->kind = SCAN_KIND_ZIP;
    return sw;
}

void scan_wheel_free(struct scan_wheel *sw)
{
    if (!sw)
        return;
    zipstream_free(sw->zs);
    binscan_free(sw->cur);
    free(sw->cur_name);
    strbuf_free(&sw->meta);
    free(sw);
}

void scan_wheel_set_verify(struct scan_wheel *sw, int on)
{
    zipstream_set_verify(sw->zs, on);
}

int scan_wheel_seek(struct scan_wheel *sw, uint64_t offset, struct wa_error *err)
{
    return zipstream_seek(sw->zs, offset, err);
}

void scan_wheel_mark(struct scan_wheel *sw)
{
    sw->mark_members = sw->r->members;
    sw->mark_binaries_read = sw->r->binaries_read;
    sw->mark_nbins = sw->r->nbins;
}

int scan_wheel_restart(struct scan_wheel *sw, uint64_t offset, struct wa_error *err)
{
    struct scan_result *r = sw->r;
    for (size_t i = sw->mark_nbins; i < r->nbins; i++) {
        free(r->bins[i].path);
        binscan_free(r->bins[i].bs);
    }
    r->nbins = sw->mark_nbins;
    r->members = sw->mark_members;
    r->binaries_read = sw->mark_binaries_read;
    binscan_free(sw->cur);
    sw->cur = NULL;
    free(sw->cur_name);
    sw->cur_name = NULL;
    sw->cur_binary = 0;
    sw->in_meta = 0;
    strbuf_reset(&sw->meta);
    return zipstream_seek(sw->zs, offset, err);
}

int scan_wheel_feed(struct scan_wheel *sw, const uint8_t *buf, size_t n, struct wa_error *err)
{
    return zipstream_feed(sw->zs, buf, n, err);
}

int scan_wheel_finish(struct scan_wheel *sw, int expect_all, struct wa_error *err)
{
    return zipstream_finish(sw->zs, expect_all, err);
}

/* ---- local files -------------------------------------------------------- */

static int read_at(int fd, void *buf, size_t n, uint64_t off, struct wa_error *err)
{
    if (off > (uint64_t)INT64_MAX - n)
        return wa_error_set(err, WA_ERR_FORMAT, "offset %llu lies beyond any file",
                            (unsigned long long)off);
    size_t got = 0;
    while (got < n) {
        ssize_t k = pread(fd, (char *)buf + got, n - got, (off_t)(off + got));
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return wa_error_set(err, WA_ERR_IO, "read failed: %s", strerror(errno));
        if (k == 0)
            return wa_error_set(err, WA_ERR_TRUNCATED, "file shorter than expected");
        got += (size_t)k;
    }
    return 0;
}

/* zipdir_fetch_fn for a local file. */
struct file_fetch {
    int fd;
    uint8_t *buf;
};

static int fetch_file(void *ud, uint64_t off, uint64_t len, const uint8_t **data,
                      struct wa_error *err)
{
    struct file_fetch *f = ud;
    if (len > ZIP_MAX_CDIR) /* zipdir_read asks for no more */
        return wa_error_set(err, WA_ERR_LIMIT, "%llu bytes is too much to read",
                            (unsigned long long)len);
    free(f->buf);
    f->buf = xmalloc(len ? (size_t)len : 1);
    int rc = read_at(f->fd, f->buf, (size_t)len, off, err);
    *data = f->buf;
    return rc;
}

int scan_read_zip_directory(int fd, uint64_t size, struct zipdir_entry **ents, size_t *n,
                            struct wa_error *err)
{
    size_t tail = size < ZIP_TAIL_MAX ? (size_t)size : ZIP_TAIL_MAX;
    uint8_t *buf = xmalloc(tail ? tail : 1);
    struct file_fetch f = {fd, NULL};
    int rc = read_at(fd, buf, tail, size - tail, err);
    if (rc == 0)
        rc = zipdir_read(buf, tail, size - tail, size, fetch_file, &f, NULL, ents, n, err);
    free(f.buf);
    free(buf);
    return rc;
}

static int detect_kind(const uint8_t *p, size_t n)
{
    if (n >= 4 && p[0] == 'P' && p[1] == 'K' &&
        ((p[2] == 3 && p[3] == 4) || (p[2] == 5 && p[3] == 6)))
        return SCAN_KIND_ZIP;
    if (n >= 4 && memcmp(p,
                         "\x7f"
                         "ELF",
                         4) == 0)
        return SCAN_KIND_BINARY;
    if (n >= 4 && p[0] == 0x50 && p[1] == 0xED && p[2] == 0x55 && p[3] == 0xBA)
        return SCAN_KIND_BINARY;
    if (n >= 2 && p[0] == 'M' && p[1] == 'Z')
        return SCAN_KIND_BINARY;
    if (n >= 4 && (memcmp(p, "__CL", 4) == 0 || memcmp(p, "CCOB", 4) == 0))
        return SCAN_KIND_BINARY; /* a clang offload bundle, plain or compressed */
    if (n >= 4 && memcmp(p, "KPAK", 4) == 0)
        return SCAN_KIND_BINARY; /* an AMD kernel archive */
    return SCAN_KIND_UNKNOWN;
}

/* The sha256 of a whole file, computed by a second thread while the main
 * one scans (the file is read twice, the second time from the page cache;
 * hashing alone was about 15% of a scan). */
struct hasher {
    _Atomic int stop; /* the scan failed: no need to finish the hash */
    int fd;
    uint64_t size;
    struct sha256 *h;
    int rc;
    char err[128];
    pthread_t thread;
};

static void *hash_thread(void *arg)
{
    struct hasher *hs = arg;
    uint8_t *buf = xmalloc(READ_CHUNK);
    uint64_t off = 0;
    while (off < hs->size && !hs->stop) {
        size_t want = hs->size - off < READ_CHUNK ? (size_t)(hs->size - off) : READ_CHUNK;
        ssize_t k = pread(hs->fd, buf, want, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            hs->rc = k < 0 ? WA_ERR_IO : WA_ERR_TRUNCATED;
            snprintf(hs->err, sizeof hs->err, "%s", k < 0 ? strerror(errno) : "file shrank");
            break;
        }
        sha256_update(hs->h, buf, (size_t)k);
        off += (uint64_t)k;
    }
    free(buf);
    return NULL;
}

static void hasher_start(struct hasher *hs, int fd, uint64_t size)
{
    hs->fd = fd;
    hs->size = size;
    hs->rc = 0;
    hs->stop = 0;
    hs->h = sha256_new();
    if (pthread_create(&hs->thread, NULL, hash_thread, hs) != 0) {
        hash_thread(hs); /* no thread: hash inline */
        hs->thread = pthread_self();
    }
}

/* Waits for the hash; returns 0 and the hex digest, or an error. */
static int hasher_finish(struct hasher *hs, char hex[SHA256_HEX_SIZE], struct wa_error *err)
{
    if (!pthread_equal(hs->thread, pthread_self()))
        pthread_join(hs->thread, NULL);
    int rc = hs->rc;
    if (rc == 0)
        sha256_final_hex(hs->h, hex);
    else
        wa_error_set(err, rc, "read failed while hashing: %s", hs->err);
    sha256_free(hs->h);
    hs->h = NULL;
    return rc;
}

/* Reads the whole file once, pushing it to `push`. */
typedef int (*push_fn)(void *ud, const uint8_t *buf, size_t n, struct wa_error *err);

static int stream_file(int fd, uint64_t size, push_fn push, void *ud, struct wa_error *err)
{
    uint8_t *buf = xmalloc(READ_CHUNK);
    uint64_t done = 0;
    int rc = 0;
    while (done < size) {
        ssize_t k = read(fd, buf, READ_CHUNK);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            rc = wa_error_set(err, WA_ERR_IO, "read failed: %s", strerror(errno));
            break;
        }
        if (k == 0) {
            rc = wa_error_set(err, WA_ERR_TRUNCATED, "file shrank while being read");
            break;
        }
        if ((uint64_t)k > size - done)
            k = (ssize_t)(size - done);
        rc = push(ud, buf, (size_t)k, err);
        if (rc < 0)
            break;
        done += (uint64_t)k;
    }
    free(buf);
    return rc;
}

static int push_wheel(void *ud, const uint8_t *buf, size_t n, struct wa_error *err)
{
    return scan_wheel_feed(ud, buf, n, err);
}

static int push_binary(void *ud, const uint8_t *buf, size_t n, struct wa_error *err)
{
    return binscan_feed(ud, buf, n, err);
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

struct scan_result *scan_file(const char *path)
{
    struct scan_result *r = scan_result_new(path);
    struct wa_error *err = &r->error;
    struct hasher hs;
    int hashing = 0;
    /* O_NONBLOCK: a FIFO must not hang open(); it is refused below as
     * not a regular file (reads of a regular file never block anyway). */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    int rc = 0;
    if (fd < 0) {
        rc = wa_error_set(err, WA_ERR_IO, "cannot open: %s", strerror(errno));
        goto out;
    }
    struct stat st;
    if (fstat(fd, &st) < 0) {
        rc = wa_error_set(err, WA_ERR_IO, "cannot stat: %s", strerror(errno));
        goto out;
    }
    if (!S_ISREG(st.st_mode)) {
        rc = wa_error_set(err, WA_ERR_IO, "not a regular file");
        goto out;
    }
    r->size = (uint64_t)st.st_size;
    uint8_t magic[4] = {0};
    size_t mlen = r->size < 4 ? (size_t)r->size : 4;
    if (mlen && (rc = read_at(fd, magic, mlen, 0, err)) < 0)
        goto out;
    r->kind = detect_kind(magic, mlen);
    if (r->kind == SCAN_KIND_UNKNOWN) {
        rc = wa_error_set(err, WA_ERR_FORMAT,
                          "not a wheel, ELF, PE, fatbin, offload bundle or kernel archive file");
        goto out;
    }
#ifdef POSIX_FADV_SEQUENTIAL
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    if (r->kind == SCAN_KIND_ZIP) {
        scan_result_set_name(r, base_name(path));
        struct zipdir_entry *ents = NULL;
        size_t n = 0;
        rc = scan_read_zip_directory(fd, r->size, &ents, &n, err);
        if (rc < 0) {
            wa_error_prefix(err, "not a readable zip archive");
            goto out;
        }
        struct scan_wheel *sw = scan_wheel_new(r, ents, n, 1);
        scan_wheel_set_verify(sw, 1);
        hasher_start(&hs, fd, r->size);
        hashing = 1;
        rc = stream_file(fd, r->size, push_wheel, sw, err);
        if (rc == 0)
            rc = scan_wheel_finish(sw, 1, err);
        scan_wheel_free(sw);
        zipdir_entries_free(ents, n);
    } else {
        struct binscan *bs = binscan_new(r->size);
        hasher_start(&hs, fd, r->size);
        hashing = 1;
        rc = stream_file(fd, r->size, push_binary, bs, err);
        if (rc == 0)
            rc = binscan_finish(bs, err);
        add_binary(r, path, bs);
    }
out:
    if (hashing) {
        struct wa_error herr;
        if (rc < 0)
            hs.stop = 1;
        if (hasher_finish(&hs, r->sha256, &herr) < 0 && rc == 0) {
            *err = herr;
            rc = herr.code;
        }
        if (rc < 0)
            r->sha256[0] = '\0';
    }
    if (rc < 0)
        r->failed = 1;
    if (fd >= 0)
        close(fd);
    return r;
}
