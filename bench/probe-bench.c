/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Benchmark (not a test): in one run, for the table's first CPU
 * instruction (RDRAND on x86-64, RNDR on arm64),
 *  1. the probe engine's single-thread 64-bit rate against a minimal
 *     tight loop of the instruction, in this process (goal: ratio >= 0.95);
 *  2. with a CLI given, the same as whole processes: `rng-health probe
 *     --instruction NAME --width 64 --threads 1 --count N --json` against
 *     a tight-loop process (this program, `tight N`), each a fresh process,
 *     paired and interleaved; the CLI's rate against the loop's (goal:
 *     ratio >= 0.95), and what a whole process costs besides. Under an
 *     emulator (RNG_HEALTH_EXE_WRAPPER, e.g. qemu-aarch64 -cpu max: this
 *     program runs in it too) both processes are started through it, and
 *     what emulation hides is printed;
 *  3. the output checks' throughput against the instruction's fastest rate
 *     (goal: >= 10x).
 * Both sides of each ratio are timed by the same outside clock, this
 * program's CLOCK_MONOTONIC: in 1. around the engine's call and around the
 * loop; in 2. from spawn to reaped, the rate being the extra tries over the
 * extra time of a long run (N tries) against a short one (start-up alone),
 * for the CLI and the tight-loop process alike. The engine's and the CLI's
 * own figures (values_per_sec, from their own timers) are printed beside,
 * never judged. A figure that could not be measured is printed as "not
 * measured", with why.
 * Built and run by bench/probe-bench.sh.
 *
 *   probe-bench [CLI]        all of it (2. only with CLI)
 *   probe-bench tight N      the tight-loop process of 2.: N tries, prints
 *                            values per second of the loop */

#include <json-c/json.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "health.h"
#include "probe.h"
#include "rng-source.h"

#if defined(__x86_64__) || defined(__aarch64__)
#define BENCH_ARCH 1
#else
#define BENCH_ARCH 0
#endif

#define N 500000
#define REPS 31

static double now(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec + ts.tv_nsec / 1e9;
}

#if BENCH_ARCH
/* The minimal loop: what a program that just wants values would do. Its
 * own asm, not the draw code's: RDRAND, or RNDR (S3_3_C2_C4_0, Z clear on
 * success). */
static double tight_loop_rate_n(unsigned n) {
        uint64_t ok = 0, sink = 0;
        double t0 = now();

        for (unsigned i = 0; i < n; i++) {
                uint64_t v;
#if defined(__x86_64__)
                unsigned char c;
                __asm__ volatile("rdrand %0; setc %1" : "=r"(v), "=qm"(c) : : "cc");
#else
                uint64_t c;
                __asm__ volatile("mrs %0, s3_3_c2_c4_0\n\tcset %1, ne" : "=r"(v), "=r"(c) : : "cc");
#endif
                ok += c;
                sink ^= v;
        }
        double t = now() - t0;
        __asm__ volatile("" : : "r"(sink));
        return ok / t;
}

static double tight_loop_rate(void) {
        return tight_loop_rate_n(N);
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

/* The table's first CPU instruction: the one benchmarked. */
static RngSourceId bench_source(void) {
        FOREACH_RNG_SOURCE_OF_KIND(id, RNG_KIND_CPU_INSTRUCTION)
                return id;
        return _RNG_SOURCE_MAX;
}

#if BENCH_ARCH
/* argv behind the emulator's words (RNG_HEALTH_EXE_WRAPPER, split at
 * spaces; none natively), into out[] (at most max entries). */
static char **wrapped(char *const argv[], char **out, size_t max) {
        static char buf[256];
        const char *w = getenv("RNG_HEALTH_EXE_WRAPPER");
        size_t k = 0;

        snprintf(buf, sizeof(buf), "%s", w ? w : "");
        for (char *t = strtok(buf, " "); t && k + 1 < max; t = strtok(NULL, " "))
                out[k++] = t;
        for (size_t i = 0; argv[i] && k + 1 < max; i++)
                out[k++] = argv[i];
        out[k] = NULL;
        return out;
}

/* Runs argv as a fresh process with its stdout into a buffer; its wall time
 * (spawn to reaped) in *ret_wall. The output, or NULL on any failure. */
static char *run_process(char *const argv[], double *ret_wall) {
        posix_spawn_file_actions_t fa;
        char *out = NULL;
        size_t size = 0, len = 0;
        int fds[2], status;
        pid_t pid;
        double t0;

        if (pipe(fds) < 0)
                return NULL;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
        posix_spawn_file_actions_addclose(&fa, fds[0]);
        t0 = now();
        if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
                posix_spawn_file_actions_destroy(&fa);
                close(fds[0]);
                close(fds[1]);
                return NULL;
        }
        posix_spawn_file_actions_destroy(&fa);
        close(fds[1]);
        for (;;) {
                ssize_t k;

                if (len + 4096 + 1 > size) {
                        char *p = realloc(out, size = 2 * size + 4096 + 1);

                        if (!p)
                                break;
                        out = p;
                }
                k = read(fds[0], out + len, size - len - 1);
                if (k <= 0)
                        break;
                len += (size_t) k;
        }
        close(fds[0]);
        if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !out) {
                free(out);
                return NULL;
        }
        *ret_wall = now() - t0;
        out[len] = '\0';
        return out;
}

/* The CLI's own single-thread rate (its timers; printed, not judged): the
 * run of mode "single" of the first instruction in its JSON. */
static double cli_rate(const char *json) {
        struct json_object *j = json_tokener_parse(json), *in, *runs, *run, *v;
        double rate = -1;

        if (j && json_object_object_get_ex(j, "instructions", &in) &&
            json_object_object_get_ex(json_object_array_get_idx(in, 0), "runs", &runs))
                for (size_t i = 0; i < json_object_array_length(runs); i++) {
                        run = json_object_array_get_idx(runs, i);
                        if (json_object_object_get_ex(run, "mode", &v) &&
                            strcmp(json_object_get_string(v), "single") == 0 &&
                            json_object_object_get_ex(run, "values_per_sec", &v))
                                rate = json_object_get_double(v);
                }
        json_object_put(j);
        return rate;
}

static double median(double *v, int n) {
        qsort(v, n, sizeof(double), cmp_double);
        return v[n / 2];
}

#define PROC_N "2000000"
#define PROC_N_SHORT_CLI "1024" /* the CLI's least --count */
#define PROC_N_SHORT_TIGHT "1"
#define PROC_REPS 15

/* The rate of the extra tries of a long run over a short one, both timed
 * from spawn to reaped: start-up cancels out. 0 when the long run took no
 * longer (start-up noise larger than the tries: not measured). */
static double outside_rate(const char *n_long, const char *n_short, double wall_long, double wall_short) {
        double extra = strtod(n_long, NULL) - strtod(n_short, NULL);

        return wall_long > wall_short ? extra / (wall_long - wall_short) : 0;
}

/* The median of the n values > 0 of v (sorted in place); 0 if fewer than
 * half of them are (not measured). */
static double median_measured(double *v, int n) {
        int k = 0;

        for (int i = 0; i < n; i++)
                if (v[i] > 0)
                        v[k++] = v[i];
        if (k * 2 < n)
                return 0;
        qsort(v, k, sizeof(double), cmp_double);
        return v[k / 2];
}

/* Part 2: whole processes, paired (tight, CLI, tight) and interleaved. */
static int process_bench(const char *self, const char *cli) {
        char *name = (char *) rng_source_name(bench_source());
        char *tight_a[] = { (char *) self, "tight", PROC_N, NULL };
        char *tight1_a[] = { (char *) self, "tight", PROC_N_SHORT_TIGHT, NULL };
        char *cli_a[] = { (char *) cli, "probe", "--instruction", name, "--width", "64", "--threads", "1",
                          "--count", PROC_N, "--json", NULL };
        char *cli1_a[] = { (char *) cli, "probe", "--instruction", name, "--width", "64", "--threads", "1",
                           "--count", PROC_N_SHORT_CLI, "--json", NULL };
        char *tight_w[24], *tight1_w[24], *cli_w[24], *cli1_w[24];
        char **tight_argv = wrapped(tight_a, tight_w, 24), **tight1_argv = wrapped(tight1_a, tight1_w, 24);
        char **cli_argv = wrapped(cli_a, cli_w, 24), **cli1_argv = wrapped(cli1_a, cli1_w, 24);
        double rate_ratio[PROC_REPS], wall_ratio[PROC_REPS], cli_fixed[PROC_REPS], tight_fixed[PROC_REPS];
        double own_ratio[PROC_REPS], cli_rates[PROC_REPS], tight_rates[PROC_REPS];
        double best_cli_own = 0;

        for (int rep = 0; rep < PROC_REPS; rep++) {
                double w1, w2, wc, wc1, wt1, t1, t2, c, rc, rt;
                char *o1 = run_process(tight_argv, &w1), *oc = run_process(cli_argv, &wc),
                     *o2 = run_process(tight_argv, &w2), *oc1 = run_process(cli1_argv, &wc1),
                     *ot1 = run_process(tight1_argv, &wt1);
                bool ok = o1 && oc && o2 && oc1 && ot1;

                /* The programs' own figures, printed beside (0: none). */
                t1 = o1 ? strtod(o1, NULL) : 0;
                t2 = o2 ? strtod(o2, NULL) : 0;
                c = oc ? cli_rate(oc) : 0;
                free(o1);
                free(oc);
                free(o2);
                free(oc1);
                free(ot1);
                if (!ok) {
                        fprintf(stderr, "probe-bench: %s or %s tight failed\n", cli, self);
                        return -1;
                }
                /* The outside clock: the extra tries over the extra wall
                 * time, the same for both programs. */
                rc = outside_rate(PROC_N, PROC_N_SHORT_CLI, wc, wc1);
                rt = outside_rate(PROC_N, PROC_N_SHORT_TIGHT, (w1 + w2) / 2, wt1);
                cli_rates[rep] = rc;
                tight_rates[rep] = rt;
                rate_ratio[rep] = rc > 0 && rt > 0 ? rc / rt : 0;
                best_cli_own = fmax(best_cli_own, c);
                own_ratio[rep] = c > 0 && t1 > 0 && t2 > 0 ? c / ((t1 + t2) / 2) : 0;
                wall_ratio[rep] = ((w1 + w2) / 2) / wc;
                cli_fixed[rep] = wc1;
                tight_fixed[rep] = wt1;
        }

        double cli_rate_m = median_measured(cli_rates, PROC_REPS), tight_rate_m = median_measured(tight_rates, PROC_REPS);
        double ratio_m = median_measured(rate_ratio, PROC_REPS), own_m = median_measured(own_ratio, PROC_REPS);

        printf("%s 64-bit single thread as whole processes, %s tries, %d paired reps (tight, CLI, tight);\n"
               "rates from spawn-to-reaped wall time, %s tries less a %s-try run's (tight: %s), median:\n",
               rng_source_display_name(bench_source()), PROC_N, PROC_REPS, PROC_N, PROC_N_SHORT_CLI,
               PROC_N_SHORT_TIGHT);
        if (tight_rate_m > 0)
                printf("  tight-loop process                %8.2f M values/s\n", tight_rate_m / 1e6);
        else
                printf("  tight-loop process                not measured (the long run was not slower than the "
                       "short one in most reps)\n");
        if (cli_rate_m > 0 && ratio_m > 0)
                printf("  rng-health probe process          %8.2f M values/s   ratio %.3f (goal >= 0.95; median of pairs)\n",
                       cli_rate_m / 1e6, ratio_m);
        else
                printf("  rng-health probe process          not measured (the long run was not slower than the "
                       "short one in most reps)\n");
        if (own_m > 0)
                printf("  its own figure (values_per_sec)   %8.2f M values/s   ratio %.3f to the loop's own (its timer: "
                       "not judged)\n", best_cli_own / 1e6, own_m);
        else
                printf("  its own figure (values_per_sec)   not measured (its JSON or the loop's output has none)\n");
        printf("  whole-process wall, CLI vs tight  ratio %.3f (median; start-up included)\n",
               median(wall_ratio, PROC_REPS));
        printf("  start-up, --count %s vs %s try   %6.1f ms vs %.1f ms (median; loading libsystemd and its\n"
               "                                    libraries, CPU detection, the kernel log)\n",
               PROC_N_SHORT_CLI, PROC_N_SHORT_TIGHT, median(cli_fixed, PROC_REPS) * 1e3,
               median(tight_fixed, PROC_REPS) * 1e3);
        return 0;
}
#endif

int main(int argc, char *argv[]) {
#if BENCH_ARCH
        if (argc == 3 && strcmp(argv[1], "tight") == 0) {
                printf("%.0f\n", tight_loop_rate_n((unsigned) strtoul(argv[2], NULL, 10)));
                return 0;
        }
#endif
#if !BENCH_ARCH
        fprintf(stderr, "probe-bench: x86-64 and arm64 only\n");
        return 77;
#else
        const RngSourceId src = bench_source();
        const char *disp = rng_source_display_name(src), *wrapper = getenv("RNG_HEALTH_EXE_WRAPPER");
        const HealthParams hp = HEALTH_PARAMS_DEFAULT;
        const VerdictParams vp = VERDICT_PARAMS_DEFAULT;
        const ProbeLimits lim = { .budget_usec = 0, .max_attempts = N, .min_attempts = 0 };
        double best_tight = 0, best_probe_own = 0, best_probe_outside = 0, best_any_bytes = 0;
        double ratio_outside[REPS], ratio_own[REPS];

        if (!rng_source_advertised(src)) {
                printf("%s rates, the probe engine's and the CLI's: not measured (the CPU does not advertise %s)\n",
                       disp, disp);
                return 0;
        }

        /* Paired, interleaved measurements (tight, probe, tight): the ratio of
         * each pair is immune to slow drift, and the median of the ratios to
         * the odd preempted run on a busy machine. */
        for (int rep = 0; rep < REPS; rep++) {
                ProbeRun r;
                double t1 = tight_loop_rate(), t2, t0p, tp;

                /* The engine's call timed like the loop: now() around it. */
                t0p = now();
                if (probe_run_single(rng_source_hardware(src, 64), &lim, &hp, &vp, &r) < 0)
                        return 1;
                tp = now() - t0p;
                t2 = tight_loop_rate();
                double outside = r.delivered / tp;
                best_tight = fmax(best_tight, fmax(t1, t2));
                best_probe_own = fmax(best_probe_own, r.values_per_sec);
                best_probe_outside = fmax(best_probe_outside, outside);
                ratio_outside[rep] = outside / ((t1 + t2) / 2);
                ratio_own[rep] = r.values_per_sec / ((t1 + t2) / 2);
        }
        qsort(ratio_outside, REPS, sizeof(double), cmp_double);
        qsort(ratio_own, REPS, sizeof(double), cmp_double);

        /* The instruction's fastest rate in bytes/s, over its widths. */
        double width_bytes[65] = {};
        for (unsigned w = 16; w <= 64; w *= 2) {
                ProbeRun r;

                if (!rng_source_hardware(src, w))
                        continue; /* RNDR: 64 bits only */
                ProbeLimits l = { .budget_usec = 0, .max_attempts = N / 4, .min_attempts = 0 };
                if (probe_run_single(rng_source_hardware(src, w), &l, &hp, &vp, &r) < 0)
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

        if (wrapper && *wrapper)
                printf("Emulated (%s): these are the emulator's figures, not a CPU's. %s is a helper call of the\n"
                       "translated code: QEMU's RNDR/RNDRRS read the host's getrandom() and fail only if it does,\n"
                       "so emulation hides the register's real latency and throughput, its failures (the\n"
                       "entropy source running dry, Oryon's RNDRRS, Axion's bursts), its contention between\n"
                       "cores, and the cost of a trap where a hypervisor traps it; the ratio compares the\n"
                       "code around the read (the loop, the checks, the process), not the read itself.\n",
                       wrapper, disp);
        printf("%s 64-bit single thread, %d tries, %d paired reps (rates: best; ratio: median of pairs;\n"
               "both timed by this program's CLOCK_MONOTONIC around the loop and around the engine's call):\n",
               disp, N, REPS);
        printf("  tight loop                        %8.2f M values/s\n", best_tight / 1e6);
        printf("  probe engine (incl. checks)      %8.2f M values/s   ratio %.3f (goal >= 0.95)\n",
               best_probe_outside / 1e6, ratio_outside[REPS / 2]);
        printf("  its own figure (values_per_sec)   %8.2f M values/s   ratio %.3f (its draw timer: not judged)\n",
               best_probe_own / 1e6, ratio_own[REPS / 2]);
        if (argc > 1 && process_bench(argv[0], argv[1]) < 0)
                return 1;
        printf("Output checks vs fastest %s (%.1f MB/s):\n", disp, best_any_bytes / 1e6);
        printf("  64-bit values               %10.1f MB/s      ratio %.1fx (goal >= 10x)\n", mbps[0],
               mbps[0] * 1e6 / best_any_bytes);
        if (width_bytes[16] > 0)
                printf("  16-bit values               %10.1f MB/s      ratio %.1fx (%.1fx %s16's %.1f MB/s)\n",
                       mbps[1], mbps[1] * 1e6 / best_any_bytes, mbps[1] * 1e6 / width_bytes[16], disp,
                       width_bytes[16] / 1e6);
        else
                printf("  16-bit values               %10.1f MB/s      ratio %.1fx (%s has no 16-bit form)\n",
                       mbps[1], mbps[1] * 1e6 / best_any_bytes, disp);
        return 0;
#endif
}
