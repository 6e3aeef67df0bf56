/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Internal to the probe: the frame probe_run_all() (probe.c) and
 * probe_sweep() (probe-sweep.c) share: the groups of CPUs of the
 * contention runs, their pools, and the steps both take. */

#include "probe-pool.h"
#include "probe.h"

/* A group of CPUs the contention runs use (probe_cpus_groups()): a
 * package, or all used CPUs where the packages are unknown; its pool is
 * made at its first run. */
typedef struct RunGroup {
        int package;
        unsigned n_cpus;
        int *cpus;
        Pool *pool;
} RunGroup;

/* What probe_run_all() carries from run to run: the groups and the
 * sources of the contention runs, and the progress. */
typedef struct RunAll {
        const ProbeParams *p;
        ProbeSourceFn source;
        unsigned n_groups;
        RunGroup groups[PROBE_PACKAGES_MAX];
        const RngSource **srcs; /* [the largest group] */
        unsigned index, total;
} RunAll;

/* Frees the groups' pools and lists. */
void run_all_done(RunAll *a);
/* The contention runs' groups of c into a (their CPU lists), and the
 * sources array for the largest. */
int run_all_groups_init(RunAll *a, const ProbeCpus *c);
/* p's sources: its own (tests) or the hardware's. */
ProbeSourceFn probe_params_source(const ProbeParams *p);
/* Before each run: -ECANCELED where p's stop hook says stop (ProbeLimits),
 * else tells p's progress callback that the run begins. */
int probe_run_begin(const ProbeParams *p, RngSourceId i, unsigned width, ProbeMode mode, unsigned threads,
                    unsigned index, unsigned total);
/* One contention run on pool, the kernel's counters read around it. */
int probe_contention_run(const ProbeParams *p, Pool *pool, const RngSource *const *srcs, const VerdictParams *vp,
                         ProbeRun *ret);
/* A source's result before any run: selected, present, the kernel's view
 * and retries. */
void probe_source_result_init(const ProbeParams *p, const KernelState *kernel, const RngPresence *presence,
                              RngSourceId i, ProbeSourceResult *in);
