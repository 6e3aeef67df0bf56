/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Internal to the probe: the hot loop, a batch of tries of one form. The
 * stream (probe-stream.c) runs it through a form's draw function; each
 * architecture's draw code (x86.c) instantiates it with its own draw
 * inlined, one function per form (RngSource.batch), so that the loop is
 * the instruction, a store and two predictable branches. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "macro.h"
#include "probe-stats.h"
#include "rng-source.h"

/* Latency samples kept per thread (a ring: long runs keep the latest). */
#define LAT_CAP 16384
/* Every LAT_STRIDE-th try is timed alone with a fenced TSC pair (lfence;
 * rdtsc ... rdtscp; lfence, minus the pair's own calibrated cost). Timing
 * every try would halve the fastest source's rate; 1 in 64 still cost
 * ~3 %, 1 in 256 costs < 1 % (bench/probe-bench.sh). A default single run
 * of 4096 tries thus has 16 latency samples, a contention run 16 per
 * thread. */
#ifndef LAT_STRIDE
#define LAT_STRIDE 256
#endif

/* Counters of one stream, carried from batch to batch. */
struct RngBatchCounters {
        uint64_t attempts, failures, streak, longest, loop_failures, over_retries, n_lat;
        uint64_t hist[PROBE_HIST_BUCKETS];
};

/* The slow path of a delivered value: it needed more than one try. */
static inline void rng_batch_after_streak(RngBatchCounters *c, uint64_t retries) {
        c->hist[probe_hist_bucket(c->streak + 1)]++;
        if (c->streak >= retries) {
                c->loop_failures += c->streak / retries;
                c->over_retries++;
        }
        c->streak = 0;
}

/* n tries; delivered values are appended to buf, returns how many. Always
 * inlined with a constant `draw` in the draw code's batches. Counters live
 * in locals (restrict) and go back to *c at the end of the batch. */
static inline __attribute__((always_inline)) size_t rng_draw_batch(
                bool (*draw)(void *, uint64_t *), void *ud, uint64_t n, uint64_t retries, uint64_t overhead,
                RngBatchCounters *restrict c, uint64_t *restrict buf, uint32_t *restrict lat) {
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
                        rng_batch_after_streak(c, retries);
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
