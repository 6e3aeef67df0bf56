/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The kernel watch: follows the kernel's RNG messages through the journal
 * (kernel transport, from the start of the current boot) and the kernel's
 * counters (kernel-counters.h), and records them as structured events.
 *
 * - Reaction: the journal's fd is on the event loop; a kernel message is
 *   recorded as soon as journald has stored it. No polling: the only timers
 *   are the aggregation window and one counter re-check after activity,
 *   both armed only after a message.
 * - Floods: messages are aggregated per (kind, instruction) bucket; the
 *   first of a quiet bucket is recorded at once, the rest of the window
 *   (flush_usec) in one event: at most one journal write per bucket per
 *   window, fixed memory.
 * - Nothing lost: RNG_COUNT of the exhausted/failed events is the growth of
 *   the kernel's exhausted counter since the previous event (the message
 *   count where the kernel has no counters), so the counts add up to the
 *   counter even when the kernel's rate limit drops lines; a re-check
 *   settle_usec after the last message records failures that printed none.
 * - Restarts: the cursor of the last recorded message and the counter
 *   values already reported are kept in STATE_DIR/kernel-watch.state.
 *   The state is written as .new before the event is sent and committed
 *   after; at start a leftover .new is committed only if the journal holds
 *   the event with its RNG_STATE_SERIAL, sent by the daemon itself
 *   (journal-sender.h: rng-health.service, its uid; anyone can send an
 *   entry with that field), so a crash between the state and the event
 *   neither loses nor double-counts. A daemon outside rng-health.service
 *   never commits a leftover .new.
 *   Known limits: a flush of several events is committed by the first one
 *   (a crash between two sends of one flush loses the rest); an event
 *   still queued in journald's socket when a crashed daemon restarts looks
 *   missing (its window is recorded again); a failed send is not retried.
 *
 * Parts: kernel-watch-state.h (the state file), kernel-watch-account.h
 * (the pure accounting step and the status text; unit-tested against the
 * invariants above), kernel-watch-event.h (the events' fields) and
 * kernel-watch.c (journal, counter polling, timers, sending). */

#include <stdbool.h>
#include <stdint.h>

#include <systemd/sd-event.h>

#include "kernel-counters.h"
#include "kernel-watch-event.h" /* KernelEventInfo, event_kernel(), kernel_rng_msg_kind_verdict() */
#include "verdict-source.h"
#include "verdict.h"

typedef struct KernelWatch KernelWatch;

typedef struct KernelWatchParams {
        const char *state_dir;  /* NULL: no persistence (start of the boot each time) */
        const char *sysfs_root; /* NULL: "/" */
        uint64_t flush_usec;    /* aggregation window */
        uint64_t settle_usec;   /* counter re-check after the last message */
} KernelWatchParams;

#define KERNEL_WATCH_PARAMS_DEFAULT \
        ((KernelWatchParams) { .flush_usec = 1000000, .settle_usec = 6000000 })

/* Reports its verdict and status fragment ("kernel: ...") through source
 * (the Manager's): once from what this boot logged before the start (so it
 * may report before returning, and before failing), then on every change. */
int kernel_watch_new(sd_event *e, const KernelWatchParams *p, VerdictSource *source, KernelWatch **ret);
/* Flushes pending events, saves the state (position and counts) and frees;
 * reports nothing. */
KernelWatch *kernel_watch_free(KernelWatch *w);
static inline void kernel_watch_freep(KernelWatch **w) {
        kernel_watch_free(*w);
}

/* The current verdict and status fragment ("kernel: ..."), owned by w. */
Verdict kernel_watch_verdict(const KernelWatch *w);
const char *kernel_watch_status(const KernelWatch *w);
