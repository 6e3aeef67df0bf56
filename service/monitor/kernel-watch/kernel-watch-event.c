/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The kernel watch's journal events: a pure builder of their fields. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <syslog.h>

#include "format-util.h"
#include "journal-ids.h"
#include "kernel-watch-event.h"

/* "A's once per boot and B's rate-limited": how the kernel logs each
 * source's exhaustion (the source table's), by how often. */
static const char *logs_clause(char *buf, size_t len) {
        unsigned n = 0, k = 0;
        size_t at = 0;

        buf[0] = '\0';
        FOREACH_RNG_SOURCE(i)
                n += rng_source_desc(i)->kernel.logs_exhaustion != RNG_KERNEL_LOGS_NOTHING;
        for (RngKernelLogs l = RNG_KERNEL_LOGS_NOTHING + 1; l < _RNG_KERNEL_LOGS_MAX; l++)
                FOREACH_RNG_SOURCE(i) {
                        int w;

                        if (rng_source_desc(i)->kernel.logs_exhaustion != l || at >= len)
                                continue;
                        w = snprintf(buf + at, len - at, "%s%s's %s", k == 0 ? "" : k + 1 == n ? " and " : ", ",
                                     rng_source_display_name(i), rng_kernel_logs_to_string(l));
                        at += w > 0 ? (size_t) w : 0;
                        k++;
                }
        return buf;
}

/* MESSAGE=: what the kernel did, in a sentence per kind. */
static int add_message(EventFields *f, const KernelEventInfo *in, const char *name, Verdict v) {
        char logs[256];

        switch (in->kind) {
        case KERNEL_RNG_MSG_EXHAUSTED:
                if (in->own_probe)
                        EVENT_ADD(f, "MESSAGE=Kernel: %s retry loop exhausted %" PRIu64 " time(s) while rng-health's "
                                  "own contention probe ran (its load: not counted against the kernel's verdict)",
                                  name, in->count);
                else if (in->routine && in->interval_usec > 0) {
                        double per_hour = in->count / (in->interval_usec / 3.6e9);
                        char span[32], rate[32];

                        /* "0.0417" for a rare one, "1.08k" for a flood */
                        if (per_hour < 999.5)
                                (void) snprintf(rate, sizeof(rate), "%.3g", per_hour);
                        else
                                (void) format_si(per_hour, rate, sizeof(rate));

                        EVENT_ADD(f, "MESSAGE=Kernel: %s retry loop exhausted %" PRIu64 " time(s) in the last %s "
                                  "(%s per hour): routine, %s", name, in->count,
                                  format_timespan_usec(in->interval_usec, span, sizeof(span)),
                                  rate,
                                  verdict_consequence(in->instruction, v));
                } else if (in->routine)
                        EVENT_ADD(f, "MESSAGE=Kernel: %s retry loop exhausted %" PRIu64 " time(s): routine, %s "
                                  "(recorded at most once per interval from now on)", name, in->count,
                                  verdict_consequence(in->instruction, v));
                else if (in->messages == 0)
                        EVENT_ADD(f, "MESSAGE=Kernel: %s retry loop exhausted %" PRIu64
                                  " time(s) (the kernel's counter: it logs %s)",
                                  name, in->count, logs_clause(logs, sizeof(logs)));
                else if (in->count == 0)
                        EVENT_ADD(f, "MESSAGE=Kernel: %s retry loop exhaustion logged (%" PRIu64
                                  " line(s), last on CPU %u after %u %s), already counted",
                                  name, in->messages, in->cpu, in->tries, plural(in->tries, "try", "tries"));
                else
                        EVENT_ADD(f, "MESSAGE=Kernel: %s retry loop exhausted %" PRIu64
                                  " time(s) (%" PRIu64 " log line(s), last on CPU %u after %u %s)",
                                  name, in->count, in->messages, in->cpu, in->tries, plural(in->tries, "try", "tries"));
                break;
        case KERNEL_RNG_MSG_FAILED:
                EVENT_ADD(f, "MESSAGE=Kernel: %s failed %" PRIu64 " time(s) after its retries", name,
                          in->count);
                break;
        case KERNEL_RNG_MSG_DISABLED:
                EVENT_ADD(f, "MESSAGE=Kernel disabled %s: %s", name,
                          in->kernel_message ?: "reason unknown");
                break;
        case KERNEL_RNG_MSG_DEFECTIVE:
        default:
                EVENT_ADD(f, "MESSAGE=Kernel: %s is defective (confidential-computing boot check)", name);
                break;
        }
        return 0;
}

int event_kernel(EventFields *f, const KernelEventInfo *in) {
        const char *name = rng_source_display_name(in->instruction);
        Verdict v = in->own_probe ? VERDICT_OK : kernel_rng_msg_kind_verdict(in->kind);
        int k;

        if (!name || !kernel_rng_msg_kind_to_string(in->kind) || (in->own_probe && in->kind != KERNEL_RNG_MSG_EXHAUSTED))
                return -EINVAL;

        k = event_add_header(f, rng_kernel_message_id(in->kind), verdict_priority(in->instruction, v));
        if (k >= 0)
                k = add_message(f, in, name, v);
        if (k < 0)
                return k;
        EVENT_ADD(f, "RNG_SOURCE=kernel");
        EVENT_ADD(f, "RNG_INSTRUCTION=%s", name);
        EVENT_ADD(f, "RNG_KERNEL_EVENT=%s", kernel_rng_msg_kind_to_string(in->kind));
        EVENT_ADD(f, "RNG_VERDICT=%s", verdict_to_string(v));
        EVENT_ADD(f, "RNG_SEVERITY=%s", severity_to_string(verdict_severity(in->instruction, v)));
        EVENT_ADD(f, "RNG_COUNT=%" PRIu64, in->count);
        if (in->routine) {
                EVENT_ADD(f, "RNG_ROUTINE=1");
                if (in->interval_usec > 0) {
                        EVENT_ADD(f, "RNG_INTERVAL_USEC=%" PRIu64, in->interval_usec);
                        EVENT_ADD(f, "RNG_RATE_PER_HOUR=%.6g", in->count / (in->interval_usec / 3.6e9));
                }
        }
        EVENT_ADD(f, "RNG_MESSAGES=%" PRIu64, in->messages);
        if (in->have_cpu) {
                EVENT_ADD(f, "RNG_CPU=%u", in->cpu);
                EVENT_ADD(f, "RNG_TRIES=%u", in->tries);
        }
        if (in->have_counters) {
                EVENT_ADD(f, "RNG_KERNEL_EXHAUSTED=%" PRIu64, in->exhausted_total);
                EVENT_ADD(f, "RNG_KERNEL_RETRIED=%" PRIu64, in->retried_total);
        }
        if (in->kernel_message)
                EVENT_ADD(f, "RNG_KERNEL_MESSAGE=%s", in->kernel_message);
        if (in->reason_id)
                EVENT_ADD(f, "RNG_KERNEL_REASON=%s", in->reason_id);
        if (in->own_probe)
                EVENT_ADD(f, "RNG_OWN_PROBE=1");
        EVENT_ADD(f, "RNG_STATE_SERIAL=%" PRIu64, in->state_serial);
        return 0;
}

int event_vm_fork(EventFields *f, uint64_t count, uint64_t fresh, uint64_t usec) {
        int k;

        k = event_add_header(f, RNG_MID_VM_FORK_STR, LOG_NOTICE);
        if (k < 0)
                return k;
        if (fresh == 1)
                EVENT_ADD(f, "MESSAGE=Kernel: CRNG reseeded for a virtual machine fork at %" PRIu64 ".%03" PRIu64
                          " s (vmgenid: this VM is a clone or a restored snapshot); %" PRIu64 " this boot",
                          usec / 1000000u, usec / 1000u % 1000u, count);
        else
                EVENT_ADD(f, "MESSAGE=Kernel: CRNG reseeded %" PRIu64 " times for a virtual machine fork while "
                          "rng-health did not follow, the last at %" PRIu64 ".%03" PRIu64 " s (vmgenid: this VM is a "
                          "clone or a restored snapshot); %" PRIu64 " this boot",
                          fresh, usec / 1000000u, usec / 1000u % 1000u, count);
        EVENT_ADD(f, "RNG_KERNEL_EVENT=vm-fork");
        EVENT_ADD(f, "RNG_COUNT=%" PRIu64, count);
        EVENT_ADD(f, "RNG_NEW=%" PRIu64, fresh);
        EVENT_ADD(f, "RNG_KERNEL_USEC=%" PRIu64, usec);
        return 0;
}
