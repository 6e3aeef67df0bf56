/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <string.h>

#include "macro.h"
#include "parse-util.h"
#include "rng-cpu.h"

#if RNG_ARCH_X86_64
#include <cpuid.h>
#endif

const unsigned rng_widths[RNG_N_WIDTHS] = { 16, 32, 64 };

static const char *const instruction_names[_RNG_INSTRUCTION_MAX] = {
        [RNG_RDRAND] = "rdrand",
        [RNG_RDSEED] = "rdseed",
};

static const char *const instruction_upper[_RNG_INSTRUCTION_MAX] = {
        [RNG_RDRAND] = "RDRAND",
        [RNG_RDSEED] = "RDSEED",
};

DEFINE_STRING_TABLE_TO_STRING(rng_instruction, RngInstruction, instruction_names)
DEFINE_STRING_TABLE_TO_STRING(rng_instruction_upper, RngInstruction, instruction_upper)

int rng_instruction_from_string(const char *s) {
        if (!s)
                return -EINVAL;
        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++)
                if (strcmp(s, instruction_names[i]) == 0)
                        return i;
        return -EINVAL;
}

int rng_width_index(unsigned width) {
        for (int i = 0; i < RNG_N_WIDTHS; i++)
                if (rng_widths[i] == width)
                        return i;
        return -EINVAL;
}

int rng_width_from_string(const char *s) {
        uint64_t u;

        if (parse_u64(s, &u) < 0 || u > 64)
                return -EINVAL;
        return rng_width_index((unsigned) u);
}

bool rng_arch_supported(void) {
#if RNG_ARCH_X86_64
        return true;
#else
        return false;
#endif
}

bool rng_cpuid_supported(RngInstruction i) {
#if RNG_ARCH_X86_64
        unsigned a, b, c, d;

        switch (i) {
        case RNG_RDRAND:
                if (!__get_cpuid(1, &a, &b, &c, &d))
                        return false;
                return c & (1u << 30);
        case RNG_RDSEED:
                if (__get_cpuid_max(0, NULL) < 7)
                        return false;
                if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
                        return false;
                return b & (1u << 18);
        default:
                return false;
        }
#else
        return false;
#endif
}
