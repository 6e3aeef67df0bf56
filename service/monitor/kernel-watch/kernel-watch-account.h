/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The kernel watch's accounting, pure (no I/O, no clocks, no sd-* calls):
 * the kernel messages of a window aggregated into a batch, and one step
 * state + counter snapshot + batch -> the events to send + the next state,
 * under the invariants of kernel-watch.h:
 *
 * - With counters, RNG_COUNT of the exhausted/failed events of a step is
 *   the growth of the kernel's exhausted counter over what the state has
 *   reported (carried by the first failure bucket; the others count 0),
 *   or a counted-only exhausted event when no line was logged; so over any
 *   number of steps the counts add up to the counter's growth, and a
 *   restart from a saved state does not count again.
 * - Without counters, RNG_COUNT is the bucket's message count.
 * - A counter below the state (went backwards) counts 0 and never lowers
 *   what was reported.
 * - One event per (kind, instruction) bucket with messages.
 * - Routine failures (of a source the kernel falls back from: any
 *   failure kind whose exhaustion verdict_severity() rates notice or
 *   less): while defer_routine is set, neither their growth nor their
 *   failure buckets are recorded (nor taken into the state: the counter
 *   keeps them), so the caller records them at most once per interval and
 *   the counts still add up, across a crash too.
 * - Own load: of the counter's growth, up to the exhaustions the kernel
 *   counted while rng-health's own contention probe ran (own_pending, from
 *   the probe's counter snapshots around its runs) go into an event of their
 *   own (own_probe), into the state's own[] and not recorded[]: they are
 *   counted like the others, but not against the kernel's verdict. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel-counters.h"
#include "kernel-rng-msg.h"
#include "kernel-watch-event.h"
#include "kernel-watch-state.h"
#include "verdict.h"

#define KERNEL_WATCH_MESSAGE_MAX 512 /* the first line kept per bucket */
#define KERNEL_WATCH_EVENTS_MAX (_KERNEL_RNG_MSG_MAX * _RNG_SOURCE_MAX)

/* Messages of one (kind, instruction) since the last recorded event. */
typedef struct KernelWatchBucket {
        uint64_t messages;
        char *first_message; /* owned */
        bool have_cpu;
        unsigned cpu, tries; /* of the last message with a CPU */
        const KernelReason *reason;
} KernelWatchBucket;

typedef struct KernelWatchBatch {
        KernelWatchBucket buckets[_KERNEL_RNG_MSG_MAX][_RNG_SOURCE_MAX];
        bool pending;        /* some bucket holds messages */
} KernelWatchBatch;

void kernel_watch_batch_clear(KernelWatchBatch *b);
/* One parsed message m and its text (len bytes, the first
 * KERNEL_WATCH_MESSAGE_MAX kept up to a newline) into its bucket. */
int kernel_watch_batch_add(KernelWatchBatch *b, const KernelRngMsg *m, const char *text, size_t len);

typedef struct KernelWatchStep {
        /* kernel_message points into the batch: send before clearing it */
        KernelEventInfo events[KERNEL_WATCH_EVENTS_MAX + _RNG_SOURCE_MAX];
        size_t n_events;
        KernelWatchState next; /* owned (its own copy of the cursor) */
        uint64_t own_used[_RNG_SOURCE_MAX]; /* of own_pending, attributed in this step */
        /* Routine failures of the instruction were held back (defer_routine):
         * keep its failure buckets in the batch for the next step. */
        bool deferred[_RNG_SOURCE_MAX];
        bool routine_recorded; /* a routine failure was recorded: the interval starts anew */
} KernelWatchStep;

/* What a step needs besides the state, counters and batch. */
typedef struct KernelWatchAccountParams {
        const uint64_t *own_pending; /* [_RNG_SOURCE_MAX]: own probe's exhaustions not yet attributed; NULL: none */
        bool defer_routine;          /* inside the interval of the last routine record: hold routine failures */
        uint64_t routine_interval_usec; /* since the last routine record (its events' rate); 0: none yet */
        /* counters is NULL, but the kernel may have them: no read has
         * succeeded yet, and the last one failed with something other
         * than -ENOENT (kernel_watch_counters_unread()). Failures
         * are counted by their lines, and those lines' count is taken as
         * reported: the first good read counts only the growth past them. */
        bool counters_unread;
} KernelWatchAccountParams;

/* Whether source i's failures are routine: its exhaustion is one the
 * kernel falls back from (its descriptor's severity, sources.h). */
bool kernel_watch_failure_routine(RngSourceId i);
/* Clears the batch but the failure buckets of the instructions keep[] names. */
void kernel_watch_batch_clear_but(KernelWatchBatch *b, const bool keep[_RNG_SOURCE_MAX]);

void kernel_watch_step_done(KernelWatchStep *s);

/* The growth of instruction i's exhausted counter over what the state has
 * reported, less the own probe's part (up to own_pending[i], NULL: none),
 * which goes into *ret_own (may be NULL). No counters: 0. One rule for a
 * step and for the count held back between steps. */
uint64_t kernel_watch_growth(const KernelWatchState *state, const KernelCounters *counters,
                             const uint64_t *own_pending, RngSourceId i, uint64_t *ret_own);

/* The counters a step uses. A kernel that has counters keeps them: after
 * a failed read the last snapshot stands, and the growth is counted at the
 * next good read. (Stepping without counters instead would count that
 * window's messages by number, and the next good read would count the same
 * exhaustions again as the counter's growth.) Before the first good read
 * there is no snapshot: see KernelWatchAccountParams.counters_unread. */
typedef struct KernelWatchCounters {
        bool have;   /* the kernel has counters: one read succeeded */
        bool stale;  /* the last read failed: snapshot is the last good one */
        bool absent; /* no read succeeded, and the last found no counters (-ENOENT) */
        KernelCounters snapshot;
} KernelWatchCounters;

/* After one kernel_counters_read(): r its result, c what it read (when r
 * >= 0). Returns the counters for the next step (NULL: the kernel has
 * none). */
const KernelCounters *kernel_watch_counters_update(KernelWatchCounters *v, int r, const KernelCounters *c);
/* The kernel may have counters, but none has been read yet: what
 * KernelWatchAccountParams.counters_unread takes. */
bool kernel_watch_counters_unread(const KernelWatchCounters *v);

/* One accounting step. counters: the snapshot, NULL where the kernel has
 * none. cursor: of the last message in the batch (copied into the next
 * state), NULL to keep the state's. params: NULL for none. Returns the
 * number of events (0: the next state equals the state, nothing to send
 * or write) or -ENOMEM; the next state's serial is the state's + 1 when
 * there are events. */
int kernel_watch_account(const KernelWatchState *state, const KernelCounters *counters,
                         const KernelWatchBatch *batch, const char *cursor, const KernelWatchAccountParams *params,
                         KernelWatchStep *ret);
