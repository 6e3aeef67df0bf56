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
 * - Floods: messages are aggregated per (kind, source) bucket; the
 *   first of a quiet bucket is recorded at once, the rest of the window
 *   (flush_usec) in one event: at most one journal write per bucket per
 *   window, fixed memory.
 * - Routine failures: a failure of a source the kernel falls back from is
 *   routine for the kernel (the source table's severity), and such a
 *   source can fail all the time: a healthy Intel Xeon fails 19.5 % of its
 *   10-try seed calls, and its reseed every 60 s would record an event a
 *   minute, forever.
 *   The first is recorded at once, then at most one per routine_usec
 *   (the re-probe interval), with the count and the rate since the last
 *   (RNG_ROUTINE=1). Held back failures stay in the counter, not in the
 *   state: a crash neither loses nor repeats them.
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
 *   Exhaustions counted while rng-health's own contention probe ran are
 *   recorded in events of their own (RNG_OWN_PROBE=1) and kept out of the
 *   verdict (kernel_watch_add_own_load()); a restart between the probe and
 *   the next record counts them as anyone's.
 *   Known limits: a flush of several events is committed by the first one
 *   (a crash between two sends of one flush loses the rest); an event
 *   still queued in journald's socket when a crashed daemon restarts looks
 *   missing (its window is recorded again); a failed send is not retried.
 *
 * Parts: kernel-watch-follow.h (the journal and the counters followed,
 * each input handed to the recorder), kernel-watch-record.h (the batch,
 * the flush that sends the events, the timers, the verdict), with
 * kernel-watch-account.h (the pure accounting step and the status's
 * figures; unit-tested against the invariants above), kernel-watch-state.h
 * (the state file) and kernel-watch-event.h (the events' fields);
 * kernel-watch.c sets them up. The follower knows the recorder, never the
 * other way round. */

#include <stdbool.h>
#include <stdint.h>

#include <systemd/sd-event.h>

#include "kernel-counters.h"
#include "macro.h"
#include "kernel-watch-event.h" /* KernelEventInfo, event_kernel() */
#include "verdict-source.h"
#include "verdict.h"

typedef struct KernelWatch KernelWatch;

typedef struct KernelWatchParams {
        const char *state_dir;  /* NULL: no persistence (start of the boot each time) */
        const char *sysfs_root; /* NULL: "/" */
        uint64_t flush_usec;    /* aggregation window */
        uint64_t settle_usec;   /* counter re-check after the last message */
        uint64_t routine_usec;  /* routine failures are recorded at most once per this */
        /* Exhaustions the kernel counted during rng-health's own contention
         * probe before the watch started (the boot probe). */
        uint64_t own_load[_RNG_SOURCE_MAX];
} KernelWatchParams;

#define KERNEL_WATCH_PARAMS_DEFAULT \
        ((KernelWatchParams) { .flush_usec = 1000000, .settle_usec = 6000000, .routine_usec = 6ull * 3600 * 1000000 })

/* Reports its verdict and status fragment ("kernel: ...") through source
 * (the Manager's): once from what this boot logged before the start (so it
 * may report before returning, and before failing), then on every change. */
int kernel_watch_new(sd_event *e, const KernelWatchParams *p, VerdictSource *source, KernelWatch **ret);
/* Flushes pending events, saves the state (position and counts) and frees;
 * reports nothing. */
KernelWatch *kernel_watch_free(KernelWatch *w);
DEFINE_TRIVIAL_CLEANUP_FUNC(KernelWatch *, kernel_watch_free);


/* The kernel counted `count` exhaustions of instruction i while
 * rng-health's own contention probe ran (the growth of its counters across
 * each contention run): the next records attribute that much of the
 * growth to the own probe (RNG_OWN_PROBE=1), not against the verdict. The
 * probe runs on the loop's thread, so the watch has not yet recorded any
 * of it. */
void kernel_watch_add_own_load(KernelWatch *w, RngSourceId i, uint64_t count);

/* A new interval for routine failures (a reload): what is held back is
 * recorded at once if the new interval has run out. */
int kernel_watch_set_routine_interval(KernelWatch *w, uint64_t usec);


