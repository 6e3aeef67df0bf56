/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "probe-pool.h"
#include "time-util.h"

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#else
        atomic_signal_fence(memory_order_seq_cst);
#endif
}

/* Spins this long before yielding: ~0.1-1 ms, far more than the wake-up of
 * the last thread takes when each has its own CPU, but an oversubscribed
 * pool (unpinned, more threads than CPUs) still lets the late one run. */
#define SPIN_BEFORE_YIELD 4096

static struct timespec timespec_at(uint64_t nsec) {
        return (struct timespec) { .tv_sec = (time_t) (nsec / 1000000000u), .tv_nsec = (long) (nsec % 1000000000u) };
}

/* Counts the worker in to job; the last one opens the run for all. A
 * waiter gives the job up when the last one has not come within
 * POOL_START_TIMEOUT_NSEC. Whether this worker draws for the job. */
static bool rendezvous(Pool *p, uint32_t job) {
        uint64_t go = 2 * (uint64_t) job, v = atomic_load_explicit(&p->arrived, memory_order_acquire), r, until;

        /* Counted in only while job is the current one: a worker that comes
         * after a newer job was handed out draws for none. */
        for (;;) {
                if ((uint32_t) (v >> 32) != job)
                        return false;
                if (atomic_compare_exchange_weak_explicit(&p->arrived, &v, v + 1, memory_order_acq_rel,
                                                          memory_order_acquire))
                        break;
        }
        if ((uint32_t) v + 1 == p->n) {
                uint64_t now = now_nsec();

                p->deadline = p->limits->budget_usec ? now + p->limits->budget_usec * 1000 : UINT64_MAX;
                r = atomic_load_explicit(&p->released, memory_order_acquire);
                while (r < go)
                        if (atomic_compare_exchange_weak_explicit(&p->released, &r, go, memory_order_acq_rel,
                                                                  memory_order_acquire))
                                return true;
                return r == go; /* a waiter gave it up first */
        }
        until = now_nsec() + POOL_START_TIMEOUT_NSEC;
        for (unsigned k = 0; (r = atomic_load_explicit(&p->released, memory_order_acquire)) < go; k++) {
                if (k < SPIN_BEFORE_YIELD) {
                        cpu_relax();
                        continue;
                }
                sched_yield();
                if (k % 64 == 0 && now_nsec() >= until &&
                    atomic_compare_exchange_strong_explicit(&p->released, &r, go + 1, memory_order_acq_rel,
                                                            memory_order_acquire))
                        return false;
        }
        return r == go;
}

/* Test hook: waits while the worker is held. */
static void wait_held(Worker *w) {
        Pool *p = w->pool;

        pthread_mutex_lock(&p->lock);
        while (w->held && !p->quit)
                pthread_cond_wait(&p->job_cond, &p->lock);
        pthread_mutex_unlock(&p->lock);
}

static void *worker_main(void *arg) {
        Worker *w = arg;
        Pool *p = w->pool;
        uint32_t job = 0;

        if (w->cpu >= 0) {
                cpu_set_t s;

                CPU_ZERO(&s);
                CPU_SET(w->cpu, &s);
                w->pin_error = pthread_setaffinity_np(pthread_self(), sizeof(s), &s);
        }

        for (;;) {
                bool drew, quit;

                pthread_mutex_lock(&p->lock);
                while (p->job == job && !p->quit)
                        pthread_cond_wait(&p->job_cond, &p->lock);
                job = p->job;
                quit = p->quit;
                pthread_mutex_unlock(&p->lock);
                if (quit)
                        break;
                wait_held(w);

                drew = rendezvous(p, job);
                if (drew) {
                        stream_done(&w->stream);
                        if (w->pin_error == 0)
                                w->stream.error = stream_run(p->srcs[w->index], p->limits, p->health, p->retries,
                                                             p->deadline, &w->stream);
                        else
                                w->stream = (Stream) { .error = -w->pin_error };
                }
                pthread_mutex_lock(&p->lock);
                if (p->job == job) {
                        p->done++;
                        pthread_cond_signal(&p->done_cond);
                }
                pthread_mutex_unlock(&p->lock);
        }
        return NULL;
}

void pool_hold(Pool *p, unsigned i, bool held) {
        pthread_mutex_lock(&p->lock);
        p->workers[i].held = held;
        pthread_cond_broadcast(&p->job_cond);
        pthread_mutex_unlock(&p->lock);
}

void pool_free(Pool *p) {
        if (!p)
                return;
        pthread_mutex_lock(&p->lock);
        p->quit = true;
        pthread_cond_broadcast(&p->job_cond);
        pthread_mutex_unlock(&p->lock);
        if (p->stuck) {
                /* A thread still in a run that should have ended: waiting
                 * for it could take forever. Its pool stays allocated for
                 * it (a leak, once per stuck pool). */
                for (unsigned i = 0; i < p->n_started; i++)
                        pthread_detach(p->tids[i]);
                return;
        }
        for (unsigned i = 0; i < p->n_started; i++)
                pthread_join(p->tids[i], NULL);
        if (p->workers)
                for (unsigned i = 0; i < p->n; i++)
                        stream_done(&p->workers[i].stream);
        pthread_cond_destroy(&p->job_cond);
        pthread_cond_destroy(&p->done_cond);
        pthread_mutex_destroy(&p->lock);
        free(p->workers);
        free(p->tids);
        free(p);
}

int pool_new(const int *cpus, unsigned n, Pool **ret) {
        pthread_condattr_t ca;
        Pool *p;
        int r = 0;

        if (n == 0)
                return -EINVAL;
        p = calloc(1, sizeof(Pool));
        if (!p)
                return -ENOMEM;
        p->n = n;
        pthread_mutex_init(&p->lock, NULL);
        (void) pthread_condattr_init(&ca);
        (void) pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&p->job_cond, &ca);
        pthread_cond_init(&p->done_cond, &ca);
        (void) pthread_condattr_destroy(&ca);
        p->workers = calloc(n, sizeof(Worker));
        p->tids = calloc(n, sizeof(pthread_t));
        if (!p->workers || !p->tids) {
                pool_free(p);
                return -ENOMEM;
        }

        for (unsigned i = 0; i < n; i++) {
                p->workers[i] = (Worker) { .pool = p, .index = i, .cpu = cpus ? cpus[i] : -1 };
                r = pthread_create(&p->tids[i], NULL, worker_main, &p->workers[i]);
                if (r != 0)
                        break;
                p->n_started++;
        }
        if (r != 0) {
                pool_free(p);
                return -r;
        }
        *ret = p;
        return 0;
}

/* When the run's threads should all have finished: the deadline the
 * budget gives, with a grace. Without a budget (--count alone: as many
 * tries as asked for, however long they take) none: only the stop hook
 * ends such a run early. */
static uint64_t finish_by(const Pool *p, uint64_t t0) {
        if (!p->limits->budget_usec)
                return UINT64_MAX;
        return t0 + POOL_START_TIMEOUT_NSEC + p->limits->budget_usec * 1000 + POOL_FINISH_GRACE_NSEC;
}

int pool_run(Pool *p, const RngSource *const *srcs, const ProbeLimits *limits, const HealthParams *health,
             uint64_t retries, uint64_t *ret_wall_nsec) {
        uint64_t t0, t1, go, bound;
        int r = 0;

        if (p->stuck)
                return -ETIMEDOUT;
        pthread_mutex_lock(&p->lock);
        p->srcs = srcs;
        p->limits = limits;
        p->health = health;
        p->retries = retries;
        p->job++;
        p->done = 0;
        go = 2 * (uint64_t) p->job;
        atomic_store_explicit(&p->arrived, (uint64_t) p->job << 32, memory_order_release);
        t0 = now_nsec();
        bound = finish_by(p, t0);
        pthread_cond_broadcast(&p->job_cond);

        /* Every worker, or (given up) every one that was counted in. */
        for (;;) {
                uint64_t released = atomic_load_explicit(&p->released, memory_order_acquire);
                uint32_t counted = (uint32_t) atomic_load_explicit(&p->arrived, memory_order_acquire);
                struct timespec ts;

                if (p->done >= p->n)
                        break;
                if (released == go + 1 && p->done >= counted) {
                        r = -ETIMEDOUT;
                        break;
                }
                if (released < go && now_nsec() >= t0 + 2 * POOL_START_TIMEOUT_NSEC) {
                        /* None gave it up, none raised it: a worker never
                         * woke (or none did). Give it up from here. */
                        uint64_t expect = released;

                        if (atomic_compare_exchange_strong_explicit(&p->released, &expect, go + 1,
                                                                    memory_order_acq_rel, memory_order_acquire))
                                continue;
                }
                if (now_nsec() >= bound) {
                        p->stuck = true;
                        r = -ETIMEDOUT;
                        break;
                }
                ts = timespec_at(MIN(now_nsec() + 10000000u, bound));
                (void) pthread_cond_timedwait(&p->done_cond, &p->lock, &ts);
        }
        pthread_mutex_unlock(&p->lock);
        t1 = now_nsec();
        *ret_wall_nsec = t1 - t0;
        return r;
}
