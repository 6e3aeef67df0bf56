/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The kernel watch: its recorder (kernel-watch-record.c: the batch, the
 * flush and its timers, the verdict) and its follower
 * (kernel-watch-follow.c: the journal and the counters), set up in order,
 * and the API of kernel-watch.h. The follower hands its inputs to the
 * recorder; the recorder knows nothing of the follower. */

#include <errno.h>
#include <stdlib.h>

#include <systemd/sd-id128.h>

#include "journal-ids.h"
#include "kernel-watch-follow.h"
#include "kernel-watch-journal.h"
#include "kernel-watch-record.h"
#include "macro.h"

struct KernelWatch {
        KernelWatchRecorder recorder;
        KernelWatchFollower follower; /* hands its inputs to recorder */
};

/* This boot's CRNG lines so far, whatever the state's position: the forks
 * and the readiness (exact matches: the journal's index finds them), and
 * the forks the daemon's own events recorded already. A journal that
 * cannot be read for them counts none. */
static void boot_start(KernelWatch *w, sd_id128_t boot) {
        sd_journal *j = w->follower.journal;
        uint64_t forks = 0, last = 0, ready_n = 0, ready_usec = 0, recorded = 0;

        if (kernel_watch_journal_count_line(j, boot, KERNEL_BOOT_VM_FORK_LINE, &forks, &last) < 0)
                forks = last = 0;
        if (kernel_watch_journal_count_line(j, boot, KERNEL_BOOT_CRNG_READY_LINE, &ready_n, &ready_usec) < 0)
                ready_n = 0;
        if (kernel_watch_journal_own_last(j, boot, RNG_MID_VM_FORK_STR, "RNG_COUNT", &recorded) <= 0)
                recorded = 0;
        kernel_watch_record_boot_start(&w->recorder, forks, last, recorded, ready_n > 0, ready_usec);
}

int kernel_watch_new(sd_event *e, const KernelWatchParams *p, VerdictSource *source, KernelWatch **ret) {
        _cleanup_(kernel_watch_freep) KernelWatch *w = NULL;
        const KernelCounters *counters;
        sd_id128_t boot;
        int r;

        if (!e || !p || !ret)
                return -EINVAL;

        w = calloc(1, sizeof(*w));
        if (!w)
                return -ENOMEM;
        r = kernel_watch_record_init(&w->recorder, e, p, source);
        if (r < 0)
                return r;

        r = sd_id128_get_boot(&boot);
        if (r < 0)
                return r;
        r = kernel_watch_follow_open(&w->follower, e, &w->recorder);
        if (r < 0)
                return r;
        counters = kernel_watch_record_read_counters(&w->recorder);
        (void) kernel_watch_follow_check(&w->follower);
        {
                KernelWatchJournalLookup lookup = { .journal = w->follower.journal, .boot = boot };

                /* The state is checked against what it summarises: the
                 * counters, and this boot's kernel messages. */
                r = kernel_watch_state_restore(w->recorder.state_dir, boot,
                                               &(KernelWatchStateCheck) {
                                                       .counters = counters,
                                                       .no_counters = w->recorder.counters.absent,
                                                       .count_messages = kernel_watch_journal_count_messages,
                                                       .userdata = &lookup,
                                               },
                                               kernel_watch_journal_has_serial, &lookup, &w->recorder.state);
        }
        if (r < 0)
                return r;
        boot_start(w, boot);

        /* From after the restored state's position; what this boot logged
         * before is recorded in one flush, which reports. */
        r = kernel_watch_follow_start(&w->follower, boot);
        if (r < 0)
                return r;
        if (!w->recorder.reported) {
                r = kernel_watch_record_report(&w->recorder);
                if (r < 0)
                        return r;
        }
        r = kernel_watch_follow_rearm_timer(&w->follower);
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
        (void) verdict_source_detach(&w->recorder.source);
        if (w->recorder.batch.pending && w->follower.journal)
                (void) kernel_watch_record_flush(&w->recorder);
        kernel_watch_follow_done(&w->follower);
        kernel_watch_record_done(&w->recorder);
        free(w);
        return NULL;
}

int kernel_watch_set_routine_interval(KernelWatch *w, uint64_t usec) {
        if (!w)
                return 0;
        return kernel_watch_record_set_routine_interval(&w->recorder, usec);
}

void kernel_watch_add_own_load(KernelWatch *w, RngSourceId i, uint64_t count) {
        if (!w)
                return;
        kernel_watch_record_add_own_load(&w->recorder, i, count);
}
