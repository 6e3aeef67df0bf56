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

static const char *const instruction_names[_RNG_SOURCE_MAX] = {
        [RNG_SOURCE_RDRAND] = "rdrand",
        [RNG_SOURCE_RDSEED] = "rdseed",
};

static const char *const instruction_upper[_RNG_SOURCE_MAX] = {
        [RNG_SOURCE_RDRAND] = "RDRAND",
        [RNG_SOURCE_RDSEED] = "RDSEED",
};

const char *rng_source_name(RngSourceId i) {
        return (unsigned) i < _RNG_SOURCE_MAX ? instruction_names[i] : NULL;
}

const char *rng_source_display_name(RngSourceId i) {
        return (unsigned) i < _RNG_SOURCE_MAX ? instruction_upper[i] : NULL;
}

int rng_source_from_name(const char *s) {
        if (!s)
                return -EINVAL;
        for (int i = 0; i < _RNG_SOURCE_MAX; i++)
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

bool rng_source_advertised(RngSourceId i) {
#if RNG_ARCH_X86_64
        unsigned a, b, c, d;

        switch (i) {
        case RNG_SOURCE_RDRAND:
                if (!__get_cpuid(1, &a, &b, &c, &d))
                        return false;
                return c & (1u << 30);
        case RNG_SOURCE_RDSEED:
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
