/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
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

const RngSource *rng_source_hardware(RngSourceId id, unsigned width) {
        const RngSourceDesc *d = rng_source_desc(id);
        int w = rng_width_index(width);

        if (d && d->forms && d->kind == RNG_KIND_HWRNG_DEVICE)
                return &d->forms[0];
        if (!d || !d->forms || w < 0 || !(d->widths & (1u << w)))
                return NULL;
        return &d->forms[w];
}

int rng_source_use_fd(RngSourceId id, int fd) {
        const RngSourceDesc *d = rng_source_desc(id);

        if (!d || d->kind != RNG_KIND_HWRNG_DEVICE || !d->forms || !d->forms[0].userdata || fd < 0)
                return -EINVAL;
        ((RngDeviceFile *) d->forms[0].userdata)->fd = fd;
        return 0;
}
