/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The parts of probe-json.c that describe one run (probe-json-run.c). */

#include "json-util.h"
#include "probe.h"

int probe_run_to_json(const ProbeRun *r, struct json_object **ret);
/* [low, high] of the failure rate's 95 % interval. */
int probe_run_ci_to_json(const ProbeRun *r, struct json_object **ret);
/* A contention run's common window; *ret NULL (JSON null) for a single run. */
int probe_run_window_to_json(const ProbeRun *r, struct json_object **ret);
/* The kernel's exhausted counters' growth over a contention run; *ret NULL
 * (JSON null) without counters. */
int probe_run_kernel_during_to_json(const ProbeRun *r, struct json_object **ret);
