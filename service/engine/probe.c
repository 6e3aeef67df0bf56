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

/* Merges the streams of one run into *ret and judges it. */
static int run_from_streams(const RngSource *src, ProbeMode mode, Stream *streams, unsigned n,
                            uint64_t wall_nsec, const VerdictParams *vp, ProbeRun *ret) {
        _cleanup_free_ uint32_t *lat = NULL;
        size_t n_lat = 0, k = 0;

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
                if (s->draw_nsec > 0)
                        ret->values_per_sec += (double) s->delivered * 1e9 / (double) s->draw_nsec;
                if (m > 0)
                        memcpy(lat + k, s->lat, m * sizeof(uint32_t));
                k += m;
                health_result_merge(&ret->health, &s->health);
        }

        ret->bytes_per_sec = ret->values_per_sec * (src->width / 8);
        ret->failure_rate = ret->attempts ? (double) ret->failures / (double) ret->attempts : 0;
        probe_wilson(ret->failures, ret->attempts, 1.959964, &ret->failure_ci_low, &ret->failure_ci_high);

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
        r = stream_run(src, limits, health, run_retries(src, vp), &st);
        t1 = now_nsec();
        if (r >= 0)
                r = run_from_streams(src, PROBE_SINGLE, &st, 1, t1 - t0, vp, ret);
        stream_done(&st);
        return r;
}

/* One contention run on the pool, merged. */
static int pool_run_merged(Pool *p, const RngSource *const *srcs, const ProbeLimits *limits,
                           const HealthParams *health, const VerdictParams *vp, ProbeRun *ret) {
        _cleanup_free_ Stream *streams = NULL;
        uint64_t wall_nsec;
        unsigned k = 0;

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
        return run_from_streams(srcs[0], PROBE_CONTENTION, streams, k, wall_nsec, vp, ret);
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

int probe_run_all(const ProbeParams *p, const KernelState *kernel, ProbeReport *ret) {
        _cleanup_(pool_freep) Pool *pool = NULL;
        _cleanup_free_ const RngSource **srcs = NULL;
        _cleanup_free_ int *cpus = NULL;
        ProbeSourceFn source = p->source ? p->source : hardware_source;
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

        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                ProbeInstruction *in = &ret->instr[i];

                in->instruction = i;
                in->selected = p->instructions & (1u << i);
                /* Never execute what CPUID does not advertise. */
                in->cpuid = p->cpuid ? p->cpuid[i] : rng_cpuid_supported(i);
                if (!ret->arch_supported && !p->source)
                        in->cpuid = false;
                in->kernel = kernel ? kernel->instr[i]
                                    : (KernelInstructionState) { KERNEL_STATE_UNKNOWN, "not-read", "unknown (not read)" };
                in->verdict = VERDICT_UNSUPPORTED;
                in->kernel_retries = kernel_retries_for(kernel, i, p->verdict.kernel_retries,
                                                        &in->kernel_retries_source, &in->kernel_retries_why);
                if (in->selected && in->cpuid)
                        total += __builtin_popcount(p->widths) * (ret->cpus.contention ? 2 : 1);
        }

        if (ret->cpus.contention) {
                unsigned k = 0;

                cpus = calloc(n_cpus, sizeof(int));
                srcs = calloc(n_cpus, sizeof(RngSource *));
                if (!cpus || !srcs)
                        return -ENOMEM;
                for (int c = 0; c < CPU_SETSIZE && k < n_cpus; c++)
                        if (CPU_ISSET(c, &ret->cpus.used))
                                cpus[k++] = c;
        }

        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                ProbeInstruction *in = &ret->instr[i];
                VerdictParams vp = p->verdict;

                if (!in->selected || !in->cpuid)
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
                        if (p->progress) {
                                ProbeRun announce = { .instruction = i, .width = width, .mode = PROBE_SINGLE, .threads = 1 };
                                p->progress(&announce, index, total, p->progress_userdata);
                        }
                        index++;
                        r = probe_run_single(src, &p->limits, &p->health, &vp, run);
                        if (r < 0)
                                return r;
                        in->n_runs++;
                        in->verdict = verdict_worst(in->verdict, run->verdict);

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
                        if (p->progress) {
                                ProbeRun announce = { .instruction = i, .width = width, .mode = PROBE_CONTENTION, .threads = n_cpus };
                                p->progress(&announce, index, total, p->progress_userdata);
                        }
                        index++;
                        r = pool_run_merged(pool, srcs, &p->limits, &p->health, &vp, run);
                        if (r < 0)
                                return r;
                        for (unsigned t = 0; t < n_cpus; t++)
                                if (pool->workers[t].pin_error != 0)
                                        CPU_SET(cpus[t], &ret->cpus.skipped_pin_failed);
                        in->n_runs++;
                        in->verdict = verdict_worst(in->verdict, run->verdict);
                }
        }

        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++)
                if (ret->instr[i].selected)
                        ret->verdict = verdict_worst(ret->verdict, ret->instr[i].verdict);
        ret->wall_nsec = now_nsec() - t0;
        return 0;
}
