/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The one interface between the Manager and what produces verdicts (the
 * probe watch, the kernel watch). The Manager owns a VerdictSource per
 * producer and hands it to the producer's constructor; the producer reports
 * through it, and the Manager's listener hears each report.
 *
 * Rules:
 * - A report carries its data: the per-instruction verdicts and the status
 *   fragment, which the source stores, and what the producer measured,
 *   which the listener takes from the report: the probe watch's whole
 *   ProbeReport (its summaries computed once, probe-summary.h), the kernel
 *   watch's counter snapshot. Nobody reaches back into a producer.
 * - A report stores the verdict and status fragment first, then calls the
 *   listener: the listener sees the new state of every source.
 * - A producer's destructor never reports (it detaches first:
 *   verdict_source_detach()), so nothing calls back into a Manager that is
 *   being torn down.
 * - What a producer reported stays in the source after the producer is
 *   gone (a kernel watch that failed after its catch-up verdict). */

#include <stdbool.h>

#include "kernel-counters.h"
#include "probe.h"
#include "sources.h"
#include "verdict.h"

typedef struct VerdictSource VerdictSource;

/* One report. */
typedef struct VerdictReport {
        const char *trigger;         /* "boot", "reload", "reprobe" (the probe), "kernel" */
        Verdict instr[_RNG_SOURCE_MAX]; /* per instruction: FailOn= and severity act on these */
        const char *status;          /* the status fragment (status.h), e.g. "kernel: no RNG failures" */
        /* The probe watch's report (NULL from the kernel watch): the
         * listener may take it (TAKE_PTR), else the producer frees it. */
        ProbeReport *probe;
        /* The kernel watch's counter snapshot, valid during the call; NULL
         * where the kernel has no counters (and from the probe watch). */
        const KernelCounters *counters;
        /* The kernel watch's CRNG lines of this boot (ready, virtual machine
         * forks), valid during the call; NULL from the probe watch. */
        const KernelBootLog *boot;
} VerdictReport;

typedef void (*VerdictSourceListener)(VerdictSource *s, VerdictReport *report, void *userdata);

struct VerdictSource {
        const char *name;  /* "probe", "kernel": RNG_SOURCE in events; static */
        bool reported;
        Verdict verdict;   /* the worst of instr[] */
        Verdict instr[_RNG_SOURCE_MAX];
        char *status;      /* the last report's status fragment */
        VerdictSourceListener listener;
        void *userdata;
};

void verdict_source_init(VerdictSource *s, const char *name, VerdictSourceListener listener, void *userdata);
/* Stores the report's per-instruction verdicts and a copy of its status,
 * then calls the listener with the report. -ENOMEM leaves the previous
 * state and calls nothing; -EINVAL for a verdict out of range. */
int verdict_source_report_full(VerdictSource *s, VerdictReport *report);
/* A report of verdicts and status alone. */
int verdict_source_report(VerdictSource *s, const Verdict instr[_RNG_SOURCE_MAX], const char *status,
                          const char *trigger);
/* The producer's handle: NULL once detached (reports through NULL are
 * ignored), so a destructor can flush without reporting. */
static inline VerdictSource *verdict_source_detach(VerdictSource **s) {
        VerdictSource *old = *s;

        *s = NULL;
        return old;
}
void verdict_source_done(VerdictSource *s);
