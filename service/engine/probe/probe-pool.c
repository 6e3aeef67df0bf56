/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <sched.h>
#include <stdlib.h>

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

/* Counts the worker in; the last one opens the run for all. */
static void rendezvous(Pool *p) {
        unsigned gen = p->generation;

        if (atomic_fetch_add_explicit(&p->arrived, 1, memory_order_acq_rel) + 1 == p->n) {
                uint64_t now = now_nsec();

                p->deadline = p->limits->budget_usec ? now + p->limits->budget_usec * 1000 : UINT64_MAX;
                atomic_store_explicit(&p->released, gen, memory_order_release);
                return;
        }
        for (unsigned k = 0; atomic_load_explicit(&p->released, memory_order_acquire) != gen; k++)
                if (k < SPIN_BEFORE_YIELD)
                        cpu_relax();
                else
                        sched_yield();
}

static void *worker_main(void *arg) {
        Worker *w = arg;
        Pool *p = w->pool;

        if (w->cpu >= 0) {
                cpu_set_t s;

                CPU_ZERO(&s);
                CPU_SET(w->cpu, &s);
                w->pin_error = pthread_setaffinity_np(pthread_self(), sizeof(s), &s);
        }

        pthread_mutex_lock(&p->gate_lock);
        while (!p->go && !p->abort)
                pthread_cond_wait(&p->gate_cond, &p->gate_lock);
        pthread_mutex_unlock(&p->gate_lock);
        if (p->abort)
                return NULL;

        for (;;) {
                pthread_barrier_wait(&p->start);
                if (p->quit)
                        break;
                stream_done(&w->stream);
                rendezvous(p);
                if (w->pin_error == 0)
                        w->stream.error = stream_run(p->srcs[w->index], p->limits, p->health, p->retries,
                                                     p->deadline, &w->stream);
                else
                        w->stream = (Stream) { .error = -w->pin_error };
                pthread_barrier_wait(&p->done);
        }
        return NULL;
}

void pool_free(Pool *p) {
        if (!p)
                return;
        if (p->go) {
                p->quit = true;
                pthread_barrier_wait(&p->start);
        }
        for (unsigned i = 0; i < p->n_started; i++)
                pthread_join(p->tids[i], NULL);
        if (p->workers) {
                for (unsigned i = 0; i < p->n; i++)
                        stream_done(&p->workers[i].stream);
                pthread_barrier_destroy(&p->start);
                pthread_barrier_destroy(&p->done);
                pthread_mutex_destroy(&p->gate_lock);
                pthread_cond_destroy(&p->gate_cond);
        }
        free(p->workers);
        free(p->tids);
        free(p);
}


int pool_new(const int *cpus, unsigned n, Pool **ret) {
        Pool *p;
        int r = 0;

        p = calloc(1, sizeof(Pool));
        if (!p)
                return -ENOMEM;
        p->n = n;
        p->workers = calloc(n, sizeof(Worker));
        p->tids = calloc(n, sizeof(pthread_t));
        if (!p->workers || !p->tids) {
                free(p->workers);
                p->workers = NULL;
                pool_free(p);
                return -ENOMEM;
        }
        pthread_barrier_init(&p->start, NULL, n + 1);
        pthread_barrier_init(&p->done, NULL, n + 1);
        pthread_mutex_init(&p->gate_lock, NULL);
        pthread_cond_init(&p->gate_cond, NULL);

        for (unsigned i = 0; i < n; i++) {
                p->workers[i] = (Worker) { .pool = p, .index = i, .cpu = cpus ? cpus[i] : -1 };
                r = pthread_create(&p->tids[i], NULL, worker_main, &p->workers[i]);
                if (r != 0)
                        break;
                p->n_started++;
        }

        /* Open the gate, or tell the started threads to leave. */
        pthread_mutex_lock(&p->gate_lock);
        if (r != 0)
                p->abort = true;
        else
                p->go = true;
        pthread_cond_broadcast(&p->gate_cond);
        pthread_mutex_unlock(&p->gate_lock);
        if (r != 0) {
                pool_free(p);
                return -r;
        }
        *ret = p;
        return 0;
}

uint64_t pool_run(Pool *p, const RngSource *const *srcs, const ProbeLimits *limits, const HealthParams *health,
                  uint64_t retries) {
        uint64_t t0, t1;

        p->srcs = srcs;
        p->limits = limits;
        p->health = health;
        p->retries = retries;
        p->generation++;
        atomic_store_explicit(&p->arrived, 0, memory_order_relaxed);

        t0 = now_nsec();
        pthread_barrier_wait(&p->start);
        pthread_barrier_wait(&p->done);
        t1 = now_nsec();
        return t1 - t0;
}
