/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <math.h>
#include <string.h>

#include "health.h"
#include "macro.h"

static double log_pmf(uint64_t n, double p, uint64_t i) {
        return lgamma((double) n + 1) - lgamma((double) i + 1) - lgamma((double) (n - i) + 1) +
               (double) i * log(p) + (double) (n - i) * log1p(-p);
}

double binomial_upper_tail(uint64_t n, double p, uint64_t k) {
        double mean, sum = 0, lp;

        if (k == 0)
                return 1.0;
        if (k > n || p <= 0)
                return 0.0;
        if (p >= 1)
                return 1.0;
        /* All n: p^n, exactly where p is a power of two (the sum below
         * lands an ulp above 2^-41 for 41 fair bits, and the bit check
         * could not fail at 41 values though 2^-41 <= alpha/2). */
        if (k == n)
                return pow(p, (double) n);

        mean = (double) n * p;
        if ((double) k <= mean) {
                /* 1 - P[X < k], summing the lower part. */
                for (uint64_t i = 0; i < k; i++)
                        sum += exp(log_pmf(n, p, i));
                return MAX(0.0, 1.0 - sum);
        }

        /* Terms decrease from k on: sum until they no longer matter. */
        lp = log_pmf(n, p, k);
        for (uint64_t i = k; i <= n; i++) {
                double t = exp(lp);

                sum += t;
                if (t < sum * 1e-18 || t == 0)
                        break;
                if (i < n)
                        lp += log((double) (n - i)) - log((double) i + 1) + log(p) - log1p(-p);
        }
        return MIN(1.0, sum);
}

uint64_t binomial_critical(uint64_t n, double p, double log2_alpha) {
        double alpha = exp2(log2_alpha);
        uint64_t lo, hi;

        if (n == 0 || p <= 0)
                return 1;
        if (p >= 1)
                return n + 1;

        /* P[X >= floor(np)] >= 1/2 > alpha (a median of the binomial is
         * floor(np) or ceil(np), and alpha < 1/4), so the answer is above
         * floor(np); P[X >= n + 1] = 0. The tail falls as c grows: bisect,
         * keeping tail(lo - 1) > alpha >= tail(hi). Each tail above the mean
         * is a short sum. */
        lo = (uint64_t) floor((double) n * p) + 1;
        hi = n + 1;
        if (lo > hi)
                lo = hi;
        while (lo < hi) {
                uint64_t mid = lo + (hi - lo) / 2;

                if (binomial_upper_tail(n, p, mid) <= alpha)
                        hi = mid;
                else
                        lo = mid + 1;
        }
        return lo;
}

void health_bit_cutoffs(uint64_t n, double log2_alpha, uint64_t *ret_low, uint64_t *ret_high) {
        /* alpha/2 per tail; the binomial(n, 1/2) is symmetric. */
        uint64_t c = binomial_critical(n, 0.5, log2_alpha - 1);

        *ret_high = c;
        *ret_low = c <= n ? n - c : 0;
}

static bool bit_fails(uint64_t ones, uint64_t n, uint64_t high) {
        return ones >= high || n - ones >= high;
}

uint64_t health_bit_failed(const HealthResult *r) {
        uint64_t failed = 0;

        if (r->samples == 0)
                return 0;
        for (unsigned b = 0; b < 64; b++) {
                if (b >= r->width) {
                        /* A value wider than its width is as wrong as a stuck bit. */
                        if (r->bit_ones[b] > 0)
                                failed |= UINT64_C(1) << b;
                } else if (bit_fails(r->bit_ones[b], r->samples, r->bit_high_cutoff))
                        failed |= UINT64_C(1) << b;
        }
        return failed;
}

/* Adds the ones of each bit position of w, times weight, into bit_ones. */
static void add_plane(uint64_t bit_ones[static 64], uint64_t w, uint64_t weight) {
        for (; w; w &= w - 1)
                bit_ones[__builtin_ctzll(w)] += weight;
}

/* Eight byte-wide counters per 64-bit word, one word per bit of a byte:
 * acc[b] byte k counts position 8k + b. */
static void add_lanes(uint64_t bit_ones[static 64], const uint64_t acc[static 8], uint64_t weight) {
        for (unsigned b = 0; b < 8; b++)
                for (unsigned byte = 0; byte < 8; byte++)
                        bit_ones[8 * byte + b] += ((acc[b] >> (8 * byte)) & 0xff) * weight;
}

/* Carry-save adder: h:l = a + b + c, bitwise. */
#define CSA(h, l, a, b, c)                              \
        do {                                            \
                uint64_t _u = (a) ^ (b);                \
                (h) = ((a) & (b)) | (_u & (c));         \
                (l) = _u ^ (c);                         \
        } while (0)

/* Ones per bit position, vertically (Harley-Seal): blocks of 16 values
 * pass through a tree of carry-save adders into bit-sliced counters ones,
 * twos, fours, eights; each block's carry out (sixteens) goes into byte-wide
 * lane counters, emptied every 255 blocks. About 6 operations per value
 * instead of 24 for lane counting alone (bench/probe-bench.sh). The counters
 * are separate locals: gcc -O2 keeps them in registers. */
static void count_bits(uint64_t bit_ones[static 64], const uint64_t *v, size_t n) {
        const uint64_t m = UINT64_C(0x0101010101010101);
        uint64_t ones = 0, twos = 0, fours = 0, eights = 0;

        while (n >= 16) {
                size_t blocks = MIN(n / 16, (size_t) 255);
                uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;

                for (size_t k = 0; k < blocks; k++, v += 16) {
                        uint64_t twos_a, twos_b, fours_a, fours_b, eights_a, eights_b, sixteens;

                        CSA(twos_a, ones, ones, v[0], v[1]);
                        CSA(twos_b, ones, ones, v[2], v[3]);
                        CSA(fours_a, twos, twos, twos_a, twos_b);
                        CSA(twos_a, ones, ones, v[4], v[5]);
                        CSA(twos_b, ones, ones, v[6], v[7]);
                        CSA(fours_b, twos, twos, twos_a, twos_b);
                        CSA(eights_a, fours, fours, fours_a, fours_b);
                        CSA(twos_a, ones, ones, v[8], v[9]);
                        CSA(twos_b, ones, ones, v[10], v[11]);
                        CSA(fours_a, twos, twos, twos_a, twos_b);
                        CSA(twos_a, ones, ones, v[12], v[13]);
                        CSA(twos_b, ones, ones, v[14], v[15]);
                        CSA(fours_b, twos, twos, twos_a, twos_b);
                        CSA(eights_b, fours, fours, fours_a, fours_b);
                        CSA(sixteens, eights, eights, eights_a, eights_b);

                        a0 += sixteens & m;
                        a1 += (sixteens >> 1) & m;
                        a2 += (sixteens >> 2) & m;
                        a3 += (sixteens >> 3) & m;
                        a4 += (sixteens >> 4) & m;
                        a5 += (sixteens >> 5) & m;
                        a6 += (sixteens >> 6) & m;
                        a7 += (sixteens >> 7) & m;
                }
                add_lanes(bit_ones, (const uint64_t[8]) { a0, a1, a2, a3, a4, a5, a6, a7 }, 16);
                n -= blocks * 16;
        }
        add_plane(bit_ones, ones, 1);
        add_plane(bit_ones, twos, 2);
        add_plane(bit_ones, fours, 4);
        add_plane(bit_ones, eights, 8);
        for (size_t i = 0; i < n; i++)
                add_plane(bit_ones, v[i], 1);
}

uint64_t health_min_samples(double p, double log2_alpha) {
        double est;
        uint64_t n;

        if (!(p > 0 && p < 1) || !(log2_alpha < 0))
                return 1;
        /* p^n <= alpha from n = log2(alpha) / log2(p) on; the check's own
         * cutoff decides (binomial_critical() <= n: it can fail). */
        est = ceil(log2_alpha / log2(p));
        n = est < 1 ? 1 : est > 1e6 ? 1000000 : (uint64_t) est;
        while (n > 1 && binomial_critical(n - 1, p, log2_alpha) <= n - 1)
                n--;
        while (binomial_critical(n, p, log2_alpha) > n)
                n++;
        return n;
}

bool health_bits_shown(const HealthResult *r) {
        return r->samples >= r->bit_min_samples;
}

bool health_rates_shown(const HealthResult *r) {
        return r->samples >= r->rate_min_samples;
}

static void bit_summary(HealthResult *r) {
        uint64_t worst = 0;

        /* both tails at alpha/2 each: p = 1/2, 2^(log2_alpha - 1) */
        r->bit_min_samples = health_min_samples(0.5, r->log2_alpha - 1);
        r->rate_min_samples = r->width > 0 ? health_min_samples(exp2(-(double) r->width), r->log2_alpha) : 1;

        health_bit_cutoffs(r->samples, r->log2_alpha, &r->bit_low_cutoff, &r->bit_high_cutoff);
        r->failed_bits |= health_bit_failed(r);
        r->worst_bit = 0;
        for (unsigned b = 0; b < r->width && b < 64; b++) {
                uint64_t ones = r->bit_ones[b], half = r->samples / 2;
                uint64_t d = ones > half ? ones - half : half - ones;

                if (d > worst) {
                        worst = d;
                        r->worst_bit = b;
                }
        }
        if (r->failed_bits)
                r->failed |= HEALTH_BIT_BALANCE;
}

int health_cutoffs(const HealthParams *p, unsigned width, HealthCutoffs *ret) {
        double h;

        if (!p || !ret || width == 0 || width > 64)
                return -EINVAL;
        if (!(p->log2_alpha < -2 && p->log2_alpha >= -200) ||
            !(p->entropy_per_bit > 0 && p->entropy_per_bit <= 1) || p->apt_window < 2)
                return -EINVAL;

        h = p->entropy_per_bit * width;
        *ret = (HealthCutoffs) {
                .width = width,
                .rct_cutoff = 1 + (uint64_t) ceil(-p->log2_alpha / h),
                .apt_window = p->apt_window,
                .apt_cutoff = binomial_critical(p->apt_window, exp2(-h), p->log2_alpha),
        };
        return 0;
}

int health_init(HealthState *s, const HealthParams *p, unsigned width) {
        int r;

        *s = (HealthState) {};
        r = health_cutoffs(p, width, &s->cut);
        if (r < 0)
                return r;
        s->log2_alpha = p->log2_alpha;
        s->mask = width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
        return 0;
}

void health_feed(HealthState *s, const uint64_t *values, size_t n) {
        /* Work on locals: stores through s could alias values[] and would
         * force the compiler to reload on every value. */
        const uint64_t mask = s->mask, rct_cut = s->cut.rct_cutoff;
        const uint64_t window = s->cut.apt_window, apt_cut = s->cut.apt_cutoff;
        uint64_t zeros = s->zeros, ones = s->ones, repeats = s->repeats;
        uint64_t last = s->last, run = s->run, longest = s->rct_longest;
        uint64_t a = s->apt_a, b = s->apt_b, pos = s->apt_i;
        size_t i = 0;

        if (n == 0)
                return;
        if (s->n == 0)
                last = ~values[0]; /* the first value starts a run */

        /* The kernel's boot self-test on the first values. */
        for (size_t k = s->n == 0 ? 1 : 0; k < n && s->n + k < HEALTH_SELFTEST_SAMPLES; k++)
                s->selftest_changes += values[k] != (k > 0 ? values[k - 1] : s->last);

        while (i < n) {
                size_t end;

                if (pos == 0) {
                        a = values[i]; /* counted by the loop below */
                        b = 0;
                }
                end = i + MIN((uint64_t) (n - i), window - pos);
                pos += end - i;

                for (; i < end; i++) {
                        uint64_t v = values[i];

                        zeros += v == 0;
                        ones += v == mask;
                        b += v == a; /* Adaptive Proportion Test */

                        /* Repetition Count Test, counted once per run reaching the cutoff. */
                        if (v == last) {
                                repeats++;
                                if (++run == rct_cut) {
                                        s->rct_failures++;
                                        if (v == 0)
                                                s->stuck_zero = true;
                                        else if (v == mask)
                                                s->stuck_ones = true;
                                }
                        } else {
                                longest = MAX(longest, run);
                                last = v;
                                run = 1;
                        }
                }

                /* B only grows within a window: checking at its end (or at
                 * finish for a partial one) finds the same failures. */
                if (pos == window) {
                        if (b >= apt_cut)
                                s->apt_failures++;
                        s->apt_max = MAX(s->apt_max, b);
                        s->apt_windows++;
                        pos = 0;
                }
        }

        count_bits(s->bit_ones, values, n);

        s->zeros = zeros;
        s->ones = ones;
        s->repeats = repeats;
        s->last = last;
        s->run = run;
        s->rct_longest = longest;
        s->apt_a = a;
        s->apt_b = b;
        s->apt_i = pos;
        s->n += n;
}

void health_finish(const HealthState *s, HealthResult *ret) {
        double p = exp2(-(double) s->cut.width);

        *ret = (HealthResult) {
                .width = s->cut.width,
                .samples = s->n,
                .zeros = s->zeros,
                .zeros_cutoff = binomial_critical(s->n, p, s->log2_alpha),
                .all_ones = s->ones,
                .all_ones_cutoff = binomial_critical(s->n, p, s->log2_alpha),
                .repeats = s->repeats,
                .repeats_cutoff = binomial_critical(s->n > 0 ? s->n - 1 : 0, p, s->log2_alpha),
                .rct_cutoff = s->cut.rct_cutoff,
                .rct_longest_run = MAX(s->rct_longest, s->run),
                .rct_failures = s->rct_failures,
                .apt_window = s->cut.apt_window,
                .apt_cutoff = s->cut.apt_cutoff,
                .apt_windows = s->apt_windows + (s->apt_i > 0),
                .apt_max_count = s->apt_i > 0 ? MAX(s->apt_max, s->apt_b) : s->apt_max,
                .apt_failures = s->apt_failures + (s->apt_i > 0 && s->apt_b >= s->cut.apt_cutoff),
                .selftest_changes = s->selftest_changes,
                .log2_alpha = s->log2_alpha,
        };
        memcpy(ret->bit_ones, s->bit_ones, sizeof(ret->bit_ones));
        bit_summary(ret);

        if (s->n == 0)
                ret->failed |= HEALTH_EMPTY;
        if (s->stuck_zero)
                ret->failed |= HEALTH_STUCK_ZERO;
        if (s->stuck_ones)
                ret->failed |= HEALTH_STUCK_ONES;
        if (ret->zeros >= ret->zeros_cutoff)
                ret->failed |= HEALTH_ZERO_RATE;
        if (ret->all_ones >= ret->all_ones_cutoff)
                ret->failed |= HEALTH_ONES_RATE;
        if (ret->repeats >= ret->repeats_cutoff)
                ret->failed |= HEALTH_REPEAT_RATE;
        if (s->rct_failures > 0)
                ret->failed |= HEALTH_RCT;
        if (ret->apt_failures > 0)
                ret->failed |= HEALTH_APT;
        if (s->n >= HEALTH_SELFTEST_SAMPLES && s->selftest_changes < HEALTH_SELFTEST_MIN_CHANGES)
                ret->failed |= HEALTH_KERNEL_SELFTEST;
}

void health_result_merge(HealthResult *dst, const HealthResult *src) {
        if (dst->samples == 0 && dst->failed == 0 && dst->width == 0) {
                *dst = *src;
                return;
        }
        /* An empty stream only makes the merged result empty if all are. */
        unsigned empty = dst->failed & src->failed & HEALTH_EMPTY;
        uint64_t dst_samples = dst->samples;

        dst->samples += src->samples;
        dst->zeros += src->zeros;
        dst->zeros_cutoff = MIN(dst->zeros_cutoff, src->zeros_cutoff);
        dst->all_ones += src->all_ones;
        dst->all_ones_cutoff = MIN(dst->all_ones_cutoff, src->all_ones_cutoff);
        dst->repeats += src->repeats;
        dst->repeats_cutoff = MIN(dst->repeats_cutoff, src->repeats_cutoff);
        dst->rct_longest_run = MAX(dst->rct_longest_run, src->rct_longest_run);
        dst->rct_failures += src->rct_failures;
        dst->apt_windows += src->apt_windows;
        dst->apt_max_count = MAX(dst->apt_max_count, src->apt_max_count);
        dst->apt_failures += src->apt_failures;
        /* The fewest changes among streams that had the 8 values. */
        if (src->samples >= HEALTH_SELFTEST_SAMPLES &&
            (dst_samples < HEALTH_SELFTEST_SAMPLES || src->selftest_changes < dst->selftest_changes))
                dst->selftest_changes = src->selftest_changes;
        for (unsigned b = 0; b < 64; b++)
                dst->bit_ones[b] += src->bit_ones[b];
        dst->failed_bits |= src->failed_bits;
        dst->failed = ((dst->failed | src->failed) & ~HEALTH_EMPTY) | empty;
        /* The summed counts are checked too (more power for many short
         * streams; one more stream's worth of false-alarm probability). */
        bit_summary(dst);
}

double health_false_alarm_bound(const HealthParams *p, unsigned width, uint64_t n) {
        HealthCutoffs cut;
        double q = exp2(-(double) width), bound = 0;

        if (health_cutoffs(p, width, &cut) < 0 || n == 0)
                return n == 0 ? 0 : 1;

        /* RCT: union bound over the start of a run of C equal values. */
        if (n >= cut.rct_cutoff)
                bound += (double) (n - cut.rct_cutoff + 1) * exp2(-(double) width * (double) (cut.rct_cutoff - 1));
        /* APT: per window, C-1 of the other W-1 samples equal the first one. */
        bound += ceil((double) n / (double) cut.apt_window) *
                 binomial_upper_tail(cut.apt_window - 1, q, cut.apt_cutoff - 1);
        /* Rate checks: the exact tails at their cutoffs (each <= alpha). */
        bound += 2 * binomial_upper_tail(n, q, binomial_critical(n, q, p->log2_alpha));
        bound += binomial_upper_tail(n - 1, q, binomial_critical(n - 1, q, p->log2_alpha));
        /* Bit balance: both tails of each of the width positions. */
        bound += 2.0 * width * binomial_upper_tail(n, 0.5, binomial_critical(n, 0.5, p->log2_alpha - 1));
        /* Kernel self-test: >= 3 of the 7 pairs equal. */
        if (n >= HEALTH_SELFTEST_SAMPLES)
                bound += binomial_upper_tail(HEALTH_SELFTEST_SAMPLES - 1, q,
                                             HEALTH_SELFTEST_SAMPLES - HEALTH_SELFTEST_MIN_CHANGES);
        return bound;
}
