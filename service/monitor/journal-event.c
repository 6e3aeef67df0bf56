/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <syslog.h>

/* The events carry their own fields; CODE_FILE=/CODE_LINE= would always
 * name event_send(). */
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-journal.h>

#include "journal-event.h"
#include "journal-ids.h"
#include "format-util.h"
#include "log.h"
#include "macro.h"
#include "probe-summary.h"
#include "status.h"

int event_fields_addf(EventFields *f, const char *fmt, ...) {
        va_list ap;
        char *s;
        int r;

        if (f->n >= EVENT_FIELDS_MAX)
                return -E2BIG;
        va_start(ap, fmt);
        r = vasprintf(&s, fmt, ap);
        va_end(ap);
        if (r < 0)
                return -ENOMEM;
        f->v[f->n++] = s;
        return 0;
}

const char *event_fields_get(const EventFields *f, const char *field) {
        size_t l = strlen(field);

        for (size_t i = 0; i < f->n; i++)
                if (strncmp(f->v[i], field, l) == 0 && f->v[i][l] == '=')
                        return f->v[i] + l + 1;
        return NULL;
}

void event_fields_done(EventFields *f) {
        for (size_t i = 0; i < f->n; i++)
                free(f->v[i]);
        f->n = 0;
}

int event_add_header(EventFields *f, const char *mid, int priority) {
        EVENT_ADD(f, "MESSAGE_ID=%s", mid);
        EVENT_ADD(f, "PRIORITY=%d", priority);
        EVENT_ADD(f, "SYSLOG_IDENTIFIER=rng-health");
        return 0;
}

static int add_run_fields(EventFields *f, RngSourceId i, const ProbeRun *run) {
        EVENT_ADD(f, "RNG_INSTRUCTION=%s", rng_source_display_name(i));
        EVENT_ADD(f, "RNG_WIDTH=%u", run->width);
        EVENT_ADD(f, "RNG_MODE=%s", probe_mode_to_string(run->mode));
        EVENT_ADD(f, "RNG_THREADS=%u", run->threads);
        return 0;
}

int event_add_attribution(int r_builder, EventFields *f, const ProbeReport *r, RngSourceId i) {
        CpuAttribution a;
        char status[160];

        if (r_builder < 0)
                return r_builder;
        cpu_attribution_from_id(r->have_cpu ? &r->cpu : NULL, &a);
        if (a.vendor[0])
                EVENT_ADD(f, "RNG_CPU_VENDOR=%s", a.vendor);
        if (a.family[0]) {
                EVENT_ADD(f, "RNG_CPU_FAMILY=%s", a.family);
                EVENT_ADD(f, "RNG_CPU_MODEL=%s", a.model);
                EVENT_ADD(f, "RNG_CPU_STEPPING=%s", a.stepping);
        }
        if (a.microcode[0])
                EVENT_ADD(f, "RNG_CPU_MICROCODE=%s", a.microcode);
        if (a.model_name[0])
                EVENT_ADD(f, "RNG_CPU_MODEL_NAME=%s", a.model_name);
        EVENT_ADD(f, "RNG_ERRATUM_STATUS=%s",
                  erratum_status_format(r->have_cpu ? &r->cpu : NULL, i, status, sizeof(status)));
        if (r->kernel_release[0])
                EVENT_ADD(f, "RNG_KERNEL_RELEASE=%s", r->kernel_release);
        return r_builder;
}

/* Which package the deciding run was pinned within, how many there are,
 * and the failure ratio of every run that is evidence (single, or a
 * contention run that contended), for a figure across the fleet. */
static int add_packages(EventFields *f, const ProbeReport *r, const ProbeSourceResult *in, const ProbeRun *worst) {
        char rates[1024];
        size_t n = 0;

        if (worst->package >= 0)
                EVENT_ADD(f, "RNG_PACKAGE=%d", worst->package);
        if (r->cpus.n_packages > 0)
                EVENT_ADD(f, "RNG_PACKAGES=%u", r->cpus.n_packages);
        rates[0] = '\0';
        for (unsigned j = 0; j < in->n_runs && n < sizeof(rates); j++) {
                const ProbeRun *run = &in->runs[j];
                char pkg[16] = "";
                int k;

                if (run->mode == PROBE_CONTENTION && !run->contended)
                        continue;
                if (run->package >= 0)
                        snprintf(pkg, sizeof(pkg), "@%d", run->package);
                k = snprintf(rates + n, sizeof(rates) - n, "%s%u/%s/%u%s=%.4f", n ? " " : "", run->width,
                             probe_mode_to_string(run->mode), run->threads, pkg, run->failure_rate);
                if (k < 0 || (size_t) k >= sizeof(rates) - n) {
                        rates[n] = '\0'; /* whole entries only */
                        break;
                }
                n += (size_t) k;
        }
        if (rates[0])
                EVENT_ADD(f, "RNG_RUN_FAILURE_RATES=%s", rates);
        return 0;
}

/* A source that is no CPU instruction, where it is there: its words in the
 * status (status_format_source()), and what the kernel credits. */
static int other_result(EventFields *f, const ProbeReport *r, RngSourceId i, const char *trigger) {
        const ProbeSourceResult *in = &r->instr[i];
        const RngSourceDesc *d = rng_source_desc(i);
        const ProbeRun *run = probe_source_worst_run(in);
        const KernelCredit *c = &in->kernel.credit;
        const char *consequence = verdict_consequence(i, in->verdict);
        char text[1024], checks[128];
        int k;

        if (!in->cpuid)
                return -ENODATA;
        status_format_source(r, i, text, sizeof(text));
        k = event_add_header(f, RNG_MID_PROBE_RESULT_STR, verdict_priority(i, in->verdict));
        if (k < 0)
                return k;
        EVENT_ADD(f, "MESSAGE=%s", text);
        EVENT_ADD(f, "RNG_INSTRUCTION=%s", d->display_name);
        EVENT_ADD(f, "RNG_KIND=%s", rng_source_kind_to_string(d->kind));
        EVENT_ADD(f, "RNG_VERDICT=%s", verdict_to_string(in->verdict));
        EVENT_ADD(f, "RNG_SEVERITY=%s", severity_to_string(verdict_severity(i, in->verdict)));
        if (consequence)
                EVENT_ADD(f, "RNG_CONSEQUENCE=%s", consequence);
        if (in->verdict == VERDICT_HOST_FED && d->kernel.remedy)
                EVENT_ADD(f, "RNG_REMEDY=%s", d->kernel.remedy);
        if (c->device[0])
                EVENT_ADD(f, "RNG_DEVICE=%s", c->device);
        if (c->known) {
                EVENT_ADD(f, "RNG_CREDITED=%s", c->credited ? "yes" : "no");
                EVENT_ADD(f, "RNG_CREDIT_QUALITY=%u", c->quality);
        }
        EVENT_ADD(f, "RNG_HOST_FED=%s", c->host_fed ? "yes" : "no");
        EVENT_ADD(f, "RNG_KERNEL_STATE=%s", kernel_state_kind_to_string(in->kernel.state));
        if (run) {
                EVENT_ADD(f, "RNG_HARDWARE_VERDICT=%s", verdict_to_string(in->hardware_verdict));
                EVENT_ADD(f, "RNG_BYTES=%" PRIu64, run->bytes);
                EVENT_ADD(f, "RNG_BYTES_PER_SEC=%.0f", run->bytes_per_sec);
                EVENT_ADD(f, "RNG_SAMPLES=%" PRIu64, run->health.samples);
                EVENT_ADD(f, "RNG_RUN_USEC=%" PRIu64, run->wall_nsec / 1000);
                if (run->health.failed) {
                        health_checks_format(run->health.failed, checks, sizeof(checks));
                        EVENT_ADD(f, "RNG_CHECKS=%s", checks);
                }
        }
        EVENT_ADD(f, "RNG_PROBE_USEC=%" PRIu64, r->wall_nsec / 1000);
        EVENT_ADD(f, "RNG_TRIGGER=%s", trigger);
        return event_add_attribution(0, f, r, i);
}

int event_probe_result(EventFields *f, const ProbeReport *r, RngSourceId i, const char *trigger) {
        const ProbeSourceResult *in = &r->instr[i];
        const ProbeSummary *s = &in->summary; /* summed once by probe_run_all() */
        const ProbeRun *worst = probe_source_worst_run(in);
        const char *consequence = probe_source_consequence(in);
        const char *name = rng_source_display_name(i);
        char rate[16], worst_rate[16];
        int k;

        if (rng_source_desc(i)->kind != RNG_KIND_CPU_INSTRUCTION)
                return other_result(f, r, i, trigger);
        if (!worst)
                return -ENODATA; /* not probed */

        k = event_add_header(f, RNG_MID_PROBE_RESULT_STR, verdict_priority(i, in->verdict));
        if (k < 0)
                return k;
        EVENT_ADD(f, "MESSAGE=%s %s%s%s: %" PRIu64 " of %" PRIu64 " %s failed (%s) in %u run%s, "
               "%" PRIu64 " %s needed more than %" PRIu64 " %s; deciding run: %u-bit %s on %u thread%s, "
               "%" PRIu64 " of %" PRIu64 " failed (%s), longest streak %" PRIu64 "%s%s%s%s%s",
            name, verdict_to_string(in->verdict), consequence ? ", " : "", consequence ?: "", s->failures, s->attempts,
            plural(s->attempts, "try", "tries"), format_percent(s->failure_rate, rate, sizeof(rate)), in->n_runs,
            in->n_runs == 1 ? "" : "s", s->retry_exhausted, plural(s->retry_exhausted, "value", "values"),
            in->kernel_retries, plural(in->kernel_retries, "try", "tries"), worst->width, probe_mode_to_string(worst->mode),
            worst->threads, worst->threads == 1 ? "" : "s", worst->failures, worst->attempts,
            format_percent(worst->failure_rate, worst_rate, sizeof(worst_rate)),
            worst->longest_failure_streak,
            in->erratum ? "; matches the known erratum " : "", in->erratum ? in->erratum->id : "",
            in->erratum ? " (fix: " : "", in->erratum ? in->erratum->fix : "", in->erratum ? ")" : "");
        k = add_run_fields(f, i, worst);
        if (k < 0)
                return k;
        EVENT_ADD(f, "RNG_VERDICT=%s", verdict_to_string(in->verdict));
        EVENT_ADD(f, "RNG_SEVERITY=%s", severity_to_string(verdict_severity(i, in->verdict)));
        if (consequence)
                EVENT_ADD(f, "RNG_CONSEQUENCE=%s", consequence);
        EVENT_ADD(f, "RNG_HARDWARE_VERDICT=%s", verdict_to_string(in->hardware_verdict));
        EVENT_ADD(f, "RNG_CPUID=%s", in->cpuid ? "yes" : "no");
        EVENT_ADD(f, "RNG_CONTENTION_RUNS=%u", in->contention_runs);
        EVENT_ADD(f, "RNG_CONTENDED_RUNS=%u", in->contended_runs);
        EVENT_ADD(f, "RNG_ATTEMPTS=%" PRIu64, worst->attempts);
        EVENT_ADD(f, "RNG_FAILURES=%" PRIu64, worst->failures);
        EVENT_ADD(f, "RNG_FAILURE_RATE=%.4f", worst->failure_rate);
        EVENT_ADD(f, "RNG_MAX_FAIL_STREAK=%" PRIu64, worst->longest_failure_streak);
        EVENT_ADD(f, "RNG_RETRY_EXHAUSTED=%" PRIu64, probe_run_retry_exhausted(worst));
        EVENT_ADD(f, "RNG_RUNS=%u", in->n_runs);
        EVENT_ADD(f, "RNG_TOTAL_ATTEMPTS=%" PRIu64, s->attempts);
        EVENT_ADD(f, "RNG_TOTAL_FAILURES=%" PRIu64, s->failures);
        EVENT_ADD(f, "RNG_TOTAL_FAILURE_RATE=%.4f", s->failure_rate);
        EVENT_ADD(f, "RNG_TOTAL_RETRY_EXHAUSTED=%" PRIu64, s->retry_exhausted);
        EVENT_ADD(f, "RNG_KERNEL_RETRIES=%" PRIu64, in->kernel_retries);
        EVENT_ADD(f, "RNG_KERNEL_RETRIES_SOURCE=%s", kernel_retries_source_to_string(in->kernel_retries_source));
        EVENT_ADD(f, "RNG_PROBE_USEC=%" PRIu64, r->wall_nsec / 1000);
        EVENT_ADD(f, "RNG_KERNEL_STATE=%s", kernel_state_kind_to_string(in->kernel.state));
        if (in->erratum) {
                EVENT_ADD(f, "RNG_ERRATUM=%s", in->erratum->id);
                EVENT_ADD(f, "RNG_ERRATUM_FIX=%s", in->erratum->fix);
        }
        EVENT_ADD(f, "RNG_TRIGGER=%s", trigger);
        k = add_packages(f, r, in, worst);
        if (k < 0)
                return k;
        return event_add_attribution(0, f, r, i);
}

int event_output_check(EventFields *f, RngSourceId i, const ProbeRun *run, const char *trigger) {
        char checks[128], named[384], bits[192];
        int k;

        if (run->health.failed == 0)
                return -ENODATA;
        health_checks_format(run->health.failed, checks, sizeof(checks));
        health_result_format(&run->health, named, sizeof(named));
        health_bits_format(run->health.failed_bits, bits, sizeof(bits));
        k = event_add_header(f, RNG_MID_OUTPUT_CHECK_STR, LOG_ERR);
        if (k < 0)
                return k;
        EVENT_ADD(f, "MESSAGE=%s %u-bit %s run on %u thread%s: output check failed: %s (%" PRIu64 " %s checked)",
            rng_source_display_name(i), run->width, probe_mode_to_string(run->mode),
            run->threads, run->threads == 1 ? "" : "s", named, run->health.samples,
            plural(run->health.samples, "value", "values"));
        k = add_run_fields(f, i, run);
        if (k < 0)
                return k;
        EVENT_ADD(f, "RNG_CHECKS=%s", checks);
        if (run->health.failed & HEALTH_BIT_BALANCE)
                EVENT_ADD(f, "RNG_FAILED_BITS=%s", bits);
        EVENT_ADD(f, "RNG_SAMPLES=%" PRIu64, run->health.samples);
        EVENT_ADD(f, "RNG_TRIGGER=%s", trigger);
        return 0;
}

/* A source that is no CPU instruction: absent, not known, or there and
 * not read (u). */
static int other_unavailable(EventFields *f, const ProbeSourceResult *in, ProbeUnavailable u) {
        const RngSourceDesc *d = rng_source_desc(in->instruction);
        int k;

        k = event_add_header(f, RNG_MID_UNAVAILABLE_STR,
                             u == PROBE_UNAVAILABLE_UNREADABLE ? LOG_NOTICE : severity_priority(d->absent_severity));
        if (k < 0)
                return k;
        if (u == PROBE_UNAVAILABLE_UNREADABLE)
                EVENT_ADD(f, "MESSAGE=%s is there (%s), but %s cannot be read: %s; not probed", d->display_name,
                          in->kernel.credit.device[0] ? in->kernel.credit.device : "device", d->detect.device,
                          strerror(-in->read_error));
        else if (u == PROBE_UNAVAILABLE_UNKNOWN)
                EVENT_ADD(f, "MESSAGE=%s %s", d->display_name, in->kernel.reason ?: "unknown");
        else
                EVENT_ADD(f, "MESSAGE=%s %s: %s", d->display_name, d->absent, in->kernel.reason ?: "not there");
        EVENT_ADD(f, "RNG_INSTRUCTION=%s", d->display_name);
        EVENT_ADD(f, "RNG_REASON=%s", probe_unavailable_to_string(u));
        EVENT_ADD(f, "RNG_KERNEL_STATE=%s", kernel_state_kind_to_string(in->kernel.state));
        if (in->kernel.reason_id)
                EVENT_ADD(f, "RNG_KERNEL_REASON=%s", in->kernel.reason_id);
        return 0;
}

int event_unavailable(EventFields *f, const ProbeSourceResult *in) {
        const char *name = rng_source_display_name(in->instruction);
        int u = probe_source_unavailable(in), k;

        if (u < 0)
                return u;
        if (rng_source_desc(in->instruction)->kind != RNG_KIND_CPU_INSTRUCTION)
                return other_unavailable(f, in, u);
        k = event_add_header(f, RNG_MID_UNAVAILABLE_STR, u == PROBE_UNAVAILABLE_KERNEL ? LOG_WARNING : LOG_NOTICE);
        if (k < 0)
                return k;
        if (u == PROBE_UNAVAILABLE_HIDDEN)
                EVENT_ADD(f, "MESSAGE=%s is hidden: not advertised by %s, yet it executes (%s%s%s); probed anyway, "
                          "nothing relies on it", name, rng_source_desc(in->instruction)->detect.advertised_by,
                          in->kernel.reason ?: "reason unknown",
                          in->kernel.reason_source == KERNEL_REASON_ERRATA ? ", from the errata table" : "",
                          in->kernel.reason_source == KERNEL_REASON_KERNEL_LOG ? ", the kernel's message" : "");
        else if (u == PROBE_UNAVAILABLE_CPUID)
                EVENT_ADD(f, "MESSAGE=%s is %s (%s): nothing to probe", name, rng_source_desc(in->instruction)->absent,
                          in->kernel.state == KERNEL_STATE_ABSENT
                                  ? in->kernel.reason
                                  : rng_source_desc(in->instruction)->detect.not_advertised.absent);
        else
                EVENT_ADD(f, "MESSAGE=%s is disabled by the kernel: %s", name, in->kernel.reason ?: "reason unknown");
        EVENT_ADD(f, "RNG_INSTRUCTION=%s", name);
        EVENT_ADD(f, "RNG_REASON=%s", probe_unavailable_to_string(u));
        EVENT_ADD(f, "RNG_KERNEL_REASON_SOURCE=%s", kernel_reason_source_to_string(in->kernel.reason_source));
        EVENT_ADD(f, "RNG_CPUID=%s", in->cpuid ? "yes" : "no");
        EVENT_ADD(f, "RNG_KERNEL_STATE=%s", kernel_state_kind_to_string(in->kernel.state));
        if (in->kernel.reason_id)
                EVENT_ADD(f, "RNG_KERNEL_REASON=%s", in->kernel.reason_id);
        return 0;
}

static int add_verdict_context(EventFields *f, const VerdictEventInfo *info) {
        EVENT_ADD(f, "RNG_VERDICT=%s", verdict_to_string(info->verdict));
        EVENT_ADD(f, "RNG_SEVERITY=%s", severity_to_string(info->severity));
        /* RNG_<SOURCE>_VERDICT: the table's display names. */
        if (info->instr_verdicts)
                FOREACH_RNG_SOURCE(i)
                        EVENT_ADD(f, "RNG_%s_VERDICT=%s", rng_source_display_name(i),
                                  verdict_to_string(info->instr_verdicts[i]));
        EVENT_ADD(f, "RNG_FAIL_ON=%s", info->fail_on ?: "none");
        EVENT_ADD(f, "RNG_CONFIDENTIAL_VM=%s", info->cvm ?: "none");
        /* This boot's CRNG, from the kernel log (the probe's). */
        if (info->boot && info->boot->read) {
                EVENT_ADD(f, "RNG_CRNG_READY=%s", info->boot->crng_ready ? "yes" : "no");
                if (info->boot->crng_ready) {
                        EVENT_ADD(f, "RNG_CRNG_INIT_USEC=%" PRIu64, info->boot->crng_ready_usec);
                        EVENT_ADD(f, "RNG_CRNG_STAGE=%s", kernel_crng_stage_to_string(info->boot->crng_stage));
                }
        }
        if (info->trigger)
                EVENT_ADD(f, "RNG_TRIGGER=%s", info->trigger);
        return 0;
}

/* "NAME from ok to exhausted" for each source whose verdict differs from
 * the announced one ("" if none does). */
static void format_instr_changes(const VerdictEventInfo *info, char *buf, size_t size) {
        size_t n = 0;

        buf[0] = '\0';
        for (int i = 0; i < _RNG_SOURCE_MAX && n < size; i++)
                if (info->previous_instr_verdicts[i] != info->instr_verdicts[i]) {
                        int k = snprintf(buf + n, size - n, "%s%s from %s to %s", n > 0 ? " and " : "",
                                         rng_source_display_name(i),
                                         verdict_to_string(info->previous_instr_verdicts[i]),
                                         verdict_to_string(info->instr_verdicts[i]));
                        if (k < 0)
                                break;
                        n += (size_t) k;
                }
}

static int add_verdict_change(EventFields *f, const VerdictEventInfo *info) {
        char what[128] = "";

        if (info->previous_instr_verdicts && info->instr_verdicts)
                format_instr_changes(info, what, sizeof(what));
        /* The overall verdict stayed and a source's changed (one
         * exhausted, then another too): name what changed, not "from
         * exhausted to exhausted". */
        if (info->previous == info->verdict && what[0])
                EVENT_ADD(f, "MESSAGE=Hardware RNG verdict changed for %s (overall still %s, severity %s): %s", what,
                          verdict_to_string(info->verdict), severity_to_string(info->severity), info->status ?: "");
        else
                EVENT_ADD(f, "MESSAGE=Hardware RNG verdict changed from %s to %s (severity %s): %s",
                          verdict_to_string(info->previous), verdict_to_string(info->verdict),
                          severity_to_string(info->severity), info->status ?: "");
        EVENT_ADD(f, "RNG_PREVIOUS_VERDICT=%s", verdict_to_string(info->previous));
        if (info->previous_instr_verdicts)
                FOREACH_RNG_SOURCE(i)
                        EVENT_ADD(f, "RNG_PREVIOUS_%s_VERDICT=%s", rng_source_display_name(i),
                                  verdict_to_string(info->previous_instr_verdicts[i]));
        EVENT_ADD(f, "RNG_SOURCE=%s", info->source ?: "probe");
        return 0;
}

int event_verdict(EventFields *f, const VerdictEventInfo *info) {
        int k;

        k = event_add_header(f, info->have_previous ? RNG_MID_VERDICT_CHANGED_STR : RNG_MID_VERDICT_BOOT_STR,
                       severity_priority(info->severity));
        if (k < 0)
                return k;
        if (info->have_previous) {
                k = add_verdict_change(f, info);
                if (k < 0)
                        return k;
        } else
                EVENT_ADD(f, "MESSAGE=Hardware RNG verdict at boot: %s (severity %s): %s", verdict_to_string(info->verdict),
                    severity_to_string(info->severity), info->status ?: "");
        return add_verdict_context(f, info);
}

int event_policy_failure(EventFields *f, const VerdictEventInfo *info, int exit_status) {
        int k;

        k = event_add_header(f, RNG_MID_POLICY_FAILURE_STR, LOG_CRIT);
        if (k < 0)
                return k;
        EVENT_ADD(f, "MESSAGE=Hardware RNG verdict %s %s is in FailOn=%s%s: exiting with status %d",
            rng_source_display_name(info->fail_instruction), verdict_to_string(info->fail_verdict),
            info->fail_on ?: "none",
            info->cvm && strcmp(info->cvm, "none") != 0 ? " (confidential VM)" : "", exit_status);
        EVENT_ADD(f, "RNG_EXIT_STATUS=%d", exit_status);
        EVENT_ADD(f, "RNG_FAIL_INSTRUCTION=%s", rng_source_display_name(info->fail_instruction));
        EVENT_ADD(f, "RNG_FAIL_VERDICT=%s", verdict_to_string(info->fail_verdict));
        return add_verdict_context(f, info);
}

int event_crng_ready(EventFields *f, const KernelBootLog *b) {
        char text[256];
        int k;

        if (!b->crng_ready)
                return -ENODATA;
        status_format_crng(b, text, sizeof(text));
        k = event_add_header(f, RNG_MID_CRNG_READY_STR, LOG_INFO);
        if (k < 0)
                return k;
        EVENT_ADD(f, "MESSAGE=%s", text);
        EVENT_ADD(f, "RNG_CRNG_READY=yes");
        EVENT_ADD(f, "RNG_CRNG_INIT_USEC=%" PRIu64, b->crng_ready_usec);
        EVENT_ADD(f, "RNG_CRNG_STAGE=%s", kernel_crng_stage_to_string(b->crng_stage));
        return 0;
}

int event_config_invalid(EventFields *f, const char *file, unsigned line, const char *key,
                         const char *message, const char *action) {
        int k;

        k = event_add_header(f, RNG_MID_CONFIG_INVALID_STR, LOG_ERR);
        if (k < 0)
                return k;
        if (line > 0)
                EVENT_ADD(f, "MESSAGE=%s:%u: %s%s%s; %s", file, line, key ?: "", key && key[0] ? ": " : "", message,
                    action);
        else
                EVENT_ADD(f, "MESSAGE=%s: %s; %s", file, message, action);
        EVENT_ADD(f, "RNG_CONFIG_FILE=%s", file);
        EVENT_ADD(f, "RNG_CONFIG_LINE=%u", line);
        if (key && key[0])
                EVENT_ADD(f, "RNG_CONFIG_KEY=%s", key);
        EVENT_ADD(f, "RNG_CONFIG_ACTION=%s", action);
        return 0;
}

int event_send(const EventFields *f) {
        struct iovec iov[EVENT_FIELDS_MAX];
        const char *msg, *prio;
        int r;

        for (size_t i = 0; i < f->n; i++)
                iov[i] = (struct iovec) { .iov_base = f->v[i], .iov_len = strlen(f->v[i]) };
        r = sd_journal_sendv(iov, (int) f->n);
        msg = event_fields_get(f, "MESSAGE");
        prio = event_fields_get(f, "PRIORITY");
        /* The event's message once on stderr: by hand, or when the journal
         * refused the structured event (then stderr carries it, at the
         * event's priority). */
        if (msg && (r < 0 || !log_stderr_is_journal()))
                log_line(prio && prio[0] >= '0' && prio[0] <= '7' && !prio[1] ? prio[0] - '0' : LOG_INFO, msg);
        return r;
}

int event_emit(int r, EventFields *f, int priority, const char *what) {
        if (r >= 0)
                r = event_send(f);
        if (r < 0 && r != -ENODATA)
                (void) log_full_errno(priority, r, "failed to send %s event: %m", what);
        event_fields_done(f);
        return r;
}
