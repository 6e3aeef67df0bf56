/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The kernel watch's inputs: this boot's kernel messages in the journal
 * (the fd on the event loop) and the kernel's exhausted counters (POLLPRI
 * on the sysfs files); each recorded at once or at the end of the window
 * of the previous recording (kernel-watch.h). */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "journal-files.h"
#include "kernel-watch-internal.h"
#include "kernel-watch-journal.h"
#include "log.h"
#include "macro.h"

/* Outside the window of the previous recording: opens a new one. */
static bool watch_window_open(KernelWatch *w, uint64_t now) {
        if (now < w->quiet_until)
                return false;
        w->quiet_until = now + w->flush_usec;
        return true;
}

/* One matching kernel message: aggregate, and record at once unless inside
 * the window of the previous recording. */
static int watch_add_message(KernelWatch *w, const KernelRngMsg *m, const char *text, size_t len,
                             uint64_t now, bool catching_up) {
        int r;

        r = kernel_watch_batch_add(&w->batch, m, text, len);
        if (r < 0)
                return r;
        if (catching_up)
                return 0;
        if (watch_window_open(w, now))
                return 1; /* record now */
        return arm_timer(w, &w->flush_timer, w->quiet_until, on_flush_timer, "kernel-watch-flush");
}

/* The kernel's exhausted counter grew (poll wake-up): record at once unless
 * inside the window of the previous recording. The log lines follow later
 * through the journal (journald batches its change notifications by up to
 * 250 ms) and are aggregated with it. */
static int watch_counter_activity(KernelWatch *w) {
        uint64_t now;
        int r;

        r = sd_event_now(w->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                return r;
        if (watch_window_open(w, now))
                r = watch_flush(w);
        else
                r = arm_timer(w, &w->flush_timer, w->quiet_until, on_flush_timer, "kernel-watch-flush");
        if (r < 0)
                return r;
        return arm_timer(w, &w->settle_timer, now + w->settle_usec, on_settle_timer, "kernel-watch-settle");
}

static int on_counter_io(sd_event_source *s, int fd, uint32_t revents, void *userdata) {
        char buf[32];

        /* Reading from offset 0 re-arms the sysfs file's poll. */
        (void) pread(fd, buf, sizeof(buf), 0);
        (void) watch_counter_activity(userdata);
        return 0;
}

/* Kernels with the series wake pollers of the exhausted counters (POLLPRI)
 * when they grow. Without the files this is a no-op: the journal alone. */
int watch_poll_counters(KernelWatch *w) {
        for (RngSourceId i = 0; i < _RNG_SOURCE_MAX; i++) {
                int fd, r;

                fd = kernel_counter_open_poll(w->sysfs_root, i);
                if (fd < 0)
                        return fd == -ENOENT ? 0 : fd;
                r = sd_event_add_io(w->event, &w->counter_sources[i], fd, EPOLLPRI, on_counter_io, w);
                if (r < 0) {
                        close(fd);
                        return r;
                }
                r = sd_event_source_set_io_fd_own(w->counter_sources[i], true);
                if (r < 0)
                        return r;
                (void) sd_event_source_set_description(w->counter_sources[i],
                                                       i == RNG_SOURCE_RDRAND ? "kernel-watch-rdrand-counter"
                                                                       : "kernel-watch-rdseed-counter");
        }
        return 0;
}

int watch_read_journal(KernelWatch *w, bool catching_up) {
        uint64_t now;
        bool record = false;
        int r;

        r = sd_event_now(w->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                return r;

        for (;;) {
                const char *text;
                size_t len;
                KernelRngMsg m;

                r = kernel_watch_journal_next(w->journal, &m, &text, &len);
                if (r < 0)
                        return r;
                if (r == 0)
                        break;
                free(w->read_cursor);
                w->read_cursor = NULL;
                r = sd_journal_get_cursor(w->journal, &w->read_cursor);
                if (r < 0)
                        return r;
                r = watch_add_message(w, &m, text, len, now, catching_up);
                if (r < 0)
                        return r;
                if (r > 0)
                        record = true;
        }

        if (record || catching_up) {
                r = watch_flush(w);
                if (r < 0)
                        return r;
        }
        if (record || (catching_up && w->state.serial > 0))
                return arm_timer(w, &w->settle_timer, now + w->settle_usec, on_settle_timer,
                                 "kernel-watch-settle");
        return 0;
}

static int on_journal_timer(sd_event_source *s, uint64_t usec, void *userdata);

/* sd_journal_get_timeout(): journals on file systems without inotify need
 * a wake-up; on /run and /var (tmpfs, ext4) it is "never". */
int watch_rearm_journal_timer(KernelWatch *w) {
        uint64_t t;
        int r;

        r = sd_journal_get_timeout(w->journal, &t);
        if (r < 0)
                return r;
        if (t == UINT64_MAX) {
                if (w->journal_timer)
                        return sd_event_source_set_enabled(w->journal_timer, SD_EVENT_OFF);
                return 0;
        }
        return arm_timer(w, &w->journal_timer, t, on_journal_timer, "kernel-watch-journal-timeout");
}

/* Whether the journal has no file to read (no systemd-journald, or none
 * yet): the watch would follow nothing. Logs each change once. */
bool watch_check_journal(KernelWatch *w) {
        uint64_t bytes = 0;
        bool none = sd_journal_get_usage(w->journal, &bytes) >= 0 && bytes == 0;

        if (none && !w->no_journal)
                log_warning("Kernel watch: %s: the kernel's RNG messages are not followed%s",
                            journal_files_check(NULL) == -EACCES ? JOURNAL_FILES_DENIED : JOURNAL_FILES_NONE,
                            w->counters.have ? ", only its counters" : "");
        else if (!none && w->no_journal)
                log_notice("Kernel watch: a journal appeared, following the kernel's RNG messages");
        if (none == w->no_journal)
                return false;
        w->no_journal = none;
        return true;
}

static int on_journal_change(KernelWatch *w) {
        int r;

        r = sd_journal_process(w->journal);
        if (r < 0)
                return r;
        if (w->no_journal && watch_check_journal(w))
                (void) watch_update_verdict(w);
        r = watch_read_journal(w, false);
        if (r < 0)
                log_error_errno(r, "Kernel watch: reading the journal failed: %m");
        return watch_rearm_journal_timer(w);
}

int on_journal_io(sd_event_source *s, int fd, uint32_t revents, void *userdata) {
        (void) on_journal_change(userdata);
        return 0;
}

static int on_journal_timer(sd_event_source *s, uint64_t usec, void *userdata) {
        (void) on_journal_change(userdata);
        return 0;
}

/* Position after the last recorded message of this boot, or at the boot's
 * first kernel message. */
int watch_position(KernelWatch *w) {
        int r;

        if (w->state.cursor) {
                r = kernel_watch_journal_seek_after(w->journal, w->state.cursor);
                if (r >= 0)
                        return 0;
                log_warning_errno(r, "Kernel watch: saved journal position is unusable (%m), re-reading this boot");
        }
        return sd_journal_seek_head(w->journal);
}
