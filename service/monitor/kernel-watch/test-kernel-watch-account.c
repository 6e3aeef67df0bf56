/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The kernel watch's accounting step (state + counters + messages ->
 * events + next state) against the invariants of kernel-watch.h, and its
 * verdict text. Pure: no journal, no files, no clock. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel-watch-account.h"
#include "macro.h"
#include "test-util.h"

/* The sources whose counters the kernel keeps (a test's counters grow for
 * those only, as the kernel's do). */
#define FOREACH_COUNTED(i) \
        FOREACH_RNG_SOURCE(i) if (!rng_source_desc(i)->kernel.counters) {} else

static uint64_t rng_state = 0x9e3779b97f4a7c15;

static uint64_t rnd(uint64_t n) {
        rng_state ^= rng_state << 13;
        rng_state ^= rng_state >> 7;
        rng_state ^= rng_state << 17;
        return n ? rng_state % n : 0;
}

static void add(KernelWatchBatch *b, KernelRngMsgKind k, RngSourceId i, unsigned cpu, const char *text) {
        KernelRngMsg m = { .kind = k, .instruction = i, .have_cpu = k == KERNEL_RNG_MSG_EXHAUSTED,
                           .cpu = cpu, .tries = 10 };

        CHECK_EQ_INT(kernel_watch_batch_add(b, &m, text, strlen(text)), 0);
}

static void add_exhausted(KernelWatchBatch *b, RngSourceId i, unsigned cpu) {
        add(b, KERNEL_RNG_MSG_EXHAUSTED, i, cpu,
            i == RNG_SOURCE_RDSEED ? "x86/rng: RDSEED exhausted after 10 tries on CPU 1\n"
                            : "x86/rng: RDRAND exhausted after 10 tries on CPU 1\n");
}

/* One step; the next state replaces *state (as the I/O does after sending). */
static size_t step(KernelWatchState *state, const KernelCounters *c, KernelWatchBatch *b, const char *cursor,
                   KernelWatchStep *ret) {
        int r = kernel_watch_account(state, c, b, cursor, NULL, ret);

        CHECK(r >= 0, "account: %d", r);
        CHECK_EQ_U64((uint64_t) r, ret->n_events);
        for (size_t k = 0; k < ret->n_events; k++)
                CHECK_EQ_U64(ret->events[k].state_serial, ret->next.serial);
        return r < 0 ? 0 : (size_t) r;
}

static void adopt(KernelWatchState *state, KernelWatchStep *s, KernelWatchBatch *b) {
        kernel_watch_state_done(state);
        *state = s->next;
        s->next = (KernelWatchState) {};
        kernel_watch_step_done(s);
        kernel_watch_batch_clear(b);
}

static uint64_t failure_count(const KernelWatchStep *s, RngSourceId i) {
        uint64_t sum = 0;

        for (size_t k = 0; k < s->n_events; k++)
                if (s->events[k].instruction == i && (s->events[k].kind == KERNEL_RNG_MSG_EXHAUSTED ||
                                                     s->events[k].kind == KERNEL_RNG_MSG_FAILED))
                        sum += s->events[k].count;
        return sum;
}

/* Over many steps (messages or not, the kernel's rate limit dropping lines,
 * both failure kinds), the RNG_COUNTs add up to the counter's growth, and
 * the events carry the snapshot's totals (retried >= exhausted). */
static void test_counts_add_up(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState state = {};
        KernelCounters c = {};
        KernelWatchBatch b = {};
        uint64_t counted[_RNG_SOURCE_MAX] = {}, serial = 0;

        for (unsigned n = 0; n < 2000; n++) {
                KernelWatchStep s;
                size_t events;

                FOREACH_COUNTED(i) {
                        uint64_t grow = rnd(4) == 0 ? 0 : rnd(1000);
                        uint64_t lines = MIN(grow, rnd(12)); /* rate-limited: fewer lines */

                        c.retried[i] += grow + rnd(50);
                        c.exhausted[i] += grow;
                        for (uint64_t l = 0; l < lines; l++)
                                add_exhausted(&b, i, (unsigned) l);
                        if (rnd(10) == 0)
                                add(&b, KERNEL_RNG_MSG_FAILED, i, 0, "RDSEED failed");
                }
                events = step(&state, &c, &b, rnd(2) ? "cursor" : NULL, &s);
                FOREACH_COUNTED(i)
                        counted[i] += failure_count(&s, i);
                for (size_t k = 0; k < events; k++) {
                        const KernelEventInfo *e = &s.events[k];

                        CHECK(e->have_counters, "counters");
                        CHECK_EQ_U64(e->exhausted_total, c.exhausted[e->instruction]);
                        CHECK_EQ_U64(e->retried_total, c.retried[e->instruction]);
                        CHECK(e->retried_total >= e->exhausted_total, "retried >= exhausted");
                }
                if (events > 0)
                        serial++;
                CHECK_EQ_U64(s.next.serial, serial);
                adopt(&state, &s, &b);
                FOREACH_COUNTED(i) {
                        CHECK_EQ_U64(counted[i], c.exhausted[i]);
                        CHECK_EQ_U64(state.reported[i], c.exhausted[i]);
                        CHECK_EQ_U64(state.recorded[KERNEL_RNG_MSG_EXHAUSTED][i] +
                                             state.recorded[KERNEL_RNG_MSG_FAILED][i],
                                     c.exhausted[i]);
                }
        }
}

/* A flood in one window: one event per (kind, instruction), the first line
 * kept (newline stripped, bounded), the CPU of the last line. */
static void test_flood_aggregated(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState state = {};
        KernelCounters c = {};
        KernelWatchBatch b = {};
        KernelWatchStep s;
        char long_line[2048];
        static const char zen5[] = "RDSEED32 is broken. Disabling the corresponding CPUID bit.";
        KernelRngMsg dis = { .kind = KERNEL_RNG_MSG_DISABLED, .instruction = RNG_SOURCE_RDSEED,
                             .reason = kernel_reason_match(zen5, strlen(zen5)) };

        for (unsigned l = 0; l < 36904; l++)
                add_exhausted(&b, RNG_SOURCE_RDSEED, l % 64);
        for (unsigned l = 0; l < 7; l++)
                add_exhausted(&b, RNG_SOURCE_RDRAND, 3);
        memset(long_line, 'x', sizeof(long_line));
        CHECK_EQ_INT(kernel_watch_batch_add(&b, &dis, long_line, sizeof(long_line)), 0);
        CHECK(b.pending, "pending");
        c.exhausted[RNG_SOURCE_RDSEED] = 40000; /* the kernel counted more than it printed */
        c.retried[RNG_SOURCE_RDSEED] = 40000;
        c.exhausted[RNG_SOURCE_RDRAND] = 7;
        c.retried[RNG_SOURCE_RDRAND] = 9;

        CHECK_EQ_INT(step(&state, &c, &b, "c1", &s), 3);
        for (size_t k = 0; k < s.n_events; k++) {
                const KernelEventInfo *e = &s.events[k];

                if (e->kind == KERNEL_RNG_MSG_EXHAUSTED && e->instruction == RNG_SOURCE_RDSEED) {
                        CHECK_EQ_U64(e->messages, 36904);
                        CHECK_EQ_U64(e->count, 40000);
                        CHECK(e->have_cpu && e->cpu == 36903 % 64 && e->tries == 10, "last CPU %u", e->cpu);
                        CHECK(e->kernel_message &&
                              strcmp(e->kernel_message, "x86/rng: RDSEED exhausted after 10 tries on CPU 1") == 0,
                              "first line '%s'", e->kernel_message ?: "(null)");
                } else if (e->kind == KERNEL_RNG_MSG_EXHAUSTED && e->instruction == RNG_SOURCE_RDRAND) {
                        CHECK_EQ_U64(e->messages, 7);
                        CHECK_EQ_U64(e->count, 7);
                } else if (e->kind == KERNEL_RNG_MSG_DISABLED) {
                        CHECK_EQ_U64(e->messages, 1);
                        CHECK_EQ_U64(e->count, 1);
                        CHECK(e->kernel_message && strlen(e->kernel_message) == KERNEL_WATCH_MESSAGE_MAX,
                              "bounded first line");
                        CHECK(e->reason_id && strcmp(e->reason_id, "zen5-rdseed32") == 0, "reason");
                } else
                        CHECK(false, "unexpected event kind %d", e->kind);
        }
        CHECK(s.next.cursor && strcmp(s.next.cursor, "c1") == 0, "cursor");
        CHECK_EQ_U64(s.next.recorded[KERNEL_RNG_MSG_DISABLED][RNG_SOURCE_RDSEED], 1);
        adopt(&state, &s, &b);
        CHECK(!b.pending, "cleared");

        /* The next window of the flood: again one event, counting the growth only. */
        for (unsigned l = 0; l < 500; l++)
                add_exhausted(&b, RNG_SOURCE_RDSEED, 0);
        c.exhausted[RNG_SOURCE_RDSEED] = 40600;
        CHECK_EQ_INT(step(&state, &c, &b, "c2", &s), 1);
        CHECK_EQ_U64(s.events[0].messages, 500);
        CHECK_EQ_U64(s.events[0].count, 600);
        adopt(&state, &s, &b);
}

/* No counters (kernels without the series): the message counts. */
static void test_no_counters(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState state = {};
        KernelWatchBatch b = {};
        KernelWatchStep s;

        for (unsigned l = 0; l < 5; l++)
                add_exhausted(&b, RNG_SOURCE_RDSEED, 2);
        add(&b, KERNEL_RNG_MSG_FAILED, RNG_SOURCE_RDSEED, 0, "RDSEED failed");
        add(&b, KERNEL_RNG_MSG_FAILED, RNG_SOURCE_RDRAND, 0, "RDRAND failed");
        add(&b, KERNEL_RNG_MSG_FAILED, RNG_SOURCE_RDRAND, 0, "RDRAND failed");

        CHECK_EQ_INT(step(&state, NULL, &b, NULL, &s), 3);
        for (size_t k = 0; k < s.n_events; k++) {
                CHECK_EQ_U64(s.events[k].count, s.events[k].messages);
                CHECK(!s.events[k].have_counters && s.events[k].exhausted_total == 0, "no counters");
        }
        CHECK_EQ_U64(failure_count(&s, RNG_SOURCE_RDSEED), 6);
        CHECK_EQ_U64(failure_count(&s, RNG_SOURCE_RDRAND), 2);
        CHECK_EQ_U64(s.next.reported[RNG_SOURCE_RDSEED], 0); /* nothing counted by a kernel */
        CHECK_EQ_U64(s.next.recorded[KERNEL_RNG_MSG_EXHAUSTED][RNG_SOURCE_RDSEED], 5);
        CHECK_EQ_U64(s.next.recorded[KERNEL_RNG_MSG_FAILED][RNG_SOURCE_RDRAND], 2);
        CHECK(!s.next.cursor, "no cursor");
        adopt(&state, &s, &b);

        /* Nothing new: nothing to send, the state stays. */
        CHECK_EQ_INT(step(&state, NULL, &b, NULL, &s), 0);
        CHECK_EQ_U64(s.next.serial, state.serial);
        kernel_watch_step_done(&s);
}

/* The settle re-check: the counter grew and no line was printed (rate
 * limit): one counted-only event; the same snapshot again: nothing. */
static void test_growth_without_messages(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState state = { .cursor = strdup("old") };
        KernelCounters c = { .exhausted = { [RNG_SOURCE_RDSEED] = 9 }, .retried = { [RNG_SOURCE_RDSEED] = 11 } };
        KernelWatchBatch b = {};
        KernelWatchStep s;

        CHECK_EQ_INT(step(&state, &c, &b, NULL, &s), 1);
        CHECK_EQ_INT(s.events[0].kind, KERNEL_RNG_MSG_EXHAUSTED);
        CHECK_EQ_INT(s.events[0].instruction, RNG_SOURCE_RDSEED);
        CHECK_EQ_U64(s.events[0].messages, 0);
        CHECK_EQ_U64(s.events[0].count, 9);
        CHECK(!s.events[0].kernel_message && !s.events[0].have_cpu, "counted only");
        /* The cursor is kept, as a copy the next state owns. */
        CHECK(s.next.cursor && s.next.cursor != state.cursor && strcmp(s.next.cursor, "old") == 0, "cursor copy");
        CHECK_EQ_U64(s.next.serial, 1);
        CHECK_EQ_U64(state.serial, 0); /* the input is not touched */
        adopt(&state, &s, &b);

        CHECK_EQ_INT(step(&state, &c, &b, NULL, &s), 0);
        kernel_watch_step_done(&s);

        /* The lines arrive after the counted-only event: logged, already counted. */
        add_exhausted(&b, RNG_SOURCE_RDSEED, 1);
        add(&b, KERNEL_RNG_MSG_FAILED, RNG_SOURCE_RDSEED, 0, "RDSEED failed");
        CHECK_EQ_INT(step(&state, &c, &b, "new", &s), 2);
        CHECK_EQ_U64(failure_count(&s, RNG_SOURCE_RDSEED), 0);
        CHECK_EQ_U64(s.events[0].messages, 1);
        CHECK(strcmp(s.next.cursor, "new") == 0, "new cursor");
        adopt(&state, &s, &b);
        CHECK_EQ_U64(state.recorded[KERNEL_RNG_MSG_EXHAUSTED][RNG_SOURCE_RDSEED], 9);
}

/* A counter read that fails mid-flood, on a kernel that has counters: the
 * window's messages are not counted by number and then again by the
 * counter's growth; over the steps the counts add up to the growth. */
static void test_counter_read_fails(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState state = {};
        KernelWatchCounters v = {};
        KernelCounters c0 = { .exhausted = { [RNG_SOURCE_RDSEED] = 5 }, .retried = { [RNG_SOURCE_RDSEED] = 5 } };
        KernelCounters c1 = { .exhausted = { [RNG_SOURCE_RDSEED] = 8 }, .retried = { [RNG_SOURCE_RDSEED] = 9 } };
        const KernelCounters *c;
        KernelWatchBatch b = {};
        KernelWatchStep s;
        uint64_t sum = 0;

        /* A stock kernel: no counters, before and after a failed read. */
        CHECK(!kernel_watch_counters_update(&v, -ENOENT, NULL), "no counters");
        CHECK(!v.have && !v.stale, "nothing to be stale");

        c = kernel_watch_counters_update(&v, 0, &c0);
        CHECK(c && v.have && !v.stale && c->exhausted[RNG_SOURCE_RDSEED] == 5, "first read");
        add_exhausted(&b, RNG_SOURCE_RDSEED, 1);
        step(&state, c, &b, "1", &s);
        sum += failure_count(&s, RNG_SOURCE_RDSEED);
        adopt(&state, &s, &b);

        /* The read fails with 3 more lines logged: the last snapshot stands. */
        c = kernel_watch_counters_update(&v, -EIO, NULL);
        CHECK(c && v.have && v.stale && c->exhausted[RNG_SOURCE_RDSEED] == 5, "stale snapshot kept");
        for (unsigned l = 0; l < 3; l++)
                add_exhausted(&b, RNG_SOURCE_RDSEED, 1);
        CHECK_EQ_INT(step(&state, c, &b, "2", &s), 1);
        CHECK(s.events[0].have_counters, "still counted by the kernel");
        sum += failure_count(&s, RNG_SOURCE_RDSEED);
        adopt(&state, &s, &b);

        /* Readable again: the growth is counted once. */
        c = kernel_watch_counters_update(&v, 0, &c1);
        CHECK(c && !v.stale, "fresh again");
        CHECK_EQ_INT(step(&state, c, &b, NULL, &s), 1);
        sum += failure_count(&s, RNG_SOURCE_RDSEED);
        adopt(&state, &s, &b);
        CHECK_EQ_U64(sum, 8);
        CHECK_EQ_U64(state.reported[RNG_SOURCE_RDSEED], 8);
}

/* A kernel that has counters, whose first reads fail (not -ENOENT: the
 * group's read access not yet given): the lines are counted by number and
 * taken as reported, so the first good read counts only the growth past
 * them. The counts add up to the counter, and the state passes the check
 * a restart makes against it (counted twice, 3 + 7 > 7, it would not). */
static void test_counter_first_read_fails(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState state = {};
        KernelWatchCounters v = {};
        KernelCounters c1 = { .exhausted = { [RNG_SOURCE_RDSEED] = 7, [RNG_SOURCE_RDRAND] = 1 },
                              .retried = { [RNG_SOURCE_RDSEED] = 8, [RNG_SOURCE_RDRAND] = 1 } };
        KernelWatchAccountParams p = {};
        const KernelCounters *c;
        KernelWatchBatch b = {};
        KernelWatchStep s;
        char why[256] = "";
        uint64_t sum = 0;

        c = kernel_watch_counters_update(&v, -EACCES, NULL);
        CHECK(!c && !v.have && !v.absent, "no snapshot, and not a kernel without counters");
        p.counters_unread = kernel_watch_counters_unread(&v);
        for (unsigned l = 0; l < 3; l++)
                add_exhausted(&b, RNG_SOURCE_RDSEED, 1);
        add(&b, KERNEL_RNG_MSG_FAILED, RNG_SOURCE_RDRAND, 0, "RDRAND failed");
        CHECK_EQ_INT(kernel_watch_account(&state, c, &b, "1", &p, &s), 2);
        CHECK_EQ_U64(failure_count(&s, RNG_SOURCE_RDSEED), 3);
        CHECK_EQ_U64(s.next.reported[RNG_SOURCE_RDSEED], 3);
        CHECK_EQ_U64(s.next.reported[RNG_SOURCE_RDRAND], 1);
        sum += failure_count(&s, RNG_SOURCE_RDSEED);
        adopt(&state, &s, &b);

        /* Readable: 4 more exhaustions than were printed. */
        c = kernel_watch_counters_update(&v, 0, &c1);
        p.counters_unread = kernel_watch_counters_unread(&v);
        CHECK(c && !p.counters_unread, "first good read");
        CHECK_EQ_INT(kernel_watch_account(&state, c, &b, NULL, &p, &s), 1);
        CHECK_EQ_U64(s.events[0].messages, 0);
        CHECK_EQ_U64(s.events[0].count, 4);
        sum += failure_count(&s, RNG_SOURCE_RDSEED);
        adopt(&state, &s, &b);
        CHECK_EQ_U64(sum, 7);
        CHECK_EQ_U64(state.reported[RNG_SOURCE_RDSEED], 7);
        CHECK_EQ_INT(kernel_watch_state_check_counters(&state, &c1, why, sizeof why), 0);
        CHECK(why[0] == '\0', "no contradiction: %s", why);

        /* A stock kernel (-ENOENT): lines are all there is, nothing is
         * taken as a counter's. */
        kernel_watch_state_done(&state);
        state = (KernelWatchState) {};
        v = (KernelWatchCounters) {};
        c = kernel_watch_counters_update(&v, -ENOENT, NULL);
        p.counters_unread = kernel_watch_counters_unread(&v);
        CHECK(!c && !p.counters_unread, "no counters");
        add_exhausted(&b, RNG_SOURCE_RDSEED, 1);
        CHECK_EQ_INT(kernel_watch_account(&state, c, &b, "2", &p, &s), 1);
        CHECK_EQ_U64(s.next.reported[RNG_SOURCE_RDSEED], 0);
        adopt(&state, &s, &b);
}

/* A counter below what was reported (went backwards, or a state from
 * elsewhere): never a negative or wrapped count, reported never lowered;
 * only growth beyond what was reported counts. */
static void test_counter_backwards(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState state = {};
        KernelCounters c = { .exhausted = { [RNG_SOURCE_RDSEED] = 40 }, .retried = { [RNG_SOURCE_RDSEED] = 40 } };
        KernelWatchBatch b = {};
        KernelWatchStep s;

        state.reported[RNG_SOURCE_RDSEED] = 100;
        state.recorded[KERNEL_RNG_MSG_EXHAUSTED][RNG_SOURCE_RDSEED] = 100;

        CHECK_EQ_INT(step(&state, &c, &b, NULL, &s), 0);
        kernel_watch_step_done(&s);

        add_exhausted(&b, RNG_SOURCE_RDSEED, 0);
        CHECK_EQ_INT(step(&state, &c, &b, NULL, &s), 1);
        CHECK_EQ_U64(s.events[0].count, 0);
        CHECK_EQ_U64(s.next.reported[RNG_SOURCE_RDSEED], 100);
        CHECK_EQ_U64(s.next.recorded[KERNEL_RNG_MSG_EXHAUSTED][RNG_SOURCE_RDSEED], 100);
        adopt(&state, &s, &b);

        c.exhausted[RNG_SOURCE_RDSEED] = 105;
        CHECK_EQ_INT(step(&state, &c, &b, NULL, &s), 1);
        CHECK_EQ_U64(s.events[0].count, 5);
        adopt(&state, &s, &b);
        CHECK_EQ_U64(state.reported[RNG_SOURCE_RDSEED], 105);
}

/* A restart from the saved state (format -> parse) counts nothing twice;
 * a restart from the state before an unsent flush counts it once. */
static void test_restart(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState state = {}, before = {}, saved = {};
        _cleanup_free_ char *text = NULL;
        KernelCounters c = { .exhausted = { [RNG_SOURCE_RDSEED] = 30, [RNG_SOURCE_RDRAND] = 2 },
                             .retried = { [RNG_SOURCE_RDSEED] = 31, [RNG_SOURCE_RDRAND] = 2 } };
        KernelWatchBatch b = {};
        KernelWatchStep s;

        for (unsigned l = 0; l < 10; l++)
                add_exhausted(&b, RNG_SOURCE_RDSEED, 0);
        CHECK_EQ_INT(kernel_watch_state_copy(&state, &before), 0);
        CHECK_EQ_INT(step(&state, &c, &b, "c10", &s), 2);
        CHECK_EQ_U64(failure_count(&s, RNG_SOURCE_RDSEED) + failure_count(&s, RNG_SOURCE_RDRAND), 32);
        adopt(&state, &s, &b);

        CHECK_EQ_INT(kernel_watch_state_format(&state, &text), 0);
        CHECK_EQ_INT(kernel_watch_state_parse(text, strlen(text), &saved), 0);

        /* Restarted, the journal positioned after c10: the same counters. */
        CHECK_EQ_INT(step(&saved, &c, &b, NULL, &s), 0);
        kernel_watch_step_done(&s);
        /* Some more, after the restart: only those. */
        c.exhausted[RNG_SOURCE_RDSEED] = 33;
        add_exhausted(&b, RNG_SOURCE_RDSEED, 0);
        CHECK_EQ_INT(step(&saved, &c, &b, "c11", &s), 1);
        CHECK_EQ_U64(s.events[0].count, 3);
        CHECK_EQ_U64(s.next.serial, 2);
        adopt(&saved, &s, &b);

        /* The crash came before the first flush's events were sent (its .new
         * not adopted): from the state before it, the journal re-read, every
         * failure is reported once. */
        for (unsigned l = 0; l < 11; l++)
                add_exhausted(&b, RNG_SOURCE_RDSEED, 0);
        CHECK_EQ_INT(step(&before, &c, &b, "c11", &s), 2);
        CHECK_EQ_U64(failure_count(&s, RNG_SOURCE_RDSEED), 33);
        CHECK_EQ_U64(failure_count(&s, RNG_SOURCE_RDRAND), 2);
        adopt(&before, &s, &b);
}

/* Own load: of each step's growth, up to what the own probe's snapshots
 * saw goes into an own_probe event and state.own, the rest into the usual
 * events; all counts still add up to the counter, what was attributed
 * never exceeds what was pending, and the verdict counts only the rest. */
static void test_own_load(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState state = {};
        KernelCounters c = {};
        KernelWatchBatch b = {};
        uint64_t counted[_RNG_SOURCE_MAX] = {}, own_events[_RNG_SOURCE_MAX] = {},
                 pending[_RNG_SOURCE_MAX] = {}, own_total[_RNG_SOURCE_MAX] = {};

        for (unsigned n = 0; n < 2000; n++) {
                KernelWatchStep s;
                size_t events;

                FOREACH_COUNTED(i) {
                        /* A probe's window: the counter grew by `own` while it ran. */
                        uint64_t own = rnd(3) == 0 ? rnd(20) : 0, other = rnd(2) ? rnd(20) : 0;

                        c.exhausted[i] += own + other;
                        c.retried[i] += own + other;
                        pending[i] += own;
                        own_total[i] += own;
                        if (other && rnd(2))
                                add_exhausted(&b, i, 0);
                }
                events = kernel_watch_account(&state, &c, &b, NULL, &(KernelWatchAccountParams) { .own_pending = pending }, &s);
                CHECK(events == s.n_events, "events");
                for (size_t k = 0; k < s.n_events; k++) {
                        const KernelEventInfo *e = &s.events[k];

                        if (e->own_probe) {
                                CHECK_EQ_INT(e->kind, KERNEL_RNG_MSG_EXHAUSTED);
                                own_events[e->instruction] += e->count;
                        }
                        if (e->kind == KERNEL_RNG_MSG_EXHAUSTED || e->kind == KERNEL_RNG_MSG_FAILED)
                                counted[e->instruction] += e->count;
                }
                FOREACH_COUNTED(i) {
                        CHECK(s.own_used[i] <= pending[i], "own used %" PRIu64 " > pending %" PRIu64, s.own_used[i],
                              pending[i]);
                        pending[i] -= s.own_used[i];
                }
                adopt(&state, &s, &b);
                FOREACH_COUNTED(i) {
                        /* The counter only grows in this test: every window is seen. */
                        CHECK_EQ_U64(pending[i], 0);
                        CHECK_EQ_U64(counted[i], c.exhausted[i]);
                        CHECK_EQ_U64(state.own[i], own_total[i]);
                        CHECK_EQ_U64(own_events[i], own_total[i]);
                        CHECK_EQ_U64(state.recorded[KERNEL_RNG_MSG_EXHAUSTED][i] + state.own[i], c.exhausted[i]);
                }
        }

        /* Only the own probe's exhaustions: the verdict stays ok, and says why. */
        kernel_watch_state_done(&state);
        state = (KernelWatchState) {};
        c = (KernelCounters) {};
        c.exhausted[RNG_SOURCE_RDSEED] = c.retried[RNG_SOURCE_RDSEED] = 3;
        pending[RNG_SOURCE_RDSEED] = 3;
        {
                _cleanup_free_ char *status = NULL;
                KernelWatchStep s;
                Verdict v[_RNG_SOURCE_MAX];

                CHECK_EQ_INT(kernel_watch_account(&state, &c, &b, NULL, &(KernelWatchAccountParams) { .own_pending = pending }, &s), 1);
                CHECK(s.events[0].own_probe && s.events[0].count == 3, "one own event of 3");
                adopt(&state, &s, &b);
                CHECK_EQ_INT(kernel_watch_state_verdict(&state, true, NULL, v, &status), 0);
                CHECK(v[RNG_SOURCE_RDSEED] == VERDICT_OK && v[RNG_SOURCE_RDRAND] == VERDICT_OK, "own load only: ok");
                CHECK(status && strcmp(status, "kernel: RDSEED exhausted 3x during rng-health's own probe") == 0,
                      "status %s", status ?: "(null)");

                /* Then 2 outside any window: exhausted, counted apart. */
                free(status);
                status = NULL;
                c.exhausted[RNG_SOURCE_RDSEED] += 2;
                pending[RNG_SOURCE_RDSEED] = 0;
                CHECK_EQ_INT(kernel_watch_account(&state, &c, &b, NULL, &(KernelWatchAccountParams) { .own_pending = pending }, &s), 1);
                CHECK(!s.events[0].own_probe && s.events[0].count == 2, "one other event of 2");
                adopt(&state, &s, &b);
                CHECK_EQ_INT(kernel_watch_state_verdict(&state, true, NULL, v, &status), 0);
                CHECK_EQ_INT(v[RNG_SOURCE_RDSEED], VERDICT_EXHAUSTED);
                CHECK(status && strcmp(status, "kernel: RDSEED exhausted 2x (the kernel seeds from RDRAND instead), "
                                               "RDSEED exhausted 3x during rng-health's own probe") == 0,
                      "status %s", status ?: "(null)");
        }
}

/* What is held back is the counter less what the events carried, and the
 * status counts it: it says the counter's figure, and how many of them the
 * journal does not have yet. */
static void check_held_status(const KernelWatchState *state, const KernelCounters *c,
                              const uint64_t counted[_RNG_SOURCE_MAX]) {
        _cleanup_free_ char *status = NULL;
        uint64_t held[_RNG_SOURCE_MAX];
        Verdict iv[_RNG_SOURCE_MAX];
        char want[256];

        FOREACH_COUNTED(i) {
                held[i] = kernel_watch_growth(state, c, NULL, i, NULL);
                CHECK_EQ_U64(held[i], c->exhausted[i] - counted[i]);
        }
        CHECK_EQ_INT(kernel_watch_state_verdict(state, true, held, iv, &status), 0);
        CHECK_EQ_INT(iv[RNG_SOURCE_RDSEED], c->exhausted[RNG_SOURCE_RDSEED] > 0 ? VERDICT_EXHAUSTED : VERDICT_OK);
        if (c->exhausted[RNG_SOURCE_RDSEED] == 0)
                return;
        if (held[RNG_SOURCE_RDSEED] > 0)
                snprintf(want, sizeof(want), "RDSEED exhausted %" PRIu64 "x (the kernel seeds from RDRAND instead; "
                         "%" PRIu64 " of them recorded in the journal when the routine interval ends)",
                         c->exhausted[RNG_SOURCE_RDSEED], held[RNG_SOURCE_RDSEED]);
        else
                snprintf(want, sizeof(want), "RDSEED exhausted %" PRIu64 "x (the kernel seeds from RDRAND instead)",
                         c->exhausted[RNG_SOURCE_RDSEED]);
        CHECK(status && strstr(status, want), "status '%s', expected '%s'", status ?: "(null)", want);
}

/* Routine failures (RDSEED's) held back inside the interval: no event, not
 * in the state, the buckets kept; RDRAND's never held back; once due, one
 * event carries everything held back, and over any sequence of steps the
 * counts add up to the counter. */
static void test_routine_deferred(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState state = {};
        KernelCounters c = {};
        KernelWatchBatch b = {};
        uint64_t counted[_RNG_SOURCE_MAX] = {};
        unsigned routine_events = 0, steps_due = 0;

        CHECK(kernel_watch_failure_routine(RNG_SOURCE_RDSEED) && !kernel_watch_failure_routine(RNG_SOURCE_RDRAND), "routine");

        for (unsigned n = 0; n < 3000; n++) {
                bool defer = rnd(8) != 0; /* mostly inside the interval */
                KernelWatchAccountParams p = { .defer_routine = defer, .routine_interval_usec = defer ? 0 : 1000 };
                KernelWatchStep s;
                int r;

                FOREACH_COUNTED(i) {
                        uint64_t grow = rnd(3) == 0 ? rnd(30) : 0;

                        c.exhausted[i] += grow;
                        c.retried[i] += grow;
                        if (grow && rnd(2))
                                add_exhausted(&b, i, 0);
                }
                r = kernel_watch_account(&state, &c, &b, NULL, &p, &s);
                CHECK(r >= 0, "account: %d", r);
                for (size_t k = 0; k < s.n_events; k++) {
                        const KernelEventInfo *e = &s.events[k];

                        if (e->kind == KERNEL_RNG_MSG_EXHAUSTED || e->kind == KERNEL_RNG_MSG_FAILED)
                                counted[e->instruction] += e->count;
                        CHECK(!(defer && e->instruction == RNG_SOURCE_RDSEED && e->kind == KERNEL_RNG_MSG_EXHAUSTED),
                              "a routine RDSEED event inside the interval");
                        CHECK(e->routine == (e->instruction == RNG_SOURCE_RDSEED), "routine flag on %s",
                              rng_source_display_name(e->instruction));
                        routine_events += e->routine;
                }
                CHECK(!s.deferred[RNG_SOURCE_RDRAND], "RDRAND held back");
                CHECK(!defer || !s.routine_recorded, "routine recorded while deferred");
                steps_due += !defer;
                /* The I/O side keeps the held back buckets. */
                kernel_watch_state_done(&state);
                state = s.next;
                s.next = (KernelWatchState) {};
                kernel_watch_batch_clear_but(&b, s.deferred);
                CHECK_EQ_U64(counted[RNG_SOURCE_RDRAND], c.exhausted[RNG_SOURCE_RDRAND]);
                CHECK_EQ_U64(state.reported[RNG_SOURCE_RDRAND], c.exhausted[RNG_SOURCE_RDRAND]);
                CHECK_EQ_U64(counted[RNG_SOURCE_RDSEED], state.reported[RNG_SOURCE_RDSEED]);
                if (!defer)
                        CHECK_EQ_U64(state.reported[RNG_SOURCE_RDSEED], c.exhausted[RNG_SOURCE_RDSEED]);
                check_held_status(&state, &c, counted);
                kernel_watch_step_done(&s);
        }
        CHECK(routine_events <= steps_due, "%u routine events in %u due steps", routine_events, steps_due);
        kernel_watch_batch_clear(&b);
}

static void test_bad_input(void) {
        KernelWatchBatch b = {};
        KernelWatchState st = {};
        KernelWatchStep s;
        KernelRngMsg m = { .kind = _KERNEL_RNG_MSG_MAX };

        CHECK_EQ_INT(kernel_watch_batch_add(&b, &m, "x", 1), -EINVAL);
        m = (KernelRngMsg) { .kind = KERNEL_RNG_MSG_FAILED, .instruction = _RNG_SOURCE_MAX };
        CHECK_EQ_INT(kernel_watch_batch_add(&b, &m, "x", 1), -EINVAL);
        CHECK(!b.pending, "nothing added");
        CHECK_EQ_INT(kernel_watch_account(NULL, NULL, &b, NULL, NULL, &s), -EINVAL);
        CHECK_EQ_INT(kernel_watch_account(&st, NULL, NULL, NULL, NULL, &s), -EINVAL);
}

static void check_verdict(const KernelWatchState *s, bool have_counters, Verdict want, const char *want_status) {
        _cleanup_free_ char *status = NULL;
        Verdict iv[_RNG_SOURCE_MAX], v;

        CHECK_EQ_INT(kernel_watch_state_verdict(s, have_counters, NULL, iv, &status), 0);
        v = verdict_worst(iv[RNG_SOURCE_RDRAND], iv[RNG_SOURCE_RDSEED]);
        CHECK_EQ_INT(v, want);
        CHECK(status && strcmp(status, want_status) == 0, "status '%s', expected '%s'", status ?: "(null)",
              want_status);
}

static void test_verdict_text(void) {
        KernelWatchState s = {};

        check_verdict(&s, true, VERDICT_OK, "kernel: no RNG failures");
        check_verdict(&s, false, VERDICT_OK, "kernel: no RNG failures logged");

        s.reported[RNG_SOURCE_RDSEED] = 3;
        check_verdict(&s, true, VERDICT_EXHAUSTED, "kernel: RDSEED exhausted 3x (the kernel seeds from RDRAND instead)");
        {
                _cleanup_free_ char *st = NULL;
                Verdict iv[_RNG_SOURCE_MAX];

                /* Per instruction: FailOn= and the severity act on these. */
                CHECK_EQ_INT(kernel_watch_state_verdict(&s, true, NULL, iv, &st), 0);
                CHECK(iv[RNG_SOURCE_RDRAND] == VERDICT_OK && iv[RNG_SOURCE_RDSEED] == VERDICT_EXHAUSTED, "per instruction");
        }
        /* without counters, the logged lines (exhausted + failed) */
        s = (KernelWatchState) {};
        s.recorded[KERNEL_RNG_MSG_EXHAUSTED][RNG_SOURCE_RDRAND] = 2;
        s.recorded[KERNEL_RNG_MSG_FAILED][RNG_SOURCE_RDRAND] = 1;
#define RDRAND_EXHAUSTED "RDRAND exhausted 3x (the kernel's RDRAND loop fails; a confidential VM's boot seeding would panic)"
        check_verdict(&s, false, VERDICT_EXHAUSTED, "kernel: " RDRAND_EXHAUSTED);

        s.recorded[KERNEL_RNG_MSG_DISABLED][RNG_SOURCE_RDSEED] = 1;
        check_verdict(&s, false, VERDICT_EXHAUSTED, "kernel: " RDRAND_EXHAUSTED ", RDSEED disabled");
        s.recorded[KERNEL_RNG_MSG_DEFECTIVE][RNG_SOURCE_RDRAND] = 1;
        check_verdict(&s, false, VERDICT_BROKEN, "kernel: " RDRAND_EXHAUSTED ", RDRAND defective, RDSEED disabled");

        s = (KernelWatchState) {};
        s.recorded[KERNEL_RNG_MSG_DISABLED][RNG_SOURCE_RDSEED] = 1;
        check_verdict(&s, true, VERDICT_DEGRADED, "kernel: RDSEED disabled");

        /* Held back for the routine interval's record: counted, and named. */
        {
                _cleanup_free_ char *st = NULL;
                Verdict iv[_RNG_SOURCE_MAX];
                uint64_t held[_RNG_SOURCE_MAX] = { [RNG_SOURCE_RDSEED] = 6 };

                s = (KernelWatchState) {};
                CHECK_EQ_INT(kernel_watch_state_verdict(&s, true, held, iv, &st), 0);
                CHECK(iv[RNG_SOURCE_RDSEED] == VERDICT_EXHAUSTED && iv[RNG_SOURCE_RDRAND] == VERDICT_OK, "held back: exhausted");
                free(st);
                s.reported[RNG_SOURCE_RDSEED] = 3;
                CHECK_EQ_INT(kernel_watch_state_verdict(&s, true, held, iv, &st), 0);
                CHECK(strcmp(st, "kernel: RDSEED exhausted 9x (the kernel seeds from RDRAND instead; 6 of them "
                                 "recorded in the journal when the routine interval ends)") == 0,
                      "status '%s'", st);
        }
}

/* The held back count is the counter's growth over the state, less what
 * the own probe has not yet been credited with. */
static void test_growth(void) {
        KernelWatchState s = {};
        KernelCounters c = {};
        uint64_t own_pending[_RNG_SOURCE_MAX] = { [RNG_SOURCE_RDSEED] = 4 }, own = 99;

        CHECK_EQ_U64(kernel_watch_growth(&s, NULL, own_pending, RNG_SOURCE_RDSEED, &own), 0);
        CHECK_EQ_U64(own, 0);
        s.reported[RNG_SOURCE_RDSEED] = 10;
        c.exhausted[RNG_SOURCE_RDSEED] = 7; /* went backwards: nothing grew */
        CHECK_EQ_U64(kernel_watch_growth(&s, &c, own_pending, RNG_SOURCE_RDSEED, &own), 0);
        c.exhausted[RNG_SOURCE_RDSEED] = 12; /* 2 grew, both the own probe's */
        CHECK_EQ_U64(kernel_watch_growth(&s, &c, own_pending, RNG_SOURCE_RDSEED, &own), 0);
        CHECK_EQ_U64(own, 2);
        c.exhausted[RNG_SOURCE_RDSEED] = 25; /* 15 grew: 4 the own probe's */
        CHECK_EQ_U64(kernel_watch_growth(&s, &c, own_pending, RNG_SOURCE_RDSEED, &own), 11);
        CHECK_EQ_U64(own, 4);
        CHECK_EQ_U64(kernel_watch_growth(&s, &c, NULL, RNG_SOURCE_RDSEED, NULL), 15);
        CHECK_EQ_U64(kernel_watch_growth(&s, &c, own_pending, RNG_SOURCE_RDRAND, &own), 0);
}

int main(void) {
        test_counts_add_up();
        test_flood_aggregated();
        test_no_counters();
        test_growth_without_messages();
        test_counter_backwards();
        test_counter_read_fails();
        test_counter_first_read_fails();
        test_restart();
        test_bad_input();
        test_own_load();
        test_routine_deferred();
        test_verdict_text();
        test_growth();
        return test_result("test-kernel-watch-account");
}
