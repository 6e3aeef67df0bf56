/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The x86-64 draw code: CPUID detection, and RDRAND and RDSEED at 16, 32
 * and 64 bits, each form with its own draw function and its own loop. */

#include "arch.h"

#if RNG_ARCH_X86_64

#include <cpuid.h>

#include "probe-batch.h"
#include "x86.h"

bool rng_x86_cpuid_advertises(const RngSourceDesc *d) {
        unsigned r[4];

        if ((unsigned) __get_cpuid_max(0, NULL) < d->detect.cpuid_leaf)
                return false;
        if (!__get_cpuid_count(d->detect.cpuid_leaf, d->detect.cpuid_subleaf, &r[RNG_CPUID_EAX], &r[RNG_CPUID_EBX],
                               &r[RNG_CPUID_ECX], &r[RNG_CPUID_EDX]))
                return false;
        return r[d->detect.cpuid_register] & (1u << d->detect.cpuid_bit);
}

/* Each returns the carry flag (true: *ret holds a value) and never traps as
 * long as CPUID advertises the instruction. Callers must check CPUID first.
 * gcc >= 5 assembles rdrand/rdseed without -mrdrnd/-mrdseed.
 *
 * The operand size is in the template, not in the C type: %w0, %k0 and %q0
 * name the 16-, 32- and 64-bit register, so each width is its own asm text
 * and no compiler can treat two widths as the same code (gcc's identical
 * code folding merged loops whose templates were both "rdseed %0" and whose
 * operands differed only in C type: the 32-bit probe then ran RDSEED16).
 * The 16- and 32-bit forms leave (r16) or zero (r32) the upper bits, so the
 * value is masked to its width. tests/host/check-binary.py verifies the
 * built code: every draw_* and batch_* function below runs its own form. */
#define RNG_DEFINE_DRAW(name, insn, mask)                                                   \
        static inline bool name(uint64_t *ret) {                                            \
                uint64_t v;                                                                 \
                unsigned char ok;                                                           \
                __asm__ volatile(insn "; setc %1" : "=r"(v), "=qm"(ok) : : "cc");           \
                *ret = v & (mask);                                                          \
                return ok;                                                                  \
        }
RNG_DEFINE_DRAW(rdrand16, "rdrand %w0", UINT64_C(0xffff))
RNG_DEFINE_DRAW(rdrand32, "rdrand %k0", UINT64_C(0xffffffff))
RNG_DEFINE_DRAW(rdrand64, "rdrand %q0", UINT64_MAX)
RNG_DEFINE_DRAW(rdseed16, "rdseed %w0", UINT64_C(0xffff))
RNG_DEFINE_DRAW(rdseed32, "rdseed %k0", UINT64_C(0xffffffff))
RNG_DEFINE_DRAW(rdseed64, "rdseed %q0", UINT64_MAX)

/* One form: its draw function (RngSource.draw: the SIGILL guard's try, and
 * any caller of the interface) and its loop (RngSource.batch: the probe's
 * hot loop with the instruction inlined). */
#define FORM(insn, width)                                                                           \
        static bool draw_##insn##width(void *u, uint64_t *ret) {                                    \
                return insn##width(ret);                                                            \
        }                                                                                           \
        static size_t batch_##insn##width(uint64_t n, uint64_t retries, uint64_t overhead,          \
                                          RngBatchCounters *c, uint64_t *buf, uint32_t *lat) {      \
                return rng_draw_batch(draw_##insn##width, NULL, n, retries, overhead, c, buf, lat); \
        }
FORM(rdrand, 16)
FORM(rdrand, 32)
FORM(rdrand, 64)
FORM(rdseed, 16)
FORM(rdseed, 32)
FORM(rdseed, 64)

#define SOURCE(insn, id, w) \
        { .name = #insn #w, .instruction = id, .width = w, .draw = draw_##insn##w, .batch = batch_##insn##w }

const RngSource rng_x86_rdrand_forms[RNG_N_WIDTHS] = {
        SOURCE(rdrand, RNG_SOURCE_RDRAND, 16),
        SOURCE(rdrand, RNG_SOURCE_RDRAND, 32),
        SOURCE(rdrand, RNG_SOURCE_RDRAND, 64),
};

const RngSource rng_x86_rdseed_forms[RNG_N_WIDTHS] = {
        SOURCE(rdseed, RNG_SOURCE_RDSEED, 16),
        SOURCE(rdseed, RNG_SOURCE_RDSEED, 32),
        SOURCE(rdseed, RNG_SOURCE_RDSEED, 64),
};

#endif
