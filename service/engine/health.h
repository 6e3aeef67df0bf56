/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Output checks on delivered values: stuck patterns, zero/all-ones/repeat
 * rates, and the NIST SP 800-90B (section 4.4) continuous health tests:
 * Repetition Count Test (RCT) and Adaptive Proportion Test (APT).
 *
 * Values are only ever inspected here; no function prints or stores them.
 *
 * Defaults (see HEALTH_PARAMS_DEFAULT and doc/probe-json.md):
 *   alpha = 2^-40 per test (the strict end of 90B's recommended range),
 *   H = 0.5 bit of min-entropy per output bit (claimed H = width/2 per sample;
 *       the CPU instructions claim full entropy, we claim half for margin),
 *   W = 512 (90B's window for non-binary samples).
 *   C_RCT = 1 + ceil(-log2(alpha) / H)      -> 6 (16-bit), 4 (32), 3 (64)
 *   C_APT = 1 + CRITBINOM(W, 2^-H, 1-alpha) -> see health_cutoffs().
 * Rate checks (zeros, all-ones, consecutive repeats) compare with a uniform
 * source (p = 2^-width per value): alarm when the count is at or above the
 * smallest c with P[Binomial(n, 2^-width) >= c] <= alpha.
 * The x86 kernel's boot self-test of its random instruction (its CPU setup
 * code, arch/x86/kernel/cpu/) is replayed on the first 8 values: fewer
 * than 5 of the 7 consecutive pairs differing fails it.
 * Bit balance: each bit position's count of ones over the n values is
 * Binomial(n, 1/2) for a uniform source; alarm when it is at or below
 * n - c or at or above c, with c the smallest count whose upper tail is
 * <= alpha/2 (both tails together <= alpha per bit position, width * alpha
 * per stream). It catches a stuck bit line, a value narrower than its
 * width (the top bits always 0) and a biased bit. Unlike the checks above it
 * assumes unbiased bits, not only H: the CPU instructions' output is
 * conditioned and claims full entropy.
 *
 * What is shown of the values (JSON, the only output with counts of the
 * values themselves): a statistic over fewer values than its check needs
 * to be able to fail is not (health_bits_shown(), health_rates_shown()).
 * A check whose alarm is "all n values have the property" (probability
 * p^n, p per value) can fail only from n >= log2(alpha) / log2(p) on
 * (health_min_samples()). Below that, a count of n (every value zero, bit b
 * set in every value) is no alarm, yet it gives the values (or that bit of
 * each) away, and at n = 1 the per-bit counts are the value itself. With
 * alpha = 2^-40: the per-bit counts from 41 values on (p = 1/2 for each
 * tail at alpha/2: 2^-41), the counts of zeros and all-ones values from 3
 * (16-bit), 2 (32-bit) and 1 (64-bit). From there on a count that pins a
 * bit of every value is a failed check (a stuck bit, no secret), and any
 * other leaves every value's bits open: a column's count of ones over n
 * values tells of one value's bit I(X; S) = 0.018 bit at n = 41 (1.1 bits
 * of a 64-bit value), 0.00018 at the default n = 4096. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct HealthParams {
        double log2_alpha;      /* false-alarm probability per test, log2 (< -2) */
        double entropy_per_bit; /* claimed min-entropy per output bit, (0, 1] */
        unsigned apt_window;    /* APT window W */
} HealthParams;

#define HEALTH_PARAMS_DEFAULT ((HealthParams) { .log2_alpha = -40.0, .entropy_per_bit = 0.5, .apt_window = 512 })

typedef enum HealthCheck {
        HEALTH_STUCK_ZERO  = 1u << 0, /* an RCT run of zeros */
        HEALTH_STUCK_ONES  = 1u << 1, /* an RCT run of all-ones */
        HEALTH_ZERO_RATE   = 1u << 2, /* zeros far above 2^-width (the Zen5 pattern) */
        HEALTH_ONES_RATE   = 1u << 3, /* all-ones values far above 2^-width */
        HEALTH_REPEAT_RATE = 1u << 4, /* consecutive equal values far above 2^-width */
        HEALTH_RCT         = 1u << 5,
        HEALTH_APT         = 1u << 6,
        HEALTH_EMPTY       = 1u << 7, /* nothing delivered at all */
        HEALTH_KERNEL_SELFTEST = 1u << 8, /* the kernel's boot check: < 5 changes in the first 8 values */
        HEALTH_BIT_BALANCE = 1u << 9, /* a bit position's count of ones outside both tails */
        _HEALTH_CHECK_ALL  = (1u << 10) - 1,
} HealthCheck;

const char *health_check_to_string(HealthCheck c); /* one bit, e.g. "zero-rate" */

typedef struct HealthCutoffs {
        unsigned width;
        uint64_t rct_cutoff;
        uint64_t apt_window;
        uint64_t apt_cutoff;
} HealthCutoffs;

int health_cutoffs(const HealthParams *p, unsigned width, HealthCutoffs *ret);

typedef struct HealthResult {
        unsigned width;
        uint64_t samples;
        uint64_t zeros, zeros_cutoff;
        uint64_t all_ones, all_ones_cutoff;
        uint64_t repeats, repeats_cutoff;
        uint64_t rct_cutoff, rct_longest_run, rct_failures;
        uint64_t apt_window, apt_cutoff, apt_windows, apt_max_count, apt_failures;
        uint64_t selftest_changes; /* of the first 8 values (7 pairs); merged: the fewest */
        /* Bit balance: ones per bit position, and the counts at or beyond
         * which a position fails (ones <= bit_low_cutoff or >= bit_high_cutoff).
         * Merged results add the counts and recompute the cutoffs for the sum;
         * failed_bits is the union of every stream's and the merged verdict. */
        uint64_t bit_ones[64];
        uint64_t bit_low_cutoff, bit_high_cutoff;
        uint64_t failed_bits;     /* bit i set: position i failed */
        unsigned worst_bit;       /* the position furthest from n/2 */
        /* The values bit balance, and the zero and all-ones rates, need
         * before they can fail: what their counts are shown from. */
        uint64_t bit_min_samples, rate_min_samples;
        double log2_alpha;        /* to recompute the cutoffs after a merge */
        unsigned failed; /* HealthCheck mask */
} HealthResult;

typedef struct HealthState {
        HealthCutoffs cut;
        double log2_alpha;
        uint64_t mask; /* all-ones value for the width */
        uint64_t n;
        uint64_t last, run;
        uint64_t rct_longest, rct_failures;
        bool stuck_zero, stuck_ones;
        uint64_t apt_a, apt_b, apt_i, apt_windows, apt_max, apt_failures;
        uint64_t zeros, ones, repeats;
        uint64_t selftest_changes;
        uint64_t bit_ones[64];
} HealthState;

#define HEALTH_SELFTEST_SAMPLES 8
#define HEALTH_SELFTEST_MIN_CHANGES 5

int health_init(HealthState *s, const HealthParams *p, unsigned width);
void health_feed(HealthState *s, const uint64_t *values, size_t n);
void health_finish(const HealthState *s, HealthResult *ret);
/* Combine per-thread results: counts add up, cutoffs shown are the strictest
 * (bit balance: recomputed for the summed counts). */
void health_result_merge(HealthResult *dst, const HealthResult *src);

/* P[X >= k] for X ~ Binomial(n, p). */
double binomial_upper_tail(uint64_t n, double p, uint64_t k);
/* Smallest c with P[Binomial(n, p) >= c] <= 2^log2_alpha (= 1 + CRITBINOM(n, p, 1-alpha)). */
uint64_t binomial_critical(uint64_t n, double p, double log2_alpha);

/* The bit-balance cutoffs for n values: a position fails with ones <= *ret_low
 * or >= *ret_high. For n == 0 nothing fails (low = 0 is never reached: see
 * health_bit_failed()). */
void health_bit_cutoffs(uint64_t n, double log2_alpha, uint64_t *ret_low, uint64_t *ret_high);
/* The failed positions of a result's counts (mask), for its samples and width. */
uint64_t health_bit_failed(const HealthResult *r);

/* The fewest values n from which a check that alarms on "all n values
 * have it" (p per value, at 2^log2_alpha) can fail at all: p^n <= alpha,
 * n = ceil(log2_alpha / log2(p)), as binomial_critical() (the checks'
 * cutoffs) has it: binomial_critical(n, p, log2_alpha) <= n. */
uint64_t health_min_samples(double p, double log2_alpha);
/* Whether a result's per-bit counts (bit_ones, worst_bit) may be shown:
 * samples >= bit_min_samples. */
bool health_bits_shown(const HealthResult *r);
/* Whether its counts of zeros and all-ones values may: samples >=
 * rate_min_samples. */
bool health_rates_shown(const HealthResult *r);

/* Upper bound of the probability that a uniform (healthy) source trips any
 * check in one stream of n values of the given width. */
double health_false_alarm_bound(const HealthParams *p, unsigned width, uint64_t n);

/* "rct,apt": the failed output checks of a HealthCheck mask; "" if none. */
void health_checks_format(unsigned failed, char *buf, size_t len);
/* "3,16-31": the bit positions of a mask, ranges joined; "" if none. */
void health_bits_format(uint64_t bits, char *buf, size_t len);
/* The failed checks, with the failed bit positions named:
 * "zero-rate,bit-balance (bits 16-31)"; "" if none failed. */
void health_result_format(const HealthResult *h, char *buf, size_t len);
