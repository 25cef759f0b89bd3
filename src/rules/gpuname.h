/*
 * gpuname: from whatever a person knows about their GPU to the GPU table.
 *
 * One resolver for `query --gpu` and the site's filter (templates/assets/
 * gpuname.js follows the same rules; tests/site/gpuname-js.test.mjs holds
 * the two to the same answers); docs/gpu-names.md explains it.  It accepts:
 *
 *   - device codes: compute capabilities "6.1", "sm_61", "sm61",
 *     "compute_61", "(6, 1)" (torch.cuda.get_device_capability()), "61"
 *     (two or three digits, when a GPU of the table has that capability),
 *     and AMD processors "gfx1100", "gfx90a:sramecc+:xnack-", "Name:
 *     gfx1100" (rocminfo);
 *   - names as people type them and as tools print them: marketing names
 *     with or without vendor and series words ("1080 ti", "rtx3060",
 *     "NVIDIA GeForce RTX 3060 Laptop GPU"), nvidia-smi's ("Tesla
 *     V100-SXM2-16GB", "NVIDIA A100 80GB PCIe", "GPU 0: ... (UUID: ...)"),
 *     deviceQuery's ("Device 0: \"...\""), rocminfo's ("Marketing Name:
 *     AMD Radeon RX 7900 XTX"), and `nvidia-smi --query-gpu=name,compute_cap
 *     --format=csv` pasted whole (the header is skipped; the compute
 *     capability field decides, the name picks the GPU when it agrees).
 *
 * Intel, Apple, Qualcomm and Arm GPUs are recognised and answered as such
 * (kind GPUNAME_FOREIGN): no CUDA or ROCm wheel runs on them.
 *
 * A name is split into lowercase tokens at letter/digit boundaries.  Brand
 * words (nvidia, geforce, amd, instinct, ati) are ignored; memory
 * sizes ("80 gb"), form factors (pcie, sxm2, hbm3, nvl, oam) and "graphics",
 * "gpu" are dropped; series words (gtx, gt, rtx, tesla, quadro, jetson, rx,
 * radeon, ryzen) may be left out but, when typed, must be in the name; form words (laptop,
 * mobile, notebook, max-q, "with ... design") distinguish a laptop part
 * only when the table has one.  Every remaining query token must match a
 * token of the name:
 *
 *   exact   the same tokens                        "1080" -> GTX 1080
 *   form    the same tokens but laptop vs desktop  "RTX 2080 Max-Q" -> RTX 2080
 *   prefix  the name has more tokens, or the last  "1080" also -> GTX 1080 Ti,
 *           query token is unfinished              "rtx 409" -> RTX 4090
 *   fuzzy   one typo in a token of 3+ characters,  "rtx 3606", "gtx 1030"
 *           or a series word the name lacks        (-> did you mean)
 *
 * Words typed as one ("h100", "1080ti") must also stand side by side in the
 * name, in that order, or the name is only fuzzy: "H100" is not the "Tesla
 * V100-SXM3-32GB-H".
 *
 * Fuzzy matches are never an answer, only suggestions.  A prefix match
 * decides only when each best GPU has every query token and more words
 * ("mi300": MI300X and MI300A, both gfx942), never on an unfinished word.
 * Brand words still say the vendor: "AMD Radeon 840M" is never the GeForce
 * 840M.  The best tier present wins.  When all its GPUs share one device
 * code (and the GPU was not sold with chips of other capabilities, such as
 * the GeForce GT 730) the query is decided (the answer is the same for each; `gpu` is the first,
 * the shortest name); otherwise it is ambiguous.  With no match at all,
 * `suggest` holds the nearest names for "did you mean".
 *
 * Ownership: results point into the tables, which must outlive them.
 */
#ifndef WHEELARCH_GPUNAME_H
#define WHEELARCH_GPUNAME_H

#include <stddef.h>
#include <stdint.h>

#include "tables.h"

enum gpuname_kind {
    GPUNAME_NONE = 0, /* nothing matches */
    GPUNAME_CODE,     /* a device code (compute capability or gfx processor) */
    GPUNAME_NAME,     /* a name: see matches */
    GPUNAME_VAGUE,    /* only words that name no one GPU ("AMD Radeon Graphics",
                       * "quadro"); m may list the GPUs they fit */
    GPUNAME_FOREIGN,  /* an Intel, Apple or Arm GPU: no CUDA or ROCm wheel runs */
};

enum gpuname_tier { GPUNAME_EXACT = 0, GPUNAME_FORM, GPUNAME_PREFIX, GPUNAME_FUZZY };

#define GPUNAME_MAX 48
#define GPUNAME_SUGGEST 3

struct gpuname_match {
    const struct gpu *gpu;
    int tier; /* enum gpuname_tier */
};

struct gpuname_result {
    int kind;              /* enum gpuname_kind */
    int decided;           /* one device code answers the query */
    uint16_t cc;           /* that device code, when decided */
    const struct gpu *gpu; /* the GPU answered for; NULL for a bare device code */
    int form_differs;      /* answered with the desktop row for a laptop name, or back */
    int several_chips;     /* undecided because the one GPU named was sold with
                            * chips of other capabilities (m[0].gpu->other_cc) */
    size_t n;              /* matches kept in m, best first (the best tier first) */
    size_t total;          /* matches found (may exceed GPUNAME_MAX) */
    size_t nbest;          /* how many of m are of the best tier */
    struct gpuname_match m[GPUNAME_MAX];
    size_t nsuggest;
    const struct gpu *suggest[GPUNAME_SUGGEST];
};

/* Resolves a query against t's GPU table; never fails (an empty result is
 * kind GPUNAME_NONE). */
void gpuname_resolve(const struct tables *t, const char *query, struct gpuname_result *r);

/* Parses a device code on its own ("6.1", "sm_61", "compute_61", "gfx1100",
 * "gfx90a:xnack-", "Name: gfx1100"; a bare "61" or "120" only when
 * `bare` is set).  Returns 0 and *cc, or -1. */
int gpuname_parse_code(const char *s, int bare, uint16_t *cc);

#endif
