/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>

#include "macro.h"
#include "rng-source.h"

static sigjmp_buf guard_jump;
static volatile sig_atomic_t guard_armed;

static void guard_on_sigill(int sig) {
        if (guard_armed)
                siglongjmp(guard_jump, 1);
        /* Not the guarded try: die of it as if no handler were there. */
        signal(sig, SIG_DFL);
        raise(sig);
}

/* Only the jump's own state lives across sigsetjmp() here. */
static int guarded_try(const RngSource *src) {
        uint64_t v;

        /* savesigs: the jump back restores the mask the handler ran with. */
        if (sigsetjmp(guard_jump, 1) != 0)
                return 0;
        guard_armed = 1;
        (void) src->draw(src->userdata, &v);
        guard_armed = 0;
        return 1;
}

int rng_source_executes(const RngSource *src) {
        struct sigaction sa = { .sa_handler = guard_on_sigill }, old;
        sigset_t ill, old_mask;
        int r;

        if (!src || !src->draw)
                return -EINVAL;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGILL, &sa, &old) < 0)
                return negative_errno();
        /* A blocked synchronous SIGILL would kill the process instead. */
        sigemptyset(&ill);
        sigaddset(&ill, SIGILL);
        r = pthread_sigmask(SIG_UNBLOCK, &ill, &old_mask);
        if (r != 0) {
                (void) sigaction(SIGILL, &old, NULL);
                return -r;
        }
        r = guarded_try(src);
        guard_armed = 0;
        (void) pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
        (void) sigaction(SIGILL, &old, NULL);
        return r;
}

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

static const RngSource hardware[_RNG_SOURCE_MAX][RNG_N_WIDTHS] = {
        [RNG_SOURCE_RDRAND] = {
                HARDWARE(rdrand, RNG_SOURCE_RDRAND, 16),
                HARDWARE(rdrand, RNG_SOURCE_RDRAND, 32),
                HARDWARE(rdrand, RNG_SOURCE_RDRAND, 64),
        },
        [RNG_SOURCE_RDSEED] = {
                HARDWARE(rdseed, RNG_SOURCE_RDSEED, 16),
                HARDWARE(rdseed, RNG_SOURCE_RDSEED, 32),
                HARDWARE(rdseed, RNG_SOURCE_RDSEED, 64),
        },
};
#endif

const RngSource *rng_source_hardware(RngSourceId i, unsigned width) {
#if RNG_ARCH_X86_64
        int w = rng_width_index(width);

        if (i < 0 || i >= _RNG_SOURCE_MAX || w < 0)
                return NULL;
        return &hardware[i][w];
#else
        return NULL;
#endif
}
