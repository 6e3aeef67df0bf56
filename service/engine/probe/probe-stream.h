/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Internal to the probe: one thread's stream of tries from one source, in
 * batches of the hot loop (probe-batch.h). probe.c merges streams into a
 * ProbeRun; probe-pool.c runs one stream per pinned thread. */

#include <stdbool.h>
#include <stdint.h>

#include "health.h"
#include "probe-batch.h" /* LAT_CAP */
#include "probe.h"
#include "rng-source.h"

/* Marks kept per thread: the counts at moments of the stream, for the
 * common window of a contention run. When full, every other is dropped and
 * marks are taken half as often: a stream of any length keeps between
 * STREAM_MARKS/2 and STREAM_MARKS of them, evenly spread. */
#define STREAM_MARKS 256

/* The stream's counts at one moment (after a batch). loop_failures counts
 * the streak still open as far as it goes. */
typedef struct StreamMark {
        uint64_t nsec, attempts, failures, loop_failures;
} StreamMark;

/* The result of one thread's stream. */
typedef struct Stream {
        uint64_t attempts, failures, delivered, longest, trailing, loop_failures, over_retries;
        uint64_t hist[PROBE_HIST_BUCKETS];
        uint64_t draw_nsec;
        uint64_t first_nsec, last_nsec; /* CLOCK_MONOTONIC: after the first try, after the last */
        uint32_t *lat; /* n_lat samples, the latest MIN(n_lat, LAT_CAP) kept */
        uint64_t n_lat;
        StreamMark *marks; /* n_marks, the first after the first try, the last after the last */
        size_t n_marks;
        unsigned mark_stride, mark_skip; /* batches per mark, batches since the last */
        HealthResult health;
        int error;
        bool stopped; /* lim->stop said so: ended early, its counts are partial */
} Stream;

/* Draws from src until lim says stop; a value needing more than retries
 * tries is one the kernel's loop would not deliver. A form of the draw
 * code runs its own loop (src->batch, specialised for it), any other
 * source the generic loop through src->draw. The first try is
 * made alone, so that first_nsec is when this stream began to draw.
 * deadline: CLOCK_MONOTONIC ns when the time budget ends (UINT64_MAX:
 * none), shared by the threads of a contention run so that they stop
 * together; 0: lim's budget from now. The cap (lim->max_attempts) is each
 * thread's own. lim->stop is asked every PROBE_STOP_POLL_NSEC (at the
 * clock read after a batch): true ends the stream at once, even below
 * min_attempts, with st->stopped set. *st is reset first; free it with
 * stream_done() even on error. */
int stream_run(const RngSource *src, const ProbeLimits *lim, const HealthParams *hp, uint64_t retries,
               uint64_t deadline, Stream *st);
void stream_done(Stream *s);

/* The stream's counts at time t (CLOCK_MONOTONIC ns), interpolated
 * linearly between the marks around it: before the first try, 0; after
 * the last, the totals. Fractional: each count is a double. */
typedef struct StreamCounts {
        double attempts, failures, loop_failures;
} StreamCounts;

StreamCounts stream_counts_at(const Stream *s, uint64_t t);
