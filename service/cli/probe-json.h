/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The probe report and the sweep as JSON (schema "rng-health.probe/3", see
 * doc/probe-json.md). */

#include "json-util.h"
#include "probe.h"

#define PROBE_JSON_SCHEMA "rng-health.probe/3"

int probe_report_to_json(const ProbeReport *r, struct json_object **ret);
int probe_sweep_to_json(const ProbeSweepReport *r, struct json_object **ret);
