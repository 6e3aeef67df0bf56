/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The probe report and the sweep as JSON (schema "rng-health.probe/3", see
 * doc/probe-json.md). */

#include "fail-on.h"
#include "json-util.h"
#include "probe.h"

#define PROBE_JSON_SCHEMA "rng-health.probe/3"

/* exit_code: probe_report_exit_status(r, strict) (strict: --fail-on's, or NULL). */
int probe_report_to_json(const ProbeReport *r, const FailOn *strict, struct json_object **ret);
int probe_sweep_to_json(const ProbeSweepReport *r, struct json_object **ret);
