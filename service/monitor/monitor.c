/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include <systemd/sd-daemon.h>

#include "journal-event.h"
#include "rng-source.h"
#include "macro.h"
#include "monitor.h"
#include "probe-summary.h"
#include "status.h"
#include "time-util.h"

static void send_config_error(const ConfigError *e, const char *action) {
        EventFields f = {};
        int r;

        /* event_send() itself puts the message on stderr when the journal
         * refuses it: log here only if there is no event at all. */
        r = event_config_invalid(&f, e->file, e->line, e->key, e->message, action);
        if (r >= 0)
                (void) event_send(&f);
        else {
                char line[PATH_MAX + 512];

                config_error_format(e, line, sizeof(line));
                log_error("%s; %s", line, action);
        }
        event_fields_done(&f);
}

/* After each configuration load: whether the machine counts as a
 * confidential VM (detected, or forced by ConfidentialVM=) and the FailOn=
 * mask that follows. */
static void update_policy(Manager *m) {
        switch (m->config.confidential_vm) {
        case CVM_SETTING_YES:
                m->cvm = true;
                break;
        case CVM_SETTING_NO:
                m->cvm = false;
                break;
        default:
                m->cvm = m->cvm_detected != CVM_NONE;
        }
        m->fail_on = config_fail_on(&m->config, m->cvm);
        fail_on_format(&m->fail_on, m->fail_on_text, sizeof(m->fail_on_text));
        if (m->probe)
                probe_watch_set_cvm(m->probe, m->cvm);
}

/* "tdx", "sev-snp", ...; "forced" for ConfidentialVM=yes where nothing was
 * detected; "none". */
static const char *cvm_name(const Manager *m) {
        if (!m->cvm)
                return cvm_to_string(CVM_NONE);
        if (m->cvm_detected == CVM_NONE)
                return "forced";
        return cvm_to_string(m->cvm_detected);
}

/* This boot's CRNG as the Manager knows it: the probe's view of the kernel
 * log (readiness and what made it so), the kernel watch's lines since (a
 * readiness the probe had not seen yet, the virtual machine forks). */
static void update_crng(Manager *m) {
        KernelBootLog c = m->probe_report ? m->probe_report->boot : (KernelBootLog) {};

        if (m->have_kernel_boot) {
                if (!c.crng_ready && m->kernel_boot.crng_ready) {
                        c.crng_ready = true;
                        c.crng_ready_usec = m->kernel_boot.crng_ready_usec;
                        c.crng_stage = KERNEL_CRNG_STAGE_UNKNOWN;
                }
                c.vm_forks = m->kernel_boot.vm_forks;
                c.last_vm_fork_usec = m->kernel_boot.last_vm_fork_usec;
                c.read = c.read || m->kernel_boot.read;
        }
        m->crng = c;
}

/* STATUS=: the fragments, with what the Manager knows around them
 * (status.h). */
static void notify_status(const Manager *m, const char *fragments, bool failing) {
        char crng[256];
        _cleanup_free_ char *line = NULL;

        status_format_crng(&m->crng, crng, sizeof(crng));
        line = status_format_line(fragments, failing ? m->fail_on_text : NULL, m->crng.read ? crng : NULL,
                                  m->cvm ? cvm_name(m) : NULL, m->reload_failed);

        if (!line) {
                log_error("STATUS=: out of memory");
                return;
        }
        (void) sd_notifyf(false, "STATUS=%s", line);
}

#ifndef PROJECT_VERSION
#define PROJECT_VERSION "unknown"
#endif

/* After every report (a probe's verdict, a kernel event): the file is
 * written later, by write_metrics(). */
static void note_metrics(Manager *m) {
        if (!m->config.metrics_path[0])
                return;
        m->metrics_pending = true;
        (void) sd_event_source_set_enabled(m->metrics_write, SD_EVENT_ONESHOT);
}

/* The metrics file from the metrics, the last probe's report, the kernel
 * watch's verdict and its counter snapshot. A failed write is logged once
 * there. */
static void write_metrics(Manager *m) {
        _cleanup_free_ char *text = NULL;

        if (!m->metrics_pending)
                return;
        m->metrics_pending = false;
        (void) sd_event_source_set_enabled(m->metrics_write, SD_EVENT_OFF);
        if (!m->config.metrics_path[0])
                return;
        text = metrics_format(&m->metrics, &(MetricsInfo) {
                .version = PROJECT_VERSION,
                .confidential_vm = cvm_name(m),
                .probe = m->probe_report,
                .kernel_verdict = m->kernel_source.reported ? m->kernel_source.instr : NULL,
                .kernel_counters = m->have_kernel_counters ? &m->kernel_counters : NULL,
                .crng = m->crng.read ? &m->crng : NULL,
                .vm_forks = m->have_kernel_boot ? &m->kernel_boot.vm_forks : NULL,
        });
        if (!text) {
                log_warning("metrics: out of memory");
                return;
        }
        (void) metrics_file_update(&m->metrics_file, m->config.metrics_path, text);
}

/* The deferred write: the loop's first iteration writes the boot probe's
 * metrics after READY=1 (two fsync()s off the boot path), and a burst of
 * reports (a kernel flood) is one write. */
static int on_metrics_write(sd_event_source *s, void *userdata) {
        write_metrics(userdata);
        return 0;
}

/* A new probe's own load: how much the kernel's exhausted counters grew
 * across its contention runs, for the kernel watch to keep apart. */
static void note_own_load(Manager *m, const ProbeReport *report) {
        uint64_t load[_RNG_SOURCE_MAX] = {};

        FOREACH_RNG_SOURCE(i)
                for (unsigned j = 0; j < report->instr[i].n_runs; j++)
                        FOREACH_RNG_SOURCE(k)
                                load[k] += probe_run_kernel_exhausted(&report->instr[i].runs[j], k);
        FOREACH_RNG_SOURCE(k) {
                if (load[k] == 0)
                        continue;
                if (m->kernel)
                        kernel_watch_add_own_load(m->kernel, k, load[k]);
                else
                        m->own_load[k] += load[k];
        }
}

/* A new probe's report, taken from the probe watch's report: its counts
 * into the metrics at once (so that no probe is lost), its own load to the
 * kernel watch, and kept as the last probe. */
static void take_probe_report(Manager *m, ProbeReport *report) {
        struct timespec ts;

        if (m->config.metrics_path[0]) {
                clock_gettime(CLOCK_REALTIME, &ts);
                metrics_add_probe(&m->metrics, report, (uint64_t) ts.tv_sec * 1000000u + (uint64_t) ts.tv_nsec / 1000u);
        }
        note_own_load(m, report);
        free(m->probe_report);
        m->probe_report = report;
}

/* The CRNG became ready after the boot verdict said it was not: said once. */
static void notify_crng_ready(Manager *m) {
        EventFields f = {};

        if (m->crng_announced || !m->crng.crng_ready || !m->aggregator.announced)
                return;
        m->crng_announced = true;
        (void) event_emit(event_crng_ready(&f, &m->crng), &f, LOG_WARNING, "CRNG ready");
}

/* A verdict source reported: what its report carries is taken, then the
 * verdict event on a change, STATUS=, and FailOn=. The listener of both
 * sources. */
static void on_source_report(VerdictSource *source, VerdictReport *report, void *userdata) {
        Manager *m = userdata;
        _cleanup_free_ char *status = aggregator_status(&m->aggregator);
        AggregatorChange c;
        VerdictEventInfo info;
        EventFields f = {};

        if (report->probe)
                take_probe_report(m, TAKE_PTR(report->probe));
        if (source == &m->kernel_source) {
                m->have_kernel_counters = report->counters;
                if (report->counters)
                        m->kernel_counters = *report->counters;
                if (report->boot) {
                        m->have_kernel_boot = true;
                        m->kernel_boot = *report->boot;
                }
        }
        update_crng(m);
        note_metrics(m);
        if (!aggregator_announce(&m->aggregator, &c)) {
                notify_crng_ready(m);
                return;
        }
        info = (VerdictEventInfo) {
                .verdict = c.verdict,
                .severity = c.severity,
                .trigger = report->trigger,
                .source = source->name,
                .status = status,
                .instr_verdicts = c.instr,
                .cvm = cvm_name(m),
                .fail_on = m->fail_on_text,
                .have_previous = !c.first,
                .previous = c.previous,
                .previous_instr_verdicts = c.previous_instr,
                .boot = m->crng.read ? &m->crng : NULL,
        };
        if (c.changed)
                (void) event_emit(event_verdict(&f, &info), &f, LOG_WARNING, "verdict");
        if (c.first)
                m->crng_announced = m->crng.crng_ready; /* the boot verdict said it */
        else
                notify_crng_ready(m);

        /* FailOn= per source: a routine failure alone fails nothing by default. */
        if (fail_on_match(&m->fail_on, c.instr, &info.fail_verdict, &info.fail_instruction)) {
                m->exit_status = verdict_exit_status(info.fail_verdict);
                (void) event_emit(event_policy_failure(&f, &info, m->exit_status), &f, LOG_CRIT, "FailOn= policy");
                notify_status(m, status, true);
                write_metrics(m); /* the failing verdict, before the exit */
                (void) sd_event_exit(m->event, m->exit_status);
                return;
        }
        notify_status(m, status, false);
}

/* Follows the kernel's RNG messages from the start of this boot (before
 * READY=1, so the ready status already has them). Without a readable
 * journal the daemon goes on with the probe alone and says so. */
static void start_kernel_watch(Manager *m) {
        KernelWatchParams p = KERNEL_WATCH_PARAMS_DEFAULT;
        _cleanup_free_ char *state_dir = NULL;
        const char *e = getenv("STATE_DIRECTORY");
        int r;

        if (e) {
                state_dir = strndup(e, strcspn(e, ":"));
                if (!state_dir) {
                        log_error("Kernel watch: out of memory");
                        return;
                }
        }
        p.state_dir = state_dir;
        p.sysfs_root = m->root;
        p.routine_usec = config_routine_usec(&m->config);
        memcpy(p.own_load, m->own_load, sizeof(p.own_load));
        r = kernel_watch_new(m->event, &p, &m->kernel_source, &m->kernel);
        if (r < 0) {
                log_warning_errno(r, "Kernel watch: cannot follow the kernel log: %m");
                /* Keep what it may have reported before failing (a catch-up
                 * verdict); otherwise say that the kernel is not watched. */
                if (!m->kernel_source.reported) {
                        Verdict ok[_RNG_SOURCE_MAX];

                        FOREACH_RNG_SOURCE(i)
                                ok[i] = VERDICT_OK;
                        (void) verdict_source_report(&m->kernel_source, ok, STATUS_KERNEL_NOT_WATCHED, "kernel");
                }
        }
}

static int on_terminate(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata) {
        Manager *m = userdata;

        (void) sd_notify(false, "STATUS=" STATUS_STOPPING); /* STOPPING=1 when the loop ends: manager_run() */
        return sd_event_exit(m->event, EXIT_MONITOR_OK);
}

/* SIGHUP (systemctl reload): re-read the configuration; on error keep the
 * previous one. Then probe again with it, so new thresholds show at once. */
static int on_reload(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata) {
        Manager *m = userdata;
        ConfigError err;
        Config c;
        int r;

        (void) sd_notifyf(false, "RELOADING=1\nMONOTONIC_USEC=%llu\nSTATUS=" STATUS_RELOADING,
                          (unsigned long long) (now_nsec() / 1000));
        r = config_load(m->root, &c, &err);
        if (r < 0) {
                send_config_error(&err, "kept the previous configuration");
                m->reload_failed = true;
        } else {
                m->config = c;
                m->reload_failed = false;
                update_policy(m);
                r = kernel_watch_set_routine_interval(m->kernel, config_routine_usec(&m->config));
                if (r < 0)
                        log_warning_errno(r, "Kernel watch: cannot apply KernelRoutineIntervalSec=: %m");
        }

        r = probe_watch_run(m->probe, "reload");
        if (r == -ECANCELED)
                return 0; /* stopping: the loop takes the signal next */
        if (r < 0)
                notify_status(m, STATUS_PROBE_FAILED_ON_RELOAD, false);
        if (m->exit_status == EXIT_MONITOR_OK)
                (void) sd_notify(false, "READY=1");
        return 0;
}

/* The devices the service manager opened for the daemon (OpenFile=, each
 * named by its source's name: the unit's read grant on that one device),
 * for the probe to read instead of opening the node it may not open. An fd
 * of another name is closed. */
static void take_device_fds(void) {
        char **names = NULL;
        int n = sd_listen_fds_with_names(true, &names);

        for (int k = 0; k < n; k++) {
                int fd = SD_LISTEN_FDS_START + k, id = names ? rng_source_from_name(names[k]) : -EINVAL;

                if (id < 0 || rng_source_use_fd(id, fd) < 0) {
                        log_warning("An fd named '%s' was passed, which names no device of the table: closed",
                                    names && names[k] ? names[k] : "");
                        (void) close(fd);
                }
        }
        for (int k = 0; names && names[k]; k++)
                free(names[k]);
        free(names);
}

int manager_new(const char *root, const ProbeSourceHook *hook, Manager **ret) {
        _cleanup_(manager_freep) Manager *m = NULL;
        ConfigError err;
        int r;

        m = calloc(1, sizeof(*m));
        if (!m)
                return -ENOMEM;
        if (root) {
                m->root = strdup(root);
                if (!m->root)
                        return -ENOMEM;
        }
        r = config_load(m->root, &m->config, &err);
        if (r < 0) {
                send_config_error(&err, "refusing to start");
                return -EINVAL;
        }
        m->cvm_detected = cvm_detect(m->root);
        update_policy(m);

        r = sd_event_default(&m->event);
        if (r < 0)
                return log_error_errno(r, "failed to allocate event loop: %m");
        /* Status fragments in this order: the probe's, then the kernel's. */
        verdict_source_init(&m->probe_source, "probe", on_source_report, m);
        verdict_source_init(&m->kernel_source, "kernel", on_source_report, m);
        (void) aggregator_add_source(&m->aggregator, &m->probe_source);
        (void) aggregator_add_source(&m->aggregator, &m->kernel_source);
        r = probe_watch_new(m->event, &m->config, m->root, hook, &m->probe_source, &m->probe);
        if (r < 0)
                return log_error_errno(r, "failed to set up the probe: %m");
        probe_watch_set_cvm(m->probe, m->cvm);
        take_device_fds();
        r = sd_event_add_defer(m->event, &m->metrics_write, on_metrics_write, m);
        if (r >= 0)
                r = sd_event_source_set_enabled(m->metrics_write, SD_EVENT_OFF);
        if (r >= 0)
                r = sd_event_source_set_priority(m->metrics_write, SD_EVENT_PRIORITY_IDLE);
        if (r < 0)
                return log_error_errno(r, "failed to set up the metrics write: %m");
        (void) sd_event_source_set_description(m->metrics_write, "metrics-write");
        *ret = TAKE_PTR(m);
        return 0;

}

Manager *manager_free(Manager *m) {
        if (!m)
                return NULL;
        /* The watches report nothing from their destructors. */
        kernel_watch_free(m->kernel);
        probe_watch_free(m->probe);
        sd_event_source_unref(m->metrics_write);
        verdict_source_done(&m->kernel_source);
        verdict_source_done(&m->probe_source);
        sd_event_unref(m->event);
        free(m->probe_report);
        free(m->root);
        free(m);
        return NULL;
}

static int add_signal(Manager *m, int sig, sd_event_signal_handler_t handler, const char *description) {
        _cleanup_(sd_event_source_unrefp) sd_event_source *s = NULL;
        int r;

        r = sd_event_add_signal(m->event, &s, sig, handler, m);
        if (r < 0)
                return r;
        /* floating: owned by the event loop */
        r = sd_event_source_set_floating(s, true);
        if (r < 0)
                return r;
        (void) sd_event_source_set_description(s, description);
        return 0;
}


static int start(Manager *m) {
        char probing[256];
        int r;

        /* The signals are blocked by the caller (before any thread exists). */
        r = add_signal(m, SIGTERM, on_terminate, "signal-term");
        if (r >= 0)
                r = add_signal(m, SIGINT, on_terminate, "signal-int");
        if (r >= 0)
                r = add_signal(m, SIGHUP, on_reload, "signal-hup");
        if (r < 0)
                return log_error_errno(r, "failed to set up signal handling: %m");
        r = sd_event_set_watchdog(m->event, true);
        if (r < 0)
                return log_error_errno(r, "failed to enable the watchdog: %m");

        (void) sd_notifyf(false, "STATUS=%s", status_probing(probing, sizeof(probing)));
        r = probe_watch_run(m->probe, "boot");
        if (r == -ECANCELED)
                return 0; /* stopped before it was ready: the loop takes the signal and exits 0 */
        if (r < 0)
                return r; /* logged by probe_watch_run() */
        if (m->exit_status == EXIT_MONITOR_OK)
                start_kernel_watch(m);
        if (m->exit_status == EXIT_MONITOR_OK)
                (void) sd_notify(false, "READY=1");
        return 0;
}

int manager_start(Manager *m) {
        int r = start(m);

        if (r < 0)
                (void) sd_notifyf(false, "STATUS=" STATUS_FAILED_TO_START "%s", strerror(-r));
        return r;
}

static int run(Manager *m) {
        int r;

        if (m->exit_status != EXIT_MONITOR_OK)
                return m->exit_status; /* FailOn= matched on the boot probe */
        r = sd_event_loop(m->event);
        write_metrics(m); /* a report the loop had no iteration left for */
        if (r < 0) {
                log_error_errno(r, "event loop failed: %m");
                return EXIT_MONITOR_ERROR;
        }
        return r;
}

int manager_run(Manager *m) {
        int r = run(m);

        /* Once, however the daemon stops: SIGTERM, FailOn=, a failed loop. */
        (void) sd_notify(false, "STOPPING=1");
        return r;
}
