/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The probe report and the sweep as aligned tables for a person, verdicts
 * first. */

#include <stdio.h>

#include "probe.h"

void probe_report_print_table(const ProbeReport *r, FILE *f);
void probe_sweep_print_table(const ProbeSweepReport *r, FILE *f);
