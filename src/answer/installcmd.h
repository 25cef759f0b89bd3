/*
 * installcmd: the pip and uv commands that install pinned projects from one
 * index, made once as argument vectors and written by the one command
 * writer (shellcmd.h) for every surface that prints one: query, doctor,
 * the pages, answers.js, the feed.
 *
 *   pip install "torch==2.14.*" --index-url https://download.pytorch.org/whl/cu126
 *   uv pip install "torch==2.14.*" --torch-backend cu126
 *
 * On a vendor's own index (vendorindex.h) each requirement is pinned to
 * the vendor's exact version with its label, and an extra that brings the
 * GPU's code is named in it:
 *
 *   pip install "torch[device-gfx1100]==2.13.0+rocm10.0.0" --index-url
 * https://stable.repo.amd.com/rocm/whl-next
 *
 * uv's own form (--torch-backend) is used where the index is one of
 * download.pytorch.org's that uv names as a backend and uv fetches every
 * project of the command from there (data/uv_torch_backends.csv): uv then
 * takes torch and its companions from PyTorch's index and everything else
 * from PyPI.  The uv release it needs is said (uv_from); anywhere else the
 * uv form is pip's, `uv pip install ... --index-url URL`, which every uv
 * takes.  An index URL outside the grammar (indexurl.h) makes no command.
 */
#ifndef WHEELARCH_INSTALLCMD_H
#define WHEELARCH_INSTALLCMD_H

#include <stddef.h>

#include "shellcmd.h"
#include "tables.h"

/* One requirement: project[extra]==pin, or the project alone when pin is
 * NULL. */
struct installcmd_req {
    const char *project; /* "torch" */
    const char *pin;     /* "2.14.*", "2.8.0", or NULL */
    /* the install extra that brings the GPU's code ("device-gfx1100"), or
     * NULL: AMD's whl-next builds (vendorindex.h, gpu_extra) */
    const char *extra;
};

enum installcmd_flags {
    /* Replaces an installed build: pip uninstalls the projects first (pip
     * keeps an installed build that satisfies the pin, whichever variant it
     * is), uv is told to reinstall them. */
    INSTALLCMD_REPLACE = 1
};

struct installcmd {
    struct shellcmd pip, uv;  /* the argument vectors */
    char *pip_line, *uv_line; /* owned: the lines; NULL when there is no command */
    const char *uv_from;      /* borrowed from the tables: the uv release uv's form
                               * needs ("0.6.9"), NULL when any uv takes it */
};

/* The commands installing the n requirements r from index_url (NULL: the
 * default index, PyPI) into c (zeroed first).  Returns 0, or -1 when a
 * requirement or the URL cannot be written safely (c then holds no
 * lines).  Free with installcmd_free. */
int installcmd_make(struct installcmd *c, const struct tables *t, const struct installcmd_req *r,
                    size_t n, const char *index_url, int flags);

/* The backend uv's form would name for index_url ("cu126"), into buf (n
 * bytes); 0, or -1 when the URL is not download.pytorch.org's index of a
 * backend uv knows. */
int installcmd_uv_backend(const struct tables *t, const char *index_url, char *buf, size_t n);

/* The fixed commands shown beside an answer, written once by the same
 * writer (static storage, never NULL): `pip uninstall -y torch torchvision
 * torchaudio`, and the one-liner printing the installed torch's arch list. */
enum installcmd_fixed { INSTALLCMD_UNINSTALL_TORCH, INSTALLCMD_ARCH_LIST, INSTALLCMD_NFIXED };
const char *installcmd_fixed_line(int which);
/* Its argument vector, the same way. */
const struct shellcmd *installcmd_fixed(int which);

/* dst becomes a copy of src (dst's old content is not freed). */
void installcmd_copy(struct installcmd *dst, const struct installcmd *src);
void installcmd_free(struct installcmd *c);

#endif
