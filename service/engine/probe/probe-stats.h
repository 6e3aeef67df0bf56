/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The statistics of a probe run: the histogram of tries per delivered value
 * and the Wilson score interval of the failure rate. Pure functions. */

#include <stdint.h>

#define PROBE_HIST_BUCKETS 16
/* Lower bound of tries per delivered value for each bucket: 1..10, 11-16,
 * 17-32, 33-64, 65-128, 129-256, 257+. */
extern const uint64_t probe_hist_min[PROBE_HIST_BUCKETS];
uint64_t probe_hist_max(unsigned bucket); /* UINT64_MAX for the last */
unsigned probe_hist_bucket(uint64_t tries);

/* Wilson score interval for k successes of n at z (1.959964 for 95 %). */
void probe_wilson(uint64_t k, uint64_t n, double z, double *ret_low, double *ret_high);
