/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Benchmark (not a test): the false alarms and the power of the daemon's
 * default probe, measured. Each "probe" is one probe_run_all() with
 * probe_params_default(): the default budget, both instructions, every
 * width, single + contention (every usable CPU), as `rng-health monitor`
 * runs it at boot.
 *
 *  (a) the real CPU (hardware sources, the real CPUID);
 *  (b) a known-good software source: getrandom(2) values through the
 *      engine's RngSource interface (buffered; both instructions "advertised");
 *  power: scripted sources that are not good (1 % failed tries, Zen5-like
 *      zeros with CF=1, a stuck bit, values narrower than the width,
 *      all-ones, one repeated value).
 *
 * Observed counts come with the exact one-sided 95 % Clopper-Pearson bound
 * (0 of n: 1 - 0.05^(1/n) ~ 3/n); false alarms are printed beside the
 * analytic bound, health_false_alarm_bound() summed over the streams of one
 * default probe. Built and run by bench/false-alarm.sh. */

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "health.h"
#include "probe.h"
#include "rng-source.h"
#include "verdict.h"

/* ---- statistics ---- */

static double log_pmf(uint64_t n, double p, uint64_t k) {
        if (p <= 0)
                return k == 0 ? 0 : -INFINITY;
        if (p >= 1)
                return k == n ? 0 : -INFINITY;
        return lgamma((double) n + 1) - lgamma((double) k + 1) - lgamma((double) (n - k) + 1) +
               (double) k * log(p) + (double) (n - k) * log1p(-p);
}

/* P[Bin(n, p) <= k]. */
static double binom_cdf(uint64_t n, double p, uint64_t k) {
        double s = 0;

        if (k >= n)
                return 1;
        for (uint64_t j = 0; j <= k; j++)
                s += exp(log_pmf(n, p, j));
        return fmin(s, 1);
}

/* Exact one-sided 95 % upper bound of p after k of n (Clopper-Pearson). */
static double cp_upper(uint64_t k, uint64_t n) {
        double lo = (double) k / (double) n, hi = 1;

        if (n == 0 || k >= n)
                return 1;
        if (k == 0)
                return 1 - pow(0.05, 1.0 / (double) n);
        for (int i = 0; i < 100; i++) {
                double mid = (lo + hi) / 2;
                if (binom_cdf(n, mid, k) > 0.05)
                        lo = mid;
                else
                        hi = mid;
        }
        return hi;
}

/* One-sided 95 % lower bound of p after k of n. */
static double cp_lower(uint64_t k, uint64_t n) {
        return 1 - cp_upper(n - k, n);
}

/* ---- sources ---- */

typedef enum Kind {
        KIND_GOOD,      /* getrandom values, never fails */
        KIND_FAIL1,     /* 1 % of tries fail, values good */
        KIND_ZEN5,      /* RDSEED 16/32: 0 with CF=1 in 1 of 256 values */
        KIND_STUCK_BIT, /* bit 7 always 1 */
        KIND_NARROW,    /* 32/64-bit values with only 16 random bits (the folded build) */
        KIND_ALL_ONES,  /* every value all-ones */
        KIND_REPEAT,    /* one random value, repeated, per stream */
        _KIND_MAX,
} Kind;

static const char *const kind_names[_KIND_MAX] = {
        [KIND_GOOD] = "getrandom (known good)",
        [KIND_FAIL1] = "1 % of tries fail",
        [KIND_ZEN5] = "RDSEED16/32 0 with CF=1 in 1/256",
        [KIND_STUCK_BIT] = "bit 7 stuck at 1",
        [KIND_NARROW] = "32/64-bit values carry 16 bits",
        [KIND_ALL_ONES] = "all-ones values",
        [KIND_REPEAT] = "one value repeated",
};

#define RBUF 65536

typedef struct Buf {
        uint8_t b[RBUF];
        size_t pos;
} Buf;

static void buf_refill(Buf *b) {
        size_t got = 0;

        while (got < RBUF) {
                ssize_t r = getrandom(b->b + got, RBUF - got, 0);
                if (r < 0) {
                        if (errno == EINTR)
                                continue;
                        perror("false-alarm: getrandom");
                        exit(1);
                }
                got += (size_t) r;
        }
        b->pos = 0;
}

static inline uint64_t buf_take(Buf *b, unsigned bytes) {
        uint64_t v = 0;

        if (b->pos + bytes > RBUF)
                buf_refill(b);
        memcpy(&v, b->b + b->pos, bytes);
        b->pos += bytes;
        return v;
}

typedef struct Src {
        RngSource src;
        Kind kind;
        Buf *buf;
        uint64_t mask;
        uint64_t constant;
        bool have_constant;
} Src;

static bool src_draw(void *u, uint64_t *ret) {
        Src *s = u;
        unsigned bytes = s->src.width / 8;

        switch (s->kind) {
        case KIND_GOOD:
                break;
        case KIND_FAIL1:
                /* P = 42949673 / 2^32 = 0.0100000000 */
                if (buf_take(s->buf, 4) < UINT64_C(42949673))
                        return false;
                break;
        case KIND_ZEN5:
                if (s->src.instruction == RNG_SOURCE_RDSEED && s->src.width <= 32 && buf_take(s->buf, 1) == 0) {
                        *ret = 0;
                        return true;
                }
                break;
        case KIND_STUCK_BIT:
                *ret = (buf_take(s->buf, bytes) | 0x80) & s->mask;
                return true;
        case KIND_NARROW:
                *ret = buf_take(s->buf, 2);
                return true;
        case KIND_ALL_ONES:
                *ret = s->mask;
                return true;
        case KIND_REPEAT:
                if (!s->have_constant) {
                        s->constant = buf_take(s->buf, bytes) & s->mask;
                        s->have_constant = true;
                }
                *ret = s->constant;
                return true;
        default:
                abort();
        }
        *ret = buf_take(s->buf, bytes) & s->mask;
        return true;
}

typedef struct Sources {
        Kind kind;
        unsigned n_threads;
        Buf *bufs;      /* one per thread index */
        Src *srcs;      /* [thread][instruction][width] */
} Sources;

static const RngSource *source_fn(RngSourceId i, unsigned width, unsigned thread, void *userdata) {
        Sources *s = userdata;
        int w = rng_width_index(width);
        Src *src;

        if (w < 0 || thread >= s->n_threads)
                return NULL;
        src = &s->srcs[(thread * _RNG_SOURCE_MAX + i) * RNG_N_WIDTHS + w];
        src->kind = s->kind;
        src->have_constant = false; /* a new stream */
        return &src->src;
}

static int sources_init(Sources *s, unsigned n_threads) {
        *s = (Sources) { .n_threads = n_threads };
        s->bufs = calloc(n_threads, sizeof(Buf));
        s->srcs = calloc((size_t) n_threads * _RNG_SOURCE_MAX * RNG_N_WIDTHS, sizeof(Src));
        if (!s->bufs || !s->srcs)
                return -ENOMEM;
        for (unsigned t = 0; t < n_threads; t++) {
                buf_refill(&s->bufs[t]);
                for (int i = 0; i < _RNG_SOURCE_MAX; i++)
                        for (int w = 0; w < RNG_N_WIDTHS; w++) {
                                Src *src = &s->srcs[(t * _RNG_SOURCE_MAX + i) * RNG_N_WIDTHS + w];
                                unsigned width = rng_widths[w];

                                *src = (Src) {
                                        .src = { .name = "bench", .instruction = i, .width = width,
                                                 .draw = src_draw, .userdata = src },
                                        .buf = &s->bufs[t],
                                        .mask = width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1,
                                };
                        }
        }
        return 0;
}

/* ---- tallies ---- */

#define N_CHECK_BITS 32

typedef struct Tally {
        uint64_t probes;
        uint64_t verdict[_VERDICT_MAX];       /* overall verdict of the probe */
        uint64_t check_probes[N_CHECK_BITS];  /* probes in which a run failed this check */
        uint64_t check_runs[N_CHECK_BITS];    /* runs that failed it */
        uint64_t output_alarm;                /* probes with any output check failed */
        uint64_t runs;
        double bound;                         /* analytic false-alarm bound of one probe */
        double seconds;
} Tally;

static double now(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double probe_bound(const ProbeReport *rep) {
        double b = 0;

        for (int i = 0; i < _RNG_SOURCE_MAX; i++)
                for (unsigned k = 0; k < rep->instr[i].n_runs; k++) {
                        const ProbeRun *r = &rep->instr[i].runs[k];
                        /* Each thread's values are their own stream, of at most max_attempts values. */
                        b += r->threads * health_false_alarm_bound(&rep->health, r->width, rep->limits.max_attempts);
                }
        return b;
}

static void tally_add(Tally *t, const ProbeReport *rep) {
        unsigned any = 0;

        t->probes++;
        t->verdict[rep->verdict]++;
        for (int i = 0; i < _RNG_SOURCE_MAX; i++)
                for (unsigned k = 0; k < rep->instr[i].n_runs; k++) {
                        unsigned f = rep->instr[i].runs[k].health.failed;

                        t->runs++;
                        any |= f;
                        for (unsigned b = 0; b < N_CHECK_BITS; b++)
                                if (f & (1u << b))
                                        t->check_runs[b]++;
                }
        for (unsigned b = 0; b < N_CHECK_BITS; b++)
                if (any & (1u << b))
                        t->check_probes[b]++;
        if (any)
                t->output_alarm++;
}

static const char *check_name(unsigned b) {
        static char s[16];
        const char *n = health_check_to_string(1u << b);

        if (n)
                return n;
        snprintf(s, sizeof(s), "check-bit-%u", b);
        return s;
}

static void print_verdicts(const Tally *t) {
        printf("    verdicts:");
        for (int v = 0; v < _VERDICT_MAX; v++)
                if (t->verdict[v])
                        printf(" %s %llu", verdict_to_string(v), (unsigned long long) t->verdict[v]);
        printf("\n");
        for (unsigned b = 0; b < N_CHECK_BITS; b++)
                if (t->check_probes[b])
                        printf("    failed check %-16s in %llu probes (%llu runs)\n", check_name(b),
                               (unsigned long long) t->check_probes[b], (unsigned long long) t->check_runs[b]);
}

static void print_rate(const char *what, uint64_t k, uint64_t n) {
        printf("    %-34s %llu of %llu = %.3g, 95 %% upper bound %.3g\n", what, (unsigned long long) k,
               (unsigned long long) n, n ? (double) k / (double) n : 0.0, cp_upper(k, n));
}

static void print_power(const char *what, uint64_t k, uint64_t n) {
        printf("    %-34s %llu of %llu = %.6f, 95 %% lower bound %.6f (miss <= %.3g)\n", what,
               (unsigned long long) k, (unsigned long long) n, n ? (double) k / (double) n : 0.0, cp_lower(k, n),
               cp_upper(n - k, n));
}

static int run_probes(const ProbeParams *p, uint64_t n, Tally *t) {
        double t0 = now();

        *t = (Tally) {};
        for (uint64_t k = 0; k < n; k++) {
                ProbeReport rep;
                int r = probe_run_all(p, NULL, &rep);

                if (r < 0) {
                        fprintf(stderr, "false-alarm: probe_run_all: %s\n", strerror(-r));
                        return r;
                }
                if (k == 0)
                        t->bound = probe_bound(&rep);
                tally_add(t, &rep);
        }
        t->seconds = now() - t0;
        return 0;
}

static void usage(void) {
        printf("Usage: false-alarm [--hw N] [--sw N] [--power N] [--budget-runs N] [--quick]\n"
               "  --hw N           default probes on the real CPU (default 10000; 0: skip)\n"
               "  --sw N           default probes on getrandom values (default 100000)\n"
               "  --power N        default probes per power case (default 1000)\n"
               "  --budget-runs N  single 16-bit runs per --count for the Zen5 budget (default 10000)\n"
               "  --quick          100 / 1000 / 100 / 1000\n");
}

int main(int argc, char **argv) {
        uint64_t n_hw = 10000, n_sw = 100000, n_power = 1000, n_budget = 10000;
        static const struct option opts[] = {
                { "hw", required_argument, NULL, 'a' },
                { "sw", required_argument, NULL, 'b' },
                { "power", required_argument, NULL, 'p' },
                { "budget-runs", required_argument, NULL, 'B' },
                { "quick", no_argument, NULL, 'q' },
                { "help", no_argument, NULL, 'h' },
                {},
        };
        static const bool cpuid_all[_RNG_SOURCE_MAX] = { true, true };
        ProbeCpus cpus;
        Sources sources;
        ProbeParams p;
        Tally t;
        int c, r;

        while ((c = getopt_long(argc, argv, "h", opts, NULL)) >= 0)
                switch (c) {
                case 'a': n_hw = strtoull(optarg, NULL, 10); break;
                case 'b': n_sw = strtoull(optarg, NULL, 10); break;
                case 'p': n_power = strtoull(optarg, NULL, 10); break;
                case 'B': n_budget = strtoull(optarg, NULL, 10); break;
                case 'q': n_hw = 100; n_sw = 1000; n_power = 100; n_budget = 1000; break;
                case 'h': usage(); return 0;
                default: usage(); return 2;
                }

        r = probe_cpus_discover(0, &cpus);
        if (r < 0) {
                fprintf(stderr, "false-alarm: probe_cpus_discover: %s\n", strerror(-r));
                return 1;
        }
        unsigned n_cpus = CPU_COUNT(&cpus.used);
        if (sources_init(&sources, n_cpus < 1 ? 1 : n_cpus) < 0)
                return 1;

        probe_params_default(&p);
        printf("Default probe: probe_run_all(probe_params_default()): budget %llu us, %llu..%llu tries per "
               "thread per run, both instructions, widths 16/32/64, single + contention on %u CPUs.\n"
               "Bounds: exact one-sided 95 %% (Clopper-Pearson).\n\n",
               (unsigned long long) p.limits.budget_usec, (unsigned long long) p.limits.min_attempts,
               (unsigned long long) p.limits.max_attempts, n_cpus);

        /* (a) The real CPU. */
        if (n_hw > 0) {
                bool any = false;
                for (int i = 0; i < _RNG_SOURCE_MAX; i++)
                        any |= rng_source_advertised(i);
                if (!rng_arch_supported() || !any)
                        printf("(a) real CPU: skipped, CPUID advertises neither instruction\n\n");
                else {
                        if (run_probes(&p, n_hw, &t) < 0)
                                return 1;
                        printf("(a) real CPU (hardware sources; RDRAND %s, RDSEED %s by CPUID): %llu default probes, "
                               "%llu runs, %.1f s\n",
                               rng_source_advertised(RNG_SOURCE_RDRAND) ? "yes" : "no",
                               rng_source_advertised(RNG_SOURCE_RDSEED) ? "yes" : "no", (unsigned long long) t.probes,
                               (unsigned long long) t.runs, t.seconds);
                        print_verdicts(&t);
                        print_rate("output-check alarm (broken) / probe", t.output_alarm, t.probes);
                        printf("    %-34s %.3g (health_false_alarm_bound, summed over streams; goal <= 1e-6)\n",
                               "analytic bound / probe", t.bound);
                        print_rate("degraded/exhausted (failed tries)", t.verdict[VERDICT_DEGRADED] +
                                   t.verdict[VERDICT_EXHAUSTED], t.probes);
                        printf("    (failed tries are measurements of the CPU, not output-check false alarms)\n\n");
                }
        }

        /* (b) getrandom through the RngSource interface. */
        p.source = source_fn;
        p.source_userdata = &sources;
        p.cpuid = cpuid_all;
        if (n_sw > 0) {
                sources.kind = KIND_GOOD;
                if (run_probes(&p, n_sw, &t) < 0)
                        return 1;
                printf("(b) %s: %llu default probes, %llu runs, %.1f s\n", kind_names[KIND_GOOD],
                       (unsigned long long) t.probes, (unsigned long long) t.runs, t.seconds);
                print_verdicts(&t);
                print_rate("non-ok verdict / probe", t.probes - t.verdict[VERDICT_OK], t.probes);
                printf("    %-34s %.3g (health_false_alarm_bound, summed over streams; goal <= 1e-6)\n\n",
                       "analytic bound / probe", t.bound);
        }

        /* Power. */
        if (n_power > 0) {
                printf("Power (default probe; detected = the verdict named):\n");
                for (Kind k = KIND_FAIL1; k < _KIND_MAX; k++) {
                        Verdict want = k == KIND_FAIL1 ? VERDICT_DEGRADED : VERDICT_BROKEN;
                        uint64_t hit = 0;

                        sources.kind = k;
                        if (run_probes(&p, n_power, &t) < 0)
                                return 1;
                        for (int v = want; v < _VERDICT_MAX; v++)
                                hit += t.verdict[v];
                        printf("  %s: %llu probes, %.1f s\n", kind_names[k], (unsigned long long) t.probes, t.seconds);
                        print_verdicts(&t);
                        print_power(k == KIND_FAIL1 ? "degraded or worse" : "broken", hit, t.probes);
                }
                printf("\n");
        }

        /* The Zen5 pattern at one width alone: a single run, per budget. */
        if (n_budget > 0) {
                static const struct { unsigned width; uint64_t counts[8]; } budgets[] = {
                        { 16, { 4096, 6144, 8192, 10240, 12288, 16384 } },
                        { 32, { 1024, 2048, 4096 } },
                };
                ProbeParams q = p;

                sources.kind = KIND_ZEN5;
                q.instructions = 1u << RNG_SOURCE_RDSEED;
                q.threads = 1;
                printf("Zen5 pattern, RDSEED at one width, one single run (--instruction rdseed --width W --threads 1 --count N),\n"
                       "%llu runs per row (goal: broken in >= 99.9 %%):\n", (unsigned long long) n_budget);
                for (size_t k = 0; k < sizeof(budgets) / sizeof(budgets[0]); k++)
                        for (size_t j = 0; j < 8 && budgets[k].counts[j]; j++) {
                                uint64_t count = budgets[k].counts[j];
                                char what[64];

                                q.widths = 1u << rng_width_index(budgets[k].width);
                                q.limits = (ProbeLimits) { .budget_usec = 0, .max_attempts = count, .min_attempts = 1024 };
                                if (run_probes(&q, n_budget, &t) < 0)
                                        return 1;
                                snprintf(what, sizeof(what), "%u-bit --count %llu: broken", budgets[k].width,
                                         (unsigned long long) count);
                                print_power(what, t.verdict[VERDICT_BROKEN], t.probes);
                                /* The zero-rate check alone, exactly: zeros ~ Bin(n, 1/256 + 255/256 2^-w). */
                                double pu = ldexp(1.0, -(int) budgets[k].width), p0 = 1.0 / 256 + 255.0 / 256 * pu;
                                uint64_t cut = binomial_critical(count, pu, q.health.log2_alpha);
                                printf("      analytic, zero-rate check alone: cutoff %llu zeros, miss %.3g\n",
                                       (unsigned long long) cut, cut > 0 ? binom_cdf(count, p0, cut - 1) : 0.0);
                        }
        }
        return 0;
}
