/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The arm64 draw code: FEAT_RNG detection, and RNDR and RNDRRS (64 bits,
 * their only width), each with its own draw function and its own loop. */

#include "arch.h"

#if RNG_ARCH_ARM64

#include <sys/auxv.h>

#include "arm64.h"
#include "probe-batch.h"

/* arch/arm64/include/uapi/asm/hwcap.h (Linux 5.6 and later). */
#ifndef HWCAP2_RNG
#define HWCAP2_RNG (1 << 16)
#endif

bool rng_arm64_hwcap_advertises(const RngSourceDesc *d) {
        (void) d;
        return getauxval(AT_HWCAP2) & HWCAP2_RNG;
}

/* Each returns whether the read succeeded (true: *ret holds a value) and
 * never traps as long as HWCAP2_RNG is set. A read sets PSTATE.NZCV to
 * 0b0000 on success and to 0b0100 (Z) with the register reading 0 on
 * failure: cset ne after the mrs, as the kernel's __arm64_rndr() and
 * __arm64_rndrrs() (arch/arm64/include/asm/archrandom.h). The registers
 * are named by their encoding (RNDR is S3_3_C2_C4_0, RNDRRS
 * S3_3_C2_C4_1), which every assembler takes without -march=armv8.5-a+rng;
 * each is its own asm text, so that no compiler can fold one into the
 * other. tests/host/check-binary.py verifies the built code: every draw_*
 * and batch_* function below reads its own register. */
#define RNG_DEFINE_DRAW(name, reg)                                                            \
        static inline bool name(uint64_t *ret) {                                              \
                uint64_t v;                                                                   \
                bool ok; /* cset gives 0 or 1: the compiler need not test it again */      \
                __asm__ volatile("mrs %0, " reg "\n\tcset %w1, ne" : "=r"(v), "=r"(ok) : : "cc"); \
                *ret = v;                                                                     \
                return ok;                                                                    \
        }
RNG_DEFINE_DRAW(rndr64, "s3_3_c2_c4_0")
RNG_DEFINE_DRAW(rndrrs64, "s3_3_c2_c4_1")

/* One form: its draw function (RngSource.draw: the SIGILL guard's try, and
 * any caller of the interface) and its loop (RngSource.batch: the probe's
 * hot loop with the read inlined). */
#define FORM(reg, width)                                                                          \
        static bool draw_##reg##width(void *u, uint64_t *ret) {                                   \
                return reg##width(ret);                                                           \
        }                                                                                         \
        static size_t batch_##reg##width(uint64_t n, uint64_t retries, uint64_t overhead,         \
                                         RngBatchCounters *c, uint64_t *buf, uint32_t *lat) {     \
                return rng_draw_batch(draw_##reg##width, NULL, n, retries, overhead, c, buf, lat); \
        }
FORM(rndr, 64)
FORM(rndrrs, 64)

#define SOURCE(reg, id, w) \
        { .name = #reg #w, .instruction = id, .width = w, .draw = draw_##reg##w, .batch = batch_##reg##w }

/* [0] and [1] (16 and 32 bits) stay empty: the descriptors' widths say 64
 * only, and rng_source_hardware() gives no form of another width. */
const RngSource rng_arm64_rndr_forms[RNG_N_WIDTHS] = {
        [2] = SOURCE(rndr, RNG_SOURCE_RNDR, 64),
};

const RngSource rng_arm64_rndrrs_forms[RNG_N_WIDTHS] = {
        [2] = SOURCE(rndrrs, RNG_SOURCE_RNDRRS, 64),
};

#endif
