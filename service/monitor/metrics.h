/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The daemon's state as Prometheus text exposition format (version 0.0.4,
 * what node_exporter's textfile collector reads). Pure: no I/O; the file
 * is written by metrics-file.h.
 *
 * Metrics (all prefixed rng_health_):
 *   verdict{instruction,verdict}        gauge, stateset style: 1 for the
 *                                       current verdict, 0 for the others
 *   kernel_verdict{instruction,verdict} the kernel watch's verdict per instruction,
 *                                       same style
 *   probe_failure_ratio, probe_values_per_second, probe_kernel_loop_failure_ratio
 *       {instruction,width,mode,threads} gauges: the last probe's runs, where
 *                                       they are evidence: a single run, or a
 *                                       contention run whose threads overlapped
 *                                       (>= 90 %); over its common window
 *   probe_overlap_ratio{instruction,width,threads}
 *                                       gauge: the last contention runs' overlap
 *   probes_total                        counter: probes since the daemon started
 *   probe_{tries,failures,values_over_kernel_retries,kernel_loop_failures}_total
 *       {instruction,width,mode}        counters: summed over every probe since
 *                                       the daemon started (they only grow, so
 *                                       increase()/rate() work across re-probes;
 *                                       a restart is a counter reset)
 *   probe_duration_seconds              gauge: wall time of the last probe
 *   last_probe_timestamp_seconds        gauge: when the last probe ended (Unix time)
 *   kernel_retried_total, kernel_exhausted_total {instruction}
 *                                       counters: the kernel's own (since boot)
 *   info{instruction,version,kernel_retries,confidential_vm,erratum} 1
 * Only counts, verdicts and times: never a value drawn from the hardware. */

#include <stdbool.h>
#include <stdint.h>

#include "kernel-counters.h"
#include "probe.h"

typedef struct MetricsRun {
        bool seen;
        uint64_t tries, failures, values_over_retries, kernel_loop_failures;
        /* the last probe's run of this width and mode */
        bool last;                  /* there was one */
        unsigned threads;
        bool evidence;              /* single, or contended (overlap >= 90 %) */
        double failure_ratio, values_per_sec, loop_failure_ratio, overlap;
} MetricsRun;

typedef struct MetricsInstruction {
        bool selected;              /* in the last probe's Instructions= */
        Verdict verdict;
        uint64_t kernel_retries;
        const char *erratum;        /* static (errata table) id, NULL: none */
        MetricsRun runs[RNG_N_WIDTHS][2]; /* [width index][ProbeMode] */
} MetricsInstruction;

typedef struct Metrics {
        uint64_t probes;            /* probes accumulated */
        uint64_t last_probe_nsec;   /* wall time of the last probe */
        uint64_t last_probe_realtime_usec;
        MetricsInstruction instr[_RNG_INSTRUCTION_MAX];
        bool have_kernel_verdict;
        Verdict kernel_verdict[_RNG_INSTRUCTION_MAX];
        bool have_kernel_counters;
        KernelCounters kernel;
} Metrics;

typedef struct MetricsInfo {
        const char *version;
        const char *confidential_vm; /* "none", "tdx", ..., "forced" */
} MetricsInfo;

/* Adds one finished probe (realtime_usec: CLOCK_REALTIME at its end). */
void metrics_add_probe(Metrics *m, const ProbeReport *r, uint64_t realtime_usec);
/* The kernel watch's per-instruction verdicts (have = false: not reported yet). */
void metrics_set_kernel_verdict(Metrics *m, bool have, const Verdict v[_RNG_INSTRUCTION_MAX]);
/* The kernel's counters; NULL: the kernel has none (lines omitted). */
void metrics_set_kernel_counters(Metrics *m, const KernelCounters *c);

/* The exposition text (newly allocated), NULL on -ENOMEM. With no probe
 * yet only the info-less lines that are known are written. */
char *metrics_format(const Metrics *m, const MetricsInfo *info);

/* Label value escaping of the text format: \ " and newline. Returns the
 * length it needs (like snprintf). */
size_t metrics_escape_label(const char *s, char *buf, size_t len);
