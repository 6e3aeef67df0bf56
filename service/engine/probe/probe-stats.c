/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <math.h>

#include "macro.h"
#include "probe-stats.h"

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
