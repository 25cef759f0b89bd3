/*
 * binscan_state: the state of one scan, shared by the files of binscan:
 *   binscan.c           lifecycle and the fatbin walker
 *   binscan_finish.c    the end: entries labelled, AMD code added, checks
 *   binscan_payload.c   what one fatbin entry holds
 *   binscan_sections.c  captures and the ELF/PE section tables
 *   binscan_flags.c     nvcc arch-flag strings
 *   binscan_diag.c      warnings and the first error
 * Not for other modules.
 */
#ifndef WHEELARCH_BINSCAN_STATE_H
#define WHEELARCH_BINSCAN_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "binscan_types.h"
#include "codec.h"
#include "elf.h"
#include "error.h"
#include "fatbin.h"
#include "hipscan.h"
#include "pe.h"
#include "strbuf.h"

#define HEAD_SIZE 4096u
#define PE_HEAD_MAX (0x10000u + 0x10000u + PE_MAX_SECTIONS * PE_SECTION_HEADER_SIZE)
#define PRESHT_WINDOW (1u << 20)
#define SHT_MAX (16u << 20)
#define SHSTR_MAX (1u << 20)
#define PESTR_MAX (1u << 20)
#define ARCH_FLAGS_MAX 16384u
#define ARCH_FLAGS_LOOKBEHIND 1024u
#define PREFIX_OUT 1024u
#define CANDIDATE_BYTES (FATBIN_HEADER_SIZE + FATBIN_ENTRY_MIN_HEADER)
#define MAX_REJECTS 16

static const char gencode_needle[] = "-gencode";
#define NEEDLE_LEN (sizeof gencode_needle - 1)

/* Ordered so that a window completes before the table that needs it when
 * both end in the same chunk. */
enum capture_id { CAP_HEAD, CAP_ELF_PRESHT, CAP_ELF_SHT, CAP_ELF_SHSTR, CAP_PE_STR, CAP_COUNT };

struct capture {
    uint64_t off;
    uint64_t len;
    uint64_t have;
    uint8_t *buf;
    size_t bufcap;
    uint8_t active;
    uint8_t done;
    uint8_t missed;
};

enum walk_state { S_SEARCH, S_CANDIDATE, S_ENTRY_HDR, S_PAYLOAD };

struct section_label {
    uint64_t off;
    uint64_t size;
    char name[32];
};

struct reject {
    uint64_t off;
    char why[160];
};

struct binscan {
    uint64_t size;
    uint64_t pos;
    int failed;
    int finished;
    struct wa_error err;
    struct binscan_result r;
    size_t cap_modules, cap_entries, cap_warnings, cap_flags;

    struct capture caps[CAP_COUNT];
    struct elf_header elf;
    int have_elf;
    struct pe_info pe;
    int have_pe;
    int pe_need_strtab;
    struct section_label *sects;
    uint32_t *sect_name_off; /* ELF: offsets into .shstrtab */
    size_t nsects;
    int names_known;

    enum walk_state st;
    uint8_t hdr[FATBIN_HEADER_SIZE + FATBIN_ENTRY_MAX_HEADER];
    size_t hdrlen;
    size_t hdrneed;
    uint64_t cand_off;
    uint64_t cont_end;
    struct fatbin_entry fe;
    int fe_parsed;
    uint64_t entry_off;
    uint64_t payload_left;
    size_t cur_module;

    uint8_t *prefix;
    size_t prefix_len;
    size_t prefix_want;
    struct codec *codec;

    struct reject rejects[MAX_REJECTS];
    size_t nrejects;

    struct hipscan *hip;
    struct kpack *kpack; /* fed while the format may be a kernel archive's */

    uint8_t gcarry[NEEDLE_LEN];
    size_t gncarry;
    int grabbing;
    struct strbuf grab;
};

/* Diagnostics (binscan_diag.c). */
void binscan_warnf(struct binscan *bs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int binscan_fail(struct binscan *bs, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Captures and section tables (binscan_sections.c). */
int binscan_captures_feed(struct binscan *bs, const uint8_t *buf, size_t n, uint64_t base);
int binscan_detect_format(struct binscan *bs, const uint8_t *p, size_t n);
/* Acts on capture id once its bytes are all in (parses the tables). */
int binscan_on_capture(struct binscan *bs, int id);

/* A fatbin container's magic as it is stored (binscan.c). */
extern const uint8_t binscan_magic[4];

/* binscan_payload.c and binscan.c, for the walker. */
void binscan_add_reject(struct binscan *bs, uint64_t off, const char *why);
size_t binscan_prefix_budget(const struct fatbin_entry *fe, int codec);
void binscan_inspect_entry(struct binscan *bs, struct binscan_entry *be);

/* Arch-flag strings (binscan_flags.c). */
void binscan_grab_scan(struct binscan *bs, const uint8_t *p, size_t n);
void binscan_grab_break(struct binscan *bs);
void binscan_grab_finish(struct binscan *bs);

#endif
