/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The kernel watch's I/O: follows the journal (sd-journal), polls the
 * kernel's counters (sd-event io on the sysfs files), runs the window and
 * settle timers and sends the events. What to send and the state to keep
 * come from the pure accounting step (kernel-watch-account.h); the state
 * file from kernel-watch-state.h. */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <syslog.h>
#include <unistd.h>

#include <systemd/sd-id128.h>
#include <systemd/sd-journal.h>

#include "kernel-watch-account.h"
#include "kernel-watch-journal.h"
#include "kernel-watch-state.h"
#include "kernel-watch.h"
#include "log.h"
#include "macro.h"

struct KernelWatch {
        sd_event *event;
        sd_journal *journal;
        sd_event_source *journal_source, *journal_timer, *flush_timer, *settle_timer, *routine_timer;
        sd_event_source *counter_sources[_RNG_INSTRUCTION_MAX];

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
        uint64_t own_pending[_RNG_INSTRUCTION_MAX]; /* own probe's exhaustions not yet recorded */

        bool reported;   /* reported at least once (kernel_watch_new() reports once) */
        bool no_journal; /* no journal file to follow (no journald): said in the status */
};

/* --- verdict and status -------------------------------------------------------- */

/* Reports the state's verdicts and status, and the counter snapshot the
 * state was accounted with (the Manager's metrics show it: one read, one
 * rule on a failed read, kernel_watch_counters_update()). */
static int watch_update_verdict(KernelWatch *w) {
        _cleanup_free_ char *status = NULL;
        VerdictReport report = {
                .trigger = "kernel",
                .counters = w->counters.have ? &w->counters.snapshot : NULL,
        };
        int r;

        r = kernel_watch_state_verdict(&w->state, w->counters.have, report.instr, &status);
        if (r < 0)
                return r;
        if (w->no_journal) {
                char *s;

                /* The counters (if any) are still watched: say what is not. */
                r = asprintf(&s, "%s; no journal: kernel messages not followed", status);
                if (r < 0)
                        return -ENOMEM;
                free(status);
                status = s;
        }
        report.status = status;
        w->reported = true;
        return verdict_source_report_full(w->source, &report);
}

/* --- recording ------------------------------------------------------------------ */

/* The counters for the next step (NULL: the kernel has none); a failed read
 * on a kernel that has them keeps the last snapshot, logged once. */
static const KernelCounters *watch_read_counters(KernelWatch *w) {
        KernelCounters c;
        bool was_stale = w->counters.stale;
        const KernelCounters *ret;
        int r;

        r = kernel_counters_read(w->sysfs_root, &c);
        ret = kernel_watch_counters_update(&w->counters, r, &c);
        if (w->counters.stale && !was_stale)
                log_warning_errno(r, "Kernel watch: cannot read the kernel's RNG counters (%m): "
                                  "counting from the last values until they can be read");
        else if (was_stale && !w->counters.stale)
                log_notice("Kernel watch: the kernel's RNG counters can be read again");
        return ret;
}

/* Records every bucket with messages, and failures the counters show beyond
 * what was reported, as events; then commits the state. Returns 1 if it
 * recorded something, 0 if there was nothing to record. */
static int on_routine_timer(sd_event_source *s, uint64_t usec, void *userdata);
static int arm_timer(KernelWatch *w, sd_event_source **s, uint64_t when,
                     sd_event_time_handler_t handler, const char *description);

static int watch_flush(KernelWatch *w) {
        _cleanup_(kernel_watch_step_done) KernelWatchStep step = {};
        KernelWatchAccountParams params = { .own_pending = w->own_pending };
        bool deferred = false;
        uint64_t now;
        int r;

        r = sd_event_now(w->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                return r;
        params.defer_routine = now < w->routine_until;
        params.routine_interval_usec = w->routine_last ? now - w->routine_last : 0;
        r = kernel_watch_account(&w->state, watch_read_counters(w), &w->batch,
                                 w->read_cursor, &params, &step);
        if (r < 0)
                return r;
        for (RngInstruction i = 0; i < _RNG_INSTRUCTION_MAX; i++)
                deferred = deferred || step.deferred[i];
        /* Held back: recorded when the interval ends (the timer is armed
         * only while something waits, so an idle watch sleeps). */
        if (deferred) {
                int k = arm_timer(w, &w->routine_timer, w->routine_until, on_routine_timer, "kernel-watch-routine");
                if (k < 0)
                        return k;
        }
        if (r == 0) {
                kernel_watch_batch_clear_but(&w->batch, step.deferred);
                return 0;
        }
        if (step.routine_recorded) {
                w->routine_last = now;
                w->routine_until = now + w->routine_usec;
        }
        for (RngInstruction i = 0; i < _RNG_INSTRUCTION_MAX; i++)
                w->own_pending[i] -= step.own_used[i];

        /* .new before the events, committed after: see kernel-watch.h. */
        kernel_watch_state_save_begin(w->state_dir, &step.next);
        for (size_t k = 0; k < step.n_events; k++) {
                EventFields f = {};

                (void) event_emit(event_kernel(&f, &step.events[k]), &f, LOG_ERR, "kernel watch");
        }
        kernel_watch_state_save_end(w->state_dir);

        /* The next state moves into w (the step keeps nothing); it holds its
         * own copy of the cursor, so the consumed one is released. */
        kernel_watch_state_done(&w->state);
        w->state = step.next;
        step.next = (KernelWatchState) {};
        free(w->read_cursor);
        w->read_cursor = NULL;
        kernel_watch_batch_clear_but(&w->batch, step.deferred);
        r = watch_update_verdict(w);
        return r < 0 ? r : 1;
}

/* A recording from a timer opens a new window too, so that a steady flood
 * is written at most once per window. */
static int flush_from_timer(KernelWatch *w, uint64_t now) {
        if (watch_flush(w) > 0)
                w->quiet_until = now + w->flush_usec;
        return 0;
}

static int on_flush_timer(sd_event_source *s, uint64_t usec, void *userdata) {
        return flush_from_timer(userdata, usec);
}

static int on_settle_timer(sd_event_source *s, uint64_t usec, void *userdata) {
        /* Failures the kernel counted after its last printed line. */
        return flush_from_timer(userdata, usec);
}

static int on_routine_timer(sd_event_source *s, uint64_t usec, void *userdata) {
        /* The routine failures held back over the interval, in one record. */
        (void) watch_flush(userdata);
        return 0;
}

static int arm_timer(KernelWatch *w, sd_event_source **s, uint64_t when,
                     sd_event_time_handler_t handler, const char *description) {
        int r;

        if (*s) {
                r = sd_event_source_set_time(*s, when);
                if (r < 0)
                        return r;
                return sd_event_source_set_enabled(*s, SD_EVENT_ONESHOT);
        }
        r = sd_event_add_time(w->event, s, CLOCK_MONOTONIC, when, 10000, handler, w);
        if (r < 0)
                return r;
        (void) sd_event_source_set_description(*s, description);
        return 0;
}

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
static int watch_poll_counters(KernelWatch *w) {
        for (RngInstruction i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
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
                                                       i == RNG_RDRAND ? "kernel-watch-rdrand-counter"
                                                                       : "kernel-watch-rdseed-counter");
        }
        return 0;
}

static int watch_read_journal(KernelWatch *w, bool catching_up) {
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
static int watch_rearm_journal_timer(KernelWatch *w) {
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
static bool watch_check_journal(KernelWatch *w) {
        uint64_t bytes = 0;
        bool none = sd_journal_get_usage(w->journal, &bytes) >= 0 && bytes == 0;

        if (none && !w->no_journal)
                log_warning("Kernel watch: no journal files in /run/log/journal or /var/log/journal "
                         "(is systemd-journald running?): the kernel's RNG messages are not followed%s",
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

static int on_journal_io(sd_event_source *s, int fd, uint32_t revents, void *userdata) {
        (void) on_journal_change(userdata);
        return 0;
}

static int on_journal_timer(sd_event_source *s, uint64_t usec, void *userdata) {
        (void) on_journal_change(userdata);
        return 0;
}

/* --- setup ------------------------------------------------------------------------ */

/* Position after the last recorded message of this boot, or at the boot's
 * first kernel message. */
static int watch_position(KernelWatch *w) {
        int r;

        if (w->state.cursor) {
                r = kernel_watch_journal_seek_after(w->journal, w->state.cursor);
                if (r >= 0)
                        return 0;
                log_warning_errno(r, "Kernel watch: saved journal position is unusable (%m), re-reading this boot");
        }
        return sd_journal_seek_head(w->journal);
}

int kernel_watch_new(sd_event *e, const KernelWatchParams *p, VerdictSource *source, KernelWatch **ret) {
        _cleanup_(kernel_watch_freep) KernelWatch *w = NULL;
        const KernelCounters *counters;
        sd_id128_t boot;
        int r, fd, events;

        if (!e || !p || !ret)
                return -EINVAL;

        w = calloc(1, sizeof(*w));
        if (!w)
                return -ENOMEM;
        w->event = sd_event_ref(e);
        w->source = source;
        w->flush_usec = p->flush_usec;
        w->settle_usec = p->settle_usec;
        w->routine_usec = p->routine_usec;
        memcpy(w->own_pending, p->own_load, sizeof(w->own_pending));
        if ((p->state_dir && !(w->state_dir = strdup(p->state_dir))) ||
            (p->sysfs_root && !(w->sysfs_root = strdup(p->sysfs_root))))
                return -ENOMEM;

        r = sd_id128_get_boot(&boot);
        if (r < 0)
                return r;
        r = kernel_watch_journal_open(&w->journal);
        if (r < 0)
                return r;
        counters = watch_read_counters(w);
        (void) watch_check_journal(w);
        r = kernel_watch_state_restore(w->state_dir, boot, counters, kernel_watch_journal_has_serial,
                                       &(KernelWatchJournalLookup) { .journal = w->journal, .boot = boot }, &w->state);
        if (r < 0)
                return r;

        r = kernel_watch_journal_match_kernel(w->journal, boot);
        if (r < 0)
                return r;
        r = watch_position(w);
        if (r < 0)
                return r;

        fd = sd_journal_get_fd(w->journal);
        if (fd < 0)
                return fd;
        events = sd_journal_get_events(w->journal);
        if (events < 0)
                return events;
        r = sd_event_add_io(e, &w->journal_source, fd, (uint32_t) events, on_journal_io, w);
        if (r < 0)
                return r;
        (void) sd_event_source_set_description(w->journal_source, "kernel-watch-journal");

        r = watch_poll_counters(w);
        if (r < 0)
                log_warning_errno(r, "Kernel watch: cannot poll the kernel's counters: %m");

        /* Everything this boot logged before we started: one flush. */
        r = watch_read_journal(w, true);
        if (r < 0)
                return r;
        if (!w->reported) {
                r = watch_update_verdict(w);
                if (r < 0)
                        return r;
        }
        r = watch_rearm_journal_timer(w);
        if (r < 0)
                return r;

        *ret = TAKE_PTR(w);
        return 0;

}

KernelWatch *kernel_watch_free(KernelWatch *w) {
        if (!w)
                return NULL;
        /* Flush what is pending into the journal, but report nothing: the
         * Manager may be going away. */
        (void) verdict_source_detach(&w->source);
        if (w->batch.pending && w->journal)
                (void) watch_flush(w);
        sd_event_source_disable_unref(w->journal_source);
        sd_event_source_disable_unref(w->journal_timer);
        sd_event_source_disable_unref(w->flush_timer);
        sd_event_source_disable_unref(w->settle_timer);
        sd_event_source_disable_unref(w->routine_timer);
        for (RngInstruction i = 0; i < _RNG_INSTRUCTION_MAX; i++)
                sd_event_source_disable_unref(w->counter_sources[i]);
        sd_journal_close(w->journal);
        sd_event_unref(w->event);
        kernel_watch_batch_clear(&w->batch);
        free(w->read_cursor);
        kernel_watch_state_done(&w->state);
        free(w->state_dir);
        free(w->sysfs_root);
        free(w);
        return NULL;
}

int kernel_watch_set_routine_interval(KernelWatch *w, uint64_t usec) {
        uint64_t now;
        int r;

        if (!w)
                return 0;
        w->routine_usec = usec;
        w->routine_until = w->routine_last ? w->routine_last + usec : 0;
        r = sd_event_now(w->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                return r;
        if (now < w->routine_until)
                return w->routine_timer ? sd_event_source_set_time(w->routine_timer, w->routine_until) : 0;
        r = watch_flush(w);
        return r < 0 ? r : 0;
}

void kernel_watch_add_own_load(KernelWatch *w, RngInstruction i, uint64_t count) {
        if (!w || (unsigned) i >= _RNG_INSTRUCTION_MAX)
                return;
        w->own_pending[i] = count > UINT64_MAX - w->own_pending[i] ? UINT64_MAX : w->own_pending[i] + count;
}

