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
 *   info{instruction,version,kernel_retries,confidential_vm,cpu_vendor,cpu_family,
 *        cpu_model,cpu_stepping,cpu_microcode,erratum_status,erratum} 1
 * A contention run made within one package (socket) has a package label
 * too (probe_failure_ratio and the other gauges of a run, overlap_ratio).
 * Only counts, verdicts and times: never a value drawn from the hardware. */

#include <stdbool.h>
#include <stdint.h>

#include "kernel-counters.h"
#include "probe.h"

/* What only the metrics keep: the counters summed over every probe, per
 * instruction, width and mode. The last probe's figures (verdicts, gauges)
 * are read from its report, the kernel's from the kernel watch's report:
 * MetricsInfo. */
typedef struct MetricsRun {
        bool seen;
        uint64_t tries, failures, values_over_retries, kernel_loop_failures;
} MetricsRun;

typedef struct Metrics {
        uint64_t probes;            /* probes accumulated */
        uint64_t last_probe_realtime_usec;
        MetricsRun runs[_RNG_SOURCE_MAX][RNG_N_WIDTHS][2]; /* [width index][ProbeMode] */
} Metrics;

typedef struct MetricsInfo {
        const char *version;
        const char *confidential_vm;          /* "none", "tdx", ..., "forced" */
        const ProbeReport *probe;             /* the last probe added; NULL: none */
        const Verdict *kernel_verdict;        /* [_RNG_SOURCE_MAX]; NULL: the kernel watch has not reported */
        const KernelCounters *kernel_counters; /* NULL: the kernel has none (lines omitted) */
        const KernelBootLog *crng;            /* this boot's CRNG; NULL: not known */
        const uint64_t *vm_forks;             /* the kernel watch's count; NULL: it has not reported */
} MetricsInfo;

/* Adds one finished probe's counts (realtime_usec: CLOCK_REALTIME at its
 * end). */
void metrics_add_probe(Metrics *m, const ProbeReport *r, uint64_t realtime_usec);

/* The exposition text (newly allocated), NULL on -ENOMEM. With no probe
 * yet only the lines that are known are written. */
char *metrics_format(const Metrics *m, const MetricsInfo *info);

/* Label value escaping of the text format: \ " and newline. Returns the
 * length it needs (like snprintf). */
size_t metrics_escape_label(const char *s, char *buf, size_t len);
