/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The probe report and the sweep as JSON (schema "rng-health.probe/2", see
 * probe-json.md). */

#include <json-c/json.h>

#include "macro.h"
#include "probe.h"


#define PROBE_JSON_SCHEMA "rng-health.probe/2"

DEFINE_TRIVIAL_CLEANUP_FUNC(struct json_object *, json_object_put);
#define _cleanup_json_ _cleanup_(json_object_putp)


int probe_report_to_json(const ProbeReport *r, struct json_object **ret);
int probe_sweep_to_json(const ProbeSweepReport *r, struct json_object **ret);
