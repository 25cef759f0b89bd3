/*
 * binscan_types: what a binary scan finds (binscan.h): its limits, the
 * formats and classes, and the result (entries, modules, arch flags,
 * warnings).  The scanner's own files (binscan_state.h) share these types
 * without the entry points of binscan.h.
 */
#ifndef WHEELARCH_BINSCAN_TYPES_H
#define WHEELARCH_BINSCAN_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "target.h"

#define BINSCAN_SIZE_UNKNOWN UINT64_MAX
#define BINSCAN_MAX_ENTRIES 262144
#define BINSCAN_MAX_MODULES 131072
#define BINSCAN_MAX_ARCH_FLAGS 8
#define BINSCAN_MAX_WARNINGS 32

enum binscan_format {
    BINSCAN_FORMAT_PENDING = 0, /* fewer than 4 bytes seen */
    BINSCAN_FORMAT_UNKNOWN,
    BINSCAN_FORMAT_ELF,
    BINSCAN_FORMAT_PE,
    BINSCAN_FORMAT_FATBIN,
    BINSCAN_FORMAT_OFFLOAD, /* a clang offload bundle file (.co, .hsaco), plain or CCOB */
    BINSCAN_FORMAT_KPACK,   /* an AMD kernel archive (.kpack): split-out code objects */
};

/* What a fatbin container is for, from the section holding it and its
 * entries.  Only EXEC and LIBRARY modules count as GPU code of the binary. */
enum binscan_class {
    BINSCAN_CLASS_EXEC = 0,    /* .nv_fatbin / .nv_fatb / raw: registered with the runtime */
    BINSCAN_CLASS_LIBRARY,     /* elsewhere (.cask_resource, .rodata): loaded by the library */
    BINSCAN_CLASS_RELOCATABLE, /* __nv_relfatbin: -rdc objects, not loadable as is */
    BINSCAN_CLASS_DLINK,       /* only nvlink's kernel-less stub cubins */
};

struct binscan_entry {
    struct target target;
    uint8_t has_target;  /* 0 for old cubins and unknown kinds */
    uint8_t codec;       /* enum fatbin_codec */
    uint8_t inspected;   /* the payload prefix could be decoded */
    uint8_t nvlink_stub; /* cubin made by nvlink without kernels */
    uint16_t kind;       /* raw fatbin entry kind */
    uint16_t code_major; /* PTX ISA major (PTX entries) */
    uint16_t code_minor; /* PTX ISA minor; cubin ABI (ELF entries) */
    uint64_t flags;
    uint64_t offset;            /* of the entry header in the binary */
    uint64_t payload_size;      /* bytes stored (padded) */
    uint64_t uncompressed_size; /* payload bytes once decompressed */
    /* From the decoded prefix (when inspected): */
    uint8_t elf_abi; /* AMD: EI_ABIVERSION of the code object */
    uint16_t elf_type;
    uint32_t elf_flags;
    uint32_t toolkit;    /* ABI 7 e_version (toolkit x 10) */
    char ptx_target[24]; /* PTX .target value, e.g. "sm_90a" */
    char ptx_version[8]; /* PTX .version value, e.g. "9.0" */
};

struct binscan_module {
    uint64_t offset;    /* of the container header */
    uint64_t size;      /* header + entries */
    size_t first_entry; /* index into entries */
    size_t nentries;
    uint8_t cls;      /* enum binscan_class, final after binscan_finish */
    uint8_t amd;      /* an offload bundle or AMDGPU code object, not a fatbin */
    uint8_t codec;    /* AMD: the bundle's compression (enum fatbin_codec) */
    char section[32]; /* section holding it; "" when unknown or raw */
};

struct binscan_result {
    int format;        /* enum binscan_format */
    uint64_t size;     /* bytes seen */
    uint16_t machine;  /* ELF e_machine or PE Machine */
    uint16_t elf_type; /* ELF e_type */
    struct binscan_module *modules;
    size_t nmodules;
    struct binscan_entry *entries;
    size_t nentries;
    char **arch_flags; /* distinct nvcc arch-flag strings found */
    size_t narch_flags;
    char **warnings; /* disagreements between sources, oddities */
    size_t nwarnings;
    size_t warnings_dropped;
};

#endif
