/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdio.h>
#include <sys/utsname.h>

#include "log.h"
#include "probe-errata.h"
#include "probe-sequence.h"

/* The presence of each source and the kernel's view of them, into p. */
static void prepare(ProbeParams *p, const ProbeSequence *s, RngPresence presence[_RNG_SOURCE_MAX],
                    KernelState *kernel) {
        int r;

        probe_detect(p, presence);
        if (s->kernel)
                *kernel = *s->kernel;
        else {
                r = kernel_state_read(presence, s->root, s->scan, s->scan_userdata, s->boot, kernel);
                if (r < 0) /* the state says unknown: go on */
                        log_error_errno(r, r == -EBADMSG ? "/proc/cpuinfo has no \"flags\" line, kernel state unknown"
                                                         : "Failed to read /proc/cpuinfo: %m");
        }
        /* A device or a seed is there where the kernel says so (a test's
         * hook says it itself). */
        if (!p->cpuid)
                FOREACH_RNG_SOURCE(i) {
                        RngSourceKind kind = rng_source_desc(i)->kind;

                        if (kind == RNG_KIND_CPU_INSTRUCTION)
                                continue;
                        presence[i].cpuid = kernel->instr[i].state == KERNEL_STATE_ENABLED;
                        presence[i].executes = presence[i].cpuid && kind == RNG_KIND_HWRNG_DEVICE;
                }
        p->presence = presence;
        p->kernel_counters = true;
}

/* report's probe, or sweep's sweep (the other NULL). */
static int run_once(const ProbeParams *p, const KernelState *kernel, ProbeReport *report, ProbeSweepReport *sweep) {
        return report ? probe_run_all(p, kernel, report) : probe_sweep(p, kernel, sweep);
}

/* After -E2BIG (more threads than usable CPUs) the caller is told, and it
 * runs again on all of them. */
static int run(const ProbeParams *params, const ProbeSequence *s, ProbeReport *report, ProbeSweepReport *sweep) {
        RngPresence presence[_RNG_SOURCE_MAX];
        ProbeParams p = *params;
        KernelState kernel;
        int r;

        prepare(&p, s, presence, &kernel);
        r = run_once(&p, &kernel, report, sweep);
        if (r != -E2BIG)
                return r;
        if (s->threads_capped)
                s->threads_capped(p.threads, (unsigned) CPU_COUNT(report ? &report->cpus.used : &sweep->cpus.used),
                                  s->userdata);
        p.threads = 0;
        return run_once(&p, &kernel, report, sweep);
}

int probe_sequence_run(const ProbeParams *p, const ProbeSequence *s, ProbeReport *ret) {
        struct utsname u;
        int r;

        r = run(p, s, ret, NULL);
        if (r < 0)
                return r;
        probe_report_name_errata(ret, s->cpu);
        /* What the fleet compares machines by, beside the CPU. */
        if (uname(&u) >= 0)
                snprintf(ret->kernel_release, sizeof(ret->kernel_release), "%s", u.release);
        return 0;
}

int probe_sequence_sweep(const ProbeParams *p, const ProbeSequence *s, ProbeSweepReport *ret) {
        return run(p, s, NULL, ret);
}
