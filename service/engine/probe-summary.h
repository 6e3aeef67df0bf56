/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* One instruction's probe in a few numbers, for the status line, the
 * journal events and the report: totals over its runs, and the run that
 * decided its verdict. Pure: no I/O. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe.h"

typedef struct ProbeSummary {
        RngInstruction instruction;
        bool probed;                /* selected, executes (CPUID, or hidden), and at least one run */
        Verdict verdict;
        unsigned runs;
        uint64_t attempts, failures; /* totals over the runs */
        uint64_t retry_exhausted;    /* values that needed more than kernel_retries tries */
        uint64_t max_fail_streak;
        double failure_rate;         /* failures / attempts over the runs */
        const ProbeRun *worst;       /* decided the verdict; NULL if not probed */
} ProbeSummary;

/* Values that needed more tries than the kernel's loop makes, counting a
 * trailing streak of failures that already reached that length. */
uint64_t probe_run_retry_exhausted(const ProbeRun *run);

void probe_summarize(const ProbeReport *r, RngInstruction i, ProbeSummary *ret);
/* What the running kernel does about the summary's verdict
 * (verdict_consequence()); broken with nothing delivered is, for the
 * kernel, exhaustion. NULL: nothing to say. */
const char *probe_summary_consequence(const ProbeSummary *s);
