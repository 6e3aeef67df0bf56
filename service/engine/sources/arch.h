/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The machine this build is for: which entries of the source table it has
 * (sources.h), whether it has their draw code, and the cycle counter the
 * probe times single tries with. */

#include <stdint.h>

/* The table's x86-64 entries: on every x86-64 build. */
#if defined(__x86_64__)
#define RNG_SOURCES_X86_64 1
#else
#define RNG_SOURCES_X86_64 0
#endif

/* 1 where the x86-64 draw code is built. Building with -DRNG_NO_X86_64 on
 * x86-64 leaves it out: the table's entries are there, but nothing
 * executes (the paths of an architecture without draw code, to test
 * them). */
#if defined(__x86_64__) && !defined(RNG_NO_X86_64)
#define RNG_ARCH_X86_64 1
#else
#define RNG_ARCH_X86_64 0
#endif

/* The table's arm64 entries (RNDR, RNDRRS): on every arm64 build. */
#if defined(__aarch64__)
#define RNG_SOURCES_ARM64 1
#else
#define RNG_SOURCES_ARM64 0
#endif

/* 1 where the arm64 draw code is built; -DRNG_NO_ARM64 leaves it out, as
 * -DRNG_NO_X86_64 does on x86-64. */
#if defined(__aarch64__) && !defined(RNG_NO_ARM64)
#define RNG_ARCH_ARM64 1
#else
#define RNG_ARCH_ARM64 0
#endif

/* What rng_tsc_begin() and rng_tsc_end() count: the probe table's column
 * label (CYC p50/p99, CNT p50/p99) and the unit the JSON names. */
#if RNG_ARCH_ARM64
#define RNG_TIMER_LABEL "CNT"
#define RNG_TIMER_UNIT "cntvct-ticks"
#else
#define RNG_TIMER_LABEL "CYC"
#define RNG_TIMER_UNIT "tsc-cycles"
#endif

/* The cycle counter, serialised enough for single-try latency. x86-64: the
 * time stamp counter, lfence;rdtsc before, rdtscp;lfence after. arm64: the
 * virtual counter CNTVCT_EL0 with an isb before each read (its ticks are
 * the generic timer's, CNTFRQ_EL0: tens of MHz, not the core's clock, so a
 * single fast try often reads 0 ticks). Returns 0 without draw code. */
static inline uint64_t rng_tsc_begin(void) {
#if RNG_ARCH_X86_64
        uint32_t lo, hi;
        __asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
        return ((uint64_t) hi << 32) | lo;
#elif RNG_ARCH_ARM64
        uint64_t t;
        __asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(t) : : "memory");
        return t;
#else
        return 0;
#endif
}
static inline uint64_t rng_tsc_end(void) {
#if RNG_ARCH_X86_64
        uint32_t lo, hi, aux;
        __asm__ volatile("rdtscp; lfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
        return ((uint64_t) hi << 32) | lo;
#elif RNG_ARCH_ARM64
        uint64_t t;
        __asm__ volatile("isb; mrs %0, cntvct_el0; isb" : "=r"(t) : : "memory");
        return t;
#else
        return 0;
#endif
}
