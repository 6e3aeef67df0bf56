/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Internal to the probe: a pool of pinned threads for the contention runs.
 * The threads are made once and reused for every run of a
 * probe_run_all().
 *
 * A run must contend: every thread draws at the same time. A barrier (a
 * futex wake-up) releases the threads one after another, ~10-100 us apart
 * on a loaded many-core machine, longer than a default run of the fastest
 * source takes.
 * So the barrier only wakes them; each then spins on a shared flag that the
 * last one to arrive raises, and they all begin to draw within the time of
 * a cache-line transfer. They draw until a shared deadline (or each its
 * own number of tries). What overlap they reached is measured, not assumed
 * (ProbeWindow). */

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "macro.h"
#include "probe-stream.h"


typedef struct Pool Pool;

typedef struct Worker {
        Pool *pool;
        unsigned index;
        int cpu;       /* -1: not pinned */
        int pin_error; /* pthread_setaffinity_np(); the worker then runs no streams */
        Stream stream; /* its stream of the last run */
} Worker;

struct Pool {
        unsigned n;
        Worker *workers;
        pthread_t *tids;
        unsigned n_started;
        pthread_barrier_t start, done;
        /* Start-up gate: threads wait here until all exist (go) or creation failed (abort). */
        pthread_mutex_t gate_lock;
        pthread_cond_t gate_cond;
        bool go, abort;
        bool quit;
        /* The current job. */
        const RngSource *const *srcs;
        const ProbeLimits *limits;
        const HealthParams *health;
        uint64_t retries;
        /* The rendezvous of the current job: workers count themselves in,
         * the last one sets the deadline and raises released to the job's
         * generation; the others spin until it does. */
        unsigned generation;
        atomic_uint arrived, released;
        uint64_t deadline;
};

/* n threads, thread i pinned to cpus[i] (cpus may be NULL: not pinned). */
int pool_new(const int *cpus, unsigned n, Pool **ret);
/* One run: thread i streams from srcs[i]; returns when all are done, with
 * the wall time from the wake-up to the last thread done. Each worker's
 * result is then in workers[i].stream. */
uint64_t pool_run(Pool *p, const RngSource *const *srcs, const ProbeLimits *limits, const HealthParams *health,
                  uint64_t retries);
void pool_free(Pool *p);
DEFINE_TRIVIAL_CLEANUP_FUNC(Pool *, pool_free);

