/*
 * tables: the data wheelarch ships in data/ (each file's sources are in
 * data/README.md), loaded once, with the lookups the compatibility rules
 * need: GPUs by forgiving name, toolkit and driver tables, PTX ISA per
 * toolkit, family-specific targets, and PyTorch's declared arch lists.
 *
 * Compute capabilities are integers, 10 * major + minor (6.1 -> 61).
 */
#ifndef WHEELARCH_TABLES_H
#define WHEELARCH_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "dotver.h"
#include "error.h"
#include "target.h"

enum tables_os { TABLES_LINUX = 0, TABLES_WINDOWS = 1 };

/* The OS of a platform id ("windows-x86_64" -> TABLES_WINDOWS; Linux for
 * every other). */
int tables_platform_os(const char *platform);

/* A GPU of either vendor.  `cc` is its device code, the key the rules and
 * the site use for it: the compute capability for NVIDIA (61), the LLVM
 * processor number for AMD (0x1100 for gfx1100: always >= TABLES_AMD_MIN,
 * so the two never collide). */
#define TABLES_AMD_MIN 0x600
#define TABLES_OTHER_CC_MAX 4

struct gpu {
    char *name;         /* marketing name, "GeForce GTX 1080 Ti", "AMD Radeon RX 7900 XTX" */
    char *slug;         /* "geforce-gtx-1080-ti" */
    uint16_t cc;        /* 61; 0x1100 */
    char *architecture; /* "Pascal", "RDNA3" */
    char *segment;      /* "geforce", "datacenter", "jetson"; "radeon", "instinct", ... */
    int tegra;          /* an integrated (Jetson/Tegra) part */
    int amd;            /* an AMD GPU: gfx holds its processor and default modes */
    struct target gfx;  /* xnack/sramecc: the mode it runs in, ANY when unsupported */
    char *rocm_support; /* AMD: "official" or "unofficial" */
    /* NVIDIA names sold with more than one chip (GeForce GT 730: GK208 3.5,
     * GK107 3.0, GF108 2.1): the other chips' capabilities */
    uint16_t other_cc[TABLES_OTHER_CC_MAX];
    size_t nother;
    int arm_host; /* sold only in Arm (Grace) systems: only linux-aarch64 wheels apply */
};

/* An AMDGPU processor (data/amdgpu_targets.csv). */
struct amd_processor {
    uint16_t arch; /* 0x90a; generic targets have generic = 1 */
    int generic;
    int xnack, sramecc;  /* the feature can be switched on this processor */
    uint16_t covered_by; /* concrete: the generic target covering it (arch), 0 if none */
    char *family;        /* "CDNA2" */
};

struct toolkit {
    char *release;               /* "12.8 Update 1" */
    struct dotver cuda;          /* 12.8.1 */
    struct dotver min_driver[2]; /* per enum tables_os; n == 0 when unknown */
    char *min_driver_text[2];
};

struct minor_compat {
    int cuda_major;
    struct dotver min_driver[2];
    char *min_driver_text[2];
};

struct ptx_isa {
    struct dotver cuda; /* "12.8" */
    struct dotver isa;  /* "8.7" */
    int public_release; /* 0 for "12.7 (not public)" */
};

struct family {
    uint16_t target;     /* 100 for sm_100f / compute_100f */
    uint16_t members[8]; /* compute capabilities it runs on */
    size_t n;
};

struct declared {
    char *project;   /* "torch", "torchvision" */
    char *version;   /* as written: "2.8" (all of 2.8.x) or "1.3.1" (from that patch on) */
    char *release;   /* "2.8" (the project's own X.Y: torchvision "0.23") */
    char *variant;   /* "cu128" */
    char *platform;  /* "linux-x86_64" */
    char *arch_list; /* "7.0;7.5;...;12.0+PTX" */
    char *source;
    char *confidence; /* "high", "medium", ... or "": as written, raised one
                         step per published get_arch_list() that agrees
                         (observed.h); confidence_written keeps the file's */
    char *confidence_written;
    char *evidence;
    char *checked_on; /* "2026-11-24": when the row was last checked against its source */
    size_t nseen;     /* agreeing observations (observed.h), distinct pages */
    char *seen;       /* the newest observed wheel that agrees ("2.13.0+cu130"), or NULL */
    char *provenance; /* "declared (PyTorch's build configuration, high
                         confidence; seen in a published get_arch_list() of
                         2.13.0+cu130)": what pages and answers say of it */
    struct target sass[32];
    size_t nsass;
    struct target ptx[8];
    size_t nptx;
    struct target gfx[32]; /* ROCm variants: PYTORCH_ROCM_ARCH */
    size_t ngfx;
};

/* One release of a project on one platform (data/pytorch_releases.csv):
 * which GPU variants download.pytorch.org publishes for it, the fact that
 * says "dropped" or "not covered". */
struct release_info {
    char *project;       /* "torch" */
    char *version;       /* as written: "2.8" or "0.3.1" */
    char *release;       /* "2.8" */
    char *torch_release; /* the torch release it is built for ("2.8") */
    char *platform;      /* "linux-x86_64" */
    int covered;         /* 0: which variants exist is not known */
    char **variants;     /* GPU variant ids ("cu126", "rocm6.4") */
    size_t nvariants;
    char *pypi_default;    /* what plain `pip install <project>` gets: a variant, "cpu" or "none" */
    char *pypi_confidence; /* "high", "medium", "low" */
    char *release_date;    /* "2025-08-06" or "" */
    char *source;
    char *checked_on;
};

struct arch_support {
    uint16_t cc;
    struct dotver first_toolkit; /* the first CUDA that knows cc (its driver knows the GPU) */
    char *last_toolkit; /* "11.8": the newest CUDA whose nvcc builds SASS for cc, or NULL */
    /* NVIDIA's last driver branch for GPUs of cc (470 for Kepler, 580 for
     * Maxwell to Volta), the newest CUDA it supports, and the first branch
     * without them (495, 590); 0 when current drivers support cc (or the
     * drivers come with the system: Tegra). */
    long last_branch, dropped_in;
    struct dotver last_branch_cuda;
};

/* A project's variant rule, a row of data/variant_rules.csv (variant.h). */
enum variant_rule_kind {
    VARIANT_RULE_NAME,        /* the project's name decides: `variant` */
    VARIANT_RULE_LABEL_MAJOR, /* labels may name only the CUDA major: "+cu12torch2.8" */
    VARIANT_RULE_RELEASE,     /* no label: what PyPI's plain install gets (the release table) */
    VARIANT_RULE_FIXED,       /* no label: `variant` */
    VARIANT_RULE_INDEX,       /* the index's id (the generic rules say so already) */
    VARIANT_RULE_VERSION      /* the version's major is the CUDA major: 13.0.0.19 -> cu13x */
};

struct variant_rule {
    char *project;             /* normalised; may hold one '*' ("nvidia-*-cu12") */
    int kind;                  /* enum variant_rule_kind */
    char *variant;             /* name and fixed rules; else NULL */
    struct dotver min_version; /* the rule holds from this version on; n == 0: all */
    char *source;
};

/* A GPU library wheel: a distribution that wheels require and that carries
 * GPU code of its own (data/gpu_libraries.csv). */
struct gpu_library {
    char *project; /* normalised; may end in '*' ("nvidia-cudnn-cu*") */
    char *library; /* "cuDNN" */
    char *source;
};

/* The CPython versions a release has official wheels for on one platform
 * (data/pytorch_python_versions.csv).  A version is major * 100 + minor:
 * 3.12 -> 312, 2.7 -> 207. */
struct python_support {
    char *project;  /* normalised: "torch" */
    char *release;  /* "2.8", or "1.7.1" for a patch that changed the set */
    char *platform; /* "linux-x86_64" */
    uint16_t versions[24];
    size_t nversions;
    uint16_t free_threaded[24]; /* cpXYt builds */
    size_t nfree_threaded;
    char *confidence, *source;
};

/* torch's companion releases (data/pytorch_companions.csv): the
 * torchvision and torchaudio published with a torch release. */
struct companion {
    char *torch, *torchvision; /* "2.8.0", "0.23.0" */
    char *torchaudio;          /* NULL: none for this release */
    char *notes, *source;
};

/* The first version of a companion with GPU wheels on a platform
 * (data/pytorch_companion_platforms.csv): torchaudio's Windows wheels
 * start at 0.6.0. */
struct companion_platform {
    char *project, *platform, *first_version, *notes, *source;
};

struct observed;
struct schedule;
struct jetson_build;
struct uv_backend_entry;

struct strmap;
struct tables {
    struct gpu *gpus;
    size_t ngpus;
    struct toolkit *toolkits; /* newest first */
    size_t ntoolkits;
    /* Per CUDA major.minor, its first toolkit (the lowest X.Y.Z): what
     * tables_toolkit answers, made once when the toolkits are loaded. */
    struct tables_minor_toolkit {
        long major, minor;
        const struct toolkit *first;
    } * minor_toolkits;
    size_t nminor_toolkits;
    struct minor_compat *compat;
    size_t ncompat;
    struct ptx_isa *isas;
    size_t nisas;
    struct family *families;
    size_t nfamilies;
    struct declared *declared;
    size_t ndeclared;
    struct release_info *releases;
    size_t nreleases;
    struct amd_processor *amd;
    size_t namd;
    struct arch_support *arch_support;
    size_t narch_support;
    struct variant_rule *variant_rules; /* in file order: the first match wins */
    size_t nvariant_rules;
    struct gpu_library *gpu_libraries;
    size_t ngpu_libraries;
    struct python_support *pythons;
    size_t npythons;
    struct companion *companions;
    size_t ncompanions;
    struct companion_platform *companion_platforms;
    size_t ncompanion_platforms;
    struct observed *observed; /* published get_arch_list() outputs (observed.h) */
    size_t nobserved;
    struct schedule *schedule; /* scheduled releases (schedule.h) */
    size_t nschedule;
    struct jetson_build *jetson; /* NVIDIA's builds per JetPack (jetson.h) */
    size_t njetson;
    struct uv_backend_entry *uv; /* uv's torch backends and projects (uvbackend.h) */
    size_t nuv;
    char checked_on[11]; /* the newest checked_on of the declared data, "" if none */
    /* Lookups by key, made by tables_load with the rows (a tables not
     * loaded has neither): "project|release|platform" and
     * "project|platform|major.minor" -> the first row of that key, each
     * row's next row of the same key in *_next (SIZE_MAX ends). */
    struct strmap *release_index, *python_index;
    size_t *release_next, *python_next;
};

/* Loads every table from dir.  Caller frees with tables_free.  Errors name
 * the file and line. */
int tables_load(const char *dir, struct tables *t, struct wa_error *err);
void tables_free(struct tables *t);

/* A Python version as people write it ("3.12", "3.13t", "2.7") into
 * major * 100 + minor and whether it is a free-threaded build; -1 when it
 * is not one (major 2 or 3, minor below 100). */
int tables_python_parse(const char *s, uint16_t *version, int *free_threaded);
/* "3.12" or "3.13t" into buf (16 bytes are enough). */
void tables_python_format(uint16_t version, int free_threaded, char *buf, size_t n);

/* Whether `version` of project has an official wheel for Python py
 * (free-threaded or not) on platform: 1 yes, 0 no, -1 not known (the
 * data has no row for it).  whole_release: the version is a release pin
 * ("2.8.*"), which any patch of the release with such a wheel satisfies.
 * A row covers its release's patches from its own on (a patch row "1.7.1"
 * those after 1.7.1, the "1.7" row those before). */
int tables_python_has(const struct tables *t, const char *project, const char *version,
                      const char *platform, int whole_release, uint16_t py, int free_threaded);
/* The Python versions (free-threaded ones when free_threaded) of the same
 * rows, ascending, into out (at most max); 0 when not known or none. */
size_t tables_python_versions(const struct tables *t, const char *project, const char *version,
                              const char *platform, int whole_release, int free_threaded,
                              uint16_t *out, size_t max);

/* The companions of a torch version ("2.8.0"), or NULL. */
const struct companion *tables_companion(const struct tables *t, const char *torch);
/* Whether companion project (torchvision, torchaudio) at version ("0.3.2",
 * "0.19" for a whole release) has a wheel of variant on platform: 1 yes
 * (or nothing says otherwise), 0 no, with *why set to a static or borrowed
 * reason in words. From torch 2.6 on the release table lists the
 * companions' variants per platform; before, the first version per
 * platform decides. */
int tables_companion_has(const struct tables *t, const char *project, const char *version,
                         const char *platform, const char *variant, const char **why);

/* Whether cc is an integrated Tegra/Jetson part (3.2, 5.3, 6.2, 7.2, 8.7,
 * 10.1 / 11.0 Thor). */
int tables_is_tegra(uint16_t cc);

/* Compute capabilities a family-specific target runs on; a target missing
 * from the table runs on itself only.  Returns the count written. */
size_t tables_family(const struct tables *t, uint16_t target, uint16_t *out, size_t max);

/* The minimum driver for a program built with CUDA major.x to load
 * (minor-version compatibility), or NULL. */
const struct minor_compat *tables_minor_compat(const struct tables *t, int cuda_major);

/* The newest toolkit a driver supports natively (Table 3), or NULL. */
const struct toolkit *tables_driver_cuda(const struct tables *t, const struct dotver *driver,
                                         int os);

/* The PTX ISA a toolkit emits (12.6 -> 8.5), or NULL. */
const struct ptx_isa *tables_isa_of_cuda(const struct tables *t, const struct dotver *cuda);

/* The first public toolkit that emits ISA `isa` (8.7 -> 12.8), or NULL. */
const struct ptx_isa *tables_cuda_of_isa(const struct tables *t, const struct dotver *isa);

/* The toolkit row of a CUDA version (first release of major.minor), or NULL. */
const struct toolkit *tables_toolkit(const struct tables *t, const struct dotver *cuda);

/* The AMD processor with this arch (generic or not), or NULL. */
const struct amd_processor *tables_amd_processor(const struct tables *t, uint16_t arch,
                                                 int generic);

/* An AMD device code's processor and the modes it runs in: those of the
 * first GPU of the table with that processor, else off for the features it
 * supports.  Returns 0, or -1 when cc is not an AMD device code. */
int tables_amd_device(const struct tables *t, uint16_t cc, struct target *device);

/* Whether a variant id is a ROCm one ("rocm6.4"); with *rocm set to its
 * version when given. */
int tables_variant_rocm(const char *variant, struct dotver *rocm);

/* Orders variant ids: cpu and other non-GPU ids first, then CUDA by
 * version (cu126 < cu128 < cu130), then ROCm by version (rocm7.2 <
 * rocm7.14); ties by name.  strcmp-style result. */
int tables_variant_cmp(const char *a, const char *b);

/* The GPU library a distribution (normalised name) is ("cuDNN" for
 * nvidia-cudnn-cu12), or NULL when it is none. */
const char *tables_gpu_library(const struct tables *t, const char *project);

/* CUDA version of a variant id: "cu128" -> 12.8; "cu12x" (any 12.x) ->
 * 12.0, the oldest whose driver runs every 12.x build (minor-version
 * compatibility).  Returns 0 or -1. */
int tables_variant_cuda(const char *variant, struct dotver *cuda);
/* The CUDA version a variant id names, as pages and feeds write it:
 * "12.8", "12.x" for "cu12x"; "" for an id that names none. */
void tables_variant_cuda_text(const char *variant, char *buf, size_t n);

/* The release row of a project on a platform (its newest patch row), or NULL. */
const struct release_info *tables_release(const struct tables *t, const char *project,
                                          const char *release, const char *platform);
/* The release row that covers one version of a release: of its rows
 * ("2.9", "2.9.1"), the newest at or before version ("2.9.1" for 2.9.1 and
 * 2.9.2, "2.9" for 2.9.0), so that a variant published for one patch only
 * is known as such.  NULL when none. */
const struct release_info *tables_release_at(const struct tables *t, const char *project,
                                             const char *version, const char *platform);
/* Whether a release row lists a variant. */
int tables_release_has(const struct release_info *r, const char *variant);
/* The first toolkit that supports cc (Table 3 row): a driver older than
 * its driver does not know the GPU.  NULL when not known. */
const struct toolkit *tables_first_toolkit(const struct tables *t, uint16_t cc);
/* The support row of cc when NVIDIA's drivers for it end at a branch
 * (arch_support.last_branch), else NULL. */
const struct arch_support *tables_driver_branch_end(const struct tables *t, uint16_t cc);
/* Whether a driver version is of a branch after a's last (a driver the GPU
 * cannot run); 0 when a is NULL. */
int tables_driver_beyond(const struct arch_support *a, const struct dotver *driver);
/* The newest CUDA toolkit that still compiles SASS for cc ("11.8"), or
 * NULL when current toolkits do. */
const char *tables_last_toolkit(const struct tables *t, uint16_t cc);

/* Parses a TORCH_CUDA_ARCH_LIST ("5.0;6.0;9.0+PTX;9.0a") into targets. */
void tables_parse_arch_list(const char *list, struct target *sass, size_t *nsass, size_t maxs,
                            struct target *ptx, size_t *nptx, size_t maxp);

#endif
