/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The orchestration: which runs to make (probe-run.c makes each), with
 * what sources and on which CPUs, and the report; the sweep is
 * probe-sweep.c's, on the same frame (probe-run-all.h). */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fail-on.h"
#include "macro.h"
#include "probe-run-all.h"
#include "probe-run.h"
#include "probe-summary.h"
#include "probe.h"
#include "time-util.h"

const char *probe_mode_to_string(ProbeMode m) {
        return m == PROBE_SINGLE ? "single" : m == PROBE_CONTENTION ? "contention" : NULL;
}

static const RngSource *hardware_source(RngSourceId i, unsigned width, unsigned thread, void *u) {
        return rng_source_hardware(i, width);
}

ProbeSourceFn probe_params_source(const ProbeParams *p) {
        return p->source ?: hardware_source;
}

/* The first width of mask (64 where it has none). */
static unsigned first_width(unsigned mask) {
        for (int w = 0; w < RNG_N_WIDTHS; w++)
                if (mask & (1u << w))
                        return rng_widths[w];
        return 64;
}

void probe_detect(const ProbeParams *p, RngPresence ret[_RNG_SOURCE_MAX]) {
        ProbeSourceFn source = probe_params_source(p);

        FOREACH_RNG_SOURCE(i) {
                /* The first selected width the source has (a 64-bit register: 64 only),
                 * else its first. */
                unsigned widths = rng_source_desc(i)->widths;
                unsigned width = first_width(p->widths & widths ? p->widths & widths : widths);
                const RngSource *src;

                if (rng_source_desc(i)->kind != RNG_KIND_CPU_INSTRUCTION) {
                        /* There or not: the kernel's view says (or the test's hook). */
                        ret[i] = (RngPresence) { .cpuid = p->cpuid && p->cpuid[i] };
                        ret[i].executes = ret[i].cpuid && rng_source_desc(i)->kind == RNG_KIND_HWRNG_DEVICE;
                        continue;
                }
                ret[i] = (RngPresence) { .cpuid = p->cpuid ? p->cpuid[i] : rng_source_advertised(i) };
                /* Without draw code nothing is executed: only scripted sources. */
                if (!rng_arch_supported() && !p->source)
                        ret[i].cpuid = false;
                if (ret[i].cpuid) {
                        ret[i].executes = true;
                        continue;
                }
                src = rng_arch_supported() || p->source ? source(i, width, 0, p->source_userdata) : NULL;
                if (!src)
                        continue;
                ret[i].tried = true;
                ret[i].executes = rng_source_executes(src) > 0;
        }
}

/* The kernel's counters around a contention run, where it has them. */
static void read_counters(const ProbeParams *p, bool *have, KernelCounters *c) {
        if (p->kernel_counters)
                *have = kernel_counters_read(p->sysfs_root, c) >= 0;
}

int probe_contention_run(const ProbeParams *p, Pool *pool, const RngSource *const *srcs, const VerdictParams *vp,
                         ProbeRun *ret) {
        KernelCounters before = {};
        bool have_before = false;
        int r;

        read_counters(p, &have_before, &before);
        r = probe_run_on_pool(pool, srcs, &p->limits, &p->health, vp, ret);
        if (r < 0)
                return r;
        if (have_before) {
                ret->kernel_before = before;
                read_counters(p, &ret->have_kernel_counters, &ret->kernel_after);
        }
        return 0;
}

void probe_source_result_init(const ProbeParams *p, const KernelState *kernel, const RngPresence *presence,
                              RngSourceId i, ProbeSourceResult *in) {
        *in = (ProbeSourceResult) {
                .instruction = i,
                .selected = p->instructions & (1u << i),
                .cpuid = presence->cpuid,
                .executes = presence->executes,
                .kernel = kernel ? kernel->instr[i]
                                 : (KernelSourceState) { .state = KERNEL_STATE_UNKNOWN, .reason_id = "not-read",
                                                         .reason = "unknown (not read)" },
                .verdict = VERDICT_UNSUPPORTED,
                .hardware_verdict = VERDICT_UNSUPPORTED,
        };
        in->kernel_retries = kernel_retries_for(kernel, i, p->verdict.kernel_retries, &in->kernel_retries_source,
                                                &in->kernel_retries_why);
}

/* The CPUs of a set as a list, at most n. */
static int cpus_list(const cpu_set_t *set, unsigned n, int **ret) {
        _cleanup_free_ int *cpus = calloc(MAX(n, 1u), sizeof(int));
        unsigned k = 0;

        if (!cpus)
                return -ENOMEM;
        for (int c = 0; c < CPU_SETSIZE && k < n; c++)
                if (CPU_ISSET(c, set))
                        cpus[k++] = c;
        *ret = TAKE_PTR(cpus);
        return (int) k;
}

int probe_run_begin(const ProbeParams *p, RngSourceId i, unsigned width, ProbeMode mode, unsigned threads,
                    unsigned index, unsigned total) {
        ProbeRun a = { .instruction = i, .width = width, .mode = mode, .threads = threads };

        /* A probe told to stop starts nothing more (a run also asks while
         * it draws). */
        if (p->limits.stop && p->limits.stop(p->limits.stop_userdata))
                return -ECANCELED;
        if (p->progress)
                p->progress(&a, index, total, p->progress_userdata);
        return 0;
}

void run_all_done(RunAll *a) {
        for (unsigned g = 0; g < a->n_groups; g++) {
                pool_free(a->groups[g].pool);
                free(a->groups[g].cpus);
        }
        free(a->srcs);
}

/* The contention runs' groups of c into a (their CPU lists), and the
 * sources array for the largest. */
int run_all_groups_init(RunAll *a, const ProbeCpus *c) {
        cpu_set_t sets[PROBE_PACKAGES_MAX];
        int packages[PROBE_PACKAGES_MAX];
        unsigned n = probe_cpus_groups(c, sets, packages), max = 0;

        for (unsigned g = 0; g < n; g++) {
                RunGroup *rg = &a->groups[a->n_groups++];
                int r;

                rg->package = packages[g];
                r = cpus_list(&sets[g], (unsigned) CPU_COUNT(&sets[g]), &rg->cpus);
                if (r < 0)
                        return r;
                rg->n_cpus = (unsigned) r;
                max = MAX(max, rg->n_cpus);
        }
        if (n == 0)
                return 0;
        a->srcs = calloc(max, sizeof(RngSource *));
        return a->srcs ? 0 : -ENOMEM;
}

/* The report's frame: parameters, CPUs and their packages, and per
 * instruction what it is (presence, kernel state, the kernel's retries)
 * before any run. */
static int report_init(RunAll *a, const KernelState *kernel, ProbeReport *ret) {
        const ProbeParams *p = a->p;
        RngPresence presence[_RNG_SOURCE_MAX];
        int r;

        *ret = (ProbeReport) {
                .arch_supported = rng_arch_supported(),
                .kernel_log = kernel ? kernel->log : KERNEL_LOG_NOT_NEEDED,
                .limits = probe_limits_effective(&p->limits),
                .health = p->health,
                .verdict_params = p->verdict,
                .verdict = VERDICT_UNSUPPORTED,
                .confidential_vm = p->confidential_vm,
                .boot = kernel ? kernel->boot : (KernelBootLog) {},
        };
        r = probe_cpus_discover(p->threads, &ret->cpus);
        if (r < 0)
                return r;
        probe_cpus_packages(p->sysfs_root, &ret->cpus);
        if (p->threads != 1) {
                r = run_all_groups_init(a, &ret->cpus);
                if (r < 0)
                        return r;
        }
        ret->cpus.contention = a->n_groups > 0;

        if (p->presence)
                memcpy(presence, p->presence, sizeof(presence));
        else
                probe_detect(p, presence);
        FOREACH_RNG_SOURCE(i) {
                const RngSourceDesc *d = rng_source_desc(i);
                ProbeSourceResult *in = &ret->instr[i];

                probe_source_result_init(p, kernel, &presence[i], i, in);
                if (in->selected && in->executes)
                        a->total += d->kind == RNG_KIND_HWRNG_DEVICE ? 1 :
                                    __builtin_popcount(p->widths & d->widths) *
                                    (1 + (d->contention ? a->n_groups : 0));
        }
        return 0;
}

static int add_run(ProbeSourceResult *in, int r) {
        if (r < 0)
                return r;
        in->hardware_verdict = verdict_worst(in->hardware_verdict, in->runs[in->n_runs].verdict);
        in->n_runs++;
        return 0;
}

/* One width of an instruction: its single run, then a contention run per
 * group of CPUs (package). */
static int run_width(RunAll *a, ProbeReport *report, ProbeSourceResult *in, const VerdictParams *vp, unsigned width) {
        const ProbeParams *p = a->p;
        RngSourceId i = in->instruction;
        const RngSource *src;
        int r;

        src = a->source(i, width, 0, p->source_userdata);
        if (!src)
                return -EOPNOTSUPP;
        r = probe_run_begin(p, i, width, PROBE_SINGLE, 1, a->index++, a->total);
        if (r < 0)
                return r;
        r = add_run(in, probe_run_single(src, &p->limits, &p->health, vp, &in->runs[in->n_runs]));
        if (r < 0 || !rng_source_desc(i)->contention)
                return r;

        for (unsigned g = 0; g < a->n_groups; g++) {
                RunGroup *rg = &a->groups[g];
                ProbeRun *run = &in->runs[in->n_runs];

                for (unsigned t = 0; t < rg->n_cpus; t++) {
                        a->srcs[t] = a->source(i, width, t, p->source_userdata);
                        if (!a->srcs[t])
                                return -EOPNOTSUPP;
                }
                if (!rg->pool) {
                        r = pool_new(rg->cpus, rg->n_cpus, &rg->pool);
                        if (r < 0)
                                return r;
                }
                r = probe_run_begin(p, i, width, PROBE_CONTENTION, rg->n_cpus, a->index++, a->total);
                if (r < 0)
                        return r;
                r = probe_contention_run(p, rg->pool, a->srcs, vp, run);
                run->package = rg->package;
                r = add_run(in, r);
                if (r < 0)
                        return r;
                for (unsigned t = 0; t < rg->n_cpus; t++)
                        if (rg->pool->workers[t].pin_error != 0)
                                CPU_SET(rg->cpus[t], &report->cpus.skipped_pin_failed);
                in->contention_runs++;
                in->contended_runs += run->contended;
        }
        return 0;
}

/* A device's one run; a device that cannot be read is not probed (its
 * error kept), which fails nothing else. */
static int run_device(RunAll *a, ProbeSourceResult *in) {
        const ProbeParams *p = a->p;
        const RngSource *src = a->source(in->instruction, 64, 0, p->source_userdata);
        int r;

        if (!src || !src->read)
                return -EOPNOTSUPP;
        r = probe_run_begin(p, in->instruction, 64, PROBE_SINGLE, 1, a->index++, a->total);
        if (r < 0)
                return r;
        r = probe_run_device(src, &p->limits, &p->health, &in->runs[in->n_runs]);
        if (r == -ENOMEM || r == -EINVAL)
                return r;
        if (r < 0) {
                in->read_error = r;
                return 0;
        }
        return add_run(in, 0);
}

/* The verdict of a source that is no CPU instruction: its run's (a device),
 * or whether it is there (a seed, a device not read); then, on a
 * confidential VM, host-fed where the host controls it and the kernel
 * credits it. */
static Verdict other_verdict(const ProbeParams *p, const ProbeSourceResult *in) {
        const KernelCredit *c = &in->kernel.credit;
        Verdict v = in->n_runs > 0 ? in->hardware_verdict
                    : in->cpuid && rng_source_desc(in->instruction)->kind == RNG_KIND_BOOT_SEED ? VERDICT_OK
                                                                                               : VERDICT_UNSUPPORTED;

        if (p->confidential_vm && in->cpuid && c->known && c->credited && c->host_fed)
                v = verdict_worst(v, VERDICT_HOST_FED);
        return v;
}

int probe_run_all(const ProbeParams *p, const KernelState *kernel, ProbeReport *ret) {
        _cleanup_(run_all_done) RunAll a = { .p = p, .source = probe_params_source(p) };
        uint64_t t0 = now_nsec();
        int r;

        if (p->instructions == 0 || p->widths == 0 || (p->instructions >> _RNG_SOURCE_MAX) ||
            (p->widths >> RNG_N_WIDTHS))
                return -EINVAL;
        r = report_init(&a, kernel, ret);
        if (r < 0)
                return r;

        FOREACH_RNG_SOURCE(i) {
                const RngSourceDesc *d = rng_source_desc(i);
                ProbeSourceResult *in = &ret->instr[i];
                unsigned widths = p->widths & d->widths;
                VerdictParams vp = p->verdict;

                if (!in->selected)
                        continue;
                if (d->kind != RNG_KIND_CPU_INSTRUCTION) {
                        if (d->kind == RNG_KIND_HWRNG_DEVICE && in->executes) {
                                r = run_device(&a, in);
                                if (r < 0)
                                        return r;
                        }
                        in->verdict = other_verdict(p, in);
                        continue;
                }
                if (!in->executes)
                        continue;
                vp.kernel_retries = in->kernel_retries;
                for (int w = 0; w < RNG_N_WIDTHS; w++) {
                        if (!(widths & (1u << w)))
                                continue;
                        r = run_width(&a, ret, in, &vp, rng_widths[w]);
                        if (r < 0)
                                return r;
                }
                in->verdict = in->cpuid ? in->hardware_verdict : VERDICT_HIDDEN;
        }

        FOREACH_RNG_SOURCE(i) {
                /* The figures every consumer shows, summed once. */
                probe_source_summarize(&ret->instr[i]);
                if (ret->instr[i].selected)
                        ret->verdict = verdict_worst(ret->verdict, ret->instr[i].verdict);
        }
        ret->wall_nsec = now_nsec() - t0;
        return 0;
}

int probe_report_exit_status(const ProbeReport *r, const FailOn *strict) {
        Verdict v[_RNG_SOURCE_MAX];
        unsigned selected = 0;

        FOREACH_RNG_SOURCE(i) {
                v[i] = r->instr[i].verdict;
                if (r->instr[i].selected)
                        selected |= 1u << i;
        }
        return fail_on_exit_status(strict, v, selected);
}

_Static_assert(POOL_START_TIMEOUT_NSEC == 250000000ull && POOL_FINISH_GRACE_NSEC == 10000000000ull,
               "probe_error_to_string() says 250 ms and 10 s");

const char *probe_error_to_string(int r) {
        if (r == -ETIMEDOUT)
                return "a contention run's threads did not all start within 250 ms, or did not finish 10 s after "
                       "its budget: the run was given up";
        if (r == -ECANCELED)
                return "stopped on request (SIGTERM or SIGINT)";
        return strerror(-r);
}
