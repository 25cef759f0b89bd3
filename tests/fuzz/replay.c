/* Replays inputs through a libFuzzer target without libFuzzer: linked with
 * one fuzz_*.c, it calls LLVMFuzzerTestOneInput once per file, so the
 * committed seeds and crash inputs run in the normal test suite (gcc or
 * clang, with or without the sanitizers).
 *
 * usage: replay_<target> FILE|DIR...
 *   A directory stands for the regular files in it (not recursive, names
 *   starting with '.' skipped), in name order.  Each input is copied into
 *   a buffer of exactly its size, so a read past the end is caught by
 *   AddressSanitizer as under libFuzzer.  Each input's name goes to stderr
 *   before it runs (so a crash names its input), and a summary line to
 *   stdout at the end.
 *
 * Exit status: 0 when every input ran; 1 when an input could not be read
 * or there were no inputs at all (an empty seed directory is a mistake,
 * not a pass); 2 for usage errors.  A crash, abort() or sanitizer report
 * (ASan, and UBSan also where it is built to recover) in the target ends
 * the process with its signal or the sanitizer's status, which CTest
 * reports as a failure. */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where UBSan is built to report and go on (the libFuzzer build), stop at
 * the first report so that it fails the test; unused without UBSan. */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
    return "halt_on_error=1:print_stacktrace=1";
}

static size_t ran;
static unsigned long long bytes;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t k;
    while (buf && (k = fread(buf + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    int bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        fprintf(stderr, "replay: %s: read failed\n", path);
        free(buf);
        return -1;
    }
    /* An exactly sized copy: libFuzzer passes the input that way too. */
    uint8_t *data = malloc(len ? len : 1);
    if (!data) {
        free(buf);
        fprintf(stderr, "replay: %s: out of memory\n", path);
        return -1;
    }
    if (len)
        memcpy(data, buf, len);
    free(buf);
    fprintf(stderr, "replay: %s\n", path);
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    ran++;
    bytes += len;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        size_t plen = strlen(dir) + 1 + strlen(de->d_name) + 1;
        char *p = malloc(plen);
        if (!p) {
            rc = -1;
            break;
        }
        snprintf(p, plen, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
            free(p);
            continue;
        }
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            char **nn = realloc(names, nc * sizeof *names);
            if (!nn) {
                free(p);
                rc = -1;
                break;
            }
            names = nn;
            cap = nc;
        }
        names[n++] = p;
    }
    closedir(d);
    if (n > 1)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0 && run_file(names[i]) != 0)
            rc = -1;
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int rc = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
            rc = 1;
        } else if (S_ISDIR(st.st_mode)) {
            if (run_dir(argv[i]) != 0)
                rc = 1;
        } else if (run_file(argv[i]) != 0) {
            rc = 1;
        }
    }
    if (ran == 0) {
        fprintf(stderr, "replay: no inputs\n");
        rc = 1;
    }
    printf("replay: %zu inputs, %llu bytes, %s\n", ran, bytes, rc ? "with errors" : "all ran");
    return rc;
}
