/* libFuzzer target: PE headers, section table and long section names. */
#include <stddef.h>
#include <stdint.h>

#include "pe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct pe_info pi;
    if (pe_parse_headers(data, size, &pi, NULL) != 0)
        return 0;
    uint64_t end = pe_section_table_end(&pi);
    if (end > size)
        return 0;
    uint64_t st = pe_string_table_offset(&pi);
    for (uint32_t i = 0; i < pi.nsections; i++) {
        struct pe_section s;
        if (pe_parse_section(data + pi.sections_offset, (size_t)(end - pi.sections_offset), i, &s,
                             NULL) != 0)
            break;
        (void)pe_section_data_size(&s);
        char name[64];
        if (st && st < size)
            pe_long_name(s.name, data + st, size - (size_t)st, name, sizeof name);
    }
    return 0;
}
