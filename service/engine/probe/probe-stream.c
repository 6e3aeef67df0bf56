/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "probe-stream.h"
#include "time-util.h"

/* Tries between two clock reads: the time budget is checked every BATCH
 * tries (~130 us for the slowest source measured, at 1 us/try), and the
 * clock (~25 ns) costs < 1 % of the tries it covers even for the fastest,
 * at ~30 ns/try. */
#ifndef BATCH
#define BATCH 128
#endif
/* Values are checked in chunks outside the timed draw loop. */
#define CHUNK 4096

void stream_done(Stream *s) {
        free(s->lat);
        s->lat = NULL;
        free(s->marks);
        s->marks = NULL;
}

static uint64_t tsc_overhead(void) {
        uint64_t best = UINT64_MAX;

        for (int i = 0; i < 32; i++) {
                uint64_t a = rng_tsc_begin(), b = rng_tsc_end();
                best = MIN(best, b - a);
        }
        return best;
}

/* The loop of a form without draw code of its own: through src->draw. */
static size_t batch_generic(bool (*draw)(void *, uint64_t *), void *ud, uint64_t n, uint64_t retries,
                            uint64_t overhead, RngBatchCounters *c, uint64_t *buf, uint32_t *lat) {
        return rng_draw_batch(draw, ud, n, retries, overhead, c, buf, lat);
}

/* A mark after a batch: every mark_stride-th batch, or forced (the first
 * and the last). Full: keep every other mark, take them half as often. */
static void stream_mark(Stream *st, const RngBatchCounters *c, uint64_t now, uint64_t retries, bool force) {
        if (!force && ++st->mark_skip < st->mark_stride)
                return;
        st->mark_skip = 0;
        if (st->n_marks == STREAM_MARKS) {
                for (size_t k = 1; k < STREAM_MARKS / 2; k++)
                        st->marks[k] = st->marks[2 * k];
                st->n_marks = STREAM_MARKS / 2;
                st->mark_stride *= 2;
        }
        st->marks[st->n_marks++] = (StreamMark) {
                .nsec = now,
                .attempts = c->attempts,
                .failures = c->failures,
                .loop_failures = c->loop_failures + c->streak / retries,
        };
}

StreamCounts stream_counts_at(const Stream *s, uint64_t t) {
        const StreamMark *a, *b;
        size_t lo = 0, hi;
        double f;

        if (s->n_marks == 0 || t < s->marks[0].nsec)
                return (StreamCounts) {};
        hi = s->n_marks - 1;
        if (t >= s->marks[hi].nsec)
                return (StreamCounts) { s->marks[hi].attempts, s->marks[hi].failures, s->marks[hi].loop_failures };
        /* marks[lo].nsec <= t < marks[hi].nsec */
        while (hi - lo > 1) {
                size_t mid = lo + (hi - lo) / 2;

                if (s->marks[mid].nsec <= t)
                        lo = mid;
                else
                        hi = mid;
        }
        a = &s->marks[lo];
        b = &s->marks[hi];
        f = (double) (t - a->nsec) / (double) (b->nsec - a->nsec);
        return (StreamCounts) {
                .attempts = a->attempts + f * (double) (b->attempts - a->attempts),
                .failures = a->failures + f * (double) (b->failures - a->failures),
                .loop_failures = a->loop_failures + f * (double) (b->loop_failures - a->loop_failures),
        };
}

int stream_run(const RngSource *src, const ProbeLimits *lim, const HealthParams *hp, uint64_t retries,
               uint64_t deadline, Stream *st) {
        const ProbeLimits effective = probe_limits_effective(lim);
        uint64_t max = effective.max_attempts ?: UINT64_MAX, minimum = effective.min_attempts;
        uint64_t overhead, start, seg, now, poll;
        RngBatchFn hw = src->batch;
        _cleanup_free_ uint64_t *buf = NULL;
        RngBatchCounters c = {};
        HealthState hs;
        size_t nbuf = 0;
        int r;

        *st = (Stream) { .mark_stride = 1 };
        if (retries == 0)
                return -EINVAL;
        r = health_init(&hs, hp, src->width);
        if (r < 0)
                return r;
        buf = malloc(sizeof(uint64_t) * CHUNK);
        st->lat = malloc(sizeof(uint32_t) * LAT_CAP);
        st->marks = malloc(sizeof(StreamMark) * STREAM_MARKS);
        if (!buf || !st->lat || !st->marks)
                return -ENOMEM;

        overhead = tsc_overhead();
        start = seg = now_nsec();
        poll = start + PROBE_STOP_POLL_NSEC;
        if (deadline == 0)
                deadline = lim->budget_usec ? start + lim->budget_usec * 1000 : UINT64_MAX;

        /* The first try alone: first_nsec is when this thread began to draw
         * (a thread preempted before its first value shows). */
        for (uint64_t n = 1;; n = MIN((uint64_t) BATCH, max - c.attempts)) {
                bool stop;

                if (hw)
                        nbuf += hw(n, retries, overhead, &c, buf + nbuf, st->lat);
                else
                        nbuf += batch_generic(src->draw, src->userdata, n, retries, overhead, &c, buf + nbuf, st->lat);

                now = now_nsec();
                if (c.attempts == 1)
                        st->first_nsec = now;
                st->last_nsec = now;
                stop = c.attempts >= max || (now >= deadline && c.attempts >= minimum);
                if (!stop && lim->stop && now >= poll) {
                        poll = now + PROBE_STOP_POLL_NSEC;
                        stop = st->stopped = lim->stop(lim->stop_userdata);
                }
                stream_mark(st, &c, now, retries, stop || c.attempts == 1);
                if (stop)
                        break;
                if (nbuf + BATCH > CHUNK) {
                        /* Check values outside the timed draw loop. */
                        st->draw_nsec += now - seg;
                        health_feed(&hs, buf, nbuf);
                        nbuf = 0;
                        seg = now_nsec();
                }
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
