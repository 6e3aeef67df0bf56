/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The probe as the program runs it, one sequence for `rng-health probe`
 * and the daemon alike: detect the sources (probe_detect()), read the
 * kernel's view of them (kernel_state_read(); an unreadable
 * /proc/cpuinfo is logged here and the probe goes on; a source that is no
 * CPU instruction is there where the kernel's view says so), run with the
 * kernel's counters read around the contention runs (again on every
 * usable CPU if more threads were asked for than there are), name
 * the errata the result matches, and note the kernel's release (uname). */

#include "cpu-id.h"
#include "kernel-state.h"
#include "probe.h"

typedef struct ProbeSequence {
        /* The kernel's view to judge by; NULL: read it, with scan (NULL:
         * /dev/kmsg) for the kernel log, and /sys below root (NULL: /). */
        const KernelState *kernel;
        KernelLogScanFn scan;
        void *scan_userdata;
        const char *root;
        /* This boot's kernel log records on the seeds and the CRNG, where
         * the caller knows them already (NULL: read them). */
        const KernelBootLog *boot;
        /* The CPU's identity, for the errata; NULL: unknown, no erratum
         * named (a probe run; a sweep names none). */
        const CpuId *cpu;
        /* More threads were asked for than CPUs are usable: called with
         * both counts before the probe runs again on all of them, for the
         * caller to say so in its own words (NULL: said nowhere). */
        void (*threads_capped)(unsigned requested, unsigned usable, void *userdata);
        void *userdata;
} ProbeSequence;

/* p as given, with the presence detected and the kernel's counters read
 * (p->presence and p->kernel_counters are set here). */
int probe_sequence_run(const ProbeParams *p, const ProbeSequence *s, ProbeReport *ret);
int probe_sequence_sweep(const ProbeParams *p, const ProbeSequence *s, ProbeSweepReport *ret);
