/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The kernel watch's accounting and verdict text: pure (see
 * kernel-watch-account.h). */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel-watch-account.h"
#include "macro.h"

bool kernel_watch_failure_routine(RngSourceId i) {
        return rng_source_kernel_logged(i) && verdict_severity(i, VERDICT_EXHAUSTED) <= SEVERITY_NOTICE;
}

void kernel_watch_batch_clear_but(KernelWatchBatch *b, const bool keep[_RNG_SOURCE_MAX]) {
        KernelWatchBatch kept = {};

        FOREACH_RNG_SOURCE(i)
                for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                        if (keep[i] && (k == KERNEL_RNG_MSG_EXHAUSTED || k == KERNEL_RNG_MSG_FAILED) &&
                            b->buckets[k][i].messages > 0) {
                                kept.buckets[k][i] = b->buckets[k][i];
                                b->buckets[k][i] = (KernelWatchBucket) {};
                                kept.pending = true;
                        }
        kernel_watch_batch_clear(b);
        *b = kept;
}

void kernel_watch_batch_clear(KernelWatchBatch *b) {
        for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                FOREACH_RNG_SOURCE(i)
                        free(b->buckets[k][i].first_message);
        *b = (KernelWatchBatch) {};
}

int kernel_watch_batch_add(KernelWatchBatch *b, const KernelRngMsg *m, const char *text, size_t len) {
        KernelWatchBucket *u;

        if (!b || !m || (unsigned) m->kind >= _KERNEL_RNG_MSG_MAX ||
            (unsigned) m->instruction >= _RNG_SOURCE_MAX || (!text && len > 0))
                return -EINVAL;
        u = &b->buckets[m->kind][m->instruction];
        if (u->messages == 0) {
                u->first_message = strndup(text ?: "", MIN(len, (size_t) KERNEL_WATCH_MESSAGE_MAX));
                if (!u->first_message)
                        return -ENOMEM;
                /* strip the trailing newline the kernel may have left */
                u->first_message[strcspn(u->first_message, "\n")] = '\0';
        }
        u->messages++;
        if (m->have_cpu) {
                u->have_cpu = true;
                u->cpu = m->cpu;
                u->tries = m->tries;
        }
        if (m->reason)
                u->reason = m->reason;
        b->pending = true;
        return 0;
}

void kernel_watch_step_done(KernelWatchStep *s) {
        kernel_watch_state_done(&s->next);
        *s = (KernelWatchStep) {};
}

static bool kind_is_failure(KernelRngMsgKind k) {
        return k == KERNEL_RNG_MSG_EXHAUSTED || k == KERNEL_RNG_MSG_FAILED;
}

uint64_t kernel_watch_growth(const KernelWatchState *state, const KernelCounters *counters,
                             const uint64_t *own_pending, RngSourceId i, uint64_t *ret_own) {
        uint64_t grown = 0, own;

        if (counters && counters->exhausted[i] > state->reported[i])
                grown = counters->exhausted[i] - state->reported[i];
        /* The own probe's part first: it happened in its window, and
         * whatever else grew is someone else's. */
        own = MIN(own_pending ? own_pending[i] : 0, grown);
        if (ret_own)
                *ret_own = own;
        return grown - own;
}

/* The events of one instruction: one per bucket with messages, and a
 * counted-only one when the counter grew without a failure line. */
static size_t account_instruction(const KernelWatchState *state, const KernelCounters *counters,
                                  const KernelWatchBatch *batch, RngSourceId i,
                                  const KernelWatchAccountParams *p, KernelWatchStep *step,
                                  KernelEventInfo *events) {
        KernelWatchState *next = &step->next;
        uint64_t grown, own;
        bool carried = false, routine = kernel_watch_failure_routine(i), defer = routine && p->defer_routine;
        size_t n = 0;

        grown = kernel_watch_growth(state, counters, p->own_pending, i, &own);
        step->own_used[i] = own;

        for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++) {
                const KernelWatchBucket *b = &batch->buckets[k][i];
                KernelEventInfo *e;

                if (b->messages == 0)
                        continue;
                if (defer && kind_is_failure(k)) {
                        step->deferred[i] = true;
                        continue;
                }
                e = &events[n++];
                *e = (KernelEventInfo) {
                        .kind = k,
                        .instruction = i,
                        .messages = b->messages,
                        .count = b->messages,
                        .have_cpu = b->have_cpu,
                        .cpu = b->cpu,
                        .tries = b->tries,
                        .kernel_message = b->first_message,
                        .reason_id = b->reason ? b->reason->id : NULL,
                        .routine = routine && kind_is_failure(k),
                        .interval_usec = p->routine_interval_usec,
                };
                /* With counters, failures are counted by the kernel: every
                 * exhausted call once, whatever was printed. */
                if (kind_is_failure(k) && counters) {
                        e->count = carried ? 0 : grown;
                        carried = true;
                } else if (kind_is_failure(k) && p->counters_unread && rng_source_desc(i)->kernel.counters)
                        /* Each line is one exhaustion the kernel counted:
                         * the counter is at least this much further on. */
                        next->reported[i] += e->count;
                next->recorded[k][i] += e->count;
        }
        if (grown > 0 && defer)
                step->deferred[i] = true;
        else if (grown > 0 && !carried) {
                events[n++] = (KernelEventInfo) {
                        .kind = KERNEL_RNG_MSG_EXHAUSTED,
                        .instruction = i,
                        .count = grown,
                        .routine = routine,
                        .interval_usec = p->routine_interval_usec,
                };
                next->recorded[KERNEL_RNG_MSG_EXHAUSTED][i] += grown;
        }
        if (own > 0) {
                events[n++] = (KernelEventInfo) {
                        .kind = KERNEL_RNG_MSG_EXHAUSTED,
                        .instruction = i,
                        .count = own,
                        .own_probe = true,
                };
                next->own[i] += own;
        }
        if (counters)
                /* Held back growth stays out of reported: the counter keeps it. */
                next->reported[i] = defer ? state->reported[i] + own : MAX(state->reported[i], counters->exhausted[i]);
        for (size_t k = 0; k < n; k++)
                step->routine_recorded = step->routine_recorded || (events[k].routine && events[k].count > 0);
        return n;
}

const KernelCounters *kernel_watch_counters_update(KernelWatchCounters *v, int r, const KernelCounters *c) {
        if (r >= 0 && c) {
                v->snapshot = *c;
                v->have = true;
                v->stale = false;
        } else if (v->have)
                v->stale = true;
        v->absent = !v->have && r == -ENOENT;
        return v->have ? &v->snapshot : NULL;
}

bool kernel_watch_counters_unread(const KernelWatchCounters *v) {
        return !v->have && !v->absent;
}

int kernel_watch_account(const KernelWatchState *state, const KernelCounters *counters,
                         const KernelWatchBatch *batch, const char *cursor, const KernelWatchAccountParams *params,
                         KernelWatchStep *ret) {
        const KernelWatchAccountParams none = {};
        KernelWatchStep s = {};
        int r;

        if (!state || !batch || !ret)
                return -EINVAL;
        r = kernel_watch_state_copy(state, &s.next);
        if (r < 0)
                return r;

        FOREACH_RNG_SOURCE(i)
                if (rng_source_kernel_logged(i))
                        s.n_events += account_instruction(state, counters, batch, i, params ?: &none, &s,
                                                          s.events + s.n_events);
        if (s.n_events == 0) {
                *ret = s;
                return 0;
        }

        if (cursor) {
                char *c = strdup(cursor);

                if (!c) {
                        kernel_watch_step_done(&s);
                        return -ENOMEM;
                }
                free(s.next.cursor);
                s.next.cursor = c;
        }
        s.next.serial = state->serial + 1;
        for (size_t k = 0; k < s.n_events; k++) {
                KernelEventInfo *e = &s.events[k];

                e->state_serial = s.next.serial;
                e->have_counters = counters;
                e->exhausted_total = counters ? counters->exhausted[e->instruction] : 0;
                e->retried_total = counters ? counters->retried[e->instruction] : 0;
        }
        *ret = s;
        return (int) s.n_events;
}
