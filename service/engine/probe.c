/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "macro.h"
#include "parse-util.h"
#include "probe.h"
#include "time-util.h"

/* Tries between two clock reads: the time budget is checked every BATCH
 * tries (~130 us for a slow RDSEED at 1 us/try), and the clock (~25 ns)
 * costs < 1 % of the tries it covers even for RDRAND at ~30 ns/try. */
#ifndef BATCH
#define BATCH 128
#endif
/* Every LAT_STRIDE-th try is timed alone with a fenced TSC pair (lfence;
 * rdtsc ... rdtscp; lfence, minus the pair's own calibrated cost). Timing
 * every try would halve the RDRAND rate; 1 in 64 still cost ~3 %, 1 in 256
 * costs < 1 % (bench/probe-bench.sh). A default single run of 4096 tries
 * thus has 16 latency samples, a contention run 16 per thread. */
#ifndef LAT_STRIDE
#define LAT_STRIDE 256
#endif
/* Latency samples kept per thread (a ring: long runs keep the latest). */
#define LAT_CAP 16384
/* Values are checked in chunks outside the timed draw loop. */
#define CHUNK 4096

const uint64_t probe_hist_min[PROBE_HIST_BUCKETS] = {
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 17, 33, 65, 129, 257,
};

uint64_t probe_hist_max(unsigned bucket) {
        if (bucket + 1 >= PROBE_HIST_BUCKETS)
                return UINT64_MAX;
        return probe_hist_min[bucket + 1] - 1;
}

unsigned probe_hist_bucket(uint64_t tries) {
        if (tries <= 10)
                return tries == 0 ? 0 : (unsigned) tries - 1;
        for (unsigned b = 11; b < PROBE_HIST_BUCKETS; b++)
                if (tries < probe_hist_min[b])
                        return b - 1;
        return PROBE_HIST_BUCKETS - 1;
}

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

void probe_wilson(uint64_t k, uint64_t n, double z, double *ret_low, double *ret_high) {
        double p, z2, denom, center, half;

        if (n == 0) {
                *ret_low = 0;
                *ret_high = 1;
                return;
        }
        p = (double) k / (double) n;
        z2 = z * z;
        denom = 1 + z2 / n;
        center = (p + z2 / (2.0 * n)) / denom;
        half = z / denom * sqrt(p * (1 - p) / n + z2 / (4.0 * n * n));
        *ret_low = MAX(0.0, center - half);
        *ret_high = MIN(1.0, center + half);
        /* Exact at the edges (rounding would otherwise leave 1e-17). */
        if (k == 0)
                *ret_low = 0;
        if (k == n)
                *ret_high = 1;
}

/* The result of one thread's stream. */
typedef struct Stream {
        uint64_t attempts, failures, delivered, longest, trailing, loop_failures, over_retries;
        uint64_t hist[PROBE_HIST_BUCKETS];
        uint64_t draw_nsec;
        uint32_t *lat;
        uint64_t n_lat;
        HealthResult health;
        int error;
} Stream;

static void stream_done(Stream *s) {
        free(s->lat);
        s->lat = NULL;
}

static uint64_t tsc_overhead(void) {
        uint64_t best = UINT64_MAX;

        for (int i = 0; i < 32; i++) {
                uint64_t a = rng_tsc_begin(), b = rng_tsc_end();
                best = MIN(best, b - a);
        }
        return best;
}

/* Counters of one stream, carried from batch to batch. */
typedef struct Counters {
        uint64_t attempts, failures, streak, longest, loop_failures, over_retries, n_lat;
        uint64_t hist[PROBE_HIST_BUCKETS];
} Counters;

/* The slow path of a delivered value: it needed more than one try. */
static void count_after_streak(Counters *c, uint64_t retries) {
        c->hist[probe_hist_bucket(c->streak + 1)]++;
        if (c->streak >= retries) {
                c->loop_failures += c->streak / retries;
                c->over_retries++;
        }
        c->streak = 0;
}

/* n tries; delivered values are appended to buf, returns how many. Always
 * inlined with a constant `draw` for the hardware sources, so that the hot
 * loop is rdrand/rdseed, a store and two predictable branches. Counters live
 * in locals (restrict) and go back to *c at the end of the batch. */
static inline __attribute__((always_inline)) size_t draw_batch(
                bool (*draw)(void *, uint64_t *), void *ud, uint64_t n, uint64_t retries, uint64_t overhead,
                Counters *restrict c, uint64_t *restrict buf, uint32_t *restrict lat) {
        uint64_t attempts = c->attempts, first_try = 0;
        size_t nbuf = 0;

        for (uint64_t i = 0; i < n; i++) {
                uint64_t v = 0;
                bool ok;

                if (__builtin_expect(((attempts + i) & (LAT_STRIDE - 1)) == 0, 0)) {
                        uint64_t t0 = rng_tsc_begin(), t1;

                        ok = draw(ud, &v);
                        t1 = rng_tsc_end();
                        t1 = t1 - t0 > overhead ? t1 - t0 - overhead : 0;
                        lat[c->n_lat++ % LAT_CAP] = (uint32_t) MIN(t1, (uint64_t) UINT32_MAX);
                } else
                        ok = draw(ud, &v);

                buf[nbuf] = v;
                nbuf += ok;
                if (__builtin_expect(ok && c->streak == 0, 1))
                        first_try++;
                else if (ok)
                        count_after_streak(c, retries);
                else {
                        c->failures++;
                        if (++c->streak > c->longest)
                                c->longest = c->streak;
                }
        }
        c->hist[0] += first_try;
        c->attempts = attempts + n;
        return nbuf;
}

typedef size_t (*BatchFn)(void *ud, uint64_t n, uint64_t retries, uint64_t overhead, Counters *c,
                          uint64_t *buf, uint32_t *lat);

static size_t batch_generic(bool (*draw)(void *, uint64_t *), void *ud, uint64_t n, uint64_t retries,
                            uint64_t overhead, Counters *c, uint64_t *buf, uint32_t *lat) {
        return draw_batch(draw, ud, n, retries, overhead, c, buf, lat);
}

#if RNG_ARCH_X86_64
#define HW_BATCH(name, prim)                                                                        \
        static bool hw_##name(void *ud, uint64_t *ret) {                                            \
                return prim(ret);                                                                   \
        }                                                                                           \
        static size_t batch_##name(void *ud, uint64_t n, uint64_t retries, uint64_t overhead,       \
                                   Counters *c, uint64_t *buf, uint32_t *lat) {                     \
                return draw_batch(hw_##name, NULL, n, retries, overhead, c, buf, lat);              \
        }
HW_BATCH(rdrand16, rng_rdrand16)
HW_BATCH(rdrand32, rng_rdrand32)
HW_BATCH(rdrand64, rng_rdrand64)
HW_BATCH(rdseed16, rng_rdseed16)
HW_BATCH(rdseed32, rng_rdseed32)
HW_BATCH(rdseed64, rng_rdseed64)

static const BatchFn hw_batch[_RNG_INSTRUCTION_MAX][RNG_N_WIDTHS] = {
        [RNG_RDRAND] = { batch_rdrand16, batch_rdrand32, batch_rdrand64 },
        [RNG_RDSEED] = { batch_rdseed16, batch_rdseed32, batch_rdseed64 },
};
#endif

/* The specialised loop for a hardware source, NULL for any other source. */
static BatchFn hardware_batch(const RngSource *src) {
#if RNG_ARCH_X86_64
        int w = rng_width_index(src->width);

        if (w >= 0 && src->instruction >= 0 && src->instruction < _RNG_INSTRUCTION_MAX &&
            src == rng_source_hardware(src->instruction, src->width))
                return hw_batch[src->instruction][w];
#endif
        return NULL;
}

static int stream_run(const RngSource *src, const ProbeLimits *lim, const HealthParams *hp,
                      uint64_t retries, Stream *st) {
        uint64_t max = lim->max_attempts ? lim->max_attempts : UINT64_MAX;
        uint64_t minimum = MIN(lim->min_attempts, max);
        uint64_t overhead, start, seg, deadline, now;
        BatchFn hw = hardware_batch(src);
        _cleanup_free_ uint64_t *buf = NULL;
        Counters c = {};
        HealthState hs;
        size_t nbuf = 0;
        int r;

        *st = (Stream) {};
        if (retries == 0)
                return -EINVAL;
        r = health_init(&hs, hp, src->width);
        if (r < 0)
                return r;
        buf = malloc(sizeof(uint64_t) * CHUNK);
        st->lat = malloc(sizeof(uint32_t) * LAT_CAP);
        if (!buf || !st->lat)
                return -ENOMEM;

        overhead = tsc_overhead();
        start = seg = now_nsec();
        deadline = lim->budget_usec ? start + lim->budget_usec * 1000 : UINT64_MAX;

        for (;;) {
                uint64_t n = MIN((uint64_t) BATCH, max - c.attempts);

                if (hw)
                        nbuf += hw(NULL, n, retries, overhead, &c, buf + nbuf, st->lat);
                else
                        nbuf += batch_generic(src->draw, src->userdata, n, retries, overhead, &c, buf + nbuf, st->lat);

                now = now_nsec();
                if (nbuf + BATCH > CHUNK) {
                        /* Check values outside the timed draw loop. */
                        st->draw_nsec += now - seg;
                        health_feed(&hs, buf, nbuf);
                        nbuf = 0;
                        seg = now = now_nsec();
                }
                if (c.attempts >= max)
                        break;
                if (now >= deadline && c.attempts >= minimum)
                        break;
        }
        st->draw_nsec += now - seg;
        health_feed(&hs, buf, nbuf);

        /* A streak still open at the end counts like one in the middle. */
        st->attempts = c.attempts;
        st->failures = c.failures;
        st->delivered = c.attempts - c.failures;
        st->longest = c.longest;
        st->trailing = c.streak;
        st->loop_failures = c.loop_failures + c.streak / retries;
        st->over_retries = c.over_retries;
        st->n_lat = c.n_lat;
        memcpy(st->hist, c.hist, sizeof(c.hist));
        health_finish(&hs, &st->health);
        return 0;
}

static int cmp_u32(const void *a, const void *b) {
        uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
        return x < y ? -1 : x > y;
}

/* Merge the streams into a run. */
/* The tries per kernel loop a run is judged by: vp's, or (0) a stock
 * kernel's for the source's instruction. probe_run_all() passes the running
 * kernel's. */
static uint64_t run_retries(const RngSource *src, const VerdictParams *vp) {
        return kernel_retries_for(NULL, src->instruction, vp->kernel_retries, NULL, NULL);
}

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

/* A pool of pinned threads, released together for each contention run. */
typedef struct Pool Pool;

typedef struct Worker {
        Pool *pool;
        unsigned index;
        int cpu;
        int pin_error;
        Stream stream;
} Worker;

struct Pool {
        unsigned n;
        Worker *workers;
        pthread_t *tids;
        unsigned n_started;
        pthread_barrier_t start, done;
        /* Start-up gate: threads wait here until all exist (go) or creation failed (abort). */
        pthread_mutex_t gate_lock;
        pthread_cond_t gate_cond;
        bool go, abort;
        bool quit;
        /* The current job. */
        const RngSource *const *srcs;
        const ProbeLimits *limits;
        const HealthParams *health;
        uint64_t retries;
};

static void *worker_main(void *arg) {
        Worker *w = arg;
        Pool *p = w->pool;

        if (w->cpu >= 0) {
                cpu_set_t s;

                CPU_ZERO(&s);
                CPU_SET(w->cpu, &s);
                w->pin_error = pthread_setaffinity_np(pthread_self(), sizeof(s), &s);
        }

        pthread_mutex_lock(&p->gate_lock);
        while (!p->go && !p->abort)
                pthread_cond_wait(&p->gate_cond, &p->gate_lock);
        pthread_mutex_unlock(&p->gate_lock);
        if (p->abort)
                return NULL;

        for (;;) {
                pthread_barrier_wait(&p->start);
                if (p->quit)
                        break;
                stream_done(&w->stream);
                if (w->pin_error == 0)
                        w->stream.error = stream_run(p->srcs[w->index], p->limits, p->health, p->retries, &w->stream);
                else
                        w->stream = (Stream) { .error = -w->pin_error };
                pthread_barrier_wait(&p->done);
        }
        return NULL;
}

static void pool_free(Pool *p) {
        if (!p)
                return;
        if (p->go) {
                p->quit = true;
                pthread_barrier_wait(&p->start);
        }
        for (unsigned i = 0; i < p->n_started; i++)
                pthread_join(p->tids[i], NULL);
        if (p->workers) {
                for (unsigned i = 0; i < p->n; i++)
                        stream_done(&p->workers[i].stream);
                pthread_barrier_destroy(&p->start);
                pthread_barrier_destroy(&p->done);
                pthread_mutex_destroy(&p->gate_lock);
                pthread_cond_destroy(&p->gate_cond);
        }
        free(p->workers);
        free(p->tids);
        free(p);
}

static void pool_freep(Pool **p) {
        pool_free(*p);
}

static int pool_new(const int *cpus, unsigned n, Pool **ret) {
        Pool *p;
        int r = 0;

        p = calloc(1, sizeof(Pool));
        if (!p)
                return -ENOMEM;
        p->n = n;
        p->workers = calloc(n, sizeof(Worker));
        p->tids = calloc(n, sizeof(pthread_t));
        if (!p->workers || !p->tids) {
                free(p->workers);
                p->workers = NULL;
                pool_free(p);
                return -ENOMEM;
        }
        pthread_barrier_init(&p->start, NULL, n + 1);
        pthread_barrier_init(&p->done, NULL, n + 1);
        pthread_mutex_init(&p->gate_lock, NULL);
        pthread_cond_init(&p->gate_cond, NULL);

        for (unsigned i = 0; i < n; i++) {
                p->workers[i] = (Worker) { .pool = p, .index = i, .cpu = cpus ? cpus[i] : -1 };
                r = pthread_create(&p->tids[i], NULL, worker_main, &p->workers[i]);
                if (r != 0)
                        break;
                p->n_started++;
        }

        /* Open the gate, or tell the started threads to leave. */
        pthread_mutex_lock(&p->gate_lock);
        if (r != 0)
                p->abort = true;
        else
                p->go = true;
        pthread_cond_broadcast(&p->gate_cond);
        pthread_mutex_unlock(&p->gate_lock);
        if (r != 0) {
                pool_free(p);
                return -r;
        }
        *ret = p;
        return 0;
}

static int pool_run(Pool *p, const RngSource *const *srcs, const ProbeLimits *limits,
                    const HealthParams *health, const VerdictParams *vp, ProbeRun *ret) {
        _cleanup_free_ Stream *streams = NULL;
        uint64_t t0, t1;
        unsigned k = 0;
        int r;

        p->srcs = srcs;
        p->limits = limits;
        p->health = health;
        p->retries = run_retries(srcs[0], vp);

        t0 = now_nsec();
        pthread_barrier_wait(&p->start);
        pthread_barrier_wait(&p->done);
        t1 = now_nsec();

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
        r = run_from_streams(srcs[0], PROBE_CONTENTION, streams, k, t1 - t0, vp, ret);
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
        return pool_run(p, srcs, limits, health, vp, ret);
}

static int read_cpu_list_file(const char *path, cpu_set_t *ret) {
        _cleanup_free_ char *buf = NULL;
        size_t n;
        int r;

        r = read_small_file(path, 4096, &buf, &n);
        if (r == -EFBIG)
                return log_error_errno(-E2BIG, "%s: CPU list too long", path);
        if (r < 0)
                return r;
        r = parse_cpu_list(buf, n, ret);
        if (r < 0)
                return log_error_errno(r, "%s: invalid CPU list", path);
        return 0;
}

int probe_cpus_discover(unsigned threads, ProbeCpus *ret) {
        cpu_set_t usable;
        unsigned n = 0;
        int r;

        *ret = (ProbeCpus) {};
        if (sched_getaffinity(0, sizeof(ret->allowed), &ret->allowed) < 0)
                return log_error_errno(negative_errno(), "sched_getaffinity() failed: %m");

        r = read_cpu_list_file("/sys/devices/system/cpu/online", &ret->online);
        if (r == -ENOENT)
                ret->online = ret->allowed; /* no sysfs: what we may use is what is online */
        else if (r < 0)
                return r;
        r = read_cpu_list_file("/sys/devices/system/cpu/possible", &ret->possible);
        if (r == -ENOENT)
                ret->possible = ret->online;
        else if (r < 0)
                return r;

        CPU_OR(&ret->possible, &ret->possible, &ret->online);
        CPU_XOR(&ret->skipped_offline, &ret->possible, &ret->online);
        CPU_AND(&usable, &ret->online, &ret->allowed);
        CPU_XOR(&ret->skipped_forbidden, &ret->online, &usable);

        for (int c = 0; c < CPU_SETSIZE; c++) {
                if (!CPU_ISSET(c, &usable))
                        continue;
                if (threads > 0 && n >= threads)
                        break;
                CPU_SET(c, &ret->used);
                n++;
        }
        if (threads > 0 && n < threads)
                return -E2BIG;
        return 0;
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
                        r = pool_run(pool, srcs, &p->limits, &p->health, &vp, run);
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
