/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The kernel watch's recording (kernel-watch.h): what the followed inputs
 * bring (kernel-watch-follow.h) goes into a batch; a flush records it as
 * events (the pure step of kernel-watch-account.h) and commits the state
 * (kernel-watch-state.h), at once or at the end of a window; the settle
 * and routine timers; and the verdict it reports. It knows nothing of the
 * journal: the follower hands it each message with its cursor. */

#include <stdbool.h>
#include <stdint.h>

#include <systemd/sd-event.h>

#include "kernel-watch-account.h"
#include "kernel-watch-state.h"
#include "kernel-watch.h"

typedef struct KernelWatchRecorder {
        sd_event *event;
        sd_event_source *flush_timer, *settle_timer, *routine_timer;

        char *state_dir, *sysfs_root;
        uint64_t flush_usec, settle_usec, routine_usec;
        uint64_t routine_until; /* CLOCK_MONOTONIC: routine failures are held back until then */
        uint64_t routine_last;  /* when one was last recorded; 0: not since the start */
        VerdictSource *source; /* the Manager's; NULL once detached */

        KernelWatchBatch batch; /* messages since the last recorded event */
        char *read_cursor;     /* owned: last entry consumed; a flush copies it into the state */
        uint64_t quiet_until;  /* CLOCK_MONOTONIC: until then, aggregate */

        KernelWatchState state;
        KernelWatchCounters counters;
        uint64_t own_pending[_RNG_SOURCE_MAX]; /* own probe's exhaustions not yet recorded */

        /* This boot's CRNG lines: ready (and when), virtual machine forks
         * (how many, the last one's timestamp: a line seen again while
         * catching up is not counted twice). */
        KernelBootLog crng;

        bool reported;   /* reported at least once (kernel_watch_new() reports once) */
        bool no_journal; /* no journal file to follow (no journald): said in the status */
} KernelWatchRecorder;

/* p's parameters; reports through source. The state is empty: the caller
 * restores it (kernel_watch_state_restore() into r->state). */
int kernel_watch_record_init(KernelWatchRecorder *r, sd_event *e, const KernelWatchParams *p, VerdictSource *source);
/* Frees (kernel_watch_free() detaches the source and flushes first). */
void kernel_watch_record_done(KernelWatchRecorder *r);

/* Reports the state's verdicts and status, and its counter snapshot. */
int kernel_watch_record_report(KernelWatchRecorder *r);
/* The counters for the next step (NULL: the kernel has none). */
const KernelCounters *kernel_watch_record_read_counters(KernelWatchRecorder *r);
/* Records what is due as events, then commits the state: 1 if it recorded
 * something, 0 if there was nothing to record. */
int kernel_watch_record_flush(KernelWatchRecorder *r);

/* The cursor of the journal entry just consumed (owned from now on). */
void kernel_watch_record_set_cursor(KernelWatchRecorder *r, char *cursor);
/* One kernel RNG message m and its text into the batch at now. Returns 1
 * when it is to be recorded at once (outside the window of the previous
 * recording, which it opens), 0 when it waits (catching up: for the one
 * flush of kernel_watch_record_read_done(); inside a window: for the flush
 * timer, armed here). */
int kernel_watch_record_message(KernelWatchRecorder *r, const KernelRngMsg *m, const char *text, size_t len,
                                uint64_t now, bool catching_up);
/* After the journal's new messages were read at now: a flush where one was
 * to be recorded at once or when catching up (everything this boot logged
 * before the start: one flush), and the settle timer after it. */
int kernel_watch_record_read_done(KernelWatchRecorder *r, uint64_t now, bool record, bool catching_up);
/* The kernel's exhausted counter grew (a poll wake-up): record at once
 * unless inside the window of the previous recording; settle after it. */
int kernel_watch_record_counter_activity(KernelWatchRecorder *r);
/* One of the kernel's CRNG lines (KERNEL_BOOT_LINE_CRNG_READY or _VM_FORK)
 * with its timestamp: counted (once: a fork at or before the last counted
 * one is one seen already), a fork recorded as an event unless catching
 * up, and reported. */
int kernel_watch_record_boot_line(KernelWatchRecorder *r, KernelBootLine line, uint64_t usec, bool catching_up);
/* At the start: this boot's forks so far (count, the last's timestamp),
 * and how many of them the daemon's events already recorded: the rest in
 * one event. The CRNG's readiness (ready, usec). */
void kernel_watch_record_boot_start(KernelWatchRecorder *r, uint64_t forks, uint64_t last_fork_usec,
                                    uint64_t recorded_forks, bool ready, uint64_t ready_usec);

/* Whether the journal can be followed (said in the status from the next
 * report on). */
void kernel_watch_record_set_no_journal(KernelWatchRecorder *r, bool no_journal);

/* A new interval for routine failures (kernel_watch_set_routine_interval()). */
int kernel_watch_record_set_routine_interval(KernelWatchRecorder *r, uint64_t usec);
/* Exhaustions of source i during the own probe (kernel_watch_add_own_load()). */
void kernel_watch_record_add_own_load(KernelWatchRecorder *r, RngSourceId i, uint64_t count);

/* Arms (or re-arms) a CLOCK_MONOTONIC timer *s at when, made on first use. */
int kernel_watch_arm_timer(sd_event *e, sd_event_source **s, uint64_t when, sd_event_time_handler_t handler,
                           void *userdata, const char *description);
