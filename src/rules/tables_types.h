/*
 * tables_types: the rows of the tables wheelarch ships in data/ and
 * struct tables, which holds them all once tables_load (tables.h) has
 * read them.  The lookups over them are declared by the file that holds
 * them: tables_gpus.h, tables_cuda.h, tables_releases.h, tables_variants.h.
 *
 * Compute capabilities are integers, 10 * major + minor (6.1 -> 61).
 */
#ifndef WHEELARCH_TABLES_TYPES_H
#define WHEELARCH_TABLES_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "dotver.h"
#include "target.h"

/* The driver tables' systems: Linux, Windows x86_64 and Windows on Arm,
 * whose drivers are one branch but whose first CUDA differs. */
enum tables_os { TABLES_LINUX = 0, TABLES_WINDOWS = 1, TABLES_WINDOWS_ARM = 2, TABLES_NOS = 3 };

/* The systems a GPU can be sold only in (gpus.csv's host column):
 * Grace (Linux aarch64) servers and workstations, and Windows on Arm PCs
 * (RTX Spark). */
enum tables_host { TABLES_HOST_ANY = 0, TABLES_HOST_LINUX_ARM = 1, TABLES_HOST_WINDOWS_ARM = 2 };

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
    /* enum tables_host: the one kind of Arm system the GPU is sold in, whose
     * platform alone has wheels that apply (tables_host_platform); 0 for
     * any system.  Non-zero means "Arm-hosted" wherever only that counts. */
    int arm_host;
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
    char *release;                        /* "12.8 Update 1" */
    struct dotver cuda;                   /* 12.8.1 */
    struct dotver min_driver[TABLES_NOS]; /* per enum tables_os; n == 0 when unknown */
    char *min_driver_text[TABLES_NOS];
};

struct minor_compat {
    int cuda_major;
    struct dotver min_driver[TABLES_NOS];
    char *min_driver_text[TABLES_NOS];
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
struct vendor_build;

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
    struct vendor_build *vendor; /* builds on vendors' own indexes (vendorindex.h) */
    size_t nvendor;
    char checked_on[11]; /* the newest checked_on of the declared data, "" if none */
    /* Lookups by key, made by tables_load with the rows (a tables not
     * loaded has neither): "project|release|platform" and
     * "project|platform|major.minor" -> the first row of that key, each
     * row's next row of the same key in *_next (SIZE_MAX ends). */
    struct strmap *release_index, *python_index;
    size_t *release_next, *python_next;
};

#endif
