/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The kernel watch's inputs: this boot's kernel messages in the journal
 * (the fd on the event loop) and the kernel's exhausted counters (POLLPRI
 * on the sysfs files), handed to the recorder, which records them at once
 * or at the end of the window of the previous recording (kernel-watch.h). */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "journal-files.h"
#include "kernel-watch-follow.h"
#include "kernel-watch-journal.h"
#include "log.h"
#include "macro.h"

static int on_counter_io(sd_event_source *s, int fd, uint32_t revents, void *userdata) {
        KernelWatchFollower *f = userdata;
        char buf[32];

        /* Reading from offset 0 re-arms the sysfs file's poll. */
        (void) pread(fd, buf, sizeof(buf), 0);
        (void) kernel_watch_record_counter_activity(f->recorder);
        return 0;
}

/* Kernels with the series wake pollers of the exhausted counters (POLLPRI)
 * when they grow. Without the files this is a no-op: the journal alone. */
static int poll_counters(KernelWatchFollower *f) {
        FOREACH_RNG_SOURCE(i) {
                char description[64];
                int fd, r;

                if (!rng_source_desc(i)->kernel.counters)
                        continue;
                fd = kernel_counter_open_poll(f->recorder->sysfs_root, i);
                if (fd < 0)
                        return fd == -ENOENT ? 0 : fd;
                r = sd_event_add_io(f->event, &f->counter_sources[i], fd, EPOLLPRI, on_counter_io, f);
                if (r < 0) {
                        close(fd);
                        return r;
                }
                r = sd_event_source_set_io_fd_own(f->counter_sources[i], true);
                if (r < 0)
                        return r;
                snprintf(description, sizeof(description), "kernel-watch-%s-counter", rng_source_name(i));
                (void) sd_event_source_set_description(f->counter_sources[i], description);
        }
        return 0;
}

/* The journal's new entries (catching_up: all this boot logged before the
 * start, recorded in one flush). */
static int read_journal(KernelWatchFollower *f, bool catching_up) {
        uint64_t now;
        bool record = false;
        int r;

        r = sd_event_now(f->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                return r;

        for (;;) {
                char *cursor = NULL;
                const char *text;
                size_t len;
                KernelRngMsg m;
                KernelBootLine line;
                uint64_t usec;

                r = kernel_watch_journal_next_any(f->journal, &m, &line, &usec, &text, &len);
                if (r < 0)
                        return r;
                if (r == 0)
                        break;
                if (r == 2) {
                        /* The CRNG's lines: counted, not aggregated. */
                        r = kernel_watch_record_boot_line(f->recorder, line, usec, catching_up);
                        if (r < 0)
                                return r;
                        continue;
                }
                r = sd_journal_get_cursor(f->journal, &cursor);
                kernel_watch_record_set_cursor(f->recorder, cursor);
                if (r < 0)
                        return r;
                r = kernel_watch_record_message(f->recorder, &m, text, len, now, catching_up);
                if (r < 0)
                        return r;
                if (r > 0)
                        record = true;
        }
        return kernel_watch_record_read_done(f->recorder, now, record, catching_up);
}

static int on_journal_timer(sd_event_source *s, uint64_t usec, void *userdata);

/* sd_journal_get_timeout(): journals on file systems without inotify need
 * a wake-up; on /run and /var (tmpfs, ext4) it is "never". */
int kernel_watch_follow_rearm_timer(KernelWatchFollower *f) {
        uint64_t t;
        int r;

        r = sd_journal_get_timeout(f->journal, &t);
        if (r < 0)
                return r;
        if (t == UINT64_MAX) {
                if (f->journal_timer)
                        return sd_event_source_set_enabled(f->journal_timer, SD_EVENT_OFF);
                return 0;
        }
        return kernel_watch_arm_timer(f->event, &f->journal_timer, t, on_journal_timer, f,
                                      "kernel-watch-journal-timeout");
}

/* Whether the journal has no file to read (no systemd-journald, or none
 * yet): the watch would follow nothing. Logs each change once. */
bool kernel_watch_follow_check(KernelWatchFollower *f) {
        const KernelWatchRecorder *rec = f->recorder;
        uint64_t bytes = 0;
        bool none = sd_journal_get_usage(f->journal, &bytes) >= 0 && bytes == 0;

        if (none && !rec->no_journal)
                log_warning("Kernel watch: %s: the kernel's RNG messages are not followed%s",
                            journal_files_check(NULL) == -EACCES ? JOURNAL_FILES_DENIED : JOURNAL_FILES_NONE,
                            rec->counters.have ? ", only its counters" : "");
        else if (!none && rec->no_journal)
                log_notice("Kernel watch: a journal appeared, following the kernel's RNG messages");
        if (none == rec->no_journal)
                return false;
        kernel_watch_record_set_no_journal(f->recorder, none);
        return true;
}

static int on_journal_change(KernelWatchFollower *f) {
        int r;

        r = sd_journal_process(f->journal);
        if (r < 0)
                return r;
        if (f->recorder->no_journal && kernel_watch_follow_check(f))
                (void) kernel_watch_record_report(f->recorder);
        r = read_journal(f, false);
        if (r < 0)
                log_error_errno(r, "Kernel watch: reading the journal failed: %m");
        return kernel_watch_follow_rearm_timer(f);
}

static int on_journal_io(sd_event_source *s, int fd, uint32_t revents, void *userdata) {
        (void) on_journal_change(userdata);
        return 0;
}

static int on_journal_timer(sd_event_source *s, uint64_t usec, void *userdata) {
        (void) on_journal_change(userdata);
        return 0;
}

/* Position after the last recorded message of this boot, or at the boot's
 * first kernel message. */
static int position(KernelWatchFollower *f) {
        const char *cursor = f->recorder->state.cursor;
        int r;

        if (cursor) {
                r = kernel_watch_journal_seek_after(f->journal, cursor);
                if (r >= 0)
                        return 0;
                log_warning_errno(r, "Kernel watch: saved journal position is unusable (%m), re-reading this boot");
        }
        return sd_journal_seek_head(f->journal);
}

int kernel_watch_follow_open(KernelWatchFollower *f, sd_event *e, KernelWatchRecorder *recorder) {
        *f = (KernelWatchFollower) { .event = sd_event_ref(e), .recorder = recorder };
        return kernel_watch_journal_open(&f->journal);
}

int kernel_watch_follow_start(KernelWatchFollower *f, sd_id128_t boot) {
        int r, fd, events;

        r = kernel_watch_journal_match_kernel(f->journal, boot);
        if (r < 0)
                return r;
        r = position(f);
        if (r < 0)
                return r;

        fd = sd_journal_get_fd(f->journal);
        if (fd < 0)
                return fd;
        events = sd_journal_get_events(f->journal);
        if (events < 0)
                return events;
        r = sd_event_add_io(f->event, &f->journal_source, fd, (uint32_t) events, on_journal_io, f);
        if (r < 0)
                return r;
        (void) sd_event_source_set_description(f->journal_source, "kernel-watch-journal");

        r = poll_counters(f);
        if (r < 0)
                log_warning_errno(r, "Kernel watch: cannot poll the kernel's counters: %m");

        /* Everything this boot logged before we started: one flush. */
        return read_journal(f, true);
}

void kernel_watch_follow_done(KernelWatchFollower *f) {
        sd_event_source_disable_unref(f->journal_source);
        sd_event_source_disable_unref(f->journal_timer);
        FOREACH_RNG_SOURCE(i)
                sd_event_source_disable_unref(f->counter_sources[i]);
        sd_journal_close(f->journal);
        sd_event_unref(f->event);
        *f = (KernelWatchFollower) {};
}
