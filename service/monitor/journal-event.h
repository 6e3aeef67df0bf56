/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include "log.h"

/* rng-health's structured journal events. Each builder is a pure function
 * that fills an EventFields array of "FIELD=value" strings (MESSAGE_ID,
 * PRIORITY, MESSAGE, SYSLOG_IDENTIFIER and RNG_* fields); event_send()
 * hands such an array to sd_journal_sendv(). The RNG_* namespace is
 * documented in rng-health(8):
 *
 *   RNG_INSTRUCTION      the source's display name (the source table's, sources.h)
 *   RNG_VERDICT          ok, degraded, exhausted, broken, hidden, unsupported
 *   RNG_SEVERITY         info, notice, warning, err (verdict_severity())
 *   RNG_CONSEQUENCE      what the running kernel does about the verdict
 *   RNG_HARDWARE_VERDICT the worst run's verdict, hidden or not
 *   RNG_PREVIOUS_VERDICT the verdict before a change
 *   RNG_PREVIOUS_<SOURCE>_VERDICT  each source's before a change (SOURCE:
 *                        its display name, for every source of the table)
 *   RNG_WIDTH, RNG_MODE, RNG_THREADS       the run that decided the verdict
 *   RNG_ATTEMPTS, RNG_FAILURES, RNG_FAILURE_RATE, RNG_MAX_FAIL_STREAK,
 *   RNG_RETRY_EXHAUSTED                    counters of that run
 *   RNG_TOTAL_ATTEMPTS, RNG_TOTAL_FAILURES, RNG_TOTAL_FAILURE_RATE,
 *   RNG_TOTAL_RETRY_EXHAUSTED, RNG_RUNS    over all runs of the instruction
 *   RNG_CONTENTION_RUNS, RNG_CONTENDED_RUNS contention runs, and those whose
 *                        threads overlapped
 *   RNG_KERNEL_RETRIES   tries per value of the kernel's loop (KernelRetries=)
 *   RNG_KERNEL_RETRIES_SOURCE stock, series, assumed, override
 *   RNG_PROBE_USEC       wall-clock time of the whole probe (all instructions)
 *   RNG_ERRATUM, RNG_ERRATUM_FIX            the documented erratum matched
 * Attribution, on every event of the probe (event_add_attribution()):
 *   RNG_CPU_VENDOR, RNG_CPU_FAMILY, RNG_CPU_MODEL, RNG_CPU_STEPPING,
 *   RNG_CPU_MICROCODE, RNG_CPU_MODEL_NAME   the CPU (cpu-id.h's CpuAttribution)
 *   RNG_ERRATUM_STATUS   the source's erratum status ("ID: fixed in microcode X,
 *                        running Y: not fixed", none, unknown)
 *   RNG_KERNEL_RELEASE   uname -r
 * and on a probe result:
 *   RNG_PACKAGE          the package (socket) of the deciding contention run
 *   RNG_PACKAGES         packages of the used CPUs (their contention runs are
 *                        made per package)
 *   RNG_RUN_FAILURE_RATES the failure ratio of each run that is evidence:
 *                        "WIDTH/MODE/THREADS[@PACKAGE]=RATIO ..."
 *   RNG_CHECKS           failed output checks ("rct,apt")
 *   RNG_FAILED_BITS      the bit positions of a failed bit balance ("3,16-31")
 *   RNG_SAMPLES          values checked in that run
 *   RNG_CPUID, RNG_KERNEL_STATE, RNG_KERNEL_REASON, RNG_KERNEL_REASON_SOURCE,
 *   RNG_REASON           why an instruction is unavailable (cpuid, kernel, hidden)
 *   RNG_TRIGGER          boot, reprobe, reload, kernel
 *   RNG_SOURCE           the verdict source behind a change (probe, kernel)
 *   RNG_<SOURCE>_VERDICT each source's verdict (SOURCE: its display name)
 *   RNG_CONFIDENTIAL_VM  none, tdx, sev, sev-es, sev-snp, cca, forced (ConfidentialVM=yes)
 *   RNG_FAIL_ON          the verdicts of FailOn= in effect ("none" if none)
 *   RNG_EXIT_STATUS, RNG_FAIL_INSTRUCTION, RNG_FAIL_VERDICT
 *                        a policy failure: the exit status, what matched
 *   RNG_CONFIG_FILE, RNG_CONFIG_LINE, RNG_CONFIG_KEY, RNG_CONFIG_ACTION
 *   RNG_KIND             a source's kind: hwrng-device, boot-seed (the results
 *                        of sources that are no CPU instruction)
 *   RNG_DEVICE           which device (rng_current) or which way a seed came
 *   RNG_CREDITED, RNG_CREDIT_QUALITY  whether the kernel credits it, and how
 *                        much per 1024 bits
 *   RNG_HOST_FED         yes: the host controls the input (in a VM)
 *   RNG_REMEDY           how to stop the kernel crediting it (host-fed)
 *   RNG_BYTES, RNG_BYTES_PER_SEC, RNG_RUN_USEC  a device's run
 *   RNG_CRNG_READY, RNG_CRNG_INIT_USEC, RNG_CRNG_STAGE
 *                        this boot's CRNG (kernel log): ready, when after the
 *                        kernel started, and what made it so
 * The kernel watch's events (kernel-watch.h):
 *   RNG_KERNEL_EVENT     exhausted, failed, disabled, defective
 *   RNG_COUNT, RNG_MESSAGES                 failures accounted, log lines
 *   RNG_CPU, RNG_TRIES   the last line's CPU and tries
 *   RNG_KERNEL_EXHAUSTED, RNG_KERNEL_RETRIED the kernel's counters then
 *   RNG_KERNEL_MESSAGE   the first line of the window
 *   RNG_OWN_PROBE        1: during rng-health's own contention probe
 *   RNG_ROUTINE, RNG_INTERVAL_USEC, RNG_RATE_PER_HOUR
 *                        a routine failure recorded once per interval
 *   RNG_STATE_SERIAL     the flush (kernel-watch-state.h)
 *   RNG_NEW, RNG_KERNEL_USEC  a virtual machine fork: forks since the previous
 *                        event, the kernel's timestamp of the last */

#include <stdbool.h>
#include <stddef.h>

#include "fail-on.h"
#include "probe.h"

#define EVENT_FIELDS_MAX 64

typedef struct EventFields {
        size_t n;
        char *v[EVENT_FIELDS_MAX];
} EventFields;

int event_fields_addf(EventFields *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Adds a field; on error returns it from the calling function. */
#define EVENT_ADD(f, ...)                                     \
        do {                                                  \
                int _r = event_fields_addf((f), __VA_ARGS__); \
                if (_r < 0)                                   \
                        return _r;                            \
        } while (0)
/* The one event header: MESSAGE_ID=mid, PRIORITY= and SYSLOG_IDENTIFIER. */
int event_add_header(EventFields *f, const char *mid, int priority);
/* The value of FIELD, or NULL. */
const char *event_fields_get(const EventFields *f, const char *field);
void event_fields_done(EventFields *f);



/* Probe result of one instruction (selected and in CPUID). */
int event_probe_result(EventFields *f, const ProbeReport *r, RngSourceId i, const char *trigger);
/* One event per run whose output checks failed: call for each run with
 * run->health.failed != 0. */
int event_output_check(EventFields *f, RngSourceId i, const ProbeRun *run, const char *trigger);
/* Not in CPUID, or disabled by the kernel. */
int event_unavailable(EventFields *f, const ProbeSourceResult *in);
/* The attribution fields of source i's events from probe report r (the
 * CPU, the erratum status, the kernel's release); only the known ones.
 * Takes a builder's result r_builder: adds nothing after an error or
 * -ENODATA, which it returns, so that it wraps a builder:
 *   event_emit(event_add_attribution(event_output_check(...), &f, r, i), ...) */
int event_add_attribution(int r_builder, EventFields *f, const ProbeReport *r, RngSourceId i);

typedef struct VerdictEventInfo {
        Verdict verdict;
        Severity severity;             /* PRIORITY and RNG_SEVERITY */
        bool have_previous;
        Verdict previous;
        const Verdict *previous_instr_verdicts; /* [_RNG_SOURCE_MAX] or NULL, with have_previous */
        const char *trigger;
        const char *source;            /* RNG_SOURCE of a change */
        const char *status;            /* the STATUS= line */
        const Verdict *instr_verdicts; /* [_RNG_SOURCE_MAX] or NULL */
        const char *cvm;               /* "none", "tdx", ... */
        const char *fail_on;           /* FailOn= in effect, fail_on_format()'s; NULL: "none" */
        const KernelBootLog *boot;     /* this boot's CRNG, from the kernel log; NULL: not known */
        /* A FailOn= match: the instruction and its verdict that matched. */
        RngSourceId fail_instruction;
        Verdict fail_verdict;
} VerdictEventInfo;

/* VERDICT_BOOT if !have_previous, VERDICT_CHANGED otherwise. */
int event_verdict(EventFields *f, const VerdictEventInfo *info);
int event_policy_failure(EventFields *f, const VerdictEventInfo *info, int exit_status);
/* The CRNG became ready after the boot verdict said it was not. */
int event_crng_ready(EventFields *f, const KernelBootLog *b);
int event_config_invalid(EventFields *f, const char *file, unsigned line, const char *key,
                         const char *message, const char *action);

/* Send to the journal; when stderr is not the journal (run by hand), or
 * the journal refused it, also print MESSAGE there (once, at the event's
 * PRIORITY). Returns sd_journal_sendv()'s result. */
int event_send(const EventFields *f);

/* The one way to send an event a builder made: r is the builder's result;
 * sends it, or logs once at priority why not ("failed to send WHAT event:
 * ...", the builder's or the journal's error). -ENODATA from a builder
 * (nothing to send) is no error. Frees the fields; returns the error. */
int event_emit(int r, EventFields *f, int priority, const char *what);

