/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The kernel watch's recording: the flush that sends the events, the
 * window, settle and routine timers, the verdict it reports, and its
 * set-up; the inputs are followed in kernel-watch-follow.c. What to send
 * and the state to keep come from the pure accounting step
 * (kernel-watch-account.h); the state file from kernel-watch-state.h. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <systemd/sd-id128.h>
#include <systemd/sd-journal.h>

#include "kernel-watch-internal.h"
#include "kernel-watch-journal.h"
#include "log.h"
#include "macro.h"


/* --- verdict and status -------------------------------------------------------- */

/* Reports the state's verdicts and status, and the counter snapshot the
 * state was accounted with (the Manager's metrics show it: one read, one
 * rule on a failed read, kernel_watch_counters_update()). Routine failures
 * held back for the interval's record count too: the status and the
 * metrics say what the kernel's counter says, when the journal has not
 * caught up yet. */
int watch_update_verdict(KernelWatch *w) {
        _cleanup_free_ char *status = NULL;
        VerdictReport report = {
                .trigger = "kernel",
                .counters = w->counters.have ? &w->counters.snapshot : NULL,
        };
        uint64_t held[_RNG_SOURCE_MAX];
        int r;

        for (RngSourceId i = 0; i < _RNG_SOURCE_MAX; i++)
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

/* --- recording ------------------------------------------------------------------ */

/* The counters for the next step (NULL: the kernel has none); a failed read
 * on a kernel that has them keeps the last snapshot, logged once. */
const KernelCounters *watch_read_counters(KernelWatch *w) {
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

int watch_flush(KernelWatch *w) {
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
        for (RngSourceId i = 0; i < _RNG_SOURCE_MAX; i++)
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
                /* The status and the metrics count what is held back. */
                return deferred ? watch_update_verdict(w) : 0;
        }
        if (step.routine_recorded) {
                w->routine_last = now;
                w->routine_until = now + w->routine_usec;
        }
        for (RngSourceId i = 0; i < _RNG_SOURCE_MAX; i++)
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

int on_flush_timer(sd_event_source *s, uint64_t usec, void *userdata) {
        return flush_from_timer(userdata, usec);
}

int on_settle_timer(sd_event_source *s, uint64_t usec, void *userdata) {
        /* Failures the kernel counted after its last printed line. */
        return flush_from_timer(userdata, usec);
}

static int on_routine_timer(sd_event_source *s, uint64_t usec, void *userdata) {
        /* The routine failures held back over the interval, in one record. */
        (void) watch_flush(userdata);
        return 0;
}

int arm_timer(KernelWatch *w, sd_event_source **s, uint64_t when, sd_event_time_handler_t handler,
              const char *description) {
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

/* --- setup ------------------------------------------------------------------------ */

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
        {
                KernelWatchJournalLookup lookup = { .journal = w->journal, .boot = boot };

                /* The state is checked against what it summarises: the
                 * counters, and this boot's kernel messages. */
                r = kernel_watch_state_restore(w->state_dir, boot,
                                               &(KernelWatchStateCheck) {
                                                       .counters = counters,
                                                       .no_counters = w->counters.absent,
                                                       .count_messages = kernel_watch_journal_count_messages,
                                                       .userdata = &lookup,
                                               },
                                               kernel_watch_journal_has_serial, &lookup, &w->state);
        }
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
        for (RngSourceId i = 0; i < _RNG_SOURCE_MAX; i++)
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

void kernel_watch_add_own_load(KernelWatch *w, RngSourceId i, uint64_t count) {
        if (!w || (unsigned) i >= _RNG_SOURCE_MAX)
                return;
        w->own_pending[i] = count > UINT64_MAX - w->own_pending[i] ? UINT64_MAX : w->own_pending[i] + count;
}

