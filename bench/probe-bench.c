/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Benchmark (not a test): in one run,
 *  1. the probe engine's single-thread RDRAND 64-bit rate against a minimal
 *     tight RDRAND loop (goal: ratio >= 0.95), and
 *  2. the output checks' throughput against the fastest RDRAND rate
 *     (goal: >= 10x).
 * Built and run by bench/probe-bench.sh. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "health.h"
#include "probe.h"
#include "rng-source.h"

#define N 500000
#define REPS 31

static double now(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec + ts.tv_nsec / 1e9;
}

#if defined(__x86_64__)
/* The minimal loop: what a program that just wants values would do. */
static double tight_loop_rate(void) {
        uint64_t ok = 0, sink = 0;
        double t0 = now();

        for (unsigned i = 0; i < N; i++) {
                uint64_t v;
                unsigned char c;
                __asm__ volatile("rdrand %0; setc %1" : "=r"(v), "=qm"(c) : : "cc");
                ok += c;
                sink ^= v;
        }
        double t = now() - t0;
        __asm__ volatile("" : : "r"(sink));
        return ok / t;
}
#endif

static uint64_t splitmix64(uint64_t *s) {
        uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
        z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
        return z ^ (z >> 31);
}

static int cmp_double(const void *a, const void *b) {
        double x = *(const double *) a, y = *(const double *) b;
        return x < y ? -1 : x > y;
}

int main(void) {
#if !defined(__x86_64__)
        fprintf(stderr, "probe-bench: x86-64 only\n");
        return 77;
#else
        const HealthParams hp = HEALTH_PARAMS_DEFAULT;
        const VerdictParams vp = VERDICT_PARAMS_DEFAULT;
        const ProbeLimits lim = { .budget_usec = 0, .max_attempts = N, .min_attempts = 0 };
        double best_tight = 0, best_probe_draw = 0, best_probe_wall = 0, best_any_bytes = 0;
        double ratio_draw[REPS], ratio_wall[REPS];

        if (!rng_cpuid_supported(RNG_RDRAND)) {
                fprintf(stderr, "probe-bench: CPUID does not advertise RDRAND\n");
                return 77;
        }

        /* Paired, interleaved measurements (tight, probe, tight): the ratio of
         * each pair is immune to slow drift, and the median of the ratios to
         * the odd preempted run on a busy machine. */
        for (int rep = 0; rep < REPS; rep++) {
                ProbeRun r;
                double t1 = tight_loop_rate(), t2;

                if (probe_run_single(rng_source_hardware(RNG_RDRAND, 64), &lim, &hp, &vp, &r) < 0)
                        return 1;
                t2 = tight_loop_rate();
                double wall = r.delivered / (r.wall_nsec / 1e9);
                best_tight = fmax(best_tight, fmax(t1, t2));
                best_probe_draw = fmax(best_probe_draw, r.values_per_sec);
                best_probe_wall = fmax(best_probe_wall, wall);
                ratio_draw[rep] = r.values_per_sec / ((t1 + t2) / 2);
                ratio_wall[rep] = wall / ((t1 + t2) / 2);
        }
        qsort(ratio_draw, REPS, sizeof(double), cmp_double);
        qsort(ratio_wall, REPS, sizeof(double), cmp_double);

        /* The fastest RDRAND rate in bytes/s, over all widths. */
        double width_bytes[65] = {};
        for (unsigned w = 16; w <= 64; w *= 2) {
                ProbeRun r;
                ProbeLimits l = { .budget_usec = 0, .max_attempts = N / 4, .min_attempts = 0 };
                if (probe_run_single(rng_source_hardware(RNG_RDRAND, w), &l, &hp, &vp, &r) < 0)
                        return 1;
                width_bytes[w] = r.bytes_per_sec;
                if (r.bytes_per_sec > best_any_bytes)
                        best_any_bytes = r.bytes_per_sec;
        }
        if (best_tight * 8 > best_any_bytes)
                best_any_bytes = best_tight * 8;

        /* Output checks on 64 MiB of 64-bit values (and 16-bit values). */
        size_t n = 8u << 20;
        uint64_t *v = malloc(n * sizeof(uint64_t)), seed = 1;
        if (!v)
                return 1;
        double mbps[2];
        for (int k = 0; k < 2; k++) {
                unsigned width = k == 0 ? 64 : 16;
                uint64_t mask = width == 64 ? UINT64_MAX : 0xffff;
                HealthState s;
                HealthResult hr;

                for (size_t i = 0; i < n; i++)
                        v[i] = splitmix64(&seed) & mask;
                health_init(&s, &hp, width);
                double t0 = now();
                health_feed(&s, v, n);
                health_finish(&s, &hr);
                double t = now() - t0;
                /* Throughput in bytes of RNG output checked per second. */
                mbps[k] = n * (width / 8) / t / 1e6;
                if (hr.failed)
                        fprintf(stderr, "probe-bench: unexpected alarm 0x%x on uniform data\n", hr.failed);
        }
        free(v);

        printf("RDRAND 64-bit single thread, %d tries, %d paired reps (rates: best; ratio: median of pairs):\n",
               N, REPS);
        printf("  tight loop                        %8.2f M values/s\n", best_tight / 1e6);
        printf("  probe engine (draw time)          %8.2f M values/s   ratio %.3f (goal >= 0.95)\n",
               best_probe_draw / 1e6, ratio_draw[REPS / 2]);
        printf("  probe engine (wall, incl. checks) %8.2f M values/s   ratio %.3f\n",
               best_probe_wall / 1e6, ratio_wall[REPS / 2]);
        printf("Output checks vs fastest RDRAND (%.1f MB/s):\n", best_any_bytes / 1e6);
        printf("  64-bit values               %10.1f MB/s      ratio %.1fx (goal >= 10x)\n", mbps[0],
               mbps[0] * 1e6 / best_any_bytes);
        printf("  16-bit values               %10.1f MB/s      ratio %.1fx (%.1fx RDRAND16's %.1f MB/s)\n",
               mbps[1], mbps[1] * 1e6 / best_any_bytes, mbps[1] * 1e6 / width_bytes[16], width_bytes[16] / 1e6);
        return 0;
#endif
}
