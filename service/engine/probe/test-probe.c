/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The probe engine against scripted sources: exact counters, histogram,
 * streak and verdict; contention runs; CPUID gating; power of the default
 * budget. */

#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "macro.h"
#include "probe-pool.h"
#include "probe-run.h"
#include "probe.h"
#include "probe-summary.h"
#include "scripted-source.h"
#include "test-util.h"

static const HealthParams hp = HEALTH_PARAMS_DEFAULT;
/* The loop arithmetic below is for the kernel's 10-try loop (set, not the
 * default 0 = the running kernel's: test_kernel_relative covers that). */
static const VerdictParams vp = { .kernel_retries = 10, .degraded_min_failures = 1, .exhausted_min_loop_failures = 1 };

/* Deterministic limits: no time budget, a fixed number of tries. */
static ProbeLimits count_limits(uint64_t n) {
        return (ProbeLimits) { .budget_usec = 0, .max_attempts = n, .min_attempts = 0 };
}

static uint64_t hist_sum(const ProbeRun *r) {
        uint64_t s = 0;

        for (unsigned b = 0; b < PROBE_HIST_BUCKETS; b++)
                s += r->hist[b];
        return s;
}

static void check_invariants(const ProbeRun *r, const char *what) {
        CHECK(r->attempts == r->failures + r->delivered, "%s: attempts != failures + delivered", what);
        CHECK(hist_sum(r) == r->delivered, "%s: histogram sums to %" PRIu64 ", delivered %" PRIu64, what,
              hist_sum(r), r->delivered);
        CHECK(r->health.samples == r->delivered, "%s: health saw %" PRIu64 " values", what, r->health.samples);
        CHECK(r->failure_ci_low <= r->failure_rate && r->failure_rate <= r->failure_ci_high, "%s: CI", what);
        CHECK(r->longest_failure_streak <= r->failures, "%s: streak > failures", what);
}

static void test_histogram_buckets(void) {
        CHECK_EQ_INT(probe_hist_bucket(1), 0);
        CHECK_EQ_INT(probe_hist_bucket(10), 9);
        CHECK_EQ_INT(probe_hist_bucket(11), 10);
        CHECK_EQ_INT(probe_hist_bucket(16), 10);
        CHECK_EQ_INT(probe_hist_bucket(17), 11);
        CHECK_EQ_INT(probe_hist_bucket(256), 14);
        CHECK_EQ_INT(probe_hist_bucket(257), 15);
        CHECK_EQ_INT(probe_hist_bucket(UINT64_MAX), 15);
        CHECK_EQ_U64(probe_hist_max(10), 16);
        CHECK_EQ_U64(probe_hist_max(15), UINT64_MAX);
        for (unsigned b = 0; b < PROBE_HIST_BUCKETS; b++) {
                CHECK_EQ_INT(probe_hist_bucket(probe_hist_min[b]), b);
                if (b + 1 < PROBE_HIST_BUCKETS)
                        CHECK_EQ_INT(probe_hist_bucket(probe_hist_max(b)), b);
        }
}

static void test_wilson(void) {
        double lo, hi;

        /* Reference values (Wilson score, z = 1.959964). */
        probe_wilson(0, 4096, 1.959964, &lo, &hi);
        CHECK(lo == 0 && fabs(hi - 0.000937) < 2e-6, "0/4096: [%g, %g]", lo, hi);
        probe_wilson(30, 100, 1.959964, &lo, &hi);
        CHECK(fabs(lo - 0.2189) < 1e-4 && fabs(hi - 0.3958) < 1e-4, "30/100: [%g, %g]", lo, hi);
        probe_wilson(100, 100, 1.959964, &lo, &hi);
        CHECK(hi == 1 && fabs(lo - 0.9630) < 1e-4, "100/100: [%g, %g]", lo, hi);
        probe_wilson(0, 0, 1.959964, &lo, &hi);
        CHECK(lo == 0 && hi == 1, "0/0");
}

static void test_healthy(void) {
        ProbeLimits l = count_limits(4096);
        Script s;
        ProbeRun r;

        for (unsigned w = 16; w <= 64; w *= 2) {
                script_init(&s, SCRIPT_HEALTHY, w, 0, 0, 0, 42 + w);
                CHECK_EQ_INT(probe_run_single(&s.source, &l, &hp, &vp, &r), 0);
                check_invariants(&r, "healthy");
                CHECK_EQ_U64(r.attempts, 4096);
                CHECK_EQ_U64(r.failures, 0);
                CHECK_EQ_U64(r.hist[0], 4096);
                CHECK_EQ_U64(r.longest_failure_streak, 0);
                CHECK_EQ_U64(r.kernel_loop_failures, 0);
                CHECK(r.health.failed == 0, "width %u healthy failed 0x%x", w, r.health.failed);
                CHECK_EQ_INT(r.verdict, VERDICT_OK);
                CHECK(r.latency_samples >= 4096 / 256 && r.latency_samples <= 4096 / 64, "latency samples %" PRIu64, r.latency_samples);
                CHECK(r.latency_median <= r.latency_p99, "latency order");
                CHECK(r.values_per_sec > 0 && r.bytes_per_sec == r.values_per_sec * w / 8, "rates");
        }
}

static void test_always_fail(void) {
        ProbeLimits l = count_limits(4096);
        Script s;
        ProbeRun r;

        script_init(&s, SCRIPT_ALWAYS_FAIL, 64, 0, 0, 0, 1);
        CHECK_EQ_INT(probe_run_single(&s.source, &l, &hp, &vp, &r), 0);
        check_invariants(&r, "always-fail");
        CHECK_EQ_U64(r.failures, 4096);
        CHECK_EQ_U64(r.delivered, 0);
        CHECK_EQ_U64(r.longest_failure_streak, 4096);
        CHECK_EQ_U64(r.trailing_failures, 4096);
        CHECK_EQ_U64(r.kernel_loop_failures, 409);
        CHECK_EQ_U64(r.values_over_retries, 0);
        CHECK(r.failure_rate == 1 && r.failure_ci_high == 1, "rate");
        CHECK(r.health.failed == HEALTH_EMPTY, "failed 0x%x", r.health.failed);
        /* Nothing delivered is no value that passes for random: every call
         * of the kernel's loop fails, exhausted. */
        CHECK_EQ_INT(r.verdict, VERDICT_EXHAUSTED);
}

/* Trailing streaks are per thread: two threads that each end on 6 failed
 * tries are no 10-try loop that ran out, though the summed trailing
 * failures (12) pass 10; one thread ending on 10 is. */
static void test_trailing_per_thread(void) {
        ProbeLimits l = count_limits(8 * 100 + 6);
        const RngSource *srcs[2];
        Script s[2];
        ProbeRun r;

        for (unsigned i = 0; i < 2; i++) {
                script_init(&s[i], SCRIPT_BURSTS, 64, 0, 6, 2, i);
                srcs[i] = &s[i].source;
        }
        CHECK_EQ_INT(probe_run_contention(srcs, NULL, 2, &l, &hp, &vp, &r), 0);
        check_invariants(&r, "trailing 6+6");
        CHECK_EQ_U64(r.trailing_failures, 12);
        CHECK_EQ_U64(r.trailing_over_retries, 0);
        CHECK_EQ_U64(r.values_over_retries, 0);
        CHECK_EQ_U64(probe_run_retry_exhausted(&r), 0);

        l = count_limits(16 * 100 + 10);
        script_init(&s[0], SCRIPT_BURSTS, 64, 0, 10, 6, 0);
        script_init(&s[1], SCRIPT_HEALTHY, 64, 0, 0, 0, 1);
        CHECK_EQ_INT(probe_run_contention(srcs, NULL, 2, &l, &hp, &vp, &r), 0);
        check_invariants(&r, "trailing 10+0");
        CHECK_EQ_U64(r.trailing_failures, 10);
        CHECK_EQ_U64(r.trailing_over_retries, 1);
        CHECK_EQ_U64(probe_run_retry_exhausted(&r), r.values_over_retries + 1);
}

static void test_bursts(void) {
        ProbeLimits l = count_limits(4096);
        Script s;
        ProbeRun r;

        /* 12 failures then 20 values, 128 times. */
        script_init(&s, SCRIPT_BURSTS, 32, 0, 12, 20, 3);
        CHECK_EQ_INT(probe_run_single(&s.source, &l, &hp, &vp, &r), 0);
        check_invariants(&r, "bursts");
        CHECK_EQ_U64(r.failures, 128 * 12);
        CHECK_EQ_U64(r.delivered, 128 * 20);
        CHECK_EQ_U64(r.longest_failure_streak, 12);
        CHECK_EQ_U64(r.hist[probe_hist_bucket(13)], 128); /* 12 failures + 1 */
        CHECK_EQ_U64(r.hist[0], 128 * 19);
        CHECK_EQ_U64(r.values_over_retries, 128);
        CHECK_EQ_U64(r.kernel_loop_failures, 128);
        CHECK_EQ_U64(r.trailing_failures, 0);
        CHECK_EQ_INT(r.verdict, VERDICT_EXHAUSTED);

        /* Bursts of 9: every value within 10 tries -> degraded, not exhausted. */
        script_init(&s, SCRIPT_BURSTS, 32, 0, 9, 23, 3);
        CHECK_EQ_INT(probe_run_single(&s.source, &l, &hp, &vp, &r), 0);
        CHECK_EQ_U64(r.hist[9], 128);
        CHECK_EQ_U64(r.kernel_loop_failures, 0);
        CHECK_EQ_INT(r.verdict, VERDICT_DEGRADED);

        /* Exactly 10 failures before a value: the 11th try is one too many. */
        script_init(&s, SCRIPT_BURSTS, 32, 0, 10, 22, 3);
        CHECK_EQ_INT(probe_run_single(&s.source, &l, &hp, &vp, &r), 0);
        CHECK_EQ_U64(r.hist[probe_hist_bucket(11)], 128);
        CHECK_EQ_U64(r.kernel_loop_failures, 128);
        CHECK_EQ_INT(r.verdict, VERDICT_EXHAUSTED);
}

/* 30 % random failures: counters against an independent replay. */
static void test_random_fail(void) {
        ProbeLimits l = count_limits(4096);
        uint64_t seed = 99, fails = 0, streak = 0, longest = 0, loop = 0, hist[PROBE_HIST_BUCKETS] = {};
        Script s;
        ProbeRun r;

        for (unsigned i = 0; i < 4096; i++) {
                bool ok = splitmix64_double(&seed) >= 0.3;

                (void) splitmix64(&seed);
                if (ok) {
                        hist[probe_hist_bucket(streak + 1)]++;
                        loop += streak / 10;
                        streak = 0;
                } else {
                        fails++;
                        streak++;
                        longest = streak > longest ? streak : longest;
                }
        }
        loop += streak / 10;

        script_init(&s, SCRIPT_RANDOM_FAIL, 64, 0.3, 0, 0, 99);
        CHECK_EQ_INT(probe_run_single(&s.source, &l, &hp, &vp, &r), 0);
        check_invariants(&r, "random-30");
        CHECK_EQ_U64(r.failures, fails);
        CHECK_EQ_U64(r.longest_failure_streak, longest);
        CHECK_EQ_U64(r.kernel_loop_failures, loop);
        for (unsigned b = 0; b < PROBE_HIST_BUCKETS; b++)
                CHECK(r.hist[b] == hist[b], "bucket %u: %" PRIu64 " != %" PRIu64, b, r.hist[b], hist[b]);
        CHECK(r.failure_ci_low < 0.3 && 0.3 < r.failure_ci_high, "CI [%g, %g] misses 0.3", r.failure_ci_low,
              r.failure_ci_high);
        CHECK_EQ_INT(r.verdict, loop > 0 ? VERDICT_EXHAUSTED : VERDICT_DEGRADED);
        CHECK(r.health.failed == 0, "random-30 output checks failed 0x%x", r.health.failed);
}

static void test_stuck_and_patterns(void) {
        ProbeLimits l = count_limits(64);
        Script s;
        ProbeRun r;

        /* Stuck at 0: broken within 64 values, at every width. */
        for (unsigned w = 16; w <= 64; w *= 2) {
                script_init(&s, SCRIPT_STUCK, w, 0, 0, 0, 1);
                CHECK_EQ_INT(probe_run_single(&s.source, &l, &hp, &vp, &r), 0);
                CHECK_EQ_U64(r.delivered, 64);
                CHECK(r.health.failed & HEALTH_STUCK_ZERO, "width %u: 0x%x", w, r.health.failed);
                CHECK_EQ_INT(r.verdict, VERDICT_BROKEN);
        }

        /* All ones after 1000 values (AMD 15h/16h after resume). */
        l = count_limits(1064);
        script_init(&s, SCRIPT_ONES_AFTER, 64, 0, 1000, 0, 5);
        CHECK_EQ_INT(probe_run_single(&s.source, &l, &hp, &vp, &r), 0);
        CHECK(r.health.failed & HEALTH_STUCK_ONES, "ones-after: 0x%x", r.health.failed);
        CHECK(r.health.failed & HEALTH_ONES_RATE, "ones-after: no ones-rate");
        CHECK_EQ_U64(r.health.all_ones, 64);
        CHECK_EQ_INT(r.verdict, VERDICT_BROKEN);

        /* Zero with CF=1 at 10 % (Zen5 RDSEED16/32). */
        l = count_limits(4096);
        for (unsigned w = 16; w <= 32; w *= 2) {
                script_init(&s, SCRIPT_ZERO_RATE, w, 0.1, 0, 0, 11);
                CHECK_EQ_INT(probe_run_single(&s.source, &l, &hp, &vp, &r), 0);
                CHECK_EQ_U64(r.failures, 0);
                CHECK(r.health.failed & HEALTH_ZERO_RATE, "zen5 width %u: 0x%x", w, r.health.failed);
                CHECK(r.health.zeros > 300 && r.health.zeros < 520, "zeros %" PRIu64, r.health.zeros);
                CHECK_EQ_INT(r.verdict, VERDICT_BROKEN);
        }
}

/* One stuck bit line, at every width and in both directions: broken by the
 * bit-balance check in a default-sized run, naming the bit; no other check
 * (the values are otherwise uniform) and no other bit. */
static void test_stuck_bit(void) {
        ProbeLimits l = PROBE_LIMITS_DEFAULT;
        Script s;
        ProbeRun r;

        l.budget_usec = 0;
        for (unsigned w = 16; w <= 64; w *= 2)
                for (uint64_t level = 0; level <= 1; level++) {
                        uint64_t bit = w - 3;

                        script_init(&s, SCRIPT_STUCK_BIT, w, 0, bit, level, 21 + w);
                        CHECK_EQ_INT(probe_run_single(&s.source, &l, &hp, &vp, &r), 0);
                        CHECK_EQ_U64(r.delivered, l.max_attempts);
                        CHECK_EQ_INT(r.health.failed, HEALTH_BIT_BALANCE);
                        CHECK_EQ_U64(r.health.failed_bits, UINT64_C(1) << bit);
                        CHECK_EQ_U64(r.health.bit_ones[bit], level ? r.delivered : 0);
                        CHECK_EQ_INT(r.verdict, VERDICT_BROKEN);
                }
}

static void test_limits(void) {
        ProbeLimits l = { .budget_usec = 1, .max_attempts = 0, .min_attempts = 1000 };
        struct timespec a, b;
        Script s;
        ProbeRun r;

        /* The minimum is taken even when the time budget is spent at once. */
        script_init(&s, SCRIPT_HEALTHY, 64, 0, 0, 0, 1);
        CHECK_EQ_INT(probe_run_single(&s.source, &l, &hp, &vp, &r), 0);
        CHECK(r.attempts >= 1000 && r.attempts <= 1000 + 256, "attempts %" PRIu64, r.attempts);

        /* A time budget alone stops the run near it. */
        l = (ProbeLimits) { .budget_usec = 20000, .max_attempts = 0, .min_attempts = 0 };
        clock_gettime(CLOCK_MONOTONIC, &a);
        CHECK_EQ_INT(probe_run_single(&s.source, &l, &hp, &vp, &r), 0);
        clock_gettime(CLOCK_MONOTONIC, &b);
        double ms = (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
        CHECK(ms >= 20 && ms < 1000, "20 ms budget took %.1f ms", ms);
        CHECK(r.attempts > 0, "no attempts");
        check_invariants(&r, "budget");

        /* max_attempts is never exceeded. */
        l = (ProbeLimits) { .budget_usec = 1000000, .max_attempts = 100, .min_attempts = 1024 };
        CHECK_EQ_INT(probe_run_single(&s.source, &l, &hp, &vp, &r), 0);
        CHECK_EQ_U64(r.attempts, 100);
}

static void test_contention(void) {
        ProbeLimits l = count_limits(4096);
        Script s[4];
        const RngSource *srcs[4];
        int cpus[4];
        cpu_set_t allowed;
        unsigned n = 0;
        ProbeRun r;

        /* Unpinned: 3 healthy streams and one bursty one. */
        for (unsigned i = 0; i < 4; i++) {
                if (i == 3)
                        script_init(&s[i], SCRIPT_BURSTS, 64, 0, 12, 20, i);
                else
                        script_init(&s[i], SCRIPT_HEALTHY, 64, 0, 0, 0, 100 + i);
                srcs[i] = &s[i].source;
        }
        CHECK_EQ_INT(probe_run_contention(srcs, NULL, 4, &l, &hp, &vp, &r), 0);
        check_invariants(&r, "contention");
        CHECK_EQ_INT(r.mode, PROBE_CONTENTION);
        CHECK_EQ_U64(r.threads, 4);
        CHECK_EQ_U64(r.attempts, 4 * 4096);
        CHECK_EQ_U64(r.failures, 128 * 12);
        CHECK_EQ_U64(r.longest_failure_streak, 12);
        CHECK_EQ_U64(r.kernel_loop_failures, 128);
        CHECK_EQ_INT(r.verdict, VERDICT_EXHAUSTED);
        CHECK(r.health.failed == 0, "contention health 0x%x", r.health.failed);

        /* Pinned to the CPUs we may use. */
        CHECK(sched_getaffinity(0, sizeof(allowed), &allowed) == 0, "sched_getaffinity");
        for (int c = 0; c < CPU_SETSIZE && n < 4; c++)
                if (CPU_ISSET(c, &allowed))
                        cpus[n++] = c;
        for (unsigned i = 0; i < n; i++) {
                script_init(&s[i], SCRIPT_HEALTHY, 32, 0, 0, 0, 200 + i);
                srcs[i] = &s[i].source;
        }
        CHECK_EQ_INT(probe_run_contention(srcs, cpus, n, &l, &hp, &vp, &r), 0);
        CHECK_EQ_U64(r.attempts, n * 4096);
        CHECK_EQ_INT(r.verdict, VERDICT_OK);
}

/* probe_run_all with the source hook: CPUID gating and instruction verdicts. */
typedef struct Hook {
        Script scripts[2][3];
        unsigned calls[2];
} Hook;

static const RngSource *hook_source(RngSourceId i, unsigned width, unsigned thread, void *userdata) {
        Hook *h = userdata;
        int w = rng_width_index(width);

        h->calls[i]++;
        return &h->scripts[i][w].source;
}

static void test_run_all(void) {
        const bool cpuid[_RNG_SOURCE_MAX] = { true, false };
        ProbeParams p;
        ProbeReport rep;
        Hook h = {};

        for (int w = 0; w < 3; w++) {
                script_init(&h.scripts[0][w], w == 1 ? SCRIPT_BURSTS : SCRIPT_HEALTHY, rng_widths[w], 0, 3, 5, w);
                script_init(&h.scripts[1][w], SCRIPT_SIGILL, rng_widths[w], 0, 0, 0, w);
        }
        probe_params_default(&p);
        p.threads = 1;
        p.limits = count_limits(2048);
        p.source = hook_source;
        p.source_userdata = &h;
        p.cpuid = cpuid;

        CHECK_EQ_INT(probe_run_all(&p, NULL, &rep), 0);
        CHECK(!rep.cpus.contention, "contention with --threads 1");
        CHECK_EQ_U64(rep.instr[0].n_runs, 3);
        CHECK_EQ_INT(rep.instr[0].verdict, VERDICT_DEGRADED);
        /* CPUID lacks RDSEED and it raises SIGILL: one guarded try of the
         * first width's source, caught; no run; unsupported. */
        CHECK_EQ_U64(h.calls[1], 1);
        CHECK_EQ_U64(h.scripts[1][0].tries, 1);
        CHECK_EQ_U64(h.scripts[1][1].tries + h.scripts[1][2].tries, 0);
        CHECK_EQ_U64(rep.instr[1].n_runs, 0);
        CHECK(!rep.instr[1].executes, "SIGILL source executes");
        CHECK_EQ_INT(rep.instr[1].verdict, VERDICT_UNSUPPORTED);
        CHECK_EQ_INT(rep.verdict, VERDICT_DEGRADED);

        /* CPUID lacks RDSEED but it executes (hidden, e.g. Zen5): probed, its
         * runs keep their verdicts, the instruction's verdict is hidden and
         * the worst run's is its hardware verdict; the whole probe's
         * verdict is RDRAND's. */
        for (int w = 0; w < 3; w++)
                script_init(&h.scripts[1][w], SCRIPT_RANDOM_FAIL, rng_widths[w], 0.95, 0, 0, w);
        h.calls[1] = 0;
        CHECK_EQ_INT(probe_run_all(&p, NULL, &rep), 0);
        CHECK(rep.instr[1].executes && !rep.instr[1].cpuid, "hidden: executes, not in CPUID");
        CHECK_EQ_U64(rep.instr[1].n_runs, 3);
        CHECK_EQ_U64(h.scripts[1][0].tries, 1 + 2048); /* the guarded try, then the run */
        CHECK_EQ_INT(rep.instr[1].hardware_verdict, VERDICT_EXHAUSTED);
        CHECK_EQ_INT(rep.instr[1].verdict, VERDICT_HIDDEN);
        CHECK_EQ_INT(rep.verdict, VERDICT_DEGRADED);
        CHECK(rep.instr[1].runs[0].failure_rate > 0.9, "hidden failure rate %g", rep.instr[1].runs[0].failure_rate);

        /* Hidden and RDRAND absent: the probe's verdict is hidden. */
        for (int w = 0; w < 3; w++)
                script_init(&h.scripts[0][w], SCRIPT_SIGILL, rng_widths[w], 0, 0, 0, w);
        p.cpuid = (const bool[_RNG_SOURCE_MAX]) { false, false };
        CHECK_EQ_INT(probe_run_all(&p, NULL, &rep), 0);
        p.cpuid = cpuid;
        CHECK_EQ_INT(rep.instr[0].verdict, VERDICT_UNSUPPORTED);
        CHECK_EQ_INT(rep.verdict, VERDICT_HIDDEN);
        CHECK_EQ_INT(probe_report_exit_status(&rep, NULL), 0);
        for (int w = 0; w < 3; w++)
                script_init(&h.scripts[0][w], w == 1 ? SCRIPT_BURSTS : SCRIPT_HEALTHY, rng_widths[w], 0, 3, 5, w);

        /* Select one width and instruction. */
        p.instructions = 1u << RNG_SOURCE_RDRAND;
        p.widths = 1u << 2;
        CHECK_EQ_INT(probe_run_all(&p, NULL, &rep), 0);
        CHECK_EQ_U64(rep.instr[0].n_runs, 1);
        CHECK_EQ_U64(rep.instr[0].runs[0].width, 64);
        CHECK(!rep.instr[1].selected, "rdseed selected");

        /* Invalid selections are refused. */
        p.widths = 0;
        CHECK(probe_run_all(&p, NULL, &rep) == -EINVAL, "empty width mask accepted");
        p.widths = 1u << 3;
        CHECK(probe_run_all(&p, NULL, &rep) == -EINVAL, "bad width mask accepted");

        /* More threads than CPUs. */
        p.widths = 1;
        p.threads = CPU_SETSIZE;
        CHECK(probe_run_all(&p, NULL, &rep) == -E2BIG, "too many threads accepted");
}

/* Contention runs through probe_run_all: one pool, reused for every width,
 * one scripted source per thread. Needs 2 usable CPUs. */
typedef struct ThreadHook {
        Script scripts[2][3][2];
        unsigned calls[2][3][2];
} ThreadHook;

static const RngSource *thread_source(RngSourceId i, unsigned width, unsigned thread, void *userdata) {
        ThreadHook *h = userdata;
        int w = rng_width_index(width);

        if (thread >= 2)
                return NULL;
        h->calls[i][w][thread]++;
        return &h->scripts[i][w][thread].source;
}

static void test_run_all_contention(void) {
        const bool cpuid[_RNG_SOURCE_MAX] = { true, true };
        ProbeParams p;
        ProbeReport rep;
        static ThreadHook h;

        for (int i = 0; i < 2; i++)
                for (int w = 0; w < 3; w++)
                        for (int t = 0; t < 2; t++)
                                script_init(&h.scripts[i][w][t],
                                            i == 1 && w == 0 && t == 1 ? SCRIPT_STUCK : SCRIPT_HEALTHY,
                                            rng_widths[w], 0, 0x77, 0, 10 * i + w + 100 * t);
        probe_params_default(&p);
        p.threads = 2;
        p.limits = count_limits(1000);
        p.source = thread_source;
        p.source_userdata = &h;
        p.cpuid = cpuid;

        CHECK_EQ_INT(probe_run_all(&p, NULL, &rep), 0);
        CHECK(rep.cpus.contention, "no contention run");
        CHECK_EQ_INT(CPU_COUNT(&rep.cpus.used), 2);
        for (int i = 0; i < 2; i++) {
                CHECK_EQ_U64(rep.instr[i].n_runs, 6);
                for (unsigned j = 0; j < rep.instr[i].n_runs; j++) {
                        const ProbeRun *r = &rep.instr[i].runs[j];

                        check_invariants(r, "run_all contention");
                        CHECK_EQ_U64(r->threads, r->mode == PROBE_CONTENTION ? 2 : 1);
                        CHECK_EQ_U64(r->attempts, r->threads * 1000);
                }
                for (int w = 0; w < 3; w++) {
                        /* Thread 0's source serves the single run too. */
                        CHECK_EQ_U64(h.calls[i][w][0], 2);
                        CHECK_EQ_U64(h.calls[i][w][1], 1);
                        CHECK_EQ_U64(h.scripts[i][w][0].tries, 2000);
                        CHECK_EQ_U64(h.scripts[i][w][1].tries, 1000);
                }
        }
        /* Thread 1 of RDSEED 16-bit was stuck: only its contention run is broken. */
        CHECK_EQ_INT(rep.instr[0].verdict, VERDICT_OK);
        CHECK_EQ_INT(rep.instr[1].runs[0].verdict, VERDICT_OK);
        CHECK_EQ_INT(rep.instr[1].runs[1].mode, PROBE_CONTENTION);
        CHECK_EQ_INT(rep.instr[1].runs[1].verdict, VERDICT_BROKEN);
        CHECK_EQ_INT(rep.instr[1].verdict, VERDICT_BROKEN);
        CHECK_EQ_INT(rep.verdict, VERDICT_BROKEN);
}


/* A fixture sysfs below a new temporary root: CPU cpus[k] in package
 * pkgs[k] (a string: "3\n", or anything malformed; NULL: no file). Returns
 * the root (static buffer), removed by topology_done(). */
static char topology_root[64];

static const char *topology_fixture(const int *cpus, const char *const *pkgs, unsigned n) {
        char cmd[256];

        snprintf(topology_root, sizeof(topology_root), "/tmp/test-probe-topo.XXXXXX");
        if (!mkdtemp(topology_root))
                abort();
        for (unsigned k = 0; k < n; k++) {
                char path[256];
                FILE *f;

                snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/devices/system/cpu/cpu%d/topology", topology_root, cpus[k]);
                if (system(cmd) != 0)
                        abort();
                if (!pkgs[k])
                        continue;
                snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
                         topology_root, cpus[k]);
                f = fopen(path, "we");
                if (!f || fputs(pkgs[k], f) < 0 || fclose(f) != 0)
                        abort();
        }
        return topology_root;
}

static void topology_done(void) {
        char cmd[128];

        snprintf(cmd, sizeof(cmd), "rm -rf %s", topology_root);
        if (system(cmd) != 0)
                abort();
}

static ProbeCpus cpus_of(const int *cpus, unsigned n) {
        ProbeCpus c = {};

        for (unsigned k = 0; k < n; k++)
                CPU_SET(cpus[k], &c.used);
        return c;
}

/* The packages of the used CPUs from sysfs, and the contention runs'
 * groups: one per package of >= 2 CPUs; unknown or bad topology: one
 * group of all, and why. */
static void test_packages(void) {
        const int cpus[] = { 0, 1, 2, 3, 5 };
        cpu_set_t sets[PROBE_PACKAGES_MAX];
        int pk[PROBE_PACKAGES_MAX];
        ProbeCpus c;

        /* QEMU's -smp 4,sockets=2 (and CPU 5, alone in package 7) */
        topology_fixture(cpus, (const char *const[]) { "0\n", "0\n", "1\n", "1\n", "7\n" }, 5);
        c = cpus_of(cpus, 5);
        probe_cpus_packages(topology_root, &c);
        CHECK_EQ_INT(c.topology_error, 0);
        CHECK_EQ_U64(c.n_packages, 3);
        CHECK_EQ_INT(c.package_id[0], 0);
        CHECK_EQ_INT(c.package_id[1], 1);
        CHECK_EQ_INT(c.package_id[2], 7);
        CHECK(CPU_ISSET(0, &c.package_cpus[0]) && CPU_ISSET(1, &c.package_cpus[0]) && CPU_COUNT(&c.package_cpus[0]) == 2,
              "package 0's CPUs");
        CHECK(CPU_ISSET(2, &c.package_cpus[1]) && CPU_ISSET(3, &c.package_cpus[1]) && CPU_COUNT(&c.package_cpus[1]) == 2,
              "package 1's CPUs");
        /* package 7 has one CPU: no contention run there */
        CHECK_EQ_U64(probe_cpus_groups(&c, sets, pk), 2);
        CHECK_EQ_INT(pk[0], 0);
        CHECK_EQ_INT(pk[1], 1);
        CHECK(CPU_EQUAL(&sets[1], &c.package_cpus[1]), "group 1");
        /* only the used CPUs are read: CPU 4 has no topology here */
        c = cpus_of((const int[]) { 2, 3 }, 2);
        probe_cpus_packages(topology_root, &c);
        CHECK_EQ_U64(c.n_packages, 1);
        CHECK_EQ_INT(c.package_id[0], 1);
        c = cpus_of((const int[]) { 3, 4 }, 2);
        probe_cpus_packages(topology_root, &c);
        CHECK_EQ_INT(c.topology_error, -ENOENT);
        CHECK_EQ_U64(c.n_packages, 0);
        CHECK_EQ_U64(probe_cpus_groups(&c, sets, pk), 1);
        CHECK_EQ_INT(pk[0], -1);
        CHECK(CPU_EQUAL(&sets[0], &c.used), "unknown packages: one group of all");
        topology_done();

        /* not a package id: said, one group */
        for (unsigned k = 0; k < 4; k++) {
                static const char *const bad[] = { "x\n", "-1\n", "1 \n", "" };

                topology_fixture(cpus, (const char *const[]) { "0\n", bad[k] }, 2);
                c = cpus_of(cpus, 2);
                probe_cpus_packages(topology_root, &c);
                CHECK(c.topology_error == -EBADMSG, "'%s': error %d", bad[k], c.topology_error);
                CHECK_EQ_U64(c.n_packages, 0);
                topology_done();
        }
        /* more packages than kept apart */
        {
                int many[PROBE_PACKAGES_MAX + 1];
                char ids[PROBE_PACKAGES_MAX + 1][8];
                const char *p[PROBE_PACKAGES_MAX + 1];

                for (unsigned k = 0; k <= PROBE_PACKAGES_MAX; k++) {
                        many[k] = (int) k;
                        snprintf(ids[k], sizeof(ids[k]), "%u\n", k);
                        p[k] = ids[k];
                }
                topology_fixture(many, p, PROBE_PACKAGES_MAX);
                c = cpus_of(many, PROBE_PACKAGES_MAX);
                probe_cpus_packages(topology_root, &c);
                CHECK_EQ_U64(c.n_packages, PROBE_PACKAGES_MAX);
                topology_done();
                topology_fixture(many, p, PROBE_PACKAGES_MAX + 1);
                c = cpus_of(many, PROBE_PACKAGES_MAX + 1);
                probe_cpus_packages(topology_root, &c);
                CHECK_EQ_INT(c.topology_error, -E2BIG);
                CHECK_EQ_U64(c.n_packages, 0);
                topology_done();
        }
        /* no sysfs at all */
        c = cpus_of(cpus, 2);
        probe_cpus_packages("/nonexistent-root", &c);
        CHECK_EQ_INT(c.topology_error, -ENOENT);
}

/* Power: a source failing 1 % of tries is degraded with >= 99.9 % probability
 * in one run of the minimum number of tries the default budget guarantees. */
static void test_power(void) {
        ProbeLimits def = PROBE_LIMITS_DEFAULT;
        ProbeLimits l = { .budget_usec = 1, .max_attempts = def.max_attempts, .min_attempts = def.min_attempts };
        unsigned degraded = 0;
        double p_miss = pow(0.99, (double) def.min_attempts);

        printf("power: P[no failure in %" PRIu64 " tries at 1 %%] = %.3g\n", def.min_attempts, p_miss);
        CHECK(1 - p_miss >= 0.999, "exact power %g < 0.999", 1 - p_miss);

        for (unsigned i = 0; i < 1000; i++) {
                Script s;
                ProbeRun r;

                script_init(&s, SCRIPT_RANDOM_FAIL, 64, 0.01, 0, 0, 1000 + i);
                CHECK_EQ_INT(probe_run_single(&s.source, &l, &hp, &vp, &r), 0);
                CHECK(r.attempts >= def.min_attempts, "attempts %" PRIu64, r.attempts);
                degraded += r.verdict == VERDICT_DEGRADED;
        }
        printf("power simulation: %u/1000 runs degraded\n", degraded);
        CHECK(degraded >= 999, "only %u/1000 degraded", degraded);
}

/* The real instructions through the specialised loops, when CPUID has them:
 * only invariants, never this machine's figures. */
static void test_hardware(void) {
        ProbeLimits l = count_limits(1000);

        FOREACH_RNG_SOURCE_OF_KIND(i, RNG_KIND_CPU_INSTRUCTION) {
                if (!rng_source_advertised(i))
                        continue;
                for (unsigned w = 16; w <= 64; w *= 2) {
                        const RngSource *src = rng_source_hardware(i, w);
                        ProbeRun r;

                        CHECK(src && src->width == w && src->instruction == (RngSourceId) i, "hardware source");
                        CHECK_EQ_INT(probe_run_single(src, &l, &hp, &vp, &r), 0);
                        check_invariants(&r, src->name);
                        CHECK_EQ_U64(r.attempts, 1000);
                        CHECK(r.latency_samples > 0, "%s: no latency samples", src->name);
                }
        }
        CHECK(rng_source_hardware(RNG_SOURCE_RDRAND, 8) == NULL, "8-bit source");
        CHECK(rng_source_hardware(_RNG_SOURCE_MAX, 64) == NULL, "bad instruction");
}

/* Hook: every instruction and width draws from one bursts script per call. */
static const RngSource *bursts_source(RngSourceId i, unsigned width, unsigned thread, void *u) {
        static Script s[_RNG_SOURCE_MAX][RNG_N_WIDTHS];
        int w = rng_width_index(width);

        /* 3 failed tries before every value: 4 tries per value. */
        script_init(&s[i][w], SCRIPT_BURSTS, width, 0, 3, 1, 31);
        return &s[i][w].source;
}

/* "exhausted" means the running kernel's loop would have failed: 4 tries
 * per value exhaust a stock kernel's single RDSEED try but not the retry
 * series' 10, and never RDRAND's 10; KernelRetries= overrides both. */
static void test_kernel_relative(void) {
        const bool cpuid[_RNG_SOURCE_MAX] = { true, true };
        KernelState stock = {}, series = { .retry_series = true };
        ProbeParams p;
        ProbeReport r;

        probe_params_default(&p);
        CHECK_EQ_U64(p.verdict.kernel_retries, 0);
        p.threads = 1;
        p.widths = 1u << 1; /* 32 */
        p.limits = count_limits(400);
        p.source = bursts_source;
        p.cpuid = cpuid;

        CHECK_EQ_INT(probe_run_all(&p, &stock, &r), 0);
        CHECK_EQ_U64(r.instr[RNG_SOURCE_RDSEED].kernel_retries, 1);
        CHECK_EQ_INT(r.instr[RNG_SOURCE_RDSEED].kernel_retries_source, KERNEL_RETRIES_STOCK);
        CHECK(strstr(r.instr[RNG_SOURCE_RDSEED].kernel_retries_why, "once"), "why: %s", r.instr[RNG_SOURCE_RDSEED].kernel_retries_why);
        CHECK_EQ_U64(r.instr[RNG_SOURCE_RDSEED].runs[0].kernel_retries, 1);
        CHECK_EQ_U64(r.instr[RNG_SOURCE_RDSEED].runs[0].kernel_loop_failures, 300);
        CHECK_EQ_INT(r.instr[RNG_SOURCE_RDSEED].verdict, VERDICT_EXHAUSTED);
        CHECK_EQ_U64(r.instr[RNG_SOURCE_RDRAND].kernel_retries, 10);
        CHECK_EQ_INT(r.instr[RNG_SOURCE_RDRAND].verdict, VERDICT_DEGRADED);

        CHECK_EQ_INT(probe_run_all(&p, &series, &r), 0);
        CHECK_EQ_U64(r.instr[RNG_SOURCE_RDSEED].kernel_retries, 10);
        CHECK_EQ_INT(r.instr[RNG_SOURCE_RDSEED].kernel_retries_source, KERNEL_RETRIES_SERIES);
        CHECK_EQ_U64(r.instr[RNG_SOURCE_RDSEED].runs[0].kernel_loop_failures, 0);
        CHECK_EQ_INT(r.instr[RNG_SOURCE_RDSEED].verdict, VERDICT_DEGRADED);
        CHECK_EQ_INT(r.instr[RNG_SOURCE_RDRAND].verdict, VERDICT_DEGRADED);

        /* Not read: a stock kernel is assumed, and said so. */
        CHECK_EQ_INT(probe_run_all(&p, NULL, &r), 0);
        CHECK_EQ_INT(r.instr[RNG_SOURCE_RDSEED].kernel_retries_source, KERNEL_RETRIES_ASSUMED);
        CHECK_EQ_INT(r.instr[RNG_SOURCE_RDSEED].verdict, VERDICT_EXHAUSTED);

        /* The override applies to both instructions. */
        p.verdict.kernel_retries = 3;
        CHECK_EQ_INT(probe_run_all(&p, &series, &r), 0);
        FOREACH_RNG_SOURCE_OF_KIND(i, RNG_KIND_CPU_INSTRUCTION) {
                CHECK_EQ_U64(r.instr[i].kernel_retries, 3);
                CHECK_EQ_INT(r.instr[i].kernel_retries_source, KERNEL_RETRIES_OVERRIDE);
                CHECK_EQ_INT(r.instr[i].verdict, VERDICT_EXHAUSTED);
                CHECK_EQ_U64(r.instr[i].runs[0].kernel_loop_failures, 100);
        }
}

/* The SIGILL guard: an instruction the CPU lacks (ud2) is caught, one it
 * has runs; the previous handler and the signal mask come back; it can be
 * used again. */
static volatile sig_atomic_t foreign_sigill;
static void foreign_handler(int sig) {
        foreign_sigill = 1;
}

static void test_guard(void) {
        struct sigaction sa = { .sa_handler = foreign_handler }, now;
        sigset_t ill, mask;
        Script bad, good;

        script_init(&bad, SCRIPT_SIGILL, 64, 0, 0, 0, 1);
        script_init(&good, SCRIPT_HEALTHY, 64, 0, 0, 0, 1);
        sigemptyset(&sa.sa_mask);
        CHECK(sigaction(SIGILL, &sa, NULL) == 0, "sigaction");
        sigemptyset(&ill);
        sigaddset(&ill, SIGILL);
        CHECK(sigprocmask(SIG_BLOCK, &ill, NULL) == 0, "block");

        for (int k = 0; k < 3; k++) {
                CHECK_EQ_INT(rng_source_executes(&bad.source), 0);
                CHECK_EQ_INT(rng_source_executes(&good.source), 1);
        }
        CHECK_EQ_U64(bad.tries, 3);
        CHECK_EQ_U64(good.tries, 3);
        CHECK(sigaction(SIGILL, NULL, &now) == 0 && now.sa_handler == foreign_handler, "handler restored");
        CHECK(sigprocmask(SIG_SETMASK, NULL, &mask) == 0 && sigismember(&mask, SIGILL), "mask restored");
        CHECK(!foreign_sigill, "the foreign handler ran");
        CHECK(rng_source_executes(NULL) == -EINVAL, "NULL source");
        sigprocmask(SIG_UNBLOCK, &ill, NULL);
        signal(SIGILL, SIG_DFL);

        /* The real instructions: whatever CPUID says, the guarded try never
         * crashes, and one CPUID advertises executes. */
        FOREACH_RNG_SOURCE_OF_KIND(i, RNG_KIND_CPU_INSTRUCTION) {
                int r = rng_source_executes(rng_source_hardware(i, 64));

                CHECK(r == 0 || r == 1, "hardware %d: %d", i, r);
                if (rng_source_advertised(i))
                        CHECK_EQ_INT(r, 1);
        }
}

/* The usable CPUs, at most n of them; 0 if fewer than n. */
static unsigned usable_cpus(int *cpus, unsigned n) {
        cpu_set_t allowed;
        unsigned k = 0;

        if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0)
                return 0;
        for (int c = 0; c < CPU_SETSIZE && k < n; c++)
                if (CPU_ISSET(c, &allowed))
                        cpus[k++] = c;
        return k == n ? n : 0;
}

/* n threads' CPUs: n usable ones, or, with fewer, all on the first one
 * (the threads then take turns on it: what these tests check holds either
 * way). Fails the test only if there is no usable CPU at all. */
static bool thread_cpus(int *cpus, unsigned n) {
        if (usable_cpus(cpus, n) == n)
                return true;
        if (usable_cpus(cpus, 1) != 1) {
                CHECK(false, "no usable CPU");
                return false;
        }
        for (unsigned i = 1; i < n; i++)
                cpus[i] = cpus[0];
        printf("%u threads on CPU %d: fewer than %u usable CPUs\n", n, cpus[0], n);
        return true;
}

/* What the scripts' own records say of a run: the common window from each
 * thread's first and last draw, and the draws in it. The engine's figures
 * must agree with this separate calculation. */
typedef struct Reference {
        double overlap;
        uint64_t attempts, failures, delivered;
        double values_per_sec; /* in the window, all threads; or over the span if none */
        uint64_t first_max, last_min, span;
} Reference;

static Reference reference(Script *s, unsigned n) {
        uint64_t first_min = UINT64_MAX, first_max = 0, last_min = UINT64_MAX, last_max = 0, delivered = 0;
        Reference ref = {};

        for (unsigned i = 0; i < n; i++) {
                uint64_t k = MIN(s[i].tries, (uint64_t) s[i].times_cap);

                first_min = MIN(first_min, s[i].times[0]);
                first_max = MAX(first_max, s[i].times[0]);
                last_min = MIN(last_min, s[i].times[k - 1]);
                last_max = MAX(last_max, s[i].times[k - 1]);
        }
        ref.first_max = first_max;
        ref.last_min = last_min;
        ref.span = last_max - first_min;
        ref.overlap = last_min > first_max ? (double) (last_min - first_max) / (double) ref.span : 0;
        for (unsigned i = 0; i < n; i++) {
                uint64_t k = MIN(s[i].tries, (uint64_t) s[i].times_cap);

                for (uint64_t t = 0; t < k; t++) {
                        delivered += s[i].oks[t];
                        if (s[i].times[t] < first_max || s[i].times[t] > last_min)
                                continue;
                        ref.attempts++;
                        ref.failures += !s[i].oks[t];
                        ref.delivered += s[i].oks[t];
                }
        }
        ref.values_per_sec = last_min > first_max ? ref.delivered * 1e9 / (double) (last_min - first_max)
                                                  : delivered * 1e9 / (double) ref.span;
        return ref;
}

#define WINDOW_TRIES 6000

static void script_timed(Script *s, ScriptKind kind, double rate, uint64_t param, uint64_t param2, uint64_t seed) {
        script_init(s, kind, 64, rate, param, param2, seed);
        s->times_cap = 8 * WINDOW_TRIES;
        s->times = calloc(s->times_cap, sizeof(uint64_t));
        s->oks = calloc(s->times_cap, sizeof(bool));
        CHECK(s->times && s->oks, "calloc");
}

static void script_timed_done(Script *s) {
        free(s->times);
        free(s->oks);
}

static void check_window(const ProbeRun *r, Script *s, unsigned n, const char *what) {
        Reference ref = reference(s, n);
        /* The engine interpolates between its marks, one per batch of 128
         * tries: a thread preempted inside the batch at an end of the window
         * is off by up to a batch there. */
        uint64_t slack = 2 * 128 * n;

        printf("%s: overlap %.3f (reference %.3f), window tries %" PRIu64 " (reference %" PRIu64 "), "
               "%.3g values/s (reference %.3g)\n", what, r->window.overlap, ref.overlap, r->window.attempts,
               ref.attempts, r->values_per_sec, ref.values_per_sec);
        CHECK(fabs(r->window.overlap - ref.overlap) <= 0.02, "%s: overlap %g, reference %g", what,
              r->window.overlap, ref.overlap);
        CHECK_EQ_INT(r->contended, r->window.overlap >= PROBE_MIN_OVERLAP);
        CHECK(r->window.attempts <= ref.attempts + slack && r->window.attempts + slack >= ref.attempts,
              "%s: window tries %" PRIu64 ", reference %" PRIu64, what, r->window.attempts, ref.attempts);
        CHECK(r->window.failures <= ref.failures + slack && r->window.failures + slack >= ref.failures,
              "%s: window failures %" PRIu64 ", reference %" PRIu64, what, r->window.failures, ref.failures);
        if (ref.attempts > 1000)
                CHECK(fabs(r->failure_rate - (double) ref.failures / (double) ref.attempts) <= 0.03,
                      "%s: window failure rate %g, reference %g", what, r->failure_rate,
                      (double) ref.failures / (double) ref.attempts);
        if (ref.attempts > 1000 || r->window.nsec == 0)
                CHECK(fabs(r->values_per_sec / ref.values_per_sec - 1) <= 0.15, "%s: %g values/s, reference %g",
                      what, r->values_per_sec, ref.values_per_sec);
        CHECK(r->window.nsec <= r->window.span_nsec, "%s: window > span", what);
}

/* Contention runs whose threads start late: the common window, the overlap
 * and the figures from the window, against the scripts' own records. The
 * late starts are ordered through the scripts (a thread waits for a number
 * of the other's draws), not by wall-clock delays, which a loaded machine
 * would stretch. */
static void test_window(void) {
        const unsigned n = 2;
        ProbeLimits cap = count_limits(WINDOW_TRIES);
        const RngSource *srcs[2];
        Script s[2];
        int cpus[2];
        ProbeRun r;

        if (!thread_cpus(cpus, n))
                return;

        /* Both start at once. How much they overlap depends on the
         * machine's load (a preempted thread draws less): only agreement
         * with the records is asserted. */
        for (unsigned i = 0; i < n; i++) {
                script_timed(&s[i], SCRIPT_RANDOM_FAIL, 0.3, 0, 0, 50 + i);
                srcs[i] = &s[i].source;
        }
        CHECK_EQ_INT(probe_run_contention(srcs, cpus, n, &cap, &hp, &vp, &r), 0);
        check_invariants(&r, "window: together");
        check_window(&r, s, n, "window: together");
        for (unsigned i = 0; i < n; i++)
                script_timed_done(&s[i]);

        /* Thread 1 starts once thread 0 has made 4/5 of its tries; each
         * stops on its own count. */
        for (unsigned i = 0; i < n; i++) {
                script_timed(&s[i], SCRIPT_RANDOM_FAIL, 0.3, 0, 0, 60 + i);
                srcs[i] = &s[i].source;
        }
        s[1].after = &s[0];
        s[1].after_draws = WINDOW_TRIES * 4 / 5;
        CHECK_EQ_INT(probe_run_contention(srcs, cpus, n, &cap, &hp, &vp, &r), 0);
        check_window(&r, s, n, "window: late");
        CHECK(!r.contended && r.window.overlap < 0.5, "late: overlap %g", r.window.overlap);
        CHECK_EQ_U64(r.attempts, n * WINDOW_TRIES);
        for (unsigned i = 0; i < n; i++)
                script_timed_done(&s[i]);

        /* Thread 1 starts once thread 0 is done: (next to) no window; the
         * rate is over the span, not the sum of the two threads' rates. */
        for (unsigned i = 0; i < n; i++) {
                script_timed(&s[i], SCRIPT_HEALTHY, 0, 0, 0, 70 + i);
                srcs[i] = &s[i].source;
        }
        s[1].after = &s[0];
        s[1].after_draws = WINDOW_TRIES;
        CHECK_EQ_INT(probe_run_contention(srcs, cpus, n, &cap, &hp, &vp, &r), 0);
        check_window(&r, s, n, "window: one after the other");
        CHECK(!r.contended && r.window.overlap < 0.1, "one after the other: overlap %g", r.window.overlap);
        for (unsigned i = 0; i < n; i++)
                script_timed_done(&s[i]);
}

/* The shared deadline, on the pool itself: thread 1 sleeps 3 ms before its
 * first try; each thread stops at its first check after the pool's
 * deadline, which is the release's plus the budget, not its own start's. */
static void test_shared_deadline(void) {
        const unsigned n = 2;
        ProbeLimits budget = { .budget_usec = 8000, .max_attempts = 0, .min_attempts = 0 };
        _cleanup_(pool_freep) Pool *pool = NULL;
        const RngSource *srcs[2];
        Script s[2];
        int cpus[2];

        if (!thread_cpus(cpus, n))
                return;
        for (unsigned i = 0; i < n; i++) {
                script_init(&s[i], SCRIPT_BURSTS, 64, 0, 12, 20, 90 + i);
                /* ~1 us per try: 8 ms is ~60 batches, one mark each */
                s[i].draw_nsec = 1000;
                srcs[i] = &s[i].source;
        }
        s[1].first_delay_nsec = 3000000;
        CHECK_EQ_INT(pool_new(cpus, n, &pool), 0);
        if (!pool)
                return;
        CHECK_EQ_INT(pool_run(pool, srcs, &budget, &hp, 10, &(uint64_t) { 0 }), 0);
        for (unsigned i = 0; i < n; i++) {
                const Stream *st = &pool->workers[i].stream;

                CHECK_EQ_INT(st->error, 0);
                CHECK(st->n_marks < STREAM_MARKS && st->mark_stride == 1, "thread %u: %zu marks", i, st->n_marks);
                CHECK(st->last_nsec >= pool->deadline, "thread %u stopped before the deadline", i);
                if (st->n_marks >= 2)
                        CHECK(st->marks[st->n_marks - 2].nsec < pool->deadline,
                              "thread %u did not stop at its first check after the deadline", i);
        }
        /* Its own budget would have ended 3 ms after the shared deadline. */
        CHECK(pool->workers[1].stream.first_nsec + budget.budget_usec * 1000 > pool->deadline,
              "thread 1 began before the release");
}

/* A thread that does not arrive: the others give the run up within the
 * start timeout and draw nothing, pool_run() says -ETIMEDOUT; once the
 * thread comes, the pool runs again, all threads drawing. What each
 * stream drew is counted: the given-up run's tries stay 0. */
static void test_pool_late_thread(void) {
        const unsigned n = 2;
        ProbeLimits lim = { .budget_usec = 1000, .max_attempts = 256, .min_attempts = 1 };
        _cleanup_(pool_freep) Pool *pool = NULL;
        const RngSource *srcs[2];
        uint64_t wall = 0;
        Script s[2];

        for (unsigned i = 0; i < n; i++) {
                script_init(&s[i], SCRIPT_HEALTHY, 64, 0, 0, 0, 70 + i);
                srcs[i] = &s[i].source;
        }
        CHECK_EQ_INT(pool_new(NULL, n, &pool), 0);
        if (!pool)
                return;
        pool_hold(pool, 1, true);
        CHECK_EQ_INT(pool_run(pool, srcs, &lim, &hp, 10, &wall), -ETIMEDOUT);
        CHECK(s[0].tries == 0 && s[1].tries == 0, "a given-up run drew: %" PRIu64 " and %" PRIu64 " tries",
              s[0].tries, s[1].tries);
        CHECK(!pool->stuck, "a run given up at its start marks the pool stuck");
        /* The same run through probe_run_on_pool(): the error, no result. */
        {
                ProbeRun run;

                CHECK_EQ_INT(probe_run_on_pool(pool, srcs, &lim, &hp, &VERDICT_PARAMS_DEFAULT, &run), -ETIMEDOUT);
        }
        pool_hold(pool, 1, false);
        CHECK_EQ_INT(pool_run(pool, srcs, &lim, &hp, 10, &wall), 0);
        for (unsigned i = 0; i < n; i++)
                CHECK(pool->workers[i].stream.attempts == 256 && pool->workers[i].stream.error == 0,
                      "after the late thread came, thread %u: %" PRIu64 " tries", i, pool->workers[i].stream.attempts);
}

/* The stop hook: asked while a run draws, it ends the run (single and
 * contention) with -ECANCELED, below its minimum of tries; probe_run_all()
 * ends there too. */
static unsigned stop_asked;
static bool stop_after_some(void *userdata) {
        return __atomic_add_fetch(&stop_asked, 1, __ATOMIC_RELAXED) >= *(unsigned *) userdata;
}

static void test_stop(void) {
        unsigned after = 3;
        ProbeLimits lim = { .budget_usec = 0, .max_attempts = 0, .min_attempts = UINT64_C(1) << 40,
                            .stop = stop_after_some, .stop_userdata = &after };
        const RngSource *srcs[2];
        ProbeRun run;
        Script s[2];

        for (unsigned i = 0; i < 2; i++) {
                script_init(&s[i], SCRIPT_HEALTHY, 64, 0, 0, 0, 50 + i);
                s[i].draw_nsec = 1000; /* ~1 us per try: a poll every ~8 batches */
                srcs[i] = &s[i].source;
        }
        stop_asked = 0;
        CHECK_EQ_INT(probe_run_single(srcs[0], &lim, &hp, &VERDICT_PARAMS_DEFAULT, &run), -ECANCELED);
        CHECK(stop_asked == after && s[0].tries > 0 && s[0].tries < 100000, "single: asked %u times, %" PRIu64 " tries",
              stop_asked, s[0].tries);
        stop_asked = 0;
        CHECK_EQ_INT(probe_run_contention(srcs, NULL, 2, &lim, &hp, &VERDICT_PARAMS_DEFAULT, &run), -ECANCELED);
        CHECK(stop_asked >= after, "contention: asked %u times", stop_asked);
}

static void test_sweep_points(void) {
        unsigned p[PROBE_SWEEP_MAX_POINTS];

        CHECK_EQ_INT(probe_sweep_points(1, p), 1);
        CHECK_EQ_INT(p[0], 1);
        CHECK_EQ_INT(probe_sweep_points(2, p), 2);
        CHECK(p[0] == 1 && p[1] == 2, "2");
        CHECK_EQ_INT(probe_sweep_points(3, p), 3);
        CHECK(p[0] == 1 && p[1] == 2 && p[2] == 3, "3");
        CHECK_EQ_INT(probe_sweep_points(16, p), 5);
        CHECK(p[3] == 8 && p[4] == 16, "16");
        CHECK_EQ_INT(probe_sweep_points(1000, p), 11);
        CHECK(p[9] == 512 && p[10] == 1000, "1000");
        CHECK_EQ_INT(probe_sweep_points(CPU_SETSIZE, p), 11);
        CHECK_EQ_INT(p[10], CPU_SETSIZE);
        CHECK_EQ_INT(probe_sweep_points(0, p), 0);
}

/* The sweep through the source hook: every thread count, each point's
 * 1-try and kernel-loop failure rates against the bursts' arithmetic. */
static const RngSource *sweep_source(RngSourceId i, unsigned width, unsigned thread, void *u) {
        static Script s[_RNG_SOURCE_MAX][RNG_N_WIDTHS][2];
        int w = rng_width_index(width);

        if (thread >= 2)
                return NULL;
        if (i == RNG_SOURCE_RDRAND)
                script_init(&s[i][w][thread], SCRIPT_SIGILL, width, 0, 0, 0, 1);
        else
                script_init(&s[i][w][thread], SCRIPT_BURSTS, width, 0, 12, 20, thread);
        return &s[i][w][thread].source;
}

static void test_sweep(void) {
        const bool cpuid[_RNG_SOURCE_MAX] = { false, false };
        ProbeSweepReport *rep = malloc(sizeof(*rep));
        ProbeParams p;

        CHECK(rep, "malloc");
        if (!rep)
                return;
        probe_params_default(&p);
        p.threads = 2;
        p.widths = 1u << 2;
        p.limits = count_limits(3200);
        p.source = sweep_source;
        p.cpuid = cpuid;
        p.verdict.kernel_retries = 10;
        CHECK_EQ_INT(probe_sweep(&p, NULL, rep), 0);
        /* RDRAND raises SIGILL: not swept; RDSEED is hidden: swept. */
        CHECK(!rep->presence[RNG_SOURCE_RDRAND].executes && rep->presence[RNG_SOURCE_RDSEED].executes, "presence");
        CHECK_EQ_INT(rep->n_sweeps, 1);
        CHECK_EQ_INT(rep->sweeps[0].instruction, RNG_SOURCE_RDSEED);
        CHECK_EQ_INT(rep->sweeps[0].n_points, 2);
        for (unsigned k = 0; k < rep->sweeps[0].n_points; k++) {
                const ProbeRun *r = &rep->sweeps[0].points[k];

                CHECK_EQ_U64(r->threads, k + 1);
                CHECK_EQ_U64(r->attempts, (k + 1) * 3200);
                CHECK(fabs(r->failure_rate - 12.0 / 32) < 0.02, "point %u: 1-try failure rate %g", k,
                      r->failure_rate);
                CHECK(fabs(r->kernel_loop_failure_rate - 1.0 / 21) < 0.01, "point %u: loop failure rate %g", k,
                      r->kernel_loop_failure_rate);
                CHECK(r->window.overlap >= 0 && r->window.overlap <= 1, "point %u: overlap %g", k, r->window.overlap);
                CHECK_EQ_INT(r->contended, r->window.overlap >= PROBE_MIN_OVERLAP);
        }
        free(rep);
}


/* Through probe_run_all() and probe_sweep(): the two usable CPUs in one
 * package (5): each contention run says so; in two packages: no
 * contention run (each package has one CPU), and a sweep of one point. */
static void test_run_all_packages(void) {
        const bool cpuid[_RNG_SOURCE_MAX] = { true, true };
        ProbeSweepReport *sw = malloc(sizeof(*sw));
        int cpus[2];
        ProbeParams p;
        ProbeReport rep;
        static ThreadHook h;

        CHECK(sw, "malloc");
        if (!sw || usable_cpus(cpus, 2) != 2)
                return;
        for (int i = 0; i < 2; i++)
                for (int w = 0; w < 3; w++)
                        for (int t = 0; t < 2; t++)
                                script_init(&h.scripts[i][w][t], SCRIPT_HEALTHY, rng_widths[w], 0, 0, 0, 10 * i + w + 100 * t);
        probe_params_default(&p);
        p.threads = 2;
        p.limits = count_limits(1000);
        p.source = thread_source;
        p.source_userdata = &h;
        p.cpuid = cpuid;

        p.sysfs_root = topology_fixture(cpus, (const char *const[]) { "5\n", "5\n" }, 2);
        CHECK_EQ_INT(probe_run_all(&p, NULL, &rep), 0);
        CHECK(rep.cpus.contention, "no contention run in package 5");
        CHECK_EQ_U64(rep.cpus.n_packages, 1);
        for (int i = 0; i < 2; i++) {
                CHECK_EQ_U64(rep.instr[i].n_runs, 6);
                for (unsigned j = 0; j < rep.instr[i].n_runs; j++) {
                        const ProbeRun *r = &rep.instr[i].runs[j];

                        CHECK_EQ_INT(r->package, r->mode == PROBE_CONTENTION ? 5 : -1);
                }
        }
        p.instructions = 1u << 1;
        p.widths = 1u << 2;
        CHECK_EQ_INT(probe_sweep(&p, NULL, sw), 0);
        CHECK_EQ_U64(sw->n_sweeps, 1);
        CHECK_EQ_INT(sw->sweeps[0].package, 5);
        CHECK_EQ_U64(sw->sweeps[0].n_points, 2);
        CHECK_EQ_INT(sw->sweeps[0].points[1].package, 5);
        topology_done();

        p.instructions = RNG_SOURCES_ALL;
        p.widths = RNG_WIDTHS_ALL;
        p.sysfs_root = topology_fixture(cpus, (const char *const[]) { "0\n", "1\n" }, 2);
        CHECK_EQ_INT(probe_run_all(&p, NULL, &rep), 0);
        CHECK(!rep.cpus.contention, "a contention run across two packages");
        CHECK_EQ_U64(rep.cpus.n_packages, 2);
        CHECK_EQ_U64(rep.instr[0].n_runs, 3);
        CHECK_EQ_U64(rep.instr[0].contention_runs, 0);
        p.instructions = 1u << 1;
        p.widths = 1u << 2;
        CHECK_EQ_INT(probe_sweep(&p, NULL, sw), 0);
        CHECK_EQ_U64(sw->n_sweeps, 1);
        CHECK_EQ_U64(sw->sweeps[0].n_points, 1);
        CHECK_EQ_U64(sw->sweeps[0].points[0].threads, 1);
        CHECK_EQ_INT(sw->sweeps[0].package, 0);
        topology_done();
        free(sw);
}

/* probe_run_all() and probe_sweep() pick their CPUs themselves, one per
 * thread: their contention runs need 2 usable CPUs. They run as their own
 * meson test (test-probe-two-cpus: `test-probe two-cpus`), which a machine
 * with one CPU counts as skipped; every other test runs on any machine. */
static int two_cpus(void) {
        int cpus[2];

        if (usable_cpus(cpus, 2) != 2) {
                printf("SKIP: contention through probe_run_all() and probe_sweep() needs 2 usable CPUs\n");
                return 77;
        }
        test_run_all_contention();
        test_sweep();
        test_run_all_packages();
        return test_result("test-probe two-cpus");
}

/* A device's run: the shapes of the hwrng device through a scripted device,
 * bounded by its budget and its bytes whatever the device does. */
static void test_device(void) {
        const ProbeLimits def = PROBE_LIMITS_DEFAULT;
        ScriptDevice d;
        ProbeRun r;

        CHECK_EQ_U64(probe_limits_device_usec(&def), 20000);
        CHECK_EQ_U64(probe_limits_device_bytes(&def), 4096);
        CHECK_EQ_U64(probe_limits_device_usec(&(ProbeLimits) { .budget_usec = 1000000 }), 1000000);

        script_device_init(&d, RNG_SOURCE_HWRNG, SCRIPT_DEVICE_HEALTHY, 0, 1);
        CHECK_EQ_INT(probe_run_device(&d.source, &def, &hp, &r), 0);
        CHECK(r.verdict == VERDICT_OK && r.bytes == 4096 && r.delivered == 512 && r.attempts == 512 &&
              r.failures == 0 && r.health.samples == 512, "healthy: %s, %" PRIu64 " bytes",
              verdict_to_string(r.verdict), r.bytes);
        CHECK(r.width == 64 && r.mode == PROBE_SINGLE && r.threads == 1 && r.instruction == RNG_SOURCE_HWRNG, "run");

        script_device_init(&d, RNG_SOURCE_HWRNG, SCRIPT_DEVICE_STUCK, 0x5a, 1);
        CHECK_EQ_INT(probe_run_device(&d.source, &def, &hp, &r), 0);
        CHECK(r.verdict == VERDICT_BROKEN && (r.health.failed & HEALTH_RCT), "stuck: %s", verdict_to_string(r.verdict));

        /* A repeating block passes the RCT (no two equal values in a row)
         * and fails the APT. */
        script_device_init(&d, RNG_SOURCE_HWRNG, SCRIPT_DEVICE_REPEAT, 256, 1);
        CHECK_EQ_INT(probe_run_device(&d.source, &def, &hp, &r), 0);
        CHECK(r.verdict == VERDICT_BROKEN && (r.health.failed & HEALTH_APT) && !(r.health.failed & HEALTH_RCT),
              "repeat: checks 0x%x", r.health.failed);
        /* A block longer than what is read is no repetition. */
        script_device_init(&d, RNG_SOURCE_HWRNG, SCRIPT_DEVICE_REPEAT, 4096, 1);
        CHECK_EQ_INT(probe_run_device(&d.source, &def, &hp, &r), 0);
        CHECK(r.verdict == VERDICT_OK, "a block of 4096: %s", verdict_to_string(r.verdict));

        /* 10 kB/s: what the budget allows, at its rate. */
        script_device_init(&d, RNG_SOURCE_HWRNG, SCRIPT_DEVICE_SLOW, 10240, 1);
        CHECK_EQ_INT(probe_run_device(&d.source, &def, &hp, &r), 0);
        CHECK(r.verdict == VERDICT_OK && r.bytes > 0 && r.bytes < 4096, "slow: %s, %" PRIu64 " bytes",
              verdict_to_string(r.verdict), r.bytes);
        /* What was done, not how fast (no wall-clock range: a loaded
         * machine stretches the run): the reader waited for its deadline
         * (the device never filled the buffer), got no more than the
         * device's rate allows over the time it took, and says its rate as
         * those two figures give it. */
        CHECK(r.wall_nsec >= 20000000ull, "slow: stopped before its budget, %" PRIu64 " ns", r.wall_nsec);
        CHECK((double) r.bytes <= 10240.0 * (double) r.wall_nsec * 1e-9 + 8,
              "slow: %" PRIu64 " bytes in %" PRIu64 " ns, more than 10240 B/s gives", r.bytes, r.wall_nsec);
        CHECK(fabs(r.bytes_per_sec - (double) r.bytes * 1e9 / (double) r.wall_nsec) <= 1e-6 * r.bytes_per_sec,
              "slow: %.0f bytes/s is not %" PRIu64 " bytes over %" PRIu64 " ns", r.bytes_per_sec, r.bytes, r.wall_nsec);

        /* Nothing within the budget: degraded, not broken. */
        script_device_init(&d, RNG_SOURCE_HWRNG, SCRIPT_DEVICE_SILENT, 0, 1);
        CHECK_EQ_INT(probe_run_device(&d.source, &(ProbeLimits) { .device_budget_usec = 5000 }, &hp, &r), 0);
        CHECK(r.verdict == VERDICT_DEGRADED && r.bytes == 0 && r.delivered == 0, "silent: %s",
              verdict_to_string(r.verdict));

        script_device_init(&d, RNG_SOURCE_HWRNG, SCRIPT_DEVICE_ERROR, EACCES, 1);
        CHECK_EQ_INT(probe_run_device(&d.source, &def, &hp, &r), -EACCES);
        CHECK_EQ_INT(probe_run_device(NULL, &def, &hp, &r), -EINVAL);
}

/* probe_run_all with a device and a seed: the device's run, and host-fed
 * only on a confidential VM where the kernel credits what the host feeds;
 * a device that cannot be read is not probed and fails nothing else. */
static ScriptDevice run_all_device;
static Script run_all_scripts[_RNG_SOURCE_MAX][RNG_N_WIDTHS];

static const RngSource *device_hook(RngSourceId i, unsigned width, unsigned thread, void *u) {
        if (i == RNG_SOURCE_HWRNG)
                return &run_all_device.source;
        return &run_all_scripts[i][rng_width_index(width)].source;
}

static void test_run_all_device(void) {
        const bool cpuid[_RNG_SOURCE_MAX] = { [RNG_SOURCE_HWRNG] = true, [RNG_SOURCE_BOOT_SEED] = true };
        KernelState kernel = {};
        ProbeParams p;
        ProbeReport r;

        FOREACH_RNG_SOURCE(i)
                for (int w = 0; w < RNG_N_WIDTHS; w++)
                        script_init(&run_all_scripts[i][w], SCRIPT_HEALTHY, rng_widths[w], 0, 0, 0, 1 + w);
        kernel.instr[RNG_SOURCE_HWRNG] = (KernelSourceState) {
                .state = KERNEL_STATE_ENABLED,
                .credit = { .known = true, .credited = true, .host_fed = true, .quality = 1024, .device = "virtio_rng.0" },
        };
        kernel.instr[RNG_SOURCE_BOOT_SEED] = (KernelSourceState) {
                .state = KERNEL_STATE_ENABLED,
                .credit = { .known = true, .credited = true, .host_fed = true, .quality = 1024, .device = "setup_data" },
        };
        script_device_init(&run_all_device, RNG_SOURCE_HWRNG, SCRIPT_DEVICE_HEALTHY, 0, 1);
        probe_params_default(&p);
        p.threads = 1;
        p.source = device_hook;
        p.cpuid = cpuid;

        CHECK_EQ_INT(probe_run_all(&p, &kernel, &r), 0);
        CHECK(r.instr[RNG_SOURCE_HWRNG].n_runs == 1 && r.instr[RNG_SOURCE_HWRNG].verdict == VERDICT_OK, "hwrng ok");
        CHECK(r.instr[RNG_SOURCE_BOOT_SEED].n_runs == 0 && r.instr[RNG_SOURCE_BOOT_SEED].verdict == VERDICT_OK, "seed ok");
        CHECK(run_all_device.reads == 1, "one read, %" PRIu64, run_all_device.reads);

        p.confidential_vm = true;
        CHECK_EQ_INT(probe_run_all(&p, &kernel, &r), 0);
        CHECK(r.instr[RNG_SOURCE_HWRNG].verdict == VERDICT_HOST_FED && r.instr[RNG_SOURCE_BOOT_SEED].verdict ==
              VERDICT_HOST_FED && r.verdict == VERDICT_HOST_FED, "host-fed on a confidential VM");
        CHECK(r.confidential_vm, "said in the report");

        /* Not credited (rng_quality 0), or not the host's: no host-fed. */
        kernel.instr[RNG_SOURCE_HWRNG].credit.credited = false;
        kernel.instr[RNG_SOURCE_BOOT_SEED].credit.host_fed = false;
        CHECK_EQ_INT(probe_run_all(&p, &kernel, &r), 0);
        CHECK(r.instr[RNG_SOURCE_HWRNG].verdict == VERDICT_OK && r.instr[RNG_SOURCE_BOOT_SEED].verdict == VERDICT_OK,
              "not credited, not host-fed");

        /* Broken is worse than host-fed. */
        kernel.instr[RNG_SOURCE_HWRNG].credit.credited = true;
        script_device_init(&run_all_device, RNG_SOURCE_HWRNG, SCRIPT_DEVICE_STUCK, 0, 1);
        CHECK_EQ_INT(probe_run_all(&p, &kernel, &r), 0);
        CHECK(r.instr[RNG_SOURCE_HWRNG].verdict == VERDICT_BROKEN, "stuck: %s",
              verdict_to_string(r.instr[RNG_SOURCE_HWRNG].verdict));

        /* Not readable: not probed, its error kept; host-fed still said. */
        script_device_init(&run_all_device, RNG_SOURCE_HWRNG, SCRIPT_DEVICE_ERROR, EACCES, 1);
        CHECK_EQ_INT(probe_run_all(&p, &kernel, &r), 0);
        CHECK(r.instr[RNG_SOURCE_HWRNG].read_error == -EACCES && r.instr[RNG_SOURCE_HWRNG].n_runs == 0 &&
              r.instr[RNG_SOURCE_HWRNG].verdict == VERDICT_HOST_FED, "unreadable");
        p.confidential_vm = false;
        CHECK_EQ_INT(probe_run_all(&p, &kernel, &r), 0);
        CHECK(r.instr[RNG_SOURCE_HWRNG].verdict == VERDICT_UNSUPPORTED, "unreadable, no confidential VM");
        /* ... and said so: a device that is there is not "unsupported" */
        CHECK(strcmp(probe_source_verdict_word(&r.instr[RNG_SOURCE_HWRNG]), "unreadable") == 0, "word %s",
              probe_source_verdict_word(&r.instr[RNG_SOURCE_HWRNG]));
        /* Its sysfs not readable: neither seen nor known absent: unknown. */
        kernel.instr[RNG_SOURCE_HWRNG] = (KernelSourceState) {
                .state = KERNEL_STATE_UNKNOWN, .reason_id = "sysfs-unreadable",
                .reason = "unknown (rng_current not readable: a NUL byte in it)",
        };
        p.cpuid = (const bool[_RNG_SOURCE_MAX]) { [RNG_SOURCE_BOOT_SEED] = true };
        CHECK_EQ_INT(probe_run_all(&p, &kernel, &r), 0);
        p.cpuid = cpuid;
        CHECK(r.instr[RNG_SOURCE_HWRNG].verdict == VERDICT_UNSUPPORTED &&
              strcmp(probe_source_verdict_word(&r.instr[RNG_SOURCE_HWRNG]), "unknown") == 0, "unknown: %s %s",
              verdict_to_string(r.instr[RNG_SOURCE_HWRNG].verdict), probe_source_verdict_word(&r.instr[RNG_SOURCE_HWRNG]));
        /* a device not there is unsupported, as --help defines it */
        kernel.instr[RNG_SOURCE_HWRNG] = (KernelSourceState) { .state = KERNEL_STATE_ABSENT, .reason_id = "no-device" };
        p.cpuid = (const bool[_RNG_SOURCE_MAX]) { [RNG_SOURCE_BOOT_SEED] = true };
        CHECK_EQ_INT(probe_run_all(&p, &kernel, &r), 0);
        p.cpuid = cpuid;
        CHECK(strcmp(probe_source_verdict_word(&r.instr[RNG_SOURCE_HWRNG]), "unsupported") == 0, "absent: %s",
              probe_source_verdict_word(&r.instr[RNG_SOURCE_HWRNG]));
}

/* RNG_REASON's names: each one read back as itself (what `report` accepts
 * is what the daemon writes), nothing else. */
static void test_unavailable_names(void) {
        for (int u = 0; u < _PROBE_UNAVAILABLE_MAX; u++) {
                const char *name = probe_unavailable_to_string(u);

                CHECK(name && name[0], "reason %d has no name", u);
                CHECK_EQ_INT(probe_unavailable_from_string(name), u);
        }
        CHECK(!probe_unavailable_to_string(_PROBE_UNAVAILABLE_MAX), "a name past the table");
        CHECK_EQ_INT(probe_unavailable_from_string("Absent"), -EINVAL);
        CHECK_EQ_INT(probe_unavailable_from_string(""), -EINVAL);
        CHECK_EQ_INT(probe_unavailable_from_string(NULL), -EINVAL);
}

int main(int argc, char *argv[]) {
        if (argc == 2 && strcmp(argv[1], "two-cpus") == 0)
                return two_cpus();
        if (argc != 1) {
                fprintf(stderr, "usage: test-probe [two-cpus]\n");
                return EXIT_FAILURE;
        }
        test_guard();
        test_window();
        test_shared_deadline();
        test_pool_late_thread();
        test_stop();
        test_sweep_points();
        test_kernel_relative();
        test_stuck_bit();
        test_hardware();
        test_histogram_buckets();
        test_wilson();
        test_healthy();
        test_always_fail();
        test_bursts();
        test_trailing_per_thread();
        test_random_fail();
        test_stuck_and_patterns();
        test_limits();
        test_contention();
        test_run_all();
        test_packages();
        test_device();
        test_run_all_device();
        test_power();
        test_unavailable_names();
        return test_result("test-probe");
}
