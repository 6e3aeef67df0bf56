/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Output checks: cutoffs against independently computed values, behaviour
 * on scripted data, the false-alarm bound and a false-alarm simulation. */

#include <math.h>
#include <string.h>

#include "health.h"
#include "macro.h"
#include "probe.h"
#include "scripted-source.h"
#include "test-util.h"

static void test_cutoffs_nist_table(void) {
        /* SP 800-90B table 2 (alpha = 2^-20, W = 512, non-binary samples):
         * H = 1 -> 311, 2 -> 177, 4 -> 62, 8 -> 13. */
        static const struct { double h; uint64_t c; } table[] = { { 1, 311 }, { 2, 177 }, { 4, 62 }, { 8, 13 } };

        for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
                CHECK_EQ_U64(binomial_critical(512, exp2(-table[i].h), -20), table[i].c);
        /* Binary samples, W = 1024, H = 1: 589. */
        CHECK_EQ_U64(binomial_critical(1024, 0.5, -20), 589);
}

static void test_cutoffs_default(void) {
        HealthParams p = HEALTH_PARAMS_DEFAULT;
        HealthCutoffs c;

        /* C_RCT = 1 + ceil(40 / (width/2)). */
        CHECK_EQ_INT(health_cutoffs(&p, 16, &c), 0);
        CHECK_EQ_U64(c.rct_cutoff, 6);
        /* APT cutoffs, exact values computed with Python fractions:
         * smallest c with P[Bin(512, 2^-H) >= c] <= 2^-40. */
        CHECK_EQ_U64(c.apt_cutoff, 19);
        CHECK_EQ_U64(c.apt_window, 512);
        CHECK_EQ_INT(health_cutoffs(&p, 32, &c), 0);
        CHECK_EQ_U64(c.rct_cutoff, 4);
        CHECK_EQ_U64(c.apt_cutoff, 5);
        CHECK_EQ_INT(health_cutoffs(&p, 64, &c), 0);
        CHECK_EQ_U64(c.rct_cutoff, 3);
        CHECK_EQ_U64(c.apt_cutoff, 2);

        /* Rate cutoffs (exact, Python fractions): P[Bin(n, 2^-w) >= c] <= 2^-40. */
        static const struct { uint64_t n; unsigned w; uint64_t c; } rate[] = {
                { 64, 16, 4 },   { 64, 32, 2 },   { 64, 64, 1 },
                { 1024, 16, 6 }, { 1024, 32, 2 }, { 1024, 64, 1 },
                { 4096, 16, 7 }, { 4096, 32, 2 }, { 4096, 64, 1 },
        };
        for (size_t i = 0; i < sizeof(rate) / sizeof(rate[0]); i++)
                CHECK(binomial_critical(rate[i].n, exp2(-(double) rate[i].w), -40) == rate[i].c,
                      "n=%" PRIu64 " w=%u: got %" PRIu64 ", expected %" PRIu64, rate[i].n, rate[i].w,
                      binomial_critical(rate[i].n, exp2(-(double) rate[i].w), -40), rate[i].c);

        /* Bad parameters are refused. */
        p.log2_alpha = 0;
        CHECK(health_cutoffs(&p, 16, &c) < 0, "alpha = 1 accepted");
        p = HEALTH_PARAMS_DEFAULT;
        p.entropy_per_bit = 0;
        CHECK(health_cutoffs(&p, 16, &c) < 0, "H = 0 accepted");
        p = HEALTH_PARAMS_DEFAULT;
        CHECK(health_cutoffs(&p, 0, &c) < 0, "width 0 accepted");
        CHECK(health_cutoffs(&p, 65, &c) < 0, "width 65 accepted");
}

static void test_binomial_tail(void) {
        /* Against the closed form where one exists. */
        CHECK(fabs(binomial_upper_tail(10, 0.5, 10) - exp2(-10)) < 1e-15, "P[Bin(10,1/2)=10]");
        CHECK(fabs(binomial_upper_tail(100, 0.01, 1) - (1 - pow(0.99, 100))) < 1e-12, "P[Bin(100,.01)>=1]");
        CHECK(fabs(binomial_upper_tail(20, 0.3, 3) - 0.96451689) < 1e-7, "P[Bin(20,.3)>=3] = %.10f",
              binomial_upper_tail(20, 0.3, 3));
        CHECK(binomial_upper_tail(5, 0.5, 0) == 1, "k=0");
        CHECK(binomial_upper_tail(5, 0.5, 6) == 0, "k>n");
        CHECK_EQ_U64(binomial_critical(0, 0.5, -40), 1);
}

static HealthResult feed_all(unsigned width, const uint64_t *v, size_t n) {
        HealthParams p = HEALTH_PARAMS_DEFAULT;
        HealthState s;
        HealthResult r;

        CHECK_EQ_INT(health_init(&s, &p, width), 0);
        health_feed(&s, v, n);
        health_finish(&s, &r);
        return r;
}

static void test_checks_on_data(void) {
        uint64_t v[4096], seed = 1;
        HealthResult r;

        /* Healthy data passes. */
        for (size_t i = 0; i < 4096; i++)
                v[i] = splitmix64(&seed);
        r = feed_all(64, v, 4096);
        CHECK(r.failed == 0, "healthy 64-bit failed 0x%x", r.failed);
        CHECK_EQ_U64(r.samples, 4096);
        CHECK_EQ_U64(r.apt_windows, 8);

        /* Stuck at zero: caught by RCT at the cutoff, flagged stuck-zero. */
        memset(v, 0, sizeof(v));
        r = feed_all(16, v, 6);
        CHECK(r.failed & HEALTH_STUCK_ZERO, "6 zeros not stuck-zero: 0x%x", r.failed);
        CHECK(r.failed & HEALTH_RCT, "6 zeros not rct");
        CHECK_EQ_U64(r.rct_failures, 1);
        r = feed_all(16, v, 5); /* one below the RCT cutoff: RCT quiet */
        CHECK(!(r.failed & HEALTH_RCT), "5 zeros tripped rct");

        /* Stuck all-ones at 32 bits. */
        for (size_t i = 0; i < 64; i++)
                v[i] = UINT32_MAX;
        r = feed_all(32, v, 64);
        CHECK(r.failed & HEALTH_STUCK_ONES, "all-ones not flagged: 0x%x", r.failed);
        CHECK(r.failed & HEALTH_ONES_RATE, "ones-rate not flagged");
        CHECK_EQ_U64(r.all_ones, 64);

        /* A stuck non-special value is RCT (and APT, repeats) but not stuck-zero/ones. */
        for (size_t i = 0; i < 64; i++)
                v[i] = 0x1234;
        r = feed_all(16, v, 64);
        CHECK(r.failed & HEALTH_RCT, "stuck 0x1234 not rct");
        CHECK(r.failed & HEALTH_REPEAT_RATE, "stuck 0x1234 not repeat-rate");
        CHECK(r.failed & HEALTH_APT, "stuck 0x1234 not apt");
        CHECK(!(r.failed & (HEALTH_STUCK_ZERO | HEALTH_STUCK_ONES)), "0x1234 flagged zero/ones");
        CHECK_EQ_U64(r.rct_failures, 1);
        CHECK_EQ_U64(r.rct_longest_run, 64);

        /* Alternating two values: no RCT, but APT sees the first value W/2 times. */
        for (size_t i = 0; i < 512; i++)
                v[i] = i & 1 ? 0x5555 : 0xaaaa;
        r = feed_all(16, v, 512);
        CHECK(!(r.failed & HEALTH_RCT), "alternating tripped rct");
        CHECK(r.failed & HEALTH_APT, "alternating not apt");
        CHECK_EQ_U64(r.apt_max_count, 256);
        CHECK_EQ_U64(r.apt_failures, 1);

        /* APT at its boundary (C = 19 at 16 bits): the first value of a window
         * 19 times fails, 18 times passes. Other values are distinct. */
        for (unsigned count = 18; count <= 19; count++) {
                for (size_t i = 0; i < 512; i++)
                        v[i] = i < count ? 0x4242 : 0x1000 + i;
                /* Spread the repeats so that RCT does not see a run. */
                for (size_t i = 1; i < count; i++) {
                        uint64_t t = v[i];
                        v[i] = v[i * 20];
                        v[i * 20] = t;
                }
                r = feed_all(16, v, 512);
                CHECK(!(r.failed & HEALTH_RCT), "apt boundary: rct 0x%x", r.failed);
                CHECK_EQ_U64(r.apt_max_count, count);
                CHECK_EQ_U64(r.apt_failures, count == 19 ? 1 : 0);
        }

        /* The kernel's boot self-test: 5 of 7 pairs must differ. */
        {
                static const uint64_t four[8] = { 1, 1, 2, 2, 3, 3, 4, 5 };  /* 4 changes */
                static const uint64_t five[8] = { 1, 1, 2, 2, 3, 4, 5, 6 };  /* 5 changes */
                HealthParams hp = HEALTH_PARAMS_DEFAULT;
                HealthState hs;

                r = feed_all(64, four, 8);
                CHECK(r.failed & HEALTH_KERNEL_SELFTEST, "4 changes passed the self-test");
                CHECK_EQ_U64(r.selftest_changes, 4);
                r = feed_all(64, five, 8);
                CHECK(!(r.failed & HEALTH_KERNEL_SELFTEST), "5 changes failed the self-test");
                CHECK_EQ_U64(r.selftest_changes, 5);
                r = feed_all(64, four, 7); /* not enough values yet */
                CHECK(!(r.failed & HEALTH_KERNEL_SELFTEST), "self-test on 7 values");
                /* Split across feeds: the same answer. */
                health_init(&hs, &hp, 64);
                health_feed(&hs, four, 3);
                health_feed(&hs, four + 3, 5);
                health_finish(&hs, &r);
                CHECK_EQ_U64(r.selftest_changes, 4);
                CHECK(r.failed & HEALTH_KERNEL_SELFTEST, "split feed");
        }

        /* Zen5 pattern: ~10 % zeros at 16 bits. */
        seed = 7;
        for (size_t i = 0; i < 1024; i++)
                v[i] = splitmix64_double(&seed) < 0.1 ? 0 : (splitmix64(&seed) & 0xffff) | 1;
        r = feed_all(16, v, 1024);
        CHECK(r.failed & HEALTH_ZERO_RATE, "10%% zeros not zero-rate (%" PRIu64 " zeros, cutoff %" PRIu64 ")",
              r.zeros, r.zeros_cutoff);

        /* Nothing delivered. */
        r = feed_all(64, v, 0);
        CHECK(r.failed == HEALTH_EMPTY, "empty: 0x%x", r.failed);

        /* Merge keeps the strictest cutoffs and adds counts. */
        HealthResult a = feed_all(64, v, 10), b = feed_all(64, v, 20), m = {};
        health_result_merge(&m, &a);
        health_result_merge(&m, &b);
        CHECK_EQ_U64(m.samples, 30);
        CHECK_EQ_U64(m.zeros, a.zeros + b.zeros);
}

/* Every stuck value is caught within 64 values, at every width. */
static void test_stuck_power(void) {
        static const uint64_t stuck[] = { 0, 1, 0xffff, 0x8000, UINT32_MAX, UINT64_MAX, 0x0123456789abcdef };
        unsigned widths[] = { 16, 32, 64 };
        uint64_t v[64];

        for (size_t w = 0; w < 3; w++)
                for (size_t s = 0; s < sizeof(stuck) / sizeof(stuck[0]); s++) {
                        uint64_t m = widths[w] == 64 ? UINT64_MAX : (UINT64_C(1) << widths[w]) - 1;
                        HealthResult r;

                        for (size_t i = 0; i < 64; i++)
                                v[i] = stuck[s] & m;
                        r = feed_all(widths[w], v, 64);
                        CHECK(r.failed & HEALTH_RCT, "width %u stuck at %#" PRIx64 " not caught", widths[w],
                              stuck[s] & m);
                }
}

/* The analytical per-probe false-alarm bound of a default probe on a uniform
 * source, for up to CPU_SETSIZE CPUs, is below 1e-6. */
static void test_false_alarm_bound(void) {
        HealthParams p = HEALTH_PARAMS_DEFAULT;
        ProbeLimits l = PROBE_LIMITS_DEFAULT;
        double per_run = 0, total;
        const unsigned cpus = 1024;

        for (unsigned w = 16; w <= 64; w *= 2) {
                double b = health_false_alarm_bound(&p, w, l.max_attempts);
                /* Bit balance alone is 2 tails x width positions x alpha/2 = width x 2^-40. */
                CHECK(b > w * exp2(-41) && b < 1e-10, "width %u: per-stream bound %g", w, b);
                per_run += b;
        }
        /* 2 instructions x (1 single + `cpus` contention streams + the
         * contention run's merged bit-balance counts) per width. */
        total = 2 * (1 + cpus + 1) * per_run;
        printf("false-alarm bound per default probe (%u CPUs): %.3g\n", cpus, total);
        CHECK(total < 1e-6, "bound %g >= 1e-6", total);
        /* The bound grows with the number of values (sanity of the function). */
        CHECK(health_false_alarm_bound(&p, 16, 1 << 20) > health_false_alarm_bound(&p, 16, 4096), "monotone");
}

/* A few thousand default probes' worth of uniform data: no alarm at all. */
static void test_false_alarm_simulation(void) {
        HealthParams p = HEALTH_PARAMS_DEFAULT;
        static uint64_t v[4096];
        uint64_t seed = 0x5eed, alarms = 0, streams = 0;

        /* 2000 probes x 2 instructions x 3 widths, single-thread streams of 4096 values. */
        for (unsigned probe = 0; probe < 2000; probe++)
                for (unsigned w = 16; w <= 64; w *= 2)
                        for (unsigned ins = 0; ins < 2; ins++) {
                                uint64_t m = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
                                HealthState s;
                                HealthResult r;

                                for (size_t i = 0; i < 4096; i++)
                                        v[i] = splitmix64(&seed) & m;
                                health_init(&s, &p, w);
                                health_feed(&s, v, 4096);
                                health_finish(&s, &r);
                                alarms += r.failed != 0;
                                streams++;
                        }
        printf("false-alarm simulation: %" PRIu64 " streams of 4096 uniform values, %" PRIu64 " alarms\n",
               streams, alarms);
        CHECK_EQ_U64(alarms, 0);
}

static HealthResult feed_values(unsigned width, uint64_t (*gen)(uint64_t *seed, size_t i), size_t n) {
        static uint64_t v[4096];
        uint64_t seed = 0xb175;

        for (size_t i = 0; i < n; i++)
                v[i] = gen(&seed, i);
        return feed_all(width, v, n);
}

static uint64_t gen_uniform32(uint64_t *seed, size_t i) {
        return splitmix64(seed) & UINT32_MAX;
}
static uint64_t gen_stuck_bit(uint64_t *seed, size_t i) {
        return (splitmix64(seed) & UINT32_MAX) | (UINT64_C(1) << 17); /* bit 17 stuck at 1 */
}
static uint64_t gen_narrow(uint64_t *seed, size_t i) {
        return splitmix64(seed) & 0xffff; /* a "32-bit" value with 16 bits */
}
static uint64_t gen_biased(uint64_t *seed, size_t i) {
        uint64_t v = splitmix64(seed) & UINT32_MAX;

        /* Bit 3 is 1 with probability 5/8. */
        if ((splitmix64(seed) & 7) < 2)
                v |= UINT64_C(1) << 3;
        return v;
}
static uint64_t gen_wide(uint64_t *seed, size_t i) {
        return splitmix64(seed) & UINT64_C(0x1ffffffff); /* bit 32 set in a 32-bit value */
}

/* Bit balance: the cutoffs are the two-sided alpha tails of Binomial(n, 1/2),
 * a stuck, missing, biased or extra bit is caught and named, uniform data is
 * not flagged. */
static void test_bit_balance(void) {
        HealthResult r;
        uint64_t low, high;

        /* Independent value: for n = 4096, P[Bin >= c] <= 2^-41 first at c = 2048 + 227
         * (the normal approximation gives z = 7.07, 7.07 * 32 = 226.3; the exact
         * tail is checked below, not the approximation). */
        health_bit_cutoffs(4096, -40, &low, &high);
        CHECK(binomial_upper_tail(4096, 0.5, high) <= exp2(-41), "tail at the cutoff %" PRIu64, high);
        CHECK(binomial_upper_tail(4096, 0.5, high - 1) > exp2(-41), "tail below the cutoff %" PRIu64, high);
        CHECK(high > 2048 + 200 && high < 2048 + 260, "cutoff %" PRIu64 " far from 7 sigma", high);
        CHECK_EQ_U64(low, 4096 - high);

        r = feed_values(32, gen_uniform32, 4096);
        CHECK(!(r.failed & HEALTH_BIT_BALANCE), "uniform data flagged: bits %#" PRIx64, r.failed_bits);
        CHECK_EQ_U64(r.failed_bits, 0);
        CHECK_EQ_U64(r.bit_high_cutoff, high);
        for (unsigned b = 0; b < 32; b++)
                CHECK(r.bit_ones[b] > 1700 && r.bit_ones[b] < 2400, "bit %u: %" PRIu64 " ones", b, r.bit_ones[b]);

        r = feed_values(32, gen_stuck_bit, 4096);
        CHECK(r.failed & HEALTH_BIT_BALANCE, "stuck bit not caught");
        CHECK_EQ_U64(r.failed_bits, UINT64_C(1) << 17);
        CHECK_EQ_U64(r.worst_bit, 17);
        CHECK_EQ_U64(r.bit_ones[17], 4096);

        r = feed_values(32, gen_narrow, 4096);
        CHECK(r.failed & HEALTH_BIT_BALANCE, "16 bits in a 32-bit value not caught");
        CHECK_EQ_U64(r.failed_bits, UINT64_C(0xffff0000));

        r = feed_values(32, gen_biased, 4096);
        CHECK(r.failed & HEALTH_BIT_BALANCE, "bit biased to 5/8 not caught");
        CHECK_EQ_U64(r.failed_bits, UINT64_C(1) << 3);

        r = feed_values(32, gen_wide, 4096);
        CHECK(r.failed & HEALTH_BIT_BALANCE, "a bit above the width not caught");
        CHECK(r.failed_bits & (UINT64_C(1) << 32), "bit 32 not named: %#" PRIx64, r.failed_bits);

        /* Merging adds the counts, keeps each stream's failed bits, and
         * re-checks the sum against the cutoffs for the summed count. */
        {
                HealthResult a = feed_values(32, gen_uniform32, 4096), m = {};

                health_result_merge(&m, &a);
                health_result_merge(&m, &r);
                CHECK_EQ_U64(m.samples, 8192);
                CHECK_EQ_U64(m.bit_ones[5], a.bit_ones[5] + r.bit_ones[5]);
                CHECK(m.failed_bits & (UINT64_C(1) << 32), "merge lost a failed bit");
                health_bit_cutoffs(8192, -40, &low, &high);
                CHECK_EQ_U64(m.bit_high_cutoff, high);
        }
}

/* The bit counter against a naive count, over lengths around its block
 * (16 values) and lane (255 blocks) boundaries and fed in pieces. */
static void test_bit_counts_exact(void) {
        static const size_t lengths[] = { 0, 1, 15, 16, 17, 255, 4079, 4080, 4081, 8191, 65537 };
        static uint64_t v[65537];
        uint64_t seed = 0xc0ffee;
        HealthParams p = HEALTH_PARAMS_DEFAULT;

        for (size_t i = 0; i < ELEMENTSOF(v); i++)
                v[i] = splitmix64(&seed);
        for (size_t l = 0; l < ELEMENTSOF(lengths); l++) {
                uint64_t naive[64] = {};
                HealthState s;
                HealthResult r;
                size_t fed = 0;

                for (size_t i = 0; i < lengths[l]; i++)
                        for (unsigned b = 0; b < 64; b++)
                                naive[b] += (v[i] >> b) & 1;
                health_init(&s, &p, 64);
                /* Pieces of 1000, then the rest, as the probe's chunks. */
                while (fed < lengths[l]) {
                        size_t k = MIN((size_t) 1000, lengths[l] - fed);

                        health_feed(&s, v + fed, k);
                        fed += k;
                }
                health_finish(&s, &r);
                for (unsigned b = 0; b < 64; b++)
                        CHECK(r.bit_ones[b] == naive[b], "n=%zu bit %u: %" PRIu64 " ones, naive %" PRIu64,
                              lengths[l], b, r.bit_ones[b], naive[b]);
        }
}

/* What is shown from how many values: the threshold at which each check
 * can first fail, checked against the checks' own cutoffs (the smallest
 * n with a cutoff <= n), and the results' flags. */
static void test_min_samples(void) {
        const double a = HEALTH_PARAMS_DEFAULT.log2_alpha;

        CHECK_EQ_U64(health_min_samples(0.5, a - 1), 41);
        for (uint64_t n = 1; n <= 60; n++) {
                uint64_t low, high;

                health_bit_cutoffs(n, a, &low, &high);
                CHECK((high <= n) == (n >= 41), "n %" PRIu64 ": bit cutoff %" PRIu64, n, high);
        }
        for (unsigned w = 16; w <= 64; w *= 2) {
                uint64_t min = health_min_samples(exp2(-(double) w), a);

                CHECK_EQ_U64(min, w == 16 ? 3 : w == 32 ? 2 : 1);
                for (uint64_t n = 1; n <= 8; n++)
                        CHECK((binomial_critical(n, exp2(-(double) w), a) <= n) == (n >= min),
                              "width %u n %" PRIu64 ": zero-rate cutoff %" PRIu64, w, n,
                              binomial_critical(n, exp2(-(double) w), a));
        }
        {
                HealthState s;
                HealthResult r;
                uint64_t v[41];

                for (unsigned k = 0; k < 41; k++)
                        v[k] = k * 2654435761u + 1;
                CHECK_EQ_INT(health_init(&s, &HEALTH_PARAMS_DEFAULT, 16), 0);
                health_feed(&s, v, 40);
                health_finish(&s, &r);
                CHECK(!health_bits_shown(&r) && health_rates_shown(&r), "40 values: bits %d rates %d",
                      health_bits_shown(&r), health_rates_shown(&r));
                health_feed(&s, v + 40, 1);
                health_finish(&s, &r);
                CHECK(health_bits_shown(&r), "41 values: bits not shown");
                CHECK_EQ_U64(r.bit_min_samples, 41);
                CHECK_EQ_U64(r.rate_min_samples, 3);
                CHECK_EQ_INT(health_init(&s, &HEALTH_PARAMS_DEFAULT, 16), 0);
                health_feed(&s, v, 2);
                health_finish(&s, &r);
                CHECK(!health_rates_shown(&r), "2 16-bit values: rates shown");
        }
}

int main(void) {
        test_min_samples();
        test_bit_counts_exact();
        test_bit_balance();
        test_cutoffs_nist_table();
        test_cutoffs_default();
        test_binomial_tail();
        test_checks_on_data();
        test_stuck_power();
        test_false_alarm_bound();
        test_false_alarm_simulation();
        return test_result("test-health");
}
