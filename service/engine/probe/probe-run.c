/* SPDX-License-Identifier: GPL-2.0-or-later */

/* One run: streams (probe-stream.c), single or on the thread pool
 * (probe-pool.c), merged into a ProbeRun and judged. */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "probe-run.h"
#include "time-util.h"

static int cmp_u32(const void *a, const void *b) {
        uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
        return x < y ? -1 : x > y;
}

/* The tries per kernel loop a run is judged by: vp's, or (0) a stock
 * kernel's for the source's instruction. probe_run_all() passes the running
 * kernel's. Derived once per run, at its start. */
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

/* Merges the streams of one run into *ret and judges it by a kernel loop
 * of `retries` tries. */
static int run_from_streams(const RngSource *src, ProbeMode mode, Stream *streams, unsigned n,
                            uint64_t wall_nsec, const VerdictParams *vp, uint64_t retries, ProbeRun *ret) {
        _cleanup_free_ uint32_t *lat = NULL;
        size_t n_lat = 0, k = 0;
        uint64_t rate_failures, rate_attempts;

        *ret = (ProbeRun) {
                .instruction = src->instruction,
                .width = src->width,
                .mode = mode,
                .threads = n,
                .package = -1, /* the caller's to say */
                .wall_nsec = wall_nsec,
                .kernel_retries = retries,
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
                ret->trailing_over_retries += s->trailing >= ret->kernel_retries;
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
        uint64_t t0, t1, retries;
        Stream st;
        int r;

        if (!src || !limits || !health || !vp || !ret)
                return -EINVAL;
        retries = run_retries(src, vp);
        t0 = now_nsec();
        r = stream_run(src, limits, health, retries, 0, &st);
        t1 = now_nsec();
        if (r >= 0 && st.stopped)
                r = -ECANCELED;
        if (r >= 0)
                r = run_from_streams(src, PROBE_SINGLE, &st, 1, t1 - t0, vp, retries, ret);
        stream_done(&st);
        if (r >= 0) {
                ret->start_nsec = t0;
                ret->end_nsec = t1;
        }
        return r;
}

int probe_run_on_pool(Pool *p, const RngSource *const *srcs, const ProbeLimits *limits,
                      const HealthParams *health, const VerdictParams *vp, ProbeRun *ret) {
        _cleanup_free_ Stream *streams = NULL;
        uint64_t wall_nsec, t0, retries = run_retries(srcs[0], vp);
        unsigned k = 0;
        int r;

        t0 = now_nsec();
        r = pool_run(p, srcs, limits, health, retries, &wall_nsec);
        if (r < 0)
                return r;

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
                if (w->stream.stopped)
                        return -ECANCELED;
                streams[k++] = w->stream;
        }
        if (k == 0)
                return -ESRCH;
        r = run_from_streams(srcs[0], PROBE_CONTENTION, streams, k, wall_nsec, vp, retries, ret);
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
        return probe_run_on_pool(p, srcs, limits, health, vp, ret);
}
