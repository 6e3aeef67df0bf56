/* SPDX-License-Identifier: GPL-2.0-or-later */

/* `rng-health probe --sweep`: each selected instruction and width at 1, 2,
 * 4, ... threads on each group of CPUs, on probe_run_all()'s frame
 * (probe-run-all.h). */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "probe-run-all.h"
#include "time-util.h"

unsigned probe_sweep_points(unsigned n, unsigned ret[PROBE_SWEEP_MAX_POINTS]) {
        unsigned k = 0;

        for (unsigned t = 1; t < n && k < PROBE_SWEEP_MAX_POINTS - 1; t *= 2)
                ret[k++] = t;
        if (n > 0)
                ret[k++] = n;
        return k;
}

/* One instruction and width at each thread count, on one group's CPUs. */
static int sweep_one(const ProbeParams *p, const int *cpus, const unsigned *points, unsigned n_points,
                     RngSourceId i, unsigned width, int package, const VerdictParams *vp, ProbeSweep *sw) {
        ProbeSourceFn source = probe_params_source(p);
        unsigned max = points[n_points - 1];
        _cleanup_free_ const RngSource **srcs = calloc(max, sizeof(RngSource *));
        int r;

        if (!srcs)
                return -ENOMEM;
        *sw = (ProbeSweep) { .instruction = i, .width = width, .package = package, .kernel_retries = vp->kernel_retries };
        for (unsigned t = 0; t < max; t++) {
                srcs[t] = source(i, width, t, p->source_userdata);
                if (!srcs[t])
                        return -EOPNOTSUPP;
        }
        for (unsigned k = 0; k < n_points; k++) {
                _cleanup_(pool_freep) Pool *pool = NULL;

                r = probe_run_begin(p, i, width, PROBE_CONTENTION, points[k], k, n_points);
                if (r < 0)
                        return r;
                r = pool_new(cpus, points[k], &pool);
                if (r < 0)
                        return r;
                r = probe_contention_run(p, pool, srcs, vp, &sw->points[k]);
                if (r < 0)
                        return r;
                sw->points[k].package = package;
                sw->n_points++;
        }
        return 0;
}

/* Every selected width of source i on every group. */
static int sweep_source(const ProbeParams *p, RunAll *a, RngSourceId i, const VerdictParams *vp,
                        ProbeSweepReport *ret) {
        for (int w = 0; w < RNG_N_WIDTHS; w++) {
                if (!(p->widths & rng_source_desc(i)->widths & (1u << w)))
                        continue;
                for (unsigned g = 0; g < a->n_groups; g++) {
                        unsigned points[PROBE_SWEEP_MAX_POINTS], n_points;
                        int r;

                        n_points = probe_sweep_points(a->groups[g].n_cpus, points);
                        r = sweep_one(p, a->groups[g].cpus, points, n_points, i, rng_widths[w], a->groups[g].package,
                                      vp, &ret->sweeps[ret->n_sweeps]);
                        if (r < 0)
                                return r;
                        ret->n_sweeps++;
                }
        }
        return 0;
}

int probe_sweep(const ProbeParams *p, const KernelState *kernel, ProbeSweepReport *ret) {
        _cleanup_(run_all_done) RunAll a = { .p = p };
        uint64_t t0 = now_nsec();
        int r;

        if (p->instructions == 0 || p->widths == 0 || (p->instructions >> _RNG_SOURCE_MAX) ||
            (p->widths >> RNG_N_WIDTHS))
                return -EINVAL;
        *ret = (ProbeSweepReport) { .limits = probe_limits_effective(&p->limits) };
        r = probe_cpus_discover(p->threads, &ret->cpus);
        if (r < 0)
                return r;
        probe_cpus_packages(p->sysfs_root, &ret->cpus);
        r = run_all_groups_init(&a, &ret->cpus);
        if (r < 0)
                return r;
        ret->cpus.contention = a.n_groups > 0;
        /* Not even one group of 2 CPUs: the single thread, on the first
         * used CPU, is the sweep's one point. */
        if (a.n_groups == 0) {
                int cpu = -1;

                for (int c = 0; c < CPU_SETSIZE && cpu < 0; c++)
                        if (CPU_ISSET(c, &ret->cpus.used))
                                cpu = c;
                if (cpu < 0)
                        return -ESRCH;
                a.groups[0] = (RunGroup) { .package = ret->cpus.n_packages > 0 ? ret->cpus.package_id[0] : -1,
                                           .n_cpus = 1, .cpus = calloc(1, sizeof(int)) };
                a.n_groups = 1;
                if (!a.groups[0].cpus)
                        return -ENOMEM;
                a.groups[0].cpus[0] = cpu;
        }

        if (p->presence)
                memcpy(ret->presence, p->presence, sizeof(ret->presence));
        else
                probe_detect(p, ret->presence);

        FOREACH_RNG_SOURCE(i) {
                const RngSourceDesc *d = rng_source_desc(i);
                ProbeSourceResult in;
                VerdictParams vp = p->verdict;

                probe_source_result_init(p, kernel, &ret->presence[i], i, &in);
                ret->selected[i] = in.selected;
                ret->kernel[i] = in.kernel;
                /* A sweep is of contention runs: sources without them have none. */
                if (!in.selected || !in.executes || !d->contention)
                        continue;
                vp.kernel_retries = in.kernel_retries;
                r = sweep_source(p, &a, i, &vp, ret);
                if (r < 0)
                        return r;
        }
        ret->wall_nsec = now_nsec() - t0;
        return 0;
}
