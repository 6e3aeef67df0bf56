/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* One instruction's probe in a few numbers (ProbeSummary, probe.h): totals
 * over its runs, and the run that decided its verdict; what a run says
 * about the kernel's own loops. Pure: no I/O. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe.h"

/* Values that needed more tries than the kernel's loop makes, counting a
 * trailing streak of failures that already reached that length. */
uint64_t probe_run_retry_exhausted(const ProbeRun *run);

/* How much the kernel's exhausted counter of instruction i grew during a
 * contention run (its own loops running out under the run's load); 0
 * without counters, or if the counter went backwards. */
uint64_t probe_run_kernel_exhausted(const ProbeRun *run, RngSourceId i);

/* Fills in->summary from its runs: probe_run_all() calls it once per
 * instruction, after the last run. */
void probe_source_summarize(ProbeSourceResult *in);

/* The run that decided the verdict (worse verdict, then higher failure
 * rate, then more threads); NULL if not probed. */
const ProbeRun *probe_source_worst_run(const ProbeSourceResult *in);

/* A device or a seed neither seen nor known to be absent: what would show
 * it (the kernel log, a sysfs file) was not read, and its kernel state,
 * KERNEL_STATE_UNKNOWN, has a reason that reads "unknown (WHY)". An
 * instruction's absence is known by running it: never unknown here. */
bool probe_source_unknown(const ProbeSourceResult *in);

/* Why a source is not probed, or is probed though hidden: the journal's
 * RNG_REASON (the unavailable event), and what `report` reads back. */
typedef enum ProbeUnavailable {
        PROBE_UNAVAILABLE_CPUID,      /* an instruction not advertised, that does not execute */
        PROBE_UNAVAILABLE_KERNEL,     /* an instruction advertised, disabled by the kernel */
        PROBE_UNAVAILABLE_HIDDEN,     /* an instruction not advertised, yet it executes (probed) */
        PROBE_UNAVAILABLE_ABSENT,     /* a device or seed not there */
        PROBE_UNAVAILABLE_UNREADABLE, /* a device there that cannot be read */
        PROBE_UNAVAILABLE_UNKNOWN,    /* a device or seed neither seen nor known absent */
        _PROBE_UNAVAILABLE_MAX,
} ProbeUnavailable;

/* in's reason, or -ENODATA where it has none (probed as it should be). */
int probe_source_unavailable(const ProbeSourceResult *in);
const char *probe_unavailable_to_string(ProbeUnavailable u); /* "cpuid", "kernel", ...; NULL if out of range */
int probe_unavailable_from_string(const char *s);             /* -EINVAL if none */

/* The word for in's verdict in a table or headline: "unreadable" for a
 * device that is there and cannot be read, "unknown" for a device or seed
 * neither seen nor known absent (their verdict stays unsupported: nothing
 * was probed), the verdict's name otherwise. */
const char *probe_source_verdict_word(const ProbeSourceResult *in);

/* What the running kernel does about the instruction's verdict
 * (verdict_consequence()); broken with nothing delivered is, for the
 * kernel, exhaustion. NULL: not probed, or nothing to say. */
const char *probe_source_consequence(const ProbeSourceResult *in);
