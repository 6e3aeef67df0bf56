/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Internal to the probe: a pool of pinned threads for the contention runs.
 * The threads are made once and reused for every run of a
 * probe_run_all().
 *
 * A run must contend: every thread draws at the same time. A condition
 * variable (a futex wake-up) hands out the job and wakes the threads one
 * after another, ~10-100 us apart on a loaded many-core machine, longer
 * than a default run of the fastest source takes. So the wake-up only
 * wakes them; each then spins on a shared word that the last one to
 * arrive raises, and they all begin to draw within the time of a
 * cache-line transfer. They draw until a shared deadline (or each its own
 * number of tries). What overlap they reached is measured, not assumed
 * (ProbeWindow).
 *
 * Every wait is bounded. A thread that does not arrive within
 * POOL_START_TIMEOUT_NSEC of the first (not scheduled, or stopped) makes
 * the others give the run up: pool_run() returns -ETIMEDOUT, and a late
 * thread draws nothing for it. A run whose threads have not all finished
 * POOL_FINISH_GRACE_NSEC after the budget's deadline is given up too, and
 * the pool is marked stuck: pool_free() then leaves its threads behind
 * instead of waiting for them. (A run without a budget makes the tries
 * it was asked for, however long they take; the stop hook, ProbeLimits,
 * ends any run within PROBE_STOP_POLL_NSEC.) */

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "macro.h"
#include "probe-stream.h"

#define POOL_START_TIMEOUT_NSEC (250 * 1000000ull)
#define POOL_FINISH_GRACE_NSEC (10 * 1000000000ull)

typedef struct Pool Pool;

typedef struct Worker {
        Pool *pool;
        unsigned index;
        int cpu;       /* -1: not pinned */
        int pin_error; /* pthread_setaffinity_np(); the worker then runs no streams */
        Stream stream; /* its stream of the last run it drew in */
        /* Tests: a worker that does not arrive until told (pool_hold()). */
        bool held;
} Worker;

struct Pool {
        unsigned n;
        Worker *workers;
        pthread_t *tids;
        unsigned n_started;
        /* The job: its number (0: none yet), and the workers done with it,
         * under lock; job_cond wakes the workers, done_cond the caller. */
        pthread_mutex_t lock;
        pthread_cond_t job_cond, done_cond;
        uint32_t job;
        unsigned done;
        bool quit, stuck;
        /* The current job. */
        const RngSource *const *srcs;
        const ProbeLimits *limits;
        const HealthParams *health;
        uint64_t retries;
        /* The rendezvous: arrived is (job << 32) | workers counted in,
         * released 2 * job once the last one raised it, 2 * job + 1 once a
         * waiter gave the job up (each only ever grows); the last one sets
         * the deadline before it raises. */
        _Atomic uint64_t arrived, released;
        uint64_t deadline;
};

/* n threads, thread i pinned to cpus[i] (cpus may be NULL: not pinned). */
int pool_new(const int *cpus, unsigned n, Pool **ret);
/* One run: thread i streams from srcs[i]; returns when all are done, with
 * the wall time from the hand-out to the last thread done in
 * *ret_wall_nsec. Each worker's result is then in workers[i].stream.
 * -ETIMEDOUT: not every thread arrived in time (the run was given up), or
 * they did not finish in time (the pool is stuck: pool_free() only). */
int pool_run(Pool *p, const RngSource *const *srcs, const ProbeLimits *limits, const HealthParams *health,
             uint64_t retries, uint64_t *ret_wall_nsec);
/* Tests: worker i does not arrive at its next run until pool_hold(p, i,
 * false). */
void pool_hold(Pool *p, unsigned i, bool held);
void pool_free(Pool *p);
DEFINE_TRIVIAL_CLEANUP_FUNC(Pool *, pool_free);
