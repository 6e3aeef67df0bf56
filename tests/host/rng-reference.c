/* SPDX-License-Identifier: GPL-2.0-or-later */

/* An independent reference measurement of RDRAND/RDSEED for the host tests
 * (tests/host/probe-reference.py). It includes and links nothing of
 * service/: its own CPUID read, its own inline asm with an explicit register
 * width per form (rdrand/rdseed %w0, %k0, %q0: three different templates, so
 * no compiler can fold one width's loop into another's), its own counting.
 *
 *   rng-reference cpuid
 *       rdrand=0|1 rdseed=0|1 (CPUID leaf 1 ECX bit 30, leaf 7.0 EBX bit 18)
 *       and the CPU's vendor/family/model/stepping, key=value lines.
 *   rng-reference run INSTRUCTION WIDTH TRIES THREADS
 *       TRIES tries per thread; THREADS = 1: on the calling thread, N: N
 *       threads pinned one per usable CPU (sched_getaffinity order),
 *       released together by a barrier. Prints one JSON object of counts:
 *       tries, failures, delivered, zeros, all_ones, repeats (consecutive
 *       equal values per thread stream, summed), longest_failure_streak
 *       (the largest of any thread), bit_ones (ones per bit position,
 *       summed). Never prints a value.
 *
 * Exit status: 0 done, 1 runtime error, 2 usage error, 77 CPUID does not
 * advertise the instruction (never executed then). */

#include <cpuid.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if !defined(__x86_64__)
int main(void) {
        fprintf(stderr, "rng-reference: x86-64 only\n");
        return 77;
}
#else

/* Tries per chunk: failures are counted in the draw loop, values are
 * stored and examined after the chunk (outside the tight loop). */
#define CHUNK 4096

typedef struct Counts {
        uint64_t tries, failures, delivered, zeros, all_ones, repeats;
        uint64_t streak, longest;
        uint64_t bit_ones[64];
        bool have_last;
        uint64_t last;
} Counts;

/* One chunk of n tries of one instruction form; delivered values (masked to
 * the width) go to buf. Returns how many were delivered. noinline and one
 * function per form, so `objdump -d` shows each form in its own function. */
#define DEFINE_LOOP(name, insn, mask)                                                           \
        static __attribute__((noinline)) size_t loop_##name(uint64_t n, Counts *c, uint64_t *buf) { \
                size_t k = 0;                                                                   \
                for (uint64_t i = 0; i < n; i++) {                                              \
                        uint64_t v;                                                             \
                        unsigned char ok;                                                       \
                        __asm__ volatile(insn "; setc %1" : "=r"(v), "=qm"(ok) : : "cc");       \
                        if (ok) {                                                               \
                                buf[k++] = v & (mask);                                          \
                                if (c->streak > c->longest)                                     \
                                        c->longest = c->streak;                                 \
                                c->streak = 0;                                                  \
                        } else {                                                                \
                                c->failures++;                                                  \
                                c->streak++;                                                    \
                        }                                                                       \
                }                                                                               \
                return k;                                                                       \
        }

DEFINE_LOOP(rdrand16, "rdrand %w0", UINT64_C(0xffff))
DEFINE_LOOP(rdrand32, "rdrand %k0", UINT64_C(0xffffffff))
DEFINE_LOOP(rdrand64, "rdrand %q0", UINT64_MAX)
DEFINE_LOOP(rdseed16, "rdseed %w0", UINT64_C(0xffff))
DEFINE_LOOP(rdseed32, "rdseed %k0", UINT64_C(0xffffffff))
DEFINE_LOOP(rdseed64, "rdseed %q0", UINT64_MAX)

typedef size_t (*LoopFn)(uint64_t n, Counts *c, uint64_t *buf);

static const LoopFn loops[2][3] = {
        { loop_rdrand16, loop_rdrand32, loop_rdrand64 },
        { loop_rdseed16, loop_rdseed32, loop_rdseed64 },
};

static void examine(Counts *c, const uint64_t *buf, size_t k, unsigned width) {
        uint64_t mask = width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;

        for (size_t i = 0; i < k; i++) {
                uint64_t v = buf[i];

                c->zeros += v == 0;
                c->all_ones += v == mask;
                if (c->have_last)
                        c->repeats += v == c->last;
                c->last = v;
                c->have_last = true;
                for (unsigned b = 0; b < width; b++)
                        c->bit_ones[b] += (v >> b) & 1;
        }
        c->delivered += k;
}

typedef struct Worker {
        pthread_t thread;
        int cpu; /* -1: not pinned (the single run) */
        unsigned insn, width;
        uint64_t tries;
        pthread_barrier_t *barrier;
        Counts counts;
        int error;
} Worker;

static void *worker_run(void *p) {
        Worker *w = p;
        Counts *c = &w->counts;
        LoopFn loop = loops[w->insn][w->width == 16 ? 0 : w->width == 32 ? 1 : 2];
        uint64_t *buf;

        buf = malloc(sizeof(uint64_t) * CHUNK);
        if (!buf)
                w->error = ENOMEM;
        if (w->cpu >= 0) {
                cpu_set_t set;

                CPU_ZERO(&set);
                CPU_SET(w->cpu, &set);
                if (!w->error)
                        w->error = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
        }
        if (w->barrier)
                pthread_barrier_wait(w->barrier);
        if (w->error) {
                free(buf);
                return NULL;
        }

        for (uint64_t done = 0; done < w->tries;) {
                uint64_t n = w->tries - done < CHUNK ? w->tries - done : CHUNK;
                size_t k = loop(n, c, buf);

                examine(c, buf, k, w->width);
                done += n;
        }
        c->tries = w->tries;
        /* A trailing streak counts like one in the middle. */
        if (c->streak > c->longest)
                c->longest = c->streak;
        free(buf);
        return NULL;
}

static void cpuid_flags(bool *rdrand, bool *rdseed) {
        unsigned a, b, c, d;

        *rdrand = *rdseed = false;
        if (__get_cpuid(1, &a, &b, &c, &d))
                *rdrand = c & (1u << 30);
        if (__get_cpuid_max(0, NULL) >= 7) {
                __cpuid_count(7, 0, a, b, c, d);
                *rdseed = b & (1u << 18);
        }
}

static int cmd_cpuid(void) {
        unsigned a, b, c, d, max;
        char vendor[13] = {};
        bool rdrand, rdseed;

        cpuid_flags(&rdrand, &rdseed);
        printf("rdrand=%d\nrdseed=%d\n", rdrand, rdseed);
        max = __get_cpuid_max(0, NULL);
        __cpuid(0, a, b, c, d);
        memcpy(vendor, &b, 4);
        memcpy(vendor + 4, &d, 4);
        memcpy(vendor + 8, &c, 4);
        printf("vendor=%s\n", vendor);
        if (max >= 1) {
                unsigned family, model;

                __cpuid(1, a, b, c, d);
                family = (a >> 8) & 0xf;
                model = (a >> 4) & 0xf;
                if (family == 0xf)
                        family += (a >> 20) & 0xff;
                if (family == 0x6 || family >= 0xf)
                        model |= ((a >> 16) & 0xf) << 4;
                printf("family=%u\nmodel=%u\nstepping=%u\n", family, model, a & 0xf);
        }
        return 0;
}

static int usage(const char *msg) {
        fprintf(stderr, "rng-reference: %s\n"
                "usage: rng-reference cpuid\n"
                "       rng-reference run rdrand|rdseed 16|32|64 TRIES THREADS\n", msg);
        return 2;
}

static bool parse_u64(const char *s, uint64_t *ret) {
        char *end;
        unsigned long long v;

        if (!s || !*s || *s == '-')
                return false;
        errno = 0;
        v = strtoull(s, &end, 10);
        if (errno || *end)
                return false;
        *ret = v;
        return true;
}

static double now(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmd_run(char **argv) {
        unsigned insn, width;
        uint64_t tries, threads, w64;
        bool rdrand, rdseed;
        Worker *workers;
        Counts total = {};
        pthread_barrier_t barrier;
        int cpus[CPU_SETSIZE];
        unsigned n_cpus = 0;
        double t0, t1;
        int r = 0;

        if (strcmp(argv[0], "rdrand") == 0)
                insn = 0;
        else if (strcmp(argv[0], "rdseed") == 0)
                insn = 1;
        else
                return usage("bad instruction");
        if (!parse_u64(argv[1], &w64) || (w64 != 16 && w64 != 32 && w64 != 64))
                return usage("bad width");
        width = (unsigned) w64;
        if (!parse_u64(argv[2], &tries) || tries == 0)
                return usage("bad number of tries");
        if (!parse_u64(argv[3], &threads) || threads == 0 || threads > CPU_SETSIZE)
                return usage("bad number of threads");

        cpuid_flags(&rdrand, &rdseed);
        if (!(insn == 0 ? rdrand : rdseed)) {
                fprintf(stderr, "rng-reference: CPUID does not advertise %s\n", argv[0]);
                return 77;
        }

        if (threads > 1) {
                cpu_set_t allowed;

                if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0) {
                        perror("rng-reference: sched_getaffinity");
                        return 1;
                }
                for (int c = 0; c < CPU_SETSIZE && n_cpus < threads; c++)
                        if (CPU_ISSET(c, &allowed))
                                cpus[n_cpus++] = c;
                if (n_cpus < threads) {
                        fprintf(stderr, "rng-reference: %u usable CPUs, %llu threads asked for\n", n_cpus,
                                (unsigned long long) threads);
                        return 1;
                }
        }

        workers = calloc(threads, sizeof(Worker));
        if (!workers)
                return 1;
        for (unsigned t = 0; t < threads; t++)
                workers[t] = (Worker) {
                        .cpu = threads > 1 ? cpus[t] : -1,
                        .insn = insn,
                        .width = width,
                        .tries = tries,
                        .barrier = threads > 1 ? &barrier : NULL,
                };

        t0 = now();
        if (threads == 1)
                worker_run(&workers[0]);
        else {
                /* The barrier counts this thread too: released together. */
                pthread_barrier_init(&barrier, NULL, threads);
                for (unsigned t = 0; t < threads; t++) {
                        r = pthread_create(&workers[t].thread, NULL, worker_run, &workers[t]);
                        if (r != 0) {
                                fprintf(stderr, "rng-reference: pthread_create: %s\n", strerror(r));
                                return 1; /* the others wait at the barrier forever: just exit */
                        }
                }
                for (unsigned t = 0; t < threads; t++)
                        pthread_join(workers[t].thread, NULL);
                pthread_barrier_destroy(&barrier);
        }
        t1 = now();

        for (unsigned t = 0; t < threads; t++) {
                Counts *c = &workers[t].counts;

                if (workers[t].error) {
                        fprintf(stderr, "rng-reference: thread %u (CPU %d): %s\n", t, workers[t].cpu,
                                strerror(workers[t].error));
                        free(workers);
                        return 1;
                }
                total.tries += c->tries;
                total.failures += c->failures;
                total.delivered += c->delivered;
                total.zeros += c->zeros;
                total.all_ones += c->all_ones;
                total.repeats += c->repeats;
                if (c->longest > total.longest)
                        total.longest = c->longest;
                for (unsigned b = 0; b < 64; b++)
                        total.bit_ones[b] += c->bit_ones[b];
        }

        printf("{\"instruction\": \"%s\", \"width\": %u, \"threads\": %llu, \"cpus\": [", argv[0], width,
               (unsigned long long) threads);
        for (unsigned t = 0; t < threads; t++)
                printf("%s%d", t ? ", " : "", workers[t].cpu);
        printf("], \"tries\": %llu, \"failures\": %llu, \"delivered\": %llu, \"zeros\": %llu, "
               "\"all_ones\": %llu, \"repeats\": %llu, \"longest_failure_streak\": %llu, "
               "\"wall_usec\": %.0f, \"bit_ones\": [",
               (unsigned long long) total.tries, (unsigned long long) total.failures,
               (unsigned long long) total.delivered, (unsigned long long) total.zeros,
               (unsigned long long) total.all_ones, (unsigned long long) total.repeats,
               (unsigned long long) total.longest, (t1 - t0) * 1e6);
        for (unsigned b = 0; b < width; b++)
                printf("%s%llu", b ? ", " : "", (unsigned long long) total.bit_ones[b]);
        printf("]}\n");
        free(workers);
        return 0;
}

int main(int argc, char **argv) {
        if (argc == 2 && strcmp(argv[1], "cpuid") == 0)
                return cmd_cpuid();
        if (argc == 6 && strcmp(argv[1], "run") == 0)
                return cmd_run(argv + 2);
        return usage("bad arguments");
}
#endif
