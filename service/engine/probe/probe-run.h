/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The probe's runs on a thread pool that probe_run_all() and probe_sweep()
 * keep between runs (probe_run_single() and probe_run_contention() are
 * in probe.h). */

#include "probe-pool.h"
#include "probe.h"

/* One contention run on p: thread i draws from srcs[i]; threads that could
 * not be pinned are left out (-ESRCH if none is left). */
int probe_run_on_pool(Pool *p, const RngSource *const *srcs, const ProbeLimits *limits,
                      const HealthParams *health, const VerdictParams *vp, ProbeRun *ret);
