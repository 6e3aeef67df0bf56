/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* CPUID capability detection and the RDRAND/RDSEED draw primitives.
 *
 * Everything here is x86-64 only: on other architectures rng_source_advertised()
 * is always false and the draw primitives are never compiled. */

#include <stdbool.h>
#include <stdint.h>

/* 1 where RDRAND/RDSEED can be executed. Building with -DRNG_NO_X86_64 on
 * x86-64 compiles the other architectures' paths (to test them). */
#if defined(__x86_64__) && !defined(RNG_NO_X86_64)
#define RNG_ARCH_X86_64 1
#else
#define RNG_ARCH_X86_64 0
#endif

typedef enum RngSourceId {
        RNG_SOURCE_RDRAND,
        RNG_SOURCE_RDSEED,
        _RNG_SOURCE_MAX,
} RngSourceId;

#define RNG_N_WIDTHS 3
extern const unsigned rng_widths[RNG_N_WIDTHS]; /* 16, 32, 64 */

const char *rng_source_name(RngSourceId i);     /* "rdrand", "rdseed" */
const char *rng_source_display_name(RngSourceId i);      /* "RDRAND", "RDSEED" */
int rng_source_from_name(const char *s);              /* -EINVAL if unknown */
int rng_width_index(unsigned width);                         /* 0..2, -EINVAL otherwise */
/* The one parser of a width as given ("16", "32", "64"): its index, or
 * -EINVAL for anything else (the CLI and the configuration alike). */
int rng_width_from_string(const char *s);

/* What the CPU says about one instruction. CPUID that does not advertise
 * an instruction may hide one the hardware has: the kernel clears the bit
 * itself on some CPUs (AMD Zen5 RDSEED, Cyan Skillfish), and a hypervisor
 * may mask it. So where CPUID says no, one try under a SIGILL guard
 * (rng_source_executes()) tells hidden from absent. */
typedef struct RngPresence {
        bool cpuid;    /* advertised by CPUID */
        bool tried;    /* not advertised: the guarded try was made */
        bool executes; /* advertised, or the guarded try ran without SIGILL */
} RngPresence;

/* CPUID: RDRAND is leaf 1 ECX bit 30, RDSEED leaf 7 subleaf 0 EBX bit 18. */
bool rng_source_advertised(RngSourceId i);
/* Whether this build can execute the instructions at all (x86-64). */
bool rng_arch_supported(void);

#if RNG_ARCH_X86_64
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
 * value is masked to its width. tests/host/check-binary verifies the built
 * code. */
#define RNG_DEFINE_DRAW(name, insn, mask)                                                   \
        static inline bool name(uint64_t *ret) {                                            \
                uint64_t v;                                                                 \
                unsigned char ok;                                                           \
                __asm__ volatile(insn "; setc %1" : "=r"(v), "=qm"(ok) : : "cc");           \
                *ret = v & (mask);                                                          \
                return ok;                                                                  \
        }
RNG_DEFINE_DRAW(rng_rdrand16, "rdrand %w0", UINT64_C(0xffff))
RNG_DEFINE_DRAW(rng_rdrand32, "rdrand %k0", UINT64_C(0xffffffff))
RNG_DEFINE_DRAW(rng_rdrand64, "rdrand %q0", UINT64_MAX)
RNG_DEFINE_DRAW(rng_rdseed16, "rdseed %w0", UINT64_C(0xffff))
RNG_DEFINE_DRAW(rng_rdseed32, "rdseed %k0", UINT64_C(0xffffffff))
RNG_DEFINE_DRAW(rng_rdseed64, "rdseed %q0", UINT64_MAX)
#endif

/* Time stamp counter, serialised enough for single-instruction latency:
 * lfence;rdtsc before, rdtscp;lfence after. Returns 0 off x86-64. */
static inline uint64_t rng_tsc_begin(void) {
#if RNG_ARCH_X86_64
        uint32_t lo, hi;
        __asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
        return ((uint64_t) hi << 32) | lo;
#else
        return 0;
#endif
}
static inline uint64_t rng_tsc_end(void) {
#if RNG_ARCH_X86_64
        uint32_t lo, hi, aux;
        __asm__ volatile("rdtscp; lfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
        return ((uint64_t) hi << 32) | lo;
#else
        return 0;
#endif
}
