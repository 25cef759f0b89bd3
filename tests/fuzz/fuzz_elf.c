/* libFuzzer target: ELF headers, section tables and cubin headers. */
#include <stddef.h>
#include <stdint.h>

#include "elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct elf_header h;
    struct cubin_info ci;
    elf_cubin_info(data, size, &ci, NULL);
    if (elf_parse_header(data, size, &h, NULL) != 0 || h.shoff == 0 || h.shoff >= size)
        return 0;
    const uint8_t *tab = data + h.shoff;
    size_t len = size - (size_t)h.shoff;
    struct elf_section s0;
    if (elf_parse_section(tab, len, &h, 0, &s0, NULL) != 0)
        return 0;
    elf_fix_counts(&h, &s0);
    for (uint32_t i = 0; i < h.shnum && i < 4096; i++) {
        struct elf_section s;
        if (elf_parse_section(tab, len, &h, i, &s, NULL) != 0)
            break;
    }
    return 0;
}
