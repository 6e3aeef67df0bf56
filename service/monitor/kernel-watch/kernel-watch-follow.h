/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The kernel watch's inputs (kernel-watch.h): this boot's kernel messages
 * in the journal (its fd on the event loop) and the kernel's exhausted
 * counters (POLLPRI on the sysfs files). Each message and each counter
 * wake-up goes to the recorder (kernel-watch-record.h), which decides when
 * to record. */

#include <stdbool.h>

#include <systemd/sd-event.h>
#include <systemd/sd-id128.h>
#include <systemd/sd-journal.h>

#include "kernel-watch-record.h"

typedef struct KernelWatchFollower {
        sd_event *event;
        sd_journal *journal;
        sd_event_source *journal_source, *journal_timer;
        sd_event_source *counter_sources[_RNG_SOURCE_MAX];
        KernelWatchRecorder *recorder; /* where the inputs go; outlives the follower */
} KernelWatchFollower;

/* Opens the journal (kernel_watch_journal_open()); the follower reports to
 * recorder. Whether it has files to follow: kernel_watch_follow_check(). */
int kernel_watch_follow_open(KernelWatchFollower *f, sd_event *e, KernelWatchRecorder *recorder);
/* Follows this boot's kernel messages from after the recorder's state's
 * cursor (or the boot's first), on the event loop, and the counters where
 * the kernel has them; everything this boot logged before is recorded in
 * one flush. */
int kernel_watch_follow_start(KernelWatchFollower *f, sd_id128_t boot);
/* Arms the journal's wake-up for file systems without inotify. */
int kernel_watch_follow_rearm_timer(KernelWatchFollower *f);
/* Whether the journal has no file to read; logs each change once and
 * tells the recorder. Returns whether it changed. */
bool kernel_watch_follow_check(KernelWatchFollower *f);
void kernel_watch_follow_done(KernelWatchFollower *f);
