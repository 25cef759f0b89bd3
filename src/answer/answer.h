/*
 * answer: the whole answer to "what runs on my GPU" as a typed value.
 *
 * query_answer (query.h) decides it; every reader takes its fields from
 * here: the CLI's text, the site's pages, doctor's fixes, the stack check
 * and the answer for several GPUs.  JSON is made from it at the edge, by
 * one writer (answer_json.h: `query --json`, docs/answers.md).
 *
 * Ownership: an answer_result and everything it points to that is marked
 * "owned" is freed by answer_free.  Rows (struct dbview_row) and the
 * strings marked "borrowed" belong to the view or the query options it was
 * made from, which must outlive it.
 */
#ifndef WHEELARCH_ANSWER_H
#define WHEELARCH_ANSWER_H

#include <stddef.h>
#include <stdint.h>

#include "compat.h"
#include "dbview.h"
#include "installcmd.h"
#include "target.h"
#include "verdict.h"

/* The Python versions a release has wheels for, as people write them
 * ("3.10", ..., "3.13t"): regular builds first, then free-threaded ones.
 * n == 0: the data does not say. */
#define ANSWER_PYTHONS_MAX 48
struct answer_pythons {
    size_t n;
    char v[ANSWER_PYTHONS_MAX][8];
};

/* The commands of an install (owned): the project alone, and torch with
 * its torchvision and torchaudio (no lines when the data has no
 * companions for it). */
struct answer_commands {
    struct installcmd install, with_companions;
};

/* One install: a variant of a release, pinned, and why. */
struct answer_install {
    const struct dbview_row *row; /* borrowed: the variant, its index, its provenance */
    char *index_url;              /* owned: row's index URL without its trailing slash */
    char pin[64];                 /* "2.8.*", "2.8.0", "1.7.1" */
    /* the install extra that brings this GPU's code ("device-gfx1100",
     * answer_gpu_extra), "" when the wheel carries it */
    char extra[64];
    struct compat_result res; /* its code and driver (res.verdict, min_driver) */
    int fallback;             /* another release than the one asked about */
    int tier;                 /* runs through CUDA minor-version compatibility */
    char *reason;             /* owned: why this one, in words */
    /* In the driver table (answer_result.by_driver): the lowest driver from
     * which this answer holds, else "". */
    char floor[32];
    struct answer_pythons pythons;
    /* torch's companions for the pin (owned; torchvision NULL: none in the
     * data, torchaudio NULL: none for that release), and their note
     * (borrowed, "" for none). */
    char *torchvision, *torchaudio;
    const char *companion_note;
    /* A companion left out of the command because the data says it has no
     * wheel for this index on this platform, in words ("torchaudio 0.3.2:
     * torchaudio had no Windows wheels before 0.6.0 ..."), owned; NULL when
     * none is. */
    char *companions_omitted;
    struct answer_commands commands;
};

/* One row of the asked release: a variant judged on the four constraints. */
struct answer_row {
    const struct dbview_row *row; /* borrowed */
    char *index_url;              /* owned, without its trailing slash */
    char cuda[16];                /* "12.8", "" for a ROCm or CPU variant */
    struct verdict v;
    struct answer_pythons pythons;
};

/* What to change, in order of cost. */
enum answer_change_kind {
    ANSWER_CHANGE_DRIVER,  /* update the driver to min_driver: release then runs */
    ANSWER_CHANGE_PYTHON,  /* use Python `python` (one of pythons) for pin */
    ANSWER_CHANGE_RELEASE, /* an older release that runs as things are */
    ANSWER_CHANGE_SOURCE   /* no official build has code: build from source */
};

struct answer_change {
    int kind;                        /* enum answer_change_kind */
    char *text;                      /* owned: the step in words */
    const char *release;             /* borrowed; NULL for a source build */
    char pin[64];                    /* python, release */
    char min_driver[32];             /* driver; python with a driver update too; else "" */
    char python[16];                 /* python: the version to use */
    struct answer_pythons pythons;   /* python: the versions the pin has wheels for */
    const char *index;               /* release: its variant (borrowed) */
    struct answer_commands commands; /* release */
};

/* What plain `pip install PROJECT` (PyPI's default build) gets. */
struct answer_pypi {
    int present;                   /* 0: the data says nothing of PyPI's build */
    const char *release;           /* borrowed */
    const char *build;             /* borrowed: "cu130", "cpu", "none" */
    const char *confidence;        /* borrowed, or NULL */
    struct installcmd command;     /* owned: pip install "torch==2.8.*" */
    int unknown;                   /* the build exists, its arch list is not in the data */
    int verdict;                   /* enum compat_verdict, with the driver given */
    int runs;                      /* its code runs and it has a wheel for the Python */
    int python_wheel;              /* 1/0, -1: not known or none asked */
    char min_driver[32];           /* the build's own driver floor, "" for none */
    struct answer_pythons pythons; /* the Pythons its wheels are for (n 0: not known) */
    char *reason;                  /* owned */
    const struct dbview_row *row;  /* borrowed: the row that judged it, or NULL */
};

/* The newest release with native code, per variant. */
struct answer_native {
    const struct dbview_row *row; /* borrowed */
    char pin[64];
};

/* Where to go when no official build has code for the GPU (way_forward),
 * or when its official builds end before the Python or the releases of
 * today (self_build: they stop at an older release, or none has a wheel
 * for the Python asked about): a source build with the toolkit, arch list
 * and driver branch that still support the GPU, and how to check a
 * community build. */
struct answer_source_build {
    int present;
    const char *last_toolkit; /* borrowed: the newest CUDA that compiles for it, or NULL */
    char arch_list[16];       /* "3.5", "gfx803" */
    char *steps[3];           /* owned */
    size_t nsteps;
};

struct jetson_build;

#define ANSWER_JETSON_MAX 8

/* Jetson or Arm-only systems: what applies instead (all static strings).
 * A Jetson's also names NVIDIA's own builds that run on it, newest JetPack
 * first, borrowed from the tables (jetson.h; data/jetson_pytorch.csv),
 * each with the command installing torch from its index (owned; no lines
 * when the build has no index). */
struct answer_guidance {
    const char *kind; /* "jetson", "tegra" (DRIVE, IGX), "arm-host"; NULL: none */
    const char *label, *text, *url;
    const struct jetson_build *jetson[ANSWER_JETSON_MAX];
    struct installcmd jetson_commands[ANSWER_JETSON_MAX];
    size_t njetson;
};

/* The driver table for one Python (query_options.table_pythons). */
struct answer_py_table {
    uint16_t python;
    int free_threaded;
    /* as answer_result.by_driver, each with row, index_url, pin, res
     * and floor only */
    struct answer_install *rows;
    size_t nrows;
};

#define ANSWER_NOTES_MAX 4

struct answer_result {
    /* The GPU. */
    const char *gpu_name;     /* borrowed, or NULL when only a cc was given */
    const char *architecture; /* borrowed, or NULL */
    int amd, tegra;
    uint16_t cc;
    char device[16];                  /* "8.6" or "gfx1100" */
    char gfx_target[TARGET_NAME_MAX]; /* AMD: with its feature modes; else "" */
    /* NVIDIA's drivers for the GPU end at a branch: "R470" and the newest
     * CUDA it supports ("11.4"), else both ""; and whether the driver given
     * is of a later branch (one that does not run the GPU). */
    char last_branch[8], last_branch_cuda[8];
    int driver_beyond_branch;
    /* What was asked. */
    int has_driver;
    const char *driver_text; /* borrowed */
    char driver_cuda[16];    /* the newest CUDA the driver supports, "" unknown */
    int has_python;
    uint16_t python;
    int python_free_threaded;
    const char *python_source;      /* borrowed, or NULL */
    const char *project, *platform; /* borrowed */
    char *version;                  /* owned: the release or exact version answered */
    int applies;                    /* this platform's wheels can run on the GPU */
    /* The variants of the asked release. */
    struct answer_row *rows;
    size_t nrows;
    /* The three questions: the newest that runs (the asked release:
     * recommendation; another: fallback), the newest with code whatever
     * the driver, what to change. Each NULL when none. */
    struct answer_install *recommendation, *fallback, *newest_with_code;
    struct answer_change *change;
    size_t nchange;
    /* The answer at every driver floor, newest first. */
    struct answer_install *by_driver;
    size_t nby_driver;
    /* The same for each Python asked for in query_options.table_pythons
     * (the rows with a wheel for it only); none otherwise. */
    struct answer_py_table *py_tables;
    size_t npy_tables;
    struct answer_pypi pypi;
    struct answer_native *last_native;
    size_t nlast_native;
    struct answer_source_build source_build;
    struct answer_source_build self_build;
    struct answer_guidance guidance;
    const char *notes[ANSWER_NOTES_MAX]; /* static strings */
    size_t nnotes;
};

/* The newest answer that runs as things are: the recommendation, else the
 * fallback, else NULL. */
const struct answer_install *answer_runs(const struct answer_result *a);

/* The driver an install needs: in the driver table its floor (the lowest
 * driver from which the answer holds), else its row's own minimum; ""
 * for none (AMD, CPU).  Borrowed from i. */
const char *answer_install_min_driver(const struct answer_install *i);

/* The row of the asked release for a variant id, or NULL. */
const struct answer_row *answer_row_of(const struct answer_result *a, const char *variant);

/* The label of row r as people read it (verdict_label with the Python
 * asked about), into buf. */
const char *answer_row_label(const struct answer_result *a, const struct answer_row *r, char *buf,
                             size_t n);

/* Fills c (zeroed first) with pip's and uv's commands installing
 * PROJECT[EXTRA]==PIN from index_url (installcmd.h; extra NULL or "" for
 * none; owned by c, no lines when the URL cannot be written safely). */
void answer_commands_make(struct answer_commands *c, const struct tables *t, const char *project,
                          const char *pin, const char *extra, const char *index_url);
/* The install extra of row r that brings the code res found running
 * ("device-gfx1100": AMD's whl-next builds, vendorindex.h) into buf (n
 * bytes): of the extras crawl read (dbview_row.extras) that have the
 * target, the one named for it, else the narrowest; of a declared row, the vendor's pattern with
 * the target's name.  "" when the row's wheel carries its GPU code itself. Returns buf. */
const char *answer_gpu_extra(const struct dbview_row *r, const struct compat_result *res, char *buf,
                             size_t n);
/* The extra of vendor build b's pattern for the target res found running
 * ("device-gfx1100"), or NULL when b has none or no gfx target runs.
 * Caller frees. */
char *answer_vendor_extra(const struct vendor_build *b, const struct compat_result *res);
void answer_commands_free(struct answer_commands *c);
/* dst becomes a copy of src (dst's old content is not freed). */
void answer_commands_copy(struct answer_commands *dst, const struct answer_commands *src);

/* Frees what i owns (not i itself). */
void answer_install_free(struct answer_install *i);
/* dst becomes a copy of src owning its own strings. */
void answer_install_copy(struct answer_install *dst, const struct answer_install *src);
/* Frees a and everything it owns; NULL is fine. */
void answer_free(struct answer_result *a);

#endif
