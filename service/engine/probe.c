/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The orchestration: runs of streams (probe-stream.c), single or on the
 * thread pool (probe-pool.c), merged into ProbeRuns and judged. */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "probe-pool.h"
#include "probe-stream.h"
#include "probe.h"
#include "time-util.h"

const char *probe_mode_to_string(ProbeMode m) {
        return m == PROBE_SINGLE ? "single" : m == PROBE_CONTENTION ? "contention" : NULL;
}

void probe_params_default(ProbeParams *ret) {
        *ret = (ProbeParams) {
                .instructions = (1u << _RNG_INSTRUCTION_MAX) - 1,
                .widths = (1u << RNG_N_WIDTHS) - 1,
                .threads = 0,
                .limits = PROBE_LIMITS_DEFAULT,
                .health = HEALTH_PARAMS_DEFAULT,
                .verdict = VERDICT_PARAMS_DEFAULT,
        };
}

static int cmp_u32(const void *a, const void *b) {
        uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
        return x < y ? -1 : x > y;
}

/* The tries per kernel loop a run is judged by: vp's, or (0) a stock
 * kernel's for the source's instruction. probe_run_all() passes the running
 * kernel's. */
static uint64_t run_retries(const RngSource *src, const VerdictParams *vp) {
        return kernel_retries_for(NULL, src->instruction, vp->kernel_retries, NULL, NULL);
}

/* The common window of a contention run's streams, the counts in it and
 * the aggregate rate: values delivered in it by all threads, per second of
 * it. */
static void run_window(const Stream *streams, unsigned n, ProbeWindow *w, double *ret_values_per_sec) {
        uint64_t first_min = UINT64_MAX, first_max = 0, last_min = UINT64_MAX, last_max = 0;
        double attempts = 0, failures = 0, loop_failures = 0;

        *w = (ProbeWindow) {};
        for (unsigned i = 0; i < n; i++) {
                first_min = MIN(first_min, streams[i].first_nsec);
                first_max = MAX(first_max, streams[i].first_nsec);
                last_min = MIN(last_min, streams[i].last_nsec);
                last_max = MAX(last_max, streams[i].last_nsec);
        }
        w->span_nsec = last_max > first_min ? last_max - first_min : 0;
        w->nsec = last_min > first_max ? last_min - first_max : 0;
        w->overlap = w->span_nsec > 0 ? (double) w->nsec / (double) w->span_nsec : 1.0;
        if (w->nsec == 0)
                return;
        for (unsigned i = 0; i < n; i++) {
                StreamCounts a = stream_counts_at(&streams[i], first_max), b = stream_counts_at(&streams[i], last_min);

                attempts += b.attempts - a.attempts;
                failures += b.failures - a.failures;
                loop_failures += b.loop_failures - a.loop_failures;
        }
        w->attempts = (uint64_t) llround(attempts);
        w->failures = MIN((uint64_t) llround(failures), w->attempts);
        w->delivered = w->attempts - w->failures;
        w->kernel_loop_failures = (uint64_t) llround(loop_failures);
        *ret_values_per_sec = (attempts - failures) * 1e9 / (double) w->nsec;
}

static double loop_failure_rate(uint64_t loop_failures, uint64_t delivered) {
        return loop_failures + delivered > 0 ? (double) loop_failures / (double) (loop_failures + delivered) : 0;
}

/* Merges the streams of one run into *ret and judges it. */
static int run_from_streams(const RngSource *src, ProbeMode mode, Stream *streams, unsigned n,
                            uint64_t wall_nsec, const VerdictParams *vp, ProbeRun *ret) {
        _cleanup_free_ uint32_t *lat = NULL;
        size_t n_lat = 0, k = 0;
        uint64_t rate_failures, rate_attempts;

        *ret = (ProbeRun) {
                .instruction = src->instruction,
                .width = src->width,
                .mode = mode,
                .threads = n,
                .wall_nsec = wall_nsec,
                .kernel_retries = run_retries(src, vp),
        };

        for (unsigned i = 0; i < n; i++)
                n_lat += MIN(streams[i].n_lat, (uint64_t) LAT_CAP);
        if (n_lat > 0) {
                lat = malloc(sizeof(uint32_t) * n_lat);
                if (!lat)
                        return -ENOMEM;
        }

        for (unsigned i = 0; i < n; i++) {
                Stream *s = &streams[i];
                size_t m = MIN(s->n_lat, (uint64_t) LAT_CAP);

                ret->attempts += s->attempts;
                ret->failures += s->failures;
                ret->delivered += s->delivered;
                ret->longest_failure_streak = MAX(ret->longest_failure_streak, s->longest);
                ret->trailing_failures += s->trailing;
                ret->values_over_retries += s->over_retries;
                ret->kernel_loop_failures += s->loop_failures;
                for (unsigned b = 0; b < PROBE_HIST_BUCKETS; b++)
                        ret->hist[b] += s->hist[b];
                if (m > 0)
                        memcpy(lat + k, s->lat, m * sizeof(uint32_t));
                k += m;
                health_result_merge(&ret->health, &s->health);
        }

        rate_failures = ret->failures;
        rate_attempts = ret->attempts;
        ret->kernel_loop_failure_rate = loop_failure_rate(ret->kernel_loop_failures, ret->delivered);
        if (mode == PROBE_SINGLE) {
                if (streams[0].draw_nsec > 0)
                        ret->values_per_sec = (double) streams[0].delivered * 1e9 / (double) streams[0].draw_nsec;
        } else {
                run_window(streams, n, &ret->window, &ret->values_per_sec);
                ret->contended = ret->window.overlap >= PROBE_MIN_OVERLAP;
                if (ret->window.attempts > 0) {
                        rate_failures = ret->window.failures;
                        rate_attempts = ret->window.attempts;
                        ret->kernel_loop_failure_rate = loop_failure_rate(ret->window.kernel_loop_failures,
                                                                          ret->window.delivered);
                } else if (ret->window.span_nsec > 0)
                        /* Never all at once: values per second of the span. */
                        ret->values_per_sec = (double) ret->delivered * 1e9 / (double) ret->window.span_nsec;
        }
        ret->bytes_per_sec = ret->values_per_sec * (src->width / 8);
        ret->failure_rate = rate_attempts ? (double) rate_failures / (double) rate_attempts : 0;
        probe_wilson(rate_failures, rate_attempts, 1.959964, &ret->failure_ci_low, &ret->failure_ci_high);

        ret->latency_samples = n_lat;
        if (n_lat > 0 && rng_arch_supported()) {
                qsort(lat, n_lat, sizeof(uint32_t), cmp_u32);
                ret->latency_median = lat[(n_lat - 1) / 2];
                ret->latency_p99 = lat[(size_t) ceil(0.99 * (double) n_lat) - 1];
        }

        ret->verdict = verdict_for_run(vp, ret->failures, ret->delivered, ret->kernel_loop_failures,
                                       ret->health.failed);
        return 0;
}

int probe_run_single(const RngSource *src, const ProbeLimits *limits, const HealthParams *health,
                     const VerdictParams *vp, ProbeRun *ret) {
        Stream st;
        uint64_t t0, t1;
        int r;

        if (!src || !limits || !health || !vp || !ret)
                return -EINVAL;
        t0 = now_nsec();
        r = stream_run(src, limits, health, run_retries(src, vp), 0, &st);
        t1 = now_nsec();
        if (r >= 0)
                r = run_from_streams(src, PROBE_SINGLE, &st, 1, t1 - t0, vp, ret);
        stream_done(&st);
        if (r >= 0) {
                ret->start_nsec = t0;
                ret->end_nsec = t1;
        }
        return r;
}

/* One contention run on the pool, merged. */
static int pool_run_merged(Pool *p, const RngSource *const *srcs, const ProbeLimits *limits,
                           const HealthParams *health, const VerdictParams *vp, ProbeRun *ret) {
        _cleanup_free_ Stream *streams = NULL;
        uint64_t wall_nsec, t0;
        unsigned k = 0;
        int r;

        t0 = now_nsec();
        wall_nsec = pool_run(p, srcs, limits, health, run_retries(srcs[0], vp));

        streams = calloc(p->n, sizeof(Stream));
        if (!streams)
                return -ENOMEM;
        /* Threads that could not be pinned are left out (reported by the caller). */
        for (unsigned i = 0; i < p->n; i++) {
                Worker *w = &p->workers[i];

                if (w->pin_error != 0)
                        continue;
                if (w->stream.error < 0)
                        return w->stream.error;
                streams[k++] = w->stream;
        }
        if (k == 0)
                return -ESRCH;
        r = run_from_streams(srcs[0], PROBE_CONTENTION, streams, k, wall_nsec, vp, ret);
        if (r >= 0) {
                ret->start_nsec = t0;
                ret->end_nsec = t0 + wall_nsec;
        }
        return r;
}

int probe_run_contention(const RngSource *const *srcs, const int *cpus, unsigned n,
                         const ProbeLimits *limits, const HealthParams *health,
                         const VerdictParams *vp, ProbeRun *ret) {
        _cleanup_(pool_freep) Pool *p = NULL;
        int r;

        if (!srcs || n == 0 || !limits || !health || !vp || !ret)
                return -EINVAL;
        r = pool_new(cpus, n, &p);
        if (r < 0)
                return r;
        return pool_run_merged(p, srcs, limits, health, vp, ret);
}

static const RngSource *hardware_source(RngInstruction i, unsigned width, unsigned thread, void *u) {
        return rng_source_hardware(i, width);
}

static ProbeSourceFn params_source(const ProbeParams *p) {
        return p->source ?: hardware_source;
}

void probe_detect(const ProbeParams *p, RngPresence ret[_RNG_INSTRUCTION_MAX]) {
        ProbeSourceFn source = params_source(p);
        unsigned width = 64;

        for (int w = 0; w < RNG_N_WIDTHS; w++)
                if (p->widths & (1u << w)) {
                        width = rng_widths[w];
                        break;
                }
        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                const RngSource *src;

                ret[i] = (RngPresence) { .cpuid = p->cpuid ? p->cpuid[i] : rng_cpuid_supported(i) };
                /* Off x86-64 nothing is executed: only scripted sources. */
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

static int contention_run(const ProbeParams *p, Pool *pool, const RngSource *const *srcs,
                          const VerdictParams *vp, ProbeRun *ret) {
        KernelCounters before = {};
        bool have_before = false;
        int r;

        read_counters(p, &have_before, &before);
        r = pool_run_merged(pool, srcs, &p->limits, &p->health, vp, ret);
        if (r < 0)
                return r;
        if (have_before) {
                ret->kernel_before = before;
                read_counters(p, &ret->have_kernel_counters, &ret->kernel_after);
        }
        return 0;
}

static void init_instruction(const ProbeParams *p, const KernelState *kernel, const RngPresence *presence,
                             RngInstruction i, ProbeInstruction *in) {
        *in = (ProbeInstruction) {
                .instruction = i,
                .selected = p->instructions & (1u << i),
                .cpuid = presence->cpuid,
                .executes = presence->executes,
                .kernel = kernel ? kernel->instr[i]
                                 : (KernelInstructionState) { KERNEL_STATE_UNKNOWN, "not-read", "unknown (not read)",
                                                              KERNEL_REASON_NONE },
                .verdict = VERDICT_UNSUPPORTED,
                .hardware_verdict = VERDICT_UNSUPPORTED,
        };
        in->kernel_retries = kernel_retries_for(kernel, i, p->verdict.kernel_retries, &in->kernel_retries_source,
                                                &in->kernel_retries_why);
}

/* The used CPUs as a list, at most n. */
static int cpus_list(const ProbeCpus *c, unsigned n, int **ret) {
        _cleanup_free_ int *cpus = calloc(MAX(n, 1u), sizeof(int));
        unsigned k = 0;

        if (!cpus)
                return -ENOMEM;
        for (int c_ = 0; c_ < CPU_SETSIZE && k < n; c_++)
                if (CPU_ISSET(c_, &c->used))
                        cpus[k++] = c_;
        *ret = TAKE_PTR(cpus);
        return (int) k;

}

static void announce(const ProbeParams *p, RngInstruction i, unsigned width, ProbeMode mode, unsigned threads,
                     unsigned index, unsigned total) {
        ProbeRun a = { .instruction = i, .width = width, .mode = mode, .threads = threads };

        if (p->progress)
                p->progress(&a, index, total, p->progress_userdata);
}

int probe_run_all(const ProbeParams *p, const KernelState *kernel, ProbeReport *ret) {
        _cleanup_(pool_freep) Pool *pool = NULL;
        _cleanup_free_ const RngSource **srcs = NULL;
        _cleanup_free_ int *cpus = NULL;
        ProbeSourceFn source = params_source(p);
        RngPresence presence[_RNG_INSTRUCTION_MAX];
        unsigned n_cpus = 0, total = 0, index = 0;
        uint64_t t0 = now_nsec();
        int r;

        if (p->instructions == 0 || p->widths == 0 || (p->instructions >> _RNG_INSTRUCTION_MAX) ||
            (p->widths >> RNG_N_WIDTHS))
                return -EINVAL;

        *ret = (ProbeReport) {
                .arch_supported = rng_arch_supported(),
                .kernel_log = kernel ? kernel->log : KERNEL_LOG_NOT_NEEDED,
                .limits = p->limits,
                .health = p->health,
                .verdict_params = p->verdict,
                .verdict = VERDICT_UNSUPPORTED,
        };

        r = probe_cpus_discover(p->threads, &ret->cpus);
        if (r < 0)
                return r;
        n_cpus = CPU_COUNT(&ret->cpus.used);
        ret->cpus.contention = p->threads != 1 && n_cpus >= 2;

        if (p->presence)
                memcpy(presence, p->presence, sizeof(presence));
        else
                probe_detect(p, presence);
        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                ProbeInstruction *in = &ret->instr[i];

                init_instruction(p, kernel, &presence[i], i, in);
                if (in->selected && in->executes)
                        total += __builtin_popcount(p->widths) * (ret->cpus.contention ? 2 : 1);
        }

        if (ret->cpus.contention) {
                r = cpus_list(&ret->cpus, n_cpus, &cpus);
                if (r < 0)
                        return r;
                srcs = calloc(n_cpus, sizeof(RngSource *));
                if (!srcs)
                        return -ENOMEM;
        }

        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                ProbeInstruction *in = &ret->instr[i];
                VerdictParams vp = p->verdict;

                if (!in->selected || !in->executes)
                        continue;
                vp.kernel_retries = in->kernel_retries;

                for (int w = 0; w < RNG_N_WIDTHS; w++) {
                        unsigned width = rng_widths[w];
                        const RngSource *src;
                        ProbeRun *run;

                        if (!(p->widths & (1u << w)))
                                continue;

                        src = source(i, width, 0, p->source_userdata);
                        if (!src)
                                return -EOPNOTSUPP;

                        run = &in->runs[in->n_runs];
                        announce(p, i, width, PROBE_SINGLE, 1, index++, total);
                        r = probe_run_single(src, &p->limits, &p->health, &vp, run);
                        if (r < 0)
                                return r;
                        in->n_runs++;
                        in->hardware_verdict = verdict_worst(in->hardware_verdict, run->verdict);

                        if (!ret->cpus.contention)
                                continue;

                        for (unsigned t = 0; t < n_cpus; t++) {
                                srcs[t] = source(i, width, t, p->source_userdata);
                                if (!srcs[t])
                                        return -EOPNOTSUPP;
                        }
                        if (!pool) {
                                r = pool_new(cpus, n_cpus, &pool);
                                if (r < 0)
                                        return r;
                        }
                        run = &in->runs[in->n_runs];
                        announce(p, i, width, PROBE_CONTENTION, n_cpus, index++, total);
                        r = contention_run(p, pool, srcs, &vp, run);
                        if (r < 0)
                                return r;
                        for (unsigned t = 0; t < n_cpus; t++)
                                if (pool->workers[t].pin_error != 0)
                                        CPU_SET(cpus[t], &ret->cpus.skipped_pin_failed);
                        in->n_runs++;
                        in->contention_runs++;
                        in->contended_runs += run->contended;
                        in->hardware_verdict = verdict_worst(in->hardware_verdict, run->verdict);
                }
                in->verdict = in->cpuid ? in->hardware_verdict : VERDICT_HIDDEN;
        }

        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++)
                if (ret->instr[i].selected)
                        ret->verdict = verdict_worst(ret->verdict, ret->instr[i].verdict);
        ret->wall_nsec = now_nsec() - t0;
        return 0;
}

unsigned probe_sweep_points(unsigned n, unsigned ret[PROBE_SWEEP_MAX_POINTS]) {
        unsigned k = 0;

        for (unsigned t = 1; t < n && k < PROBE_SWEEP_MAX_POINTS - 1; t *= 2)
                ret[k++] = t;
        if (n > 0)
                ret[k++] = n;
        return k;
}

/* One instruction and width at each thread count. */
static int sweep_one(const ProbeParams *p, const int *cpus, const unsigned *points, unsigned n_points,
                     RngInstruction i, unsigned width, const VerdictParams *vp, ProbeSweep *sw) {
        ProbeSourceFn source = params_source(p);
        unsigned max = points[n_points - 1];
        _cleanup_free_ const RngSource **srcs = calloc(max, sizeof(RngSource *));
        int r;

        if (!srcs)
                return -ENOMEM;
        *sw = (ProbeSweep) { .instruction = i, .width = width, .kernel_retries = vp->kernel_retries };
        for (unsigned t = 0; t < max; t++) {
                srcs[t] = source(i, width, t, p->source_userdata);
                if (!srcs[t])
                        return -EOPNOTSUPP;
        }
        for (unsigned k = 0; k < n_points; k++) {
                _cleanup_(pool_freep) Pool *pool = NULL;

                announce(p, i, width, PROBE_CONTENTION, points[k], k, n_points);
                r = pool_new(cpus, points[k], &pool);
                if (r < 0)
                        return r;
                r = contention_run(p, pool, srcs, vp, &sw->points[k]);
                if (r < 0)
                        return r;
                sw->n_points++;
        }
        return 0;
}

int probe_sweep(const ProbeParams *p, const KernelState *kernel, ProbeSweepReport *ret) {
        _cleanup_free_ int *cpus = NULL;
        unsigned points[PROBE_SWEEP_MAX_POINTS], n_points, n_cpus;
        uint64_t t0 = now_nsec();
        int r;

        if (p->instructions == 0 || p->widths == 0 || (p->instructions >> _RNG_INSTRUCTION_MAX) ||
            (p->widths >> RNG_N_WIDTHS))
                return -EINVAL;
        *ret = (ProbeSweepReport) { .limits = p->limits };
        r = probe_cpus_discover(p->threads, &ret->cpus);
        if (r < 0)
                return r;
        n_cpus = CPU_COUNT(&ret->cpus.used);
        ret->cpus.contention = n_cpus >= 2;
        r = cpus_list(&ret->cpus, n_cpus, &cpus);
        if (r < 0)
                return r;
        n_points = probe_sweep_points((unsigned) r, points);
        if (n_points == 0)
                return -ESRCH;

        if (p->presence)
                memcpy(ret->presence, p->presence, sizeof(ret->presence));
        else
                probe_detect(p, ret->presence);

        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                ProbeInstruction in;
                VerdictParams vp = p->verdict;

                init_instruction(p, kernel, &ret->presence[i], i, &in);
                ret->selected[i] = in.selected;
                ret->kernel[i] = in.kernel;
                if (!in.selected || !in.executes)
                        continue;
                vp.kernel_retries = in.kernel_retries;
                for (int w = 0; w < RNG_N_WIDTHS; w++) {
                        if (!(p->widths & (1u << w)))
                                continue;
                        r = sweep_one(p, cpus, points, n_points, i, rng_widths[w], &vp,
                                      &ret->sweeps[ret->n_sweeps]);
                        if (r < 0)
                                return r;
                        ret->n_sweeps++;
                }
        }
        ret->wall_nsec = now_nsec() - t0;
        return 0;
}
