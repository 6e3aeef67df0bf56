/* SPDX-License-Identifier: GPL-2.0-or-later */

/* An independent reference measurement of RDRAND/RDSEED for the host tests
 * (tests/host/probe-reference.py). It includes and links nothing of
 * service/: its own CPUID read, its own inline asm with an explicit register
 * width per form (rdrand/rdseed %w0, %k0, %q0: three different templates, so
 * no compiler can fold one width's loop into another's), its own counting.
 *
 *   rng-reference cpuid
 *       rdrand=0|1 rdseed=0|1 (CPUID leaf 1 ECX bit 30, leaf 7.0 EBX bit 18),
 *       rdrand_executes=0|1 rdseed_executes=0|1 (one try of the 64-bit form
 *       under its own SIGILL handler: an instruction CPUID does not
 *       advertise may still execute, e.g. the RDSEED Linux hides on Zen5)
 *       and the CPU's vendor/family/model/stepping, key=value lines.
 *   rng-reference run INSTRUCTION WIDTH TRIES THREADS [RETRIES]
 *       TRIES tries per thread; THREADS = 1: on the calling thread, N: N
 *       threads pinned one per usable CPU (sched_getaffinity order),
 *       released together by a barrier. Prints one JSON object of counts:
 *       tries, failures, delivered, zeros, all_ones, repeats (consecutive
 *       equal values per thread stream, summed), longest_failure_streak
 *       (the largest of any thread), loop_failures (calls of a loop of
 *       RETRIES tries, default 10, that would have run out, as for
 *       contend; a thread's trailing streak too), values_over (values
 *       that needed more than RETRIES tries: streaks of at least RETRIES
 *       failed tries, a thread's trailing one too; the probe's
 *       RNG_RETRY_EXHAUSTED), bit_ones (ones per bit position, summed).
 *       Never prints a value.
 *
 *   rng-reference contend INSTRUCTION WIDTH THREADS MSEC [RETRIES]
 *       THREADS threads pinned one per usable CPU, started together (they
 *       spin on a flag the last one to be ready sets), each drawing in
 *       chunks of 64 tries until MSEC have passed since the start, with a
 *       timestamp after every chunk. Prints one JSON object: span_usec
 *       (first thread's first chunk to the last one's last), window_usec
 *       (when all drew: the latest first to the earliest last), overlap,
 *       window tries/failures/delivered (chunks wholly inside the window),
 *       values_per_sec (delivered in the window per second of it), and over
 *       the whole run tries, failures, delivered and loop_failures (calls of
 *       a loop of RETRIES tries, default 10, that would have run out: the
 *       sum over failure streaks of streak / RETRIES).
 *
 * Exit status: 0 done, 1 runtime error, 2 usage error, 77 the instruction
 * neither is in CPUID nor executes (never executed then). */

#include <cpuid.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
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
        uint64_t retries, loop_failures; /* contend: calls of a loop of `retries` tries that ran out */
        uint64_t values_over; /* run: streaks of at least `retries` failed tries (values that needed more) */
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
                                if (c->retries && c->streak >= c->retries) {                    \
                                        c->loop_failures += c->streak / c->retries;             \
                                        c->values_over++;                                       \
                                }                                                               \
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
        uint64_t tries, retries;
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
        c->retries = w->retries;
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
        if (c->retries) {
                c->loop_failures += c->streak / c->retries;
                c->values_over += c->streak >= c->retries;
        }
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

static sigjmp_buf ill_jump;

static void on_sigill(int sig) {
        siglongjmp(ill_jump, 1);
}

/* One try of the 64-bit form with a SIGILL handler of its own. */
static bool executes(unsigned insn) {
        struct sigaction sa = { .sa_handler = on_sigill }, old;
        volatile bool ran = false;
        uint64_t v;
        unsigned char ok;

        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGILL, &sa, &old) < 0)
                return false;
        if (sigsetjmp(ill_jump, 1) == 0) {
                if (insn == 0)
                        __asm__ volatile("rdrand %q0; setc %1" : "=r"(v), "=qm"(ok) : : "cc");
                else
                        __asm__ volatile("rdseed %q0; setc %1" : "=r"(v), "=qm"(ok) : : "cc");
                ran = true;
        }
        sigaction(SIGILL, &old, NULL);
        return ran;
}

static int cmd_cpuid(void) {
        unsigned a, b, c, d, max;
        char vendor[13] = {};
        bool rdrand, rdseed;

        cpuid_flags(&rdrand, &rdseed);
        printf("rdrand=%d\nrdseed=%d\n", rdrand, rdseed);
        printf("rdrand_executes=%d\nrdseed_executes=%d\n", rdrand || executes(0), rdseed || executes(1));
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

/* The first `threads` CPUs this process may run on, in order; -1 (said on
 * stderr) when there are fewer. */
static int usable_cpus(uint64_t threads, int cpus[CPU_SETSIZE]) {
        cpu_set_t allowed;
        unsigned n = 0;

        if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0) {
                perror("rng-reference: sched_getaffinity");
                return -1;
        }
        for (int c = 0; c < CPU_SETSIZE && n < threads; c++)
                if (CPU_ISSET(c, &allowed))
                        cpus[n++] = c;
        if (n < threads) {
                fprintf(stderr, "rng-reference: %u usable CPUs, %llu threads asked for\n", n,
                        (unsigned long long) threads);
                return -1;
        }
        return 0;
}

static int usage(const char *msg) {
        fprintf(stderr, "rng-reference: %s\n"
                "usage: rng-reference cpuid\n"
                "       rng-reference run rdrand|rdseed 16|32|64 TRIES THREADS [RETRIES]\n"
                "       rng-reference contend rdrand|rdseed 16|32|64 THREADS MSEC [RETRIES]\n", msg);
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

static int cmd_run(char **argv, int argc) {
        unsigned insn, width;
        uint64_t tries, threads, w64, retries = 10;
        bool rdrand, rdseed;
        Worker *workers;
        Counts total = {};
        pthread_barrier_t barrier;
        int cpus[CPU_SETSIZE];
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
        if (argc > 4 && (!parse_u64(argv[4], &retries) || retries == 0))
                return usage("bad number of retries");

        cpuid_flags(&rdrand, &rdseed);
        if (!(insn == 0 ? rdrand : rdseed) && !executes(insn)) {
                fprintf(stderr, "rng-reference: CPUID does not advertise %s, and it does not execute\n", argv[0]);
                return 77;
        }

        if (threads > 1) {
                if (usable_cpus(threads, cpus) < 0)
                        return 1;
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
                        .retries = retries,
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
                total.loop_failures += c->loop_failures;
                total.values_over += c->values_over;
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
               "\"loop_failures\": %llu, \"values_over\": %llu, \"retries\": %llu, \"wall_usec\": %.0f, "
               "\"bit_ones\": [",
               (unsigned long long) total.tries, (unsigned long long) total.failures,
               (unsigned long long) total.delivered, (unsigned long long) total.zeros,
               (unsigned long long) total.all_ones, (unsigned long long) total.repeats,
               (unsigned long long) total.longest, (unsigned long long) total.loop_failures,
               (unsigned long long) total.values_over, (unsigned long long) retries, (t1 - t0) * 1e6);
        for (unsigned b = 0; b < width; b++)
                printf("%s%llu", b ? ", " : "", (unsigned long long) total.bit_ones[b]);
        printf("]}\n");
        free(workers);
        return 0;
}

/* ---- contend: a contention run of our own ---- */

#define SPAN 64        /* tries per chunk */
#define MAX_CHUNKS (1u << 20)

typedef struct Contender {
        pthread_t thread;
        int cpu;
        unsigned insn, width;
        atomic_uint *ready;
        atomic_bool *go;
        unsigned n;
        uint64_t msec;
        double *deadline; /* written by the last one ready, before go */
        double *stamps;   /* after each chunk */
        uint32_t *fails;  /* failed tries of each chunk */
        uint64_t chunks;
        Counts counts;
        int error;
} Contender;

static void *contend_run(void *p) {
        Contender *c = p;
        cpu_set_t set;
        uint64_t buf[SPAN];
        LoopFn loop = loops[c->insn][c->width == 16 ? 0 : c->width == 32 ? 1 : 2];

        CPU_ZERO(&set);
        CPU_SET(c->cpu, &set);
        c->error = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
        if (atomic_fetch_add(c->ready, 1) + 1 == c->n) {
                *c->deadline = now() + c->msec / 1e3;
                atomic_store(c->go, true);
        } else
                while (!atomic_load(c->go))
                        ;
        for (;;) {
                uint64_t before = c->counts.failures;
                double t;

                (void) loop(SPAN, &c->counts, buf);
                t = now();
                c->stamps[c->chunks] = t;
                c->fails[c->chunks] = (uint32_t) (c->counts.failures - before);
                c->chunks++;
                if (t >= *c->deadline || c->chunks == MAX_CHUNKS)
                        break;
        }
        /* a streak still open counts like one in the middle */
        c->counts.loop_failures += c->counts.streak / c->counts.retries;
        return NULL;
}

static int cmd_contend(char **argv, int argc) {
        uint64_t threads, w64, msec, retries = 10;
        unsigned insn, width;
        int cpus[CPU_SETSIZE];
        Contender *c;
        atomic_uint ready = 0;
        atomic_bool go = false;
        double deadline = 0, first_min = 1e300, first_max = 0, last_min = 1e300, last_max = 0, win;
        uint64_t wtries = 0, wfail = 0, tries = 0, fails = 0, loop_failures = 0;
        bool rdrand, rdseed;

        if (strcmp(argv[0], "rdrand") == 0)
                insn = 0;
        else if (strcmp(argv[0], "rdseed") == 0)
                insn = 1;
        else
                return usage("bad instruction");
        if (!parse_u64(argv[1], &w64) || (w64 != 16 && w64 != 32 && w64 != 64))
                return usage("bad width");
        width = (unsigned) w64;
        if (!parse_u64(argv[2], &threads) || threads == 0 || threads > CPU_SETSIZE)
                return usage("bad number of threads");
        if (!parse_u64(argv[3], &msec) || msec == 0 || msec > 60000)
                return usage("bad duration");
        if (argc > 4 && (!parse_u64(argv[4], &retries) || retries == 0))
                return usage("bad number of retries");
        cpuid_flags(&rdrand, &rdseed);
        if (!(insn == 0 ? rdrand : rdseed) && !executes(insn))
                return 77;
        if (usable_cpus(threads, cpus) < 0)
                return 1;
        c = calloc(threads, sizeof(Contender));
        if (!c)
                return 1;
        for (unsigned t = 0; t < threads; t++) {
                c[t] = (Contender) { .cpu = cpus[t], .insn = insn, .width = width, .ready = &ready, .go = &go,
                                     .n = (unsigned) threads, .msec = msec, .deadline = &deadline,
                                     .counts = { .retries = retries } };
                c[t].stamps = malloc(sizeof(double) * MAX_CHUNKS);
                c[t].fails = malloc(sizeof(uint32_t) * MAX_CHUNKS);
                if (!c[t].stamps || !c[t].fails)
                        return 1;
        }
        for (unsigned t = 0; t < threads; t++)
                if (pthread_create(&c[t].thread, NULL, contend_run, &c[t]) != 0)
                        return 1;
        for (unsigned t = 0; t < threads; t++)
                pthread_join(c[t].thread, NULL);

        for (unsigned t = 0; t < threads; t++) {
                if (c[t].error || c[t].chunks == 0) {
                        fprintf(stderr, "rng-reference: thread %u: %s\n", t, c[t].error ? strerror(c[t].error) : "no chunk");
                        return 1;
                }
                /* first: the end of its first chunk, last: the end of its last */
                first_min = c[t].stamps[0] < first_min ? c[t].stamps[0] : first_min;
                first_max = c[t].stamps[0] > first_max ? c[t].stamps[0] : first_max;
                last_min = c[t].stamps[c[t].chunks - 1] < last_min ? c[t].stamps[c[t].chunks - 1] : last_min;
                last_max = c[t].stamps[c[t].chunks - 1] > last_max ? c[t].stamps[c[t].chunks - 1] : last_max;
        }
        win = last_min > first_max ? last_min - first_max : 0;
        for (unsigned t = 0; t < threads; t++) {
                loop_failures += c[t].counts.loop_failures;
                for (uint64_t k = 0; k < c[t].chunks; k++) {
                        tries += SPAN;
                        fails += c[t].fails[k];
                        /* a chunk wholly inside: it ended after first_max + one chunk */
                        if (k > 0 && c[t].stamps[k - 1] >= first_max && c[t].stamps[k] <= last_min) {
                                wtries += SPAN;
                                wfail += c[t].fails[k];
                        }
                }
        }
        {
                printf("{\"instruction\": \"%s\", \"width\": %u, \"threads\": %llu, \"span_usec\": %.0f, "
                       "\"window_usec\": %.0f, \"overlap\": %.4f, \"window_tries\": %llu, \"window_failures\": %llu, "
                       "\"window_delivered\": %llu, \"values_per_sec\": %.1f, \"tries\": %llu, \"failures\": %llu, "
                       "\"delivered\": %llu, \"loop_failures\": %llu, \"retries\": %llu}\n",
                       argv[0], width, (unsigned long long) threads, (last_max - first_min) * 1e6, win * 1e6,
                       last_max > first_min ? win / (last_max - first_min) : 1.0, (unsigned long long) wtries,
                       (unsigned long long) wfail, (unsigned long long) (wtries - wfail),
                       win > 0 ? (wtries - wfail) / win : 0.0, (unsigned long long) tries, (unsigned long long) fails,
                       (unsigned long long) (tries - fails), (unsigned long long) loop_failures,
                       (unsigned long long) retries);
        }
        for (unsigned t = 0; t < threads; t++) {
                free(c[t].stamps);
                free(c[t].fails);
        }
        free(c);
        return 0;
}

int main(int argc, char **argv) {
        if (argc == 2 && strcmp(argv[1], "cpuid") == 0)
                return cmd_cpuid();
        if ((argc == 6 || argc == 7) && strcmp(argv[1], "run") == 0)
                return cmd_run(argv + 2, argc - 2);
        if ((argc == 6 || argc == 7) && strcmp(argv[1], "contend") == 0)
                return cmd_contend(argv + 2, argc - 2);
        return usage("bad arguments");
}
#endif
