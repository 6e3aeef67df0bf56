/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Internal to the probe: one thread's stream of tries from one source, the
 * hot loop. probe.c merges streams into a ProbeRun; probe-pool.c runs one
 * stream per pinned thread. */

#include <stdint.h>

#include "health.h"
#include "probe.h"
#include "rng-source.h"

/* Latency samples kept per thread (a ring: long runs keep the latest). */
#define LAT_CAP 16384

/* The result of one thread's stream. */
typedef struct Stream {
        uint64_t attempts, failures, delivered, longest, trailing, loop_failures, over_retries;
        uint64_t hist[PROBE_HIST_BUCKETS];
        uint64_t draw_nsec;
        uint32_t *lat; /* n_lat samples, the latest MIN(n_lat, LAT_CAP) kept */
        uint64_t n_lat;
        HealthResult health;
        int error;
} Stream;

/* Draws from src until lim says stop; a value needing more than retries
 * tries is one the kernel's loop would not deliver. A hardware source
 * (src->hardware) runs the loop specialised for its instruction and width,
 * any other source the generic loop through src->draw. *st is reset first;
 * free it with stream_done() even on error. */
int stream_run(const RngSource *src, const ProbeLimits *lim, const HealthParams *hp, uint64_t retries,
               Stream *st);
void stream_done(Stream *s);
