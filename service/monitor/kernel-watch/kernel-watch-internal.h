/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The kernel watch's state, shared by kernel-watch.c (recording, verdict,
 * set-up) and kernel-watch-follow.c (the journal and the counters). */

#include <stdbool.h>
#include <stdint.h>

#include <systemd/sd-event.h>
#include <systemd/sd-journal.h>

#include "kernel-watch-account.h"
#include "kernel-watch-state.h"
#include "kernel-watch.h"

struct KernelWatch {
        sd_event *event;
        sd_journal *journal;
        sd_event_source *journal_source, *journal_timer, *flush_timer, *settle_timer, *routine_timer;
        sd_event_source *counter_sources[_RNG_SOURCE_MAX];

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

        bool reported;   /* reported at least once (kernel_watch_new() reports once) */
        bool no_journal; /* no journal file to follow (no journald): said in the status */
};

/* kernel-watch.c */
/* Reports the state's verdicts and status, and its counter snapshot. */
int watch_update_verdict(KernelWatch *w);
/* The counters for the next step (NULL: the kernel has none). */
const KernelCounters *watch_read_counters(KernelWatch *w);
/* Records what is due as events, then commits the state: 1 if it recorded
 * something, 0 if there was nothing to record. */
int watch_flush(KernelWatch *w);
int arm_timer(KernelWatch *w, sd_event_source **s, uint64_t when, sd_event_time_handler_t handler,
              const char *description);
int on_flush_timer(sd_event_source *s, uint64_t usec, void *userdata);
int on_settle_timer(sd_event_source *s, uint64_t usec, void *userdata);

/* kernel-watch-follow.c */
/* The journal's new entries (catching_up: all this boot logged before the
 * start, recorded in one flush). */
int watch_read_journal(KernelWatch *w, bool catching_up);
/* Whether the journal has no file to read; logs each change once. */
bool watch_check_journal(KernelWatch *w);
int watch_rearm_journal_timer(KernelWatch *w);
/* Kernels with the series: the exhausted counters' POLLPRI on the loop. */
int watch_poll_counters(KernelWatch *w);
/* After the last recorded message of this boot, or at its first. */
int watch_position(KernelWatch *w);
int on_journal_io(sd_event_source *s, int fd, uint32_t revents, void *userdata);
