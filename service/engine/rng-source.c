/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <stddef.h>

#include "rng-source.h"

#if RNG_ARCH_X86_64
static bool draw_rdrand16(void *u, uint64_t *ret) { return rng_rdrand16(ret); }
static bool draw_rdrand32(void *u, uint64_t *ret) { return rng_rdrand32(ret); }
static bool draw_rdrand64(void *u, uint64_t *ret) { return rng_rdrand64(ret); }
static bool draw_rdseed16(void *u, uint64_t *ret) { return rng_rdseed16(ret); }
static bool draw_rdseed32(void *u, uint64_t *ret) { return rng_rdseed32(ret); }
static bool draw_rdseed64(void *u, uint64_t *ret) { return rng_rdseed64(ret); }

#define HARDWARE(insn, instruction_, width_)                                                \
        { .name = #insn #width_, .instruction = instruction_, .width = width_,                \
          .draw = draw_##insn##width_, .hardware = true }

static const RngSource hardware[_RNG_INSTRUCTION_MAX][RNG_N_WIDTHS] = {
        [RNG_RDRAND] = {
                HARDWARE(rdrand, RNG_RDRAND, 16),
                HARDWARE(rdrand, RNG_RDRAND, 32),
                HARDWARE(rdrand, RNG_RDRAND, 64),
        },
        [RNG_RDSEED] = {
                HARDWARE(rdseed, RNG_RDSEED, 16),
                HARDWARE(rdseed, RNG_RDSEED, 32),
                HARDWARE(rdseed, RNG_RDSEED, 64),
        },
};
#endif

const RngSource *rng_source_hardware(RngInstruction i, unsigned width) {
#if RNG_ARCH_X86_64
        int w = rng_width_index(width);

        if (i < 0 || i >= _RNG_INSTRUCTION_MAX || w < 0)
                return NULL;
        return &hardware[i][w];
#else
        return NULL;
#endif
}
