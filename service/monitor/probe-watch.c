/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <syslog.h>

#include "journal-event.h"
#include "journal-kernel-log.h"
#include "macro.h"
#include "probe-sequence.h"
#include "probe-watch.h"
#include "status.h"

struct ProbeWatch {
        sd_event *event;
        VerdictSource *source; /* the Manager's; NULL once detached */
        const Config *config;
        char *sysfs_root;
        ProbeSourceHook hook; /* source NULL: the hardware */
        sd_event_source *timer;
        /* what the last unavailable events said, to send them only on change */
        bool unavailable_known[_RNG_SOURCE_MAX];
        bool unavailable_cpuid[_RNG_SOURCE_MAX];
        KernelStateKind unavailable_kernel[_RNG_SOURCE_MAX];
        int unavailable_error[_RNG_SOURCE_MAX];
        /* The CPU's identity, read once (for the errata): it does not change
         * while the daemon runs, and every probe would re-read /proc/cpuinfo. */
        bool have_cpu;
        CpuId cpu;
        /* This boot's kernel log on the seeds and the CRNG, kept once it is
         * settled (the CRNG ready): later probes need not read it again. */
        bool have_boot;
        KernelBootLog boot;
        bool cvm; /* judged as a confidential VM */
};

static void send_unavailable(ProbeWatch *w, const ProbeReport *report) {
        FOREACH_RNG_SOURCE(i) {
                const ProbeSourceResult *in = &report->instr[i];
                EventFields f = {};

                if (!in->selected)
                        continue;
                if (w->unavailable_known[i] && w->unavailable_cpuid[i] == in->cpuid &&
                    w->unavailable_kernel[i] == in->kernel.state && w->unavailable_error[i] == in->read_error)
                        continue;
                w->unavailable_known[i] = true;
                w->unavailable_cpuid[i] = in->cpuid;
                w->unavailable_kernel[i] = in->kernel.state;
                w->unavailable_error[i] = in->read_error;
                (void) event_emit(event_add_attribution(event_unavailable(&f, in), &f, report, i), &f, LOG_WARNING,
                                  "unavailable");
        }
}

static void send_results(const ProbeReport *report, const char *trigger) {
        FOREACH_RNG_SOURCE(i) {
                const ProbeSourceResult *in = &report->instr[i];
                EventFields f = {};

                if (!in->selected || in->n_runs == 0)
                        continue;
                (void) event_emit(event_probe_result(&f, report, i, trigger), &f, LOG_WARNING, "probe result");
                for (unsigned j = 0; j < in->n_runs; j++)
                        if (in->runs[j].health.failed) {
                                (void) event_emit(event_add_attribution(event_output_check(&f, i, &in->runs[j], trigger),
                                                                        &f, report, i),
                                                  &f, LOG_WARNING, "output check");
                        }
        }
}

/* Threads= asked for more CPUs than are usable. */
static void threads_capped(unsigned requested, unsigned usable, void *userdata) {
        log_warning("Threads=%u, but only %u CPU%s online and allowed: contention run uses all of them", requested,
                    usable, usable == 1 ? " is" : "s are");
}

/* The probe's stop hook (ProbeLimits.stop): SIGTERM or SIGINT pending.
 * Both are blocked in every thread (sd-event reads them from a signalfd
 * when the probe has returned), so a stop asked for during a probe waits
 * in the pending set, where any of the probe's threads sees it. */
static bool stop_signal_pending(void *userdata) {
        sigset_t pending;

        if (sigpending(&pending) < 0)
                return false;
        return sigismember(&pending, SIGTERM) == 1 || sigismember(&pending, SIGINT) == 1;
}

static int run_probe(const ProbeWatch *w, ProbeReport *report) {
        ProbeParams params = w->config->probe;

        if (w->hook.source) {
                params.source = w->hook.source;
                params.source_userdata = w->hook.userdata;
                params.cpuid = w->hook.cpuid;
        }
        params.sysfs_root = w->sysfs_root;
        params.confidential_vm = w->cvm;
        params.limits.stop = stop_signal_pending;
        return probe_sequence_run(&params,
                                  &(ProbeSequence) {
                                          .kernel = w->hook.kernel,
                                          .scan = journal_kernel_log_scan,
                                          .root = w->sysfs_root,
                                          .boot = w->have_boot ? &w->boot : NULL,
                                          .cpu = w->have_cpu ? &w->cpu : NULL,
                                          .threads_capped = threads_capped,
                                  },
                                  report);
}

void probe_watch_set_cvm(ProbeWatch *w, bool cvm) {
        w->cvm = cvm;
}

static int watch_run(ProbeWatch *w, const char *trigger) {
        _cleanup_free_ ProbeReport *report = NULL;
        _cleanup_free_ char *status = NULL;
        VerdictReport vr = { .trigger = trigger };
        int r;

        /* ~15 KiB: kept off the event loop's stack. */
        report = malloc(sizeof(*report));
        if (!report)
                return -ENOMEM;
        r = run_probe(w, report);
        if (r == -ECANCELED) {
                /* Said here, once: a stop is no failure. */
                log_info("%s probe stopped early: SIGTERM or SIGINT received; what it measured so far is "
                         "discarded (no verdict, no events, no metrics from it)", trigger);
                return r;
        }
        if (r < 0) {
                (void) probe_watch_arm(w);
                return r;
        }
        if (!w->have_boot && kernel_boot_log_settled(&report->boot)) {
                w->boot = report->boot;
                w->have_boot = true;
        }

        send_unavailable(w, report);
        send_results(report, trigger);

        /* Re-arm first: no early return below may stop periodic probing. */
        r = probe_watch_arm(w);
        if (r < 0)
                log_error_errno(r, "failed to arm the re-probe timer: %m");

        status = status_format_probe(report);
        if (!status)
                return -ENOMEM;
        /* The whole report goes to the listener, which may keep it. */
        FOREACH_RNG_SOURCE(i)
                vr.instr[i] = report->instr[i].verdict;
        vr.status = status;
        vr.probe = TAKE_PTR(report);
        r = verdict_source_report_full(w->source, &vr);
        free(vr.probe);
        return r;
}

/* Logs its error (once, here); the callers only act on it. */
int probe_watch_run(ProbeWatch *w, const char *trigger) {
        int r = watch_run(w, trigger);

        if (r < 0 && r != -ECANCELED)
                log_error_errno(r, "%s probe failed: %s", trigger, probe_error_to_string(r));
        return r;
}

static int on_timer(sd_event_source *s, uint64_t usec, void *userdata) {
        ProbeWatch *w = userdata;

        (void) probe_watch_run(w, "reprobe"); /* logged there; the next timer tries again */
        return 0;
}

int probe_watch_arm(ProbeWatch *w) {
        uint64_t interval = w->config->reprobe_usec;
        /* Let the kernel coalesce the wake-up: a tenth of the interval, at most a minute. */
        uint64_t accuracy = MIN(interval / 10, 60 * 1000000ull);
        int r;

        if (interval == 0)
                return w->timer ? sd_event_source_set_enabled(w->timer, SD_EVENT_OFF) : 0;
        if (!w->timer) {
                r = sd_event_add_time_relative(w->event, &w->timer, CLOCK_BOOTTIME, interval, accuracy, on_timer, w);
                if (r < 0)
                        return r;
                (void) sd_event_source_set_description(w->timer, "reprobe-timer");
                return 0;
        }
        r = sd_event_source_set_time_relative(w->timer, interval);
        if (r < 0)
                return r;
        r = sd_event_source_set_time_accuracy(w->timer, accuracy);
        if (r < 0)
                return r;
        return sd_event_source_set_enabled(w->timer, SD_EVENT_ONESHOT);
}

int probe_watch_new(sd_event *e, const Config *config, const char *sysfs_root, const ProbeSourceHook *hook,
                    VerdictSource *source, ProbeWatch **ret) {
        ProbeWatch *w;

        w = calloc(1, sizeof(*w));
        if (!w)
                return -ENOMEM;
        if (sysfs_root && !(w->sysfs_root = strdup(sysfs_root))) {
                free(w);
                return -ENOMEM;
        }
        *w = (ProbeWatch) {
                .hook = hook ? *hook : (ProbeSourceHook) {},
                .sysfs_root = w->sysfs_root,
                .event = sd_event_ref(e),
                .source = source,
                .config = config,
        };
        w->have_cpu = cpu_id_read(NULL, &w->cpu) >= 0;
        *ret = w;
        return 0;
}

ProbeWatch *probe_watch_free(ProbeWatch *w) {
        if (!w)
                return NULL;
        (void) verdict_source_detach(&w->source);
        sd_event_source_disable_unref(w->timer);
        sd_event_unref(w->event);
        free(w->sysfs_root);
        free(w);
        return NULL;
}
