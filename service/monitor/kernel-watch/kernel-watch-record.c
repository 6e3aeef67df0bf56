/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The kernel watch's recording: the batch and its windows, the flush that
 * sends the events, the window, settle and routine timers, and the verdict
 * it reports. What to send and the state to keep come from the pure
 * accounting step (kernel-watch-account.h); the state file from
 * kernel-watch-state.h. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "kernel-watch-record.h"
#include "log.h"
#include "macro.h"

int kernel_watch_arm_timer(sd_event *e, sd_event_source **s, uint64_t when, sd_event_time_handler_t handler,
                           void *userdata, const char *description) {
        int r;

        if (*s) {
                r = sd_event_source_set_time(*s, when);
                if (r < 0)
                        return r;
                return sd_event_source_set_enabled(*s, SD_EVENT_ONESHOT);
        }
        r = sd_event_add_time(e, s, CLOCK_MONOTONIC, when, 10000, handler, userdata);
        if (r < 0)
                return r;
        (void) sd_event_source_set_description(*s, description);
        return 0;
}

/* --- verdict and status -------------------------------------------------------- */

/* Reports the state's verdicts and status, and the counter snapshot the
 * state was accounted with (the Manager's metrics show it: one read, one
 * rule on a failed read, kernel_watch_counters_update()). Routine failures
 * held back for the interval's record count too: the status and the
 * metrics say what the kernel's counter says, when the journal has not
 * caught up yet. */
int kernel_watch_record_report(KernelWatchRecorder *w) {
        _cleanup_free_ char *status = NULL;
        VerdictReport report = {
                .trigger = "kernel",
                .counters = w->counters.have ? &w->counters.snapshot : NULL,
                .boot = &w->crng,
        };
        uint64_t held[_RNG_SOURCE_MAX];
        int r;

        FOREACH_RNG_SOURCE(i)
                held[i] = kernel_watch_growth(&w->state, report.counters, w->own_pending, i, NULL);
        /* Without a journal the counters (if any) are still watched: the
         * status says what is not. */
        r = kernel_watch_state_verdict_full(&w->state, w->counters.have, held, w->no_journal, report.instr, &status);
        if (r < 0)
                return r;
        report.status = status;
        w->reported = true;
        return verdict_source_report_full(w->source, &report);
}

static void send_vm_fork(KernelWatchRecorder *w, uint64_t fresh) {
        EventFields f = {};

        (void) event_emit(event_vm_fork(&f, w->crng.vm_forks, fresh, w->crng.last_vm_fork_usec), &f, LOG_ERR,
                          "VM fork");
}

int kernel_watch_record_boot_line(KernelWatchRecorder *w, KernelBootLine line, uint64_t usec, bool catching_up) {
        switch (line) {
        case KERNEL_BOOT_LINE_CRNG_READY:
                if (w->crng.crng_ready)
                        return 0;
                w->crng.read = w->crng.crng_ready = true;
                w->crng.crng_ready_usec = usec;
                break;
        case KERNEL_BOOT_LINE_VM_FORK:
                if (w->crng.vm_forks > 0 && usec <= w->crng.last_vm_fork_usec)
                        return 0; /* counted at the start */
                w->crng.read = true;
                w->crng.vm_forks++;
                w->crng.last_vm_fork_usec = usec;
                if (!catching_up)
                        send_vm_fork(w, 1);
                break;
        default:
                return 0;
        }
        return w->reported ? kernel_watch_record_report(w) : 0;
}

void kernel_watch_record_boot_start(KernelWatchRecorder *w, uint64_t forks, uint64_t last_fork_usec,
                                    uint64_t recorded_forks, bool ready, uint64_t ready_usec) {
        /* Known only from a line: a journal without the kernel's (a
         * container's) says nothing of the CRNG. */
        w->crng = (KernelBootLog) {
                .read = ready || forks > 0,
                .crng_ready = ready,
                .crng_ready_usec = ready_usec,
                .vm_forks = forks,
                .last_vm_fork_usec = last_fork_usec,
        };
        if (forks > recorded_forks)
                send_vm_fork(w, forks - recorded_forks);
}

void kernel_watch_record_set_no_journal(KernelWatchRecorder *w, bool no_journal) {
        w->no_journal = no_journal;
}

/* --- recording ------------------------------------------------------------------ */

/* The counters for the next step (NULL: the kernel has none); a failed read
 * on a kernel that has them keeps the last snapshot, logged once. */
const KernelCounters *kernel_watch_record_read_counters(KernelWatchRecorder *w) {
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

static int on_routine_timer(sd_event_source *s, uint64_t usec, void *userdata);

/* Records every bucket with messages, and failures the counters show beyond
 * what was reported, as events; then commits the state. Returns 1 if it
 * recorded something, 0 if there was nothing to record. */
int kernel_watch_record_flush(KernelWatchRecorder *w) {
        _cleanup_(kernel_watch_step_done) KernelWatchStep step = {};
        KernelWatchAccountParams params = { .own_pending = w->own_pending };
        const KernelCounters *counters;
        bool deferred = false;
        uint64_t now;
        int r;

        r = sd_event_now(w->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                return r;
        params.defer_routine = now < w->routine_until;
        params.routine_interval_usec = w->routine_last ? now - w->routine_last : 0;
        counters = kernel_watch_record_read_counters(w);
        params.counters_unread = kernel_watch_counters_unread(&w->counters);
        r = kernel_watch_account(&w->state, counters, &w->batch, w->read_cursor, &params, &step);
        if (r < 0)
                return r;
        FOREACH_RNG_SOURCE(i)
                deferred = deferred || step.deferred[i];
        /* Held back: recorded when the interval ends (the timer is armed
         * only while something waits, so an idle watch sleeps). */
        if (deferred) {
                int k = kernel_watch_arm_timer(w->event, &w->routine_timer, w->routine_until, on_routine_timer, w,
                                               "kernel-watch-routine");
                if (k < 0)
                        return k;
        }
        if (r == 0) {
                kernel_watch_batch_clear_but(&w->batch, step.deferred);
                /* The status and the metrics count what is held back. */
                return deferred ? kernel_watch_record_report(w) : 0;
        }
        if (step.routine_recorded) {
                w->routine_last = now;
                w->routine_until = now + w->routine_usec;
        }
        FOREACH_RNG_SOURCE(i)
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
        r = kernel_watch_record_report(w);
        return r < 0 ? r : 1;
}

/* A recording from a timer opens a new window too, so that a steady flood
 * is written at most once per window. */
static int flush_from_timer(KernelWatchRecorder *w, uint64_t now) {
        if (kernel_watch_record_flush(w) > 0)
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
        (void) kernel_watch_record_flush(userdata);
        return 0;
}

static int arm_flush_timer(KernelWatchRecorder *w) {
        return kernel_watch_arm_timer(w->event, &w->flush_timer, w->quiet_until, on_flush_timer, w, "kernel-watch-flush");
}

static int arm_settle_timer(KernelWatchRecorder *w, uint64_t now) {
        return kernel_watch_arm_timer(w->event, &w->settle_timer, now + w->settle_usec, on_settle_timer, w,
                                      "kernel-watch-settle");
}

/* Outside the window of the previous recording: opens a new one. */
static bool window_open(KernelWatchRecorder *w, uint64_t now) {
        if (now < w->quiet_until)
                return false;
        w->quiet_until = now + w->flush_usec;
        return true;
}

void kernel_watch_record_set_cursor(KernelWatchRecorder *w, char *cursor) {
        free(w->read_cursor);
        w->read_cursor = cursor;
}

/* One matching kernel message: aggregate, and record at once unless inside
 * the window of the previous recording. */
int kernel_watch_record_message(KernelWatchRecorder *w, const KernelRngMsg *m, const char *text, size_t len,
                                uint64_t now, bool catching_up) {
        int r;

        r = kernel_watch_batch_add(&w->batch, m, text, len);
        if (r < 0)
                return r;
        if (catching_up)
                return 0;
        if (window_open(w, now))
                return 1; /* record now */
        return arm_flush_timer(w);
}

int kernel_watch_record_read_done(KernelWatchRecorder *w, uint64_t now, bool record, bool catching_up) {
        int r;

        if (record || catching_up) {
                r = kernel_watch_record_flush(w);
                if (r < 0)
                        return r;
        }
        if (record || (catching_up && w->state.serial > 0))
                return arm_settle_timer(w, now);
        return 0;
}

/* The log lines follow later through the journal (journald batches its
 * change notifications by up to 250 ms) and are aggregated with it. */
int kernel_watch_record_counter_activity(KernelWatchRecorder *w) {
        uint64_t now;
        int r;

        r = sd_event_now(w->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                return r;
        if (window_open(w, now))
                r = kernel_watch_record_flush(w);
        else
                r = arm_flush_timer(w);
        if (r < 0)
                return r;
        return arm_settle_timer(w, now);
}

/* --- setup ------------------------------------------------------------------------ */

int kernel_watch_record_init(KernelWatchRecorder *w, sd_event *e, const KernelWatchParams *p, VerdictSource *source) {
        *w = (KernelWatchRecorder) {
                .event = sd_event_ref(e),
                .source = source,
                .flush_usec = p->flush_usec,
                .settle_usec = p->settle_usec,
                .routine_usec = p->routine_usec,
        };
        memcpy(w->own_pending, p->own_load, sizeof(w->own_pending));
        if ((p->state_dir && !(w->state_dir = strdup(p->state_dir))) ||
            (p->sysfs_root && !(w->sysfs_root = strdup(p->sysfs_root))))
                return -ENOMEM;
        return 0;
}

void kernel_watch_record_done(KernelWatchRecorder *w) {
        sd_event_source_disable_unref(w->flush_timer);
        sd_event_source_disable_unref(w->settle_timer);
        sd_event_source_disable_unref(w->routine_timer);
        sd_event_unref(w->event);
        kernel_watch_batch_clear(&w->batch);
        free(w->read_cursor);
        kernel_watch_state_done(&w->state);
        free(w->state_dir);
        free(w->sysfs_root);
        *w = (KernelWatchRecorder) {};
}

int kernel_watch_record_set_routine_interval(KernelWatchRecorder *w, uint64_t usec) {
        uint64_t now;
        int r;

        w->routine_usec = usec;
        w->routine_until = w->routine_last ? w->routine_last + usec : 0;
        r = sd_event_now(w->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                return r;
        if (now < w->routine_until)
                return w->routine_timer ? sd_event_source_set_time(w->routine_timer, w->routine_until) : 0;
        r = kernel_watch_record_flush(w);
        return r < 0 ? r : 0;
}

void kernel_watch_record_add_own_load(KernelWatchRecorder *w, RngSourceId i, uint64_t count) {
        if ((unsigned) i >= _RNG_SOURCE_MAX)
                return;
        w->own_pending[i] = count > UINT64_MAX - w->own_pending[i] ? UINT64_MAX : w->own_pending[i] + count;
}
