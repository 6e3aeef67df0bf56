/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>

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
                r = kernel_state_read(presence, s->scan, s->scan_userdata, kernel);
                if (r < 0) /* the state says unknown: go on */
                        log_error_errno(r, r == -EBADMSG ? "/proc/cpuinfo has no \"flags\" line, kernel state unknown"
                                                         : "Failed to read /proc/cpuinfo: %m");
        }
        p->presence = presence;
        p->kernel_counters = true;
}

/* -E2BIG from a run (more threads than usable CPUs): the caller is told,
 * and it runs again on all of them. */
static bool capped(int r, ProbeParams *p, const ProbeSequence *s, const cpu_set_t *used) {
        if (r != -E2BIG)
                return false;
        if (s->threads_capped)
                s->threads_capped(p->threads, (unsigned) CPU_COUNT(used), s->userdata);
        p->threads = 0;
        return true;
}

int probe_sequence_run(const ProbeParams *params, const ProbeSequence *s, ProbeReport *ret) {
        RngPresence presence[_RNG_SOURCE_MAX];
        ProbeParams p = *params;
        KernelState kernel;
        int r;

        prepare(&p, s, presence, &kernel);
        r = probe_run_all(&p, &kernel, ret);
        if (capped(r, &p, s, &ret->cpus.used))
                r = probe_run_all(&p, &kernel, ret);
        if (r < 0)
                return r;
        probe_report_name_errata(ret, s->cpu);
        return 0;
}

int probe_sequence_sweep(const ProbeParams *params, const ProbeSequence *s, ProbeSweepReport *ret) {
        RngPresence presence[_RNG_SOURCE_MAX];
        ProbeParams p = *params;
        KernelState kernel;
        int r;

        prepare(&p, s, presence, &kernel);
        r = probe_sweep(&p, &kernel, ret);
        if (capped(r, &p, s, &ret->cpus.used))
                r = probe_sweep(&p, &kernel, ret);
        return r;
}
